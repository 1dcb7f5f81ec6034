"""The rules beside a live match, and the home page's game cards (issue 16, items 1 and 4).

On a C64 Maze match the player picks a joystick card, opens the Rules panel, reads the rules,
closes it (with the close button, then with Escape) and her card is still picked; at desktop
width the panel stands beside the board, on a phone it is a sheet over the lower part of the
screen. The home page's cards say what each game is like, for how many, how long a match
takes and how hard it is to learn, and lead a newcomer to the lessons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.rules_pages.source import page_source
from tests.e2e.c64_browser import MINE, c64_match
from tests.e2e.lobby_flow import fits_width
from tests.e2e.phone import MIN_TAP_PX, PHONE

pytestmark = pytest.mark.browser

GAME = "c64-maze"
DESKTOP = {"width": 1280, "height": 800}
PICKED = f'{MINE} [data-testid="joy-card"][data-selected="true"]'


def _needs_the_page() -> None:
    assert page_source(GAME) is not None, f"docs/rules/{GAME}.md is missing"


def _pick_a_joystick_card(page: Any) -> str:
    """The set-up's first take: one legal card picked, not yet played. Returns its card id."""
    expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    card = page.locator(f'{MINE} [data-testid="joy-card"][data-legal="true"]').first
    card.click()
    expect(page.locator(PICKED)).to_have_count(1)
    return str(page.locator(PICKED).get_attribute("data-card") or "")


def _rules_shown(page: Any) -> None:
    panel = page.get_by_test_id("rules-panel")
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("rules-button")).to_have_attribute("aria-expanded", "true")
    rules = page.frame_locator('[data-testid="rules-frame"]')
    expect(rules.get_by_test_id("rules-title")).to_have_text("C64 Maze")
    expect(rules.get_by_test_id("rules-text")).to_contain_text("What you are trying to do")
    # The embed form: no site header inside the panel.
    expect(rules.locator(".site-header")).to_have_count(0)


def _closed(page: Any, picked: str) -> None:
    expect(page.get_by_test_id("rules-panel")).to_be_hidden()
    button = page.get_by_test_id("rules-button")
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.locator(PICKED)).to_have_count(1)
    assert (page.locator(PICKED).get_attribute("data-card") or "") == picked


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_rules_open_beside_the_board_and_the_pick_survives(
    new_page: Any, live_server: str, artifacts: Path, size: dict[str, int]
) -> None:
    _needs_the_page()
    match_id, host, _guest = c64_match(live_server, GAME)
    page = new_page(size["width"], size["height"], player=host)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    picked = _pick_a_joystick_card(page)

    button = page.get_by_test_id("rules-button")
    box = button.bounding_box()
    assert box and box["width"] >= MIN_TAP_PX and box["height"] >= MIN_TAP_PX, box
    button.click()
    _rules_shown(page)
    panel = page.get_by_test_id("rules-panel").bounding_box()
    assert panel is not None
    if size is PHONE:
        # A sheet over the lower part: the top of the screen (and the match's head) stays.
        assert panel["y"] > size["height"] * 0.2 and panel["width"] == pytest.approx(390, abs=2)
        assert fits_width(page, size["width"])
    else:
        # Beside the board: on the right, the board's left part in view.
        assert panel["x"] >= size["width"] / 2 and panel["height"] == pytest.approx(800, abs=2)
    close = page.get_by_test_id("rules-close")
    expect(close).to_be_focused()
    close_box = close.bounding_box()
    assert close_box and min(close_box["width"], close_box["height"]) >= MIN_TAP_PX
    page.screenshot(path=str(artifacts / f"rules-panel-{size['width']}.png"))
    close.click()
    _closed(page, picked)

    # Escape closes it too, also when the reader's focus is inside the rules.
    button.click()
    _rules_shown(page)
    page.frame_locator('[data-testid="rules-frame"]').get_by_test_id("rules-text").click()
    page.keyboard.press("Escape")
    _closed(page, picked)


def test_the_open_lobby_links_to_the_rules(new_page: Any, live_server: str) -> None:
    _needs_the_page()
    with httpx.Client(base_url=live_server) as client:
        host = client.post("/api/players", json={"name": "Hosty"}).json()
        created = client.post(
            "/api/matches",
            json={"game": GAME, "options": {}, "seats": 2},
            headers={"Authorization": f"Bearer {host['token']}"},
        )
    page = new_page(player=host)
    page.goto(f"/match/{created.json()['id']}")
    link = page.get_by_test_id("read-the-rules")
    expect(link).to_have_attribute("href", f"/games/{GAME}/rules")
    expect(page.get_by_test_id("rules-button")).to_be_visible()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_home_page_cards_help_a_newcomer_choose(
    new_page: Any, live_server: str, artifacts: Path, size: dict[str, int]
) -> None:
    with httpx.Client(base_url=live_server) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()}
        guest = client.post("/api/players", json={"name": "Newcomer"}).json()
    page = new_page(size["width"], size["height"], player=guest)  # not asked for a name
    page.goto("/")
    new_here = page.get_by_test_id("new-here")
    expect(new_here).to_have_text("New here? Learn a game in five minutes")
    expect(new_here).to_have_attribute("href", "/learn")

    for game_id, game in games.items():
        card = page.locator(f'.game-card[data-game="{game_id}"]')
        expect(card.get_by_test_id("card-line")).to_have_text(game["tagline"] or game["goal"])
        expect(card.get_by_test_id("card-players")).to_contain_text("player")
        expect(card.get_by_test_id("card-minutes")).to_have_text(f"about {game['minutes']} min")
        if game["learn"]:
            expect(card.get_by_test_id("card-learn")).to_contain_text("learn")
        if game["rules_url"]:
            expect(card.get_by_test_id("card-rules")).to_have_attribute("href", game["rules_url"])
        if game["learn_url"]:
            expect(card.get_by_test_id("card-learn-it")).to_have_attribute(
                "href", game["learn_url"]
            )
    tanks = page.locator('.game-card[data-game="tube-tanks"]')
    expect(tanks.get_by_test_id("card-players")).to_have_text("2 players")

    assert fits_width(page, size["width"])
    small = page.evaluate(
        """(min) => [...document.querySelectorAll('.card-links a, [data-testid="new-here"]')]
            .map((a) => a.getBoundingClientRect())
            .filter((r) => r.width < min || r.height < min).length""",
        MIN_TAP_PX,
    )
    assert small == 0
    page.screenshot(path=str(artifacts / f"home-cards-{size['width']}.png"), full_page=True)

    # A tap on a card's Rules link leads to the rules, not to choosing the card.
    with_rules = next((g for g in games.values() if g["rules_url"]), None)
    if with_rules is not None:
        page.locator(f'.game-card[data-game="{with_rules["id"]}"]').get_by_test_id(
            "card-rules"
        ).click()
        page.wait_for_url(f"**{with_rules['rules_url']}")
        expect(page.get_by_test_id("rules-title")).to_be_visible()
