"""uvicorn's WebSocket protocol (websockets, sans-I/O) with a permessage-deflate that keeps no
zlib state between messages.

uvicorn's own keeps a compressor and a decompressor alive for the life of every socket that
negotiated compression (every browser offers it): about 50 KiB a socket even with its small
window, 500 MiB for 10,000 idle sockets. Here both sides are asked not to take the context
over from one message to the next (RFC 7692 `server_no_context_takeover`,
`client_no_context_takeover`), so websockets makes the zlib objects for a message and drops
them after it. A frame then compresses on its own (a 1 KB patch to about 230 B rather than
to a few dozen bytes against the previous one), for about 10 us more CPU a frame. Its receive
queue and writable event are lean ones (app/realtime/lean.py).

Its keepalive pings only a client that has been quiet: see `send_keepalive_ping`.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol

from app.realtime.lean import LeanEvent, LeanQueue

PLAIN_BELOW = 128
"""Messages shorter than this (in bytes) are sent uncompressed (RSV1 unset, which RFC 7692
allows for any message): an ack or a presence frame hardly shrinks, and each compressed
message costs a zlib compressor made and dropped."""


class SmallMessagesPlain(PerMessageDeflate):
    def encode(self, frame: Frame) -> Frame:
        whole_message = frame.fin and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
        if whole_message and len(frame.data) < PLAIN_BELOW:
            return frame
        return super().encode(frame)


class StatelessDeflateFactory(ServerPerMessageDeflateFactory):
    def process_request_params(
        self, params: Any, accepted_extensions: Any
    ) -> tuple[list[tuple[str, str | None]], PerMessageDeflate]:
        response, extension = super().process_request_params(params, accepted_extensions)
        assert isinstance(extension, PerMessageDeflate)
        return response, SmallMessagesPlain(
            extension.remote_no_context_takeover,
            extension.local_no_context_takeover,
            extension.remote_max_window_bits,
            extension.local_max_window_bits,
            extension.compress_settings,
        )


class StatelessDeflateProtocol(WebSocketsSansIOProtocol):
    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[
                    StatelessDeflateFactory(
                        server_no_context_takeover=True,
                        client_no_context_takeover=True,
                        server_max_window_bits=12,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": 5},
                    )
                ],
                max_size=config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
        # Five deques of 760 bytes a socket for a queue and an event that are nearly always
        # empty: these allocate only while something waits (uvicorn uses put_nowait, get and
        # empty of the one, set, clear and wait of the other).
        self.queue = LeanQueue()  # type: ignore[assignment]
        self.writable = LeanEvent()  # type: ignore[assignment]
        self.writable.set()
        self.heard_at = -math.inf
        """loop.time() of the client's last message."""

    def handle_text(self, event: Frame) -> None:
        self.heard_at = self.loop.time()
        super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        self.heard_at = self.loop.time()
        super().handle_bytes(event)

    def send_keepalive_ping(self) -> None:
        """uvicorn pings every socket once per interval. A client that sent a message within
        the interval has shown its connection alive as a pong would, so its ping waits until
        it has been quiet for a whole interval: a connection still closes at most one interval
        and one ping timeout after the last thing its client sent, as before, and a player who
        moves every few seconds is not pinged at all (10,000 sockets at a person's pace sent
        500 pings a second, and read as many pongs)."""
        interval = self.ping_interval
        if interval and not (self.close_sent or self.transport.is_closing()):
            quiet_for = self.loop.time() - self.heard_at
            if quiet_for < interval:
                self.ping_timer = self.loop.call_later(
                    interval - quiet_for, self.send_keepalive_ping
                )
                return
        super().send_keepalive_ping()
