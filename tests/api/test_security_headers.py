"""Every answer carries the security headers (issue 13): a strict Content-Security-Policy,
nosniff, no referrer (watch tokens travel in page addresses) and no framing. Pages, the
"Page not found" page, /docs, static files, API JSON and errors, and a refused WebSocket
handshake alike."""

from __future__ import annotations

import re

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.conftest import LiveServer

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
PAGE = {"Accept": BROWSER_ACCEPT}

REQUIRED_DIRECTIVES = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'none'"},
    "frame-ancestors": {"'none'"},
    "form-action": {"'self'"},
}


def assert_secured(headers: httpx.Headers, what: str) -> None:
    policy = headers.get("content-security-policy")
    assert policy, f"{what}: no Content-Security-Policy"
    directives = {
        name: set(values)
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }
    for name, values in REQUIRED_DIRECTIVES.items():
        assert directives.get(name) == values, f"{what}: {name} is {directives.get(name)}"
    for name, values in directives.items():
        # no way back to inline or string-built script through any directive
        assert not values & {"'unsafe-inline'", "'unsafe-eval'", "*", "data:"} or (
            name == "img-src" and values == {"'self'", "data:"}
        ), f"{what}: {name} {values}"
    assert headers.get("x-content-type-options") == "nosniff", what
    assert headers.get("referrer-policy") == "no-referrer", what
    assert headers.get("x-frame-options") == "DENY", what


REQUESTS = [
    ("GET", "/", PAGE, 200),
    ("GET", "/history", PAGE, 200),
    ("GET", "/match/some-match", PAGE, 200),
    ("GET", "/replay/some-match", PAGE, 200),
    ("GET", "/nonexistent", PAGE, 404),
    ("GET", "/docs", PAGE, 200),
    ("GET", "/openapi.json", {}, 200),
    ("GET", "/static/js/ui.js", {}, 200),
    ("GET", "/static/css/arcade.css", {}, 200),
    ("GET", "/static/js/nonexistent.js", {}, 404),
    ("GET", "/api/games", {}, 200),
    ("GET", "/api/nonexistent", PAGE, 404),
    ("GET", "/api/players/me", {}, 401),
    ("POST", "/api/players", {"Content-Type": "application/json"}, 400),
    ("DELETE", "/api/games", {}, 405),
    ("GET", "/healthz", {}, 200),
]


async def test_every_kind_of_answer_carries_the_security_headers(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        for method, path, headers, status in REQUESTS:
            response = await client.request(method, path, headers=headers, content=b"{")
            assert response.status_code == status, (method, path, response.text[:200])
            assert_secured(response.headers, f"{method} {path}")


async def test_a_refused_websocket_handshake_carries_them_too(server: LiveServer) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with connect(f"{server.ws_url}/api/no-such-socket", open_timeout=10):
            pass
    assert refused.value.response.status_code == 403
    assert_secured(httpx.Headers(list(refused.value.response.headers.raw_items())), "refused ws")


async def test_no_page_holds_inline_script_or_style(server: LiveServer) -> None:
    """The policy refuses inline script and style: a page that had them would break."""
    async with httpx.AsyncClient(base_url=server.url) as client:
        for path in ("/", "/history", "/match/m", "/replay/m", "/nonexistent", "/docs"):
            page = (await client.get(path, headers=PAGE)).text
            scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", page, re.S)
            assert scripts, path
            for attributes, body in scripts:
                assert 'src="/static/' in attributes and not body.strip(), (path, attributes)
            assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=", page), path
