"""The readiness check (`GET /readyz`): may a load balancer send this process new traffic?

`/healthz` only says the process is alive (restart it if not). Ready also means its database
answers, its Redis answers when REDIS_URL is set, and it is not draining (app/drain.py).
A load balancer probes every few seconds, and anyone may call it: one check at a time is
made, and its answer is reused for `CHECK_SECONDS`, so probes cost the database at most one
`SELECT 1` a second whatever their rate.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.drain import Drain

CHECK_SECONDS = 1.0  # an answer is reused this long
PROBE_TIMEOUT = 2.0  # seconds the database or Redis may take to answer one probe


class Readiness:
    def __init__(self, engine: AsyncEngine, redis_url: str | None, drain: Drain) -> None:
        self._engine = engine
        self._drain = drain
        self._redis: Any = None
        if redis_url:
            import redis.asyncio as redis

            self._redis = redis.from_url(redis_url)
        self._answer: tuple[bool, dict[str, str]] | None = None
        self._answered_at = 0.0
        self._checking: asyncio.Task[tuple[bool, dict[str, str]]] | None = None

    async def check(self) -> tuple[bool, dict[str, str]]:
        """(ready, what each part said)."""
        if self._drain.draining:
            return False, {"status": "draining"}
        if self._answer is not None and time.monotonic() - self._answered_at < CHECK_SECONDS:
            return self._answer
        if self._checking is None:
            self._checking = asyncio.ensure_future(self._check())
            self._checking.add_done_callback(self._remember)
        return await asyncio.shield(self._checking)

    def _remember(self, task: asyncio.Task[tuple[bool, dict[str, str]]]) -> None:
        self._checking = None
        if not task.cancelled() and task.exception() is None:
            self._answer, self._answered_at = task.result(), time.monotonic()

    async def _check(self) -> tuple[bool, dict[str, str]]:
        parts = {"database": await self._probe(self._database())}
        parts["redis"] = "unused" if self._redis is None else await self._probe(self._redis.ping())
        ready = all(answer in ("ok", "unused") for answer in parts.values())
        return ready, {"status": "ready" if ready else "unavailable", **parts}

    async def _database(self) -> None:
        async with self._engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    @staticmethod
    async def _probe(call: Any) -> str:
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                await call
        except TimeoutError:
            return "timeout"
        except Exception as exc:  # any failure to answer is "not ready", said briefly
            return f"error: {type(exc).__name__}"
        return "ok"

    async def close(self) -> None:
        if self._checking is not None:
            self._checking.cancel()
        if self._redis is not None:
            await self._redis.aclose()
