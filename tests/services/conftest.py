"""A migrated database and a session on it, for tests that call the services directly."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.migrate import upgrade_to_head
from app.db.session import make_engine, make_sessionmaker


@pytest.fixture
async def session(database_url: str) -> AsyncIterator[AsyncSession]:
    await asyncio.to_thread(upgrade_to_head, database_url)
    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine)() as opened:
            yield opened
    finally:
        await engine.dispose()
