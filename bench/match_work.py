"""The match's own work a move, in one process, with no sockets or database (issue 17, target 2).

What the server does with every move beyond its stack and bookkeeping: the rules apply it
(`Game.apply`), `LiveMatch.remember` keeps the new version and drops what falls out, each
seat's patch is made (`LiveMatch.patch`, `events_for`) and serialised as the socket sends it
(`orjson`). `--matches` matches are played in turn, one move each, so that every move finds its
match's objects out of the CPU's caches as it does in a busy server; each move is a random
legal move of a random seat that may move (the same seed every run), a finished match
replaced by a new one. It prints the time a move of each part and in all (`perf_counter`,
wall time: run it on an otherwise quiet machine, or beside the same load for both sides).

    .venv/bin/python bench/match_work.py --matches 100 --moves 20000 --runs 3

`--root` times another copy of the code, for example one with some modules compiled (bench/
README.md, "Compiled modules"): the copy's `app` package is imported instead of this one's.
Timing the parts costs well under a microsecond a move. Read the total against another run of
this script, not against the server's CPU a move, which holds the stack and the rest of the path
too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("rules", "remember", "patches", "frames")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="c64-maze")
    parser.add_argument("--matches", type=int, default=100, help="matches played in turn")
    parser.add_argument("--moves", type=int, default=20000, help="moves timed a run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to import app from")
    args = parser.parse_args()
    if args.matches < 1 or args.moves < 1 or args.runs < 1:
        parser.error("--matches, --moves and --runs must be at least 1")

    sys.path.insert(0, str(args.root.resolve()))
    import orjson

    import app
    from app.engine.dice import Dice
    from app.engine.registry import get_game
    from app.engine.runtime import LiveMatch

    game = get_game(args.game)
    if game is None:
        parser.error(f"no game {args.game!r}")
    package = Path(app.__file__).parent
    compiled = sorted(str(p.relative_to(package.parent)) for p in package.rglob("*.so"))
    print(f"app from {package}; compiled modules: {', '.join(compiled) or 'none'}")
    print(f"{args.game}, {args.matches} matches in turn, {args.moves} moves a run")

    totals: dict[str, list[float]] = {part: [] for part in (*PARTS, "all")}
    for run in range(args.runs):
        rng = random.Random(args.seed)
        matches: dict[int, LiveMatch] = {}
        spent = dict.fromkeys(PARTS, 0.0)
        clock = time.perf_counter
        for n in range(args.moves):
            slot = n % args.matches
            live = matches.get(slot)
            if live is None or live.outcome is not None:
                live = matches[slot] = LiveMatch.in_memory(game, f"work-{run}-{n}", 2)
            version = live.version
            seat = rng.choice([s for s in range(2) if live.legal(version, s)])
            move = rng.choice(live.legal(version, seat))
            t0 = clock()
            state, events = game.apply(live.state, seat, move, Dice(live.seed, version + 1))
            outcome = game.outcome(state)
            t1 = clock()
            live.remember(version + 1, state, events)
            live.state, live.version, live.outcome = state, version + 1, outcome
            t2 = clock()
            frames = [
                {
                    "type": "patch",
                    "version": live.version,
                    "ops": live.patch(live.version, s),
                    "events": live.events_for(live.version, s),
                }
                for s in range(2)
            ]
            t3 = clock()
            for frame in frames:
                orjson.dumps(frame)
            t4 = clock()
            spent["rules"] += t1 - t0
            spent["remember"] += t2 - t1
            spent["patches"] += t3 - t2
            spent["frames"] += t4 - t3
        per_move = {part: seconds / args.moves * 1e6 for part, seconds in spent.items()}
        per_move["all"] = sum(per_move.values())
        for part, value in per_move.items():
            totals[part].append(value)
        print(
            f"run {run + 1}: "
            + ", ".join(f"{part} {per_move[part]:.1f}" for part in PARTS)
            + f"; all {per_move['all']:.1f} us a move"
        )
    print(
        "median: "
        + ", ".join(f"{part} {statistics.median(totals[part]):.1f}" for part in PARTS)
        + f"; all {statistics.median(totals['all']):.1f} us a move"
        + f" [{min(totals['all']):.1f}-{max(totals['all']):.1f}]"
    )


if __name__ == "__main__":
    main()
