"""A spectator who opens a match in progress sees the log in the players' colours.

The log arrives over REST, possibly before the game's renderer (which knows each seat's
colour) has loaded; the swatches drawn before must be put right once it has.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match, auth

pytestmark = pytest.mark.browser


def _play_first_legal_moves(
    base: str, match_id: str, players: list[dict[str, str]], n: int
) -> None:
    with httpx.Client(base_url=base) as client:
        for _ in range(n):
            for player in players:
                view = client.get(f"/api/matches/{match_id}", headers=auth(player)).json()["view"]
                if view["legal_moves"]:
                    moved = client.post(
                        f"/api/matches/{match_id}/moves",
                        json={"move": view["legal_moves"][0]},
                        headers=auth(player),
                    )
                    assert moved.status_code == 200, moved.text
                    break


def _background(locator: Any) -> str:
    return str(locator.evaluate("el => getComputedStyle(el).backgroundColor"))


def test_a_spectators_log_uses_the_players_colours(live_server: str, new_page: Any) -> None:
    match_id, players = api_match(live_server, "c64-maze")
    _play_first_legal_moves(live_server, match_id, players, 4)
    page = new_page()
    page.goto(f"{live_server}/match/{match_id}")
    entries = page.get_by_test_id("log-entry")
    expect(entries.first).to_be_visible()
    expect(page.get_by_test_id("player").first).to_be_visible()
    for seat in (0, 1):
        panel = page.locator(f'[data-testid="player"][data-seat="{seat}"] .swatch')
        logged = page.locator(f'[data-testid="log-entry"] .swatch[data-seat="{seat}"]').first
        expect(logged).to_be_visible()
        colour = _background(panel)
        # The renderer's colour, not the fallback accent every seat would otherwise share.
        page.wait_for_function(
            "([el, want]) => getComputedStyle(el).backgroundColor === want",
            arg=[logged.element_handle(), colour],
            timeout=5000,
        )
    assert _background(
        page.locator('[data-testid="log-entry"] .swatch[data-seat="0"]').first
    ) != _background(page.locator('[data-testid="log-entry"] .swatch[data-seat="1"]').first)
