"""Stale tables (issue 14, item 11): open lobbies expire after `open_lobby_ttl_minutes`
without lobby activity, once, whoever sweeps; lists leave them out; a match in progress
says when its last move was and whether it is idle. Item 12: finished matches are listed
by when they ended. The clock is the `now` handed to the services: nothing sleeps."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.migrate import upgrade_to_head
from app.db.models import Match, Move, Player
from app.db.session import make_engine, make_sessionmaker
from app.errors import ArcadeError
from app.services import matches as lobby
from app.services.lobby_sweeper import LobbySweeper
from app.services.players import create_player
from app.timestamps import as_utc

TTL = timedelta(minutes=30)
IDLE = timedelta(minutes=60)


async def _players(session: AsyncSession, *names: str) -> list[Player]:
    made = [(await create_player(session, name=name))[0] for name in names]
    await session.commit()
    return made


async def _lobby(session: AsyncSession, host: Player, seats: int = 3) -> Match:
    match = await lobby.create_match(
        session, host=host, game_id="c64-maze", options={}, seats=seats
    )
    await session.commit()
    return match


async def _last_touched(session: AsyncSession, match_id: str, ago: timedelta) -> None:
    """What a lobby untouched for `ago` looks like (its last activity moved back)."""
    await session.execute(
        update(Match).where(Match.id == match_id).values(last_activity_at=datetime.now(UTC) - ago)
    )
    await session.commit()


async def _status(session: AsyncSession, match_id: str) -> tuple[str, str | None]:
    row = (
        await session.execute(
            select(Match.status, Match.abandoned_reason)
            .where(Match.id == match_id)
            .execution_options(populate_existing=True)
        )
    ).one()
    return row.status, row.abandoned_reason


async def test_an_open_lobby_expires_after_the_ttl_without_activity(
    session: AsyncSession,
) -> None:
    (ann,) = await _players(session, "Ann")
    match = await _lobby(session, ann)
    now = datetime.now(UTC)

    assert await lobby.expire_lobbies(session, now=now + TTL - timedelta(minutes=1), ttl=TTL) == []
    await session.commit()
    assert await _status(session, match.id) == ("open", None)

    closed_at = now + TTL + timedelta(minutes=1)
    assert await lobby.expire_lobbies(session, now=closed_at, ttl=TTL) == [match.id]
    await session.commit()
    assert await _status(session, match.id) == ("abandoned", "expired")
    # Closed once: the next sweep finds nothing to close.
    assert await lobby.expire_lobbies(session, now=closed_at, ttl=TTL) == []

    read = await lobby.get_match(session, match_id=match.id)
    await session.refresh(read)
    told = lobby.summary(read, names={}, online=set())
    assert told["status"] == "abandoned" and told["abandoned_reason"] == "expired"
    assert as_utc(read.finished_at) == closed_at


async def test_started_and_finished_matches_never_expire(session: AsyncSession) -> None:
    ann, bob = await _players(session, "Ann", "Bob")
    match = await _lobby(session, ann, seats=2)
    await lobby.join_match(session, match_id=match.id, player=bob, seat=None)
    await lobby.start_match(session, match_id=match.id, player=ann)
    await session.commit()
    later = datetime.now(UTC) + timedelta(days=3)
    assert await lobby.expire_lobbies(session, now=later, ttl=TTL) == []
    await session.commit()
    assert await _status(session, match.id) == ("active", None)


@pytest.mark.parametrize("change", ["join", "leave", "options", "accept", "private", "seat"])
async def test_lobby_activity_keeps_a_lobby_open(session: AsyncSession, change: str) -> None:
    """Activity is any change to the lobby a player makes: taking, moving to or giving up a
    seat, the host's options, an acceptance, the privacy. Chat is not (watchers chat too)."""
    ann, bob = await _players(session, "Ann", "Bob")
    match = await _lobby(session, ann)
    if change in ("leave", "accept", "seat"):
        await lobby.join_match(session, match_id=match.id, player=bob, seat=None)
        await session.commit()
    await _last_touched(session, match.id, TTL + timedelta(minutes=5))

    if change == "join":
        await lobby.join_match(session, match_id=match.id, player=bob, seat=None)
    elif change == "seat":
        await lobby.join_match(session, match_id=match.id, player=bob, seat=2)
    elif change == "leave":
        await lobby.leave_match(session, match_id=match.id, player=bob)
    elif change == "options":
        await lobby.change_options(session, match_id=match.id, player=ann, options={})
    elif change == "accept":
        await lobby.accept_options(session, match_id=match.id, player=bob, options={})
    else:
        await lobby.set_private(session, match_id=match.id, player=ann, private=True)
    await session.commit()

    assert await lobby.expire_lobbies(session, now=datetime.now(UTC), ttl=TTL) == []
    await session.commit()
    assert await _status(session, match.id) == ("open", None)


async def test_the_host_keeps_her_lobby_open_and_only_she_may(session: AsyncSession) -> None:
    ann, bob = await _players(session, "Ann", "Bob")
    match = await _lobby(session, ann)
    await _last_touched(session, match.id, TTL + timedelta(minutes=5))
    with pytest.raises(ArcadeError) as refused:
        await lobby.keep_open(session, match_id=match.id, player=bob)
    assert refused.value.code == "forbidden"
    await lobby.keep_open(session, match_id=match.id, player=ann)
    await session.commit()
    assert await lobby.expire_lobbies(session, now=datetime.now(UTC), ttl=TTL) == []
    closed_at = datetime.now(UTC) + TTL + timedelta(minutes=1)
    assert await lobby.expire_lobbies(session, now=closed_at, ttl=TTL) == [match.id]
    await session.commit()
    with pytest.raises(ArcadeError) as late:
        await lobby.keep_open(session, match_id=match.id, player=ann)
    assert late.value.code == "match_not_active"


async def test_a_lobby_everyone_left_and_an_ended_match_say_why(session: AsyncSession) -> None:
    ann, bob = await _players(session, "Ann", "Bob")
    left = await _lobby(session, ann)
    await lobby.leave_match(session, match_id=left.id, player=ann)
    ended = await _lobby(session, ann, seats=2)
    await lobby.join_match(session, match_id=ended.id, player=bob, seat=None)
    await lobby.start_match(session, match_id=ended.id, player=ann)
    await lobby.end_match(session, match_id=ended.id, player=bob)
    await session.commit()
    assert await _status(session, left.id) == ("abandoned", "left")
    assert await _status(session, ended.id) == ("abandoned", "ended")


async def test_expired_lobbies_are_not_listed_even_before_the_sweep(
    session: AsyncSession,
) -> None:
    ann, bob = await _players(session, "Ann", "Bob")
    stale, fresh = await _lobby(session, ann), await _lobby(session, bob)
    await _last_touched(session, stale.id, TTL + timedelta(minutes=2))
    since = datetime.now(UTC) - TTL
    for status in ("open", None):
        page, count, _next = await lobby.list_matches(
            session, status=status, game=None, player_id=None, limit=50, touched_since=since
        )
        assert [m.id for m in page] == [fresh.id] and count == 1
    mine, count, _next = await lobby.list_matches(
        session, status=None, game=None, player_id=ann.id, limit=50, touched_since=since
    )
    assert mine == [] and count == 0


async def test_two_sweepers_close_each_lobby_once(database_url: str) -> None:
    """Two server processes (an engine each) sweeping at the same moment: every expired
    lobby is closed by exactly one of them, and only that one tells its pages."""
    await asyncio.to_thread(upgrade_to_head, database_url)
    engines = [make_engine(database_url), make_engine(database_url)]
    try:
        async with make_sessionmaker(engines[0])() as session:
            hosts = await _players(session, "Ann", "Bob", "Cy")
            made = [(await _lobby(session, host)).id for host in hosts]
            for match_id in made:
                await _last_touched(session, match_id, TTL + timedelta(minutes=1))
        told: list[tuple[str, str]] = []

        async def notify(match_id: str, kind: str) -> None:
            told.append((match_id, kind))

        sweepers = [
            LobbySweeper(make_sessionmaker(engine), notify, ttl=TTL, interval=60)
            for engine in engines
        ]
        results = await asyncio.gather(*(sweeper.sweep() for sweeper in sweepers))
        assert sorted(results[0] + results[1]) == sorted(made)
        assert sorted(told) == sorted((match_id, "lobby") for match_id in made)
    finally:
        for engine in engines:
            await engine.dispose()


async def test_a_match_in_progress_reports_its_last_move_and_idleness(
    session: AsyncSession,
) -> None:
    ann, bob = await _players(session, "Ann", "Bob")
    match = await _lobby(session, ann, seats=2)
    await lobby.join_match(session, match_id=match.id, player=bob, seat=None)
    await lobby.start_match(session, match_id=match.id, player=ann)
    await session.commit()
    start = as_utc(match.started_at)
    assert start is not None

    # No move yet: the start is the last thing that happened.
    found = await lobby.activity(session, [match], now=start, lobby_ttl=TTL, idle_after=IDLE)
    assert found[match.id] == {
        "last_activity_at": start.isoformat(),
        "expires_at": None,
        "idle": False,
    }
    last_move = start + timedelta(minutes=10)
    for seq, at in ((1, start + timedelta(minutes=5)), (2, last_move)):
        session.add(
            Move(match_id=match.id, seq=seq, seat=seq - 1, move={}, events=[], created_at=at)
        )
    await session.commit()
    found = await lobby.activity(
        session,
        [match],
        now=last_move + IDLE - timedelta(seconds=1),
        lobby_ttl=TTL,
        idle_after=IDLE,
    )
    assert found[match.id]["last_activity_at"] == last_move.isoformat()
    assert found[match.id]["idle"] is False
    found = await lobby.activity(
        session, [match], now=last_move + IDLE, lobby_ttl=TTL, idle_after=IDLE
    )
    assert found[match.id]["idle"] is True


async def test_an_open_lobby_says_when_it_closes(session: AsyncSession) -> None:
    (ann,) = await _players(session, "Ann")
    match = await _lobby(session, ann)
    touched = as_utc(match.last_activity_at)
    assert touched is not None
    found = await lobby.activity(
        session, [match], now=datetime.now(UTC), lobby_ttl=TTL, idle_after=IDLE
    )
    assert found[match.id] == {
        "last_activity_at": touched.isoformat(),
        "expires_at": (touched + TTL).isoformat(),
        "idle": False,
    }


async def test_finished_matches_are_listed_by_when_they_ended(session: AsyncSession) -> None:
    """Item 12: "newest first" in the history means the last to end first, whenever they
    started; matches that ended at the same moment page by id, none skipped or repeated."""
    ann, bob = await _players(session, "Ann", "Bob")
    base = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
    # (minutes after base it started, minutes after base it ended)
    plan = [(0, 90), (10, 20), (20, 60), (30, 60), (40, 60), (50, 55)]
    made = []
    for started, ended in plan:
        match = await _lobby(session, ann, seats=2)
        await lobby.join_match(session, match_id=match.id, player=bob, seat=None)
        await lobby.start_match(session, match_id=match.id, player=ann)
        await session.execute(
            update(Match)
            .where(Match.id == match.id)
            .values(
                status="finished",
                created_at=base + timedelta(minutes=started),
                started_at=base + timedelta(minutes=started),
                finished_at=base + timedelta(minutes=ended),
            )
        )
        await session.commit()
        made.append((ended, match.id))
    expected = [match_id for _ended, match_id in sorted(made, reverse=True)]

    for player_id in (None, ann.id):
        whole, _count, _next = await lobby.list_matches(
            session, status="finished", game=None, player_id=player_id, limit=50
        )
        assert [m.id for m in whole] == expected
        paged: list[str] = []
        after = None
        for _ in range(len(plan) + 1):
            page, _count, after = await lobby.list_matches(
                session, status="finished", game=None, player_id=player_id, limit=2, after=after
            )
            paged += [m.id for m in page]
            if after is None:
                break
        assert paged == expected
        by_offset = []
        for offset in range(0, len(plan), 4):
            page, _count, _next = await lobby.list_matches(
                session,
                status="finished",
                game=None,
                player_id=player_id,
                limit=4,
                offset=offset,
            )
            by_offset += [m.id for m in page]
        assert by_offset == expected
