""" "Your turn" across matches in the browser (issue 18, item 2): the home lists every match
waiting for her move, the header of every page counts them and so does the tab title, and the
match page's "Next game" goes to the next one. A move made on the match page brings the count
down at once (the page says the count is stale), and at 0 the badge and the prefix go.

Two guests, two C64 Maze matches between them over REST. A C64 match begins with both players
setting up their joysticks at once, so right after the start it is Ada's turn in both; two
moves each finish her set-up, and then she waits for Bob.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_player, auth, fits_width, legal_moves
from tests.e2e.phone import MIN_TAP_PX

pytestmark = pytest.mark.browser

TIMEOUT_MS = 15_000  # each wait ends on an element's state; this only bounds a loaded machine
STALE = "() => window.dispatchEvent(new Event('arcade:turns-stale'))"


def two_matches(
    base: str, names: tuple[str, str]
) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """Two started C64 Maze matches between two new guests, the first name hosting both."""
    with httpx.Client(base_url=base) as client:
        host, friend = (api_player(client, name) for name in names)
        ids = []
        for _ in range(2):
            created = client.post(
                "/api/matches",
                json={"game": "c64-maze", "options": {}, "seats": 2},
                headers=auth(host),
            )
            assert created.status_code == 201, created.text
            match_id = created.json()["id"]
            joined = client.post(f"/api/matches/{match_id}/join", json={}, headers=auth(friend))
            assert joined.status_code == 200, joined.text
            started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth(host))
            assert started.status_code == 200, started.text
            ids.append(match_id)
        waiting = client.get("/api/players/me/turns", headers=auth(host))
        assert waiting.status_code == 200, waiting.text
        assert {t["match_id"] for t in waiting.json()["turns"]} == set(ids)
    return host, friend, ids


def finish_set_up_over_rest(base: str, match_id: str, player: dict[str, str]) -> None:
    while moves := legal_moves(base, match_id, player):
        with httpx.Client(base_url=base) as client:
            made = client.post(
                f"/api/matches/{match_id}/moves", json={"move": moves[0]}, headers=auth(player)
            )
        assert made.status_code == 200, made.text


def assert_tap_target(locator: Any) -> None:
    box = locator.bounding_box()
    assert box is not None
    assert box["height"] >= MIN_TAP_PX and box["width"] >= MIN_TAP_PX, box


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_your_turn_on_the_home_the_header_the_title_and_next_game(
    new_page: Callable[..., Any], live_server: str, size: tuple[int, int], artifacts: Path
) -> None:
    ada, _bob, ids = two_matches(live_server, ("Ada", "Bob"))
    width, height = size
    page = new_page(width=width, height=height, player=ada)

    # The home: both matches first, the header's count and the title's prefix.
    page.goto("/")
    panel = page.get_by_test_id("your-turn")
    expect(panel).to_be_visible(timeout=TIMEOUT_MS)
    items = page.get_by_test_id("turn-item")
    expect(items).to_have_count(2)
    for item in (items.nth(0), items.nth(1)):
        expect(item).to_contain_text("with Bob")
        expect(item).to_contain_text(re.compile(r"waiting \d+ min"))
        expect(item).to_have_attribute("href", re.compile(r"^/match/"))
    hrefs = {items.nth(i).get_attribute("href") for i in range(2)}
    assert hrefs == {f"/match/{match_id}" for match_id in ids}
    badge = page.get_by_test_id("turns-badge")
    expect(badge).to_be_visible()
    expect(page.get_by_test_id("turns-count")).to_have_text("2")
    expect(badge).to_have_attribute("href", "/#your-turn")
    expect(page).to_have_title(re.compile(r"^\(2\) Arcade Night"))
    # The panel comes first in the page's main column.
    assert page.evaluate("() => document.querySelector('main').firstElementChild.id") == "your-turn"
    assert_tap_target(badge)
    assert_tap_target(items.nth(0))
    assert fits_width(page, width)
    page.screenshot(path=str(artifacts / f"your-turn-home-{width}.png"))

    # Her first match (the list's order); "Next game" goes to the other.
    first = items.nth(0).get_attribute("href").split("/")[-1]
    other = next(match_id for match_id in ids if match_id != first)
    items.nth(0).click()
    page.wait_for_url(f"**/match/{first}")
    expect(page.get_by_test_id("board")).to_be_visible(timeout=TIMEOUT_MS)
    next_game = page.get_by_test_id("next-game")
    expect(next_game).to_be_visible(timeout=TIMEOUT_MS)
    expect(next_game).to_have_attribute("href", f"/match/{other}")
    expect(page).to_have_title(re.compile(r"^\(2\) ● Your turn · "))  # the page's own title kept
    assert_tap_target(next_game)
    assert fits_width(page, width)
    page.screenshot(path=str(artifacts / f"your-turn-match-{width}.png"))
    next_game.click()
    page.wait_for_url(f"**/match/{other}")
    expect(page.get_by_test_id("connection")).to_have_attribute(
        "data-state", "open", timeout=TIMEOUT_MS
    )
    expect(page.get_by_test_id("turns-count")).to_have_text("2", timeout=TIMEOUT_MS)
    expect(next_game).to_have_attribute("href", f"/match/{first}", timeout=TIMEOUT_MS)

    # Her set-up moves here, made on the match page: the count drops to 1, "Next game" stays.
    while moves := legal_moves(live_server, other, ada):
        page.evaluate("move => window.arcade.submit(move)", moves[0])
    expect(page.get_by_test_id("turns-count")).to_have_text("1", timeout=TIMEOUT_MS)
    expect(page).to_have_title(re.compile(r"^\(1\) "))
    expect(page).not_to_have_title(re.compile(r"Your turn"))  # the page's own title changed too
    expect(next_game).to_be_visible()
    expect(next_game).to_have_attribute("href", f"/match/{first}")

    # The home lists only the other one now.
    page.goto("/")
    expect(page.get_by_test_id("turn-item")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(page.get_by_test_id("turn-item")).to_have_attribute("href", f"/match/{first}")
    expect(page.get_by_test_id("turns-count")).to_have_text("1")

    # Her set-up in the first match over REST; the page is told the count is stale: nothing
    # waits, the badge, the panel and the title's prefix go.
    finish_set_up_over_rest(live_server, first, ada)
    page.evaluate(STALE)
    expect(badge).to_be_hidden(timeout=TIMEOUT_MS)
    expect(panel).to_be_hidden()
    expect(page).to_have_title("Arcade Night · retro board games with friends")


def test_a_hostile_opponent_name_shows_as_text(
    watched_page: Callable[..., Any], live_server: str
) -> None:
    hostile = "<img src=x onerror=window.__pwned=1>"
    ada, _bob, ids = two_matches(live_server, ("Ada", hostile))
    page = watched_page(player=ada)
    page.goto("/")
    items = page.get_by_test_id("turn-item")
    expect(items).to_have_count(2, timeout=TIMEOUT_MS)
    expect(items.nth(0)).to_contain_text(f"with {hostile}")
    assert page.locator("#your-turn img").count() == 0
    page.goto(f"/match/{ids[0]}")
    expect(page.get_by_test_id("next-game")).to_have_attribute(
        "href", f"/match/{ids[1]}", timeout=TIMEOUT_MS
    )
    page.wait_for_load_state("networkidle")
    pwned, violations = page.evaluate("() => [window.__pwned, window.__cspViolations]")
    assert pwned is None
    assert not violations, violations
