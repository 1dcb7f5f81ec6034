"""GET /api/players/me/turns (issue 18, item 2): the matches waiting for the caller's move,
across her tables, with when it became her turn and when her turn timer runs out; the same
answer from a server started afresh on the database; lessons and others' turns left out."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx

from tests.conftest import LiveServer
from tests.helpers import Guest, guests, move_until_not_her_turn, started_match

TURNS = "/api/players/me/turns"


async def _turns(guest: Guest) -> dict[str, Any]:
    answer = await guest.get(TURNS)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    assert body["count"] == len(body["turns"])
    return body


async def test_the_matches_waiting_for_you_in_order_and_after_a_restart(database_url: str) -> None:
    first = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=first.url) as client:
            ada, bob, cy = await guests(client, "Ada", "Bob", "<b>Cy</b>")
            plain = await started_match(client, [ada, bob])
            # A second table with a turn timer, set while its lobby is open.
            timed = (await ada.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
            set_timer = await client.patch(
                f"/api/matches/{timed['id']}", json={"turn_timer": 300}, headers=ada.auth
            )
            assert set_timer.status_code == 200, set_timer.text
            assert (await cy.post(f"/api/matches/{timed['id']}/join", {})).status_code == 200
            assert (await ada.post(f"/api/matches/{timed['id']}/start")).status_code == 200

            # C64 set-up: everyone chooses at once, so both tables wait for Ada.
            mine = await _turns(ada)
            assert [t["match_id"] for t in mine["turns"]] == [timed["id"], plain]  # clock first
            clocked, open_ended = mine["turns"]
            assert clocked["game"] == "c64-maze" and clocked["game_name"] == "C64 Maze"
            assert clocked["opponents"] == ["<b>Cy</b>"] and open_ended["opponents"] == ["Bob"]
            deadline = datetime.fromisoformat(clocked["deadline"])
            left = (deadline - datetime.now(UTC)).total_seconds()
            assert 200 < left <= 300
            assert open_ended["deadline"] is None
            assert datetime.fromisoformat(open_ended["since"]) <= datetime.now(UTC)
            assert [t["match_id"] for t in (await _turns(bob))["turns"]] == [plain]

            await move_until_not_her_turn(ada, plain)
            assert [t["match_id"] for t in (await _turns(ada))["turns"]] == [timed["id"]]
            bobs = (await _turns(bob))["turns"]
            assert [t["match_id"] for t in bobs] == [plain]
            assert bobs[0]["version"] >= 1

            # A lesson waits for the learner only on its own page.
            family = (await ada.get("/api/tutorials")).json()[0]["family"]
            lesson = await ada.post(f"/api/tutorials/{family}/matches")
            assert lesson.status_code == 201, lesson.text
            assert [t["match_id"] for t in (await _turns(ada))["turns"]] == [timed["id"]]

            stranger = await client.get(TURNS)
            assert stranger.status_code == 401 and stranger.json()["code"] == "unauthorized"
    finally:
        first.stop()

    again = LiveServer(database_url).start()  # nothing in memory: rebuilt from the moves
    try:
        async with httpx.AsyncClient(base_url=again.url) as client:
            ada.client = bob.client = client
            after = (await _turns(ada))["turns"]
            assert [t["match_id"] for t in after] == [timed["id"]]
            moved = datetime.fromisoformat(after[0]["deadline"]) - deadline
            assert abs(moved.total_seconds()) < 1, "the clock started at the last move"
            assert [t["match_id"] for t in (await _turns(bob))["turns"]] == [plain]
    finally:
        again.stop()


async def test_asking_too_often_is_refused_with_a_wait(database_url: str) -> None:
    server = LiveServer(database_url, turn_reads_per_player="3/minute").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            (ada,) = await guests(client, "Ada")
            codes = [(await ada.get(TURNS)).status_code for _ in range(4)]
            assert codes == [200, 200, 200, 429]
            refused = await ada.get(TURNS)
            assert refused.json()["code"] == "rate_limited"
            assert int(refused.headers["Retry-After"]) > 0
    finally:
        server.stop()
