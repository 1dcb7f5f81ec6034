"""Redis goes away and comes back (issue 19, item 4): no move is lost, moves go on reaching
the players on the same process, and once Redis is back every process catches up without a
restart. Each test runs a Redis of its own on its own port, and stops it."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import redis.asyncio
from sqlalchemy import select

from app.db.models import Move
from app.db.session import make_engine
from app.realtime.hub import Inbox, RedisHub
from app.realtime.leases import make_leases
from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, play_turns, started_match
from tests.realtime.redis_server import OwnRedis

DEADLINE = 60.0  # seconds a process may take to notice Redis is back, on a loaded machine


@pytest.fixture
async def hubs(own_redis: OwnRedis) -> AsyncIterator[tuple[RedisHub, RedisHub]]:
    """Two hubs on the test's Redis, as two processes have."""
    first, second = RedisHub(own_redis.url), RedisHub(own_redis.url)
    await first.start()
    await second.start()
    try:
        yield first, second
    finally:
        await first.stop()
        await second.stop()


async def next_notice(inbox: Inbox, timeout: float = DEADLINE) -> dict[str, Any]:
    return await asyncio.wait_for(inbox.get(), timeout)


async def until_notice(inbox: Inbox, kind: str, timeout: float = DEADLINE) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        notice = await next_notice(inbox, max(0.01, deadline - loop.time()))
        if notice.get("kind") == kind:
            return notice


async def test_the_hub_delivers_here_during_an_outage_and_asks_to_catch_up_after(
    own_redis: OwnRedis, hubs: tuple[RedisHub, RedisHub]
) -> None:
    """Issue 19, item 4: publishing while Redis is away neither raises nor loses the notice
    for this process's own subscribers; the listener comes back by itself and tells every
    subscriber to catch up; notices cross processes again, each delivered once."""
    first, second = hubs
    async with (
        first.subscribe("match:m") as here,
        second.subscribe("match:m") as there,
    ):
        # Up: a notice reaches both processes, and its own process once (not again from Redis).
        await first.publish("match:m", {"kind": "version", "version": 1})
        assert await next_notice(here) == {"kind": "version", "version": 1}
        assert await next_notice(there) == {"kind": "version", "version": 1}
        await second.publish("match:m", {"kind": "version", "version": 2})
        assert await next_notice(there) == {"kind": "version", "version": 2}
        assert await next_notice(here) == {"kind": "version", "version": 2}  # not 1 again

        own_redis.stop()
        for version in range(3, 13):
            await first.publish("match:m", {"kind": "version", "version": version})
            assert await next_notice(here) == {"kind": "version", "version": version}

        own_redis.start()
        assert await until_notice(here, "resync") == {"kind": "resync"}
        assert await until_notice(there, "resync") == {"kind": "resync"}
        assert first.reconnections >= 1 and second.reconnections >= 1
        await asyncio.wait_for(first.connected.wait(), DEADLINE)
        await asyncio.wait_for(second.connected.wait(), DEADLINE)

        # Flowing again, both ways; the notices of the outage never reach the other process
        # (it caught up on "resync" instead).
        await first.publish("match:m", {"kind": "version", "version": 13})
        assert await until_notice(here, "version") == {"kind": "version", "version": 13}
        assert await until_notice(there, "version") == {"kind": "version", "version": 13}
        await second.publish("match:m", {"kind": "version", "version": 14})
        assert await until_notice(there, "version") == {"kind": "version", "version": 14}
        assert await until_notice(here, "version") == {"kind": "version", "version": 14}
        assert here.queue.empty() and there.queue.empty()  # none twice


async def test_a_hung_redis_costs_a_move_one_timeout_not_one_each(
    own_redis: OwnRedis, hubs: tuple[RedisHub, RedisHub]
) -> None:
    """Issue 19, item 4: a Redis that accepts connections and answers nothing (frozen) delays
    the first notice by a timeout at most, and the notices after it not at all: they are
    delivered here at once. Once Redis answers again, the other process catches up."""
    first, second = hubs
    async with first.subscribe("match:m") as here, second.subscribe("match:m") as there:
        own_redis.pause()
        loop = asyncio.get_running_loop()
        began = loop.time()
        for version in range(1, 21):
            await first.publish("match:m", {"kind": "version", "version": version})
            assert await next_notice(here) == {"kind": "version", "version": version}
        # Waiting on Redis for each would take 20 timeouts (20 s); one is a second.
        assert loop.time() - began < 10 * RedisHub.SOCKET_TIMEOUT
        own_redis.resume()

        # (A notice whose call timed out may still arrive late: Redis runs what it had
        # received when it wakes. Harmless: a version a socket has is ignored.)
        heard: list[dict[str, Any]] = []
        deadline = loop.time() + DEADLINE
        while {"kind": "resync"} not in heard:  # Redis is asked again soon after the failure
            assert loop.time() < deadline, "the other process was never asked to catch up"
            version += 1
            await first.publish("match:m", {"kind": "version", "version": version})
            assert await next_notice(here) == {"kind": "version", "version": version}
            while not there.queue.empty():
                heard.append(await there.get())
            await asyncio.sleep(0.05)
        while {"kind": "version", "version": version} not in heard:
            heard.append(await next_notice(there))


async def test_notices_a_process_could_not_publish_make_every_process_catch_up(
    own_redis: OwnRedis,
) -> None:
    """Issue 19, item 4: when only one process's publishes fail (here Redis refuses them; its
    own listener and the other process stay connected), the other process never hears those
    notices: once the publisher gets through again it asks every process to catch up, even
    if it publishes nothing more."""
    admin = redis.asyncio.Redis.from_url(own_redis.url)
    await admin.execute_command("ACL", "SETUSER", "hub", "on", ">secret", "~*", "&*", "+@all")
    publisher = RedisHub(own_redis.url.replace("redis://", "redis://hub:secret@"))
    listener = RedisHub(own_redis.url)
    await publisher.start()
    await listener.start()
    try:
        async with (
            publisher.subscribe("match:m") as here,
            listener.subscribe("match:m") as there,
        ):
            await admin.execute_command("ACL", "SETUSER", "hub", "-publish")
            await publisher.publish("match:m", {"kind": "version", "version": 1})
            assert await next_notice(here) == {"kind": "version", "version": 1}
            await admin.execute_command("ACL", "SETUSER", "hub", "+publish")

            # Though the publisher has nothing more to say, the other process hears soon.
            assert await next_notice(there) == {"kind": "resync"}
            await publisher.publish("match:m", {"kind": "version", "version": 2})
            assert await next_notice(here) == {"kind": "version", "version": 2}
            assert await next_notice(there) == {"kind": "version", "version": 2}
            assert here.queue.empty()  # the publisher missed nothing: no resync for itself
            assert publisher.reconnections == listener.reconnections == 0
    finally:
        await publisher.stop()
        await listener.stop()
        await admin.aclose()


async def test_a_hub_starts_without_redis_and_joins_when_it_comes(
    own_redis: OwnRedis,
) -> None:
    """Issue 19, item 4: a process started while Redis is away serves alone, and is joined to
    the others without a restart when Redis comes."""
    own_redis.stop()
    late = RedisHub(own_redis.url)
    await late.start()
    try:
        async with late.subscribe("match:m") as inbox:
            await late.publish("match:m", {"kind": "lobby"})
            assert await next_notice(inbox) == {"kind": "lobby"}
            own_redis.start()
            assert await until_notice(inbox, "resync") == {"kind": "resync"}
            other = RedisHub(own_redis.url)
            await other.start()
            try:
                await asyncio.wait_for(late.connected.wait(), DEADLINE)
                await other.publish("match:m", {"kind": "chat", "message": {"text": "hi"}})
                assert await until_notice(inbox, "chat") == {
                    "kind": "chat",
                    "message": {"text": "hi"},
                }
            finally:
                await other.stop()
    finally:
        await late.stop()


async def moves_in_database(database_url: str, match_id: str) -> list[tuple[int, str | None]]:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(Move.seq, Move.client_id).where(Move.match_id == match_id).order_by(Move.seq)
            )
            return [(row.seq, row.client_id) for row in rows]
    finally:
        await engine.dispose()


async def until_subscribed(*servers: LiveServer) -> None:
    """Until the hub of each server (in its own thread) listens to Redis again."""
    hubs = [server.server.config.app.state.context.hub for server in servers]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while not all(hub.connected.is_set() for hub in hubs):
        assert loop.time() < deadline, "a hub did not reconnect to Redis"
        await asyncio.sleep(0.05)


async def catch_up(viewer: Viewer, version: int) -> None:
    while viewer.version < version:
        await viewer.recv(DEADLINE)


@pytest.mark.parametrize("outage", ["stopped", "frozen"])
async def test_a_match_on_two_processes_survives_a_redis_outage(
    database_url: str, own_redis: OwnRedis, outage: str
) -> None:
    """Issue 19, item 4: two processes on one database and the test's Redis, a player and a
    watcher on each. Redis stops (or freezes: a hung server, a lost network) mid-match:
    moves are still accepted (acked) and reach the viewers on the mover's process; leases
    still answer. Redis starts again on the same port (or wakes): the viewers of the other
    process catch up without a restart (the versions they missed, as patches or a
    snapshot), moves cross processes again, and the database holds every acknowledged move
    exactly once."""
    first = LiveServer(database_url, redis_url=own_redis.url).start()
    second = LiveServer(database_url, redis_url=own_redis.url, migrate_on_start=False).start()
    acked: dict[str, int] = {}
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob])
        async with (
            Viewer(first.ws_url, match_id, ada.token) as a,
            Viewer(second.ws_url, match_id, bob.token) as b,
            Viewer(first.ws_url, match_id, None) as near,
            Viewer(second.ws_url, match_id, None) as far,
        ):
            everyone = (a, b, near, far)
            for viewer in everyone:
                await viewer.until_type("snapshot", DEADLINE)
            await play_turns([a, b], 2, watchers=(near, far))
            before = a.version

            if outage == "stopped":
                own_redis.stop()
            else:
                own_redis.pause()
            leases = make_leases(own_redis.url)
            try:  # each process goes on alone: every lease is its own
                assert await leases.claim(f"outage-{uuid.uuid4().hex}", 5)
            finally:
                await leases.close()
            # Ada (first process) moves as long as it is her turn: each move is acked and
            # reaches the watcher on her process.
            while a.state is not None and a.state["legal_moves"] and a.version - before < 3:
                move_id = await a.move(a.state["legal_moves"][0])
                ack = await a.until(lambda f: f["type"] in ("ack", "error"), DEADLINE)
                assert ack["type"] == "ack" and ack.get("id") == move_id, ack
                acked[move_id] = ack["version"]
                await catch_up(near, ack["version"])
                assert near.state is not None and a.state is not None
                assert near.state["board"] == a.state["board"]
            if not acked:  # it was Bob's turn (second process): the same on his side
                while b.state is not None and b.state["legal_moves"] and b.version - before < 3:
                    move_id = await b.move(b.state["legal_moves"][0])
                    ack = await b.until(lambda f: f["type"] in ("ack", "error"), DEADLINE)
                    assert ack["type"] == "ack" and ack.get("id") == move_id, ack
                    acked[move_id] = ack["version"]
                    await catch_up(far, ack["version"])
            assert acked, "nobody could move during the outage"
            during = max(acked.values())

            if outage == "stopped":
                own_redis.start()
            else:
                own_redis.resume()
            # Nobody restarts: the viewers behind catch up by themselves.
            for viewer in everyone:
                await catch_up(viewer, during)
            boards = [v.state["board"] for v in everyone if v.state is not None]
            assert len(boards) == 4 and all(board == boards[0] for board in boards)

            # Moves cross processes again, once both listeners are back.
            await until_subscribed(first, second)
            await play_turns([a, b], 4, watchers=(near, far))
            final = a.version
            assert {v.version for v in everyone} == {final}
            boards = [v.state["board"] for v in everyone if v.state is not None]
            assert all(board == boards[0] for board in boards)
    finally:
        await asyncio.to_thread(second.stop)
        await asyncio.to_thread(first.stop)

    logged = await moves_in_database(database_url, match_id)
    assert [seq for seq, _ in logged] == list(range(1, final + 1))  # every version once
    ids = [client_id for _, client_id in logged]
    for move_id, version in acked.items():
        assert ids.count(move_id) == 1 and logged[version - 1][1] == move_id
