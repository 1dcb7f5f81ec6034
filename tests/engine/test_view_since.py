"""A board built from the one before it (`Game.view_since`): the C64 games keep the joysticks
of the players who did not move, so the next patch skips them by identity; what is built is
still exactly `view` (tests/engine/test_conformance.py checks that for every game)."""

from __future__ import annotations

import random

import orjson

from app.engine.registry import get_game
from app.engine.runtime import LiveMatch
from tests.helpers import play_random_move


def _maze(seed: str) -> LiveMatch:
    game = get_game("c64-maze")
    assert game is not None
    return LiveMatch.in_memory(game, seed, 2)


def test_the_next_board_keeps_the_joysticks_of_those_who_did_not_move() -> None:
    live = _maze("view-since")
    game, rng = live.game, random.Random(4)
    for _ in range(40):
        before = live.viewer_state(live.version, 0)["board"]
        mover = play_random_move(live, rng)
        after = live.viewer_state(live.version, 1)["board"]
        other = 1 - mover
        assert after["joysticks"][other] is before["joysticks"][other]
        assert orjson.dumps(after) == orjson.dumps(game.view(live.state, None))
        if live.status != "active":
            break


def test_a_board_is_built_afresh_when_the_one_before_is_gone() -> None:
    live = _maze("view-since-gone")
    game, rng = live.game, random.Random(9)
    for _ in range(6):
        play_random_move(live, rng)
    before = live.viewer_state(live.version - 1, 0)["board"]
    live.forget_views()  # keeps only the last version's board, and this one is not built
    board = live.viewer_state(live.version, 0)["board"]
    assert all(a is not b for a, b in zip(board["joysticks"], before["joysticks"], strict=True))
    assert orjson.dumps(board) == orjson.dumps(game.view(live.state, None))
