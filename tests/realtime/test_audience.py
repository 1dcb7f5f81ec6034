"""Big audiences and who may watch: presence frames do not grow with the audience, and a match
made private drops the viewers who have neither a seat nor the watch link."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, play_turns, started_match
from tests.realtime.server_process import ServerProcess

SPECTATORS = 500
PRESENCE_INTERVAL = 0.5  # the default of Settings.presence_interval


@pytest.fixture
def server_process(database_url: str) -> Iterator[ServerProcess]:
    server = ServerProcess(database_url, presence_interval=PRESENCE_INTERVAL).start()
    try:
        yield server
    finally:
        server.stop()


async def test_presence_frames_do_not_grow_with_the_audience(
    server_process: ServerProcess,
) -> None:
    server = server_process
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    url = f"{server.ws_url}/api/matches/{match_id}/ws"
    presence_frames = [0] * SPECTATORS
    joined = asyncio.Semaphore(50)  # handshakes in flight at once
    stop = asyncio.Event()
    everyone_heard = asyncio.Event()

    async def spectator(index: int) -> None:
        async with joined:
            ws = await websockets.connect(url, open_timeout=120, max_size=2**22)
            await ws.send('{"type":"hello"}')
        async with ws:
            with contextlib.suppress(ConnectionClosed):
                while not stop.is_set():
                    try:
                        frame = await asyncio.wait_for(ws.recv(), 0.5)
                    except TimeoutError:
                        continue  # to look at `stop` again
                    if json.loads(frame)["type"] == "presence":
                        presence_frames[index] += 1
                        if presence_frames[index] == 1 and all(presence_frames):
                            everyone_heard.set()

    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, bob.token) as b,
    ):
        for player in (a, b):
            await player.until_type("snapshot")
        began = time.monotonic()
        audience = [asyncio.create_task(spectator(i)) for i in range(SPECTATORS)]
        try:
            # The seated players still see who is online, and the whole audience as a count.
            for player in (a, b):
                seen = await player.until(
                    lambda f: f["type"] == "presence" and f["spectators"] == SPECTATORS, 180
                )
                assert [s["online"] for s in seen["seats"]] == [True, True]
                assert [s["name"] for s in seen["seats"]] == ["Ada", "Bob"]
            # Every spectator hears presence too (the last ones within an interval).
            await asyncio.wait_for(everyone_heard.wait(), 60)
            elapsed = time.monotonic() - began
        finally:
            stop.set()
            await asyncio.gather(*audience, return_exceptions=True)
    total = sum(presence_frames)
    # Each socket hears at most one frame per interval while it is connected (and one for its
    # own arrival); one frame per join to every socket would be SPECTATORS**2 / 2 = 125,000.
    bound = SPECTATORS * (elapsed / PRESENCE_INTERVAL + 2)
    assert total <= bound, f"{total} presence frames for {SPECTATORS} joins in {elapsed:.1f} s"
    a_frames = sum(1 for f in a.frames if f["type"] == "presence")
    assert a_frames <= elapsed / PRESENCE_INTERVAL + 3, a_frames


async def _closed_with(ws: websockets.ClientConnection, timeout: float = 10) -> tuple[int, list]:
    """Every frame up to the close, and the close code."""
    frames = []
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                frames.append(json.loads(await ws.recv()))
    assert ws.close_code is not None
    return ws.close_code, frames


async def test_a_match_made_private_drops_viewers_without_the_watch_link(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
        watch = (await ada.get(f"/api/matches/{match_id}")).json()["watch_token"]
        async with (
            Viewer(server.ws_url, match_id, ada.token) as a,
            Viewer(server.ws_url, match_id, bob.token) as b,
            Viewer(server.ws_url, match_id, None) as stranger,
            Viewer(server.ws_url, match_id, None) as friend,
        ):
            for viewer in (a, b, stranger, friend):
                await viewer.until_type("snapshot")
            await friend.ws.send(json.dumps({"type": "hello", "watch": watch}))  # a second hello
            await friend.until(lambda f: f["type"] == "error" and f["code"] == "bad_request")
            invited = Viewer(server.ws_url, match_id, None)
            invited.ws = await websockets.connect(invited.url)
            async with invited.ws:
                await invited.send({"type": "hello", "watch": watch})
                await invited.until_type("snapshot")

                made_private = await ada.client.patch(
                    f"/api/matches/{match_id}", json={"private": True}, headers=ada.auth
                )
                assert made_private.status_code == 200, made_private.text

                code, frames = await _closed_with(stranger.ws)
                assert code == 4403
                refusal = [f for f in frames if f["type"] == "error"]
                assert refusal and refusal[-1]["code"] == "forbidden", frames
                assert "private" in refusal[-1]["message"]
                # The watch link counts only when it was the hello that let the socket in.
                code, _frames = await _closed_with(friend.ws)
                assert code == 4403

                # Players and the invited spectator keep watching the game.
                await play_turns([a, b], 4, watchers=(invited,))
                assert invited.state["board"] == a.state["board"]
                assert a.ws.close_code is None and invited.ws.close_code is None
