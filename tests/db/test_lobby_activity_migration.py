"""Migration 0006 on a database with matches in it: every match gets a last activity (its
creation, so lobbies already stale close at the first sweep) and every finished match an
end time for the history to be sorted by."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa
from alembic import command

from app.db.migrate import alembic_config, upgrade_to_head
from app.db.session import make_engine

ROWS = (
    # id, status, created_at, started_at, finished_at
    ("lobby", "open", "2026-11-01 10:00:00", None, None),
    ("ended", "finished", "2026-11-02 10:00:00", "2026-11-02 10:05:00", "2026-11-02 11:00:00"),
    ("no-end", "finished", "2026-11-03 10:00:00", "2026-11-03 10:05:00", None),
)


async def test_migration_0006_fills_last_activity_and_missing_end_times(
    database_url: str,
) -> None:
    await asyncio.to_thread(command.upgrade, alembic_config(database_url), "0005")
    engine = make_engine(database_url)
    async with engine.begin() as conn:
        await conn.execute(
            sa.text("INSERT INTO players (id, name, token_hash) VALUES ('p1', 'Ann', 'h')")
        )
        for match_id, status, created, started, finished in ROWS:
            await conn.execute(
                sa.text(
                    "INSERT INTO matches (id, game, rules_version, options, status, host_id,"
                    " seats, version, seed, seed_commitment, nonces, private, accepted,"
                    " created_at, started_at, finished_at)"
                    " VALUES (:id, 'c64-maze', '1', '{}', :status, 'p1', '[\"p1\"]', 0, 's',"
                    " 'c', '[]', false, '[]', :created, :started, :finished)"
                ).bindparams(
                    sa.bindparam("created", type_=sa.DateTime(timezone=True)),
                    sa.bindparam("started", type_=sa.DateTime(timezone=True)),
                    sa.bindparam("finished", type_=sa.DateTime(timezone=True)),
                ),
                {
                    "id": match_id,
                    "status": status,
                    "created": _time(created),
                    "started": _time(started),
                    "finished": _time(finished),
                },
            )
    await engine.dispose()
    await asyncio.to_thread(upgrade_to_head, database_url)

    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                sa.text(
                    "SELECT id, created_at, started_at, finished_at, last_activity_at,"
                    " abandoned_reason FROM matches"
                ).columns(
                    created_at=sa.DateTime(timezone=True),
                    started_at=sa.DateTime(timezone=True),
                    finished_at=sa.DateTime(timezone=True),
                    last_activity_at=sa.DateTime(timezone=True),
                )
            )
            found = {r.id: r for r in rows}
    finally:
        await engine.dispose()
    for match_id, *_ in ROWS:
        row = found[match_id]
        assert _naive(row.last_activity_at) == _naive(row.created_at)
        assert row.abandoned_reason is None
    assert _naive(found["ended"].finished_at) == _time("2026-11-02 11:00:00")
    assert _naive(found["no-end"].finished_at) == _time("2026-11-03 10:05:00")
    assert found["lobby"].finished_at is None


def _time(text: str | None):  # type: ignore[no-untyped-def]
    from datetime import datetime

    return None if text is None else datetime.fromisoformat(text)


def _naive(moment):  # type: ignore[no-untyped-def]
    from datetime import UTC

    if moment is not None and moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment
