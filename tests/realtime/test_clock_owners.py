"""Every clock and piece of per-match background work has one owner process at a time, and
another process takes it over within seconds when the owner dies (issue 19, item 1: "every
clock (decision, turn, away) has exactly one owner at a time ... and is taken over by another
process within seconds when its owner dies"; item 3: "a clock the dead process owned fires
from another one").

Real servers on one database and one Redis: in-thread `LiveServer`s (their counters are read
in this process) and a `ServerProcess` where one must be killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from app.realtime.leases import RedisLeases
from app.services.keepers import lease_name
from tests.conftest import LiveServer
from tests.fixture_games import QuestionGame, register_fixture_game
from tests.helpers import Guest, Viewer, guests, started_match
from tests.realtime.clock_app import FACTORY, SLOW_ANSWER_SECONDS, SlowQuestionGame
from tests.realtime.server_process import ServerProcess
from tests.realtime.test_redis_hub import redis_url  # noqa: F401  (the fixture)

QUICK_BOTS = {"bot_think_seconds": 0.0, "bot_time_budget": 0.2, "bot_sweep_seconds": 0.5}


def keeper_settings(lease_seconds: float) -> dict[str, Any]:
    """Short leases and sweeps, and leases and a registry of this test's own (the Redis is
    shared with other tests' servers)."""
    return {
        "keeper_lease_seconds": lease_seconds,
        "keeper_sweep_seconds": 0.5,
        "lease_scope": f"test-{secrets.token_hex(6)}",
    }


def context_of(server: LiveServer) -> Any:
    return server.server.config.app.state.context


def keepers_of(server: LiveServer) -> Any:
    return server.server.config.app.state.keepers


async def until(condition: Callable[[], Any], timeout: float, what: str) -> None:
    """Polls `condition` (sync or async) until it holds; fails saying `what` did not happen."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(0.05)


async def moves_of(url: str, match_id: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        response = await client.get(f"/api/matches/{match_id}/log")
        assert response.status_code == 200, response.text
        return list(response.json()["moves"])


async def lease_owner(url: str, match_id: str) -> str | None:
    client = aioredis.from_url(url)
    try:
        owner = await client.get(RedisLeases.PREFIX + lease_name(match_id))
    finally:
        await client.aclose()
    return owner.decode() if owner is not None else None


async def test_a_decision_clock_held_by_two_processes_fires_once_from_one(
    database_url: str,
    redis_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19, item 1: both processes hold the match (a player on each), its keeper alone
    arms the clock: each question is answered by the server once, from one process, and
    both players see the same deadline."""
    register_fixture_game(monkeypatch, QuestionGame())
    settings = {"redis_url": redis_url, **keeper_settings(lease_seconds=5.0)}
    first = LiveServer(database_url, **settings).start()
    second = LiveServer(database_url, migrate_on_start=False, **settings).start()
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob], game=QuestionGame.id)
        async with (
            Viewer(first.ws_url, match_id, ada.token) as a,
            Viewer(second.ws_url, match_id, bob.token) as b,
        ):
            await a.until_type("snapshot")
            await b.until_type("snapshot")
            for round_ in range(3):
                asked, answered = 2 * round_ + 1, 2 * round_ + 2
                await a.move({"type": "ask"}, version=a.version)
                await a.until(lambda f, v=asked: f["type"] == "patch" and f["version"] == v)
                await b.until(lambda f, v=asked: f["type"] == "patch" and f["version"] == v)
                assert isinstance(b.state["deadline"], int)
                assert a.state["deadline"] == b.state["deadline"], "one deadline everywhere"
                for viewer in (a, b):
                    await viewer.until(
                        lambda f, v=answered: f["type"] == "patch" and f["version"] == v, 10
                    )
        moves = await moves_of(first.url, match_id)
        fired = sorted(context_of(s).runtime.clocks_fired for s in (first, second))
        kept = [keepers_of(s).kept() for s in (first, second)]
    finally:
        second.stop()
        first.stop()
    assert [(m["seat"], m["move"]) for m in moves] == [
        (0, {"type": "ask"}),
        (1, {"type": "answer", "answer": "no"}),
    ] * 3, "each question answered once by the server"
    assert fired == [0, 3], "every clock fired in one process, the keeper"
    assert sorted(len(k) for k in kept) == [0, 1]


async def _play_against_the_computer(
    me: Viewer, chooser: random.Random, turns: int, timeout: float = 30
) -> None:
    """`turns` of the person's moves, each after the computer's reply arrived."""
    for _ in range(turns):
        while not me.state["legal_moves"] and me.state["status"] == "active":
            await me.recv(timeout)
        if me.state["status"] != "active":
            return
        forward = [m for m in me.state["legal_moves"] if m["type"] != "undo"]
        await me.move(chooser.choice(forward), version=me.version)
        await me.until_type("ack", timeout)


async def _computer_replied(me: Viewer, timeout: float = 30) -> None:
    """The computer's reply to the person's last move has been made (she may move again, or
    the match is over)."""
    while not me.state["legal_moves"] and me.state["status"] == "active":
        await me.recv(timeout)


async def _computer_match(host: Guest) -> str:
    made = await host.post("/api/matches", {"game": "tactrics-crossing", "seats": 2})
    assert made.status_code == 201, made.text
    match_id = str(made.json()["id"])
    seated = await host.post(f"/api/matches/{match_id}/bots", {"level": "easy"})
    assert seated.status_code == 200, seated.text
    started = await host.post(f"/api/matches/{match_id}/start")
    assert started.status_code == 200, started.text
    return match_id


async def test_a_computer_player_held_by_two_processes_searches_once_a_move(
    database_url: str,
    redis_url: str,  # noqa: F811
) -> None:
    """Issue 19, item 1 ("computer-player work [is] shared"): the player watches on one
    process and plays on the other; every computer move is searched once, all of them in the
    process that keeps the match, which holds its lease."""
    settings = {"redis_url": redis_url, **QUICK_BOTS, **keeper_settings(lease_seconds=5.0)}
    first = LiveServer(database_url, **settings).start()
    second = LiveServer(database_url, migrate_on_start=False, **settings).start()
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as client:
            (ada,) = await guests(client, "Ada")
            match_id = await _computer_match(ada)
        async with (
            Viewer(first.ws_url, match_id, ada.token) as watching,
            Viewer(second.ws_url, match_id, ada.token) as me,
        ):
            await watching.until_type("snapshot")
            await me.until_type("snapshot")
            await _play_against_the_computer(me, random.Random(19), turns=8)
            await _computer_replied(me)
        moves = await moves_of(first.url, match_id)
        searches = [context_of(s).computer_turns.searches for s in (first, second)]
        kept = [keepers_of(s).kept() for s in (first, second)]
        owners = [keepers_of(s)._leases.owner for s in (first, second)]
        owner = await lease_owner(redis_url, match_id)
    finally:
        second.stop()
        first.stop()
    computer_moves = [m for m in moves if m["bot"]]
    assert len(computer_moves) >= 3
    assert sum(searches) == len(computer_moves), "one search per computer move, no more"
    keeper = 0 if searches[0] else 1
    assert searches[1 - keeper] == 0, "the other process searched nothing"
    # An ended match needs no keeper: its lease is given up.
    ended = me.state["status"] != "active"
    assert kept[keeper] == ([] if ended else [match_id]) and kept[1 - keeper] == []
    assert owner == (None if ended else owners[keeper])


async def _doomed_and_survivor(
    database_url: str, redis: str, lease_seconds: float
) -> tuple[ServerProcess, LiveServer]:
    """A server process to kill, and an in-thread one to survive it. The survivor's database
    sweep waits a minute (its first ran before the match existed): the doomed process,
    which loads the match first, keeps it, and the survivor takes it over from the registry."""
    settings = {**keeper_settings(lease_seconds), "bot_think_seconds": 0.0, "bot_time_budget": 0.2}
    doomed = ServerProcess(
        database_url, factory=FACTORY, redis_url=redis, bot_sweep_seconds=0.5, **settings
    ).start()
    try:
        survivor = LiveServer(
            database_url,
            redis_url=redis,
            migrate_on_start=False,
            bot_sweep_seconds=60,
            **settings,
        ).start()
    except BaseException:
        doomed.stop()
        raise
    return doomed, survivor


async def _kept_by_the_doomed(redis: str, survivor: LiveServer, match_id: str) -> None:
    survivor_id = keepers_of(survivor)._leases.owner

    async def elsewhere() -> bool:
        owner = await lease_owner(redis, match_id)
        return owner is not None and owner != survivor_id

    await until(elsewhere, 20, "the first process keeping the match")


async def test_a_clock_whose_keeper_is_killed_fires_from_another_process_at_its_deadline(
    database_url: str,
    redis_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19, items 1 and 3: the process keeping a question's clock, where both players
    are, is killed (SIGKILL) while the clock runs; the other process, which never held the
    match, takes it over within seconds, shows the asked player the deadline she was shown
    before, and answers for her at that deadline, not a whole period after the takeover."""
    register_fixture_game(monkeypatch, SlowQuestionGame())
    lease_seconds = 4.0
    doomed, survivor = await _doomed_and_survivor(database_url, redis_url, lease_seconds)
    try:
        async with httpx.AsyncClient(base_url=doomed.url, timeout=30) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob], game=SlowQuestionGame.id)
        a = await Viewer(doomed.ws_url, match_id, ada.token).__aenter__()
        b = await Viewer(doomed.ws_url, match_id, bob.token).__aenter__()
        try:
            await a.until_type("snapshot")
            await b.until_type("snapshot")
            await _kept_by_the_doomed(redis_url, survivor, match_id)
            await a.move({"type": "ask"}, version=a.version)
            await b.until(lambda f: f["type"] == "patch" and f["version"] == 1)
            deadline = b.state["deadline"]
            assert isinstance(deadline, int)
            doomed.process.kill()
            doomed.process.wait(10)
            killed_at = time.time() * 1000
        finally:
            for viewer in (a, b):
                with contextlib.suppress(Exception):
                    await viewer.ws.close()
        await until(
            lambda: keepers_of(survivor).kept() == [match_id], 20, "the survivor's takeover"
        )
        taken_at = time.time() * 1000
        async with Viewer(survivor.ws_url, match_id, bob.token) as back:
            await back.until_type("snapshot")
            assert back.version == 1, "taken over before the deadline"
            assert back.state["deadline"] == deadline, "the same deadline after the takeover"
            await back.until(
                lambda f: f["type"] == "patch" and f["version"] == 2, SLOW_ANSWER_SECONDS + 10
            )
            answered_at = time.time() * 1000
            assert back.state["board"]["answers"] == ["no"]
        moves = await moves_of(survivor.url, match_id)
        fired = context_of(survivor).runtime.clocks_fired
    finally:
        survivor.stop()
        doomed.stop()
    assert killed_at < deadline, "the keeper died while the clock ran"
    assert taken_at - killed_at < (lease_seconds + 5) * 1000, "taken over within seconds"
    # A fresh period from the takeover would answer no sooner than taken_at + 10 s (at
    # least deadline + 2.6 s: the lease outlives its last renewal by 2/3 of it).
    assert deadline - 250 <= answered_at <= deadline + 2000, answered_at - deadline
    assert [(m["seat"], m["move"]) for m in moves] == [
        (0, {"type": "ask"}),
        (1, {"type": "answer", "answer": "no"}),
    ]
    assert fired == 1


async def test_a_computer_player_whose_keeper_is_killed_goes_on_moving(
    database_url: str,
    redis_url: str,  # noqa: F811
) -> None:
    """Issue 19, items 1 and 3: the process running a computer player is killed; the player,
    connected to the other process, goes on playing and the computer goes on answering."""
    doomed, survivor = await _doomed_and_survivor(database_url, redis_url, 2.0)
    try:
        async with httpx.AsyncClient(base_url=doomed.url, timeout=30) as client:
            (ada,) = await guests(client, "Ada")
            match_id = await _computer_match(ada)
        watching = await Viewer(doomed.ws_url, match_id, ada.token).__aenter__()
        try:
            await watching.until_type("snapshot")
            await _kept_by_the_doomed(redis_url, survivor, match_id)
            async with Viewer(survivor.ws_url, match_id, ada.token) as me:
                await me.until_type("snapshot")
                chooser = random.Random(7)
                await _play_against_the_computer(me, chooser, turns=2)
                doomed.process.kill()
                doomed.process.wait(10)
                before = len([m for m in await moves_of(survivor.url, match_id) if m["bot"]])
                await _play_against_the_computer(me, chooser, turns=4)
                await _computer_replied(me)
        finally:
            with contextlib.suppress(Exception):
                await watching.ws.close()
        moves = await moves_of(survivor.url, match_id)
        searches = context_of(survivor).computer_turns.searches
    finally:
        survivor.stop()
        doomed.stop()
    after = len([m for m in moves if m["bot"]])
    assert after >= before + 2, "the computer went on moving from the other process"
    assert searches >= after - before
    seqs = [m["seq"] for m in moves]
    assert seqs == list(range(1, len(moves) + 1)), "no version lost or doubled"


async def test_the_lobby_sweeper_runs_in_one_process_and_is_handed_over_on_a_stop(
    database_url: str,
    redis_url: str,  # noqa: F811
) -> None:
    """Issue 19, item 1 ("every clock ... has exactly one owner"): of two processes, one
    sweeps the lobbies; when it stops, the other takes the sweeps over."""
    settings = {
        "redis_url": redis_url,
        "lobby_sweep_seconds": 0.5,
        **keeper_settings(lease_seconds=5.0),
    }
    first = LiveServer(database_url, **settings).start()
    second = LiveServer(database_url, migrate_on_start=False, **settings).start()
    stopped = False
    try:
        sweepers = [s.server.config.app.state.lobby_sweeper for s in (first, second)]
        await until(lambda: max(s.sweeps for s in sweepers) >= 4, 30, "four sweeps")
        owner = 0 if sweepers[0].sweeps else 1
        assert sweepers[1 - owner].sweeps == 0, "one process sweeps"
        (first, second)[owner].stop()
        stopped = True
        await until(lambda: sweepers[1 - owner].sweeps >= 1, 10, "the other taking over")
    finally:
        if not stopped:
            first.stop()
        second.stop()
        first.stop()


async def test_a_keeper_that_stops_gracefully_hands_its_match_over_at_once(
    database_url: str,
    redis_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19, item 2 ("graceful shutdown"): a stopping process gives up the matches it
    keeps; the other process takes them over at its next sweep, long before the lease would
    have run out, and the clock still fires once."""
    register_fixture_game(monkeypatch, SlowQuestionGame())
    lease_seconds = 60.0
    settings = {"redis_url": redis_url, **keeper_settings(lease_seconds)}
    servers = [
        LiveServer(database_url, **settings).start(),
        LiveServer(database_url, migrate_on_start=False, **settings).start(),
    ]
    running = list(servers)
    try:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob], game=SlowQuestionGame.id)
        async with Viewer(servers[1].ws_url, match_id, ada.token) as a:
            await a.until_type("snapshot")
            await until(
                lambda: any(keepers_of(s).kept() for s in servers), 20, "a process keeping it"
            )
            keeper = 0 if keepers_of(servers[0]).kept() else 1
            other = servers[1 - keeper]
            await a.move({"type": "ask"}, version=a.version)
            await a.until(lambda f: f["type"] == "patch" and f["version"] == 1)
            deadline = a.state["deadline"]
            if keeper == 1:
                await a.ws.close()  # the player goes with the server she was on
            servers[keeper].stop()
            running.remove(servers[keeper])
            stopped_at = time.monotonic()
            await until(lambda: keepers_of(other).kept() == [match_id], 20, "the handover")
            handed_over = time.monotonic() - stopped_at
        async with Viewer(other.ws_url, match_id, bob.token) as b:
            await b.until_type("snapshot")
            if b.version < 2:
                assert b.state["deadline"] == deadline
                await b.until(
                    lambda f: f["type"] == "patch" and f["version"] == 2, SLOW_ANSWER_SECONDS + 10
                )
        moves = await moves_of(other.url, match_id)
    finally:
        for server in running:
            server.stop()
    assert handed_over < lease_seconds / 4, "handed over at once, not when the lease ran out"
    assert [m["move"]["type"] for m in moves] == ["ask", "answer"]
