"""Two friends play a few turns of CD Thief in two browsers against the real server.

Asserted on what a person sees: the roll button, the highlighted end squares on the hotel
map, the thief moving there in both browsers, and the drawn Event card shown to both.
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import api_player

pytestmark = pytest.mark.browser

ROOT = '[data-testid="cd-thief"]'


def started_match(base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    with httpx.Client(base_url=base) as client:
        host = api_player(client, "Ada")
        guest = api_player(client, "Bea")
        auth = {"Authorization": f"Bearer {host['token']}"}
        created = client.post(
            "/api/matches", json={"game": "cd-thief", "options": {}, "seats": 2}, headers=auth
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        joined = client.post(
            f"/api/matches/{match_id}/join", json={},
            headers={"Authorization": f"Bearer {guest['token']}"},
        )
        assert joined.status_code == 200, joined.text
        started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth)
        assert started.status_code == 200, started.text
    return match_id, host, guest


def settled_version(page: Any) -> int:
    root = page.locator(ROOT)
    expect(root).to_have_attribute("data-busy", "false")
    return int(root.get_attribute("data-version") or -1)


def wait_for_mover(pages: list[Any], timeout_s: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for page in pages:
            if page.get_by_test_id("turn-banner").get_attribute("data-mine") == "true":
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody got a move to make")


def test_two_friends_roll_move_and_see_the_event_card(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, host, guest = started_match(live_server)
    ada = new_page(player=host)
    bea = new_page(width=390, height=844, player=guest)  # phone width
    for page in (ada, bea):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("cd-board")).to_be_visible()
        expect(page.get_by_test_id("cd-card")).to_contain_text("No card drawn yet")
    pages = [ada, bea]

    cards_seen = 0
    for _turn in range(4):
        mover = wait_for_mover(pages)
        other = bea if mover is ada else ada
        seat = int(mover.locator(ROOT).get_attribute("data-you") or -1)
        if mover.get_by_test_id("cd-battle").is_visible():
            mover.get_by_test_id("cd-battle").click()
            mover = wait_for_mover(pages)
            continue
        expect(mover.get_by_test_id("cd-roll")).to_be_visible()
        mover.get_by_test_id("cd-roll").click()
        expect(mover.get_by_test_id("cd-dice").locator(".cdt-die")).to_have_count(2)
        targets = mover.locator('[data-testid^="cd-target-"]')
        expect(targets.first).to_be_visible()
        count = targets.count()
        assert count >= 1
        # Both browsers agree on the dice and the other one sees the choices outlined.
        expect(other.get_by_test_id("cd-dice")).to_have_text(
            mover.get_by_test_id("cd-dice").text_content() or ""
        )
        if _turn == 0:
            mover.screenshot(path=str(artifacts / "cd-thief-targets.png"), full_page=True)
        target = targets.last
        testid = target.get_attribute("data-testid") or ""
        x, y = (int(v) for v in testid.split("-")[-2:])
        target.click()
        # The thief stands on the chosen square in both browsers.
        piece = f'[data-testid="cd-piece-thief-{seat}"]'
        for page in pages:
            expect(page.locator(piece)).to_have_attribute("data-x", str(x))
            expect(page.locator(piece)).to_have_attribute("data-y", str(y))
        v_mover, v_other = settled_version(mover), settled_version(other)
        assert v_mover == v_other
        # The drawn Event card is shown to both players.
        title = mover.get_by_test_id("cd-card-title")
        expect(title).to_be_visible()
        expect(other.get_by_test_id("cd-card-title")).to_have_text(title.text_content() or "")
        cards_seen += 1
    assert cards_seen >= 2

    ada.screenshot(path=str(artifacts / "cd-thief-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "cd-thief-bea-phone.png"), full_page=True)


def test_a_refused_move_shows_its_reason(new_page: Any, live_server: str) -> None:
    match_id, host, guest = started_match(live_server)
    page = new_page(player=host)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("cd-board")).to_be_visible()
    page.evaluate("move => window.arcade.submit(move).catch(() => null)",
                  {"type": "move", "to": [9, 14]})
    expect(page.get_by_test_id("toast-error").first).to_be_visible()
