"""Writing a text frame to a match socket at once, when nothing would make it wait.

`WebSocket.send_text` is an await chain for every frame: Starlette's state checks, the
exception and security-header middleware (which act on accept and close only) and uvicorn's
`send`, which waits until the transport may be written, frames the text and writes it. A
connection that awaits it needs a task of its own to do so. When the transport is not paused
that wait does not wait, so `write` does what uvicorn's `send` does for a text frame, in the
caller, and says False whenever uvicorn's would have waited or refused: the caller then queues
the frame for the awaited path.
"""

from __future__ import annotations

from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketState
from websockets.exceptions import InvalidState


def server_protocol(websocket: WebSocket) -> Any:
    """uvicorn's protocol object for this connection, or None for any other server."""
    # Starlette hands the server's `receive` through unwrapped: it is a method of uvicorn's
    # protocol object for this connection.
    return getattr(getattr(websocket, "_receive", None), "__self__", None)


def direct_writer(websocket: WebSocket) -> Any:
    """The protocol `write` can write to (uvicorn's websockets-sansio one), else None."""
    protocol = server_protocol(websocket)
    for name in ("conn", "transport", "writable", "close_sent", "disconnected"):
        if not hasattr(protocol, name):
            return None
    # uvicorn's wsproto protocol has all of those too, with a connection of another kind.
    if not (hasattr(protocol.conn, "send_text") and hasattr(protocol.conn, "data_to_send")):
        return None
    return protocol


def write(protocol: Any, websocket: WebSocket, text: str, *, hold: bool = False) -> bool:
    """Writes one text frame now; False (nothing written) if uvicorn's `send` would wait for
    a paused transport or would not send at all. With `hold` the frame is framed but stays in
    the connection's output until `flush` (or any other write of uvicorn's, which takes all of
    that output in order), so that frames sent together cost one write."""
    if (
        not protocol.writable.is_set()
        or protocol.close_sent
        or protocol.disconnected
        or websocket.application_state is not WebSocketState.CONNECTED
    ):
        return False
    transport = protocol.transport
    if transport is None or transport.is_closing():
        return False
    conn = protocol.conn
    try:
        conn.send_text(text.encode())
    except InvalidState:  # the client's close frame came in: the awaited path says so
        return False
    if not hold:
        transport.write(b"".join(conn.data_to_send()))
    return True


def flush(protocol: Any) -> None:
    """Writes the frames `write` held, if the transport is still there to take them."""
    transport = protocol.transport
    if transport is None or transport.is_closing():
        return
    output = protocol.conn.data_to_send()
    if output:
        transport.write(b"".join(output))
