"""Computer players, measured (issue 15, part 4): how strong, how fast, how long, how fair.

For every game, over seeded matches at a representative player count (2 where the game
allows it; C64 Trains 3; Solitary 1), it prints:

- the win rate of **normal against easy**, of **easy against a uniformly random player** and
  of **normal against random**, with 95% Wilson confidence intervals. The measured bot takes
  each seat in turn (seat `match % players`), so any first-player advantage cancels; with more
  than two seats it plays against copies of the other, so chance is 1/players. A win shared
  by k counts 1/k, a match cut at the move cap half a win (a draw);
- the **decision time** p50/p95 of each level in those matches (normal with `--budget`), and
  "normal (timed)": normal decisions at `--timing-budget` (0.7 s, the server's) timed at
  positions of easy-vs-easy matches, so the server's figure is measured even when the matches
  run normal on a smaller budget to fit in the time there is;
- how long matches last: moves (every move is one bot decision) and turns (the seat to move
  changes);
- **balance**: the first mover's win rate with equal bots (easy against easy; the first mover
  is the first seat to move alone, so a drawn first player counts as drawn), and Tactrics Cat
  & Mouse's sides with equal normal bots.

Solitary has no opponent: it prints how often each level solves the puzzle within the cap and
the mean score (rotations, fewer is better).

    .venv/bin/python bench/bots.py [--games 60] [--only c64-maze cd-thief] [--workers 2]
        [--budget 0.7] [--max-moves 3000] [--pairings normal-vs-easy ...]
        [--timing-budget 0.7] [--timed-decisions 40] [--timed-matches 4]

Not a test: nothing is asserted. It needs `app.bots.choose_move` (interface 2 of issue 15).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.dice import Dice  # noqa: E402
from app.engine.registry import all_games, get_game  # noqa: E402

Z95 = 1.959964
TIMING_STRIDE = 5  # time a normal decision at every fifth position of an easy-vs-easy match
PLAYERS = {"c64-trains": 3, "tactrics-solitary": 1}
CAT_MOUSE = "tactrics-cat-mouse"


def player_count(game_id: str) -> int:
    game = get_game(game_id)
    return PLAYERS.get(game_id, max(2, game.min_players))


# --- one match -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Match:
    game_id: str
    pairing: str  # normal-vs-easy, easy-vs-random, equal-easy, cat-mouse, solo-<level>
    index: int
    budget: float
    max_moves: int
    timing_budget: float = 0.7
    timings: int = 0
    """How many positions of this match also time a normal decision at `timing_budget`."""

    @property
    def levels(self) -> tuple[str, str]:
        """(the measured seat's level, the others' level)."""
        if self.pairing == "normal-vs-easy":
            return "normal", "easy"
        if self.pairing == "easy-vs-random":
            return "easy", "random"
        if self.pairing == "normal-vs-random":
            return "normal", "random"
        if self.pairing == "cat-mouse":
            return "normal", "normal"
        if self.pairing.startswith("solo-"):
            level = self.pairing.removeprefix("solo-")
            return level, level
        return "easy", "easy"

    @property
    def seed(self) -> str:
        return f"bench-bots-{self.game_id}-{self.pairing}-{self.index}"


@dataclass
class Result:
    match: Match
    players: int
    measured_seat: int
    winners: list[int]
    first_mover: int | None
    moves: int
    turns: int
    capped: bool
    score: float | None
    times: dict[str, list[float]] = field(default_factory=dict)


def bot_seed(seed: str, number: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{number}".encode()).digest()[:4], "big")


def decide(
    match: Match,
    level: str,
    state: dict[str, Any],
    seat: int,
    number: int,
    chooser: random.Random,
    budget: float | None = None,
) -> dict[str, Any]:
    game = get_game(match.game_id)
    if level == "random":
        return chooser.choice(game.legal_moves(state, seat))
    from app.bots import choose_move

    if budget is None and level == "normal":
        budget = match.budget
    return choose_move(game.id, state, seat, level, bot_seed(match.seed, number), budget)


def first_to_move(active: list[int], before: list[int]) -> int | None:
    """The seat that plays first: the first to move alone once the choices everyone makes at
    once (genres, starting squares) are done; a seat left alone to finish such a choice is
    still setting up."""
    if len(active) != 1 or (len(before) > 1 and active[0] in before):
        return None
    return active[0]


def play(match: Match) -> Result:
    game = get_game(match.game_id)
    players = player_count(match.game_id)
    measured = match.index % players
    mine, theirs = match.levels
    chooser = random.Random(match.seed)
    state = game.setup(players, game.parse_options({}), Dice(match.seed, 0))
    times: dict[str, list[float]] = defaultdict(list)
    first_mover: int | None = None
    last_mover: int | None = None
    setting_up: list[int] = []
    turns = moves = 0
    while game.outcome(state) is None and moves < match.max_moves:
        active = sorted(game.active_seats(state))
        seat = chooser.choice(active)  # seats asked together answer in any order
        if first_mover is None:
            first_mover = first_to_move(active, setting_up)
            setting_up = active
        level = mine if seat == measured else theirs
        moves += 1
        if len(times["normal (timed)"]) < match.timings and moves % TIMING_STRIDE == 1:
            started = time.perf_counter()
            decide(match, "normal", state, seat, moves, chooser, match.timing_budget)
            times["normal (timed)"].append(time.perf_counter() - started)
        started = time.perf_counter()
        move = decide(match, level, state, seat, moves, chooser)
        if level != "random":
            times[level].append(time.perf_counter() - started)
        state, _events = game.apply(state, seat, move, Dice(match.seed, moves))
        turns += seat != last_mover
        last_mover = seat
    outcome = game.outcome(state)
    score = None
    if outcome is not None and outcome.scores:
        score = float(outcome.scores.get(0, 0))
    return Result(
        match,
        players,
        measured,
        [] if outcome is None else list(outcome.winners),
        first_mover,
        moves,
        turns,
        outcome is None,
        score,
        dict(times),
    )


# --- statistics ----------------------------------------------------------------------------
def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (a draw counts half a success)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(result: Result, seat: int | None) -> float:
    """1 for a win alone, 1/k for a win shared by k, 0.5 for a match cut at the cap."""
    if result.capped:
        return 0.5
    if seat is None or seat not in result.winners:
        return 0.0
    return 1.0 / len(result.winners)


def rate_text(wins: float, n: int) -> str:
    if n == 0:
        return "n/a"
    low, high = wilson(wins, n)
    return f"{wins / n:5.1%} [{low:4.0%}, {high:4.0%}] n={n}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


# --- the run ---------------------------------------------------------------------------------
def matches_for(game_id: str, args: argparse.Namespace) -> list[Match]:
    """Every pairing's matches; the first `--timed-matches` easy-vs-easy (solo: easy) matches
    also time normal decisions at the server's budget."""
    if player_count(game_id) == 1:
        pairings = ["solo-random", "solo-easy", "solo-normal"]
        timed = "solo-easy"
    else:
        pairings = ["normal-vs-easy", "easy-vs-random", "normal-vs-random", "equal-easy"]
        timed = "equal-easy"
        if game_id == CAT_MOUSE:
            pairings.append("cat-mouse")
    if args.pairings and player_count(game_id) > 1:
        pairings = [p for p in pairings if p in args.pairings or p == timed]
    per_match = math.ceil(args.timed_decisions / max(1, args.timed_matches))
    return [
        Match(
            game_id,
            p,
            i,
            args.budget,
            args.max_moves,
            args.timing_budget,
            per_match if p == timed and i < args.timed_matches else 0,
        )
        for p in pairings
        for i in range(args.games)
    ]


def run(matches: list[Match], workers: int, progress: Callable[[Result], None]) -> list[Result]:
    results: list[Result] = []
    if workers <= 1:
        iterator: Iterable[Result] = map(play, matches)
        for result in iterator:
            progress(result)
            results.append(result)
        return results
    with Pool(workers) as pool:
        for result in pool.imap_unordered(play, matches):
            progress(result)
            results.append(result)
    return results


def report(game_id: str, results: list[Result]) -> list[str]:
    by_pairing: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        by_pairing[result.match.pairing].append(result)
    players = player_count(game_id)
    lines = [f"== {game_id} ({players} player{'s' if players > 1 else ''})"]
    if players == 1:
        for level in ("random", "easy", "normal"):
            rows = by_pairing.get(f"solo-{level}", [])
            solved = sum(1 for r in rows if not r.capped)
            scores = [r.score for r in rows if r.score is not None and not r.capped]
            mean = f"{statistics.mean(scores):.1f}" if scores else "n/a"
            lines.append(
                f"  {level:<7} solves {rate_text(solved, len(rows))}; mean rotations {mean}"
            )
    else:
        for pairing, title in (
            ("normal-vs-easy", "normal vs easy"),
            ("easy-vs-random", "easy vs random"),
            ("normal-vs-random", "normal vs random"),
        ):
            rows = by_pairing.get(pairing, [])
            if not rows:
                continue
            wins = sum(share(r, r.measured_seat) for r in rows)
            capped = sum(r.capped for r in rows)
            note = f"; {capped} cut at the cap" if capped else ""
            lines.append(
                f"  {title:<15} {rate_text(wins, len(rows))} (chance {1 / players:.0%}){note}"
            )
        rows = by_pairing.get("equal-easy", [])
        firsts = [r for r in rows if r.first_mover is not None]
        wins = sum(share(r, r.first_mover) for r in firsts)
        lines.append(
            f"  first mover    {rate_text(wins, len(firsts))} (easy vs easy; "
            f"fair {1 / players:.0%})"
        )
        rows = by_pairing.get("cat-mouse", [])
        if rows:
            mouse = sum(share(r, 0) for r in rows)
            cats = sum(share(r, 1) for r in rows)
            lines.append(
                f"  cat & mouse    mouse {rate_text(mouse, len(rows))}; "
                f"cats {rate_text(cats, len(rows))} (normal vs normal)"
            )
    times: dict[str, list[float]] = defaultdict(list)
    for result in results:
        for level, values in result.times.items():
            times[level].extend(values)
    for level in ("easy", "normal", "normal (timed)"):
        values = times.get(level, [])
        if values:
            lines.append(
                f"  {level:<14} decision p50 {percentile(values, 0.5) * 1000:7.1f} ms, "
                f"p95 {percentile(values, 0.95) * 1000:7.1f} ms, "
                f"max {max(values) * 1000:7.1f} ms (n={len(values)})"
            )
    played = [r for r in results if not r.match.pairing.startswith("solo-random")]
    if played:
        moves = [r.moves for r in played]
        turns = [r.turns for r in played]
        lines.append(
            f"  length         moves median {statistics.median(moves):.0f} "
            f"(p95 {percentile(moves, 0.95):.0f}), turns median "
            f"{statistics.median(turns):.0f}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="matches per pairing and game")
    parser.add_argument("--only", nargs="+", default=None, metavar="GAME_ID")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--budget",
        type=float,
        default=0.7,
        help="normal's time budget per decision, seconds (the server's: 0.7)",
    )
    parser.add_argument(
        "--max-moves",
        type=int,
        default=3000,
        help="a match still running after this many moves counts as a draw",
    )
    parser.add_argument(
        "--pairings",
        nargs="+",
        default=None,
        choices=["normal-vs-easy", "easy-vs-random", "normal-vs-random", "cat-mouse"],
        help="only these (easy-vs-easy always runs: first mover, timings)",
    )
    parser.add_argument(
        "--timing-budget",
        type=float,
        default=0.7,
        help="the budget of the timed normal decisions (the server's: 0.7)",
    )
    parser.add_argument(
        "--timed-decisions",
        type=int,
        default=40,
        help="normal decisions timed at --timing-budget per game",
    )
    parser.add_argument(
        "--timed-matches",
        type=int,
        default=4,
        help="the easy-vs-easy matches whose positions are timed",
    )
    args = parser.parse_args()
    ids = args.only or [g.id for g in all_games()]
    unknown = [i for i in ids if get_game(i) is None]
    if unknown:
        parser.error(f"unknown game ids: {', '.join(unknown)}")
    matches = [m for i in ids for m in matches_for(i, args)]
    print(
        f"{len(matches)} matches, {args.workers} worker(s), normal budget {args.budget} s "
        f"in matches, {args.timing_budget} s in timed decisions",
        flush=True,
    )
    started = time.perf_counter()
    done = 0

    def progress(result: Result) -> None:
        nonlocal done
        done += 1
        if done % 20 == 0 or done == len(matches):
            print(
                f"  ... {done}/{len(matches)} matches, {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    results = run(matches, args.workers, progress)
    by_game: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        by_game[result.match.game_id].append(result)
    for game_id in ids:
        print("\n".join(report(game_id, by_game[game_id])), flush=True)
    print(f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
