"""Absent friends with two server processes behind one database and Redis (issue 15, part 3:
"all of it holds ... with several server processes"): a player connected to one process lets
a computer stand in for a friend who was on the other; the other process's players see it
play for her; she comes back through the second process and both hear she is back."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import LiveServer
from tests.helpers import Viewer, guests
from tests.realtime.test_redis_hub import redis_url  # noqa: F401  (the fixture)

ABSENCE = {
    "bot_think_seconds": 0.0,
    "bot_time_budget": 0.2,
    "bot_sweep_seconds": 0.5,
    "away_after_seconds": 1,
}


async def test_a_stand_in_made_on_one_process_plays_and_ends_on_the_other(
    database_url: str,
    redis_url: str,  # noqa: F811
) -> None:
    first = LiveServer(database_url, redis_url=redis_url, **ABSENCE).start()
    second = LiveServer(
        database_url, redis_url=redis_url, migrate_on_start=False, **ABSENCE
    ).start()
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as client:
            ada, bob, cyd = await guests(client, "Ada", "Bob", "Cyd")
            match_id = (await ada.post("/api/matches", {"game": "c64-maze", "seats": 3})).json()[
                "id"
            ]
            for guest in (bob, cyd):
                await guest.post(f"/api/matches/{match_id}/join", {})
            await ada.post(f"/api/matches/{match_id}/start")
            async with (
                Viewer(first.ws_url, match_id, ada.token) as a,
                Viewer(second.ws_url, match_id, bob.token) as b,
            ):
                await a.until_type("snapshot")
                await b.until_type("snapshot")
                async with Viewer(second.ws_url, match_id, cyd.token) as c:
                    await c.until_type("snapshot")
                for _ in range(200):  # she left the second process; the first sees her away
                    seats = (await client.get(f"/api/matches/{match_id}")).json()["seats"]
                    if seats[2]["away_since"]:
                        break
                    await asyncio.sleep(0.05)
                taken = await ada.post(f"/api/matches/{match_id}/seats/2/stand-in", {})
                assert taken.status_code == 200, taken.text
                told = await b.until_type("seat_change", 10)
                assert told["change"] == "stand_in"
                # C64 set-up asks every seat at once: the computer answers for Cyd.
                await b.until(lambda _f: 2 not in (b.state or {}).get("active_seats", [2]), 30)
                async with Viewer(second.ws_url, match_id, cyd.token) as c:
                    welcome = await c.until_type("welcome_back", 10)
                    assert welcome["moves"] >= 1
                    back = await a.until(
                        lambda f: f["type"] == "seat_change" and f["change"] == "returned", 10
                    )
                    assert back["text"] == "Cyd is back and plays her own seat again."
                seats = (await client.get(f"/api/matches/{match_id}")).json()["seats"]
                assert seats[2]["stand_in"] is None
            log = (await client.get(f"/api/matches/{match_id}/log")).json()
        bot_moves = [m for m in log["moves"] if m["bot"]]
        assert bot_moves and {m["seat"] for m in bot_moves} == {2}
        assert [c["change"] for c in log["seat_changes"]] == ["stand_in", "returned"]
    finally:
        second.stop()
        first.stop()
