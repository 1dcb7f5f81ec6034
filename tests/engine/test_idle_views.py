"""A match waiting on a person's move drops its cached views and all but the last two versions
of its history (`LiveMatch.forget_views`, run for idle matches): what it sends afterwards is
exactly what it would have sent had it kept them."""

from __future__ import annotations

import random

import pytest

from app.engine.dice import Dice
from app.engine.registry import get_game
from app.engine.runtime import LiveMatch


def _started(game_id: str, players: int) -> LiveMatch:
    game = get_game(game_id)
    assert game is not None
    return LiveMatch.in_memory(game, "idle-views", players)


def _play(live: LiveMatch, rng: random.Random) -> None:
    game = live.game
    seat = rng.choice(sorted(game.active_seats(live.state)))
    move = rng.choice(game.legal_moves(live.state, seat))
    state, events = game.apply(live.state, seat, move, Dice(live.seed, live.version + 1))
    live.state, live.version = state, live.version + 1
    live.remember(live.version, state, events)


@pytest.mark.parametrize(("game_id", "players"), [("c64-maze", 2), ("joystick-heroes", 3)])
def test_frames_after_forgetting_are_the_frames_kept_views_make(game_id: str, players: int) -> None:
    kept, idle = _started(game_id, players), _started(game_id, players)
    rng_kept, rng_idle = random.Random(7), random.Random(7)
    viewers = (*range(players), None)
    for _ in range(30):
        for live in (kept, idle):
            for seat in viewers:
                live.viewer_state(live.version, seat)
        idle.forget_views()
        assert len(idle.history) <= 2
        _play(kept, rng_kept)
        _play(idle, rng_idle)
        for seat in viewers:
            assert idle.patch(idle.version, seat) == kept.patch(kept.version, seat)
            assert idle.events_for(idle.version, seat) == kept.events_for(kept.version, seat)
            assert idle.viewer_state(idle.version, seat) == kept.viewer_state(kept.version, seat)
    idle.forget_views()
    assert not idle.has(idle.version - 2)  # a connection this far behind gets a snapshot
    assert kept.has(kept.version - 2)


def test_the_last_views_outlive_forgetting_and_the_next_patch_diffs_against_them() -> None:
    """The views of the version a person is thinking over are kept, board and legal moves
    included: the next move's patches diff against them instead of building them again.
    Everything older goes, and a match already trimmed to its version is left alone."""
    live = _started("c64-maze", 2)
    rng = random.Random(3)
    for _ in range(5):
        _play(live, rng)
    views = [live.viewer_state(live.version, seat) for seat in (0, 1)]
    legal = [live.legal(live.version, seat) for seat in (0, 1)]
    live.patch(live.version, 0)
    live.forget_views()
    assert live.trimmed_at == live.version
    assert [live.viewer_state(live.version, seat) for seat in (0, 1)] == views
    assert all(
        live.viewer_state(live.version, seat) is views[seat]
        and live.legal(live.version, seat) is legal[seat]
        for seat in (0, 1)
    )
    assert not live._patches and not live._events  # sent: not needed again
    _play(live, rng)
    assert live.trimmed_at != live.version  # a new version: the sweep trims it when idle
    live.patch(live.version, 0)
    live.forget_views()
    assert all(key[0] == live.version for key in (*live._views, *live._legal, *live._boards))
    assert live.viewer_state(live.version - 1, 0) is not views[0]  # only the last ones
