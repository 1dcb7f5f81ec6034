"""The match page asks for compact patch frames (docs/protocol.md section 15) and ends up with
exactly the state the server holds for its viewer, and the event log in words."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import c64_match
from tests.e2e.lobby_flow import auth

pytestmark = pytest.mark.browser


def test_the_match_page_reads_compact_frames(new_page: Any, live_server: str) -> None:
    match_id, host, guest = c64_match(live_server, "c64-maze")
    page = new_page(player=host)
    sent: list[str] = []
    received: list[dict[str, Any]] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(str(payload)))
        ws.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", watch)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()

    rng = random.Random(5)
    players = [host, guest]
    with httpx.Client(base_url=live_server) as client:
        for number in range(12):
            # Whoever may move plays a random legal move through the REST API.
            views = [
                client.get(f"/api/matches/{match_id}", headers=auth(p)).json()["view"]
                for p in players
            ]
            who = next(i for i, v in enumerate(views) if v["legal_moves"])
            move = rng.choice(views[who]["legal_moves"])
            answer = client.post(
                f"/api/matches/{match_id}/moves",
                json={"move": move, "id": f"compact-{number}"},
                headers=auth(players[who]),
            )
            assert answer.status_code == 200, answer.text
        final = client.get(f"/api/matches/{match_id}", headers=auth(host)).json()["view"]

    expect(page.get_by_test_id("game-root")).to_have_attribute(
        "data-version", str(final["version"])
    )
    assert any(json.loads(text).get("compact") == 2 for text in sent if '"hello"' in text)
    kinds = {frame["type"] for frame in received}
    # A move after a wait of 2 s (a loaded machine) may come as a full `patch`: both are read.
    assert "p" in kinds, kinds
    # The page holds the server's view of its seat, exactly.
    assert page.evaluate("window.arcade.state") == final
    # The log says the moves in words (the sentences came through the dictionary).
    log = page.get_by_test_id("event-log").inner_text()
    assert "takes two cards" in log
