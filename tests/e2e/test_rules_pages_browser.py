"""Rules pages in Chromium (issue 16, parts 1 and 2): every diagram of every page is drawn
by its game's renderer, read-only, on a phone without sideways scrolling and without a
script error; without JavaScript the page still reads, captions included."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from app.engine.registry import all_games
from app.rules_pages.diagrams import diagrams_of
from tests.e2e.lobby_flow import fits_width

pytestmark = pytest.mark.browser

GAMES = [game.id for game in all_games()]
ALL_DRAWN = """() => {
  const figures = [...document.querySelectorAll('figure.rules-diagram')];
  return figures.length > 0 && figures.every((f) => f.dataset.drawn === 'true');
}"""


@pytest.mark.parametrize("game_id", GAMES)
def test_every_diagram_is_drawn_by_the_games_renderer_on_a_phone(
    new_page: Any, game_id: str
) -> None:
    page = new_page(390, 844)
    page.goto(f"/games/{game_id}/rules")
    expect(page.get_by_test_id("rules-text")).to_contain_text("What you are trying to do")
    figures = page.locator("figure.rules-diagram")
    expect(figures).to_have_count(len(diagrams_of(game_id)))
    page.wait_for_function(ALL_DRAWN)
    for index in range(figures.count()):
        board = figures.nth(index).locator("[data-diagram-board]")
        assert board.locator("svg, canvas, button, div").count() > 0, "an empty diagram"
    assert fits_width(page, 390)


def test_the_page_reads_without_javascript(browser: Any, live_server: str) -> None:
    context = browser.new_context(base_url=live_server, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/games/cd-thief/rules")
        expect(page.get_by_test_id("rules-text")).to_contain_text("Questions our rulings settled")
        captions = page.locator("figure.rules-diagram figcaption")
        assert captions.count() >= 1 and captions.first.inner_text().strip()
        page.goto("/learn")
        expect(page.get_by_test_id("learn-card")).to_have_count(5)
    finally:
        context.close()
