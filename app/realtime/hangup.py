"""Closing a socket whose client stopped reading.

An ASGI `websocket.close` waits, like every send, until the server's write buffer has room,
which never happens for a client that does not read. uvicorn's own keepalive writes its
close frame past that wait; `close_now` does the same for our close codes, so the client
learns why once it reads again, and the connection holds no more than its write buffer.
"""

from __future__ import annotations

from fastapi import WebSocket

from app.realtime.wire import server_protocol


def close_now(websocket: WebSocket, code: int, reason: str) -> bool:
    """Queues the close frame behind what is unsent and closes; False if this server (not
    uvicorn's websockets-sansio protocol) offers no way past a full buffer."""
    protocol = server_protocol(websocket)
    conn = getattr(protocol, "conn", None)
    transport = getattr(protocol, "transport", None)
    if conn is None or transport is None or not hasattr(protocol, "close_sent"):
        return False
    if protocol.close_sent or transport.is_closing():
        return True
    conn.fail(code, reason)
    transport.write(b"".join(conn.data_to_send()))
    protocol.close_sent = True
    transport.close()  # after the buffer is written, or at once if the peer went away
    return True
