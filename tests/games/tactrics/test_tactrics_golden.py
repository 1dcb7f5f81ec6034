"""Golden playthroughs: one seeded, guided game of each Tactrics game, its moves and event
texts kept in golden/<game>.json so that any change to the rules shows as a diff.

After an intended rules change, rewrite the files and review the diff:
    TACTRICS_GOLDEN=write .venv/bin/pytest tests/games/tactrics/test_tactrics_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from tactrics_factories import ADVANCED, CAT_MOUSE, CROSSING, SOLITARY, game

from app.engine.dice import Dice

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    CROSSING: (3, {"minority_rotation": True}),
    ADVANCED: (2, {"minority_rotation": True}),
    CAT_MOUSE: (2, {"cats": 5}),
    SOLITARY: (1, {"colours": 1}),
}


def playthrough(game_id: str) -> dict[str, Any]:
    """Nine moves in ten by one-step lookahead on the game's playout score, the rest at
    random, all from fixed seeds."""
    players, options = CASES[game_id]
    g = game(game_id)
    chooser = random.Random(2026)
    state = g.setup(players, g.parse_options(options), Dice("golden", 0))
    log = []
    for number in range(1, 3001):
        if g.outcome(state) is not None:
            break
        seat = min(g.active_seats(state))
        legal = g.legal_moves(state, seat)
        if chooser.random() < 0.1:
            move = chooser.choice(legal)
        else:

            def score(
                m: dict[str, Any],
                state: dict[str, Any] = state,
                seat: int = seat,
                number: int = number,
            ) -> float:
                after, _ = g.apply(state, seat, m, Dice("golden", number))
                return g.playout_score(after, seat) or 0.0

            move = max(legal, key=lambda m: (score(m), chooser.random()))
        state, events = g.apply(state, seat, move, Dice("golden", number))
        log.append({"seat": seat, "move": move, "events": [e["text"] for e in events]})
    outcome = g.outcome(state)
    assert outcome is not None
    return {
        "game": game_id,
        "players": players,
        "options": options,
        "moves": log,
        "outcome": outcome.to_json(),
    }


@pytest.mark.parametrize("game_id", list(CASES))
def test_golden_playthrough_is_unchanged(game_id: str) -> None:
    """The rules (V1-V10) give exactly the recorded game, move by move."""
    path = GOLDEN / f"{game_id}.json"
    played = playthrough(game_id)
    if os.environ.get("TACTRICS_GOLDEN") == "write":
        path.write_text(json.dumps(played, indent=1) + "\n")
    recorded = json.loads(path.read_text())
    assert played["outcome"] == recorded["outcome"]
    assert played["moves"] == recorded["moves"]
