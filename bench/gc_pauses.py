"""Runs the server (as `arcade serve`, same settings from the environment) with the cyclic
garbage collector's passes timed, to see what the collector costs a live server.

Every pass is timed in the server thread's CPU time (time.thread_time, so the machine's other
work does not count) and kept by generation. On SIGUSR1 the process prints, for each
generation, the passes since the last report, their total, p50 and max, and what they
collected, then starts counting afresh: send one signal when the load starts and one when it
ends to get the figures of the load alone. `GC_THRESHOLDS=a,b,c` replaces the thresholds the
app sets at start-up (app/main.py), to compare settings on the same code.

    DATABASE_URL=... PORT=8600 .venv/bin/python bench/gc_pauses.py &
    SERVER=$!
    # ... drive it (human_pace.py --server-pid $SERVER, compare.py --ours-pid $SERVER) ...
    kill -USR1 $SERVER    # at the start of the load, and again at its end
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

passes: dict[int, list[float]] = {0: [], 1: [], 2: []}
collected: dict[int, int] = {0: 0, 1: 0, 2: 0}
_started = [0.0]


def _timed(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0] = time.thread_time()
        return
    generation = info["generation"]
    passes[generation].append(time.thread_time() - _started[0])
    collected[generation] += info["collected"]


def _report(*_args: object) -> None:
    for generation, seconds in passes.items():
        ordered = sorted(seconds)
        if not ordered:
            print(f"gc generation {generation}: no passes", flush=True)
            continue
        print(
            f"gc generation {generation}: {len(ordered)} passes, {sum(ordered):.2f} s CPU, "
            f"p50 {ordered[len(ordered) // 2] * 1000:.2f} ms, max {ordered[-1] * 1000:.1f} ms, "
            f"{collected[generation]} objects collected; thresholds {gc.get_threshold()}",
            flush=True,
        )
        seconds.clear()
        collected[generation] = 0


def main() -> None:
    gc.callbacks.append(_timed)
    signal.signal(signal.SIGUSR1, _report)
    override = os.environ.get("GC_THRESHOLDS")
    if override:
        wanted = tuple(int(part) for part in override.split(","))
        set_threshold = gc.set_threshold
        gc.set_threshold = lambda *_ignored: set_threshold(*wanted)  # type: ignore[assignment]
    from app.cli import main as arcade

    sys.argv = ["arcade", "serve"]
    sys.exit(arcade())


if __name__ == "__main__":
    main()
