"""How long a match takes, measured from seeded playouts (the home page's game cards).

For each game, at its usual player count (`usual_players`: 2 where the game allows it, C64
Trains 3, Tactrics Solitary 1), `SEEDS` seeded playouts are played with each of two cheap
policies of the computer players, every seat playing the same policy:

- "guided": the bots' guided playout step, a one-step lookahead on the game's
  `playout_score` over every legal move, one move in ten uniformly random (the conformance
  suite's playouts);
- "search": the easy computer player's search (`app.bots`) without its deliberate blunders.

Each is weak somewhere: the one-step lookahead wanders in the C64 games, where a joystick
card pays off only turns later (medians of 650 to 5,400 moves), and the small search wanders
in CD Thief (about 500 moves against 150). A person plays with purpose, so a game's figure is
the policy with the shorter median match. Every decision is then priced by its kind
(`SECONDS`) and the match's minutes are the median over the seeds of the sum: turns are taken
one after another, so everyone waits for everyone's decisions.

`bench/durations.py` writes `durations.json` beside this module; the server reads it
(`minutes`), and `tests/rules_pages/test_durations.py` re-measures a few games with the same
seeds, so a change to a game's rules or to the bots that changes the figures fails a test
until the file is regenerated.
"""

from __future__ import annotations

import dataclasses
import json
import random
import statistics
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from app.bots.choose import decide
from app.bots.levels import settings_for
from app.bots.playout import lookahead_move
from app.engine.contract import Game, Move, State
from app.engine.dice import Dice
from app.engine.registry import get_game

DURATIONS_FILE = Path(__file__).with_name("durations.json")
SEEDS = 5
MAX_DECISIONS = 3000
"""A playout still running here is cut and counted at this length (none of the shorter
policy's medians comes near it)."""
GUIDED_RANDOM_SHARE = 0.1
POLICIES = ("guided", "search")

SECONDS = {"quick": 3.0, "considered": 10.0}
"""Seconds a newcomer spends on a decision, by kind. A considered decision (which card,
which square, which tower to turn) is 10 s: a newcomer still reading the board, slower than
the few seconds of a practised player and faster than the half-minute of a first turn. A quick
one is a tap with nothing to weigh: rolling the dice, confirming or ending a turn, taking back
a rotation, or any decision with a single legal move."""
QUICK_MOVE_TYPES = frozenset({"roll", "confirm", "end", "done", "undo", "take_back", "return"})


def usual_players(game: Game) -> int:
    """2 where the game allows it (the commonest table), else its nearest count: C64 Trains
    3, Tactrics Solitary 1."""
    return min(max(2, game.min_players), game.max_players)


def decision_kind(move: Move, legal_count: int) -> str:
    if legal_count == 1 or move.get("type") in QUICK_MOVE_TYPES:
        return "quick"
    return "considered"


@dataclass(frozen=True)
class Playout:
    decisions: dict[int, int]
    """Decisions each seat made."""
    kinds: dict[str, int]
    ended: bool

    @property
    def seconds(self) -> float:
        return sum(SECONDS[kind] * count for kind, count in self.kinds.items())

    @property
    def total(self) -> int:
        return sum(self.decisions.values())


def seed_name(game_id: str, index: int) -> str:
    return f"durations:{game_id}:{index}"


def _guided_move(
    game: Game,
    state: State,
    seat: int,
    legal: list[Move],
    chooser: random.Random,
    number: int,
    index: int,
) -> Move:
    if game.playout_score(state, seat) is None or chooser.random() < GUIDED_RANDOM_SHARE:
        return chooser.choice(legal)
    move, _after = lookahead_move(game, state, seat, legal, len(legal), chooser, (index, 0, number))
    return move


_SEARCH = dataclasses.replace(settings_for("easy"), blunder=0.0)


def play(game: Game, policy: str, index: int) -> Playout:
    """One seeded playout to the end (or `MAX_DECISIONS`); deterministic."""
    seed = seed_name(game.id, index)
    chooser = random.Random(seed)
    players = usual_players(game)
    state = game.begin(players, game.parse_options({}), Dice(seed, 0))
    decisions: Counter[int] = Counter()
    kinds: Counter[str] = Counter()
    number = 0
    while game.outcome(state) is None and number < MAX_DECISIONS:
        number += 1
        seat = chooser.choice(sorted(game.active_seats(state)))
        legal = game.legal_moves(state, seat)
        if policy == "guided":
            move = _guided_move(game, state, seat, legal, chooser, number, index)
        else:
            move = decide(game, state, seat, _SEARCH, index * 1_000_000 + number)
        decisions[seat] += 1
        kinds[decision_kind(move, len(legal))] += 1
        state, _events = game.apply(state, seat, move, Dice(seed, number))
    return Playout(dict(decisions), dict(kinds), game.outcome(state) is not None)


def measure(game: Game, seeds: int = SEEDS) -> dict[str, Any]:
    """A game's entry of durations.json."""
    players = usual_players(game)
    by_policy: dict[str, dict[str, Any]] = {}
    for policy in POLICIES:
        runs = [play(game, policy, index) for index in range(seeds)]
        by_policy[policy] = {
            "median_decisions": statistics.median(run.total for run in runs),
            "median_decisions_per_player": statistics.median(run.total / players for run in runs),
            "median_minutes": round(statistics.median(run.seconds for run in runs) / 60, 1),
            "cut": sum(not run.ended for run in runs),
        }
    chosen = min(POLICIES, key=lambda p: (by_policy[p]["median_minutes"], POLICIES.index(p)))
    return {
        "players": players,
        "policy": chosen,
        "minutes": display_minutes(by_policy[chosen]["median_minutes"]),
        "policies": by_policy,
    }


def display_minutes(minutes: float) -> int:
    """What a card shows: to the nearest 5 minutes (the measure is no finer), at least 5."""
    return max(5, 5 * round(minutes / 5))


def method() -> dict[str, Any]:
    return {
        "seeds": SEEDS,
        "seed_names": seed_name("<game>", 0).replace(":0", ":<0..seeds-1>"),
        "policies": {
            "guided": "one-step lookahead on playout_score over every legal move, "
            f"{GUIDED_RANDOM_SHARE:.0%} of moves uniformly random",
            "search": "the easy computer player's search without its blunders",
        },
        "chosen": "the policy with the shorter median match",
        "seconds_per_decision": SECONDS,
        "quick_decisions": sorted(QUICK_MOVE_TYPES) + ["any decision with one legal move"],
        "minutes": "median over the seeds of every seat's decisions priced by kind, "
        "rounded to the nearest 5 minutes (at least 5)",
        "max_decisions": MAX_DECISIONS,
        "regenerate": ".venv/bin/python bench/durations.py",
    }


@cache
def stored() -> dict[str, Any]:
    if not DURATIONS_FILE.is_file():
        return {"method": {}, "games": {}}
    return json.loads(DURATIONS_FILE.read_text(encoding="utf-8"))


def minutes(game_id: str) -> int | None:
    """The measured minutes of a match of `game_id`, or None when it was not measured."""
    entry = stored()["games"].get(game_id)
    return None if entry is None else entry["minutes"]


def game_or_error(game_id: str) -> Game:
    game = get_game(game_id)
    if game is None:
        raise ValueError(f"There is no game {game_id!r}.")
    return game
