"""A player ends a match being played, for everyone, from the match page: every page of it
shows the last position with nothing left to play and who ended it, also after a reload, and
the lobby's "In progress" list drops it. That list shows all your matches (the first few, the
rest behind "Show all"), each with when it started, before other people's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_player, auth, friends_start_a_match

pytestmark = pytest.mark.browser

LEGAL = '[data-testid="game-root"] [data-legal="true"]'
STARTED = re.compile(r"^started (just now|\d+ min ago)$")


def live_row(page: Any, match_id: str) -> Any:
    return page.locator(f'[data-testid="live-matches"] [data-match-id="{match_id}"]')


def lobby_loaded(page: Any) -> None:
    """The lobby's "In progress" list has been filled from the server."""
    page.goto("/")
    expect(page.get_by_test_id("live-matches")).to_have_attribute("aria-busy", "false")


def test_a_player_ends_the_match_for_everyone(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    (ada, bea), _invite = friends_start_a_match(new_page, "c64-maze")
    match_id = ada.url.rstrip("/").split("/")[-1]
    spectator = new_page()
    spectator.goto(f"/match/{match_id}")
    for page in (ada, bea, spectator):
        expect(page.get_by_test_id("board")).to_be_visible()
    for page in (ada, bea):  # the set-up: both may take cards
        expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
        expect(page.locator(LEGAL).first).to_be_visible()
        expect(page.get_by_test_id("end-match")).to_be_visible()
    expect(spectator.get_by_test_id("end-match")).to_be_hidden()

    # Ada's lobby lists the match as hers, with when it started.
    ada_lobby = ada.context.new_page()
    lobby_loaded(ada_lobby)
    expect(live_row(ada_lobby, match_id).get_by_test_id("resume-match")).to_be_visible()
    expect(live_row(ada_lobby, match_id).get_by_test_id("match-started")).to_have_text(STARTED)

    # Bea asks to end it; "Keep playing" is the default and Escape keeps playing too.
    dialog = bea.get_by_test_id("end-dialog")
    bea.get_by_test_id("end-match").click()
    expect(dialog).to_be_visible()
    assert dialog.evaluate("el => el.tagName") == "DIALOG"
    expect(dialog).to_contain_text("End this match for everyone?")
    expect(dialog).to_contain_text("nobody wins")
    expect(bea.get_by_test_id("end-cancel")).to_have_text("Keep playing")
    expect(bea.get_by_test_id("end-cancel")).to_be_focused()
    expect(bea.get_by_test_id("end-confirm")).to_have_text("End match")
    bea.screenshot(path=str(artifacts / "end-match-dialog.png"), full_page=False)
    bea.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(bea.get_by_test_id("match-status")).to_have_text("playing")
    expect(bea.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    expect(bea.get_by_test_id("end-match")).to_be_visible()

    bea.get_by_test_id("end-match").click()
    bea.get_by_test_id("end-confirm").click()
    expect(dialog).to_have_count(0)

    # Every page of the match: who ended it, the board still there, nothing left to play.
    for page in (ada, bea, spectator):
        expect(page.get_by_test_id("ended-title")).to_have_text("Bea ended this match.")
        expect(page.get_by_test_id("match-status")).to_have_text("abandoned")
        expect(page.get_by_test_id("back-to-lobby")).to_have_attribute("href", "/")
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.locator(LEGAL)).to_have_count(0)
        expect(page.get_by_test_id("end-match")).to_be_hidden()
        expect(page.get_by_test_id("game-over")).to_be_hidden()
    for page in (ada, bea):
        expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "idle")
        expect(page.get_by_test_id("my-joystick")).to_contain_text("The match was ended")
        expect(page.get_by_test_id("my-joystick")).not_to_contain_text("Waiting for")
    bea.screenshot(path=str(artifacts / "end-match-ended.png"), full_page=False)

    # Opened again later: the same last position and the same ended state.
    ada.reload()
    expect(ada.get_by_test_id("ended-title")).to_have_text("Bea ended this match.")
    expect(ada.get_by_test_id("match-status")).to_have_text("abandoned")
    expect(ada.get_by_test_id("board")).to_be_visible()
    expect(ada.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "idle")
    expect(ada.locator(LEGAL)).to_have_count(0)
    expect(ada.get_by_test_id("end-match")).to_be_hidden()

    # The lobby no longer lists it as in progress.
    lobby_loaded(ada_lobby)
    expect(live_row(ada_lobby, match_id)).to_have_count(0)


def started_match(
    client: httpx.Client, host: dict[str, str], guest: dict[str, str], *, private: bool = False
) -> str:
    created = client.post(
        "/api/matches",
        json={"game": "c64-maze", "options": {}, "seats": 2, "private": private},
        headers=auth(host),
    )
    assert created.status_code == 201, created.text
    match_id = str(created.json()["id"])
    joined = client.post(f"/api/matches/{match_id}/join", json={}, headers=auth(guest))
    assert joined.status_code == 200, joined.text
    started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth(host))
    assert started.status_code == 200, started.text
    return match_id


def test_the_lobby_lists_all_your_matches_in_progress_then_others(
    new_page: Any, live_server: str
) -> None:
    with httpx.Client(base_url=live_server) as client:
        cid, dee, eve, fay = (api_player(client, n) for n in ("Cid", "Dee", "Eve", "Fay"))
        # Ten of Cid's, one of them private; then a public match of others, started last.
        mine = [started_match(client, cid, dee, private=n == 0) for n in range(10)]
        others = started_match(client, eve, fay)

    page = new_page(player=cid)
    lobby_loaded(page)
    rows = page.get_by_test_id("live-matches").get_by_test_id("match-row")
    resume = page.get_by_test_id("live-matches").get_by_test_id("resume-match")
    show_all = page.get_by_test_id("live-show-all")
    expect(resume).to_have_count(8)
    expect(show_all).to_have_text("Show all 10 of your matches")
    show_all.click()
    expect(resume).to_have_count(10)
    expect(show_all).to_have_text("Show fewer")
    for match_id in mine:
        row = live_row(page, match_id)
        expect(row).to_contain_text("Cid vs Dee")
        expect(row.get_by_test_id("match-started")).to_have_text(STARTED)

    # Other people's come after all of Cid's, to watch, with when they started too.
    ids = [rows.nth(i).get_attribute("data-match-id") for i in range(rows.count())]
    assert set(ids[:10]) == set(mine), ids
    assert others in ids[10:], ids
    expect(live_row(page, others).get_by_test_id("watch-match")).to_be_visible()
    expect(live_row(page, others).get_by_test_id("match-started")).to_have_text(STARTED)

    show_all.click()
    expect(resume).to_have_count(8)
