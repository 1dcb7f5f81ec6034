"""Simultaneous joins: a player told "200, seated" is seated, and no seat is taken twice, on
SQLite (where FOR UPDATE locks nothing) as on PostgreSQL."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import LiveServer
from tests.helpers import Guest, finished_match_in_db

TRIALS = 10
JOINERS = 10
SEATS = 6  # Crossing seats up to six: five free seats for ten players


async def test_simultaneous_joins_seat_every_player_told_so(server: LiveServer) -> None:
    limits = httpx.Limits(max_connections=JOINERS + 2)
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=60) as client:
        host = await Guest(client, "Host").create()
        joiners = [await Guest(client, f"Racer {i}").create() for i in range(JOINERS)]
        for trial in range(TRIALS):
            created = await host.post("/api/matches", {"game": "tactrics-crossing", "seats": SEATS})
            assert created.status_code == 201, created.text
            match_id = created.json()["id"]

            answers = await asyncio.gather(
                *(g.post(f"/api/matches/{match_id}/join", {}) for g in joiners)
            )

            seated = (await client.get(f"/api/matches/{match_id}")).json()["seats"]
            holders = [s["player_id"] for s in seated if s["player_id"] is not None]
            assert len(holders) == len(set(holders)), f"trial {trial}: a seat taken twice"
            told_seated = {
                g.id for g, a in zip(joiners, answers, strict=True) if a.status_code == 200
            }
            refused = [a for a in answers if a.status_code != 200]
            assert told_seated <= set(holders), (
                f"trial {trial}: told 200 but not seated: {told_seated - set(holders)}"
            )
            assert set(holders) == {host.id} | told_seated
            assert len(told_seated) == SEATS - 1, f"trial {trial}: {len(told_seated)} seated"
            for answer in refused:
                assert answer.status_code == 409, answer.text
                assert answer.json()["code"] == "conflict"
                assert answer.json()["message"] == "This match is full."
            # The host closes the table before the next trial (the open-lobby cap).
            await host.post(f"/api/matches/{match_id}/leave")


async def test_players_asking_for_a_rematch_at_once_share_one_new_lobby(
    database_url: str,
) -> None:
    done = await finished_match_in_db(database_url)
    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            answers = await asyncio.gather(
                *(
                    client.post(
                        f"/api/matches/{done['id']}/rematch",
                        headers={"Authorization": f"Bearer {done['tokens'][i % 2]}"},
                    )
                    for i in range(8)
                )
            )
            assert {a.status_code for a in answers} == {200}, [a.text for a in answers]
            assert len({a.json()["id"] for a in answers}) == 1
            listed = await client.get(
                "/api/matches?status=open&mine=true",
                headers={"Authorization": f"Bearer {done['tokens'][0]}"},
            )
            assert listed.json()["count"] == 1
    finally:
        server.stop()
