"""Runs the server (as `arcade serve`, same settings from the environment) with its event
loop's lag sampled and every idle-view sweep timed, to see what holds the loop up under load.

A task sleeps `LAG_INTERVAL` (10 ms) again and again and records how late it wakes: while the
loop runs anything else (a move, a sweep, a collector pass), that lateness is what every socket
waits. Each sweep of idle matches' views (`MatchRuntime.forget_idle_views`) is timed from its
start to its end in wall time (its slices and what ran between them included). On SIGUSR1 the
process prints the lag's p50, p99 and max, the samples over 50 ms, the sweeps' figures and the
middle and oldest collector passes (wall time), then starts counting afresh: send one signal
when the load starts and one when it ends.

    DATABASE_URL=... PORT=8600 .venv/bin/python bench/loop_lag.py &
    SERVER=$!
    # ... drive it (human_pace.py --server-pid $SERVER) ...
    kill -USR1 $SERVER    # at the start of the load, and again at its end
"""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine import runtime  # noqa: E402

LAG_INTERVAL = 0.01
LATE = 0.05  # a sample this late is counted apart

lags: list[float] = []
sweeps: list[tuple[float, int]] = []  # (wall seconds, matches)
collections: list[float] = []  # middle and oldest generation passes, wall seconds
_pass_started = [0.0]


def _timed_pass(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _pass_started[0] = time.perf_counter()
    elif info["generation"] >= 1:
        collections.append(time.perf_counter() - _pass_started[0])


async def _sample_lag() -> None:
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_INTERVAL)
        lags.append(time.perf_counter() - asked - LAG_INTERVAL)


_forget_idle_views = runtime.MatchRuntime.forget_idle_views
_sampler: list[asyncio.Task[None]] = []


async def _timed_sweep(self: runtime.MatchRuntime, **kwargs: Any) -> int:
    if not _sampler:  # the first sweep comes a second after the first match is loaded
        _sampler.append(asyncio.create_task(_sample_lag()))
    began = time.perf_counter()
    forgotten = await _forget_idle_views(self, **kwargs)
    sweeps.append((time.perf_counter() - began, forgotten))
    return forgotten


def _ms(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def _report(*_args: object) -> None:
    print(
        f"event-loop lag: {len(lags)} samples, p50 {_ms(lags, 0.5):.1f} ms, p99 "
        f"{_ms(lags, 0.99):.1f} ms, max {_ms(lags, 1.0):.1f} ms, "
        f"{sum(lag > LATE for lag in lags)} over {LATE * 1000:.0f} ms",
        flush=True,
    )
    walls = [wall for wall, _n in sweeps]
    matches = sorted(n for _wall, n in sweeps)
    print(
        f"idle-view sweeps: {len(sweeps)}, from start to end p50 {_ms(walls, 0.5):.1f} ms, "
        f"max {_ms(walls, 1.0):.1f} ms (what ran between its slices included), matches a "
        f"sweep p50 {matches[len(matches) // 2] if matches else 0}",
        flush=True,
    )
    print(
        f"collector middle and oldest passes: {len(collections)}, p50 "
        f"{_ms(collections, 0.5):.1f} ms, max {_ms(collections, 1.0):.1f} ms (wall)",
        flush=True,
    )
    lags.clear()
    sweeps.clear()
    collections.clear()


def main() -> None:
    gc.callbacks.append(_timed_pass)
    runtime.MatchRuntime.forget_idle_views = _timed_sweep  # type: ignore[method-assign]
    signal.signal(signal.SIGUSR1, _report)
    from app.cli import main as arcade

    sys.argv = ["arcade", "serve"]
    sys.exit(arcade())


if __name__ == "__main__":
    main()
