"""Alembic owns the schema: `upgrade head` on an empty database must match the models."""

from __future__ import annotations

import asyncio

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.db.base import Base
from app.db.migrate import upgrade_to_head
from app.db.session import make_engine


def _diff(database_url: str) -> list[object]:
    async def run() -> list[object]:
        engine = make_engine(database_url)
        try:
            async with engine.connect() as conn:

                def compare(sync_conn):  # type: ignore[no-untyped-def]
                    context = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                    return compare_metadata(context, Base.metadata)

                return await conn.run_sync(compare)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def _tables(database_url: str) -> set[str]:
    async def run() -> set[str]:
        engine = make_engine(database_url)
        try:
            async with engine.connect() as conn:
                return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_upgrade_head_on_an_empty_database_matches_the_models(database_url: str) -> None:
    assert _tables(database_url) == set()
    upgrade_to_head(database_url)
    assert {"players", "matches", "moves", "chat_messages", "alembic_version"} <= _tables(
        database_url
    )
    assert _diff(database_url) == []


def test_upgrade_is_idempotent(database_url: str) -> None:
    upgrade_to_head(database_url)
    upgrade_to_head(database_url)
    assert _diff(database_url) == []
