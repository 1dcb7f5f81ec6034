"""C64 Tanks: rulebook "C64 Tanks" with rulings C1, C2, C4.7
(docs/rules/families/c64-board-rulings.md), C5 (docs/rules/c64-tanks.md) and map T.

Scenarios use `tanks_state`: 2 players by default, seat 0 = Red (S, Player 1, tank on a1)
and seat 1 = Green (N, tank on h8); `tanks_act(state, seat, face, **player changes)` gives
the seat a card showing `face` and plays it. Most shots use small custom wall layouts
(`walls={square: tilt}`) so that each test shows only the mirrors it is about.
"""

from __future__ import annotations

import copy
import json

import pytest
from c64_factories import dice, joystick
from c64_scenarios import (
    check_apply_contract,
    nobody_moves_after_the_end,
    public_view,
    random_moves,
    random_playout,
    registered,
    replayed,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tanks_factories import TANKS, fresh_tanks, of_type, tanks_act, tanks_play, tanks_state

from app.engine.contract import Outcome
from app.games.c64 import tanks as tanks_module
from app.games.c64.boardmap import load_map, parse_map
from app.games.c64.geometry import (
    ABSOLUTE,
    CORNERS,
    DIRECTION_NAMES,
    SQUARES,
    STEP,
    square_xy,
    xy_square,
)
from app.games.c64.tanks import MAX_BULLET_STEPS, START_WALLS, missile_landing, trace_bullet

# Copied from the rulings' "Walls:" line for map T.
MAP_T_WALLS = {
    "b4": "\\",
    "b6": "\\",
    "c2": "/",
    "c4": "/",
    "d6": "\\",
    "d7": "/",
    "e2": "/",
    "e3": "\\",
    "f5": "/",
    "f7": "/",
    "g3": "\\",
    "g5": "\\",
}

# Four mirrors in a rectangle: a bullet from e4 going north runs round it and meets e5 and
# b5 a second time, after they have turned (found by search; see test_a_mirror_turns_...).
RECTANGLE = {"e5": "\\", "b5": "\\", "b7": "/", "e7": "\\"}

# 46 mirrors on which a bullet fired north from a1 would fly 241 squares (found by a search
# for long flights); Green's h5 is the one free square it never enters.
LONG_FLIGHT = parse_map(
    """
    8 / / \\ / / \\ . \\
    7 \\ / / \\ / / / /
    6 \\ / / / . . \\ /
    5 / . / / . / \\ .
    4 . \\ \\ . / . / \\
    3 / . \\ \\ . \\ \\ /
    2 . / . . / / \\ \\
    1 T \\ \\ / . . . /
      a b c d e f g h
    """
)


def walls_of(picture):
    return {sq: sym for sq, sym in picture.items() if sym in "/\\"}


def unchanged_except_turn(before, after, seat):
    """A card with no effect: tanks, walls and hits stay; the card is spent (C4 step 3)."""
    assert [p["square"] for p in after["players"]] == [p["square"] for p in before["players"]]
    assert after["walls"] == before["walls"]
    assert after["joysticks"][seat]["tilted"] is not None
    assert after["turn"] != seat


# --- the game and its set-up ------------------------------------------------------------------
def test_tanks_is_registered_with_its_metadata():
    """docs/rules/README.md: c64-tanks, "C64 Tanks", 2-4 seats, no lobby options; chance from the
    shuffle and the first-player draw, nothing hidden."""
    registered("c64-tanks", "C64 Tanks", (2, 4))


def test_setup_puts_each_tank_on_its_left_corner_facing_up():
    """Rulebook: "Setup: ... 1 tank in each player's left corner." C5: "tanks on the
    left-corner squares, facing seat-Up"; nobody is hit and nobody has a disc yet."""
    for players in (2, 3, 4):
        state = fresh_tanks(players)
        for p in state["players"]:
            assert p["square"] == {"S": "a1", "W": "a8", "N": "h8", "E": "h1"}[p["side"]]
            assert p["latest"] == ABSOLUTE[p["side"]]["up"]
            assert p["hit"] is False and p["discs"] == []
        assert state["phase"] == "setup" and state["outcome"] is None


def test_setup_walls_are_the_mirrors_of_map_t():
    """C5: "Walls per map T": the 12 mirror walls with their tilts as listed in the rulings,
    read from maps/T.txt; 'T' marks the four corners."""
    assert fresh_tanks(3)["walls"] == MAP_T_WALLS
    assert dict(START_WALLS) == MAP_T_WALLS
    picture = load_map("T")
    assert {sq: s for sq, s in picture.items() if s in "/\\"} == MAP_T_WALLS
    assert {sq for sq, s in picture.items() if s == "T"} == CORNERS


def test_map_t_gives_every_seat_the_same_position():
    """Map T: "90-degree rotational symmetry so every seat gets the same position". Turning
    the board a quarter turn also turns every mirror (`/` <-> `\\`)."""
    turned = {
        xy_square(square_xy(sq)[1], 7 - square_xy(sq)[0]): "/" if tilt == "\\" else "\\"
        for sq, tilt in MAP_T_WALLS.items()
    }
    assert turned == MAP_T_WALLS


def test_map_t_keeps_mirrors_off_the_corners_lines():
    """Map T: "Corners free; every mirror sits off the corners' lines" (rows 1 and 8,
    columns a and h)."""
    for square in MAP_T_WALLS:
        assert square[0] not in "ah" and square[1] not in "18"


def test_a_first_straight_shot_along_the_edge_reaches_the_next_corner():
    """C5 on map T: the edge lines hold no mirror, so with 3 players Red's first bullet
    (north from a1) flies straight up column a and hits Blue on a8; with 2 players a8 is
    empty and the bullet leaves the board."""
    three = tanks_state(3)
    new, events = tanks_act(three, 0, "left_button")
    assert of_type(events, "bullet")[0]["hits"] == [1]
    assert new["players"][0]["discs"] == [1]
    _, events = tanks_act(tanks_state(2), 0, "left_button")
    assert of_type(events, "bullet")[0]["end"] == "exit"


def test_map_pictures_with_mirrors_are_checked():
    """Maps are data (docs/rules/README.md): mirror symbols parse, unknown ones are refused."""
    good = "\n".join(f"{r} / \\ . . . . . T" for r in range(8, 0, -1)) + "\n  a b c d e f g h"
    assert parse_map(good)["a8"] == "/" and parse_map(good)["b1"] == "\\"
    with pytest.raises(ValueError):
        parse_map(good.replace("8 / \\", "8 | \\", 1))


# --- moving -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
@pytest.mark.parametrize("face", ["up", "down", "left", "right"])
def test_move_card_moves_one_square_in_the_seat_relative_direction(seat, face):
    """Rulebook: "Up/down/left/right: Move 1 square in the direction"; C2: the direction is
    relative to the seat."""
    squares = {0: "a1", 1: "a8", 2: "h8", 3: "h1"} | {seat: "d4"}
    state = tanks_state(4, walls={}, squares=squares)
    side = state["players"][seat]["side"]
    new, events = tanks_act(state, seat, face)
    direction = ABSOLUTE[side][face]
    colour = ("Red", "Blue", "Green", "Yellow")[seat]
    assert new["players"][seat]["square"] == STEP["d4"][direction]
    assert new["players"][seat]["latest"] == direction
    assert events[1] == {
        "type": "move",
        "seat": seat,
        "from": "d4",
        "to": STEP["d4"][direction],
        "text": f"{colour} moves {DIRECTION_NAMES[direction]} to {STEP['d4'][direction]}.",
    }


def test_move_is_blocked_by_a_wall_and_the_card_is_spent():
    """Rulebook: "(if the square is not blocked by a wall or another tank)"; C1: a mirror
    wall fills its whole square; ruling G2: an action with no effect still spends the card."""
    state = tanks_state(2, squares={0: "b3"})
    new, events = tanks_act(state, 0, "up")
    unchanged_except_turn(state, new, 0)
    assert events[1] == {
        "type": "blocked",
        "seat": 0,
        "action": "move",
        "why": "wall",
        "direction": "N",
        "from": "b3",
        "to": "b4",
        "text": "Red cannot move north from b3: b4 is a wall.",
    }


def test_move_is_blocked_by_another_tank():
    """Rulebook: "(if the square is not blocked by a wall or another tank)"."""
    state = tanks_state(2, squares={0: "a2", 1: "a3"})
    new, events = tanks_act(state, 0, "up")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "tank"
    assert events[1]["text"] == "Red cannot move north from a2: Green's tank is on a3."


def test_move_is_blocked_by_the_edge():
    """C5: "Moving: one square; blocked by ... the board edge (no effect)"."""
    state = tanks_state(2)
    new, events = tanks_act(state, 0, "left")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "edge" and events[1]["to"] is None
    assert events[1]["text"] == "Red cannot move west from a1: the edge of the board is in the way."


def test_a_blocked_move_still_turns_the_gun():
    """C4.6: latest direction = the most recent executed move card, even a blocked one; so
    Red now aims west, at the edge."""
    new, _ = tanks_act(tanks_state(2), 0, "left")
    assert new["players"][0]["latest"] == "W"


# --- the bullet (Left Button) -----------------------------------------------------------------
def test_bullet_flies_square_by_square_in_the_latest_direction_and_leaves_the_board():
    """Rulebook: "Left button: Fire a bullet in the latest direction. The bullet bounces on
    walls until it hits a tank or exits the board." C5: it "starts in the shooter's square
    and travels square by square"; the event carries the full path."""
    state = tanks_state(2, walls={}, squares={0: "c3"}, latest={0: "E"})
    new, events = tanks_act(state, 0, "left_button")
    assert [e["type"] for e in events] == ["play", "bullet"]
    assert events[1] == {
        "type": "bullet",
        "seat": 0,
        "from": "c3",
        "direction": "E",
        "path": ["d3", "e3", "f3", "g3", "h3"],
        "flips": [],
        "end": "exit",
        "heading": "E",
        "hits": [],
        "fizzle": None,
        "text": "Red fires a bullet east from c3; it leaves the board past h3.",
    }
    assert new["walls"] == {} and new["players"][0]["latest"] == "E"
    assert not any(p["hit"] for p in new["players"])


def test_bullet_uses_the_latest_direction_not_the_seat_up():
    """C4.6/C5: the bullet goes in the latest direction, set by the last move card (a button
    does not change it)."""
    state = tanks_state(2, walls={}, squares={0: "c3", 1: "f3"}, latest={0: "E"})
    new, events = tanks_act(state, 0, "left_button")
    assert events[1]["path"] == ["d3", "e3", "f3"] and events[1]["hits"] == [1]
    assert new["players"][0]["latest"] == "E"


def test_a_bullet_fired_at_the_edge_flies_straight_off():
    """C5: "leaving the board ends it" - already at the first step."""
    _, events = tanks_act(tanks_state(2), 0, "left_button", latest="W")
    assert events[1]["path"] == [] and events[1]["end"] == "exit"
    assert events[1]["text"] == "Red fires a bullet west from a1; it flies straight off the board."


@pytest.mark.parametrize(
    "tilt, into, out",
    [
        ("/", "N", "E"),
        ("/", "E", "N"),
        ("/", "S", "W"),
        ("/", "W", "S"),
        ("\\", "N", "W"),
        ("\\", "W", "N"),
        ("\\", "S", "E"),
        ("\\", "E", "S"),
    ],
)
def test_mirror_table(tilt, into, out):
    """C5 mirror table: "`/`: N->E, E->N, S->W, W->S. `\\`: N->W, W->N, S->E, E->S." The
    bullet enters the wall's square, turns there and continues from that square."""
    back = {"N": "S", "S": "N", "E": "W", "W": "E"}[into]
    shooter = STEP["d4"][back]  # one square before d4, flying `into`
    state = tanks_state(2, walls={"d4": tilt}, squares={0: shooter, 1: "h8"}, latest={0: into})
    _, events = tanks_act(state, 0, "left_button")
    bullet = events[1]
    assert bullet["path"][:2] == ["d4", STEP["d4"][out]]
    assert bullet["flips"] == [
        {
            "square": "d4",
            "step": 0,
            "from": tilt,
            "to": "\\" if tilt == "/" else "/",
            "in": into,
            "out": out,
        }
    ]


def test_a_hit_wall_turns_90_degrees():
    """Rulebook: "Hit walls rotate 90°." C5: "then the wall flips (`/` <-> `\\`)". The old
    state keeps its walls (states are values)."""
    state = tanks_state(2, walls={"d4": "/", "f6": "\\"}, squares={0: "d2"})
    before = copy.deepcopy(state)
    new, _ = tanks_act(state, 0, "left_button")
    assert new["walls"] == {"d4": "\\", "f6": "\\"}
    assert state == before


def test_bullet_bounces_off_several_mirrors_in_order():
    """Rulebook: "The bullet bounces on walls until it hits a tank or exits the board." The
    event lists each wall turn in order with its step in the path (for the animation)."""
    state = tanks_state(2, walls={"c5": "/", "e5": "\\", "e3": "/"}, squares={0: "c3"})
    new, events = tanks_act(state, 0, "left_button")
    bullet = events[1]
    assert bullet["path"] == ["c4", "c5", "d5", "e5", "e4", "e3", "d3", "c3"]
    assert [(f["square"], f["step"], f["in"], f["out"]) for f in bullet["flips"]] == [
        ("c5", 1, "N", "E"),
        ("e5", 3, "E", "S"),
        ("e3", 5, "S", "W"),
    ]
    assert new["walls"] == {"c5": "\\", "e5": "/", "e3": "\\"}


def test_a_mirror_turns_after_each_hit_even_twice_in_one_flight():
    """C5: a wall "deflects it ... then the wall flips": a mirror met a second time in the
    same flight has already turned, so the bullet leaves the loop instead of circling."""
    state = tanks_state(2, walls=RECTANGLE, squares={0: "e4", 1: "h8"})
    new, events = tanks_act(state, 0, "left_button")
    bullet = events[1]
    assert bullet["path"] == [
        "e5", "d5", "c5", "b5", "b6", "b7", "c7", "d7", "e7", "e6",
        "e5", "d5", "c5", "b5", "b4", "b3", "b2", "b1",
    ]  # fmt: skip
    assert [(f["square"], f["from"], f["to"]) for f in bullet["flips"]] == [
        ("e5", "\\", "/"),
        ("b5", "\\", "/"),
        ("b7", "/", "\\"),
        ("e7", "\\", "/"),
        ("e5", "/", "\\"),
        ("b5", "/", "\\"),
    ]
    assert bullet["end"] == "exit" and bullet["heading"] == "S"
    assert new["walls"] == {"e5": "\\", "b5": "\\", "b7": "\\", "e7": "/"}


def test_bullet_stops_at_the_first_tank():
    """Rulebook: "until it hits a tank"; C5: "a tank there is hit and the bullet stops" -
    the tank behind it is safe."""
    state = tanks_state(3, walls={}, squares={0: "a1", 1: "a4", 2: "a7"})
    new, events = tanks_act(state, 0, "left_button")
    assert events[1]["path"] == ["a2", "a3", "a4"] and events[1]["hits"] == [1]
    assert events[1]["text"] == "Red fires a bullet north from a1; it hits Blue on a4."
    assert new["players"][1]["hit"] is True and new["players"][2]["hit"] is False


def test_bullet_can_come_back_and_hit_its_own_shooter():
    """C5: "A bullet can come back and hit its own shooter (self-hit: the shooter skips its
    next action; it does not count toward the goal)"."""
    state = tanks_state(2, walls={"c5": "/", "e5": "\\", "e3": "/"}, squares={0: "c3"})
    new, events = tanks_act(state, 0, "left_button")
    assert events[1]["end"] == "tank" and events[1]["hits"] == [0]
    assert events[1]["text"].endswith("comes back to hit Red herself on c3.")
    assert events[2] == {
        "type": "hit",
        "seat": 0,
        "by": 0,
        "weapon": "bullet",
        "square": "c3",
        "self": True,
        "again": False,
        "disc": False,
        "text": "Red is hit by her own bullet: she loses the action of her next card and "
        "gets no disc for it.",
    }
    assert new["players"][0]["hit"] is True
    assert new["players"][0]["discs"] == []
    assert TANKS.outcome(new) is None


def test_a_self_hit_costs_the_shooters_next_action():
    """C5 self-hit: "the shooter skips its next action" (C4.7)."""
    state = tanks_state(2, walls={"c5": "/", "e5": "\\", "e3": "/"}, squares={0: "c3"})
    new, _ = tanks_act(state, 0, "left_button")
    new, _ = tanks_act(new, 1, "up")
    after, events = tanks_act(new, 0, "right")
    assert of_type(events, "skip") and after["players"][0]["square"] == "c3"


def test_the_bullet_fizzles_after_200_squares():
    """C5 safety cap: "if the bullet has taken 200 steps ... it fizzles". On these 46
    mirrors the flight would be 241 squares long; it stops after its 200th square, and the
    walls it turned on the way stay turned."""
    walls = walls_of(LONG_FLIGHT)
    assert trace_bullet("a1", "N", walls, {"a1": 0}, max_steps=10**6).end == "exit"
    state = tanks_state(2, walls=walls, squares={0: "a1", 1: "h5"})
    new, events = tanks_act(state, 0, "left_button")
    bullet = events[1]
    assert MAX_BULLET_STEPS == 200
    assert len(bullet["path"]) == 200
    assert (bullet["end"], bullet["fizzle"], bullet["hits"]) == ("fizzle", "steps", [])
    assert bullet["text"].endswith("fizzles out after 200 squares.")
    turned = dict(walls)
    for flip in bullet["flips"]:
        assert turned[flip["square"]] == flip["from"]
        turned[flip["square"]] = flip["to"]
    assert new["walls"] == turned != walls
    assert not any(p["hit"] for p in new["players"])


def test_the_bullet_fizzles_when_an_exact_state_repeats(monkeypatch):
    """C5 safety cap: "or repeats an exact state (square, direction, all wall orientations),
    it fizzles". Turning mirrors make the flight reversible, so a real bullet can only come
    back to its start state through the shooter's own square (a self-hit first, see
    test_turning_mirrors_never_loop); this test freezes the mirrors to build a loop."""
    monkeypatch.setattr(tanks_module, "TURNED", {"/": "/", "\\": "\\"})
    square_loop = {"c5": "/", "e5": "\\", "e3": "/", "c3": "\\"}
    flight = trace_bullet("c4", "N", square_loop, {})
    assert (flight.end, flight.fizzle) == ("fizzle", "loop")
    assert len(flight.path) <= 2 * 8 + 1  # detected within two laps of the 8-square ring


@settings(max_examples=200, deadline=None)
@given(
    walls=st.dictionaries(st.sampled_from(SQUARES), st.sampled_from("/\\"), max_size=40),
    start=st.sampled_from(SQUARES),
    direction=st.sampled_from("NESW"),
)
def test_turning_mirrors_never_loop(walls, start, direction):
    """C5 loop guard, why it never fires in play: with a tank on the start square every
    flight ends by a hit, by leaving the board or at the 200-step cap."""
    walls.pop(start, None)
    flight = trace_bullet(start, direction, walls, {start: 0})
    assert flight.fizzle != "loop"


def test_trace_bullet_never_changes_the_walls_it_is_given():
    """Rules are pure (docs/architecture.md, "How the code is written"): the flight returns new
    walls."""
    walls = dict(RECTANGLE)
    flight = trace_bullet("e4", "N", walls, {})
    assert walls == RECTANGLE and flight.walls != RECTANGLE


# --- the missile (Right Button) ---------------------------------------------------------------
def test_missile_lands_exactly_3_squares_away_and_hits_the_tank_there():
    """Rulebook: "Right button: Fire a missile in the latest direction. The missile moves
    exactly 3 squares"; "it hits all tanks on ... it"."""
    state = tanks_state(2, walls={}, squares={0: "c3", 1: "c6"})
    new, events = tanks_act(state, 0, "right_button")
    assert events[1] == {
        "type": "missile",
        "seat": 0,
        "from": "c3",
        "direction": "N",
        "landing": "c6",
        "result": "blast",
        "area": ["c6", "c7", "d6", "c5", "b6"],
        "hits": [1],
        "text": "Red fires a missile north from c3 and it lands on c6, hitting Green.",
    }
    assert new["players"][1]["hit"] is True and new["players"][0]["discs"] == [1]


def test_missile_hits_every_tank_on_the_4_orthogonal_neighbours_but_not_diagonals():
    """Rulebook: "it hits all tanks on and orthogonally adjacent to it"."""
    state = tanks_state(4, walls={}, squares={0: "d1", 1: "c4", 2: "e4", 3: "e5"})
    new, events = tanks_act(state, 0, "right_button")
    assert events[1]["landing"] == "d4" and events[1]["hits"] == [1, 2]
    assert [e["seat"] for e in of_type(events, "hit")] == [1, 2]
    assert [p["hit"] for p in new["players"]] == [False, True, True, False]


def test_missile_flies_over_walls_and_tanks_in_between():
    """Rulebook: "The missile moves exactly 3 squares above any walls"; C5: "ignoring
    everything in between" - the wall at c4 and the tank at c5 are untouched."""
    state = tanks_state(3, walls={"c4": "/"}, squares={0: "c3", 1: "c5", 2: "c6"})
    new, events = tanks_act(state, 0, "right_button")
    assert events[1]["landing"] == "c6"
    assert events[1]["hits"] == [1, 2]  # c5 is next to the landing square, c6 is on it
    assert new["walls"] == {"c4": "/"}


def test_missile_on_a_wall_square_does_nothing():
    """Rulebook: "If it lands on a square without any wall, it hits ... Hit walls are not
    affected." C5: "On a wall square: nothing, wall unchanged" - even next to a tank."""
    state = tanks_state(2, walls={"c6": "\\"}, squares={0: "c3", 1: "c7"})
    new, events = tanks_act(state, 0, "right_button")
    assert (events[1]["landing"], events[1]["result"]) == ("c6", "wall")
    assert events[1]["area"] == [] and events[1]["hits"] == []
    assert events[1]["text"] == (
        "Red fires a missile north from c3 and it lands on the wall at c6: nothing happens."
    )
    assert new["walls"] == {"c6": "\\"} and new["players"][1]["hit"] is False


def test_missile_off_the_board_does_nothing():
    """C5: "Off the board: nothing." Red at a6 aims north: a9 does not exist."""
    state = tanks_state(2, walls={}, squares={0: "a6", 1: "a8"})
    new, events = tanks_act(state, 0, "right_button")
    assert (events[1]["landing"], events[1]["result"], events[1]["hits"]) == (None, "edge", [])
    assert events[1]["text"] == "Red fires a missile north from a6 and it flies off the board."
    assert new["players"][1]["hit"] is False
    assert missile_landing("a5", "N") == "a8" and missile_landing("a6", "N") is None


def test_missile_never_hits_its_own_shooter():
    """C5: "(this can include the shooter only in theory; at distance 3 it never does)"."""
    for square in SQUARES:
        for direction in "NESW":
            landing = missile_landing(square, direction)
            if landing is not None:
                assert square != landing and square not in STEP[landing].values()


# --- hits -------------------------------------------------------------------------------------
def test_a_hit_player_gets_no_action_with_her_next_card():
    """Rulebook: "Hit: A hit player is not eliminated but gets no action with her next
    joystick card." C4.7: the card is still placed and tilted; only its effect is lost."""
    state = tanks_state(2, walls={}, squares={0: "c3", 1: "c6"}, hit={1: True}, turn=1)
    new, events = tanks_play(state, 1, "up")
    assert [e["type"] for e in events] == ["play", "skip"]
    assert events[1] == {
        "type": "skip",
        "seat": 1,
        "face": "up",
        "text": "Green is still shaken from the hit: her Up card does nothing.",
    }
    assert new["players"][1]["square"] == "c6" and new["players"][1]["hit"] is False
    assert new["joysticks"][1]["tilted"] is not None
    assert len(new["joysticks"][1]["active"]) == 1
    assert new["turn"] == 0


def test_a_skipped_move_card_does_not_turn_the_gun():
    """C4.6: "latest direction" is the most recent move card the player *executed*; a
    skipped card is not executed, so Green still aims south."""
    state = tanks_state(2, hit={1: True}, turn=1)
    new, _ = tanks_act(state, 1, "left")
    assert new["players"][1]["latest"] == "S"


def test_a_skipped_last_card_still_takes_the_next_cards():
    """C4.7: "If the player must skip an action (Tanks hit), steps 3-4 still happen"."""
    state = tanks_state(2, hit={0: True}, joysticks={0: joystick([(0, "up")], axis="col")})
    move = {
        "type": "play",
        "card": 0,
        "to": [0, 0],
        "next": [{"card": 1, "face": "up"}, {"card": 2, "face": "down"}],
    }
    new, events = TANKS.apply(state, 0, move, dice())
    assert [e["type"] for e in events] == ["play", "skip", "take"]
    assert new["joysticks"][0]["active"] == [
        {"card": 1, "face": "up"},
        {"card": 2, "face": "down"},
    ]
    assert new["players"][0]["square"] == "a1"


def test_hits_do_not_stack():
    """C5: "Hits do not stack: two hits before her turn still cost one action."."""
    state = tanks_state(3, walls={}, squares={0: "c1", 1: "a7", 2: "c7"})
    state, events = tanks_act(state, 0, "left_button")  # Red's bullet north hits Green on c7
    assert events[1]["hits"] == [2]
    state, events = tanks_act(state, 1, "left_button")  # Blue's bullet east hits her again
    hit = of_type(events, "hit")[0]
    assert (hit["seat"], hit["again"], hit["disc"]) == (2, True, True)
    assert hit["text"].startswith(
        "Green is hit again, but hits do not stack: she still loses only her next action."
    )
    assert state["players"][2]["hit"] is True
    state, events = tanks_act(state, 2, "up")  # Green's one lost action
    assert of_type(events, "skip") and state["players"][2]["square"] == "c7"
    state, events = tanks_act(state, 2, "up")  # and then she moves again
    assert state["players"][2]["square"] == "c6" and not of_type(events, "skip")


def test_a_player_may_be_hit_again_later():
    """C5: "A player may be hit again later." - after her lost action, a new hit costs a new
    one; the shooter keeps the one disc she already has."""
    state = tanks_state(3, walls={}, squares={0: "c1", 1: "a8", 2: "c7"}, discs={0: [2]})
    state, _ = tanks_act(state, 0, "left_button")
    state, _ = tanks_act(state, 2, "left")  # skipped
    assert state["players"][2]["hit"] is False
    state, events = tanks_act(state, 0, "left_button")
    hit = of_type(events, "hit")[0]
    assert (hit["again"], hit["disc"]) == (False, False)
    assert state["players"][2]["hit"] is True and state["players"][0]["discs"] == [2]


def test_a_hit_only_costs_the_hit_players_own_card():
    """Rulebook: "A hit player ... gets no action with her next joystick card" - the others
    play normally meanwhile."""
    state = tanks_state(3, walls={}, squares={0: "c1", 1: "a4", 2: "c7"}, hit={2: True})
    new, events = tanks_act(state, 1, "up")
    assert new["players"][1]["square"] == "b4" and not of_type(events, "skip")


# --- goal -------------------------------------------------------------------------------------
def test_each_hit_opponent_gives_the_shooter_a_disc_once():
    """Rulebook: "Goal: The first to have hit each other player at least once wins. (Use
    discs of player colors to keep track.)" C5: "each player records the set of opponents
    she has hit"."""
    state = tanks_state(3, walls={}, squares={0: "c1", 1: "a4", 2: "c7"})
    new, events = tanks_act(state, 0, "left_button")
    assert new["players"][0]["discs"] == [2]
    assert of_type(events, "hit")[0]["disc"] is True
    assert of_type(events, "hit")[0]["text"] == (
        "Green is hit: she loses the action of her next card. Red takes a green disc (1 of 2)."
    )
    new["players"][2]["hit"] = False
    again, events = tanks_act(new, 0, "left_button")
    assert again["players"][0]["discs"] == [2] and of_type(events, "hit")[0]["disc"] is False
    assert TANKS.outcome(again) is None


def test_with_two_players_the_first_hit_wins():
    """Rulebook: "The first to have hit each other player at least once wins." With 2
    players that is the first hit on the opponent; C5: it wins immediately."""
    state = tanks_state(2, walls={}, squares={0: "h2"})
    new, events = tanks_act(state, 0, "left_button")
    assert TANKS.outcome(new) == Outcome(
        winners=(0,),
        reason="Red has hit the other tank (Green) and wins.",
        details={"discs": [1]},
    )
    assert new["phase"] == "over" and new["turn"] is None
    assert [e["type"] for e in events] == ["play", "bullet", "hit", "win"]
    assert events[-1]["winners"] == [0]
    nobody_moves_after_the_end(TANKS, new, (0, 1))


def test_the_set_must_hold_every_other_player():
    """C5: "The first player whose set contains every other player wins immediately" - with
    4 players, a third disc completes Red's set."""
    state = tanks_state(4, walls={}, squares={0: "c1", 2: "c8"}, discs={0: [1]})
    new, _ = tanks_act(state, 0, "left_button")
    assert new["players"][0]["discs"] == [1, 2] and TANKS.outcome(new) is None
    new["players"][3]["square"] = "d4"
    new["players"][2]["hit"] = False
    done, _ = tanks_act(new, 0, "right_button", latest="N", square="d1")
    assert TANKS.outcome(done).winners == (0,)
    assert TANKS.outcome(done).reason == (
        "Red has hit every other tank (Blue, Green and Yellow) and wins."
    )


def test_one_shot_can_complete_the_set():
    """C5: "If one shot completes the set for the shooter, the shooter wins." A missile hits
    both opponents of a 3-player game at once."""
    state = tanks_state(3, walls={}, squares={0: "d1", 1: "c4", 2: "d5"})
    new, events = tanks_act(state, 0, "right_button")
    assert events[1]["hits"] == [1, 2]
    assert TANKS.outcome(new).winners == (0,)
    assert [e["type"] for e in events] == ["play", "missile", "hit", "hit", "win"]


def test_a_win_with_the_last_card_still_takes_the_next_cards():
    """C4.4 then C5's win: the move names its next cards; the game ends with that turn."""
    state = tanks_state(
        2, walls={}, squares={0: "h2"}, joysticks={0: joystick([(6, "left_button")])}
    )
    move = {
        "type": "play",
        "card": 6,
        "to": [2, 0],
        "next": [{"card": 7, "face": "left_button"}, {"card": 8, "face": "right_button"}],
    }
    new, events = TANKS.apply(state, 0, move, dice())
    assert [e["type"] for e in events] == ["play", "bullet", "hit", "take", "win"]
    assert TANKS.outcome(new).winners == (0,)


# --- view -------------------------------------------------------------------------------------
def test_view_follows_the_contract():
    """docs/c64-view.md: for Tanks "`walls` becomes [{"square","tilt"}]", plus each player's
    tank square, hit state and discs; the same for every seat (nothing hidden)."""
    state = tanks_state(3, order=[2, 0, 1], latest={2: "E"}, hit={1: True}, discs={0: [2, 1]})
    view = public_view(TANKS, state, 2)
    assert (view["family"], view["game"]) == ("c64", "tanks")
    assert (view["phase"], view["turn"]) == ("play", 2)
    assert view["walls"][:2] == [{"square": "b4", "tilt": "\\"}, {"square": "b6", "tilt": "\\"}]
    assert [w["square"] for w in view["walls"]] == sorted(MAP_T_WALLS)
    assert {w["square"]: w["tilt"] for w in view["walls"]} == MAP_T_WALLS
    assert view["players"][2] == {
        "seat": 2,
        "side": "S",
        "color": "red",
        "number": 1,
        "latest": "E",
        "ready": True,
        "square": "a1",
        "hit": False,
        "discs": [],
    }
    assert view["players"][1]["hit"] is True
    assert view["players"][0]["discs"] == [1, 2]


def test_view_copies():
    """The view is fresh data: changing it (as a patch would) never changes the state."""
    state = tanks_state(2, discs={0: [1]})
    before = copy.deepcopy(state)
    view = TANKS.view(state, None)
    view["walls"][0]["tilt"] = "x"
    view["players"][0]["discs"].append(7)
    assert state == before


# --- properties -------------------------------------------------------------------------------
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3, 4]),
    steps=st.integers(0, 80),
    data=st.data(),
)
def test_apply_accepts_exactly_the_legal_moves_and_never_mutates(seed, players, steps, data):
    """Contract: apply raises IllegalMove for anything not legal and leaves the state
    unchanged (compared to a deep copy); a legal move never changes its input either."""
    check_apply_contract(TANKS, fresh_tanks(players, str(seed)), f"pick{seed}", steps, data)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_random_play_keeps_the_board_sound(seed, players):
    """C1/C5 invariants under random legal play: the 12 mirrors stay on their squares (only
    their tilts change), tanks never stand on a wall or share a square, nobody holds her own
    disc, and every bullet path is a chain of neighbouring squares."""
    rng = dice(f"sound{seed}")
    for state, events in random_moves(TANKS, fresh_tanks(players, str(seed)), 400, rng.below):
        walls = state["walls"]
        squares = [p["square"] for p in state["players"]]
        assert sorted(walls) == sorted(MAP_T_WALLS) and set(walls.values()) <= {"/", "\\"}
        assert not set(squares) & set(walls) and len(set(squares)) == players
        for p in state["players"]:
            assert p["seat"] not in p["discs"] and p["discs"] == sorted(set(p["discs"]))
        for event in of_type(events, "bullet"):
            chain = [event["from"], *event["path"]]
            assert all(b in STEP[a].values() for a, b in zip(chain, chain[1:], strict=False))
        json.dumps(state)
        json.dumps(events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_random_playouts_reach_a_winner_and_replay_exactly(players):
    """The rulebook's goal is reachable by random legal play; the winner holds a disc of
    every other player; the same seed and moves give the same states."""
    label = f"playout{players}"
    state, log = random_playout(TANKS, fresh_tanks(players, label), label, 50_000)
    outcome = TANKS.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    winner = outcome.winners[0]
    assert state["players"][winner]["discs"] == [s for s in range(players) if s != winner]
    assert replayed(TANKS, fresh_tanks(players, label), log) == state
