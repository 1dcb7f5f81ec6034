"""After the last move: "Play again" opens a rematch lobby with the same players one seat
along, the other player is told over the socket, both browsers add their share of the dice,
and the match page shows the revealed seed. Private matches hand out a watch link.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def summary_of(base: str, match_id: str, player: dict[str, str] | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {player['token']}"} if player else {}
    with httpx.Client(base_url=base) as client:
        answer = client.get(f"/api/matches/{match_id}", headers=headers)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def wait_for(check: Any, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_play_again_opens_a_rematch_lobby_with_seats_rotated(
    new_page: Any, live_server: str, finish_maze_match: Any, artifacts: Path
) -> None:
    finished = finish_maze_match(names=("Ada", "Bob"))
    ada, bob = finished["players"]  # seat 0, seat 1
    old_id = finished["id"]

    ada_page = new_page(player=ada)
    bob_page = new_page(player=bob)
    for page in (ada_page, bob_page):
        page.goto(f"/match/{old_id}")
        expect(page.get_by_test_id("game-over")).to_be_visible(timeout=20_000)
        expect(page.get_by_test_id("play-again")).to_be_visible()
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    replay = ada_page.get_by_test_id("watch-replay")
    expect(replay).to_have_attribute("href", f"/replay/{old_id}")

    # The header shows the seed commitment and, the match being over, the revealed seed.
    summary = finished["summary"]
    expect(ada_page.get_by_test_id("seed-commitment")).to_have_attribute(
        "data-full", summary["seed_commitment"]
    )
    expect(ada_page.get_by_test_id("seed")).to_have_attribute("data-full", summary["seed"])
    ada_page.get_by_test_id("dice-help-button").click()
    help_box = ada_page.get_by_test_id("dice-help")
    expect(help_box).to_be_visible()
    expect(help_box).to_contain_text(summary["seed"])
    ada_page.screenshot(path=str(artifacts / "rematch-finished.png"), full_page=False)
    ada_page.keyboard.press("Escape")
    expect(help_box).to_be_hidden()

    # Ada asks for a rematch and lands in its lobby.
    ada_page.get_by_test_id("play-again").click()
    ada_page.wait_for_url(re.compile(r"/match/(?!" + re.escape(old_id) + r")[^/?#]+$"))
    new_id = ada_page.url.rstrip("/").split("/")[-1]
    expect(ada_page.get_by_test_id("lobby-view")).to_be_visible()
    seats = ada_page.get_by_test_id("seat")
    expect(seats).to_have_count(2)
    expect(seats.nth(0)).to_contain_text("Bob")  # seat i -> seat i + 1
    expect(seats.nth(1)).to_contain_text("Ada")
    expect(seats.nth(1)).to_contain_text("you")
    expect(ada_page.get_by_test_id("start-match")).to_be_visible()  # who asked is the host

    # Bob, still on the finished match, is told and joins from the banner.
    banner = bob_page.get_by_test_id("rematch-banner")
    expect(banner).to_be_visible()
    expect(bob_page.get_by_test_id("rematch-text")).to_have_text("Ada started a rematch")
    expect(bob_page.get_by_test_id("join-rematch")).to_have_attribute("href", f"/match/{new_id}")
    expect(bob_page.get_by_test_id("play-again")).to_have_text("Join the rematch")
    bob_page.screenshot(path=str(artifacts / "rematch-banner.png"), full_page=False)

    # Fair dice: Ada's browser has already added its nonce to her new seat; Bob's does on landing.
    wait_for(lambda: summary_of(live_server, new_id)["nonces"][1] is True)
    assert summary_of(live_server, new_id)["nonces"][0] is False
    bob_page.get_by_test_id("join-rematch").click()
    bob_page.wait_for_url(f"**/match/{new_id}")
    expect(bob_page.get_by_test_id("lobby-view")).to_be_visible()
    wait_for(lambda: summary_of(live_server, new_id)["nonces"] == [True, True])

    ada_page.get_by_test_id("start-match").click()
    for page in (ada_page, bob_page):
        expect(page.get_by_test_id("board")).to_be_visible()
    ada_page.screenshot(path=str(artifacts / "rematch-started.png"), full_page=False)


def test_private_match_and_its_watch_link(new_page: Any, live_server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=live_server) as client:
        host = client.post("/api/players", json={"name": "Hana"}).json()
        friend = client.post("/api/players", json={"name": "Ivo"}).json()

    # The host makes the match private from the lobby page form.
    page = new_page(player=host)
    page.goto("/")
    page.get_by_test_id("game-card-c64-maze").check()
    page.get_by_test_id("seats-2").check()
    page.get_by_test_id("private-match").check()
    page.get_by_test_id("create-match").click()
    page.wait_for_url(re.compile(r"/match/[^/]+$"))
    match_id = page.url.rstrip("/").split("/")[-1]
    expect(page.get_by_test_id("private-tag")).to_be_visible()
    expect(page.get_by_test_id("private-toggle")).to_be_checked()
    watch_link = page.get_by_test_id("watch-link")
    expect(watch_link).to_have_value(re.compile(rf"/match/{match_id}\?watch=.+"))
    summary = summary_of(live_server, match_id, host)
    assert summary["private"] is True and summary["nonces"][0] is True

    # The toggle switches it back and forth (PATCH).
    page.get_by_test_id("private-toggle").uncheck()
    expect(page.get_by_test_id("private-tag")).to_be_hidden()
    expect(page.get_by_test_id("watch-panel")).to_be_hidden()
    wait_for(lambda: summary_of(live_server, match_id, host)["private"] is False)
    page.get_by_test_id("private-toggle").check()
    expect(page.get_by_test_id("private-tag")).to_be_visible()
    expect(page.get_by_test_id("watch-panel")).to_be_visible()
    link = watch_link.input_value()
    page.screenshot(path=str(artifacts / "rematch-private-lobby.png"), full_page=True)

    # The friend joins through the API with a nonce; the host starts.
    with httpx.Client(base_url=live_server) as client:
        auth = {"Authorization": f"Bearer {friend['token']}"}
        joined = client.post(
            f"/api/matches/{match_id}/join", json={"nonce": "ab" * 32}, headers=auth
        )
        assert joined.status_code == 200, joined.text
        started = client.post(
            f"/api/matches/{match_id}/start",
            json={},
            headers={"Authorization": f"Bearer {host['token']}"},
        )
        assert started.status_code == 200, started.text
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("watch-panel")).to_be_visible()

    # A stranger without the link is turned away; with it, watches.
    stranger = new_page()
    stranger.goto(f"/match/{match_id}")
    expect(stranger.get_by_test_id("not-found")).to_be_visible()
    expect(stranger.get_by_test_id("not-found")).to_contain_text("private")
    watcher = new_page()
    watcher.goto(link)
    expect(watcher.get_by_test_id("board")).to_be_visible()
    expect(watcher.get_by_test_id("spectator-tag")).to_be_visible()
    expect(watcher.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    watcher.screenshot(path=str(artifacts / "rematch-private-watcher.png"), full_page=False)
