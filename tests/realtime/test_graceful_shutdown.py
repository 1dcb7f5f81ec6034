"""Graceful shutdown (issue 19, item 2): a stopping process becomes not ready, lets the moves
being committed finish, sends every socket elsewhere with close code 1012, runs its drain
hooks and exits within DRAIN_SECONDS; another process carries the match on."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from typing import Any

import httpx
import pytest
import websockets

from app.realtime.socket import CLOSE_RESTART
from tests.conftest import (
    RELAXED_LIMITS,
    LiveServer,
)
from tests.helpers import Viewer, guests, play_turns, started_match
from tests.realtime.server_process import ServerProcess

DRAIN_SECONDS = 5.0
EXIT_MARGIN = 15.0  # a loaded 2-core machine: the start of the interpreter's exit, and more


async def _until_closed(viewer: Viewer, timeout: float = 15.0) -> list[dict[str, Any]]:
    """Every frame until the server closes the socket."""
    frames: list[dict[str, Any]] = []
    with contextlib.suppress(websockets.ConnectionClosed):
        while True:
            frames.append(await viewer.recv(timeout))
    return frames


async def test_sigterm_acks_or_refuses_the_last_move_closes_1012_and_another_process_carries_on(
    database_url: str,
) -> None:
    """Issue 19, item 2 (graceful shutdown): SIGTERM (twice) just after a move was sent. Each
    socket is closed with 1012; the move was either acked (and committed) before the close or not
    applied yet; sent again by its id to the next process it is acked at the version it has,
    exactly once. The stopped process exits within the drain bound."""
    first = ServerProcess(database_url, drain_seconds=DRAIN_SECONDS, **RELAXED_LIMITS).start()
    try:
        async with httpx.AsyncClient(base_url=first.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob])
        a = await Viewer(first.ws_url, match_id, ada.token).__aenter__()
        b = await Viewer(first.ws_url, match_id, bob.token).__aenter__()
        await a.until_type("snapshot")
        await b.until_type("snapshot")
        await play_turns([a, b], 4)
        before = a.version
        mover = a if a.state and a.state["legal_moves"] else b
        move = mover.state["legal_moves"][0]
        move_id = await mover.move(move, version=before)
        stopped_at = time.monotonic()
        first.process.send_signal(signal.SIGTERM)
        # A second SIGTERM (a supervisor and a service manager may both send one) does not
        # cut the drain short.
        first.process.send_signal(signal.SIGTERM)

        frames = await _until_closed(mover)
        await _until_closed(a if mover is b else b)
        for viewer in (a, b):
            # Closed by the drain ("service restart"), not by uvicorn's own shutdown (which
            # says 1012 without a reason, after dropping whatever was being answered).
            assert (viewer.ws.close_code, viewer.ws.close_reason) == (
                CLOSE_RESTART,
                "service restart",
            )
        acks = [f for f in frames if f["type"] == "ack" and f["id"] == move_id]
        if acks:  # acked before the close: committed, its patch came first
            assert acks[0]["version"] == before + 1 == mover.version
        else:
            assert mover.version == before
        assert not [f for f in frames if f["type"] == "error"], frames

        exit_code = await asyncio.to_thread(first.process.wait, DRAIN_SECONDS + EXIT_MARGIN)
        assert exit_code in (0, -signal.SIGTERM)
        assert time.monotonic() - stopped_at < DRAIN_SECONDS + EXIT_MARGIN
    finally:
        first.stop()

    second = ServerProcess(database_url, **RELAXED_LIMITS).start()
    try:
        async with (
            Viewer(second.ws_url, match_id, ada.token) as a2,
            Viewer(second.ws_url, match_id, bob.token) as b2,
        ):
            await a2.until_type("snapshot")
            await b2.until_type("snapshot")
            again = a2 if mover is a else b2
            assert again.version == mover.version  # what it was acked, nothing more
            await again.move(move, move_id=move_id, version=before)
            ack = await again.until(lambda f: f["type"] == "ack" and f["id"] == move_id)
            assert ack["version"] == before + 1  # the same move, once
            for viewer in (a2, b2):
                while viewer.version < before + 1:
                    await viewer.recv()
            await play_turns([a2, b2], 2)
            assert a2.version == b2.version == before + 3
    finally:
        second.stop()


def _server_loop(server: LiveServer) -> asyncio.AbstractEventLoop:
    return server.server.servers[0].get_loop()


async def test_draining_process_is_not_ready_refuses_new_sockets_then_runs_its_hooks(
    database_url: str,
) -> None:
    """Issue 19, item 2 (readiness, drain): /readyz answers 200 with the database's word, and
    503 once the drain began, while /healthz stays 200; open sockets are closed with 1012
    and a new handshake is answered 503 (a load balancer retries it elsewhere); the drain
    hooks run in order once every socket is closed."""
    server = LiveServer(database_url, drain_seconds=DRAIN_SECONDS).start()
    try:
        context = server.server.config.app.state.context
        async with httpx.AsyncClient(base_url=server.url) as client:
            ready = await client.get("/readyz")
            assert ready.status_code == 200
            assert ready.json() == {"status": "ready", "database": "ok", "redis": "unused"}
            (ada,) = await guests(client, "Ada")
            bob_match = await ada.post(
                "/api/matches", {"game": "c64-maze", "options": {}, "seats": 2}
            )
            match_id = bob_match.json()["id"]

            ran: list[tuple[str, int]] = []
            release = asyncio.Event()
            test_loop = asyncio.get_running_loop()

            async def first_hook() -> None:
                ran.append(("first", context.drain.open_sockets))
                # Held until the test has looked at the draining process.
                await asyncio.wrap_future(
                    asyncio.run_coroutine_threadsafe(release.wait(), test_loop)
                )

            async def second_hook() -> None:
                ran.append(("second", context.drain.open_sockets))

            context.drain.hooks.extend([first_hook, second_hook])
            async with Viewer(server.ws_url, match_id, ada.token) as viewer:
                await viewer.until_type("lobby")
                drained = asyncio.run_coroutine_threadsafe(
                    context.drain.run(), _server_loop(server)
                )
                await _until_closed(viewer)
                assert viewer.ws.close_code == CLOSE_RESTART

            deadline = time.monotonic() + 15
            while not ran:
                assert time.monotonic() < deadline, "the first drain hook did not run"
                await asyncio.sleep(0.02)
            not_ready = await client.get("/readyz")
            assert not_ready.status_code == 503
            assert not_ready.json() == {"status": "draining"}
            assert (await client.get("/healthz")).status_code == 200
            url = f"{server.ws_url}/api/matches/{match_id}/ws"
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(url)
            assert refused.value.response.status_code == 503

            release.set()
            await asyncio.wrap_future(drained)
            assert ran == [("first", 0), ("second", 0)]
    finally:
        server.stop()


@pytest.mark.postgres
async def test_a_move_being_committed_when_the_drain_begins_is_acked_before_the_close(
    postgres_url: str,
) -> None:
    """Issue 19, item 2 (graceful shutdown lets moves already being committed finish): the
    match's row is locked, so a move's commit waits; the drain begins meanwhile. The idle
    socket is closed with 1012 at once, the mover's stays open until its commit is done,
    then gets its patch and ack, and only then 1012; the drain ends after it."""
    import asyncpg

    server = LiveServer(postgres_url, drain_seconds=30).start()
    locker = watcher = None
    try:
        context = server.server.config.app.state.context
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob])
        async with (
            Viewer(server.ws_url, match_id, ada.token) as a,
            Viewer(server.ws_url, match_id, bob.token) as b,
        ):
            await a.until_type("snapshot")
            await b.until_type("snapshot")
            mover, idle = (a, b) if a.state and a.state["legal_moves"] else (b, a)

            locker = await asyncpg.connect(postgres_url.replace("+asyncpg", ""))
            watcher = await asyncpg.connect(postgres_url.replace("+asyncpg", ""))
            lock = locker.transaction()
            await lock.start()
            await locker.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
            move_id = await mover.move(mover.state["legal_moves"][0], version=mover.version)
            deadline = time.monotonic() + 15
            # Asked outside the locking transaction: within one, pg_stat_activity is frozen.
            while not await watcher.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            ):
                assert time.monotonic() < deadline, "the move's commit never waited"
                await asyncio.sleep(0.02)

            drained = asyncio.run_coroutine_threadsafe(context.drain.run(), _server_loop(server))
            await _until_closed(idle)
            assert idle.ws.close_code == CLOSE_RESTART
            assert context.drain.open_sockets == 1  # the mover's: its move is being committed
            assert not drained.done()

            await lock.rollback()  # the commit goes through
            frames = await _until_closed(mover)
            kinds = [f["type"] for f in frames]
            assert kinds[-1] == "ack" and frames[-1]["id"] == move_id, frames
            assert frames[-1]["version"] == mover.version == 1
            assert mover.ws.close_code == CLOSE_RESTART
            await asyncio.wrap_future(drained)
        async with httpx.AsyncClient(base_url=server.url) as client:
            assert (await client.get(f"/api/matches/{match_id}")).json()["version"] == 1
    finally:
        for connection in (locker, watcher):
            if connection is not None:
                await connection.close()
        server.stop()
