"""The bot levels and what each may spend on a decision."""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("easy", "normal")


@dataclass(frozen=True)
class Settings:
    """How hard a level thinks. The iteration budget alone fixes the move (deterministic);
    the server's time budget may stop the search sooner."""

    iterations: int
    """Playouts per decision."""
    depth: int
    """Moves a playout plays before it is cut and judged by the game's `playout_score`."""
    candidates: int
    """Moves a guided playout step tries by one-step lookahead (a sample, not all: Tube Tanks
    has hundreds of moves and a full lookahead per step would starve the search)."""
    greedy: float
    """Share of guided playout steps that follow the lookahead; the rest are random, which
    keeps the playouts varied."""
    blunder: float
    """Chance of a uniformly random legal move instead of a search (what makes easy beatable)."""
    exploration: float = 0.7
    """The UCB1 constant at the root (values lie in [0, 1])."""


SETTINGS: dict[str, Settings] = {
    "easy": Settings(iterations=24, depth=6, candidates=2, greedy=0.6, blunder=0.3),
    "normal": Settings(iterations=400, depth=16, candidates=3, greedy=0.85, blunder=0.0),
}


def settings_for(level: str) -> Settings:
    try:
        return SETTINGS[level]
    except KeyError:
        raise ValueError(f"There is no bot level {level!r}; the levels are {LEVELS}.") from None
