"""Every door has a limit (issue 13, finding 8): the real defaults, per client address and per
player, answered `rate_limited` with when to retry, over HTTP and the socket; shared between
servers through Redis."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from tests.conftest import LiveServer
from tests.helpers import Guest, Viewer

REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULTS = Settings()


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[LiveServer]:
    """A server with the limits a real deployment has."""
    live = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}", real_limits=True).start()
    try:
        yield live
    finally:
        live.stop()


def from_address(server: LiveServer, address: str) -> httpx.AsyncClient:
    """A client whose connections come from another loopback address (another person).
    Connections are not kept alive: on a loaded machine the server's keep-alive timeout could
    close a pooled connection just as the client reused it (httpx.ReadError)."""
    transport = httpx.AsyncHTTPTransport(
        local_address=address, limits=httpx.Limits(max_keepalive_connections=0)
    )
    return httpx.AsyncClient(base_url=server.url, transport=transport, timeout=30)


def first_count(rule: str) -> int:
    return int(rule.split(";")[0].split("/")[0])


def assert_rate_limited(response: httpx.Response, window_seconds: int = 60) -> dict[str, Any]:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["code"] == "rate_limited"
    assert isinstance(body["retry_after"], int) and 1 <= body["retry_after"] <= window_seconds
    assert response.headers["Retry-After"] == str(body["retry_after"])
    assert f"Try again in {body['retry_after']} second" in body["message"]
    return body


async def test_guest_creation_is_limited_per_address(limited: LiveServer) -> None:
    allowed = first_count(DEFAULTS.guests_per_address)
    async with from_address(limited, "127.0.0.1") as client:
        for i in range(allowed):
            created = await client.post("/api/players", json={"name": f"Guest {i}"})
            assert created.status_code == 201, created.text
        assert_rate_limited(await client.post("/api/players", json={"name": "One more"}))
    async with from_address(limited, "127.0.0.2") as neighbour:
        created = await neighbour.post("/api/players", json={"name": "Next door"})
        assert created.status_code == 201, created.text


async def test_lobbies_have_a_cap_per_host_and_limits_per_player_and_address(
    limited: LiveServer,
) -> None:
    cap = DEFAULTS.max_open_lobbies_per_player
    per_player = first_count(DEFAULTS.lobbies_per_player)
    per_address = first_count(DEFAULTS.lobbies_per_address)
    assert cap < per_player < per_address
    table = {"game": "c64-maze", "seats": 2}
    async with from_address(limited, "127.0.0.1") as client:
        ann = await Guest(client, "Ann").create()
        opened = [await ann.post("/api/matches", table) for _ in range(cap)]
        assert {r.status_code for r in opened} == {201}
        capped = await ann.post("/api/matches", table)
        assert capped.status_code == 409 and capped.json()["code"] == "conflict"
        assert capped.json()["message"] == (
            f"You already host {cap} open tables: start one or leave one before opening another."
        )
        # Under the cap again, but past the number of tables a player may open a minute.
        await ann.post(f"/api/matches/{opened[0].json()['id']}/leave")
        made = cap + 1
        while made < per_player:
            await ann.post(f"/api/matches/{opened[made - cap].json()['id']}/leave")
            assert (await ann.post("/api/matches", table)).status_code == 201
            made += 1
        assert_rate_limited(await ann.post("/api/matches", table))

        # Per player: others at the same address still open tables, up to the address's limit.
        from_here = per_player
        while from_here < per_address:
            host = await Guest(client, f"Host {from_here}").create()
            for _ in range(min(cap, per_address - from_here)):
                assert (await host.post("/api/matches", table)).status_code == 201
                from_here += 1
        late = await Guest(client, "Late").create()
        assert_rate_limited(await late.post("/api/matches", table))
    async with from_address(limited, "127.0.0.2") as neighbour:
        elsewhere = await Guest(neighbour, "Elsewhere").create()
        assert (await elsewhere.post("/api/matches", table)).status_code == 201


async def test_lobby_writes_are_limited_to_a_human_rate(limited: LiveServer) -> None:
    allowed = first_count(DEFAULTS.lobby_writes_per_player)
    async with httpx.AsyncClient(base_url=limited.url, timeout=30) as client:
        host = await Guest(client, "Host").create()
        bob = await Guest(client, "Bob").create()
        match_id = (await host.post("/api/matches", {"game": "c64-maze", "seats": 4})).json()["id"]
        for i in range(allowed):
            door = "join" if i % 2 == 0 else "leave"
            answer = await bob.post(
                f"/api/matches/{match_id}/{door}", {} if door == "join" else None
            )
            assert answer.status_code == 200, answer.text
        assert_rate_limited(await bob.post(f"/api/matches/{match_id}/join", {}))
        # Another player's writes are not held up by Bob's.
        assert (await host.post(f"/api/matches/{match_id}/join", {"seat": 0})).status_code == 200


async def test_moves_over_http_are_limited_per_player(tmp_path: Path) -> None:
    server = LiveServer(
        f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}",
        real_limits=True,
        http_moves_per_player="3/minute",
    ).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            ann, bob = await Guest(client, "Ann").create(), await Guest(client, "Bob").create()
            created = await ann.post("/api/matches", {"game": "c64-maze", "seats": 2})
            match_id = created.json()["id"]
            await bob.post(f"/api/matches/{match_id}/join", {})
            await ann.post(f"/api/matches/{match_id}/start")
            for i in range(3):  # refused moves count too: each costs the server a look
                tried = await bob.post(
                    f"/api/matches/{match_id}/moves", {"id": f"m{i}", "move": {"type": "nope"}}
                )
                assert tried.status_code == 400, tried.text
            assert_rate_limited(
                await bob.post(
                    f"/api/matches/{match_id}/moves", {"id": "m9", "move": {"type": "nope"}}
                )
            )
    finally:
        server.stop()


async def test_record_reads_are_limited_per_address(limited: LiveServer) -> None:
    allowed = first_count(DEFAULTS.record_reads_per_address)
    async with from_address(limited, "127.0.0.1") as client:
        host = await Guest(client, "Host").create()
        match_id = (await host.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()["id"]
        reads = [f"/api/matches/{match_id}/log", f"/api/matches/{match_id}/replay/frames"]
        for i in range(allowed):
            answer = await client.get(reads[i % 2])
            assert answer.status_code in (200, 409), answer.text
        assert_rate_limited(await client.get(f"/api/matches/{match_id}/replay"))
        # Lobby pages and the open list are not record reads.
        assert (await client.get(f"/api/matches/{match_id}")).status_code == 200
    async with from_address(limited, "127.0.0.2") as neighbour:
        assert (await neighbour.get(f"/api/matches/{match_id}/log")).status_code == 200


async def _answers(viewer: Viewer, count: int, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    """The next `count` frames of the given kinds (other frames are skipped)."""
    frames = [await viewer.until(lambda f: f["type"] in kinds, timeout=15) for _ in range(count)]
    return frames


async def test_socket_sync_is_limited_per_connection_and_per_player(limited: LiveServer) -> None:
    per_connection = first_count(DEFAULTS.syncs_per_connection)
    per_player = first_count(DEFAULTS.syncs_per_player)
    connections = per_player // per_connection
    assert connections * per_connection == per_player
    async with httpx.AsyncClient(base_url=limited.url, timeout=30) as client:
        ann = await Guest(client, "Ann").create()
        match_id = (await ann.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()["id"]
    for _ in range(connections):
        async with Viewer(limited.ws_url, match_id, ann.token) as socket:
            await socket.until_type("presence", timeout=15)
            for _ in range(per_connection + 1):
                await socket.send({"type": "sync"})
            answers = await _answers(socket, per_connection + 1, ("lobby", "error"))
            assert [a["type"] for a in answers] == ["lobby"] * per_connection + ["error"]
            assert answers[-1]["code"] == "rate_limited"
            assert 1 <= answers[-1]["retry_after"] <= 60
    # The player's own limit holds across her connections: a new one is refused at once.
    async with Viewer(limited.ws_url, match_id, ann.token) as socket:
        await socket.until_type("presence", timeout=15)
        await socket.send({"type": "sync"})
        refused = await socket.until_type("error", timeout=15)
        assert refused["code"] == "rate_limited" and refused["retry_after"] >= 1
        # The refusal changes nothing else: chat still works on this connection.
        await socket.send({"type": "chat", "text": "still here"})
        assert (await socket.until_type("chat", timeout=15))["text"] == "still here"


async def test_chat_is_limited_per_player_not_per_socket(limited: LiveServer) -> None:
    allowed = first_count(DEFAULTS.chat_per_player)
    half = allowed // 2
    async with httpx.AsyncClient(base_url=limited.url, timeout=30) as client:
        ann, bob = await Guest(client, "Ann").create(), await Guest(client, "Bob").create()
        match_id = (await ann.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()["id"]
    async with (
        Viewer(limited.ws_url, match_id, ann.token) as first,
        Viewer(limited.ws_url, match_id, ann.token) as second,
        Viewer(limited.ws_url, match_id, bob.token) as other,
    ):
        for socket in (first, second, other):
            await socket.until_type("presence", timeout=15)
        for i in range(half):
            await first.send({"type": "chat", "text": f"first {i}"})
        echoed = await _answers(first, half, ("chat", "error"))
        assert [f["type"] for f in echoed] == ["chat"] * half
        for i in range(allowed - half + 1):
            await second.send({"type": "chat", "text": f"second {i}", "id": f"c{i}"})
        said = [
            f
            for f in await _answers(second, allowed + 1, ("chat", "error"))
            if f["type"] == "error" or f["name"] == "Ann"
        ]
        refused = [f for f in said if f["type"] == "error"]
        assert len(refused) == 1 and refused[0]["code"] == "rate_limited"
        assert 1 <= refused[0]["retry_after"] <= 60
        assert refused[0]["id"] == f"c{allowed - half}"  # the client keeps the refused text
        assert len([f for f in said if f["type"] == "chat"]) == allowed
        # Bob is another player: his chat goes through.
        await other.send({"type": "chat", "text": "hello Ann"})
        heard = await first.until(lambda f: f["type"] == "chat" and f["name"] == "Bob", 15)
        assert heard["text"] == "hello Ann"


async def test_servers_sharing_redis_share_the_limits(tmp_path: Path) -> None:
    shared = {
        "redis_url": REDIS_URL,
        "rate_limit_key_prefix": f"arcade-test-{secrets.token_hex(6)}",
        "guests_per_address": "3/minute",
    }
    url = f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}"
    first = LiveServer(url, real_limits=True, **shared).start()
    second = LiveServer(url, real_limits=True, **shared).start()
    try:
        async with (
            httpx.AsyncClient(base_url=first.url, timeout=30) as a,
            httpx.AsyncClient(base_url=second.url, timeout=30) as b,
        ):
            for client in (a, b, a):
                made = await client.post("/api/players", json={"name": "Guest"})
                assert made.status_code == 201, made.text
            assert_rate_limited(await b.post("/api/players", json={"name": "Guest"}))
            assert_rate_limited(await a.post("/api/players", json={"name": "Guest"}))
    finally:
        await asyncio.to_thread(first.stop)
        await asyncio.to_thread(second.stop)


async def test_list_reads_are_limited_per_address(limited: LiveServer) -> None:
    allowed = first_count(DEFAULTS.list_reads_per_address)
    async with from_address(limited, "127.0.0.1") as client:
        for _ in range(allowed // 50):
            answers = await asyncio.gather(
                *(client.get("/api/matches", params={"status": "open"}) for _ in range(50))
            )
            assert {a.status_code for a in answers} == {200}
        assert_rate_limited(await client.get("/api/matches", params={"status": "open"}))
    async with from_address(limited, "127.0.0.2") as neighbour:
        assert (await neighbour.get("/api/matches", params={"status": "open"})).status_code == 200


async def test_limits_count_here_when_their_redis_is_out_of_reach() -> None:
    """Issue 19, item 4: with the shared counts out of reach a door is neither an error nor
    left open; this process counts alone."""
    from app.services.rate_limits import RateLimits

    unreachable = Settings(redis_url="redis://127.0.0.1:1/0", guests_per_address="1/minute")
    limits = RateLimits(unreachable)
    try:
        assert await limits.refusal("1/minute", "guests", "127.0.0.1", "Slow down.") is None
        for _ in range(2):
            refused = await limits.refusal("1/minute", "guests", "127.0.0.1", "Slow down.")
            assert refused is not None and refused.retry_after >= 1
        assert await limits.refusal("1/minute", "guests", "127.0.0.2", "Slow down.") is None
    finally:
        await limits.close()


async def test_verifications_are_limited_per_address(limited: LiveServer) -> None:
    allowed = first_count(DEFAULTS.verifications_per_address)
    async with from_address(limited, "127.0.0.1") as client:
        for _ in range(allowed):
            answer = await client.post("/api/replays/verify", json={"game": "c64-maze"})
            assert answer.status_code != 429, answer.text
        assert_rate_limited(await client.post("/api/replays/verify", json={"game": "c64-maze"}))
    async with from_address(limited, "127.0.0.2") as neighbour:
        answer = await neighbour.post("/api/replays/verify", json={"game": "c64-maze"})
        assert answer.status_code != 429, answer.text
