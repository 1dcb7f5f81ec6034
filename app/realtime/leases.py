"""Leases: which process owns a clock or a piece of background work, one owner at a time.

With several server processes (REDIS_URL set) a lease is a Redis key holding its owner's id,
set with an expiry: the owner renews it while it lives, and when its process dies the key
expires and another process takes the work over within `seconds`. With one process the lease
is always this process's.

While Redis cannot be reached, `claim` answers True: every process goes on doing the work it
has, alone. Nothing is lost by it: two processes firing the same clock submit the same move
for the same version, and the database accepts it once (the primary key of moves).
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Protocol

log = logging.getLogger(__name__)

# Take the key if it is free or already ours, and (re)set its expiry: one round trip, atomic.
_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
elseif owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def process_id() -> str:
    """A new id for each process start: a restarted process is a new owner."""
    return secrets.token_hex(8)


class Leases(Protocol):
    owner: str

    async def claim(self, name: str, seconds: float) -> bool:
        """Takes the lease `name` for `seconds` if it is free, or renews it if it is already
        ours; False when another live process holds it."""
        ...

    async def release(self, name: str) -> None:
        """Gives the lease up at once (if it is ours), so another process need not wait."""
        ...

    async def close(self) -> None: ...


class LocalLeases:
    """One process owns everything."""

    def __init__(self, owner: str | None = None) -> None:
        self.owner = owner or process_id()

    async def claim(self, name: str, seconds: float) -> bool:
        return True

    async def release(self, name: str) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisLeases:
    PREFIX = "arcade:lease:"
    RETRY_AFTER = 1.0
    """Seconds after a failed call during which Redis is not asked again (every claim
    answers True at once): an outage must not slow each clock down by a connect timeout."""

    def __init__(self, url: str, owner: str | None = None) -> None:
        import redis.asyncio as redis

        self.owner = owner or process_id()
        self._redis = redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        self._claim = self._redis.register_script(_CLAIM)
        self._release = self._redis.register_script(_RELEASE)
        self._down_until = 0.0

    def _reachable(self) -> bool:
        return time.monotonic() >= self._down_until

    def _failed(self, what: str) -> None:
        if self._reachable():
            log.warning("leases: Redis unreachable (%s); every process works alone", what)
        self._down_until = time.monotonic() + self.RETRY_AFTER

    async def claim(self, name: str, seconds: float) -> bool:
        if not self._reachable():
            return True
        try:
            taken = await self._claim(
                keys=[self.PREFIX + name], args=[self.owner, max(1, int(seconds * 1000))]
            )
        except Exception:
            self._failed("claim")
            return True
        return bool(taken)

    async def release(self, name: str) -> None:
        if not self._reachable():
            return
        try:
            await self._release(keys=[self.PREFIX + name], args=[self.owner])
        except Exception:
            self._failed("release")

    async def close(self) -> None:
        await self._redis.aclose()


def make_leases(redis_url: str | None, owner: str | None = None) -> Leases:
    return RedisLeases(redis_url, owner) if redis_url else LocalLeases(owner)
