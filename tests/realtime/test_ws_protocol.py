"""The WebSocket protocol `arcade serve` uses: permessage-deflate with no context kept between
messages (no zlib memory for an idle socket), and frames still round-trip; keepalive pings
only for a client that has been quiet."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import zlib
from collections.abc import AsyncIterator

import uvicorn
import websockets
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from app.realtime.ws_protocol import SmallMessagesPlain, StatelessDeflateProtocol


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
async def echo_server(*, ping_interval: float = 20, ping_timeout: float = 20) -> AsyncIterator[int]:
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
            ws_ping_interval=ping_interval,
            ws_ping_timeout=ping_timeout,
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


async def test_no_message_refers_to_another_sockets_message() -> None:
    """RFC 7692 `server_no_context_takeover`: a message that repeats what another socket (or
    this one) was just sent must still inflate on its own (the websockets client starts each
    message afresh, as the RFC lets it), so no compressed frame can carry a reference into
    another player's frames."""
    secret = '{"type":"chat","text":"' + "the hidden card is the red seven " * 8 + '"}'
    async with (
        echo_server() as port,
        websockets.connect(f"ws://127.0.0.1:{port}/", compression="deflate") as first,
        websockets.connect(f"ws://127.0.0.1:{port}/", compression="deflate") as second,
    ):
        await first.send(secret)
        assert await first.recv() == secret * 2
        await second.send(secret[:200])
        assert await second.recv() == secret[:200] * 2
        await first.send(secret)
        assert await first.recv() == secret * 2


def test_each_compressed_message_inflates_alone() -> None:
    """The frames `encode` makes, one after another on two sockets' extensions, each inflate
    with a fresh decompressor (RFC 7692 7.2.2: the receiver appends the 0x00 0x00 0xff 0xff
    that 7.2.1 has the sender drop)."""
    sockets = [SmallMessagesPlain(True, True, 12, 12, {"memLevel": 5}) for _ in range(2)]
    texts = [("move " * 60).encode(), ("move " * 59 + "done").encode(), ("é" * 400).encode()]
    for text in texts:
        for extension in sockets:
            frame = extension.encode(Frame(Opcode.TEXT, text))
            assert frame.rsv1 and len(frame.data) < len(text)
            inflater = zlib.decompressobj(wbits=-12)
            assert inflater.decompress(frame.data + b"\x00\x00\xff\xff") == text


class FrameClient:
    """A WebSocket client that shows every frame it gets, pings included, and answers a ping
    only when told to (the websockets client answers them on its own)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.protocol = ClientProtocol(parse_uri("ws://127.0.0.1/"))
        self.pending: list[Frame] = []

    @classmethod
    async def connect(cls, port: int) -> FrameClient:
        client = cls(*await asyncio.open_connection("127.0.0.1", port))
        client.protocol.send_request(client.protocol.connect())
        client._flush()
        while client.protocol.handshake_exc is None and client.protocol.state is not State.OPEN:
            await client._read()
        assert client.protocol.handshake_exc is None
        client.pending.clear()  # the handshake's response
        return client

    def _flush(self, answer_pings: bool = True) -> None:
        data = self.protocol.data_to_send()
        if answer_pings:
            self.writer.write(b"".join(data))

    async def _read(self) -> bool:
        data = await self.reader.read(65536)
        if not data:
            return False
        self.protocol.receive_data(data)
        self.pending.extend(e for e in self.protocol.events_received() if isinstance(e, Frame))
        return True

    async def frame(self, *, answer_pings: bool = True) -> Frame | None:
        """The next frame from the server; None once it has closed the connection."""
        while not self.pending:
            if not await self._read():
                return None
            # Pongs go out only when asked: a client that has vanished sends nothing.
            self._flush(answer_pings)
        return self.pending.pop(0)

    def send_text(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        self._flush()

    def close(self) -> None:
        self.writer.close()


async def test_a_quiet_client_is_pinged_and_dropped_once_it_stops_answering() -> None:
    async with echo_server(ping_interval=0.2, ping_timeout=0.2) as port:
        client = await FrameClient.connect(port)
        try:
            async with asyncio.timeout(30):  # a bound on a broken server, not a wait
                first = await client.frame(answer_pings=False)
                assert first is not None and first.opcode is Opcode.PING
                while (frame := await client.frame(answer_pings=False)) is not None:
                    if frame.opcode is Opcode.CLOSE:
                        break  # 1011 keepalive ping timeout
                    assert frame.opcode is Opcode.PING
        finally:
            client.close()


async def test_a_client_that_talks_is_pinged_only_after_a_quiet_interval() -> None:
    """A message shows the connection alive: no ping comes sooner than one interval after the
    client's last message (the server and this client share one clock), and one still comes
    once the client falls quiet. Before, a ping came every interval whatever the client sent."""
    interval = 0.3
    loop = asyncio.get_running_loop()
    async with echo_server(ping_interval=interval, ping_timeout=5) as port:
        client = await FrameClient.connect(port)
        try:
            async with asyncio.timeout(60):  # a bound on a broken server, not a wait
                last_sent = -1.0
                pings_while_talking = []
                talking_until = loop.time() + 5 * interval
                while loop.time() < talking_until:
                    last_sent = loop.time()
                    client.send_text("move")
                    while (frame := await client.frame()) is not None:
                        if frame.opcode is Opcode.PING:
                            pings_while_talking.append(loop.time() - last_sent)
                            continue
                        assert frame.data == b"movemove"
                        break
                # A busy machine may pause this loop for a whole interval: then a ping is
                # due, but never sooner than an interval after the last message.
                assert all(gap >= interval - 0.01 for gap in pings_while_talking)
                quiet_since = last_sent
                frame = await client.frame()
                assert frame is not None and frame.opcode is Opcode.PING
                assert loop.time() - quiet_since >= interval - 0.01
        finally:
            client.close()
