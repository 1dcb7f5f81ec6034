"""Two friends play C64 Snakes in two browsers, end to end against the real server.

Everything is asserted on what a person sees (data-testid hooks on visible elements): the
lobby, the joystick, the event log, the snake heads on their grid points, the segments and
the panel with lengths, sticks left and captures.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import (
    MINE,
    api_player,
    choose_game,
    log_texts,
    mode,
    version,
    wait_for_mover,
)

pytestmark = pytest.mark.browser


def take_two_cards(page: Any) -> None:
    """Set-up: two cards of one row or column, faces from the chooser (its first offer)."""
    expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    page.locator(f'{MINE} [data-testid="joy-card"][data-legal="true"]').first.click()
    page.locator(
        f'{MINE} [data-testid="joy-card"][data-legal="true"][data-selected="false"]'
    ).first.click()
    expect(page.get_by_test_id("face-chooser")).to_be_visible()
    page.get_by_test_id("confirm-move").click()
    expect(page.get_by_test_id("my-joystick")).not_to_have_attribute("data-mode", "take")


def play_or_return(page: Any, shot: Path | None = None) -> str:
    """The page's player makes its legal move (a set-up return or a turn). Returns the mode.
    In a turn it prefers a move card, so that snakes grow."""
    kind = mode(page)
    assert kind in ("return", "play"), kind
    if page.locator(f'{MINE} [data-testid="active-card"][data-selected="true"]').count() == 0:
        cards = page.locator(f'{MINE} [data-testid="active-card"][data-legal="true"]')
        choice = cards.first
        if kind == "play":
            for i in range(cards.count()):
                if "button" not in (cards.nth(i).get_attribute("data-face") or ""):
                    choice = cards.nth(i)
                    break
        choice.click()
    if kind == "play":  # the board previews what the selected card will do
        expect(page.locator('[data-testid="board-highlight"][data-point]').first).to_be_attached()
        if shot is not None:
            page.get_by_test_id("board").screenshot(path=str(shot))
    page.locator(f'{MINE} [data-testid="joy-space"][data-legal="true"]').first.click()
    chooser = page.get_by_test_id("face-chooser")
    if chooser.is_visible():  # the last active card: choose the next two cards' faces
        page.get_by_test_id("confirm-move").click()
    return kind


def test_two_friends_grow_snakes(new_page: Any, live_server: str, artifacts: Path) -> None:
    ada, bea = new_page(), new_page()

    ada.goto("/")
    ada.get_by_test_id("name-input").fill("Ada")
    ada.get_by_test_id("name-submit").click()
    choose_game(ada, "c64-snakes")
    ada.get_by_test_id("seats-2").check()
    ada.get_by_test_id("create-match").click()
    ada.wait_for_url(re.compile(r"/match/[^/]+$"))
    expect(ada.get_by_test_id("invite-link")).to_have_value(ada.url)
    invite = ada.get_by_test_id("invite-link").input_value()

    bea.goto(invite)
    bea.get_by_test_id("take-seat-1").click()
    expect(bea.get_by_test_id("name-dialog")).to_be_visible()
    bea.get_by_test_id("name-input").fill("Bea")
    bea.get_by_test_id("name-submit").click()
    expect(bea.get_by_test_id("leave-seat")).to_be_visible()
    expect(ada.get_by_test_id("seat-list")).to_contain_text("Bea")

    ada.get_by_test_id("start-match").click()
    pages = [ada, bea]
    for page in pages:
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.locator('[data-testid="point"][data-point^="head-"]')).to_have_count(2)
        expect(page.get_by_test_id("snakes-score-row")).to_have_count(2)
        expect(page.get_by_test_id("snakes-supply")).to_have_text(["16", "16"])
    heads = {ada.locator(f'[data-point="head-{s}"]').get_attribute("data-at") for s in range(2)}
    assert heads == {"0,0", "8,8"}  # S and N left corners (ruling C2)

    for page in pages:
        take_two_cards(page)
    seat_of = {
        id(p): int(p.get_by_test_id("game-root").get_attribute("data-you") or -1) for p in pages
    }
    assert sorted(seat_of.values()) == [0, 1]

    played: set[int] = set()
    for _ in range(10):
        mover = wait_for_mover(pages)
        other = bea if mover is ada else ada
        seat = seat_of[id(mover)]
        before = version(mover)
        kind = play_or_return(mover, artifacts / "c64-snakes-preview.png" if not played else None)
        expect(mover.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))
        seq = version(mover)
        expect(mover.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        lines = log_texts(mover, seq)
        assert lines, "the mover's log shows the move"
        # The other browser saw it: the same log line, the head on the same grid point, the
        # same segments of that colour and the same row in the score panel.
        expect(other.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        assert log_texts(other, seq) == lines
        head = f'[data-point="head-{seat}"]'
        expect(other.locator(head)).to_have_attribute(
            "data-at", mover.locator(head).get_attribute("data-at") or ""
        )
        segments = mover.locator(f'[data-segment^="snake-{seat}-"]').count()
        expect(other.locator(f'[data-segment^="snake-{seat}-"]')).to_have_count(segments)
        row = f'[data-testid="snakes-score-row"][data-seat="{seat}"]'
        expect(other.locator(row)).to_have_text(mover.locator(row).text_content() or "")
        if kind == "play":
            played.add(seat)
        if played == {0, 1}:
            break
    assert played == {0, 1}, "each seat played a card that the other browser saw"

    mover = wait_for_mover(pages)
    other = bea if mover is ada else ada
    expect(mover.get_by_test_id("turn-title")).to_have_text("Your turn")
    expect(other.get_by_test_id("turn-title")).to_contain_text("Waiting for")

    # The north player turns the board to her side: the pieces keep their grid points.
    north = next(p for p in pages if "North side" in p.get_by_test_id("my-joystick").inner_text())
    head = f'[data-point="head-{seat_of[id(north)]}"]'
    at = north.locator(head).get_attribute("data-at")
    assert at is not None
    north.get_by_test_id("toggle-view").click()
    expect(north.get_by_test_id("board")).to_have_attribute("data-view", "N")
    expect(north.locator(head)).to_have_attribute("data-at", at)

    ada.screenshot(path=str(artifacts / "c64-snakes-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "c64-snakes-bea.png"), full_page=True)


# ------------------------------------------------------------------ a finished game


def played_to_the_end(base: str, seats: int, seed: int) -> tuple[str, list[dict[str, str]]]:
    """A C64 Snakes match for `seats`, started and played to its end through the REST API with
    seeded random legal moves (move cards twice as likely, so the board fills up)."""
    chooser = random.Random(seed)
    with httpx.Client(base_url=base) as client:
        people = [api_player(client, name) for name in ("Ada", "Bea", "Cid", "Dee")[:seats]]
        auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
        created = client.post(
            "/api/matches",
            json={"game": "c64-snakes", "options": {}, "seats": seats},
            headers=auth[0],
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        for seat in range(1, seats):
            joined = client.post(f"/api/matches/{match_id}/join", json={}, headers=auth[seat])
            assert joined.status_code == 200, joined.text
        started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth[0])
        assert started.status_code == 200, started.text
        for number in range(5000):
            view = client.get(f"/api/matches/{match_id}", headers=auth[0]).json()
            if view["status"] == "finished":
                return match_id, people
            seat = view["view"]["active_seats"][0]
            legal = client.get(f"/api/matches/{match_id}", headers=auth[seat]).json()["view"][
                "legal_moves"
            ]
            faces = {a["id"]: a["face"] for a in view["view"]["board"]["joysticks"][seat]["active"]}
            weights = [1 if "button" in faces.get(m.get("card"), "button") else 2 for m in legal]
            move = chooser.choices(legal, weights)[0]
            moved = client.post(
                f"/api/matches/{match_id}/moves",
                json={"move": move, "id": f"m{number}"},
                headers=auth[seat],
            )
            assert moved.status_code == 200, moved.text
    raise AssertionError("the random game did not finish")


def test_the_final_score_is_shown_at_the_end(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, people = played_to_the_end(live_server, 2, seed=7)
    with httpx.Client(base_url=live_server) as client:
        outcome = client.get(f"/api/matches/{match_id}").json()["view"]["outcome"]
    reason = outcome["reason"]
    page = new_page(player=people[0])
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("winner")).to_be_visible()
    expect(page.get_by_test_id("game-over")).to_contain_text(reason)
    panel = page.get_by_test_id("snakes-score")
    expect(panel.locator("h3")).to_have_text("Final count")
    expect(panel).to_have_attribute("data-phase", "over")
    expect(page.get_by_test_id("snakes-note")).to_have_text(reason)
    page.screenshot(path=str(artifacts / "c64-snakes-final.png"), full_page=True)
