from __future__ import annotations

import httpx

from tests.conftest import LiveServer
from tests.helpers import guests, started_match


async def test_lobby_open_join_leave_start(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, cy = await guests(client, "Ada", "Bob", "Cy")
        created = await ada.post("/api/matches", {"game": "c64-maze", "seats": 3})
        assert created.status_code == 201
        match = created.json()
        assert match["status"] == "open" and match["host"] == ada.id
        assert [s["player_id"] for s in match["seats"]] == [ada.id, None, None]
        assert "view" not in match

        listed = (await client.get("/api/matches", params={"status": "open"})).json()
        assert match["id"] in [m["id"] for m in listed["matches"]]

        joined = (await bob.post(f"/api/matches/{match['id']}/join", {"seat": 2})).json()
        assert joined["seats"][2]["name"] == "Bob"
        taken = await cy.post(f"/api/matches/{match['id']}/join", {"seat": 2})
        assert taken.status_code == 409 and "taken" in taken.json()["message"]
        left = (await bob.post(f"/api/matches/{match['id']}/leave")).json()
        assert left["seats"][2]["player_id"] is None

        not_host = await bob.post(f"/api/matches/{match['id']}/start")
        assert not_host.status_code == 403 and not_host.json()["code"] == "forbidden"
        too_few = await ada.post(f"/api/matches/{match['id']}/start")
        assert too_few.status_code == 409 and "needs 2 to 4" in too_few.json()["message"]

        await cy.post(f"/api/matches/{match['id']}/join", {})
        started = (await ada.post(f"/api/matches/{match['id']}/start")).json()
        assert started["status"] == "active"
        assert [s["name"] for s in started["seats"]] == ["Ada", "Cy"]  # empty seats close up
        assert started["view"]["you"] == 0 and started["view"]["game"] == "c64-maze"
        assert len(started["seed_commitment"]) == 64

        late = await bob.post(f"/api/matches/{match['id']}/join", {})
        assert late.status_code == 409 and late.json()["code"] == "match_not_active"


async def test_join_full_match_is_refused(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, cy = await guests(client, "Ada", "Bob", "Cy")
        match = (await ada.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
        await bob.post(f"/api/matches/{match['id']}/join")
        full = await cy.post(f"/api/matches/{match['id']}/join")
        assert full.status_code == 409 and full.json()["message"] == "This match is full."


async def test_create_match_validates_game_and_seats(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        (ada,) = await guests(client, "Ada")
        unknown = await ada.post("/api/matches", {"game": "chess"})
        assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
        crowded = await ada.post("/api/matches", {"game": "c64-maze", "seats": 5})
        assert crowded.status_code == 400 and "2 to 4" in crowded.json()["message"]
        anonymous = await client.post("/api/matches", json={"game": "c64-maze"})
        assert anonymous.status_code == 401


async def test_moves_over_http_follow_the_same_rules(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, eve = await guests(client, "Ada", "Bob", "Eve")
        match_id = await started_match(client, [ada, bob])
        view = (await ada.get(f"/api/matches/{match_id}")).json()["view"]
        move = view["legal_moves"][0]

        bad_schema = await ada.post(
            f"/api/matches/{match_id}/moves", {"move": {"type": "teleport"}}
        )
        assert bad_schema.status_code == 400 and bad_schema.json()["code"] == "bad_request"
        stranger = await eve.post(f"/api/matches/{match_id}/moves", {"move": move})
        assert stranger.status_code == 403 and stranger.json()["code"] == "forbidden"
        forged = await client.post(
            f"/api/matches/{match_id}/moves",
            json={"move": move},
            headers={"Authorization": "Bearer forged"},
        )
        assert forged.status_code == 401

        accepted = await ada.post(f"/api/matches/{match_id}/moves", {"move": move, "id": "m1"})
        assert accepted.status_code == 200 and accepted.json() == {"version": 1}
        again = await ada.post(f"/api/matches/{match_id}/moves", {"move": move, "id": "m1"})
        assert again.json() == {"version": 1}, "the same id is not applied twice"

        repeat = await ada.post(f"/api/matches/{match_id}/moves", {"move": move})
        assert repeat.status_code == 409
        assert repeat.json()["code"] in {"not_your_turn", "illegal_move"}
        log = (await bob.get(f"/api/matches/{match_id}/log")).json()["moves"]
        assert [(e["seq"], e["seat"], e["move"]) for e in log] == [(1, 0, move)]
        assert all(ev["text"] for ev in log[0]["events"])
        summary = (await client.get(f"/api/matches/{match_id}")).json()
        assert summary["version"] == 1 and summary["view"]["you"] is None
        assert summary["view"]["legal_moves"] == []


async def test_timestamps_carry_their_utc_offset(server: LiveServer) -> None:
    """Browsers read an ISO time without an offset as local time: every one we send says UTC
    (SQLite gives the database's times back without one)."""
    from datetime import datetime

    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
        summary = (await ada.get(f"/api/matches/{match_id}")).json()
        listed = (await client.get("/api/matches")).json()["matches"][0]
    for stamp in (summary["created_at"], summary["started_at"], listed["created_at"]):
        assert datetime.fromisoformat(stamp).utcoffset() is not None, stamp
