"""A spectator watching when the host makes the match private is told why the game went away;
a spectator who came with the watch link keeps watching."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match, auth

pytestmark = pytest.mark.browser


def test_a_match_made_private_sends_away_spectators_without_the_link(
    live_server: str, new_page: Any
) -> None:
    match_id, players = api_match(live_server, "c64-maze")
    with httpx.Client(base_url=live_server) as client:
        watch = client.get(f"/api/matches/{match_id}", headers=auth(players[0])).json()[
            "watch_token"
        ]
    stranger, invited = new_page(), new_page()
    stranger.goto(f"{live_server}/match/{match_id}")
    invited.goto(f"{live_server}/match/{match_id}?watch={watch}")
    for page in (stranger, invited):
        expect(page.get_by_test_id("player").first).to_be_visible()
        expect(page.locator("#conn")).to_have_attribute("data-state", "open")

    with httpx.Client(base_url=live_server) as client:
        made_private = client.patch(
            f"/api/matches/{match_id}", json={"private": True}, headers=auth(players[0])
        )
        assert made_private.status_code == 200, made_private.text

    refused = stranger.get_by_test_id("not-found")
    expect(refused).to_be_visible()
    expect(refused).to_contain_text("This match is private")
    expect(refused).to_contain_text("watch link")
    expect(invited.get_by_test_id("not-found")).to_be_hidden()
    expect(invited.locator("#conn")).to_have_attribute("data-state", "open")
