"""How long a C64 legal-move list takes to build and how much memory a set-up list holds.

Plays seeded random C64 Maze matches (a random seat of those to move plays a random legal
move) and keeps every position met with each seat that may move in it. Then it times
`legal_moves` over those positions in rounds, set-up and play apart: set-up splits into take
lists (every pair of one row or column with every choice of faces, 72 moves) and Player 2/4's
return lists. It prints the best and the median round in microseconds per list, then what the
take lists hold in memory: tracemalloc's traced memory while all of them are alive, per list,
after the rounds above (anything built once and shared between lists is not counted again),
and each list's JSON size (orjson), which is what the views carry. Last, what a C64 Maze
`LiveMatch` holds at its start once the views of every seat and of the spectators are built
(they keep the seats' legal moves), per match with --matches of them alive.

    .venv/bin/python bench/c64_legal.py
    .venv/bin/python bench/c64_legal.py --matches 300 --rounds 9 --players 4
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.dice import SETUP_MOVE_NUMBER, Dice  # noqa: E402
from app.engine.registry import get_game  # noqa: E402
from app.engine.runtime import LiveMatch  # noqa: E402

GAME = "c64-maze"
KINDS = ("setup take", "setup return", "play")


def positions(matches: int, players: int, max_moves: int, seed: int) -> dict[str, list[Any]]:
    """(state, seat) pairs by kind, from seeded random matches."""
    game = get_game(GAME)
    assert game is not None
    found: dict[str, list[Any]] = {kind: [] for kind in KINDS}
    for index in range(matches):
        name = f"c64-legal-{seed}-{index}"
        chooser = random.Random(name)
        state = game.begin(players, game.parse_options({}), Dice(name, SETUP_MOVE_NUMBER))
        for number in range(1, max_moves + 1):
            active = sorted(game.active_seats(state))
            if not active or game.outcome(state) is not None:
                break
            for seat in active:
                if state["phase"] == "play":
                    kind = "play"
                elif state["joysticks"][seat]["must_return"]:
                    kind = "setup return"
                else:
                    kind = "setup take"
                found[kind].append((state, seat))
            seat = chooser.choice(active)
            move = chooser.choice(game.legal_moves(state, seat))
            state, _events = game.apply(state, seat, move, Dice(name, number))
    return found


def time_rounds(cases: list[Any], rounds: int) -> list[float]:
    """Microseconds per list, one figure a round."""
    game = get_game(GAME)
    assert game is not None
    legal_moves = game.legal_moves
    out = []
    for _ in range(rounds):
        started = time.perf_counter_ns()
        for state, seat in cases:
            legal_moves(state, seat)
        out.append((time.perf_counter_ns() - started) / 1000 / len(cases))
    return out


def held_memory(cases: list[Any]) -> tuple[float, float]:
    """KiB that the lists of `cases` hold while all are alive, per list, and JSON bytes per
    list."""
    game = get_game(GAME)
    assert game is not None
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [game.legal_moves(state, seat) for state, seat in cases]
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    json_bytes = sum(len(orjson.dumps(moves)) for moves in kept)
    return held / 1024 / len(kept), json_bytes / len(kept)


def match_memory(matches: int, players: int) -> float:
    """KiB a live match holds at its start (state, history and the views of every seat and
    of the spectators, with the seats' legal moves), per match while `matches` are alive."""
    game = get_game(GAME)
    assert game is not None

    def started(name: str) -> LiveMatch:
        live = LiveMatch.in_memory(game, name, players)
        for seat in (*range(players), None):
            live.viewer_state(0, seat)
        return live

    started("c64-legal-warm-up")
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [started(f"c64-legal-live-{i}") for i in range(matches)]
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return held / 1024 / len(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="seeded random matches")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--max-moves", type=int, default=400, help="moves per match at most")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds over all positions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    started = time.perf_counter()
    found = positions(args.matches, args.players, args.max_moves, args.seed)
    took = time.perf_counter() - started
    counts = ", ".join(f"{len(found[k])} {k}" for k in KINDS)
    print(
        f"{GAME}, {args.players} players, {args.matches} matches (seed {args.seed}): "
        f"{counts} positions, played in {took:.1f} s; Python {platform.python_version()}"
    )
    game = get_game(GAME)
    assert game is not None
    for kind in KINDS:
        cases = found[kind]
        if not cases:
            continue
        figures = time_rounds(cases, args.rounds)
        moves = sum(len(game.legal_moves(state, seat)) for state, seat in cases)
        print(
            f"  {kind:12s}: {min(figures):7.2f} us a list best, {statistics.median(figures):7.2f} "
            f"median of {args.rounds} rounds ({moves / len(cases):.1f} moves a list)"
        )
    kib, json_bytes = held_memory(found["setup take"])
    print(
        f"  setup take lists held: {kib:.2f} KiB of Python objects a list (tracemalloc, "
        f"{len(found['setup take'])} lists alive), {json_bytes:,.0f} B of JSON a list"
    )
    live_kib = match_memory(args.matches, args.players)
    print(
        f"  a live match at its start (views of every seat and the spectators built): "
        f"{live_kib:.1f} KiB (tracemalloc, {args.matches} matches alive)"
    )


if __name__ == "__main__":
    main()
