"""The WebSocket protocol `arcade serve` uses: permessage-deflate with no context kept between
messages (no zlib memory for an idle socket), and frames still round-trip."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

import uvicorn
import websockets

from app.realtime.ws_protocol import StatelessDeflateProtocol


async def echo(scope, receive, send):  # type: ignore[no-untyped-def]
    assert scope["type"] == "websocket"
    await receive()  # connect
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        await send({"type": "websocket.send", "text": message["text"] * 2})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def echo_server() -> AsyncIterator[int]:
    """`echo` served with our protocol on a free port (yielded) until the block ends."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            echo,
            host="127.0.0.1",
            port=port,
            ws=StatelessDeflateProtocol,
            log_level="warning",
            lifespan="off",
        )
    )
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        yield port
    finally:
        server.should_exit = True
        await serving


async def test_deflate_without_context_takeover_both_ways() -> None:
    async with (
        echo_server() as port,
        websockets.connect(f"ws://127.0.0.1:{port}/", compression="deflate") as ws,
    ):
        (deflate,) = ws.protocol.extensions
        # The client's view: the server asked that neither side keep its context.
        assert deflate.local_no_context_takeover and deflate.remote_no_context_takeover
        for text in ("hello " * 100, '{"type": "patch"}', "é" * 3000):
            await ws.send(text)
            assert await ws.recv() == text * 2


async def test_short_messages_go_uncompressed() -> None:
    """RFC 7692 lets any message go with RSV1 unset: an ack-sized one is not worth a zlib
    compressor (app/realtime/ws_protocol.py, PLAIN_BELOW)."""
    async with (
        echo_server() as port,
        websockets.connect(f"ws://127.0.0.1:{port}/", compression="deflate") as ws,
    ):
        (deflate,) = ws.protocol.extensions
        compressed: list[tuple[int, bool]] = []
        decode = deflate.decode

        def noting(frame, *, max_size=None):  # type: ignore[no-untyped-def]
            compressed.append((len(frame.data), frame.rsv1))
            return decode(frame, max_size=max_size)

        deflate.decode = noting  # type: ignore[method-assign]
        short = '{"type":"ack","version":7}'  # echoed twice: 52 bytes
        long = '{"type":"patch","ops":[]}' * 10  # 500 bytes
        for text in (short, long):
            await ws.send(text)
            assert await ws.recv() == text * 2
        assert compressed[0] == (52, False)
        assert compressed[1][1] is True and compressed[1][0] < 500
