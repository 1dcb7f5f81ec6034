"""Issue 13, finding 9: a move id is answered the same for the whole match; a move chosen
before its seat was to move is refused as stale; the log hides who answered a secret
reaction question (Tilt!, Ticket Thief) while the match is being played."""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

import httpx
import pytest

from app.db.migrate import upgrade_to_head
from app.db.session import make_engine, make_sessionmaker
from app.engine.runtime import ANSWERS, LiveMatch, MatchRuntime
from app.errors import ArcadeError
from tests.conftest import LiveServer
from tests.helpers import started_match_in_db


async def _quiet(*_args: Any) -> None:
    return None


async def _runtime(database_url: str) -> MatchRuntime:
    await asyncio.to_thread(upgrade_to_head, database_url)
    return MatchRuntime(make_engine(database_url), _quiet)


async def _play_random(
    runtime: MatchRuntime, live: LiveMatch, players: list[str], moves: int, chooser: random.Random
) -> list[tuple[str, int, dict[str, Any]]]:
    """`moves` random legal moves, each with its own id; returns (id, seat, move) in order."""
    sent = []
    for _ in range(moves):
        assert live.status == "active"
        seat = chooser.choice(sorted(live.game.active_seats(live.state)))
        move = chooser.choice(live.game.legal_moves(live.state, seat))
        move_id = uuid.uuid4().hex
        await runtime.submit(live.id, player_id=players[seat], raw_move=move, client_id=move_id)
        sent.append((move_id, seat, move))
    return sent


async def test_a_move_id_is_answered_the_same_for_the_whole_match(database_url: str) -> None:
    runtime = await _runtime(database_url)
    async with make_sessionmaker(runtime._engine)() as session:
        match_id, players = await started_match_in_db(session)
    live = await runtime.get(match_id)
    assert live is not None
    sent = await _play_random(runtime, live, players, ANSWERS + 44, random.Random(3))
    first_id, first_seat, first_move = sent[0]
    version = live.version

    # The very same message again, long after the in-memory answers forgot it.
    again = await runtime.submit(
        match_id, player_id=players[first_seat], raw_move=first_move, client_id=first_id
    )
    assert again == 1 and live.version == version
    # The same id with a move that is legal now: still the first answer, nothing applied.
    mover = sorted(live.game.active_seats(live.state))[0]
    legal_now = live.game.legal_moves(live.state, mover)[0]
    second_id, _seat, _move = sent[1]
    resent = await runtime.submit(
        match_id, player_id=players[mover], raw_move=legal_now, client_id=second_id
    )
    assert resent == 2 and live.version == version
    # After a restart (nothing in memory) the answer is the same.
    await runtime.close()
    fresh = await _runtime(database_url)
    try:
        assert (
            await fresh.submit(
                match_id, player_id=players[first_seat], raw_move=first_move, client_id=first_id
            )
            == 1
        )
    finally:
        await fresh.close()
        await fresh._engine.dispose()
    await runtime._engine.dispose()


async def test_a_move_sent_before_its_seat_was_to_move_is_stale(database_url: str) -> None:
    runtime = await _runtime(database_url)
    async with make_sessionmaker(runtime._engine)() as session:
        match_id, players = await started_match_in_db(session)
    live = await runtime.get(match_id)
    assert live is not None
    chooser = random.Random(5)
    # Play on until some seat is idle at one version and to move at the next.
    while True:
        before = live.version
        idle = set(range(2)) - set(live.game.active_seats(live.state))
        await _play_random(runtime, live, players, 1, chooser)
        waking = idle & set(live.game.active_seats(live.state))
        if waking:
            break
    seat = waking.pop()
    move = live.game.legal_moves(live.state, seat)[0]
    with pytest.raises(ArcadeError) as refused:
        await runtime.submit(
            match_id, player_id=players[seat], raw_move=move, client_id="early", version=before
        )
    assert refused.value.code == "stale_version"
    assert live.version == before + 1  # nothing applied
    # Stamped with the version it was chosen at, the same move is taken.
    taken = await runtime.submit(
        match_id, player_id=players[seat], raw_move=move, client_id="now", version=before + 1
    )
    assert taken == before + 2
    await runtime.close()
    await runtime._engine.dispose()


async def _three_guests_in_joystick_heroes(session: Any) -> tuple[str, list[str], list[str]]:
    from app.services.matches import create_match, join_match, start_match
    from app.services.players import create_player

    made = [await create_player(session, name=n) for n in ("Ada", "Bob", "Cy")]
    host = made[0][0]
    match = await create_match(session, host=host, game_id="joystick-heroes", options={}, seats=3)
    for player, _token in made[1:]:
        await join_match(session, match_id=match.id, player=player, seat=None)
    await start_match(session, match_id=match.id, player=host)
    await session.commit()
    return match.id, [p.id for p, _t in made], [t for _p, t in made]


async def test_the_log_hides_who_answered_a_reaction_while_the_match_is_played(
    database_url: str,
) -> None:
    runtime = await _runtime(database_url)
    async with make_sessionmaker(runtime._engine)() as session:
        match_id, players, tokens = await _three_guests_in_joystick_heroes(session)
    live = await runtime.get(match_id)
    assert live is not None
    chooser = random.Random(11)
    while (live.state.get("question") or {}).get("kind") not in ("tilt", "thief"):
        await _play_random(runtime, live, players, 1, chooser)
    answerer = sorted(live.game.active_seats(live.state))[0]
    await runtime.submit(
        match_id,
        player_id=players[answerer],
        raw_move={"type": "answer", "accept": False},
        client_id="secret",
    )
    answered_at = live.version
    await runtime.close()
    await runtime._engine.dispose()

    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:

            async def entry_seen_by(token: str | None) -> dict[str, Any]:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                log = (await client.get(f"/api/matches/{match_id}/log", headers=headers)).json()
                return next(e for e in log["moves"] if e["seq"] == answered_at)

            own = await entry_seen_by(tokens[answerer])
            assert own["seat"] == answerer and own["at"] is not None
            for other in set(range(3)) - {answerer}:
                theirs = await entry_seen_by(tokens[other])
                assert theirs["seat"] is None and theirs["at"] is None, theirs
            watcher = await entry_seen_by(None)
            assert watcher["seat"] is None and watcher["at"] is None
    finally:
        server.stop()
