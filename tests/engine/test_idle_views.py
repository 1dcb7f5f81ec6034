"""A match waiting on a person's move drops its cached views and all but the last two versions
of its history (`LiveMatch.forget_views`, run for idle matches): what it sends afterwards is
exactly what it would have sent had it kept them."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.engine.registry import get_game
from app.engine.runtime import LiveMatch, MatchRuntime
from tests.helpers import play_random_move as _play


def _started(game_id: str, players: int) -> LiveMatch:
    game = get_game(game_id)
    assert game is not None
    return LiveMatch.in_memory(game, "idle-views", players)


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


def test_the_last_board_outlives_forgetting_and_the_next_patch_diffs_against_it() -> None:
    """The board of the version a person is thinking over is kept: the next move's patches
    diff against it instead of building it again."""
    live = _started("c64-maze", 2)
    rng = random.Random(3)
    for _ in range(5):
        _play(live, rng)
    board = live.viewer_state(live.version, 0)["board"]
    live.forget_views()
    assert live.viewer_state(live.version, 1)["board"] is board
    _play(live, rng)
    live.patch(live.version, 0)
    live.forget_views()
    assert live.viewer_state(live.version - 1, 0)["board"] is not board  # only the last one


async def test_the_sweep_lets_other_tasks_run_and_keeps_a_match_that_moved_meanwhile() -> None:
    """Dropping the views of a thousand idle matches in one go held the event loop for tens of
    milliseconds; the sweep now hands over after each slice of work."""
    runtime = MatchRuntime(None, announce=None)  # type: ignore[arg-type]  # no database use
    rng = random.Random(5)
    matches = []
    for n in range(6):
        live = _started("c64-maze", 2)
        live.id = f"idle-{n}"
        _play(live, rng)
        live.viewer_state(live.version, 0)
        live.moved_at = 1.0
        runtime._live[live.id] = live
        matches.append(live)
    ran_between: list[int] = []

    async def other_work() -> None:
        # Runs while the sweep is under way: it moves the fourth match.
        ran_between.append(sum(1 for m in matches if not m._views))
        matches[3].moved_at = 10.0

    other = asyncio.ensure_future(other_work())
    forgotten = await runtime.forget_idle_views(idle_since=5.0, slice_seconds=0.0)
    await other
    assert ran_between and 0 < ran_between[0] < 4  # it ran during the sweep, not after it
    assert forgotten == 5
    assert matches[3]._views  # moved during the sweep: its views stay
    assert all(not m._views for i, m in enumerate(matches) if i != 3)
    assert all(len(m.history) <= 2 for i, m in enumerate(matches) if i != 3)
