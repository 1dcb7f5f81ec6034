"""CD Thief seeded simulation: how many turns games take, and how often nobody wins in
difficult mode (rulebook NOTE: "it is possible that all of the CD Thieves will fail").

Every seat plays like the conformance suite's guided playouts: nine moves in ten are the best
by one-step lookahead with the game's `playout_score` (progress along key -> Zapper -> VIP
Pass -> Studson -> CDs -> exit), one in ten is a random legal move. Deterministic: the same
arguments print the same figures.

    .venv/bin/python bench/cd_thief_sim.py                 # 40 games per line
    .venv/bin/python bench/cd_thief_sim.py --games 200 --players 2 4
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine.dice import Dice  # noqa: E402
from app.engine.registry import get_game  # noqa: E402

MAX_MOVES = 20_000  # a safety net: a game still running after this counts as unfinished


@dataclass
class Result:
    turns: int
    moves: int
    winners: tuple[int, ...] | None  # None: unfinished within MAX_MOVES
    frantic_starts: int


def play(players: int, difficult: bool, seed: int) -> Result:
    game = get_game("cd-thief")
    assert game is not None
    name = f"bench-{players}-{difficult}-{seed}"
    state = game.setup(players, game.parse_options({"difficult": difficult}), Dice(name, 0))
    chooser = random.Random(f"{name}-chooser")
    frantic = 0
    for number in range(1, MAX_MOVES + 1):
        outcome = game.outcome(state)
        if outcome is not None:
            return Result(state["turn"]["number"], number - 1, outcome.winners, frantic)
        seat = next(iter(game.active_seats(state)))
        legal = game.legal_moves(state, seat)
        dice = Dice(name, number)
        if len(legal) == 1 or chooser.random() < 0.1:
            move = chooser.choice(legal)
        else:
            scored = []
            for candidate in legal:
                after, _ = game.apply(state, seat, candidate, copy.copy(dice))
                scored.append((game.playout_score(after, seat) or 0.0, chooser.random(), candidate))
            move = max(scored, key=lambda item: (item[0], item[1]))[2]
        state, events = game.apply(state, seat, move, dice)
        frantic += sum(1 for e in events if e["type"] == "frantic")
    return Result(state["turn"]["number"], MAX_MOVES, None, frantic)


def summary(label: str, results: list[Result], seconds: float) -> str:
    finished = [r for r in results if r.winners is not None]
    turns = [r.turns for r in finished]
    nobody = sum(1 for r in finished if r.winners == ())
    unfinished = len(results) - len(finished)
    line = f"{label:<22} games {len(results):>4}"
    if turns:
        line += (
            f"  turns mean {statistics.mean(turns):6.1f} median {statistics.median(turns):5.0f}"
            f" min {min(turns):4d} max {max(turns):5d}"
            f"  rounds {statistics.mean(turns) / int(label.split('p')[0]):5.1f}"
        )
    line += f"  no winner {nobody / len(results):6.1%}"
    line += f"  frantic/game {statistics.mean(r.frantic_starts for r in results):4.1f}"
    if unfinished:
        line += f"  UNFINISHED {unfinished}"
    return line + f"  ({seconds:.1f}s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per line")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    print("CD Thief simulation (guided playouts, turns = player turns until the game ends)")
    for difficult in (False, True):
        for players in args.players:
            started = time.perf_counter()
            seeds = range(args.first_seed, args.first_seed + args.games)
            results = [play(players, difficult, seed) for seed in seeds]
            label = f"{players}p {'difficult' if difficult else 'normal'}"
            print(summary(label, results, time.perf_counter() - started), flush=True)


if __name__ == "__main__":
    main()
