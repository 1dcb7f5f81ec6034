"""Other players' decisions mid-turn: Versus challenges (H9), Co-op loans (H10), the reaction
cards Tilt! and Ticket Thief, and the decision clock hooks (no answer in time = "no")."""

from __future__ import annotations

import pytest
from jh_factories import GAME, Scripted, act, face, give, roll, table, texts

from app.engine.contract import IllegalMove

NO = {"type": "answer", "accept": False}
YES = {"type": "answer", "accept": True}


def to_tbob(players=3):
    """Seat 0 moves to Tbob (spot 2, a Versus card)."""
    state = table(players)
    state, events = act(state, 0, {"type": "move_to", "spot": 2})
    return state, events


def test_versus_asks_the_others_clockwise_before_any_dice():
    """H9: "before any dice, each other player who has not yet played this round and has a
    token may challenge, asked in clockwise order"."""
    state, _ = to_tbob(3)
    assert state["play"] is None
    assert GAME.active_seats(state) == {1}
    assert GAME.legal_moves(state, 1) == [YES, NO]
    assert GAME.legal_moves(state, 0) == []
    state, _ = act(state, 1, NO)
    assert GAME.active_seats(state) == {2}
    state, _ = act(state, 2, NO)
    assert state["play"]["seat"] == 0


def test_versus_skips_players_who_played_or_have_no_token():
    """H9: only players who have not yet played this round and have a token."""
    state = table(3)
    state["players"][1]["played"] = True
    state["players"][2]["tokens"] = 0
    state, _ = act(state, 0, {"type": "move_to", "spot": 2})
    assert state["question"] is None and state["play"]["seat"] == 0


def test_an_accepted_challenge_costs_a_token_moves_the_pawn_and_is_her_turn():
    """Versus: "Spend 1 token and move your pawn to the card"; H9: "this is her turn for the
    round"."""
    state, _ = to_tbob(3)
    state["players"][2]["spot"] = 4
    state, _ = act(state, 1, NO)
    state, events = act(state, 2, YES)
    assert state["players"][2]["tokens"] == 9 and state["players"][2]["spot"] == 2
    assert state["players"][2]["played"] is True
    assert "Green pays a token and challenges Red (Versus)!" in texts(events)


def test_versus_both_play_and_the_top_scorer_takes_two_tickets():
    """Versus: "You'll both play the game and keep your winnings, but the top scorer gets 2
    extra tickets"; H9: "The card gets 2 play markers"; active player first."""
    state, _ = to_tbob(2)
    state, _ = act(state, 1, YES)
    assert state["play"]["seat"] == 0
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 200, 0, game_face="+100"))  # 600: 1T
    state, _ = act(state, 0, {"type": "done"})
    assert state["play"]["seat"] == 1
    state, _ = act(state, 1, {"type": "roll"}, roll(100, 100, 0, game_face="+100"))  # 300
    state, events = act(state, 1, {"type": "done"})
    assert state["players"][0]["tickets"] == 1 + 2
    assert state["players"][1]["tickets"] == 0
    assert "Versus: Red has the top score (600 to 300) and takes 2 extra tickets." in texts(events)
    assert state["arcade"][2]["plays"] == 2
    assert state["phase"] == "powerup"  # Blue's turn was the challenge


def test_versus_tie_awards_no_extra_tickets():
    """Versus: "In case of a tie, no extra tickets are awarded"."""
    state, _ = to_tbob(2)
    state, _ = act(state, 1, YES)
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 0))
    state, _ = act(state, 0, {"type": "done"})
    state, _ = act(state, 1, {"type": "roll"}, roll(0, 100, 100))
    state, events = act(state, 1, {"type": "done"})
    assert (state["players"][0]["tickets"], state["players"][1]["tickets"]) == (0, 0)
    assert "tie at 300; no extra tickets" in texts(events)


def _coop_table():
    """Seat 0 on Pellet Panic (spot 1: Premium Co-op; Joystick + Buttons, Classic) with 2
    tickets; seat 1 has 3 Buttons cubes."""
    state = table(2)
    state["players"][0]["tickets"] = 2
    state["players"][1]["cubes"]["buttons"] = 3
    state, _ = act(state, 0, {"type": "move_to", "spot": 1})
    return state


def test_coop_asks_one_player_for_one_cube_of_the_cards_columns():
    """H10: "ask one other player to lend one cube from one of the card's 3 columns where the
    lender has at least one cube"."""
    state = _coop_table()
    asks = [m for m in GAME.legal_moves(state, 0) if m["type"] == "ask_coop"]
    assert {"type": "ask_coop", "lender": 1, "column": "buttons"} in asks
    assert all(m["column"] in ("joystick", "buttons", "classic") for m in asks)
    state["players"][1]["cubes"]["classic"] = 0
    asks = [m for m in GAME.legal_moves(state, 0) if m["type"] == "ask_coop"]
    assert {"type": "ask_coop", "lender": 1, "column": "classic"} not in asks


def test_an_accepted_loan_costs_one_ticket_and_gives_one_die():
    """Co-op: "pay a willing player 1 ticket to borrow one of their skillz/genres' Power cubes
    to give you extra dice"; H10: the lender's cube never leaves her board."""
    state = _coop_table()
    before = GAME.view(state, 0)["play"]["dice_count"]
    state, events = act(state, 0, {"type": "ask_coop", "lender": 1, "column": "buttons"})
    assert GAME.active_seats(state) == {1}
    assert GAME.view(state, 1)["question"]["kind"] == "coop"
    state, events = act(state, 1, YES)
    assert GAME.view(state, 0)["play"]["dice_count"] == before + 1
    assert (state["players"][0]["tickets"], state["players"][1]["tickets"]) == (1, 1)
    assert state["players"][1]["cubes"]["buttons"] == 3
    assert not any(m["type"] == "ask_coop" for m in GAME.legal_moves(state, 0))


def test_the_lender_takes_two_tickets_on_a_high_score():
    """Co-op: "If you get a High Score, that player gets 2 more tickets from the supply"."""
    state = _coop_table()
    state, _ = act(state, 0, {"type": "ask_coop", "lender": 1, "column": "buttons"})
    state, _ = act(state, 1, YES)  # 4 dice on Pellet Panic (L1 250, L2 450, L3 650, HS 950)
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 0, 0, 0))
    state, _ = act(state, 0, {"type": "done"}, roll(300, 200, 0, 0))
    state, events = act(state, 0, {"type": "done"}, roll(300, 300, 300, 0))
    state, events = act(state, 0, {"type": "done"})
    assert state["players"][0]["prizes"] == 2
    assert state["players"][1]["tickets"] == 1 + 2
    assert "Blue lent the cube for that High Score and takes 2 tickets." in texts(events)


def test_a_declined_loan_costs_nothing():
    """H10: the ticket is paid only "If the lender accepts"."""
    state = _coop_table()
    state, _ = act(state, 0, {"type": "ask_coop", "lender": 1, "column": "buttons"})
    state, events = act(state, 1, NO)
    assert state["players"][0]["tickets"] == 2 and state["play"]["coop"] is None
    assert "Blue does not lend a cube." in texts(events)


def test_no_loan_without_a_ticket():
    """H10: "the active player pays her 1 ticket"."""
    state = _coop_table()
    state["players"][0]["tickets"] = 0
    assert not any(m["type"] == "ask_coop" for m in GAME.legal_moves(state, 0))


def test_tilt_makes_the_roller_reroll_the_game_die_once():
    """Tilt! (Reaction, Key 150): "When another player rolls the Game die, she must reroll it
    once"."""
    state = table(2)
    (card,) = give(state, 1, "tilt")
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 100, game_face="+200"))
    assert GAME.active_seats(state) == {1}
    assert GAME.view(state, 1)["question"]["kind"] == "tilt"
    assert GAME.view(state, 0)["question"] == {"kind": "tilt", "asker": 0, "seats": [1]}
    state, events = act(state, 1, YES, Scripted(face("bomb")))
    assert state["play"]["face"] == "bomb" and state["players"][1]["hand"] == []
    assert "Blue plays Tilt! Red must reroll the Game die" in texts(events)
    assert GAME.active_seats(state) == {0}


def test_ticket_thief_takes_up_to_two_collected_tickets():
    """Ticket Thief (Reaction, Key 100): "When another player collects tickets from a game,
    take up to 2 of those tickets for yourself"."""
    state = table(2)
    give(state, 1, "ticket_thief")
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 300, 0, game_face="+100"))  # 700: 3T
    state, _ = act(state, 1, NO)  # Blue has a card, so she is asked about Tilt! too
    state, _ = act(state, 0, {"type": "done"})
    assert GAME.active_seats(state) == {1} and state["question"]["kind"] == "thief"
    state, events = act(state, 1, YES)
    assert (state["players"][0]["tickets"], state["players"][1]["tickets"]) == (1, 2)
    assert "Blue plays Ticket Thief and takes 2 of Red's tickets." in texts(events)
    assert GAME.active_seats(state) == {1}  # on to Blue's turn


def test_ticket_thief_is_not_asked_when_no_tickets_were_won():
    state = table(2)
    give(state, 1, "ticket_thief")
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0, game_face="+100"))
    state, _ = act(state, 1, NO)  # the Tilt! question every card holder is asked
    state, _ = act(state, 0, {"type": "done"})
    assert state["question"] is None


def test_the_clock_runs_only_while_a_question_waits():
    """Decision clock hooks: seconds while a Versus/Co-op/reaction question is pending, None
    on normal turns."""
    state = table(3)
    assert GAME.decision_seconds(state) is None
    state, _ = act(state, 0, {"type": "move_to", "spot": 2})
    assert GAME.decision_seconds(state) == 30


def test_no_answer_in_time_counts_as_no():
    """Issue item 4: "no answer in time counts as no"; the timeout move is a legal move."""
    state, _ = to_tbob(3)
    move = GAME.timeout_move(state, 1)
    assert move == NO and move in GAME.legal_moves(state, 1)
    assert GAME.timeout_move(state, 2) is None
    assert GAME.timeout_move(table(2), 0) is None
    state, _ = act(state, 1, move)
    assert GAME.active_seats(state) == {2}


def test_only_the_asked_player_may_answer():
    state, _ = to_tbob(3)
    with pytest.raises(IllegalMove, match="Waiting for another player's answer"):
        act(state, 2, YES)
