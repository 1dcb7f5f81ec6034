"""Shared fixtures: fresh databases (SQLite always, PostgreSQL when TEST_DATABASE_URL is set)
and a real server on a real port for HTTP and WebSocket tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

import pytest
import uvicorn

from app.config import Settings, to_async_url
from app.main import create_app

if TYPE_CHECKING:
    from tests.realtime.redis_server import OwnRedis

IN_CI = os.environ.get("CI", "").lower() == "true"
# The suite makes guests, tables and moves from 127.0.0.1 far faster than people do: its
# servers get generous limits; tests/api/test_rate_limits.py tests the real defaults.
RELAXED_LIMITS = {
    "guests_per_address": "100000/minute",
    "lobbies_per_player": "100000/minute",
    "lobbies_per_address": "100000/minute",
    "max_open_lobbies_per_player": 100000,
    "lobby_writes_per_player": "100000/minute",
    "lobby_writes_per_address": "100000/minute",
    "http_moves_per_player": "100000/minute",
    "record_reads_per_address": "100000/minute",
    "list_reads_per_address": "100000/minute",
    "verifications_per_address": "100000/minute",
    "syncs_per_connection": "100000/minute",
    "syncs_per_player": "100000/minute",
    "chat_per_player": "100000/minute",
    "turn_reads_per_player": "100000/minute",
    "device_links_per_player": "100000/minute",
    "device_claims_per_address": "100000/minute",
    "push_changes_per_player": "100000/minute",
    "push_key_reads_per_address": "100000/minute",
    "passkeys_per_player": "100000/minute",
    "passkeys_per_address": "100000/minute",
}
PG_URL = os.environ.get("TEST_DATABASE_URL")


def require_postgres() -> str:
    if not PG_URL:
        if IN_CI:
            pytest.fail("TEST_DATABASE_URL is not set: PostgreSQL tests must run in CI")
        pytest.skip("set TEST_DATABASE_URL to run the PostgreSQL tests")
    return PG_URL


def _admin_call(url: str, sql: str) -> None:
    import asyncpg

    parts = urlsplit(url.replace("+asyncpg", ""))

    async def run() -> None:
        conn = await asyncpg.connect(urlunsplit(parts._replace(scheme="postgresql")))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


def fresh_postgres_database() -> tuple[str, str]:
    """Creates an empty database next to TEST_DATABASE_URL's; returns (async url, name)."""
    base = require_postgres()
    name = f"arcade_test_{secrets.token_hex(6)}"
    _admin_call(base, f'CREATE DATABASE "{name}"')
    parts = urlsplit(to_async_url(base))
    return urlunsplit(parts._replace(path="/" + name)), name


def drop_postgres_database(name: str) -> None:
    assert PG_URL
    _admin_call(PG_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """An empty PostgreSQL database (its async URL) for the block, dropped after it."""
    url, name = fresh_postgres_database()
    try:
        yield url
    finally:
        drop_postgres_database(name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind, made for this test alone."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}"
        return
    with postgres_database() as url:
        yield url


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database alone, for a test that needs PostgreSQL itself (row locks,
    several server processes on one database); dropped afterwards."""
    with postgres_database() as url:
        yield url


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    """A Redis of the test's own, on a free port (the outage tests stop and start it)."""
    from tests.realtime.redis_server import OwnRedis  # it needs free_port from here

    server = OwnRedis().start()
    try:
        yield server
    finally:
        server.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn serving create_app() in a thread, on a real port (with RELAXED_LIMITS unless
    `real_limits`)."""

    def __init__(
        self, database_url: str, *, real_limits: bool = False, **overrides: object
    ) -> None:
        self.database_url = database_url
        self.port = free_port()
        limits = {} if real_limits else RELAXED_LIMITS
        self.settings = Settings(database_url=database_url, **{**limits, **overrides})  # type: ignore[arg-type]
        config = uvicorn.Config(
            create_app(self.settings),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=1024 * 1024,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    live = LiveServer(database_url).start()
    try:
        yield live
    finally:
        live.stop()
