"""Clients that never read must not grow the server: their frames are bounded, and they are
closed with 4500 (the client reconnects for a fresh snapshot)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import httpx
import pytest

from tests.helpers import Viewer, guests, started_match
from tests.realtime.server_process import RawSocket, ServerProcess

SLOW_SOCKETS = 20
SECONDS = 60.0
GROWTH_LIMIT_MB = 20.0


@pytest.fixture
def server_process(database_url: str) -> Iterator[ServerProcess]:
    # The close frame waits behind everything the client has not read; the test reads only
    # after SECONDS, so the close may wait longer than that.
    # A small outbox: even on a busy machine, where moves come slowly, it fills long before
    # the 40 s keepalive would close these sockets for not answering pings (close 1011).
    server = ServerProcess(
        database_url, socket_close_timeout=SECONDS * 3, socket_outbox_frames=64
    ).start()
    try:
        yield server
    finally:
        server.stop()


async def _play(players: list[Viewer], until: float) -> int:
    """First legal moves (a C64 Maze played that way does not end), as fast as acks come."""
    loop = asyncio.get_running_loop()
    moves = 0
    while loop.time() < until:
        mover = next(v for v in players if v.state and v.state["legal_moves"])
        await mover.move(mover.state["legal_moves"][0])
        await mover.until_type("ack", timeout=30)
        other = next(v for v in players if v is not mover)
        while other.version < mover.version:
            await other.recv(timeout=30)
        moves += 1
    return moves


async def test_sockets_that_never_read_are_closed_and_do_not_grow_the_server(
    server_process: ServerProcess,
) -> None:
    server = server_process
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    path = f"/api/matches/{match_id}/ws"
    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, bob.token) as b,
    ):
        for viewer in (a, b):
            await viewer.until_type("snapshot")
        loop = asyncio.get_running_loop()
        await _play([a, b], loop.time() + 2)  # warm: caches, database pool
        baseline = server.rss_mb()

        slow = [await RawSocket.open(server.ws_url, path) for _ in range(SLOW_SOCKETS)]
        for raw in slow:
            await raw.send_text('{"type":"hello"}')
        peak = baseline
        playing = asyncio.create_task(_play([a, b], loop.time() + SECONDS))
        try:
            while not playing.done():
                peak = max(peak, server.rss_mb())
                await asyncio.wait({playing}, timeout=1.0)
            moves = playing.result()
        finally:
            playing.cancel()
            with contextlib.suppress(BaseException):
                await playing
        peak = max(peak, server.rss_mb())

        assert moves > 200, f"the match hardly played ({moves} moves)"
        assert peak - baseline < GROWTH_LIMIT_MB, (
            f"{SLOW_SOCKETS} sockets that never read grew the server from {baseline:.0f} MB "
            f"to {peak:.0f} MB during {moves} moves"
        )
        endings = [await raw.read_until_close(timeout=60) for raw in slow]
        for raw in slow:
            raw.close()
    assert {code for code, _reason, _frames in endings} == {4500}, endings
    assert all("too slow" in reason for _code, reason, _frames in endings)
