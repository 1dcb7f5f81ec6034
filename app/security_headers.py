"""Security headers on every HTTP response: a strict Content-Security-Policy and friends.

A plain ASGI middleware (not Starlette's BaseHTTPMiddleware, which runs each request through
an extra task and stream): it only appends headers to the response's start message, so the
game's hot paths (moves, the open-lobby poll) pay a few list operations.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Every script, style and connection comes from this server; nothing inline. The pages need
# nothing more (their scripts are modules under /static/js/, their styles in /static/css/, and
# scripts style elements through the CSSOM, which a policy does not restrict). img-src allows
# data: for the icons Swagger UI's stylesheet embeds; connect-src 'self' covers the same
# origin's ws:/wss: socket.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    )
)

# The same policy for a page that our own pages may show in a frame (a rules page beside the
# board); other sites still may not.
EMBEDDABLE_CSP = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", "frame-ancestors 'self'")

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    # A spectator's page address carries its ?watch= token: no page sends it anywhere.
    ("referrer-policy", "no-referrer"),
    # frame-ancestors for browsers that predate it.
    ("x-frame-options", "DENY"),
)

_ENCODED = tuple(
    (name.encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS
)

# The start of an HTTP response; the second is a WebSocket handshake refused with an HTTP
# answer (the ASGI "websocket.http.response" extension).
_RESPONSE_STARTS = frozenset(("http.response.start", "websocket.http.response.start"))


def with_security_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The headers plus ours; a header the response set itself is left as it is."""
    headers = list(headers)
    present = {name.lower() for name, _ in headers}
    headers.extend(header for header in _ENCODED if header[0] not in present)
    return headers


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        # A WebSocket refused before it was accepted is answered with HTTP 403. The server
        # writes that answer itself, without our headers, unless it is handed one through the
        # "websocket.http.response" extension: then we hand it over, with them.
        can_answer_http = "websocket.http.response" in scope.get("extensions", {})
        accepted = False

        async def send_with_headers(message: Message) -> None:
            nonlocal accepted
            kind = message["type"]
            if kind in _RESPONSE_STARTS:
                message = {**message, "headers": with_security_headers(message.get("headers", ()))}
            elif kind == "websocket.accept":
                accepted = True
            elif kind == "websocket.close" and not accepted and can_answer_http:
                await send(
                    {
                        "type": "websocket.http.response.start",
                        "status": 403,
                        "headers": with_security_headers(
                            [(b"content-type", b"text/plain; charset=utf-8")]
                        ),
                    }
                )
                await send({"type": "websocket.http.response.body", "body": b"Forbidden"})
                return
            await send(message)

        await self.app(scope, receive, send_with_headers)
