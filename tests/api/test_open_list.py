"""The open-lobby list, polled every 3 s by every lobby page: paged in SQL through an index,
with a count that stops at a cap, so a poll costs the same among 3 or 3,000 lobbies."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import event

from app.db.migrate import upgrade_to_head
from app.db.session import make_engine, make_sessionmaker
from app.services import matches as lobby
from app.services.players import create_player
from tests.conftest import LiveServer
from tests.helpers import Guest

PUBLIC_LOBBIES = 7


async def _open_tables(client: httpx.AsyncClient) -> tuple[list[str], str]:
    """Seven public open lobbies (oldest first), one private one, one started match."""
    hosts = [await Guest(client, f"Host {i}").create() for i in range(3)]
    made = []
    for i in range(PUBLIC_LOBBIES):
        created = await hosts[i % 3].post("/api/matches", {"game": "c64-maze", "seats": 2})
        made.append(created.json()["id"])
    private = await hosts[0].post("/api/matches", {"game": "c64-maze", "seats": 2, "private": True})
    started = (await hosts[1].post("/api/matches", {"game": "c64-maze", "seats": 2})).json()["id"]
    await hosts[2].post(f"/api/matches/{started}/join", {})
    await hosts[1].post(f"/api/matches/{started}/start")
    return made, private.json()["id"]


async def test_the_open_list_pages_newest_first_with_a_cursor(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        made, private = await _open_tables(client)
        seen: list[str] = []
        pages: list[dict[str, Any]] = []
        query: dict[str, Any] = {"status": "open", "limit": 3}
        for _ in range(PUBLIC_LOBBIES):  # a cursor that does not move on would loop forever
            page = (await client.get("/api/matches", params=query)).json()
            pages.append(page)
            seen += [m["id"] for m in page["matches"]]
            if page["next"] is None:
                break
            query["after"] = page["next"]
        whole = (await client.get("/api/matches", params={"status": "open"})).json()
        assert seen == [m["id"] for m in whole["matches"]]  # the same order, none twice
        assert sorted(seen) == sorted(made)  # and no private lobby
        times = [m["created_at"] for m in whole["matches"]]
        assert times == sorted(times, reverse=True)
        assert [len(p["matches"]) for p in pages] == [3, 3, 1]
        assert {p["count"] for p in pages} == {PUBLIC_LOBBIES}
        assert not any(p["count_capped"] for p in pages)

        gone = await client.get("/api/matches", params={"status": "open", "after": "nosuchid"})
        assert gone.status_code == 400 and gone.json()["code"] == "bad_request"


async def test_the_count_stops_at_its_cap(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}", list_count_cap=5).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            await _open_tables(client)
            page = (await client.get("/api/matches", params={"status": "open", "limit": 2})).json()
            assert page["count"] == 5 and page["count_capped"] is True
            assert len(page["matches"]) == 2
    finally:
        server.stop()


async def test_a_page_of_open_lobbies_is_read_through_the_index(tmp_path: Path) -> None:
    """SQLite's plan for each statement of a poll: searched by the index on (status, private,
    created_at, id), in its order (no sort of every open lobby), for any page."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}"
    await asyncio.to_thread(upgrade_to_head, url)
    engine = make_engine(url)
    statements: list[tuple[str, Any]] = []

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def _record(_conn, _cursor, statement, parameters, _context, _many):  # type: ignore[no-untyped-def]
        if "FROM matches" in statement and "status" in statement:
            statements.append((statement, parameters))

    try:
        async with make_sessionmaker(engine)() as session:
            host, _token = await create_player(session, name="Host")
            made = await lobby.create_match(
                session, host=host, game_id="c64-maze", options={}, seats=2
            )
            await session.commit()
            statements.clear()
            for after in (None, made.id):
                await lobby.list_matches(
                    session,
                    status="open",
                    game=None,
                    player_id=None,
                    limit=50,
                    after=after,
                    touched_since=datetime.now(UTC) - timedelta(minutes=30),  # as the route
                )
        event.remove(engine.sync_engine, "before_cursor_execute", _record)
        assert statements
        seeks = 0
        async with engine.connect() as conn:
            for statement, parameters in statements:
                plan = await conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
                steps = [row[-1] for row in plan]
                assert not any("TEMP B-TREE" in s for s in steps), (statement, steps)
                # The cursor's own row is found by its id; the page by the index, from the
                # cursor on (a seek, not a filter over the lobbies before it).
                scans = [s for s in steps if "matches" in s and "(id=?)" not in s]
                index = "ix_matches_status_private_created_at_id (status=? AND private=?"
                assert scans and all(index in s for s in scans), (statement, steps)
                if ") < (" in statement:  # the page after a cursor
                    assert all("(created_at,id)<(?,?)" in s for s in scans), steps
                    seeks += 1
        assert seeks == 1
    finally:
        await engine.dispose()
