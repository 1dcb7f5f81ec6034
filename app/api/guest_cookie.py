"""The guest credential as browsers keep it: an HttpOnly cookie no page script can read.

API clients keep sending `Authorization: Bearer <token>`; browsers get the same token in this
cookie from POST /api/players (or POST /api/players/me/cookie for guests made before), and
the WebSocket handshake carries it. Because a cookie is sent by the browser on its own, a
cookie-authenticated request that changes something must come from a page of this site:
SameSite=Strict keeps other sites' requests from carrying it, and the Origin check below is
the second lock (older browsers, and the WebSocket, to which SameSite does not apply).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE_NAME = "arcade_guest"
# The longest lifetime browsers accept (Chromium caps cookies at 400 days); a guest has no
# other way back to its identity.
MAX_AGE_S = 400 * 24 * 3600
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def set_guest_cookie(response: Response, connection: HTTPConnection, token: str) -> None:
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=MAX_AGE_S,
        path="/",
        httponly=True,
        samesite="strict",
        # The scheme the visitor used: behind a TLS proxy uvicorn's proxy headers set it.
        secure=connection.url.scheme in ("https", "wss"),
    )


def clear_guest_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(
        COOKIE_NAME,
        path="/",
        httponly=True,
        samesite="strict",
        secure=connection.url.scheme in ("https", "wss"),
    )


def cookie_token(connection: HTTPConnection) -> str | None:
    return connection.cookies.get(COOKIE_NAME) or None


def is_foreign_origin(connection: HTTPConnection) -> bool:
    """True when a browser says the request comes from a page of another site.

    No Origin header means a client that is not a browser page (curl, an API client, a
    same-origin GET); those are let through. "null" (sandboxed frames, file: pages) is foreign.
    Settings.public_origins names the site's address when a proxy in front rewrites Host.
    """
    origin = connection.headers.get("origin")
    if origin is None:
        return False
    if origin.rstrip("/").lower() in _public_origins(connection):
        return False
    host = connection.headers.get("host")
    if not host:
        return True
    parts = urlsplit(origin)
    if not parts.scheme or not parts.hostname:
        return True
    try:
        origin_port = parts.port or DEFAULT_PORTS.get(parts.scheme)
        served = urlsplit(f"{parts.scheme}://{host}")
        served_port = served.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:  # a port that is not a number
        return True
    return (parts.hostname, origin_port) != (served.hostname, served_port)


def _public_origins(connection: HTTPConnection) -> set[str]:
    context = getattr(connection.app.state, "context", None)
    listed = context.settings.public_origins if context is not None else ""
    return {o.strip().rstrip("/").lower() for o in listed.split(",") if o.strip()}
