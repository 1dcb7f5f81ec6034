"""Joystick Heroes set-up and the PLAY phase: rulebook "Setup", "PLAY Phase", "How To Play
Standard/Premium Games", "High Score!", "Ending Your Turn"; rulings H1, H2, H4-H8."""

from __future__ import annotations

import pytest
from jh_factories import GAME, Scripted, act, face, roll, table, texts

from app.engine.contract import IllegalMove
from app.engine.dice import Dice
from app.games.joystick_heroes.scoring import standard_result


def test_one_to_six_players():
    """H1: "Players: 1-6" (1 = Solo mode)."""
    assert (GAME.min_players, GAME.max_players) == (1, 6)
    with pytest.raises(ValueError):
        GAME.setup(7, GAME.parse_options({}), Dice("x", 0))


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_arcade_has_players_plus_three_cards(players):
    """H2: "Games cards face up = players + 3 (1p: 4 ... 6p: 9)"."""
    state = GAME.setup(players, GAME.parse_options({}), Dice("a", 0))
    assert len(state["arcade"]) == players + 3
    assert all(spot["card"] is not None for spot in state["arcade"])


def test_a_hero_starts_with_one_cube_per_skill_and_two_chosen_genres():
    """Setup 2: 1 cube in each of the 4 skillz columns, 1 in each of 2 chosen genres."""
    state = GAME.setup(2, GAME.parse_options({}), Dice("b", 0))
    assert state["phase"] == "setup" and GAME.active_seats(state) == {0, 1}
    assert len(GAME.legal_moves(state, 0)) == 6  # the 6 pairs of genres
    state, events = act(
        state, 0, {"type": "choose_genres", "genres": ["classic", "scifi"]}, Dice("b", 1)
    )
    cubes = state["players"][0]["cubes"]
    assert cubes == {
        "joystick": 1,
        "driving": 1,
        "buttons": 1,
        "shooting": 1,
        "adventure": 0,
        "classic": 1,
        "scifi": 1,
        "sports": 0,
    }
    assert "Red likes Classic and Sci-fi." in texts(events)


def test_a_hero_starts_with_10_tokens_and_3_power_cards():
    """Setup 3-4: deal 3 Power cards to each player; grab 10 Arcade tokens."""
    state = GAME.setup(4, GAME.parse_options({}), Dice("c", 0))
    for p in state["players"]:
        assert p["tokens"] == 10 and len(p["hand"]) == 3 and p["tickets"] == 0
    instants = {"on_the_button", "all_play_tournament"}
    from app.games.joystick_heroes.content import kind_of

    assert not any(kind_of(c) in instants for p in state["players"] for c in p["hand"])


def test_play_starts_with_the_pizza_slice_when_all_have_chosen():
    """PLAY Phase: "In turns clockwise, starting with the player with the pizza slice"."""
    state = GAME.setup(3, GAME.parse_options({}), Dice("d", 0))
    pizza = state["pizza"]
    for seat in range(3):
        state, events = act(
            state,
            seat,
            {"type": "choose_genres", "genres": ["adventure", "sports"]},
            Dice("d", seat + 1),
        )
    assert state["phase"] == "play"
    assert state["order"] == [pizza, (pizza + 1) % 3, (pizza + 2) % 3]
    assert GAME.active_seats(state) == {pizza}


def test_the_first_move_may_go_to_any_card():
    """H8: "(first turn: any spot)"."""
    state = table(2)
    assert [m["spot"] for m in GAME.legal_moves(state, 0) if m["type"] == "move_to"] == [
        0,
        1,
        2,
        3,
        4,
    ]


def test_moving_pays_a_token_and_an_occupied_or_own_spot_is_refused():
    """PLAY Phase: move to an unoccupied card, insert coin; H8: other than your current spot."""
    state = table(2)
    state["players"][1]["spot"] = 1
    state["players"][0]["spot"] = 0
    spots = [m["spot"] for m in GAME.legal_moves(state, 0) if m["type"] == "move_to"]
    assert spots == [2, 3, 4]
    with pytest.raises(IllegalMove):
        act(state, 0, {"type": "move_to", "spot": 1})
    with pytest.raises(IllegalMove):
        act(state, 0, {"type": "move_to", "spot": 0})
    after, _ = act(state, 0, {"type": "move_to", "spot": 4})
    assert after["players"][0]["tokens"] == 9 and after["players"][0]["spot"] == 4


def test_no_free_spot_skips_the_turn_and_keeps_the_token():
    """H8: "If no legal spot exists you skip playing but keep the token"."""
    state = table(2, arcade=[1, 4])
    state["players"][0]["spot"] = 0
    state["players"][1]["spot"] = 1
    state["turn"]["seat"] = 1
    state["order_index"] = 0
    state["order"] = [0, 1]
    state["turn"] = None
    state["order_index"] = 0
    from app.games.joystick_heroes.flow import next_turn

    events = []
    next_turn(state, Dice("z", 1), events)
    assert "Blue finds no free game and skips this turn, keeping the token." in texts(events)
    assert state["players"][1]["tokens"] == 10
    assert state["phase"] == "powerup"


def test_players_without_tokens_skip_play():
    """H8: "Players with 0 tokens skip PLAY"."""
    state = table(2)
    state["players"][1]["tokens"] = 0
    state["turn"] = None
    from app.games.joystick_heroes.flow import next_turn

    events = []
    next_turn(state, Dice("z", 1), events)
    assert "Blue has no tokens left and skips this round." in texts(events)


def test_dice_are_the_cubes_in_the_cards_three_columns():
    """Rulebook example: Tbob (Classic; Joystick + Shooting) with 2 Joystick, 1 Shooting and
    1 Classic cube rolls 4 Scoring dice (2 + 1 + 1) plus the Game die."""
    state = table(3)
    state["players"][0]["cubes"]["joystick"] = 2
    state, _ = act(state, 0, {"type": "move_to", "spot": 2})
    # Tbob is a Versus card: both others decline.
    state, _ = act(state, 1, {"type": "answer", "accept": False})
    state, _ = act(state, 2, {"type": "answer", "accept": False})
    state, events = act(state, 0, {"type": "roll"}, roll(100, 200, 0, 300, game_face="+100"))
    assert state["play"]["dice"] == [100, 200, 0, 300]
    assert state["play"]["face"] == "+100"
    assert "rolls 4 Scoring dice" in texts(events)


def test_at_most_nine_scoring_dice():
    """Rulebook: "the maximum number of Scoring dice you can roll at once is 9" (H4)."""
    state = table(2)
    for column in ("joystick", "driving", "classic"):
        state["players"][0]["cubes"][column] = 5
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(*[100] * 9))
    assert len(state["play"]["dice"]) == 9


def test_zero_dice_still_rolls_the_game_die_and_a_score_is_never_below_zero():
    """H4: "With 0 dice you still roll the Game die. A score is never below 0"."""
    state = table(2)
    for column in ("joystick", "driving", "classic"):
        state["players"][0]["cubes"][column] = 0
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, Scripted(face("-100")))
    assert state["play"]["dice"] == [] and state["play"]["face"] == "-100"
    state, events = act(state, 0, {"type": "done"})
    assert "Red scores 0 on Highway Hop and wins nothing" in texts(events)


@pytest.mark.parametrize(
    ("game_face", "dice", "score"),
    [
        ("+100", [100, 200, 0], 400),
        ("+200", [100, 200, 0], 500),
        ("-100", [100, 200, 0], 200),
        ("bomb", [100, 300, 200], 300),
        ("key", [100, 200, 0], 300),
        ("heart", [100, 200, 0], 300),
    ],
)
def test_game_die_faces_change_the_score(game_face, dice, score):
    """H5: +100/+200/-100 add; Bomb subtracts the highest Scoring die; Key and Heart add
    nothing by themselves. Score = max(0, dice + Game die + card effects)."""
    state = table(2)
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(*dice, game_face=game_face))
    assert GAME.view(state, 0)["play"]["score"] == score


def test_a_standard_game_pays_the_highest_line_tied_or_beaten():
    """Standard games: "Win what's shown next to the highest score you tied or beat (it's not
    cumulative)". Highway Hop: 300:1T / 500:2T / 700:3T / 900:4T."""
    assert standard_result(1, 299, 0)[0] == {"tickets": 0, "prizes": 0}
    assert standard_result(1, 500, 0)[0] == {"tickets": 2, "prizes": 0}
    assert standard_result(1, 899, 0)[0] == {"tickets": 3, "prizes": 0}
    state = table(2)
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 200, 0, game_face="+100"))
    state, events = act(state, 0, {"type": "done"})
    assert state["players"][0]["tickets"] == 2
    assert "Red scores 600 on Highway Hop and wins 2 tickets (the 500 line)." in texts(events)


def test_a_high_score_replaces_the_chart():
    """High Score!: "If you tie or beat it, ignore the card's chart and win what's shown to the
    right of the High Score instead" (Highway Hop 1200: 1P+3T)."""
    state = table(2)
    state["players"][0]["cubes"]["joystick"] = 2
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 300, 300, 200, game_face="+100"))
    state, events = act(state, 0, {"type": "done"})
    assert (state["players"][0]["prizes"], state["players"][0]["tickets"]) == (1, 3)
    assert "HIGH SCORE!" in texts(events)


def _premium(level_rolls):
    """Seat 0 plays Bug Blaster (spot 3; L1 350:2T / L2 600:4T / L3 850:1P+2T; HS 1150)."""
    state = table(2)
    state["players"][0]["cubes"]["joystick"] = 2  # 4 dice: joystick 2, shooting 1, classic 1
    state, _ = act(state, 0, {"type": "move_to", "spot": 3})
    events = []
    state, ev = act(state, 0, {"type": "roll"}, roll(*level_rolls[0]))
    events += ev
    for dice in level_rolls[1:]:
        state, ev = act(state, 0, {"type": "done"}, roll(*dice))
        events += ev
    if state["play"] is not None:
        state, ev = act(state, 0, {"type": "done"})
        events += ev
    return state, events


def test_premium_levels_pay_the_last_level_passed():
    """Premium: "If you tie or beat it, you pass the level and get to roll all your dice again
    to try for Level 2 ... You always win what's shown next to the last level you passed"."""
    state, events = _premium([(100, 100, 100, 0), (100, 100, 100, 0)])  # 400 passes, 400 fails
    assert state["players"][0]["tickets"] == 2
    assert "Red passes Level 1 (400 ≥ 350) and rolls for Level 2." in texts(events)
    assert "Red misses Level 2 (400 < 600)." in texts(events)


def test_premium_failing_level_one_wins_nothing():
    """H6: "nothing if Level 1 fails"."""
    state, events = _premium([(0, 0, 100, 0)])
    assert state["players"][0]["tickets"] == 0
    assert "wins nothing (no Level passed)" in texts(events)


def test_premium_high_score_only_on_level_three():
    """High Score: "For Premium games, you get the High Score when your Level 3 score ties or
    beats it (in other words, you can't get the High Score unless you beat Level 3)"."""
    state, _ = _premium([(300, 300, 300, 300), (300, 300, 300, 0), (100, 100, 100, 0)])
    # Level 1 scored 1300 (over the High Score 1150) but only Level 3 counts: 400 fails L3.
    assert (state["players"][0]["tickets"], state["players"][0]["prizes"]) == (4, 0)
    state, events = _premium([(100, 100, 100, 100), (300, 200, 100, 0), (300, 300, 300, 200)])
    assert (state["players"][0]["tickets"], state["players"][0]["prizes"]) == (2, 2)
    assert "HIGH SCORE!" in texts(events)


def test_the_game_die_rolls_again_for_each_level():
    """Premium: "The Game die is rolled for each Level with its normal effects"."""
    state = table(2)
    state, _ = act(state, 0, {"type": "move_to", "spot": 3})
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 300, 0, game_face="+200"))
    state, _ = act(state, 0, {"type": "done"}, roll(0, 0, 0, game_face="bomb"))
    assert state["play"]["level"] == 2 and state["play"]["face"] == "bomb"


def test_the_pawn_stays_and_the_next_player_moves():
    """Ending Your Turn: "keep your pawn where it is in front of the Games card"."""
    state = table(2)
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0))
    state, _ = act(state, 0, {"type": "done"})
    assert state["players"][0]["spot"] == 0
    assert GAME.active_seats(state) == {1}
    assert 0 not in [m["spot"] for m in GAME.legal_moves(state, 1) if m["type"] == "move_to"]


def test_a_card_leaves_after_its_third_play_and_is_replaced_from_the_deck():
    """IMPORTANT!: "After a Game is played 3 times ... immediately discard (along with its
    tokens) and replace it with a new Game from the deck"; H7: pawns stay."""
    state = table(2)
    state["arcade"][0]["plays"] = 2
    top = state["games_deck"][0]
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0))
    state, events = act(state, 0, {"type": "done"})
    assert state["arcade"][0] == {"card": top, "plays": 0}
    assert state["games_discard"] == [1]
    assert state["players"][0]["spot"] == 0
    assert "Highway Hop leaves the arcade (it was played 3 times)" in texts(events)


def test_a_card_leaves_after_its_high_score():
    """IMPORTANT!: "... OR its High Score is achieved"."""
    state = table(2)
    state["players"][0]["cubes"]["joystick"] = 2
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 300, 300, 300))
    state, events = act(state, 0, {"type": "done"})
    assert state["arcade"][0]["card"] != 1
    assert "its High Score was beaten" in texts(events)


def test_an_empty_games_deck_is_refilled_from_the_discards():
    """H7: "if the deck is empty, shuffle the discard pile into a new deck; if still empty,
    the spot stays empty"."""
    state = table(2)
    state["arcade"][0]["plays"] = 2
    state["games_deck"] = []
    state["games_discard"] = [40]
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0))
    state, events = act(state, 0, {"type": "done"}, Scripted())
    # The replacement is drawn before the retired card is discarded: never the same game.
    assert state["arcade"][0]["card"] == 40
    assert state["games_deck"] == [] and state["games_discard"] == [1]
    assert "The Games discards are shuffled into a new deck." in texts(events)
    state2 = table(2)
    state2["arcade"][0]["plays"] = 2
    state2["games_deck"] = []
    state2["arcade"] = [{"card": 1, "plays": 2}, *state2["arcade"][1:]]
    state2, _ = act(state2, 0, {"type": "move_to", "spot": 0})
    state2, _ = act(state2, 0, {"type": "roll"}, roll(0, 0, 0))
    state2, _ = act(state2, 0, {"type": "done"}, Scripted())
    assert state2["arcade"][0]["card"] is None


def test_markers_are_play_counts_shown_on_the_card():
    """H7: "After each play ... add a token/play marker to the card"."""
    state = table(2)
    state, _ = act(state, 0, {"type": "move_to", "spot": 4})
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0))
    state, _ = act(state, 0, {"type": "done"})
    assert GAME.view(state, None)["arcade"][4]["plays"] == 1


def test_a_move_out_of_turn_is_refused_with_a_reason():
    """Refusals carry a reason (house rules)."""
    state = table(2)
    with pytest.raises(IllegalMove, match="not your turn"):
        act(state, 1, {"type": "move_to", "spot": 0})
