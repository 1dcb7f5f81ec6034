"""The home page's match lengths (app/rules_pages/durations.json) are what the seeded playouts
give today: a change to a game or to the bots that changes them fails here until
`bench/durations.py` is run again (bench/README.md, "Match lengths")."""

from __future__ import annotations

import pytest

from app.engine.registry import all_games, get_game
from app.rules_pages import durations

# Two games quick to play out both ways, from two families.
REMEASURED = ("c64-snakes", "tactrics-cat-mouse")


def test_every_game_has_a_measured_length() -> None:
    stored = durations.stored()
    assert set(stored["games"]) == {g.id for g in all_games()}
    for game in all_games():
        entry = stored["games"][game.id]
        assert entry["players"] == durations.usual_players(game)
        assert entry["minutes"] == durations.minutes(game.id) >= 5
        assert entry["minutes"] % 5 == 0
        chosen = entry["policies"][entry["policy"]]
        assert entry["minutes"] == durations.display_minutes(chosen["median_minutes"])
        # The median is a playout that ended: fewer than half of them were cut.
        assert chosen["cut"] < durations.SEEDS / 2, f"{game.id}: most playouts never ended"


def test_the_method_stored_is_the_code_s() -> None:
    assert durations.stored()["method"] == durations.method()


@pytest.mark.parametrize("game_id", REMEASURED)
def test_the_stored_figures_are_measured_again(game_id: str) -> None:
    game = get_game(game_id)
    assert game is not None
    assert durations.measure(game) == durations.stored()["games"][game_id]


def test_usual_player_counts() -> None:
    counts = {g.id: durations.usual_players(g) for g in all_games()}
    assert counts["c64-trains"] == 3 and counts["tactrics-solitary"] == 1
    assert {n for gid, n in counts.items() if gid not in ("c64-trains", "tactrics-solitary")} == {2}


def test_a_decision_is_priced_by_its_kind() -> None:
    assert durations.decision_kind({"type": "roll"}, 1) == "quick"
    assert durations.decision_kind({"type": "move", "to": "a1"}, 1) == "quick"  # forced
    assert durations.decision_kind({"type": "move", "to": "a1"}, 12) == "considered"
