"""Two server processes behind one database and Redis serve the same match.

A move made through server A reaches a viewer connected to server B as a patch, because the
hub fans the notice out over Redis pub/sub and B catches up from the database.
"""

from __future__ import annotations

import asyncio
import os
import uuid

import httpx
import pytest
import redis

from app.realtime.hub import RedisHub
from tests.conftest import IN_CI, LiveServer
from tests.helpers import Viewer, guests, play_turns, started_match

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_url() -> str:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        if IN_CI:
            pytest.fail(f"Redis at {REDIS_URL} is needed in CI: {exc}")
        pytest.skip(f"no Redis at {REDIS_URL}")
    return REDIS_URL


async def test_a_move_on_one_process_reaches_a_viewer_on_another(
    database_url: str, redis_url: str
) -> None:
    first = LiveServer(database_url, redis_url=redis_url).start()
    second = LiveServer(database_url, redis_url=redis_url, migrate_on_start=False).start()
    try:
        async with httpx.AsyncClient(base_url=first.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob])
        async with (
            Viewer(first.ws_url, match_id, ada.token) as a,
            Viewer(second.ws_url, match_id, bob.token) as b,
            Viewer(second.ws_url, match_id, None) as watcher,
        ):
            for viewer in (a, b, watcher):
                await viewer.until_type("snapshot")
            await play_turns([a, b], 6, watchers=(watcher,))
            assert a.state["board"] == b.state["board"] == watcher.state["board"]
            assert watcher.version == 6
    finally:
        second.stop()
        first.stop()


async def test_a_notice_reaches_its_own_process_once(redis_url: str) -> None:
    """Issue 19, item 4: a notice is delivered to its own process directly (so it works while
    Redis is away) and skipped when Redis sends it back; the other process gets it once."""
    channel = f"match:{uuid.uuid4().hex}"  # the machine's Redis is shared: a channel of our own
    first, second = RedisHub(redis_url), RedisHub(redis_url)
    await first.start()
    await second.start()
    try:
        async with first.subscribe(channel) as here, second.subscribe(channel) as there:
            await first.publish(channel, {"kind": "version", "version": 1})
            assert here.queue.qsize() == 1  # in the publisher's call, before Redis
            await second.publish(channel, {"kind": "version", "version": 2})
            notices = [await asyncio.wait_for(here.get(), 30) for _ in range(2)]
            assert notices == [
                {"kind": "version", "version": 1},
                {"kind": "version", "version": 2},  # and not version 1 again, from Redis
            ]
            notices = [await asyncio.wait_for(there.get(), 30) for _ in range(2)]
            assert sorted(notice["version"] for notice in notices) == [1, 2]
    finally:
        await first.stop()
        await second.stop()
