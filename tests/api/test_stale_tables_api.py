"""Stale tables over HTTP and the WebSocket (issue 14, item 11): an open lobby says when it
closes, an expired one leaves the list and its page hears that it closed; matches in
progress say when their last move was and whether they are idle."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import update

from app.db.models import Match
from app.db.session import make_engine
from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, started_match, update_match_row


async def _untouched_for(database_url: str, match_id: str, ago: timedelta) -> None:
    await update_match_row(database_url, match_id, last_activity_at=datetime.now(UTC) - ago)


async def test_open_lobbies_say_when_they_close_and_expired_ones_are_not_listed(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        ann, bob = await guests(client, "Ann", "Bob")
        stale = (await ann.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
        fresh = (await bob.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
        touched = datetime.fromisoformat(fresh["last_activity_at"])
        assert datetime.fromisoformat(fresh["expires_at"]) == touched + timedelta(minutes=30)
        assert fresh["idle"] is False and fresh["abandoned_reason"] is None

        await _untouched_for(server.database_url, stale["id"], timedelta(minutes=31))
        listed = (await client.get("/api/matches", params={"status": "open"})).json()
        assert [m["id"] for m in listed["matches"]] == [fresh["id"]]
        assert listed["count"] == 1
        assert listed["matches"][0]["expires_at"] == fresh["expires_at"]

        # Joining is activity: the lobby's closing time moves on.
        joined = (await ann.post(f"/api/matches/{fresh['id']}/join", {})).json()
        assert joined["expires_at"] > fresh["expires_at"]

        # So is the host's "keep it open"; nobody else may say it for her.
        await _untouched_for(server.database_url, fresh["id"], timedelta(minutes=20))
        refused = await ann.post(f"/api/matches/{fresh['id']}/keep-open")
        assert refused.status_code == 403
        kept = await bob.post(f"/api/matches/{fresh['id']}/keep-open")
        assert kept.status_code == 200, kept.text
        assert kept.json()["expires_at"] > joined["expires_at"]


async def test_the_sweeper_closes_an_expired_lobby_and_tells_its_page(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}"
    server = LiveServer(url, lobby_sweep_seconds=0.05).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            (ann,) = await guests(client, "Ann")
            made = (await ann.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
            async with Viewer(server.ws_url, made["id"], ann.token) as page:
                await _untouched_for(url, made["id"], timedelta(minutes=31))
                told = await page.until(
                    lambda f: f["type"] == "lobby" and f["match"]["status"] == "abandoned",
                    timeout=15,
                )
            assert told["match"]["abandoned_reason"] == "expired"
            read = (await client.get(f"/api/matches/{made['id']}")).json()
            assert read["status"] == "abandoned" and read["abandoned_reason"] == "expired"
            assert read["expires_at"] is None and read["finished_at"] is not None
            joining = await ann.post(f"/api/matches/{made['id']}/join", {})
            assert joining.status_code == 409
    finally:
        server.stop()


async def test_matches_in_progress_are_listed_with_their_last_move_and_idleness(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}"
    server = LiveServer(url, idle_match_minutes=45).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            players = await guests(client, "Ann", "Bob")
            busy = await started_match(client, players)
            quiet = await started_match(client, players)
            engine = make_engine(url)
            async with engine.begin() as conn:
                await conn.execute(
                    update(Match)
                    .where(Match.id == quiet)
                    .values(started_at=datetime.now(UTC) - timedelta(minutes=46))
                )
            await engine.dispose()
            listed = (await client.get("/api/matches", params={"status": "active"})).json()
            found = {m["id"]: m for m in listed["matches"]}
            assert found[busy]["idle"] is False and found[quiet]["idle"] is True
            assert found[busy]["expires_at"] is None
            started = datetime.fromisoformat(found[quiet]["started_at"])
            assert datetime.fromisoformat(found[quiet]["last_activity_at"]) == started
    finally:
        server.stop()
