"""The C64 legal-move lists share their parts (face choices, take moves, cells) between moves,
lists and matches (`app/games/c64/joystick.py`). These tests check that the lists still say
exactly what the rules' moves are (C4 steps 1-5: take, Player 2/4's return, play with the
next cards' faces) and that nothing the server does with a list changes it or its parts.

Every step of seeded random games of the six C64 games is compared with a plain builder kept
here (fresh objects for every move, as the engine built them before the sharing): equal
lists, byte for byte in JSON. Deep copies of the lists taken before each `apply` must still
equal them after `apply`, after every seat's `view` and after the JSON Patch between two
views that hold them (`app/realtime/diff.make_patch`).
"""

from __future__ import annotations

import copy
import random
from itertools import product
from typing import Any

import orjson
import pytest

from app.engine.dice import SETUP_MOVE_NUMBER, Dice
from app.engine.registry import get_game
from app.games.c64 import joystick as js
from app.realtime.diff import make_patch

C64_GAMES = ("c64-maze", "c64-cars", "c64-snakes", "c64-tanks", "c64-trains", "c64-monsters")
MAX_MOVES = 300


def _shared_parts() -> tuple[Any, ...]:
    return (js._FACE_CHOICES, js._TAKE_MOVES, js._TO, js._PLAY_MOVES, js._RETURN_MOVES)


# --- the plain builder: every move made of fresh objects ---------------------------------------
def _face_choices(cards: list[int]) -> list[list[dict[str, Any]]]:
    a, b = sorted(cards)
    return [
        [{"card": a, "face": fa}, {"card": b, "face": fb}]
        for fa, fb in product(js.CARD_FACES[a], js.CARD_FACES[b])
    ]


def _empty_cells(grid: list[list[int | None]]) -> list[tuple[int, int]]:
    return [(r, c) for r in range(3) for c in range(3) if grid[r][c] is None]


def _line(axis: str, cell: tuple[int, int]) -> list[tuple[int, int]]:
    r, c = cell
    return [(r, 0), (r, 1), (r, 2)] if axis == "row" else [(0, c), (1, c), (2, c)]


def plain_legal_moves(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """C4: at set-up, every pair of one row or column with every choice of faces (step 1), or
    for Player 2/4 any active card back to any empty space (step 2); in play, any active card
    to any empty space, the last one with the faces of the perpendicular line's other two
    cards (steps 3-5)."""
    phase = state["phase"]
    if phase == "over" or not 0 <= seat < len(state["joysticks"]):
        return []
    joy = state["joysticks"][seat]
    grid = joy["grid"]
    active = joy["active"]
    if phase == "play":
        if seat != state["turn"]:
            return []
        empties = _empty_cells(grid)
        if len(active) > 1:
            return [
                {"type": "play", "card": a["card"], "to": [r, c]}
                for a in active
                for r, c in empties
            ]
        moves = []
        for a in active:
            for to in empties:
                across = "col" if joy["axis"] == "row" else "row"
                pair = [grid[r][c] for r, c in _line(across, to) if (r, c) != to]
                for cards in _face_choices(pair):
                    moves.append({"type": "play", "card": a["card"], "to": list(to), "next": cards})
        return moves
    if joy["must_return"]:
        return [
            {"type": "return", "card": a["card"], "to": [r, c]}
            for a in active
            for r, c in _empty_cells(grid)
        ]
    if joy["axis"] is not None:
        return []
    moves = []
    for axis in ("row", "col"):
        for i in range(3):
            cells = _line(axis, (i, i))
            for x, y in ((0, 1), (0, 2), (1, 2)):
                pair = [grid[cells[x][0]][cells[x][1]], grid[cells[y][0]][cells[y][1]]]
                moves.extend({"type": "take", "cards": cards} for cards in _face_choices(pair))
    return moves


# --- random games ------------------------------------------------------------------------------
def _wire(board: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """What a viewer's cached view holds of a position (see `runtime.seat_state`)."""
    return {"legal_moves": legal, "board": board}


def _cases() -> list[tuple[str, int, int]]:
    cases = []
    for game_id in C64_GAMES:
        game = get_game(game_id)
        assert game is not None
        for players in range(game.min_players, game.max_players + 1):
            cases.append((game_id, players, 1))
        cases.append((game_id, game.max_players, 2))
    return cases


@pytest.mark.parametrize(("game_id", "players", "seed"), _cases())
def test_shared_legal_moves_equal_plain_ones_and_nothing_changes_them(game_id, players, seed):
    game = get_game(game_id)
    assert game is not None
    name = f"shared-legal-{game_id}-{players}-{seed}"
    chooser = random.Random(name)
    shared_before = copy.deepcopy(_shared_parts())
    state = game.begin(players, game.parse_options({}), Dice(name, SETUP_MOVE_NUMBER))
    seats = range(players)
    views = {seat: _wire(game.view(state, seat), game.legal_moves(state, seat)) for seat in seats}
    kinds = set()
    for number in range(1, MAX_MOVES + 1):
        active = sorted(game.active_seats(state))
        if not active or game.outcome(state) is not None:
            break
        legal = {seat: game.legal_moves(state, seat) for seat in seats}
        for seat in seats:
            plain = plain_legal_moves(state, seat)
            assert legal[seat] == plain, (number, seat)
            assert orjson.dumps(legal[seat]) == orjson.dumps(plain), (number, seat)
        kinds.update(move["type"] for moves in legal.values() for move in moves)
        copies = copy.deepcopy(legal)

        mover = chooser.choice(active)
        move = chooser.choice(legal[mover])  # the shared object itself, as a bot hands it on
        state, _events = game.apply(state, mover, move, Dice(name, number))
        assert legal == copies, f"apply changed a legal move (move {number})"

        after = {
            seat: _wire(game.view(state, seat), game.legal_moves(state, seat)) for seat in seats
        }
        game.view(state, None)
        assert legal == copies, f"a view changed a legal move (move {number})"

        for seat in seats:
            make_patch(views[seat], after[seat])
        assert legal == copies, f"make_patch changed a legal move (move {number})"
        views = after
    assert {"take", "play"} <= kinds
    # Whatever a game did, the shared parts are as they were built.
    assert _shared_parts() == shared_before
    assert js._tables() == (js._FACE_CHOICES, js._TAKE_MOVES)


def test_lists_share_their_parts_but_never_the_list():
    """Two builds of one position's moves are equal lists of shared moves, never one list
    (a caller may keep or extend its own list)."""
    game = get_game("c64-maze")
    assert game is not None
    state = game.begin(2, game.parse_options({}), Dice("shared", SETUP_MOVE_NUMBER))
    first, second = game.legal_moves(state, 0), game.legal_moves(state, 0)
    assert first == second and first is not second
    assert all(a is b for a, b in zip(first, second, strict=True))
    assert len(first) == 72  # C4 step 1: 6 lines x 3 pairs x 4 choices of faces
