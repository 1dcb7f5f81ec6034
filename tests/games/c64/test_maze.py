"""C64 Maze: rulebook "C64 Maze" with rulings C1, C2 (docs/rules/families/c64-board-rulings.md), C7
(docs/rules/c64-maze.md) and map Z.

Scenarios use `maze_state`: 2 players by default, seat 0 = Red (S, Player 1, a1 -> h8) and
seat 1 = Green (N, h8 -> a1); `act(state, seat, face, **player changes)` gives the seat a
card showing `face` and plays it.
"""

from __future__ import annotations

import copy
import json
from collections import deque

import pytest
from c64_factories import MAZE, act, dice, fresh_maze, joystick, maze_state, play
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

from app.engine.contract import Outcome
from app.games.c64.boardmap import load_map, parse_map
from app.games.c64.geometry import ABSOLUTE, CORNERS, SQUARES, STEP, square_xy, xy_square
from app.games.c64.maze import START_WALLS

# Copied from the rulings' "Walls:" line for map Z.
MAP_Z_WALLS = [
    "a7",
    "b1",
    "b2",
    "b3",
    "b4",
    "b5",
    "b7",
    "c5",
    "c7",
    "d2",
    "d3",
    "d7",
    "e2",
    "e6",
    "e7",
    "f2",
    "f4",
    "g2",
    "g4",
    "g5",
    "g6",
    "g7",
    "g8",
    "h2",
]


def unchanged_except_turn(before, after, seat):
    """A card with no effect: pieces, walls and latest stay; the card is spent (C4 step 3)."""
    assert after["players"][seat]["square"] == before["players"][seat]["square"]
    assert after["walls"] == before["walls"]
    assert after["joysticks"][seat]["tilted"] is not None
    assert after["turn"] != seat


# --- the game and its set-up ------------------------------------------------------------------
def test_maze_is_registered_with_its_metadata():
    """docs/rules/README.md: c64-maze, "C64 Maze", 2-4 seats; chance from the shuffle and the
    draw."""
    registered("c64-maze", "C64 Maze", (2, 4))


def test_setup_puts_each_adventurer_on_its_left_corner():
    """Rulebook: "Setup: ... 1 adventurer in each player's left corner." (C2 left corners)."""
    for players in (2, 3, 4):
        state = fresh_maze(players)
        corners = {p["side"]: p["square"] for p in state["players"]}
        assert corners == {
            side: sq
            for side, sq in {"S": "a1", "W": "a8", "N": "h8", "E": "h1"}.items()
            if side in corners
        }
        assert state["phase"] == "setup" and state["outcome"] is None


def test_setup_walls_are_map_z():
    """C7: "Walls per map Z" - the 24 wall squares listed in the rulings, read from
    maps/Z.txt."""
    assert sorted(fresh_maze(3)["walls"]) == sorted(MAP_Z_WALLS)
    assert list(START_WALLS) == sorted(MAP_Z_WALLS)
    picture = load_map("Z")
    assert sorted(sq for sq, sym in picture.items() if sym == "#") == sorted(MAP_Z_WALLS)
    assert {sq for sq, sym in picture.items() if sym == "A"} == CORNERS


def _shortest(walls, start, goal):
    seen = {start: 0}
    queue = deque([start])
    while queue:
        sq = queue.popleft()
        for nxt in STEP[sq].values():
            if nxt is not None and nxt not in walls and nxt not in seen:
                seen[nxt] = seen[sq] + 1
                queue.append(nxt)
    return seen.get(goal), seen


def test_map_z_is_fair_and_connected():
    """Map Z: "90-degree rotational symmetry so every seat gets the same position", "the
    shortest route is 20 steps", "keeping every free square reachable"."""
    walls = set(START_WALLS)
    rotated = {xy_square(square_xy(sq)[1], 7 - square_xy(sq)[0]) for sq in walls}
    assert rotated == walls
    for start, goal in (("a1", "h8"), ("a8", "h1"), ("h8", "a1"), ("h1", "a8")):
        steps, seen = _shortest(walls, start, goal)
        assert steps == 20
        assert set(seen) == set(SQUARES) - walls


def test_map_pictures_are_checked():
    """Maps are data (docs/rules/README.md): a malformed picture is refused, not half-read."""
    good = "\n".join(f"{r} . . . . . . . ." for r in range(8, 0, -1)) + "\n  a b c d e f g h"
    assert len(parse_map(good)) == 64
    with pytest.raises(ValueError):
        parse_map(good.replace("8 . .", "8 . X", 1))
    with pytest.raises(ValueError):
        parse_map(good.replace("7 . . . . . . . .\n", ""))


# --- moving -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
@pytest.mark.parametrize("face", ["up", "down", "left", "right"])
def test_move_card_moves_one_square_in_the_seat_relative_direction(seat, face):
    """Rulebook: "Up/down/left/right: Move your adventurer 1 square in the direction";
    C2: the direction is relative to the seat."""
    state = maze_state(4, walls=[], squares={0: "a1", 1: "a8", 2: "h8", 3: "h1", seat: "d4"})
    side = state["players"][seat]["side"]
    new, events = act(state, seat, face)
    direction = ABSOLUTE[side][face]
    assert new["players"][seat]["square"] == STEP["d4"][direction]
    assert new["players"][seat]["latest"] == direction
    assert events[1]["type"] == "move"
    assert events[1]["from"] == "d4" and events[1]["to"] == STEP["d4"][direction]


def test_move_is_blocked_by_a_wall_and_the_card_is_spent():
    """Rulebook: "(if not blocked by a wall or another adventurer)"; ruling G2: an action with
    no effect still spends the card. Red at a1 tries east into the wall at b1."""
    state = maze_state(2)
    new, events = act(state, 0, "right")
    unchanged_except_turn(state, new, 0)
    assert events[1] == {
        "type": "blocked",
        "seat": 0,
        "action": "move",
        "why": "wall",
        "direction": "E",
        "from": "a1",
        "to": "b1",
        "text": "Red cannot move east from a1: b1 is a wall.",
    }


def test_move_is_blocked_by_another_adventurer():
    """Rulebook: "(if not blocked by a wall or another adventurer)"."""
    state = maze_state(2, squares={0: "a2", 1: "a3"})
    new, events = act(state, 0, "up")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "adventurer"
    assert events[1]["text"] == "Red cannot move north from a2: Green's adventurer is on a3."


def test_move_is_blocked_by_the_edge():
    """C5/C7 reading of "Move 1 square": off the board is blocked, no effect."""
    state = maze_state(2)
    new, events = act(state, 0, "left")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "edge"
    assert events[1]["text"] == "Red cannot move west from a1: the edge of the board is in the way."


def test_a_blocked_move_still_sets_the_latest_direction():
    """C4.6: latest direction = the most recent executed move card; a blocked move card is
    still executed (ruling G2: no effect, still spent), so Red now faces the wall at b1."""
    state = maze_state(2)
    new, _ = act(state, 0, "right")
    assert new["players"][0]["latest"] == "E"


def test_moves_print_colour_names():
    """docs/c64-view.md: events carry readable text, e.g. "Green moves south to h7."."""
    state = maze_state(2, turn=1)
    _, events = play(state, 1, "up")
    assert events[1]["text"] == "Green moves south to h7."


# --- push (Left Button) -----------------------------------------------------------------------
def test_push_moves_the_wall_one_square_in_the_latest_direction():
    """Rulebook: "Left button: Push and move a wall 1 square in your latest direction."
    C7: the adventurer does not move."""
    state = maze_state(2, walls=["c5"], squares={0: "c4"})
    new, events = act(state, 0, "left_button")
    assert new["walls"] == ["c6"]
    assert new["players"][0]["square"] == "c4"
    assert new["players"][0]["latest"] == "N"
    assert events[1] == {
        "type": "push",
        "seat": 0,
        "direction": "N",
        "wall_from": "c5",
        "wall_to": "c6",
        "piece_from": "c4",
        "piece_to": "c4",
        "text": "Red pushes the wall at c5 north to c6.",
    }


def test_push_uses_the_latest_direction_not_the_seat_up():
    """C7: "the square next to the adventurer in its latest direction must hold a wall"."""
    state = maze_state(2, walls=["d4"], squares={0: "c4"})
    new, _ = act(state, 0, "left_button", latest="E")
    assert new["walls"] == ["e4"]


def test_push_needs_a_wall_next_to_the_adventurer():
    """C7: the square in the latest direction "must hold a wall" (here it is empty)."""
    state = maze_state(2, walls=["c6"], squares={0: "c4"})
    new, events = act(state, 0, "left_button")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "no_wall"


@pytest.mark.parametrize(
    "walls, squares, latest, why",
    [
        (["c5", "c6"], {0: "c4"}, "N", "wall"),
        (["c5"], {0: "c4", 1: "c6"}, "N", "adventurer"),
        (["c8"], {0: "c7"}, "N", "edge"),
        (["h2"], {0: "h3"}, "S", "corner"),
    ],
)
def test_push_is_blocked_at_the_destination(walls, squares, latest, why):
    """Rulebook: "You cannot push/pull if there is a blocking wall or adventurer in the
    square you are pushing/pulling to." C7: also not off the board, not onto a corner."""
    state = maze_state(2, walls=walls, squares=squares)
    new, events = act(state, 0, "left_button", latest=latest)
    unchanged_except_turn(state, new, 0)
    assert events[1]["type"] == "blocked" and events[1]["why"] == why


def test_push_never_puts_a_wall_on_a_corner():
    """C7: "walls never go on corners" - h1 is empty here, but no wall may go there."""
    state = maze_state(2, squares={0: "h3"})
    assert "h2" in state["walls"]
    _, events = act(state, 0, "left_button", latest="S")
    assert events[1]["text"] == (
        "Red cannot push the wall at h2 south: walls never go on corner squares."
    )


# --- pull (Right Button) ----------------------------------------------------------------------
def test_pull_steps_back_and_the_wall_follows():
    """Rulebook: "Right button: Pull and move a wall 1 square opposite to your latest
    direction." C7: the adventurer steps back and the wall follows into the square she left;
    latest direction does not change."""
    state = maze_state(2, walls=["c5"], squares={0: "c4"})
    new, events = act(state, 0, "right_button")
    assert new["players"][0]["square"] == "c3"
    assert new["walls"] == ["c4"]
    assert new["players"][0]["latest"] == "N"
    assert events[1] == {
        "type": "pull",
        "seat": 0,
        "direction": "S",
        "wall_from": "c5",
        "wall_to": "c4",
        "piece_from": "c4",
        "piece_to": "c3",
        "text": "Red pulls the wall at c5 south to c4 and steps back to c3.",
    }


def test_pull_needs_a_wall_next_to_the_adventurer():
    """C7: "the square next to the adventurer in its latest direction must hold a wall"."""
    state = maze_state(2, walls=["c3"], squares={0: "c4"})
    new, events = act(state, 0, "right_button")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "no_wall"


@pytest.mark.parametrize(
    "walls, squares, why",
    [
        (["c5", "c3"], {0: "c4"}, "wall"),
        (["c5"], {0: "c4", 1: "c3"}, "adventurer"),
        (["c2"], {0: "c1"}, "edge"),
    ],
)
def test_pull_is_blocked_behind_the_adventurer(walls, squares, why):
    """Rulebook: "You cannot push/pull if there is a blocking wall or adventurer in the
    square you are pushing/pulling to." C7: the square behind must be on the board, not a
    wall, not an adventurer."""
    state = maze_state(2, walls=walls, squares=squares)
    new, events = act(state, 0, "right_button")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == why


@pytest.mark.parametrize("latest, wall", [("N", "a2"), ("E", "b1")])
def test_pull_from_a_corner_is_impossible(latest, wall):
    """C7: "if the adventurer was standing on a corner square the pull is illegal (walls
    never go on corners)"."""
    state = maze_state(2, walls=[wall])
    new, events = act(state, 0, "right_button", latest=latest)
    unchanged_except_turn(state, new, 0)
    assert new["walls"] == [wall]
    assert events[1]["type"] == "blocked" and events[1]["why"] in ("edge", "corner")


# --- goal -------------------------------------------------------------------------------------
def test_reaching_the_opposite_corner_wins_at_once():
    """Rulebook: "Goal: The first player to reach her opposite corner wins." C7: "first
    adventurer to stand on its opposite corner"."""
    state = maze_state(2, squares={0: "h7", 1: "d4"})
    new, events = act(state, 0, "up")
    assert new["players"][0]["square"] == "h8"
    assert MAZE.outcome(new) == Outcome(
        winners=(0,),
        reason="Red reaches h8, the opposite corner, and wins.",
        details={"square": "h8"},
    )
    assert new["phase"] == "over" and new["turn"] is None
    assert events[-1] == {
        "type": "win",
        "seat": 0,
        "winners": [0],
        "text": "Red reaches h8, the opposite corner, and wins.",
    }
    nobody_moves_after_the_end(MAZE, new, (0, 1))


def test_a_win_with_the_last_card_still_takes_the_next_cards():
    """C4.4 then the goal: the move names its next cards; the game ends after the turn."""
    state = maze_state(
        2, squares={0: "h7", 1: "d4"}, joysticks={0: joystick([(0, "up")], axis="col")}
    )
    move = {
        "type": "play",
        "card": 0,
        "to": [0, 0],
        "next": [{"card": 1, "face": "up"}, {"card": 2, "face": "up"}],
    }
    new, events = MAZE.apply(state, 0, move, dice())
    assert [e["type"] for e in events] == ["play", "move", "take", "win"]
    assert MAZE.outcome(new).winners == (0,)


def test_another_players_corner_is_not_a_goal():
    """Rulebook: "reach her opposite corner" - Red (S) at h1 has not won."""
    state = maze_state(2, squares={0: "g1"})
    new, _ = act(state, 0, "right")
    assert new["players"][0]["square"] == "h1"
    assert MAZE.outcome(new) is None and new["phase"] == "play"


def test_each_seat_has_its_own_goal():
    """C2 opposite corners: W (Blue) wins on h1, reached by her Up (east) card."""
    state = maze_state(4, squares={1: "g1", 3: "d4"})
    new, _ = act(state, 1, "up")
    assert MAZE.outcome(new).winners == (1,)


def test_a_pull_can_reach_the_goal():
    """C7 goal: any way of standing on the opposite corner wins; here Red faces south, pulls
    the wall at h6 and steps back onto h8 (the wall lands on h7, not on the corner)."""
    state = maze_state(2, walls=["h6"], squares={0: "h7", 1: "d4"})
    new, _ = act(state, 0, "right_button", latest="S")
    assert new["players"][0]["square"] == "h8" and new["walls"] == ["h7"]
    assert MAZE.outcome(new).winners == (0,)


# --- view -------------------------------------------------------------------------------------
def test_view_follows_the_contract():
    """docs/c64-view.md: the board view's keys, the same for every seat (nothing hidden)."""
    state = maze_state(3, order=[2, 0, 1], latest={2: "E"})
    view = public_view(MAZE, state, 2)
    assert {"family", "game", "phase", "turn", "order", "players", "walls", "joysticks"} <= set(
        view
    )
    assert (view["family"], view["game"], view["phase"], view["turn"]) == ("c64", "maze", "play", 2)
    assert view["order"] == [2, 0, 1]
    assert view["players"][2] == {
        "seat": 2,
        "side": "S",
        "color": "red",
        "number": 1,
        "square": "a1",
        "goal": "h8",
        "latest": "E",
        "ready": True,
    }
    assert view["walls"] == sorted(MAP_Z_WALLS)
    joy = view["joysticks"][0]
    assert joy["seat"] == 0
    assert joy["grid"][0] == [None, 1, 2]
    assert joy["active"] == [{"id": 0, "face": "up"}, {"id": 3, "face": "left"}]
    assert view["cards"][1] == ["up", "down"] and view["cards"][3] == ["left", "right"]
    assert view["cards"][8] == ["left_button", "right_button"]
    assert (joy["tilted"], joy["axis"], joy["must_return"]) == (None, "col", False)


def test_view_in_setup_and_view_copies():
    """docs/c64-view.md: "turn" is null outside play; "ready" per seat. The view is fresh
    data: changing it (as a patch would) never changes the state."""
    state = fresh_maze(2)
    before = copy.deepcopy(state)
    view = MAZE.view(state, None)
    assert view["turn"] is None and view["phase"] == "setup"
    assert [p["ready"] for p in view["players"]] == [False, False]
    assert view["joysticks"][0]["axis"] is None
    view["walls"].append("x9")
    view["joysticks"][0]["grid"][0][0] = None
    view["players"][0]["square"] = "zz"
    assert state == before


# --- properties -------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3, 4]),
    steps=st.integers(0, 120),
    data=st.data(),
)
def test_apply_accepts_exactly_the_legal_moves_and_never_mutates(seed, players, steps, data):
    """Contract: apply raises IllegalMove for anything not legal and leaves the state
    unchanged (compared to a deep copy); a legal move never changes its input either."""
    check_apply_contract(MAZE, fresh_maze(players, str(seed)), f"pick{seed}", steps, data)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_random_play_keeps_the_board_sound(seed, players):
    """C7 invariants under random legal play: 24 walls, never on a corner, never under an
    adventurer; adventurers on distinct squares; every state and view is JSON."""
    rng = dice(f"sound{seed}")
    state = start = fresh_maze(players, str(seed))
    for state, events in random_moves(MAZE, start, 400, rng.below):
        walls = state["walls"]
        squares = [p["square"] for p in state["players"]]
        assert len(walls) == 24 and walls == sorted(set(walls))
        assert not CORNERS & set(walls)
        assert not set(squares) & set(walls)
        assert len(set(squares)) == players
        json.dumps(state)
        json.dumps(events)
    json.dumps(MAZE.view(state, None))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_random_playouts_reach_a_winner_and_replay_exactly(players):
    """The rulebook's goal is reachable by random legal play, and the same seed and moves
    give the same states (replays, docs/architecture.md)."""
    label = f"playout{players}"
    state, log = random_playout(MAZE, fresh_maze(players, label), label, 60_000)
    outcome = MAZE.outcome(state)
    assert outcome is not None and len(outcome.winners) == 1
    winner = state["players"][outcome.winners[0]]
    assert winner["square"] == {"S": "h8", "W": "h1", "N": "a1", "E": "a8"}[winner["side"]]
    assert replayed(MAZE, fresh_maze(players, label), log) == state
