"""Rate limits shared by every process through Redis, and what they do while Redis is away
(issue 19, items 1 and 4). Two servers on one database and a Redis of the test's own."""

from __future__ import annotations

import asyncio

import httpx

from tests.api.test_rate_limits import assert_rate_limited
from tests.conftest import LiveServer
from tests.realtime.redis_server import OwnRedis

DEADLINE = 60.0  # seconds a process may take to use Redis again, on a loaded machine
LIMIT = 3


async def make_guest(client: httpx.AsyncClient) -> httpx.Response:
    return await client.post("/api/players", json={"name": "Guest"})


async def until_made_in_redis(client: httpx.AsyncClient) -> None:
    """Asks for a guest until one is made: refused while the process counts in memory (its
    count there is full), made once it counts in Redis again."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while True:
        answer = await make_guest(client)
        assert answer.status_code in (201, 429), answer.text
        if answer.status_code == 201:
            return
        assert loop.time() < deadline, "the limits never went back to Redis"
        await asyncio.sleep(0.1)


async def test_two_processes_spend_one_limit_and_count_alone_while_redis_is_away(
    database_url: str, own_redis: OwnRedis
) -> None:
    """Issue 19, item 1: a limit of N a minute is spent across both processes. Item 4: while
    Redis is away every request is answered normally (no 500), each process counting alone;
    once Redis is back they share the counts again, without a restart."""
    shared = {"redis_url": own_redis.url, "guests_per_address": f"{LIMIT}/minute"}
    first = LiveServer(database_url, real_limits=True, **shared).start()
    second = LiveServer(database_url, real_limits=True, migrate_on_start=False, **shared).start()
    try:
        async with (
            httpx.AsyncClient(base_url=first.url, timeout=30) as a,
            httpx.AsyncClient(base_url=second.url, timeout=30) as b,
        ):
            # Shared: three guests in all, whichever process makes them.
            for client in (a, b, a):
                made = await make_guest(client)
                assert made.status_code == 201, made.text
            assert_rate_limited(await make_guest(b))
            assert_rate_limited(await make_guest(a))

            # Away: each process counts in its own memory, from nothing.
            own_redis.stop()
            for client in (a, b):
                for _ in range(LIMIT):
                    made = await make_guest(client)
                    assert made.status_code == 201, made.text
                assert_rate_limited(await make_guest(client))

            # Back (empty, as a Redis restarted without persistence is): each process counts
            # in Redis again, which its full count in memory would refuse.
            own_redis.start()
            for client in (a, b):
                await until_made_in_redis(client)
            # Two of three spent in Redis, one by each: one more in all.
            made = await make_guest(a)
            assert made.status_code == 201, made.text
            assert_rate_limited(await make_guest(b))
            assert_rate_limited(await make_guest(a))
    finally:
        await asyncio.to_thread(second.stop)
        await asyncio.to_thread(first.stop)
