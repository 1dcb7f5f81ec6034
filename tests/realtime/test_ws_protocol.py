"""The WebSocket protocol `arcade serve` uses: permessage-deflate with no context kept between
messages (no zlib memory for an idle socket), and frames still round-trip."""

from __future__ import annotations

import asyncio
import socket

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


async def test_deflate_without_context_takeover_both_ways() -> None:
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
        async with websockets.connect(f"ws://127.0.0.1:{port}/", compression="deflate") as ws:
            (deflate,) = ws.protocol.extensions
            # The client's view: the server asked that neither side keep its context.
            assert deflate.local_no_context_takeover and deflate.remote_no_context_takeover
            for text in ("hello " * 100, '{"type": "patch"}', "é" * 3000):
                await ws.send(text)
                assert await ws.recv() == text * 2
    finally:
        server.should_exit = True
        await serving
