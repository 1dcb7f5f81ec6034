"""Claims that rules-page diagrams make, checked through the rules module.

Each family's `claims_<family>.py` registers one function per diagram with `@claim(game id,
diagram id)`; `test_diagram_claims.py` plays every diagram of docs/rules/ and calls its
claim, and fails on a diagram nobody checks or a claim with no diagram.
"""

from __future__ import annotations

from collections.abc import Callable

from app.rules_pages.diagrams import ScenarioRun

__all__ = ["CLAIMS", "ScenarioRun", "claim"]

Check = Callable[[ScenarioRun], None]
CLAIMS: dict[tuple[str, str], Check] = {}


def claim(game_id: str, diagram_id: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        key = (game_id, diagram_id)
        if key in CLAIMS:
            raise ValueError(f"two claims for the diagram {key}")
        CLAIMS[key] = check
        return check

    return register
