"""A guest made before the HttpOnly cookie (its token in localStorage) opens the site: it keeps
its player id, its token leaves localStorage for a cookie no script can read, and it plays."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match, auth

pytestmark = pytest.mark.browser

STORED = "() => JSON.parse(localStorage.getItem('arcade.player') || 'null')"


def _whose_turn(base: str, match_id: str, players: list[dict[str, str]]) -> dict[str, str]:
    with httpx.Client(base_url=base) as client:
        for player in players:
            view = client.get(f"/api/matches/{match_id}", headers=auth(player)).json()["view"]
            if view["legal_moves"]:
                return player
    raise AssertionError("nobody may move")


def test_an_old_guest_moves_into_the_cookie_and_plays(live_server: str, new_page: Any) -> None:
    match_id, players = api_match(live_server, "c64-maze", names=("Olda", "Newt"))
    mover = _whose_turn(live_server, match_id, players)
    page = new_page(player=mover)  # the old entry: {id, name, token}
    page.goto(f"/match/{match_id}")

    page.wait_for_function(f"() => {{ const e = ({STORED})(); return e && !('token' in e); }}")
    assert page.evaluate(STORED) == {"id": mover["id"], "name": mover["name"]}
    expect(page.get_by_test_id("player-name")).to_have_text(mover["name"])
    cookie = next(c for c in page.context.cookies() if c["name"] == "arcade_guest")
    assert cookie["value"] == mover["token"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
    assert mover["token"] not in page.evaluate("document.cookie")
    assert "arcade_guest" not in page.evaluate("document.cookie")

    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    page.wait_for_function("() => window.arcade.state?.legal_moves?.length > 0")
    assert page.evaluate("window.arcade.state.you") == players.index(mover)
    version = page.evaluate(
        "async () => { await window.arcade.submit(window.arcade.state.legal_moves[0]);"
        " return window.arcade.version; }"
    )
    assert version == 1
    with httpx.Client(base_url=live_server) as client:
        log = client.get(f"/api/matches/{match_id}/log").json()["moves"]
    assert [entry["seat"] for entry in log] == [players.index(mover)]
    assert "token" not in page.evaluate(STORED)
