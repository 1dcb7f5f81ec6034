"""Computer players share the workers' time when many wait (issue 15: a decision is bounded
by a time budget): the full budget while the workers keep up, a share of it when decisions
queue, never less than the least a search is given."""

from __future__ import annotations

from typing import Any

from app.services.computer_turns import LEAST_BUDGET, ComputerTurns


def _turns(workers: int) -> ComputerTurns:
    nothing: Any = None
    return ComputerTurns(
        nothing,
        nothing,
        workers=workers,
        time_budget=0.7,
        think_seconds=0.0,
        pending_limit=10,
    )


def test_the_budget_is_shared_out_when_decisions_queue() -> None:
    turns = _turns(workers=2)
    assert turns.budget_now() == 0.7
    turns._waiting = 2  # one more decision for each worker
    assert turns.budget_now() == 0.35
    turns._waiting = 1_000
    assert turns.budget_now() == LEAST_BUDGET
