"""Who a match socket speaks for: the cookie of its handshake, the Origin it came from, and
what a hello with a strange watch token or a chat with hostile text gets back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, started_match

COOKIE = "arcade_guest"


class CookieSocket(Viewer):
    """A match socket opened like a browser's: the guest cookie and an Origin header, and a
    hello without a token."""

    def __init__(self, server: LiveServer, match_id: str, token: str | None, **headers: str):
        super().__init__(server.ws_url, match_id, None)
        self.headers = dict(headers)
        if token:
            self.headers["Cookie"] = f"{COOKIE}={token}"

    async def __aenter__(self) -> CookieSocket:
        self.ws = await websockets.connect(self.url, additional_headers=self.headers)
        await self.send({"type": "hello"})
        return self


async def test_a_hello_without_a_token_plays_as_the_cookie_guest(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with (
        CookieSocket(server, match_id, ada.token, Origin=server.url) as a,
        CookieSocket(server, match_id, bob.token) as b,  # no Origin: not a browser page
    ):
        await a.until_type("snapshot")
        await b.until_type("snapshot")
        assert (a.state["you"], b.state["you"]) == (0, 1)
        mover = a if a.state["legal_moves"] else b
        move_id = await mover.move(mover.state["legal_moves"][0], version=mover.version)
        ack = await mover.until_type("ack")
        assert ack["id"] == move_id


@pytest.mark.parametrize(
    "origin", ["https://evil.example", "http://127.0.0.1:1", "null", "http://localhost.evil"]
)
async def test_a_socket_from_another_sites_page_is_refused(server: LiveServer, origin: str) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    with pytest.raises(InvalidStatus) as refused:
        async with CookieSocket(server, match_id, ada.token, Origin=origin):
            pass
    assert refused.value.response.status_code == 403


async def test_an_unknown_cookie_is_said_once_and_then_the_socket_watches(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with CookieSocket(server, match_id, "forgotten") as s:
        refused = await s.until_type("error")
        assert refused["code"] == "unauthorized"
        await s.send({"type": "hello"})
        await s.until_type("snapshot")
        assert s.state["you"] is None


async def _private_match(server: LiveServer) -> tuple[str, Any]:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
        private = await ada.client.patch(
            f"/api/matches/{match_id}", json={"private": True}, headers=ada.auth
        )
        assert private.status_code == 200
    return match_id, ada


async def test_a_non_ascii_watch_token_is_forbidden_and_the_socket_lives_on(
    server: LiveServer,
) -> None:
    match_id, ada = await _private_match(server)
    async with Viewer(server.ws_url, match_id, None) as s:
        await s.send({"type": "hello", "watch": "ünïcødé-wätch-tøken"})
        # The Viewer's own hello (no watch) is refused first, then this one.
        for _ in range(2):
            refused = await s.until_type("error")
            assert refused["code"] == "forbidden"
        await s.send({"type": "hello", "watch": "\ud800"})  # not even valid JSON text
        assert (await s.until_type("error"))["code"] == "bad_request"
        await s.send({"type": "hello", "token": ada.token})
        await s.until_type("snapshot")
        assert s.state["you"] == 0


HOSTILE_CHAT = {
    "nul": "hi\x00there",
    "control": "bell\x07",
    "bidi override": "evil\u202egnp.exe",
    "bidi isolate": "a\u2066b",
    "only invisible": "\u200b\u200d\u2060\ufeff\u3164",
    "blank": "   ",
    "zalgo": "z\u0301\u0302\u0303\u0304a",
    "lone surrogate": "\ud800",
}


async def test_chat_text_breaking_the_rules_is_refused_with_a_reason(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with Viewer(server.ws_url, match_id, ada.token) as a:
        await a.until_type("snapshot")
        for label, text in HOSTILE_CHAT.items():
            await a.ws.send(json.dumps({"type": "chat", "text": text}))
            refused = await a.until_type("error")
            assert refused["code"] == "bad_request", label
            assert refused["message"].endswith("."), label
        await a.send({"type": "chat", "text": "  Cafe\u0301 ok  "})
        said = await a.until_type("chat")
        assert said["text"] == "Caf\u00e9 ok", "trimmed and NFC-normalised"
        await a.send({"type": "chat", "text": "x" * 501})
        assert (await a.until_type("error"))["code"] == "too_large"


async def test_a_spectator_without_a_name_may_not_chat(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with (
        Viewer(server.ws_url, match_id, None) as s,
        Viewer(server.ws_url, match_id, ada.token) as a,
    ):
        await s.until_type("snapshot")
        await a.until_type("snapshot")
        await s.send({"type": "chat", "text": "hello from nobody"})
        refused = await s.until_type("error")
        assert refused["code"] == "name_required" and "name" in refused["message"]
        await a.send({"type": "chat", "text": "only named guests"})
        assert (await a.until_type("chat"))["text"] == "only named guests"
        with pytest.raises(asyncio.TimeoutError):
            await a.until(lambda f: f["type"] == "chat" and "nobody" in f["text"], timeout=0.5)


async def test_the_public_origin_behind_a_proxy_may_open_a_socket(database_url: str) -> None:
    server = LiveServer(database_url, public_origins="https://arcade.example").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob])
        async with CookieSocket(server, match_id, ada.token, Origin="https://arcade.example") as a:
            await a.until_type("snapshot")
            assert a.state["you"] == 0
        with pytest.raises(InvalidStatus):
            async with CookieSocket(server, match_id, ada.token, Origin="https://evil.example"):
                pass
    finally:
        server.stop()
