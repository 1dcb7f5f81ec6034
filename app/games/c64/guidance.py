"""Shared pieces of the C64 games' `playout_score`s: cheap, pure evaluations that guide seeded
playouts and computer players (not rules: nothing here decides a move's legality)."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from functools import lru_cache

from app.engine.contract import State
from app.games.c64.geometry import DIRECTIONS, STEP

WON, LOST = 1000.0, -1000.0
UNREACHABLE = 64
"""A distance longer than any path on the 8x8 board."""


def final_score(state: State, seat: int) -> float | None:
    """WON or LOST once the game is over (a shared win counts as won), else None."""
    outcome = state.get("outcome")
    if outcome is None:
        return None
    return WON if seat in outcome["winners"] else LOST


def distances(goals: Collection[str], blocked: Collection[str]) -> dict[str, int]:
    """Steps from every square to the nearest of `goals` around the `blocked` squares (a goal
    counts even when blocked); squares that cannot get there are absent."""
    found = {g: 0 for g in goals}
    queue = deque(goals)
    while queue:
        square = queue.popleft()
        for direction in DIRECTIONS:
            nxt = STEP[square][direction]
            if nxt is not None and nxt not in found and nxt not in blocked:
                found[nxt] = found[square] + 1
                queue.append(nxt)
    return found


@lru_cache(maxsize=64)
def fixed_distances(goals: frozenset[str], blocked: frozenset[str]) -> dict[str, int]:
    """`distances` for walls that never move (Cars), computed once. Read only."""
    return distances(goals, blocked)


def manhattan(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1]) - int(b[1]))
