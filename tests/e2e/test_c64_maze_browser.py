"""Two friends play C64 Maze in two browsers, end to end against the real server.

Everything is asserted on what a person sees (data-testid hooks on visible elements): the
lobby, the seat list, the joystick, the event log and the pieces on the board.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import (
    MINE,
    api_player,
    log_texts,
    play_or_return,
    version,
    wait_for_mover,
)

pytestmark = pytest.mark.browser


# ------------------------------------------------------------------ helpers


def take_two_cards(page: Any) -> None:
    """Set-up: two cards of one row or column, faces from the chooser (its first offer)."""
    expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    page.locator(f'{MINE} [data-testid="joy-card"][data-legal="true"]').first.click()
    page.locator(
        f'{MINE} [data-testid="joy-card"][data-legal="true"][data-selected="false"]'
    ).first.click()
    chooser = page.get_by_test_id("face-chooser")
    expect(chooser).to_be_visible()
    # Flip the second card to its other face when it has one, like a player would.
    faces = chooser.locator(".ch-card").last.get_by_test_id("face-option")
    if faces.count() > 1:
        faces.last.click()
        expect(faces.last).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("confirm-move").click()
    expect(page.get_by_test_id("my-joystick")).not_to_have_attribute("data-mode", "take")


def started_match(base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """A C64 Maze match for two, started through the REST API: (id, host, guest)."""
    with httpx.Client(base_url=base) as client:
        host = api_player(client, "Hosty")
        guest = api_player(client, "Guesty")
        auth = {"Authorization": f"Bearer {host['token']}"}
        created = client.post(
            "/api/matches", json={"game": "c64-maze", "options": {}, "seats": 2}, headers=auth
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        joined = client.post(
            f"/api/matches/{match_id}/join",
            json={},
            headers={"Authorization": f"Bearer {guest['token']}"},
        )
        assert joined.status_code == 200, joined.text
        started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth)
        assert started.status_code == 200, started.text
    return match_id, host, guest


# ------------------------------------------------------------------ tests
def test_two_friends_set_up_and_play(new_page: Any, live_server: str, artifacts: Path) -> None:
    ada = new_page()
    bea = new_page()

    # Ada arrives, is asked for a name and opens a table for two.
    ada.goto("/")
    expect(ada.get_by_test_id("name-dialog")).to_be_visible()
    ada.get_by_test_id("name-input").fill("Ada")
    ada.get_by_test_id("name-submit").click()
    expect(ada.get_by_test_id("player-name")).to_have_text("Ada")
    ada.get_by_test_id("game-card-c64-maze").check()
    ada.get_by_test_id("seats-2").check()
    ada.get_by_test_id("create-match").click()
    ada.wait_for_url(re.compile(r"/match/[^/]+$"))
    expect(ada.get_by_test_id("invite-link")).to_have_value(ada.url)
    invite = ada.get_by_test_id("invite-link").input_value()

    # Bea opens the invite link, takes the free seat and picks a name on the way.
    bea.goto(invite)
    bea.get_by_test_id("take-seat-1").click()
    expect(bea.get_by_test_id("name-dialog")).to_be_visible()
    bea.get_by_test_id("name-input").fill("Bea")
    bea.get_by_test_id("name-submit").click()
    expect(bea.get_by_test_id("leave-seat")).to_be_visible()
    expect(ada.get_by_test_id("seat-list")).to_contain_text("Bea")  # live, no reload

    ada.get_by_test_id("start-match").click()
    for page in (ada, bea):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("turn-banner")).to_have_attribute(
            "data-mine", "true"
        )  # simultaneous set-up

    # Set-up, both at once; then Player 2 returns a card; then turns.
    take_two_cards(ada)
    take_two_cards(bea)
    seat_of = {
        id(ada): int(ada.get_by_test_id("game-root").get_attribute("data-you") or -1),
        id(bea): int(bea.get_by_test_id("game-root").get_attribute("data-you") or -1),
    }
    assert sorted(seat_of.values()) == [0, 1]

    played: set[int] = set()
    for _ in range(8):
        mover = wait_for_mover([ada, bea])
        other = bea if mover is ada else ada
        seat = seat_of[id(mover)]
        before = version(mover)
        kind = play_or_return(mover)
        expect(mover.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))
        seq = version(mover)
        expect(mover.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        mover_lines = log_texts(mover, seq)
        assert mover_lines, "the mover's log shows the move"
        # The other browser saw it: same log line, same piece position.
        expect(other.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        assert log_texts(other, seq) == mover_lines
        piece = f'[data-piece="adventurer-{seat}"]'
        square = mover.locator(piece).get_attribute("data-square")
        expect(other.locator(piece)).to_have_attribute("data-square", square or "")
        if kind == "play":
            played.add(seat)
        if played == {0, 1}:
            break
    assert played == {0, 1}, "each seat played a card that the other browser saw"

    # Both turn banners agree on whose turn it is now.
    mover = wait_for_mover([ada, bea])
    other = bea if mover is ada else ada
    expect(mover.get_by_test_id("turn-title")).to_have_text("Your turn")
    expect(other.get_by_test_id("turn-title")).to_contain_text("Waiting for")

    ada.screenshot(path=str(artifacts / "c64-maze-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "c64-maze-bea.png"), full_page=True)


def test_refused_move_shows_its_reason(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, host, _guest = started_match(live_server)
    bad_move = {"type": "play", "card": 0, "to": [0, 0]}  # no card is played during set-up
    with httpx.Client(base_url=live_server) as client:
        refused = client.post(
            f"/api/matches/{match_id}/moves",
            json={"move": bad_move, "id": f"probe-{uuid.uuid4().hex[:8]}"},
            headers={"Authorization": f"Bearer {host['token']}"},
        )
    assert 400 <= refused.status_code < 500, refused.text
    reason = refused.json()["message"]

    page = new_page(player=host)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    page.evaluate("move => window.arcade.submit(move).catch(() => null)", bad_move)
    expect(page.get_by_test_id("move-error")).to_be_visible()
    expect(page.get_by_test_id("move-error-text")).to_have_text(reason)
    expect(page.get_by_test_id("toast-error").first).to_contain_text(reason)
    # Nothing changed: still the set-up, still version 0.
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-version", "0")
    page.screenshot(path=str(artifacts / "c64-maze-refused.png"), full_page=True)


def test_reconnects_after_a_dropped_connection(new_page: Any, live_server: str) -> None:
    match_id, host, guest = started_match(live_server)
    page = new_page(player=host)
    sockets: list[Any] = []

    def through(route: Any) -> None:  # a transparent proxy we can cut
        route.connect_to_server()
        sockets.append(route)

    page.route_web_socket(re.compile(r"/api/matches/[^/]+/ws$"), through)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")

    sockets[0].close(code=1001, reason="network hiccup")
    expect(page.get_by_test_id("reconnecting")).to_be_visible()
    # While the page is away the friend moves; the page must catch up on its own.
    with httpx.Client(
        base_url=live_server, headers={"Authorization": f"Bearer {guest['token']}"}
    ) as client:
        legal = client.get(f"/api/matches/{match_id}").json()["view"]["legal_moves"]
        moved = client.post(
            f"/api/matches/{match_id}/moves", json={"move": legal[0], "id": "guest-take"}
        )
        assert moved.status_code == 200, moved.text

    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    expect(page.get_by_test_id("reconnecting")).to_be_hidden()
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-version", "1")
    expect(page.locator('[data-testid="log-entry"][data-seq="1"]').first).to_be_visible()
    assert len(sockets) >= 2


def test_phone_width_shows_board_and_joystick(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    width, height = 375, 740
    match_id, host, _guest = started_match(live_server)
    page = new_page(width=width, height=height, player=host)

    page.goto("/")
    expect(page.get_by_test_id("create-match")).to_be_enabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.goto(f"/match/{match_id}")
    board = page.get_by_test_id("board")
    joystick = page.get_by_test_id("my-joystick")
    expect(board).to_be_visible()
    expect(joystick).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "no horizontal scrolling"
    for element in (board, joystick, page.get_by_test_id("joystick-mine")):
        box = element.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    assert board.bounding_box()["width"] >= 300, "the board uses the phone's width"
    joystick.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "c64-maze-phone.png"), full_page=True)
