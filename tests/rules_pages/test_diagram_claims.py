"""Every diagram on every rules page is played by the rules module and its caption's claim
checked (issue 16: the page and the engine can never disagree)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from app.engine.registry import all_games, get_game
from app.rules_pages.diagrams import Diagram, diagrams_of, run_scenario
from tests.rules_pages.claims import CLAIMS

for _module in sorted(Path(__file__).parent.glob("claims_*.py")):
    importlib.import_module(f"tests.rules_pages.{_module.stem}")

DIAGRAMS = [(game.id, diagram) for game in all_games() for diagram in diagrams_of(game.id)]


@pytest.mark.parametrize(("game_id", "diagram"), DIAGRAMS, ids=[f"{g}:{d.id}" for g, d in DIAGRAMS])
def test_the_diagram_plays_and_its_caption_holds(game_id: str, diagram: Diagram) -> None:
    game = get_game(game_id)
    assert game is not None
    check = CLAIMS.get((game_id, diagram.id))
    assert check is not None, f"no claim checks the diagram {diagram.id!r} of {game_id}"
    check(run_scenario(game, diagram))


def test_every_claim_has_its_diagram() -> None:
    drawn = {(game_id, diagram.id) for game_id, diagram in DIAGRAMS}
    assert set(CLAIMS) <= drawn, f"claims without a diagram: {sorted(set(CLAIMS) - drawn)}"


def test_diagram_ids_are_unique_on_a_page() -> None:
    for game in all_games():
        ids = [diagram.id for diagram in diagrams_of(game.id)]
        assert len(ids) == len(set(ids)), game.id
