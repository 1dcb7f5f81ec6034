"""The runtime plays a match to its end through the database; the record then replays exactly."""

from __future__ import annotations

import asyncio
import hashlib
import random

import httpx
from sqlalchemy import text

from app.db.migrate import upgrade_to_head
from app.db.session import make_engine, make_sessionmaker
from app.engine.fairness import dice_seed, state_hash
from app.engine.registry import get_game
from app.engine.runtime import MatchRuntime, replay
from app.services.replays import verify_record
from tests.conftest import LiveServer
from tests.helpers import guests, started_match_in_db


async def test_a_match_played_to_the_end_is_finished_revealed_and_replayable(
    database_url: str,
) -> None:
    await asyncio.to_thread(upgrade_to_head, database_url)
    engine = make_engine(database_url)
    announced: list[int] = []

    async def announce(_match_id: str, version: int, _accepted: dict) -> None:
        announced.append(version)

    runtime = MatchRuntime(engine, announce)
    async with make_sessionmaker(engine)() as session:
        match_id, players = await started_match_in_db(session)
    chooser = random.Random(7)
    live = await runtime.get(match_id)
    assert live is not None
    while live.status == "active":
        seat = chooser.choice(sorted(live.game.active_seats(live.state)))
        move = chooser.choice(live.game.legal_moves(live.state, seat))
        await runtime.submit(match_id, player_id=players[seat], raw_move=move)
    final_state, version, outcome = live.state, live.version, live.outcome
    assert announced == list(range(1, version + 1))
    await engine.dispose()

    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            summary = (await client.get(f"/api/matches/{match_id}")).json()
            record = (await client.get(f"/api/matches/{match_id}/replay")).json()
    finally:
        server.stop()
    assert summary["status"] == "finished" and summary["version"] == version
    assert summary["outcome"] == outcome.to_json()
    assert hashlib.sha256(summary["seed"].encode()).hexdigest() == summary["seed_commitment"]
    game = get_game(record["game"])
    assert game is not None
    rebuilt, events = replay(
        game,
        game.parse_options(record["options"]),
        len(record["seats"]),
        dice_seed(record["server_seed"], record["nonces"]),
        [(m["seat"], m["move"]) for m in record["moves"]],
    )
    assert rebuilt == final_state
    assert events == [m["events"] for m in record["moves"]]
    assert record["moves"][-1]["state_hash"] == state_hash(final_state)
    assert verify_record(record).ok


async def test_moves_on_an_unstarted_or_finished_match_are_refused(database_url: str) -> None:
    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match = (await ada.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
            early = await ada.post(f"/api/matches/{match['id']}/moves", {"move": {"type": "take"}})
            assert early.status_code == 409 and early.json()["code"] == "match_not_active"
            not_yet = await client.get(f"/api/matches/{match['id']}/replay")
            assert not_yet.status_code == 409
    finally:
        server.stop()


async def test_the_match_cache_is_bounded_and_a_dropped_match_comes_back_identical(
    database_url: str,
) -> None:
    """Least recently used matches leave memory beyond the bound; the next `get` reloads one
    from the database with the very same state and version."""
    await asyncio.to_thread(upgrade_to_head, database_url)
    engine = make_engine(database_url)

    async def announce(_match_id: str, _version: int, _accepted: dict) -> None:
        return None

    runtime = MatchRuntime(engine, announce, max_live=2)
    ids = []
    async with make_sessionmaker(engine)() as session:
        for _ in range(3):
            match_id, players = await started_match_in_db(session)
            ids.append((match_id, players))
    first_id, first_players = ids[0]
    first = await runtime.get(first_id)
    assert first is not None
    chooser = random.Random(3)
    for _ in range(6):
        seat = chooser.choice(sorted(first.game.active_seats(first.state)))
        move = chooser.choice(first.game.legal_moves(first.state, seat))
        await runtime.submit(first_id, player_id=first_players[seat], raw_move=move)
    state, version = first.state, first.version
    for match_id, _players in ids[1:]:
        assert await runtime.get(match_id) is not None
    assert runtime.cached() == 2, "the least recently used match was dropped"
    again = await runtime.get(first_id)
    assert again is not None and again is not first, "reloaded from the database"
    assert (again.state, again.version) == (state, version)
    assert runtime.cached() == 2
    await runtime.close()
    await engine.dispose()


async def test_moves_of_many_matches_at_once_are_each_committed_once(database_url: str) -> None:
    """Group commit (MoveWriter): moves of twenty matches submitted together
    are all accepted, each stored once with the version it was acknowledged with, and the
    matches' versions in the database are the last ones."""
    await asyncio.to_thread(upgrade_to_head, database_url)
    engine = make_engine(database_url)

    async def announce(_match_id: str, _version: int, _accepted: dict) -> None:
        return None

    runtime = MatchRuntime(engine, announce)
    async with make_sessionmaker(engine)() as session:
        matches = [await started_match_in_db(session) for _ in range(20)]
    acked: dict[str, list[int]] = {match_id: [] for match_id, _ in matches}

    async def play(match_id: str, players: list[str], seed: int) -> None:
        chooser = random.Random(seed)
        live = await runtime.get(match_id)
        assert live is not None
        for number in range(8):
            if live.status != "active":
                break
            seat = chooser.choice(sorted(live.game.active_seats(live.state)))
            move = chooser.choice(live.game.legal_moves(live.state, seat))
            version = await runtime.submit(
                match_id, player_id=players[seat], raw_move=move, client_id=f"m{number}"
            )
            acked[match_id].append(version)

    await asyncio.gather(*(play(m, p, seed) for seed, (m, p) in enumerate(matches)))
    await runtime.close()
    async with engine.connect() as conn:
        stored = (await conn.execute(text("SELECT match_id, seq FROM moves"))).all()
        versions = dict((await conn.execute(text("SELECT id, version FROM matches"))).all())
    await engine.dispose()
    assert sorted(stored) == sorted((m, v) for m, vs in acked.items() for v in vs)
    for match_id, versions_acked in acked.items():
        assert versions_acked == list(range(1, len(versions_acked) + 1))
        assert versions[match_id] == versions_acked[-1]
