"""Factories for CD Thief scenarios: a fresh game, pieces put where a test wants them, and
dice that roll what a test says.

Board coordinates are (x, y) as in our map (docs/rules/cd-thief.md, data/board.txt).
`parked(state)` moves every podcaster, Carl and ITG to far-away squares so that a test sees
only the pieces it places itself.
"""

from __future__ import annotations

import copy
from typing import Any

from app.engine.dice import Dice
from app.engine.registry import get_game

GAME = get_game("cd-thief")
assert GAME is not None

# Far corners of the hotel where parked pieces disturb nobody (standable floor squares).
PARK = {
    "scott": [19, 2],
    "socal_mike": [18, 2],
    "uk_mike": [19, 3],
    "carl": [18, 4],
    "itg": [1, 1],
}


class ScriptedDice(Dice):
    """Dice whose `below(n)` answers come from a list: `roll()` returns value + 1, a Battle
    die face index i shows BATTLE_DIE[i] hit points."""

    def __init__(self, *values: int) -> None:
        super().__init__("scripted", 1)
        self.values = list(values)

    def below(self, n: int) -> int:
        assert self.values, "the scenario rolled more dice than it scripted"
        value = self.values.pop(0)
        assert 0 <= value < n, f"scripted {value} for a die of {n}"
        self.draws += 1
        return value


def rolls(*faces: int) -> list[int]:
    """Movement / white dice faces 1..6 as `below` answers."""
    return [f - 1 for f in faces]


# Battle die face indexes: BATTLE_DIE = (0, 1, 1, 2, 2, 2).
HITS = {0: 0, 1: 1, 2: 3}


def battle(a: int, b: int) -> list[int]:
    """Battle dice showing `a` and `b` hit points, as `below` answers."""
    return [HITS[a], HITS[b]]


def fresh(players: int = 2, difficult: bool = False, seed: str = "t") -> dict[str, Any]:
    options = GAME.parse_options({"difficult": difficult})
    return GAME.setup(players, options, Dice(seed, 0))


def parked(state: dict[str, Any], first: int = 0) -> dict[str, Any]:
    state = copy.deepcopy(state)
    state["podcasters"] = {k: list(PARK[k]) for k in ("scott", "socal_mike", "uk_mike")}
    state["carl"] = {"pos": list(PARK["carl"]), "dustpan": None}
    state["itg"] = list(PARK["itg"])
    state["turn"] = {
        "seat": first,
        "number": 1,
        "phase": "roll",
        "dice": None,
        "targets": [],
        "battled": [],
    }
    return state


def put(state: dict[str, Any], seat: int, xy: list[int] | None, **changes: Any) -> None:
    """Thief `seat` to `xy` with any other field changed (backpack, opened, killed...)."""
    state["thieves"][seat]["pos"] = xy
    state["thieves"][seat].update(changes)


def turn(state: dict[str, Any], seat: int, phase: str = "roll", **extra: Any) -> None:
    state["turn"] = {
        "seat": seat,
        "number": state["turn"].get("number", 1),
        "phase": phase,
        "dice": None,
        "targets": [],
        "battled": [],
        **extra,
    }


def act(state: dict[str, Any], seat: int, move: dict[str, Any], *values: int):
    return GAME.apply(state, seat, move, ScriptedDice(*values))


def roll_to(state: dict[str, Any], seat: int, total_faces: tuple[int, int]):
    return act(state, seat, {"type": "roll"}, *rolls(*total_faces))


def targets(state: dict[str, Any]) -> set[tuple[int, int]]:
    return {tuple(t) for t in state["turn"]["targets"]}


def quiet_deck(state: dict[str, Any], number: int = 48) -> None:
    """Put the Coffee Break card `number` (QUIET, no Carl for 48-50) on top of the deck."""
    state["deck"] = [number] + [c for c in state["deck"] if c != number]
