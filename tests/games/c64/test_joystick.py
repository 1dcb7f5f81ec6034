"""The joystick-card engine and turn machinery shared by the C64 games (rulings C2-C4).

Scenarios run through C64 Maze (the first concrete game) or through `Probe`, a minimal test
game that records which faces were executed.
"""

from __future__ import annotations

import copy

import pytest
from c64_factories import (
    DEFAULT_GRID,
    MAZE,
    PROBE,
    dice,
    fresh_maze,
    holding,
    joystick,
    maze_state,
    play,
    probe_state,
    setup_done,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.contract import BadMove, IllegalMove
from app.games.c64 import joystick as js
from app.games.c64.geometry import (
    ABSOLUTE,
    CENTRE,
    COLOR,
    LEFT_CORNER,
    OPPOSITE,
    OPPOSITE_CORNER,
    SIDES,
    square_xy,
)


def refused(state, seat, move, match=""):
    """Apply must refuse the move with a reason and leave the state as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove, match=match) as info:
        MAZE.apply(state, seat, move, dice())
    assert state == before
    assert info.value.reason.endswith(".")
    return info.value.reason


# --- C3: the cards ----------------------------------------------------------------------------
def test_card_faces_follow_c3():
    """C3: 3 x (Up | Down), 3 x (Left | Right), 3 x (Left Button | Right Button)."""
    assert js.CARD_FACES[0:3] == (("up", "down"),) * 3
    assert js.CARD_FACES[3:6] == (("left", "right"),) * 3
    assert js.CARD_FACES[6:9] == (("left_button", "right_button"),) * 3


def test_setup_shuffles_each_grid_with_the_match_dice():
    """C3: "The initial 3x3 grid is shuffled by the server" (from the match RNG)."""
    grids = []
    for seed in ("a", "b", "c", "d", "e"):
        state = fresh_maze(4, seed)
        assert state == fresh_maze(4, seed)  # same seed, same shuffle
        for joy in state["joysticks"]:
            assert sorted(card for row in joy["grid"] for card in row) == list(range(9))
            assert joy["active"] == [] and joy["axis"] is None and joy["tilted"] is None
        grids.append(state["joysticks"][0]["grid"])
    assert len({str(g) for g in grids}) > 1


# --- C2: seats, sides, colours, directions ----------------------------------------------------
def test_player_one_is_drawn_and_sides_follow_turn_order():
    """C2: "Player 1 (first to act) is chosen at random and sits S; the others follow
    clockwise in join order." 2 players S, N; 3 players S, W, N; 4 players S, W, N, E."""
    expected = {2: ["S", "N"], 3: ["S", "W", "N"], 4: ["S", "W", "N", "E"]}
    for players, sides in expected.items():
        firsts = set()
        for seed in range(30):
            state = fresh_maze(players, str(seed))
            order = state["order"]
            assert order == [(order[0] + i) % players for i in range(players)]
            assert [state["players"][s]["side"] for s in order] == sides
            firsts.add(order[0])
        assert firsts == set(range(players))


def test_colours_follow_sides():
    """docs/c64-view.md: "Colours follow the side: S red, W blue, N green, E yellow"."""
    assert COLOR == {"S": "red", "W": "blue", "N": "green", "E": "yellow"}
    view = MAZE.view(maze_state(4), None)
    assert [p["color"] for p in view["players"]] == ["red", "blue", "green", "yellow"]


def _extreme(directions):
    """The corner square furthest in both absolute directions."""
    corners = ["a1", "a8", "h1", "h8"]
    score = {
        "N": lambda sq: square_xy(sq)[1],
        "S": lambda sq: -square_xy(sq)[1],
        "E": lambda sq: square_xy(sq)[0],
        "W": lambda sq: -square_xy(sq)[0],
    }
    return max(corners, key=lambda sq: sum(score[d](sq) for d in directions))


def test_seat_table_matches_c2():
    """C2 table: each seat faces the board; Up is away from her side, Left is a quarter turn
    anticlockwise from Up; the left corner is on her side at her left hand, the opposite
    corner diagonally across, the closest centre square next to her left corner."""
    turn_left = {"N": "W", "W": "S", "S": "E", "E": "N"}
    for side in SIDES:
        up = OPPOSITE[side]
        assert ABSOLUTE[side] == {
            "up": up,
            "down": side,
            "left": turn_left[up],
            "right": OPPOSITE[turn_left[up]],
        }
        assert LEFT_CORNER[side] == _extreme([side, turn_left[up]])
        assert OPPOSITE_CORNER[side] == _extreme([up, OPPOSITE[turn_left[up]]])
        lx, ly = square_xy(LEFT_CORNER[side])
        closest = min(
            ["d4", "d5", "e4", "e5"],
            key=lambda sq: abs(square_xy(sq)[0] - lx) + abs(square_xy(sq)[1] - ly),
        )
        assert CENTRE[side] == closest
    assert LEFT_CORNER == {"S": "a1", "W": "a8", "N": "h8", "E": "h1"}
    assert OPPOSITE_CORNER == {"S": "h8", "W": "h1", "N": "a1", "E": "a8"}


def test_turns_pass_clockwise():
    """Rulebook: "Take turns in clockwise order"; C2: clockwise is S -> W -> N -> E."""
    state = maze_state(4, order=[2, 3, 0, 1])
    sides = []
    for _ in range(5):
        seat = state["turn"]
        sides.append(state["players"][seat]["side"])
        state = {**state, "joysticks": [holding("up")] * 4}  # everyone can play Up again
        state, _ = play(state, seat, "up")
    assert sides == ["S", "W", "N", "E", "S"]


# --- C4 steps 1-2: set-up ---------------------------------------------------------------------
def test_setup_is_simultaneous_and_play_starts_with_player_one():
    """C4.1: every player takes at set-up; play starts with order[0] when all are done."""
    state = maze_state(3, order=[1, 2, 0], phase="setup")
    assert MAZE.active_seats(state) == {0, 1, 2}
    assert state["turn"] is None
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 3, "face": "left"}]}
    state, _ = MAZE.apply(state, 0, take, dice())
    assert MAZE.active_seats(state) == {1, 2}
    assert MAZE.legal_moves(state, 0) == []
    state, _ = MAZE.apply(state, 2, take, dice())  # Player 2: still has to return a card
    assert MAZE.active_seats(state) == {1, 2}
    state, _ = MAZE.apply(state, 1, take, dice())
    assert MAZE.active_seats(state) == {2}
    assert state["phase"] == "setup"
    state, events = MAZE.apply(state, 2, {"type": "return", "card": 3, "to": [1, 0]}, dice())
    assert state["phase"] == "play"
    assert state["turn"] == 1
    assert MAZE.active_seats(state) == {1}
    assert events[-1]["type"] == "start"
    assert events[-1]["text"] == "Everyone is ready. Red is Player 1 and starts."


def test_take_offers_every_pair_of_one_line_with_every_face():
    """Rulebook: "take any 2 cards in any row or column as your active joystick cards. You
    may flip one or both to the other face." 6 lines x 3 pairs x 4 face choices = 72."""
    state = maze_state(2, phase="setup")
    moves = MAZE.legal_moves(state, 0)
    assert len(moves) == 72
    assert len({str(m) for m in moves}) == 72
    for move in moves:
        (a, b) = (c["card"] for c in move["cards"])
        assert a < b
        cells = [js.find_card(state["joysticks"][0], card) for card in (a, b)]
        assert cells[0][0] == cells[1][0] or cells[0][1] == cells[1][1]


def test_take_makes_two_cards_active_and_records_the_line_axis():
    """C4.1: "both leave the grid and become active; the player picks a face for each.
    Record line_axis"."""
    state = maze_state(2, phase="setup")
    take = {"type": "take", "cards": [{"card": 2, "face": "down"}, {"card": 1, "face": "up"}]}
    new, events = MAZE.apply(state, 0, take, dice())
    joy = new["joysticks"][0]
    assert joy["grid"] == [[0, None, None], [3, 4, 5], [6, 7, 8]]
    assert joy["active"] == [{"card": 1, "face": "up"}, {"card": 2, "face": "down"}]
    assert joy["axis"] == "row"
    assert joy["must_return"] is False
    assert events[0]["type"] == "take" and events[0]["text"].startswith("Red takes two cards")


def test_take_refuses_cards_not_in_one_line():
    """Rulebook: "take any 2 cards in any row or column" - not two cards on a diagonal."""
    state = maze_state(2, phase="setup")
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 4, "face": "left"}]}
    refused(state, 0, take, "not in one row or column")


def test_take_refuses_a_face_the_card_does_not_show():
    """C3: an Up|Down card cannot be taken as Left."""
    state = maze_state(2, phase="setup")
    take = {"type": "take", "cards": [{"card": 0, "face": "left"}, {"card": 1, "face": "up"}]}
    refused(state, 0, take, "Card 0 shows Up or Down")


def test_take_refuses_the_same_card_twice():
    """Rulebook: "take any 2 cards" - two different cards."""
    state = maze_state(2, phase="setup")
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 0, "face": "down"}]}
    refused(state, 0, take, "two different cards")


def test_take_refuses_a_second_take_and_takes_during_play():
    """C4.1: the set-up take happens once; later cards come only with step 4."""
    state = maze_state(2, phase="setup")
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 3, "face": "left"}]}
    done, _ = MAZE.apply(state, 0, take, dice())
    refused(done, 0, take, "You are ready")
    refused(maze_state(2), 0, take, "only at set-up")


@pytest.mark.parametrize("players, returners", [(2, [1]), (3, [1]), (4, [1, 3])])
def test_player_two_and_four_return_one_card(players, returners):
    """Rulebook: "(Player 2 and, if playing, player 4 immediately return 1 card and start
    with only 1 active.)" C4.2: second and fourth in turn order."""
    order = [(2 + i) % players for i in range(players)]
    state = maze_state(players, order=order, phase="setup")
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 3, "face": "left"}]}
    for position, seat in enumerate(order):
        state, _ = MAZE.apply(state, seat, take, dice())
        assert state["joysticks"][seat]["must_return"] is (position in returners)
        if position in returners:
            assert MAZE.legal_moves(state, seat) == [
                {"type": "return", "card": c, "to": cell}
                for c in (0, 3)
                for cell in ([0, 0], [1, 0])
            ]
    for position in returners:
        state, _ = MAZE.apply(
            state, order[position], {"type": "return", "card": 0, "to": [1, 0]}, dice()
        )
        assert state["joysticks"][order[position]]["active"] == [{"card": 3, "face": "left"}]
    assert state["phase"] == "play"


def test_return_has_no_action():
    """C4.2: "return one of the two cards to one of the two empty spaces, with no action"."""
    state = maze_state(2, phase="setup")
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 3, "face": "left"}]}
    state, _ = MAZE.apply(state, 1, take, dice())
    new, events = MAZE.apply(state, 1, {"type": "return", "card": 0, "to": [1, 0]}, dice())
    joy = new["joysticks"][1]
    assert joy["grid"][1][0] == 0 and joy["grid"][0][0] is None
    assert joy["active"] == [{"card": 3, "face": "left"}]
    assert joy["tilted"] is None
    assert joy["axis"] == "col"
    assert new["players"] == state["players"] and new["walls"] == state["walls"]
    assert [e["type"] for e in events] == ["return"]


def test_return_only_for_player_two_and_four():
    """Rulebook: only "Player 2 and, if playing, player 4" return a card at set-up."""
    state = maze_state(2, phase="setup")
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 3, "face": "left"}]}
    refused(state, 0, {"type": "return", "card": 0, "to": [0, 0]}, "Take your two")
    state, _ = MAZE.apply(state, 0, take, dice())
    refused(state, 0, {"type": "return", "card": 0, "to": [0, 0]}, "You are ready")


def test_return_refuses_a_full_space_and_an_inactive_card():
    """C4.2: the card goes to one of the empty spaces; only an active card can go back."""
    state = maze_state(2, phase="setup")
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 3, "face": "left"}]}
    state, _ = MAZE.apply(state, 1, take, dice())
    refused(state, 1, {"type": "return", "card": 0, "to": [2, 2]}, "not empty")
    refused(state, 1, {"type": "return", "card": 4, "to": [0, 0]}, "not one of your active")


def test_play_refused_during_setup():
    """C4.3 happens on a turn, after set-up."""
    state = maze_state(2, phase="setup")
    refused(state, 0, {"type": "play", "card": 0, "to": [0, 0]}, "Play starts when")


# --- C4 steps 3-5: turns ----------------------------------------------------------------------
def test_play_places_the_card_tilts_it_and_executes_its_face():
    """Rulebook: "return any 1 card to any empty space in the grid. Always keep the last
    played card tilted ... Then take the returned card's game action"."""
    state = maze_state(2)  # Red (seat 0) holds card 0 as Up and card 3 as Left
    new, events = MAZE.apply(state, 0, {"type": "play", "card": 0, "to": [0, 0]}, dice())
    joy = new["joysticks"][0]
    assert joy["grid"][0][0] == 0
    assert joy["tilted"] == [0, 0]
    assert joy["active"] == [{"card": 3, "face": "left"}]
    assert new["players"][0]["square"] == "a2"
    assert [e["type"] for e in events] == ["play", "move"]
    assert events[0] == {
        "type": "play",
        "seat": 0,
        "card": 0,
        "face": "up",
        "to": [0, 0],
        "direction": "N",
        "text": "Red plays Up (north).",
    }
    assert new["turn"] == 1


def test_play_may_use_any_empty_space():
    """C4.5: "A card may be returned to any empty space, not only the one it came from"."""
    state = maze_state(2)
    assert MAZE.legal_moves(state, 0) == [
        {"type": "play", "card": c, "to": cell} for c in (0, 3) for cell in ([0, 0], [1, 0])
    ]
    new, _ = MAZE.apply(state, 0, {"type": "play", "card": 0, "to": [1, 0]}, dice())
    assert new["joysticks"][0]["grid"][1][0] == 0
    assert new["joysticks"][0]["tilted"] == [1, 0]


def test_play_refuses_a_space_that_is_not_empty():
    """Rulebook: "return any 1 card to any empty space"."""
    refused(maze_state(2), 0, {"type": "play", "card": 0, "to": [2, 2]}, "not empty")


def test_play_refuses_a_card_that_is_not_active():
    """C4.3: "the player chooses one active card"."""
    refused(
        maze_state(2),
        0,
        {"type": "play", "card": 4, "to": [0, 0]},
        "Card 4 is in your grid, not one of your active cards",
    )


def test_play_uses_the_face_chosen_when_taken():
    """Rulebook: "You must use the face flipped to in the setup." Card 0 taken as Down."""
    state = maze_state(2, squares={0: "a3"}, joysticks={0: joystick([(0, "down"), (3, "left")])})
    new, _ = MAZE.apply(state, 0, {"type": "play", "card": 0, "to": [0, 0]}, dice())
    assert new["players"][0]["square"] == "a2"


def test_not_your_turn():
    """Rulebook: "In your turn, return any 1 card"; only the seat to act may play."""
    state = maze_state(2)
    assert MAZE.legal_moves(state, 1) == []
    refused(state, 1, {"type": "play", "card": 0, "to": [0, 0]}, "not your turn: Red plays now")


@pytest.mark.parametrize("axis, next_cards, line", [("col", [1, 2], "row"), ("row", [3, 6], "col")])
def test_last_card_takes_the_other_two_cards_of_the_crossing_line(axis, next_cards, line):
    """Rulebook: "If you place your last action card in a column, immediately take the
    other 2 action cards in the same row or vice versa"; C4.4: the line through the placed
    card perpendicular to line_axis; the axis flips and the tilted card stays."""
    state = maze_state(2, joysticks={0: joystick([(0, "up")], axis=axis)})
    moves = MAZE.legal_moves(state, 0)
    assert [m["next"] for m in moves] == [
        [{"card": next_cards[0], "face": fa}, {"card": next_cards[1], "face": fb}]
        for fa, fb in [
            (x, y) for x in js.CARD_FACES[next_cards[0]] for y in js.CARD_FACES[next_cards[1]]
        ]
    ]
    chosen = [
        {"card": next_cards[0], "face": js.CARD_FACES[next_cards[0]][1]},
        {"card": next_cards[1], "face": js.CARD_FACES[next_cards[1]][0]},
    ]
    move = {"type": "play", "card": 0, "to": [0, 0], "next": chosen}
    new, events = MAZE.apply(state, 0, move, dice())
    joy = new["joysticks"][0]
    assert joy["active"] == chosen
    assert joy["axis"] == line
    assert joy["tilted"] == [0, 0] and joy["grid"][0][0] == 0
    empties = js.empty_cells(joy)
    assert len(empties) == 2
    assert {js.find_card({"grid": DEFAULT_GRID}, c) for c in next_cards} == set(empties)
    assert [e["type"] for e in events] == ["play", "move", "take"]
    assert events[-1]["cards"] == chosen


def test_last_card_requires_next():
    """C4.4: taking the next cards is part of placing the last active card."""
    state = maze_state(2, joysticks={0: joystick([(0, "up")], axis="col")})
    reason = refused(state, 0, {"type": "play", "card": 0, "to": [0, 0]}, "last active card")
    assert "cards 1 and 2" in reason


def test_next_is_refused_before_the_last_card():
    """C4.4 applies only to the last active card: with two active cards, no "next"."""
    nxt = [{"card": 1, "face": "up"}, {"card": 2, "face": "up"}]
    refused(
        maze_state(2),
        0,
        {"type": "play", "card": 0, "to": [0, 0], "next": nxt},
        "do not choose next cards yet",
    )


def test_next_must_be_the_crossing_line_with_faces_they_show():
    """C4.4: "the other two cards of the line through the just-placed card that is
    perpendicular to line_axis", with faces chosen as at set-up (C3)."""
    state = maze_state(2, joysticks={0: joystick([(0, "up")], axis="col")})
    parallel = [{"card": 3, "face": "left"}, {"card": 6, "face": "left_button"}]
    refused(
        state,
        0,
        {"type": "play", "card": 0, "to": [0, 0], "next": parallel},
        "must be the other two cards of the row",
    )
    wrong_face = [{"card": 1, "face": "left"}, {"card": 2, "face": "up"}]
    refused(
        state,
        0,
        {"type": "play", "card": 0, "to": [0, 0], "next": wrong_face},
        "Card 1 shows Up or Down",
    )
    refused(
        state,
        0,
        {"type": "play", "card": 0, "to": [0, 0], "next": [{"card": 1, "face": "up"}]},
        "two cards",
    )


def test_latest_direction_starts_as_the_seat_up_and_follows_move_cards():
    """C4.6: "Latest direction" = the absolute direction of the most recent move card;
    button cards do not change it; before any move it is the seat's Up direction."""
    state = probe_state(4)
    for player in state["players"]:
        assert player["latest"] == ABSOLUTE[player["side"]]["up"]
    seat = state["turn"]
    side = state["players"][seat]["side"]
    state["joysticks"][seat] = holding("right")
    state, events = play(state, seat, "right", PROBE)
    assert state["players"][seat]["latest"] == ABSOLUTE[side]["right"]
    assert events[-1]["direction"] == ABSOLUTE[side]["right"]
    state["turn"] = seat
    state["joysticks"][seat] = holding("left_button")
    state, events = play(state, seat, "left_button", PROBE)
    assert state["players"][seat]["latest"] == ABSOLUTE[side]["right"]
    assert events[-1]["button"] == "left_button"


def test_skipped_action_still_places_the_card_and_takes_next():
    """C4.7: "If the player must skip an action (Tanks hit), steps 3-4 still happen; only
    the face's effect is skipped"."""
    state = probe_state(2)
    seat = state["turn"]
    state["players"][seat]["skip"] = True
    state["joysticks"][seat] = joystick([(0, "up")], axis="col")
    move = {
        "type": "play",
        "card": 0,
        "to": [0, 0],
        "next": [{"card": 1, "face": "up"}, {"card": 2, "face": "down"}],
    }
    new, events = PROBE.apply(state, seat, move, dice())
    assert [e["type"] for e in events] == ["play", "skip", "take"]
    joy = new["joysticks"][seat]
    assert joy["tilted"] == [0, 0] and joy["axis"] == "row"
    assert joy["active"] == move["next"]
    assert new["players"][seat]["latest"] == state["players"][seat]["latest"]
    assert new["players"][seat]["skip"] is False
    assert state["players"][seat]["skip"] is True  # the input is untouched
    assert new["turn"] != seat


def test_no_moves_once_the_game_is_over():
    """Rulebook: play goes on "until the specific game's end condition is reached"."""
    state = maze_state(2)
    state.update(
        phase="over",
        turn=None,
        outcome={"winners": [0], "reason": "Red wins.", "scores": None, "details": {}},
    )
    assert MAZE.active_seats(state) == frozenset()
    assert MAZE.legal_moves(state, 0) == []
    refused(state, 0, {"type": "play", "card": 0, "to": [0, 0]}, "The game is over")


def test_apply_refuses_unknown_moves_and_seats():
    """Refusals carry a reason (STYLE habit 7), also for moves outside the game."""
    state = maze_state(2)
    refused(state, 0, {"type": "jump"}, "no 'jump' move")
    refused(state, 0, {"type": "play", "card": 0, "to": [0, 0], "extra": 1}, "has no 'extra'")
    refused(state, 0, {"type": "play", "card": True, "to": [0, 0]}, "card by its number")
    refused(state, 0, {"type": "play", "card": 0, "to": [0, 3]}, "row, column")
    refused(state, 5, {"type": "play", "card": 0, "to": [0, 0]}, "no such seat")


# --- move parsing -----------------------------------------------------------------------------
def test_parse_move_gives_the_canonical_form():
    """docs/c64-view.md: "Canonical form sorts cards by card id" (also "next")."""
    take = MAZE.parse_move(
        {"type": "take", "cards": [{"card": 7, "face": "left_button"}, {"card": 3, "face": "up"}]}
    )
    assert take == {
        "type": "take",
        "cards": [{"card": 3, "face": "up"}, {"card": 7, "face": "left_button"}],
    }
    play_move = MAZE.parse_move(
        {
            "type": "play",
            "card": 3,
            "to": [1, 1],
            "next": [{"card": 8, "face": "right_button"}, {"card": 2, "face": "down"}],
        }
    )
    assert [c["card"] for c in play_move["next"]] == [2, 8]
    assert MAZE.parse_move({"type": "play", "card": 3, "to": [1, 1], "next": None}) == {
        "type": "play",
        "card": 3,
        "to": [1, 1],
    }


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "play", "card": 3, "to": [1, 1], "extra": True},
        {"type": "play", "card": "3", "to": [1, 1]},
        {"type": "play", "card": 9, "to": [1, 1]},
        {"type": "play", "card": 3, "to": [1, 3]},
        {"type": "play", "card": 3, "to": [1]},
        {"type": "take", "cards": [{"card": 1, "face": "up"}]},
        {"type": "take", "cards": [{"card": 1, "face": "up"}, {"card": 1, "face": "down"}]},
        {"type": "take", "cards": [{"card": 1, "face": "jump"}, {"card": 2, "face": "up"}]},
        {"type": "return", "card": 1},
        {"type": "fly"},
    ],
)
def test_parse_move_refuses_malformed_moves(raw):
    """Move parsing is validation step one (docs/architecture.md): extra="forbid", strict ids."""
    with pytest.raises(BadMove):
        MAZE.parse_move(raw)


def test_legal_moves_are_canonical():
    """The server checks `parse_move(raw) in legal_moves`: every legal move is a fixed point
    of parse_move, in set-up (take and return) and in play (with and without next)."""
    state = maze_state(2, phase="setup")
    for move in MAZE.legal_moves(state, 0):
        assert MAZE.parse_move(move) == move
    take = {"type": "take", "cards": [{"card": 0, "face": "up"}, {"card": 3, "face": "left"}]}
    after, _ = MAZE.apply(state, 1, take, dice())
    for move in MAZE.legal_moves(after, 1):
        assert MAZE.parse_move(move) == move
    for joy in (holding("up"), joystick([(0, "up")], axis="row")):
        for move in MAZE.legal_moves(maze_state(2, joysticks={0: joy}), 0):
            assert MAZE.parse_move(move) == move


# --- properties of random play ----------------------------------------------------------------
def _check_joystick(joy, phase):
    cards = [c for row in joy["grid"] for c in row if c is not None]
    active = [a["card"] for a in joy["active"]]
    assert sorted(cards + active) == list(range(9))
    assert len(js.empty_cells(joy)) == len(active)
    assert active == sorted(active) and len(active) <= 2
    for a in joy["active"]:
        assert a["face"] in js.CARD_FACES[a["card"]]
    if phase != "setup":
        assert len(active) >= 1 and joy["axis"] in ("row", "col") and not joy["must_return"]
        empties = js.empty_cells(joy)
        line = js.line_cells(joy["axis"], empties[0])
        assert all(cell in line for cell in empties)  # empty spaces lie in the axis' line
    if joy["tilted"] is not None:
        r, c = joy["tilted"]
        assert joy["grid"][r][c] is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3, 4]), data=st.data())
def test_random_play_keeps_every_joystick_whole(seed, players, data):
    """C4 invariants under random legal play: each player's nine cards are always either in
    the grid or active, empty spaces = active cards, at most two active, faces shown by the
    card, and in play the empty spaces lie in the line the active cards came from."""
    state = fresh_maze(players, str(seed))
    for _ in range(data.draw(st.integers(0, 150), label="moves")):
        if state["phase"] == "over":
            break
        seat = data.draw(st.sampled_from(sorted(MAZE.active_seats(state))), label="seat")
        moves = MAZE.legal_moves(state, seat)
        assert moves
        state, events = MAZE.apply(state, seat, data.draw(st.sampled_from(moves)), dice())
        assert events and all(isinstance(e["text"], str) for e in events)
        for joy in state["joysticks"]:
            _check_joystick(joy, state["phase"])


def test_setup_done_helper_reaches_play():
    """Factories sanity: finishing set-up by first legal moves reaches the play phase."""
    state = setup_done(MAZE, fresh_maze(4))
    assert state["phase"] == "play" and state["turn"] == state["order"][0]
    assert [len(state["joysticks"][s]["active"]) for s in state["order"]] == [2, 1, 2, 1]
