"""Steps every C64 browser test takes: reading the page's mode and version, the set-up take,
a turn, waiting for whoever may move, reading the log. One copy for all six games."""

from __future__ import annotations

import time
from typing import Any

import httpx
from playwright.sync_api import expect

MINE = '[data-testid="joystick-mine"]'


def mode(page: Any) -> str:
    return page.get_by_test_id("my-joystick").get_attribute("data-mode") or ""


def version(page: Any) -> int:
    return int(page.get_by_test_id("game-root").get_attribute("data-version") or -1)


def take_two_cards(page: Any) -> None:
    """Set-up: two cards of one row or column, faces from the chooser."""
    expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    page.locator(f'{MINE} [data-testid="joy-card"][data-legal="true"]').first.click()
    page.locator(
        f'{MINE} [data-testid="joy-card"][data-legal="true"][data-selected="false"]'
    ).first.click()
    chooser = page.get_by_test_id("face-chooser")
    expect(chooser).to_be_visible()
    faces = chooser.locator(".ch-card").last.get_by_test_id("face-option")
    if faces.count() > 1:
        faces.last.click()
        expect(faces.last).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("confirm-move").click()
    expect(page.get_by_test_id("my-joystick")).not_to_have_attribute("data-mode", "take")


def play_or_return(page: Any) -> str:
    """The page's player makes its legal move (a set-up return or a turn). Returns the mode."""
    kind = mode(page)
    assert kind in ("return", "play"), kind
    if page.locator(f'{MINE} [data-testid="active-card"][data-selected="true"]').count() == 0:
        page.locator(f'{MINE} [data-testid="active-card"][data-legal="true"]').first.click()
    page.locator(f'{MINE} [data-testid="joy-space"][data-legal="true"]').first.click()
    chooser = page.get_by_test_id("face-chooser")
    if chooser.is_visible():  # the last active card: choose the next two cards' faces
        page.get_by_test_id("confirm-move").click()
    return kind


def wait_for_mover(pages: list[Any], timeout_s: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for page in pages:
            if mode(page) in ("return", "play"):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody got a move to make")


def log_texts(page: Any, seq: int) -> list[str]:
    return page.locator(f'[data-testid="log-entry"][data-seq="{seq}"] .text').all_inner_texts()


def api_player(client: httpx.Client, name: str) -> dict[str, str]:
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    return dict(response.json())


def choose_game(page: Any, game: str) -> None:
    """Picks a game card in the lobby with the keyboard (focus, Space). A mouse click can
    miss: the card lifts on hover and its label then covers the radio input."""
    card = page.get_by_test_id(f"game-card-{game}")
    card.focus()
    page.keyboard.press("Space")
    expect(card).to_be_checked()
