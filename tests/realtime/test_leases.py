"""Leases in Redis: one owner at a time, renewal by the owner only, takeover after expiry or
release, and work going on alone while Redis is unreachable."""

from __future__ import annotations

import asyncio
import secrets

from app.realtime.leases import LocalLeases, RedisLeases
from tests.conftest import free_port
from tests.realtime.test_redis_hub import redis_url  # noqa: F401  (the fixture)


async def test_one_owner_until_the_lease_expires_or_is_released(redis_url: str) -> None:  # noqa: F811
    name = f"test:{secrets.token_hex(4)}"
    first, second = RedisLeases(redis_url), RedisLeases(redis_url)
    try:
        assert await first.claim(name, 0.3)
        assert not await second.claim(name, 0.3)
        assert await first.claim(name, 0.3)  # the owner renews
        await first.release(name)
        assert await second.claim(name, 0.2)
        assert not await first.claim(name, 0.2)
        await first.release(name)  # a release by another process changes nothing
        assert not await first.claim(name, 0.2)
        await second.release(name)
        assert await first.claim(name, 0.2)
        await asyncio.sleep(0.3)  # the owner stopped renewing: it has expired
        assert await second.claim(name, 5)
        assert not await first.claim(name, 5)
        await second.release(name)
    finally:
        await first.close()
        await second.close()


async def test_an_unreachable_redis_leaves_every_process_working_alone() -> None:
    leases = RedisLeases(f"redis://127.0.0.1:{free_port()}/0")
    try:
        assert await leases.claim("anything", 5)
        assert await leases.claim("anything", 5)  # answered at once, without asking again
        await leases.release("anything")
    finally:
        await leases.close()


async def test_one_process_owns_everything() -> None:
    leases = LocalLeases()
    assert await leases.claim("x", 1) and await leases.claim("x", 1)
