from __future__ import annotations

import hashlib

import httpx
from sqlalchemy import select

from app.db.models import Player
from app.db.session import make_engine
from tests.conftest import LiveServer


async def test_guest_gets_a_token_and_only_its_hash_is_stored(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post("/api/players", json={"name": "  Ada   Lovelace "})
        assert created.status_code == 201
        body = created.json()
        assert body["name"] == "Ada Lovelace" and len(body["token"]) >= 32
        me = await client.get(
            "/api/players/me", headers={"Authorization": f"Bearer {body['token']}"}
        )
        assert me.json() == {"id": body["id"], "name": "Ada Lovelace"}

    engine = make_engine(server.database_url)
    async with engine.connect() as conn:
        row = (await conn.execute(select(Player).where(Player.id == body["id"]))).one()
    await engine.dispose()
    assert row.token_hash == hashlib.sha256(body["token"].encode()).hexdigest()
    assert body["token"] not in row.token_hash


async def test_bad_names_and_unknown_tokens_are_refused_with_reasons(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        empty = await client.post("/api/players", json={"name": ""})
        assert empty.status_code == 400 and empty.json()["code"] == "bad_request"
        garbage = await client.post(
            "/api/players", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert garbage.status_code == 400 and garbage.json()["message"]
        stranger = await client.get("/api/players/me", headers={"Authorization": "Bearer nope"})
        assert stranger.status_code == 401 and stranger.json()["code"] == "unauthorized"
        missing = await client.get("/api/players/me")
        assert missing.status_code == 401


async def test_game_list_has_options_as_json_schema(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        games = (await client.get("/api/games")).json()
    maze = next(g for g in games if g["id"] == "c64-maze")
    assert maze["title"] == "C64 Maze" and (maze["min_players"], maze["max_players"]) == (2, 4)
    assert maze["options_schema"]["type"] == "object"


async def test_openapi_docs_are_served(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        docs = await client.get("/docs")
        spec = (await client.get("/openapi.json")).json()
    assert docs.status_code == 200
    assert "/api/matches/{match_id}/moves" in spec["paths"]
