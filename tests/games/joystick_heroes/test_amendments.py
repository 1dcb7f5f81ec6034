"""The amendments of 2026-11-24: ruling H13a (discards at will during any PLAY phase, on
anyone's turn) and ruling H9a (Versus on a Premium card: Levels passed first)."""

from __future__ import annotations

import copy

import pytest
from jh_factories import GAME, act, give, roll, table, texts

from app.engine.contract import IllegalMove
from app.engine.dice import Dice

NO = {"type": "answer", "accept": False}
YES = {"type": "answer", "accept": True}


def discard(card: str) -> dict[str, str]:
    return {"type": "discard", "card": card}


# --- H13a -----------------------------------------------------------------------------------
def test_a_seat_not_to_move_discards_and_the_turn_stays_put():
    """H13a: "every player may discard from her hand at will, on anyone's turn"; "Discards
    never need the table to wait"."""
    state = table(3)
    (card,) = give(state, 2, "coupon")
    assert GAME.active_seats(state) == {0}
    assert GAME.legal_moves(state, 2) == [discard(card)]
    assert GAME.out_of_turn_moves(state, 2) == [discard(card)]
    after, events = act(state, 2, discard(card))
    assert after["players"][2]["hand"] == [] and after["power_discard"][-1] == card
    assert texts(events) == "Green discards Coupon."
    assert GAME.active_seats(after) == {0} and after["turn"] == state["turn"]
    assert GAME.decision_seconds(after) is None


def test_discards_go_on_while_a_question_waits_for_someone_else():
    """H13a "on anyone's turn": while Blue is asked about a Versus challenge, Green (not asked)
    and Blue herself may discard; the question still waits for Blue alone."""
    state = table(3, arcade=[1, 3, 5, 6, 8, 9])
    (green,) = give(state, 2, "coupon")
    (blue,) = give(state, 1, "turbo")
    state, _ = act(state, 0, {"type": "move_to", "spot": 2})  # Tbob, a Versus card
    assert state["question"]["kind"] == "versus" and GAME.active_seats(state) == {1}
    assert GAME.legal_moves(state, 1) == [YES, NO, discard(blue)]
    state, _ = act(state, 2, discard(green))
    state, _ = act(state, 1, discard(blue))
    assert state["question"]["seat"] == 1 and GAME.active_seats(state) == {1}
    assert GAME.decision_seconds(state) == 30
    state, events = act(state, 1, NO)
    assert "Blue does not challenge." in texts(events)


def test_a_player_without_tokens_discards_while_skipping_her_turns():
    """H13a: "also a player with no tokens left who skips her own PLAY turns" (H8)."""
    state = table(2)
    state["players"][1]["tokens"] = 0
    first, second = give(state, 1, "coupon", "do_over")
    state, _ = act(state, 1, discard(first))
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 0))
    assert state["question"]["kind"] == "tilt"  # she holds a card, so she is asked
    state, _ = act(state, 1, discard(second))  # while Red's dice are on the table
    assert state["players"][1]["hand"] == [] and state["play"]["seat"] == 0
    state, _ = act(state, 1, NO)
    state, events = act(state, 0, {"type": "done"})
    assert "Blue has no tokens left and skips this round." in texts(events)


def test_no_discard_outside_a_play_phase():
    """H13a: discards are "During any PLAY phase": not at set-up, not in a POWER UP."""
    setup = GAME.setup(2, GAME.parse_options({}), Dice("h13a", 0))
    card = setup["players"][1]["hand"][0]
    assert discard(card) not in GAME.legal_moves(setup, 1)
    with pytest.raises(IllegalMove):
        act(setup, 1, discard(card))
    state = table(2)
    state["players"][0]["tokens"] = state["players"][1]["tokens"] = 1
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 0))
    state, _ = act(state, 0, {"type": "done"})
    state, _ = act(state, 1, {"type": "move_to", "spot": 3})
    state, _ = act(state, 1, {"type": "roll"}, roll(100, 100, 0))
    state, _ = act(state, 1, {"type": "done"})
    assert state["phase"] == "powerup"
    (card,) = give(state, 1, "coupon")
    assert GAME.out_of_turn_moves(state, 1) == []
    assert discard(card) not in GAME.legal_moves(state, 1)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove):
        act(state, 1, discard(card))
    assert state == before


def test_an_illegal_discard_changes_nothing():
    """A card that is not in her hand (here: the player to move's) cannot be discarded."""
    state = table(2)
    (reds,) = give(state, 0, "turbo")
    give(state, 1, "coupon")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as refused:
        act(state, 1, discard(reds))
    assert "not in your hand" in refused.value.reason
    assert state == before


def test_discarding_the_tilt_she_said_yes_with_turns_her_answer_to_no():
    """Tilt! (Reaction) is played from the hand: once its holder discards it, her private yes
    no longer plays it, and nobody learns more than the public discard."""
    state = table(3)
    (tilt,) = give(state, 1, "tilt")
    give(state, 2, "coupon")
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 0))
    assert state["question"]["kind"] == "tilt"
    state, _ = act(state, 1, YES)
    state, _ = act(state, 1, discard(tilt))
    assert state["question"]["answers"] == {"1": False}
    state, events = act(state, 2, NO)
    assert "Nobody plays Tilt!" in texts(events) and state["question"] is None


# --- H9a ------------------------------------------------------------------------------------
RING_CHAMP = 39  # Premium, Versus: L1 250 / L2 450 / L3 650 (Joystick + Buttons, Sports)


def _premium_versus():
    """Red moves to Ring Champ (2 Scoring dice for both) and Blue challenges her."""
    state = table(2, arcade=[1, 3, RING_CHAMP, 6, 8])
    state, _ = act(state, 0, {"type": "move_to", "spot": 2})
    state, _ = act(state, 1, YES)
    return state


def _fails_level_1(state, seat, a, b, game_face="+100"):
    state, _ = act(state, seat, {"type": "roll"}, roll(a, b, game_face=game_face))
    return act(state, seat, {"type": "done"})


def test_premium_versus_more_levels_beat_a_higher_score():
    """H9a, the issue's example: Red fails Level 1 with 200, Blue passes Level 1 and scores 100
    on Level 2: Blue passed more Levels, so Blue is the top scorer."""
    state = _premium_versus()
    state, _ = _fails_level_1(state, 0, 100, 0)  # 200 < 250
    state, _ = act(state, 1, {"type": "roll"}, roll(100, 100))  # 300: Level 1 passed
    state, _ = act(state, 1, {"type": "done"}, roll(0, 0))  # Level 2: 100 < 450
    state, events = act(state, 1, {"type": "done"})
    assert "Versus: Blue passes more Levels (1 to 0) and takes 2 extra tickets." in texts(events)
    assert state["players"][1]["tickets"] == 1 + 2  # Level 1's reward and the bonus
    assert state["players"][0]["tickets"] == 0


def test_premium_versus_same_levels_the_last_level_score_decides():
    """H9a: "same number of Levels passed (both failing Level 1 included), the higher score of
    the last Level each rolled decides"."""
    state = _premium_versus()
    state, _ = _fails_level_1(state, 0, 100, 0)  # 200
    state, events = _fails_level_1(state, 1, 0, 0)  # 100
    assert (
        "Versus: Red has the top score on the last Level rolled (200 to 100, no Level "
        "passed each) and takes 2 extra tickets."
    ) in texts(events)
    assert state["players"][0]["tickets"] == 2


def test_premium_versus_equal_levels_and_score_is_a_tie():
    """H9a: "equal again is a tie (no extra tickets)"."""
    state = _premium_versus()
    state, _ = _fails_level_1(state, 0, 100, 0)
    state, events = _fails_level_1(state, 1, 0, 100)
    assert (
        "Versus: Red and Blue tie: no Level passed each, 200 on the last Level rolled; no "
        "extra tickets."
    ) in texts(events)
    assert [p["tickets"] for p in state["players"]] == [0, 0]


def test_a_match_begun_under_rules_1_keeps_the_old_versus_and_texts():
    """Amendments do not rewrite matches already played: under rules version 1 the last score
    alone decided a Premium Versus (the issue's example goes to Red), as it did then."""
    state = GAME.keep_older_rules(_premium_versus(), "1")
    state, _ = _fails_level_1(state, 0, 100, 0)  # 200 < 250
    state, _ = act(state, 1, {"type": "roll"}, roll(100, 100))
    state, _ = act(state, 1, {"type": "done"}, roll(0, 0))  # Level 2: 100
    state, events = act(state, 1, {"type": "done"})
    assert "Versus: Red has the top score (200 to 100) and takes 2 extra tickets." in texts(events)
    assert "levels" not in state["last_result"]


# --- issue 14, item 10: numbers and nouns agree -----------------------------------------------
def test_one_prize_collected_reads_in_the_singular():
    """Solo (H17): "The arcade closes with 1 Prize collected.", never "1 Prizes"."""
    from app.games.joystick_heroes.flow import finish_game

    state = table(1)
    state["players"][0]["prizes"] = 1
    finish_game(state, Dice("f", 1), [])
    assert GAME.outcome(state).reason == "The arcade closes with 1 Prize collected."


def test_a_one_ticket_purchase_with_a_coupon_reads_in_the_singular():
    """H14 with a Coupon: a genre cube for 2 - 1 = 1 ticket, bought with 1 Coupon."""
    state = table(2)
    state["players"][0]["tickets"] = 1
    state["players"][0]["last_game"] = 1  # Highway Hop: Joystick, Driving, Classic
    (coupon,) = give(state, 0, "coupon")
    state["phase"], state["turn"] = "powerup", None
    state["powerup"] = {"final": False, "carts": [[], []], "done": [False, True]}
    state, _ = act(state, 0, {"type": "use_coupon", "card": coupon})
    state, _ = act(state, 0, {"type": "buy", "item": "classic"})
    state, events = act(state, 0, {"type": "done"}, Dice("draws", 1))
    assert "Red buys 1 Classic cube for 1 ticket with 1 Coupon." in texts(events)
