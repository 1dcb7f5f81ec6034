"""C64 Snakes: rulebook "C64 Snakes" with rulings C2-C4 (docs/rules/families/c64-board-rulings.md)
and C10 (docs/rules/c64-snakes.md).

Scenarios use `snakes_state`: 2 players by default, seat 0 = Red (S, Player 1, head at
(0,0)) and seat 1 = Green (N, (8,8)); with 3-4 players seat 1 = Blue (W, (0,8)), seat 2 =
Green, seat 3 = Yellow (E, (8,0)). A snake is listed from head to tail; `path((x, y), "EEN")`
is a snake with its head at (x, y) and its tail three steps away. `act(state, seat, face)`
gives the seat a card showing `face` and plays it.
"""

from __future__ import annotations

import pytest
from c64_factories import dice, joystick
from c64_scenarios import nobody_moves_after_the_end, public_view, registered
from snakes_factories import SNAKES, act, fresh_snakes, path, snakes_state

from app.engine.contract import Outcome
from app.games.c64.geometry import ABSOLUTE, DELTA


def unchanged_except_turn(before, after, seat):
    """A card with no effect: every snake, supply and capture stays; the card is spent."""
    for key in ("snake", "supply", "captured"):
        assert [p[key] for p in after["players"]] == [p[key] for p in before["players"]]
    assert after["joysticks"][seat]["tilted"] is not None
    assert after["turn"] != seat and after["phase"] == "play"


# --- the game and its set-up ------------------------------------------------------------------
def test_snakes_is_registered_with_its_metadata():
    """docs/rules/README.md: c64-snakes, "C64 Snakes", 2-4 seats; chance from the shuffle and the
    draw, nothing hidden."""
    registered("c64-snakes", "C64 Snakes", (2, 4))


@pytest.mark.parametrize(("players", "sticks"), [(2, 16), (3, 16), (4, 12)])
def test_setup_heads_on_left_corner_points_with_16_or_12_sticks(players, sticks):
    """Rulebook: "Setup: Empty board, 1 disc (snake head) in each player's left corner grid
    point, 16 sticks (snake segments) per player. For 4 players, use 12 sticks." C2 corners."""
    state = fresh_snakes(players)
    corner = {"S": [0, 0], "W": [0, 8], "N": [8, 8], "E": [8, 0]}
    for p in state["players"]:
        assert p["snake"] == [corner[p["side"]]]
        assert p["supply"] == sticks and p["captured"] == 0
    assert SNAKES.view(state, None)["sticks"] == sticks


# --- moving -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
@pytest.mark.parametrize("face", ["up", "down", "left", "right"])
def test_move_card_moves_the_head_and_lays_a_segment_behind(seat, face):
    """Rulebook: "Move your snake head 1 grid point in the direction ... AND lay a segment
    behind." C10: the new segment lies between the old and the new head point."""
    state = snakes_state(4, snakes={seat: [[4, 4]]})
    new, events = act(state, seat, face)
    direction = ABSOLUTE[state["players"][seat]["side"]][face]
    dx, dy = DELTA[direction]
    to = [4 + dx, 4 + dy]
    me = new["players"][seat]
    assert me["snake"] == [to, [4, 4]]
    assert me["supply"] == 11
    assert events[1]["type"] == "move"
    assert events[1]["from"] == [4, 4] and events[1]["to"] == to
    assert events[1]["segment"] == [*to, 4, 4] and events[1]["capture"] is None


def test_the_snake_grows_from_its_head():
    """C10: "A snake is a path: head point, then segments back to its tail point"."""
    state = snakes_state(2, snakes={0: path((2, 3), "SS")})
    new, events = act(state, 0, "right")
    assert new["players"][0]["snake"] == [[3, 3], [2, 3], [2, 2], [2, 1]]
    assert new["players"][0]["supply"] == 13
    assert events[1]["text"] == "Red moves east to (3,3) (13 sticks left)."


def test_a_move_off_the_grid_points_does_nothing():
    """C10: "The target point must be on the grid"; ruling G2: the card is still spent."""
    state = snakes_state(2)
    new, events = act(state, 0, "down")
    unchanged_except_turn(state, new, 0)
    assert events[1] == {
        "type": "blocked",
        "seat": 0,
        "action": "move",
        "why": "edge",
        "owner": None,
        "direction": "S",
        "from": [0, 0],
        "to": None,
        "text": "Red cannot move south from (0,0): the edge of the board is in the way.",
    }


def test_a_move_into_your_own_body_is_blocked():
    """C10: "not touched by any segment (any colour, including the player's own body)"."""
    state = snakes_state(2, snakes={0: path((3, 3), "ENWW")})  # (4,3) (4,4) (3,4) (2,4)
    new, events = act(state, 0, "up")  # north to (3,4): the body
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "body" and events[1]["owner"] == 0
    assert events[1]["text"] == "Red cannot move north to (3,4): her own snake is there."


def test_a_move_onto_your_own_tail_is_blocked():
    """C10: the tail exception is for "an opponent's tail point" only."""
    state = snakes_state(2, snakes={0: path((3, 3), "ENW")})  # tail at (3,4)
    new, events = act(state, 0, "up")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "body"


def test_a_move_into_an_opponents_body_is_blocked():
    """Rulebook: "(if not occupied by a snake segment)"; C10: any colour. (5,4) is in the
    middle of Green's snake, neither its head nor its tail."""
    state = snakes_state(2, snakes={0: [[4, 4]], 1: path((5, 6), "SSS")})
    new, events = act(state, 0, "right")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "body" and events[1]["owner"] == 1
    assert events[1]["text"] == "Red cannot move east to (5,4): Green's snake is there."


# --- captures ---------------------------------------------------------------------------------
def test_moving_onto_an_opponents_head_captures_it_and_wins():
    """Rulebook: "You may move to the first ... grid point of an opponent's snake and capture
    the head ... The first player to capture an opponent head wins." C10: at once."""
    state = snakes_state(3, snakes={0: path((4, 4), "S"), 1: path((5, 4), "EE")})
    new, events = act(state, 0, "right")
    assert new["players"][0]["snake"][0] == [5, 4]
    assert events[1]["capture"] == "head" and events[1]["victim"] == 1
    assert events[1]["text"] == "Red moves east onto Blue's head at (5,4) (14 sticks left)."
    outcome = SNAKES.outcome(new)
    assert outcome.winners == (0,)
    assert outcome.reason == "Red captures Blue's head at (5,4) and wins."
    assert outcome.details["capture"] == 1
    assert new["phase"] == "over" and events[-1]["type"] == "win"


def test_a_head_without_segments_can_be_captured_too():
    """C10: "this also covers an opponent with zero segments" - Green's head still sits
    alone on its corner (8,8)."""
    state = snakes_state(2, snakes={0: path((8, 7), "S")})
    new, _ = act(state, 0, "up")
    assert SNAKES.outcome(new).winners == (0,)


def test_biting_an_opponents_tail_captures_her_last_segment():
    """Rulebook: "You may move to ... the last grid point of an opponent's snake and capture
    the ... segment". C10: "that opponent's last segment is removed and kept by the mover as
    captured; the mover's head then moves there and lays a segment as usual"."""
    green = path((6, 6), "SSW")  # tail at (5,4)
    state = snakes_state(2, snakes={0: [[4, 4]], 1: green})
    new, events = act(state, 0, "right")
    red, green_after = new["players"]
    assert green_after["snake"] == green[:-1]
    assert green_after["supply"] == state["players"][1]["supply"]  # not back to her supply
    assert red["captured"] == 1
    assert red["snake"] == [[5, 4], [4, 4]] and red["supply"] == 15
    assert events[1]["capture"] == "tail" and events[1]["victim"] == 1
    assert events[1]["taken"] == [6, 4, 5, 4]
    assert events[1]["text"] == (
        "Red bites the tail of Green's snake at (5,4), captures a segment and moves there "
        "(15 sticks left)."
    )
    assert SNAKES.outcome(new) is None


def test_biting_the_only_segment_leaves_a_bare_head():
    """C10: the tail point needs "at least one segment"; after the bite Green has none."""
    state = snakes_state(2, snakes={0: [[4, 4]], 1: path((6, 4), "W")})
    new, _ = act(state, 0, "right")
    assert new["players"][1]["snake"] == [[6, 4]]
    assert new["players"][0]["snake"] == [[5, 4], [4, 4]]
    # Green's bare head is now next to Red's head: Red's next east move would win.
    new, _ = act(new, 0, "right")
    assert SNAKES.outcome(new).winners == (0,)


def test_captured_segments_accumulate():
    """C10: each bitten segment is "kept by the mover as captured"."""
    state = snakes_state(2, snakes={0: [[4, 4]], 1: path((7, 4), "WW")}, captured={0: 2})
    new, _ = act(state, 0, "right")
    assert new["players"][0]["captured"] == 3


# --- buttons ----------------------------------------------------------------------------------
def test_left_button_takes_back_the_first_segment_and_moves_the_head_back():
    """Rulebook: "Left button: Take back the first segment of your snake and move your head
    backwards to the new first segment's grid point." C10: back to supply."""
    snake = path((3, 3), "SSE")
    state = snakes_state(2, snakes={0: snake})
    new, events = act(state, 0, "left_button")
    me = new["players"][0]
    assert me["snake"] == snake[1:]
    assert me["supply"] == 14
    assert events[1] == {
        "type": "retract",
        "seat": 0,
        "button": "left_button",
        "end": "head",
        "segment": [3, 3, 3, 2],
        "from": [3, 3],
        "head": [3, 2],
        "supply": 14,
        "text": "Red takes back her first segment; the head moves back to (3,2) "
        "(14 sticks in supply).",
    }


def test_right_button_takes_back_the_tail_segment():
    """Rulebook: "Right button: Take back the last segment of your snake." C10: back to
    supply; the head stays."""
    snake = path((3, 3), "SSE")
    state = snakes_state(2, snakes={0: snake})
    new, events = act(state, 0, "right_button")
    me = new["players"][0]
    assert me["snake"] == snake[:-1]
    assert me["supply"] == 14
    assert events[1]["type"] == "retract" and events[1]["end"] == "tail"
    assert events[1]["segment"] == [3, 1, 4, 1]
    assert events[1]["text"] == "Red takes back her tail segment at (4,1) (14 sticks in supply)."


@pytest.mark.parametrize("button", ["left_button", "right_button"])
def test_buttons_without_segments_do_nothing(button):
    """C10: "No segments: no effect."; ruling G2: the card is still spent."""
    state = snakes_state(2)
    new, events = act(state, 0, button)
    unchanged_except_turn(state, new, 0)
    assert events[1] == {
        "type": "no_segments",
        "seat": 0,
        "button": button,
        "text": "Red has no segment to take back.",
    }


def test_a_freed_point_can_be_entered_again():
    """C10: a point is blocked while a segment touches it; after the Right Button took the
    tail back, Red may move there."""
    state = snakes_state(2, snakes={0: path((3, 3), "ENW")})  # tail (3,4), north of the head
    new, _ = act(state, 0, "right_button")
    new, events = act(new, 0, "up")
    assert events[1]["type"] == "move" and new["players"][0]["snake"][0] == [3, 4]


# --- the end ----------------------------------------------------------------------------------
def test_laying_the_last_stick_ends_the_game_and_the_longest_snake_wins():
    """Rulebook: "The game also ends if a player has no sticks left to place, in which case
    the player with the longest snake (most segments) wins." C10: "as soon as any player
    lays her last stick"."""
    state = snakes_state(
        2, snakes={0: path((2, 2), "SS"), 1: path((8, 8), "SSS")}, supply={0: 1, 1: 5}
    )
    new, events = act(state, 0, "up")
    assert new["players"][0]["supply"] == 0
    outcome = SNAKES.outcome(new)
    assert outcome == Outcome(
        winners=(0, 1),
        reason="Red has laid her last stick. Red 3 segments, Green 3 segments. Red and Green "
        "tie on 3 segments; Red and Green captured 0 segments each. Red and Green share the "
        "win.",
        scores={0: 3, 1: 3},
        details=outcome.details,
    )
    assert [e["type"] for e in events[-2:]] == ["score", "win"]


def test_the_longest_snake_wins_even_if_it_is_not_the_one_that_ran_out():
    """Rulebook: "the player with the longest snake (most segments) wins" - Red laid her last
    stick, but Green's snake is longer."""
    state = snakes_state(
        2, snakes={0: path((2, 2), "S"), 1: path((8, 8), "SSSS")}, supply={0: 1, 1: 2}
    )
    new, _ = act(state, 0, "up")
    outcome = SNAKES.outcome(new)
    assert outcome.winners == (1,)
    assert outcome.scores == {0: 2, 1: 4}
    assert outcome.reason == (
        "Red has laid her last stick. Green 4 segments, Red 2 segments. "
        "Green wins with the longest snake."
    )
    assert outcome.details["players"] == [
        {"seat": 0, "segments": 2, "captured": 0, "supply": 0},
        {"seat": 1, "segments": 4, "captured": 0, "supply": 2},
    ]


def test_a_tie_on_length_goes_to_the_most_captured_segments():
    """Rulebook: "In case of a tie, the player with the most captured segments wins." """
    state = snakes_state(
        3,
        snakes={0: path((2, 2), "SS"), 1: path((0, 8), "EEE"), 2: path((8, 8), "S")},
        supply={0: 1, 1: 3, 2: 4},
        captured={0: 0, 1: 2, 2: 5},
    )
    new, _ = act(state, 0, "up")
    outcome = SNAKES.outcome(new)
    assert outcome.winners == (1,)
    assert outcome.reason == (
        "Red has laid her last stick. Blue 3 segments (2 captured), Red 3 segments, "
        "Green 1 segment (5 captured). Red and Blue tie on 3 segments; Blue captured the "
        "most (2 segments). Blue wins."
    )


def test_a_tie_on_length_and_captures_is_a_shared_win():
    """C10: "still tied -> shared win"."""
    state = snakes_state(
        2,
        snakes={0: path((2, 2), "SS"), 1: path((8, 8), "SSS")},
        supply={0: 1, 1: 2},
        captured={0: 1, 1: 1},
    )
    new, events = act(state, 0, "up")
    assert SNAKES.outcome(new).winners == (0, 1)
    assert events[-1]["winners"] == [0, 1]


def test_a_tail_bite_with_the_last_stick_ends_the_game_and_counts_the_bite():
    """C10: the bite removes Green's segment, then Red lays her last stick: the game ends on
    the segments now on the board."""
    state = snakes_state(
        2, snakes={0: path((4, 4), "S"), 1: path((7, 4), "WW")}, supply={0: 1, 1: 5}
    )
    new, _ = act(state, 0, "right")
    outcome = SNAKES.outcome(new)
    assert outcome.scores == {0: 2, 1: 1}
    assert outcome.winners == (0,)


def test_capturing_a_head_with_the_last_stick_wins_by_capture():
    """Rulebook: "The first player to capture an opponent head wins." - it wins at once, so
    the length count does not apply (Green's snake is longer)."""
    state = snakes_state(2, snakes={0: path((4, 4), "S"), 1: path((5, 4), "NNNNE")}, supply={0: 1})
    new, _ = act(state, 0, "right")
    outcome = SNAKES.outcome(new)
    assert outcome.winners == (0,)
    assert outcome.reason == "Red captures Green's head at (5,4) and wins."


def test_buttons_never_end_the_game():
    """C10: the end comes when a player *lays* her last stick; taking one back adds to the
    supply."""
    state = snakes_state(2, snakes={0: path((2, 2), "SS")}, supply={0: 1})
    new, _ = act(state, 0, "right_button")
    assert new["players"][0]["supply"] == 2 and new["phase"] == "play"


def test_no_moves_after_the_end():
    """The game is over: no seat may act, and a play is refused."""
    state = snakes_state(2, snakes={0: path((8, 7), "S")})
    new, _ = act(state, 0, "up")
    nobody_moves_after_the_end(SNAKES, new, range(2))


def test_the_last_card_of_a_turn_still_takes_the_next_cards_before_a_win():
    """C4.4 then the end check: the move names its next cards; the game ends after it."""
    state = snakes_state(2, snakes={0: path((8, 7), "S")})
    state["joysticks"][0] = joystick([(0, "up")], axis="col")
    move = next(m for m in SNAKES.legal_moves(state, 0) if "next" in m)
    new, events = SNAKES.apply(state, 0, move, dice())
    assert [e["type"] for e in events] == ["play", "move", "take", "win"]
    assert new["phase"] == "over"


# --- view -------------------------------------------------------------------------------------
def test_view_shows_snakes_supplies_and_captures():
    """docs/c64-view.md plus the Snakes keys (module docstring); the same for every seat."""
    state = snakes_state(2, snakes={0: path((2, 2), "SW")}, captured={1: 3})
    view = public_view(SNAKES, state, 1)
    assert (view["family"], view["game"], view["sticks"]) == ("c64", "snakes", 16)
    red = view["players"][0]
    assert {k: red[k] for k in ("snake", "head", "segments", "supply", "captured")} == {
        "snake": [[2, 2], [2, 1], [1, 1]],
        "head": [2, 2],
        "segments": 2,
        "supply": 14,
        "captured": 0,
    }
    assert view["players"][1]["captured"] == 3
