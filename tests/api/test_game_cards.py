"""What GET /api/games tells the home page's game cards: one line, how hard to learn, how long
a match takes, the rules page and the family's lesson (issue 16, item 4)."""

from __future__ import annotations

import httpx
import pytest

from app.api.routes import games as games_route
from app.engine.registry import get_game
from app.rules_pages import durations
from app.rules_pages.source import PageSource, page_source
from app.tutorials import tutorial_families
from tests.conftest import LiveServer

CARD_FIELDS = ("tagline", "learn", "minutes", "rules_url", "learn_url")


async def test_every_game_lists_what_its_card_shows(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        games = (await client.get("/api/games")).json()
    assert len(games) == 13
    for game in games:
        assert set(CARD_FIELDS) <= set(game), game["id"]
        assert game["minutes"] == durations.minutes(game["id"]) and game["minutes"] >= 5
        source = page_source(game["id"])
        if source is None:  # a page not written yet: the card shows what it has
            assert (game["tagline"], game["learn"], game["rules_url"]) == (None, None, None)
            continue
        assert game["tagline"] == source.meta["tagline"]
        assert game["learn"] == source.meta["learn"] in ("easy", "medium", "hard")
        assert game["rules_url"] == f"/games/{game['id']}/rules"
        family = source.meta["family"]
        assert game["learn_url"] == (f"/learn/{family}" if family in tutorial_families() else None)


def test_a_game_with_a_page_and_a_lesson(monkeypatch: pytest.MonkeyPatch) -> None:
    meta = {
        "title": "C64 Maze",
        "family": "c64",
        "learn": "easy",
        "tagline": "Push and pull the maze's walls to be first across.",
    }
    monkeypatch.setattr(
        games_route,
        "page_source",
        lambda game_id: PageSource(game_id=game_id, meta=meta, markdown=""),
    )
    monkeypatch.setattr(games_route, "tutorial_families", lambda: ["c64", "cd-thief"])
    card = games_route._public(get_game("c64-maze")).model_dump()
    assert {k: card[k] for k in CARD_FIELDS} == {
        "tagline": meta["tagline"],
        "learn": "easy",
        "minutes": durations.minutes("c64-maze"),
        "rules_url": "/games/c64-maze/rules",
        "learn_url": "/learn/c64",
    }


def test_a_game_without_a_page_or_a_lesson(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games_route, "page_source", lambda game_id: None)
    monkeypatch.setattr(games_route, "tutorial_families", lambda: [])
    card = games_route._public(get_game("tube-tanks")).model_dump()
    assert {k: card[k] for k in CARD_FIELDS if k != "minutes"} == dict.fromkeys(
        ("tagline", "learn", "rules_url", "learn_url")
    )


def test_an_unknown_difficulty_is_not_passed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    meta = {"family": "tactrics", "learn": "fiendish", "tagline": "Turn towers."}
    monkeypatch.setattr(
        games_route,
        "page_source",
        lambda game_id: PageSource(game_id=game_id, meta=meta, markdown=""),
    )
    assert games_route._public(get_game("tactrics-crossing")).learn is None
