"""C64 Cars: rulebook "C64 Cars" and its six numbered card-back rules, with rulings C1, C2
(docs/rules/families/c64-board-rulings.md), C8 (docs/rules/c64-cars.md) and map K.

Scenarios use `cars_state`: by default 2 players in seat order, seat 0 = Red (S, Player 1,
start e1) and seat 1 = Green (N, start e2), both facing east in gear 0. Most scenarios clear
the walls (`walls=[...]`) so that only what is named matters. `drive(state, seat, "N")`
gives the seat the card whose face points that absolute way and plays it; `act` plays a
face ("left_button", ...).
"""

from __future__ import annotations

import copy
import json
from collections import deque

import pytest
from c64_factories import dice, fresh_game, holding, joystick, setup_done
from c64_scenarios import act_with, public_view, random_playout, registered, replayed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.contract import IllegalMove, Outcome
from app.games.c64.boardmap import load_map
from app.games.c64.cars import GOAL_STEPS, START_SQUARES, START_WALLS, ZONES, Cars
from app.games.c64.geometry import ABSOLUTE, SIDES_BY_PLAYERS, SQUARES, STEP

CARS = Cars()

# Copied from the rulings' picture of map K.
MAP_K_WALLS = [
    "d7",
    "c6",
    "d6",
    "e6",
    "f6",
    "c5",
    "d5",
    "e5",
    "f5",
    "h5",
    "a4",
    "c4",
    "d4",
    "e4",
    "f4",
    "c3",
    "d3",
    "e3",
    "f3",
]
ALL_CHECKPOINTS = {"East": True, "North": True, "West": True}
RED, GREEN = 0, 1


def cars_state(
    players: int = 2,
    *,
    order: list[int] | None = None,
    cars: dict[int, dict] | None = None,
    walls: list[str] | None = None,
    turn: int | None = None,
) -> dict:
    """A Cars state in the play phase; `cars` {seat: changes} overrides the start values."""
    order = list(range(players)) if order is None else order
    sides = SIDES_BY_PLAYERS[players]
    side_of = {seat: sides[i] for i, seat in enumerate(order)}
    cars = cars or {}
    state_players = []
    for s in range(players):
        car = {
            "seat": s,
            "side": side_of[s],
            "latest": ABSOLUTE[side_of[s]]["up"],
            "square": START_SQUARES[order.index(s)],
            "left": None,
            "exit": None,
            "facing": "E",
            "gear": 0,
            "flipped": False,
            "checkpoints": {"East": False, "North": False, "West": False},
            "finished": False,
        }
        car.update(copy.deepcopy(cars.get(s, {})))
        state_players.append(car)
    return {
        "game": "c64-cars",
        "phase": "play",
        "turn": order[0] if turn is None else turn,
        "order": order,
        "players": state_players,
        "joysticks": [holding("up") for _ in range(players)],
        "outcome": None,
        "walls": sorted(START_WALLS if walls is None else walls),
    }


def act(state: dict, seat: int, face: str) -> tuple[dict, list[dict]]:
    """`seat` plays a card showing `face` (given to it for the purpose)."""
    return act_with(CARS, state, seat, face)


def drive(state: dict, seat: int, direction: str) -> tuple[dict, list[dict]]:
    """`seat` plays the direction card that points `direction` (absolute) from its side."""
    side = state["players"][seat]["side"]
    face = next(f for f, d in ABSOLUTE[side].items() if d == direction)
    return act(state, seat, face)


def car(state: dict, seat: int) -> dict:
    return state["players"][seat]


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def event(events: list[dict], kind: str) -> dict:
    return next(e for e in events if e["type"] == kind)


def fresh(players: int, seed: str = "seed") -> dict:
    return fresh_game(CARS, players, seed)


# --- the game, the track and the set-up ------------------------------------------------------
def test_cars_is_registered_with_its_metadata():
    """docs/rules/README.md: c64-cars, "C64 Cars", 2-4 seats, no options; chance from the shuffle
    and the first-player draw, nothing hidden."""
    game = registered("c64-cars", "C64 Cars", (2, 4))
    assert isinstance(game, Cars)
    assert game.game_key == "cars"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_puts_the_cars_on_the_start_grid_in_turn_order(players):
    """Rulebook: "1 car on each player's start space". Map K: "Start squares in turn order:
    1st player e1, 2nd e2, 3rd f1, 4th f2"; C8: "Start: gear 0, facing east"."""
    state = fresh(players)
    for number, seat in enumerate(state["order"]):
        p = state["players"][seat]
        assert p["square"] == ("e1", "e2", "f1", "f2")[number]
        assert (p["facing"], p["gear"], p["flipped"], p["left"]) == ("E", 0, False, None)
        assert p["checkpoints"] == {"East": False, "North": False, "West": False}
        assert p["finished"] is False
    assert state["walls"] == sorted(MAP_K_WALLS)


def test_map_k_is_the_ring_circuit_of_the_rulings():
    """Map K: "19 walls: a ring circuit. Central island c3-f6 (16 walls) plus three chicanes
    (h5, d7, a4)"; start squares 1-4 on e1 e2 f1 f2; read from maps/K.txt."""
    picture = load_map("K")
    assert sorted(sq for sq, sym in picture.items() if sym == "#") == sorted(MAP_K_WALLS)
    island = {f"{c}{r}" for c in "cdef" for r in "3456"}
    assert island <= set(START_WALLS) and set(START_WALLS) - island == {"h5", "d7", "a4"}
    assert START_SQUARES == ("e1", "e2", "f1", "f2")
    assert [picture[sq] for sq in START_SQUARES] == ["1", "2", "3", "4"]
    free = set(SQUARES) - set(START_WALLS)
    seen = {"e1"}
    queue = deque(seen)
    while queue:
        sq = queue.popleft()
        for nxt in STEP[sq].values():
            if nxt in free and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen == free


def test_checkpoint_zones_and_goal_line_are_map_k():
    """Map K: "Goal line: the grid line between column d and column e on rows 1 and 2 ...
    moving from a d1/d2 square into e1/e2 (eastward)"; checkpoint zones "East (g3-h6), North
    (c7-f8), West (a3-b6)"."""
    assert {("d1", "e1"), ("d2", "e2")} == GOAL_STEPS
    assert list(ZONES) == ["East", "North", "West"]
    assert ZONES["East"] == {f"{c}{r}" for c in "gh" for r in "3456"}
    assert ZONES["North"] == {f"{c}{r}" for c in "cdef" for r in "78"}
    assert ZONES["West"] == {f"{c}{r}" for c in "ab" for r in "3456"}


# --- gears ------------------------------------------------------------------------------------
def test_left_button_increases_the_gear_up_to_3():
    """Rulebook: "Left button: Increase gear (take 1 disc)." C8: max 3 (three discs)."""
    state = cars_state()
    for gear in (1, 2, 3, 3):
        state, events = act(state, RED, "left_button")
        assert car(state, RED)["gear"] == gear
    assert events[1] == {
        "type": "gear",
        "seat": RED,
        "car": RED,
        "from": 3,
        "to": 3,
        "text": "Red is already in top gear (3).",
    }
    assert car(state, RED)["square"] == "e1"


def test_right_button_decreases_the_gear_down_to_0():
    """Rulebook: "Right button: Decrease gear (return 1 disc)". C8: min 0."""
    state = cars_state(cars={RED: {"gear": 2}})
    state, events = act(state, RED, "right_button")
    assert car(state, RED)["gear"] == 1
    assert events[1]["text"] == "Red shifts down to gear 1."
    state, _ = act(state, RED, "right_button")
    state, events = act(state, RED, "right_button")
    assert car(state, RED)["gear"] == 0
    assert events[1]["text"] == "Red is already in gear 0."


# --- direction cards: rules 1-3 ---------------------------------------------------------------
def test_gear_0_only_turns_the_car():
    """Rulebook: "Do not move but turn your car if the direction changes." C8: "gear 0:
    facing := d, no movement"."""
    state = cars_state()
    new, events = drive(state, RED, "N")
    assert (car(new, RED)["square"], car(new, RED)["facing"]) == ("e1", "N")
    assert events[1] == {
        "type": "turn",
        "seat": RED,
        "car": RED,
        "from": "E",
        "to": "N",
        "square": "e1",
        "text": "Red turns north on e1 (gear 0: no movement).",
    }


def test_rule_1_same_direction_moves_as_many_squares_as_the_gear():
    """Rule 1: "If you did not change direction and there are no blocks in the way, simply
    move as many squares as the current gear." """
    state = cars_state(cars={RED: {"square": "a1", "gear": 3}}, walls=[])
    new, events = drive(state, RED, "E")
    assert car(new, RED)["square"] == "d1"
    assert (car(new, RED)["facing"], car(new, RED)["gear"]) == ("E", 3)
    assert events[1] == {
        "type": "drive",
        "seat": RED,
        "car": RED,
        "rule": 1,
        "direction": "E",
        "from": "a1",
        "to": "d1",
        "path": ["a1", "b1", "c1", "d1"],
        "steps": [
            {"car": RED, "kind": "move", "from": "a1", "to": "b1", "direction": "E"},
            {"car": RED, "kind": "move", "from": "b1", "to": "c1", "direction": "E"},
            {"car": RED, "kind": "move", "from": "c1", "to": "d1", "direction": "E"},
        ],
        "rebound": False,
        "text": "Red drives east to d1 (a1 → b1 → c1 → d1).",
    }


@pytest.mark.parametrize("direction, square", [("N", "b3"), ("S", "b1"), ("W", "a2")])
def test_rule_2_a_new_direction_in_gear_1_moves_1_square_the_new_way(direction, square):
    """Rule 2: "If you changed direction and the current gear is 1, move 1 square in the
    new direction." C8: also the reverse direction."""
    state = cars_state(cars={RED: {"square": "b2", "gear": 1}}, walls=[])
    new, events = drive(state, RED, direction)
    assert car(new, RED)["square"] == square
    assert (car(new, RED)["facing"], car(new, RED)["gear"]) == (direction, 1)
    assert car(new, RED)["flipped"] is False
    assert event(events, "drive")["rule"] == 2


@pytest.mark.parametrize("gear, square", [(2, "c2"), (3, "d2")])
@pytest.mark.parametrize("direction", ["N", "S", "W"])
def test_rule_3_a_new_direction_in_gear_2_or_3_moves_on_the_old_way_and_flips(
    gear, square, direction
):
    """Rule 3: "If you changed direction and the current gear is 2/3, move 2/3 squares in
    the old direction and then flip the car." C8: "then facing := d and the car is
    flipped" (reversing included)."""
    state = cars_state(cars={RED: {"square": "a2", "gear": gear}}, walls=[])
    new, events = drive(state, RED, direction)
    me = car(new, RED)
    assert (me["square"], me["facing"], me["flipped"], me["gear"]) == (
        square,
        direction,
        True,
        gear,
    )
    assert types(events)[1:] == ["drive", "flip"]
    assert event(events, "drive")["rule"] == 3 and event(events, "drive")["direction"] == "E"
    assert event(events, "flip")["text"].startswith("Red swerves")


# --- rule 4: walls ------------------------------------------------------------------------------
def test_rule_4_a_wall_ahead_sends_the_whole_budget_back():
    """Rule 4: "If a wall blocks the way, use the moves to move in the opposite direction
    and then decrease gear to 0." C8: "the remaining budget (including this move)"."""
    state = cars_state(cars={RED: {"square": "e4", "gear": 3}}, walls=["f4"])
    new, events = drive(state, RED, "E")
    assert (car(new, RED)["square"], car(new, RED)["gear"]) == ("b4", 0)
    assert car(new, RED)["facing"] == "E"
    drove = event(events, "drive")
    assert drove["path"] == ["e4", "d4", "c4", "b4"] and drove["rebound"] is True
    assert drove["steps"][0] == {
        "car": RED,
        "kind": "wall",
        "from": "e4",
        "to": "f4",
        "direction": "E",
    }
    assert event(events, "rebound")["text"] == (
        "Red hits the wall at f4 and bounces west with 3 moves left."
    )


def test_rule_4_the_moves_left_after_the_wall_go_back():
    """Rule 4 / C8: one square forward, then the 2 remaining moves the other way."""
    state = cars_state(cars={RED: {"square": "e4", "gear": 3}}, walls=["g4"])
    new, events = drive(state, RED, "E")
    assert (car(new, RED)["square"], car(new, RED)["gear"]) == ("d4", 0)
    assert event(events, "drive")["path"] == ["e4", "f4", "e4", "d4"]
    assert (
        event(events, "drive")["text"] == "Red drives east to d4 (e4 → f4 → e4 → d4), then gear 0."
    )


def test_rule_4_a_second_wall_stops_the_rebound():
    """C8: "If the rebound is blocked by another wall it stops." """
    state = cars_state(cars={RED: {"square": "e4", "gear": 3}}, walls=["d4", "g4"])
    new, events = drive(state, RED, "E")
    assert (car(new, RED)["square"], car(new, RED)["gear"]) == ("e4", 0)
    assert [e["stopped"] for e in events if e["type"] == "rebound"] == [False, True]


def test_rule_4_on_the_real_track():
    """Map K, rule 4: Red in gear 2 on g5 heading east meets the chicane wall at h5; her
    rebound west meets the island wall f5 at once, so she stops on g5 in gear 0."""
    state = cars_state(cars={RED: {"square": "g5", "gear": 2}})
    new, events = drive(state, RED, "E")
    assert (car(new, RED)["square"], car(new, RED)["gear"]) == ("g5", 0)
    assert [e["wall"] for e in events if e["type"] == "rebound"] == ["h5", "f5"]


def test_rule_4_the_rebound_pushes_cars():
    """C8: "cars met on the rebound are pushed as below"."""
    state = cars_state(
        cars={RED: {"square": "e4", "gear": 3}, GREEN: {"square": "d4"}}, walls=["f4"]
    )
    new, events = drive(state, RED, "E")
    assert car(new, RED)["square"] == "d4" and car(new, GREEN)["square"] == "b4"
    assert [s["kind"] for s in event(events, "drive")["steps"]] == [
        "wall",
        "bump",
        "pushed",
        "move",
        "bump",
        "pushed",
    ]


def test_a_wall_in_gear_1_after_turning_bounces_one_back():
    """Rules 2 and 4 together: turning north in gear 1 into a wall moves 1 square south."""
    state = cars_state(cars={RED: {"square": "b2", "gear": 1}}, walls=["b3"])
    new, _ = drive(state, RED, "N")
    me = car(new, RED)
    assert (me["square"], me["facing"], me["gear"]) == ("b1", "N", 0)


# --- rule 5: cars ---------------------------------------------------------------------------------
def test_rule_5_one_move_pushes_the_car_then_the_driver_goes_on():
    """Rule 5: "If a car blocks the way, first use 1 move to move that car in your
    direction." C8: "continue with the remaining budget (the pusher may now enter the freed
    square)"."""
    state = cars_state(cars={RED: {"square": "a2", "gear": 2}, GREEN: {"square": "b2"}}, walls=[])
    new, events = drive(state, RED, "E")
    assert car(new, RED)["square"] == "b2" and car(new, GREEN)["square"] == "c2"
    assert car(new, RED)["gear"] == 2 and car(new, GREEN)["facing"] == "E"
    assert event(events, "push")["text"] == "Red pushes Green east from b2 to c2."


def test_rule_5_in_gear_3_pushes_twice():
    """C8 square by square: push (1), enter the freed square (2), push again (3)."""
    state = cars_state(cars={RED: {"square": "a2", "gear": 3}, GREEN: {"square": "b2"}}, walls=[])
    new, _ = drive(state, RED, "E")
    assert car(new, RED)["square"] == "b2" and car(new, GREEN)["square"] == "d2"


@pytest.mark.parametrize("blocker", ["wall", "car"])
def test_rule_5_a_car_that_cannot_move_still_costs_the_move(blocker):
    """C8: "if it is a wall or another car the pushed car does not move (the move is still
    spent)"."""
    cars = {RED: {"square": "a2", "gear": 2}, GREEN: {"square": "b2"}}
    walls = ["c2"] if blocker == "wall" else []
    players = 2 if blocker == "wall" else 3
    if blocker == "car":
        cars[2] = {"square": "c2"}
    state = cars_state(players, cars=cars, walls=walls)
    new, events = drive(state, RED, "E")
    assert car(new, RED)["square"] == "a2" and car(new, GREEN)["square"] == "b2"
    assert car(new, RED)["gear"] == 2  # no wall was hit by the driver
    assert [s["kind"] for s in event(events, "drive")["steps"]] == ["bump", "stuck"] * 2


def test_rule_5_a_pushed_car_can_leave_the_board():
    """C8: "If its destination is off-board it goes off-board"."""
    state = cars_state(cars={RED: {"square": "g2", "gear": 2}, GREEN: {"square": "h2"}}, walls=[])
    new, events = drive(state, RED, "E")
    assert car(new, RED)["square"] == "h2"
    green = car(new, GREEN)
    assert (green["square"], green["left"], green["exit"]) == (None, "h2", "E")
    assert "off_board" in types(events)
    assert event(events, "push")["text"] == "Red pushes Green off the board at h2!"


# --- the board's edge and rule 6 -----------------------------------------------------------------
def test_driving_off_the_board_ends_the_movement():
    """C8: "next square off the board: the car leaves the board (off-board, remember the
    square it left), movement ends." """
    state = cars_state(cars={RED: {"square": "g2", "gear": 3}}, walls=[])
    new, events = drive(state, RED, "E")
    me = car(new, RED)
    assert (me["square"], me["left"], me["exit"], me["gear"]) == (None, "h2", "E", 3)
    assert event(events, "drive")["path"] == ["g2", "h2"]
    assert event(events, "drive")["steps"][-1]["kind"] == "off"
    assert event(events, "off_board")["text"] == (
        "Red's car leaves the board east of h2; her next action puts it back there."
    )


def test_rule_3_off_the_board_turns_but_does_not_flip():
    """Our reading of rule 3 with rule 6's "flipped/outside": a car that left the board is
    only off the board (one recovery puts it back)."""
    state = cars_state(cars={RED: {"square": "g2", "gear": 3}}, walls=[])
    new, events = drive(state, RED, "N")
    me = car(new, RED)
    assert (me["square"], me["flipped"], me["facing"]) == (None, False, "N")
    assert "flip" not in types(events)


@pytest.mark.parametrize("face", ["up", "left", "left_button", "right_button"])
def test_rule_6_a_flipped_car_uses_its_next_action_to_unflip(face):
    """Rule 6: "If your car is flipped/outside the board, use your next action to unflip
    it ... Decrease the gear to 0." C8: "the next card's action (whatever it is) is replaced
    by recovery"."""
    state = cars_state(cars={RED: {"square": "b2", "gear": 3, "flipped": True, "facing": "N"}})
    new, events = act(state, RED, face)
    me = car(new, RED)
    assert (me["square"], me["facing"], me["gear"], me["flipped"]) == ("b2", "N", 0, False)
    assert types(events) == ["play", "recover"]
    assert events[1]["kind"] == "unflip"


def test_rule_6_an_off_board_car_returns_where_it_left():
    """Rule 6: "... return it where it left (if empty). Decrease the gear to 0." """
    state = cars_state(cars={RED: {"square": None, "left": "h2", "exit": "E", "gear": 3}})
    new, events = act(state, RED, "left_button")
    me = car(new, RED)
    assert (me["square"], me["left"], me["exit"], me["gear"]) == ("h2", None, None, 0)
    assert events[1]["text"] == (
        "Red puts her car back on h2 instead of her card's action. Gear 0."
    )


def test_rule_6_an_off_board_car_waits_while_its_square_is_taken():
    """C8: "only if that square is empty; otherwise nothing happens and the car stays off.
    Either way gear becomes 0." """
    state = cars_state(
        cars={RED: {"square": None, "left": "h2", "exit": "E", "gear": 2}, GREEN: {"square": "h2"}}
    )
    new, events = drive(state, RED, "E")
    me = car(new, RED)
    assert (me["square"], me["left"], me["gear"]) == (None, "h2", 0)
    assert events[1]["kind"] == "return_blocked"
    assert events[1]["text"] == "Red cannot put her car back on h2: Green's car is there. Gear 0."


def test_a_pushed_off_car_recovers_on_its_owners_turn():
    """Rule 6 applies to any car outside the board: Green, pushed off, spends her next card
    (here a direction card) on coming back."""
    state = cars_state(cars={RED: {"square": "g2", "gear": 1}, GREEN: {"square": "h2", "gear": 2}})
    state, _ = drive(state, RED, "E")
    assert car(state, GREEN)["square"] is None and car(state, RED)["square"] == "g2"
    new, events = drive(state, GREEN, "W")
    green = car(new, GREEN)
    assert (green["square"], green["gear"], green["facing"]) == ("h2", 0, "E")
    assert types(events) == ["play", "recover"] and events[1]["kind"] == "return"


# --- laps and the goal ----------------------------------------------------------------------------
def test_standing_on_a_checkpoint_zone_ticks_it_even_in_passing():
    """Map K lap check: "the car has stood on at least one square of each checkpoint zone";
    movement is square by square, so squares passed count."""
    state = cars_state(cars={RED: {"square": "g1", "gear": 3, "facing": "N"}})
    new, events = drive(state, RED, "N")
    assert car(new, RED)["square"] == "g4"
    assert car(new, RED)["checkpoints"] == {"East": True, "North": False, "West": False}
    assert [e["text"] for e in events if e["type"] == "checkpoint"] == [
        "Red reaches the East checkpoint on g3 (1 of 3)."
    ]
    again, events = drive(new, RED, "N")
    assert "checkpoint" not in types(events)


def test_crossing_the_goal_line_after_a_lap_wins_at_once():
    """Rulebook: "The first player to cross the goal line wins." Map K: moving from d1/d2
    into e1/e2 after all three zones; C8: "wins immediately" - the rest of the drive is
    not made."""
    state = cars_state(
        cars={
            RED: {"square": "c2", "gear": 3, "checkpoints": ALL_CHECKPOINTS},
            GREEN: {"square": "h8"},
        }
    )
    new, events = drive(state, RED, "E")
    assert car(new, RED)["square"] == "e2"
    assert types(events) == ["play", "drive", "win"]
    assert new["phase"] == "over"
    assert CARS.outcome(new) == Outcome(
        winners=(RED,),
        reason="Red crosses the goal line after a full lap and wins.",
        details={"square": "e2"},
    )
    with pytest.raises(IllegalMove):
        CARS.apply(new, GREEN, {"type": "play", "card": 0, "to": [0, 0]}, dice())


@pytest.mark.parametrize("missing", ["East", "North", "West"])
def test_the_line_does_not_count_without_every_checkpoint(missing):
    """Map K: "the crossing only counts if ... each checkpoint zone: East, North, West"."""
    checkpoints = {**ALL_CHECKPOINTS, missing: False}
    state = cars_state(
        cars={RED: {"square": "d1", "gear": 1, "checkpoints": checkpoints}, GREEN: {"square": "h8"}}
    )
    new, _ = drive(state, RED, "E")
    assert car(new, RED)["square"] == "e1" and CARS.outcome(new) is None


def test_crossing_westward_does_not_count():
    """Map K: "A car crosses it by moving from a d1/d2 square into e1/e2 (eastward)";
    "a car that reverses across the line before finishing a lap gains nothing"."""
    state = cars_state(
        cars={RED: {"square": "f1", "gear": 3, "facing": "W", "checkpoints": ALL_CHECKPOINTS}}
    )
    new, _ = drive(state, RED, "W")
    assert car(new, RED)["square"] == "c1" and CARS.outcome(new) is None


def test_a_pushed_car_that_crosses_after_its_lap_wins():
    """C8 "the first car to cross the goal line ... wins immediately": being pushed east
    over the line is crossing it too; the pusher's drive stops there."""
    state = cars_state(
        cars={
            RED: {"square": "b1", "gear": 3},
            GREEN: {"square": "d1", "checkpoints": ALL_CHECKPOINTS},
        }
    )
    new, events = drive(state, RED, "E")
    assert car(new, GREEN)["square"] == "e1" and car(new, RED)["square"] == "c1"
    assert CARS.outcome(new).winners == (GREEN,)
    assert (
        events[-1]["text"]
        == "Green, pushed by Red, crosses the goal line after a full lap and wins."
    )


def test_a_rebound_over_the_line_counts():
    """C8: the lap check looks at the step; a rebound east from d2 into e2 crosses too."""
    state = cars_state(
        cars={
            RED: {"square": "d2", "gear": 2, "facing": "W", "checkpoints": ALL_CHECKPOINTS},
            GREEN: {"square": "h8"},
        },
        walls=["c2"],
    )
    new, _ = drive(state, RED, "W")
    assert car(new, RED)["square"] == "e2" and CARS.outcome(new).winners == (RED,)


def test_a_win_with_the_last_card_still_takes_the_next_cards():
    """C4.4 then the goal: the move names its next cards; the game ends after the turn."""
    state = cars_state(
        cars={
            RED: {"square": "d1", "gear": 1, "checkpoints": ALL_CHECKPOINTS},
            GREEN: {"square": "h8"},
        }
    )
    state["joysticks"][RED] = joystick([(3, "right")], axis="col")
    move = {
        "type": "play",
        "card": 3,
        "to": [1, 0],
        "next": [{"card": 4, "face": "left"}, {"card": 5, "face": "right"}],
    }
    new, events = CARS.apply(state, RED, move, dice())
    assert types(events) == ["play", "drive", "take", "win"]


# --- view -----------------------------------------------------------------------------------------
def test_view_follows_the_contract():
    """docs/c64-view.md plus the Cars keys (module docstring); the same for every seat."""
    state = cars_state(
        3,
        order=[2, 0, 1],
        cars={0: {"square": None, "left": "h2", "exit": "E", "gear": 2}, 1: {"flipped": True}},
    )
    view = public_view(CARS, state, 1)
    assert (view["game"], view["turn"], view["walls"]) == ("cars", 2, sorted(MAP_K_WALLS))
    assert view["goal_line"] == [["d1", "e1"], ["d2", "e2"]]
    assert [z["name"] for z in view["checkpoints"]] == ["East", "North", "West"]
    assert view["checkpoints"][0]["squares"] == sorted(ZONES["East"])
    assert view["players"][0] == {
        "seat": 0,
        "side": "W",
        "color": "blue",
        "number": 2,
        "latest": "E",
        "ready": True,
        "square": None,
        "off": True,
        "left": "h2",
        "exit": "E",
        "facing": "E",
        "gear": 2,
        "flipped": False,
        "checkpoints": {"East": False, "North": False, "West": False},
        "start": "e2",
    }
    assert view["players"][1]["flipped"] is True and view["players"][1]["start"] == "f1"
    view["players"][0]["checkpoints"]["East"] = True
    assert state["players"][0]["checkpoints"]["East"] is False


# --- properties -----------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_random_play_keeps_the_track_sound(seed, players):
    """C8 invariants under random legal play: no two cars on one square, none on a wall,
    gears 0-3, an off-board car remembers its square and is not flipped; JSON throughout."""
    rng = dice(f"pick{seed}")
    state = setup_done(CARS, fresh(players, str(seed)))
    walls = set(START_WALLS)
    for _ in range(400):
        if state["phase"] == "over":
            break
        seat = state["turn"]
        moves = CARS.legal_moves(state, seat)
        state, events = CARS.apply(state, seat, moves[rng.below(len(moves))], dice())
        squares = [p["square"] for p in state["players"] if p["square"] is not None]
        assert len(squares) == len(set(squares)) and not walls & set(squares)
        for p in state["players"]:
            assert 0 <= p["gear"] <= 3
            assert (p["square"] is None) == (p["left"] is not None)
            assert not (p["square"] is None and p["flipped"])
        json.dumps(state)
        json.dumps(events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_random_playouts_finish_a_lap_and_replay_exactly(players):
    """The goal is reachable by random legal play, and the same seed and moves give the same
    states (docs/architecture.md, "Dice you can check")."""
    label = f"playout{players}"
    state, log = random_playout(CARS, fresh(players, label), label, 50_000)
    outcome = CARS.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    winner = state["players"][outcome.winners[0]]
    assert winner["square"] in ("e1", "e2") and all(winner["checkpoints"].values())
    assert replayed(CARS, fresh(players, label), log) == state
