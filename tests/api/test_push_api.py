"""Web Push (issue 18, item 3; docs/protocol.md, section 17): a push endpoint run here on
127.0.0.1 receives what the server sends to subscriptions whose keys this test made; it
decrypts each payload (aes128gcm) and checks the VAPID signature against GET /api/push/key.
A turn pushes once to the player whose turn it now is; the end of a match to everyone; an
endpoint answering 410 loses its subscription."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import httpx
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import select

from app.db.models import PushSubscription
from app.db.session import make_engine
from tests.conftest import LiveServer
from tests.fixture_games import QuestionGame, register_fixture_game
from tests.helpers import Guest, guests, started_match


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushEndpoint:
    """An HTTP server in a thread standing in for a push service: it keeps every request
    and answers 201, or the status set for a path."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.answers: dict[str, int] = {}
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                with outer.lock:
                    outer.received.append(
                        {
                            "path": self.path,
                            "headers": {k.lower(): v for k, v in self.headers.items()},
                            "body": body,
                        }
                    )
                self.send_response(outer.answers.get(self.path, 201))
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                """Quiet: http.server would print every request to stderr."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def to(self, path: str) -> list[dict[str, Any]]:
        with self.lock:
            return [r for r in self.received if r["path"] == path]


@pytest.fixture
def push_endpoint() -> Iterator[PushEndpoint]:
    endpoint = PushEndpoint()
    endpoint.thread.start()
    try:
        yield endpoint
    finally:
        endpoint.server.shutdown()
        endpoint.server.server_close()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # The server posts to 127.0.0.1 with requests, which would honour a proxy set around us.
    for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1," + os.environ.get("NO_PROXY", ""))


class Browser:
    """A subscription's keys, made here as a browser makes them."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def read(self, request: dict[str, Any]) -> dict[str, Any]:
        assert request["headers"]["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            request["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        payload: dict[str, Any] = json.loads(plain)
        return payload


def check_vapid(request: dict[str, Any], server_key: str, audience: str) -> None:
    """The Authorization header is `vapid t=<JWT>,k=<key>`: an ES256 JWT signed by the key
    GET /api/push/key gives, for the push service's origin."""
    scheme, _, rest = request["headers"]["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.split("=", 1) for part in rest.split(","))
    assert fields["k"] == server_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    body = json.loads(unb64url(claims))
    assert body["aud"] == audience
    assert body["sub"].startswith("mailto:")
    assert time.time() < body["exp"] <= time.time() + 24 * 3600
    raw = unb64url(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):
        public.verify(der, f"{header}.{claims}x".encode(), ec.ECDSA(hashes.SHA256()))


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)


def pushed(endpoint: PushEndpoint, browser: Browser, number: int) -> dict[str, Any]:
    """The `number`th push (from 1) to the browser's endpoint, decrypted, once it has come."""
    path = "/" + browser.endpoint.split("/", 3)[3]
    wait_for(lambda: len(endpoint.to(path)) >= number)
    return browser.read(endpoint.to(path)[number - 1])


async def subscribed(endpoint: PushEndpoint, *people: Guest) -> list[Browser]:
    """A browser subscribed for each guest, at /push/<her name in lower case>."""
    browsers = []
    for guest in people:
        browser = Browser(f"{endpoint.base}/push/{guest.name.lower()}")
        await subscribe(guest, browser)
        browsers.append(browser)
    return browsers


async def subscriptions(database_url: str) -> list[tuple[str, str]]:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(select(PushSubscription.player_id, PushSubscription.endpoint))
            return sorted((r[0], r[1]) for r in rows)
    finally:
        await engine.dispose()


async def subscribe(guest: Guest, browser: Browser) -> None:
    answer = await guest.post("/api/push/subscriptions", browser.subscription())
    assert answer.status_code == 201, answer.text


async def test_a_turn_and_the_end_are_pushed_encrypted_and_signed(
    database_url: str, push_endpoint: PushEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_fixture_game(monkeypatch, QuestionGame())
    server = LiveServer(database_url, push_allow_local_endpoints=True).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            key = (await client.get("/api/push/key")).json()["key"]
            assert len(unb64url(key)) == 65 and unb64url(key)[0] == 4
            ada, bob = await guests(client, "Ada", "Bob")
            ada_browser, bob_browser = await subscribed(push_endpoint, ada, bob)
            match_id = await started_match(client, [ada, bob], game="test-question")
            # Ada started it: Bob hears of it, and who moves first; Ada does not.
            assert pushed(push_endpoint, bob_browser, 1) == {
                "title": "Your match started",
                "body": "Question (test) with Ada: Ada moves first.",
                "url": f"/match/{match_id}",
                "tag": f"match-{match_id}",
            }

            asked = await ada.post(f"/api/matches/{match_id}/moves", {"move": {"type": "ask"}})
            assert asked.status_code == 200, asked.text
            wait_for(lambda: len(push_endpoint.to("/push/bob")) == 2)
            request = push_endpoint.to("/push/bob")[1]
            assert request["headers"]["ttl"] == str(24 * 3600)
            check_vapid(request, key, push_endpoint.base)
            assert bob_browser.read(request) == {
                "title": "Your turn in Question (test) with Ada",
                "body": "Ada moved; the match waits for you.",
                "url": f"/match/{match_id}",
                "tag": f"match-{match_id}",
            }

            # Bob answers (or his decision clock answers for him): Ada's turn again.
            await bob.post(
                f"/api/matches/{match_id}/moves", {"move": {"type": "answer", "answer": "yes"}}
            )
            wait_for(lambda: len(push_endpoint.to("/push/ada")) == 1)
            to_ada = ada_browser.read(push_endpoint.to("/push/ada")[0])
            assert to_ada["title"] == "Your turn in Question (test) with Bob"

            finished = await ada.post(
                f"/api/matches/{match_id}/moves", {"move": {"type": "finish"}}
            )
            assert finished.status_code == 200, finished.text
            wait_for(
                lambda: (
                    len(push_endpoint.to("/push/ada")) == 2
                    and len(push_endpoint.to("/push/bob")) == 3
                )
            )
            ended_ada = ada_browser.read(push_endpoint.to("/push/ada")[1])
            ended_bob = bob_browser.read(push_endpoint.to("/push/bob")[2])
            assert ended_ada["title"] == ended_bob["title"] == "Your match ended"
            assert ended_ada["body"] == "Question (test) with Bob: You won. Finished."
            assert ended_bob["body"] == "Question (test) with Ada: Ada won. Finished."
            assert ended_bob["url"] == f"/match/{match_id}"
            # Exactly one push for the start (to Bob), one each for the turn that became
            # theirs, and one each for the end.
            assert len(push_endpoint.received) == 5
    finally:
        server.stop()


async def test_an_endpoint_that_is_gone_loses_its_subscription(
    database_url: str, push_endpoint: PushEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_fixture_game(monkeypatch, QuestionGame())
    push_endpoint.answers["/push/gone"] = 410
    push_endpoint.answers["/push/broken"] = 500
    server = LiveServer(database_url, push_allow_local_endpoints=True).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            await subscribe(bob, Browser(f"{push_endpoint.base}/push/gone"))
            await subscribe(bob, Browser(f"{push_endpoint.base}/push/broken"))
            match_id = await started_match(client, [ada, bob], game="test-question")
            asked = await ada.post(f"/api/matches/{match_id}/moves", {"move": {"type": "ask"}})
            assert asked.status_code == 200, asked.text
            # The start and the turn are both sent to the broken endpoint; the first reply of
            # the gone one deletes it.
            wait_for(lambda: len(push_endpoint.to("/push/broken")) == 2)
            deadline = time.monotonic() + 10
            while len(await subscriptions(database_url)) != 1:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            # A failure other than "gone" keeps the subscription (and the move went through).
            assert await subscriptions(database_url) == [
                (bob.id, f"{push_endpoint.base}/push/broken")
            ]
    finally:
        server.stop()


async def test_subscriptions_are_checked_bounded_and_removable(database_url: str) -> None:
    server = LiveServer(database_url).start()  # local endpoints not allowed here
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            good = Browser("https://fcm.googleapis.com/fcm/send/1").subscription()
            anonymous = await client.post("/api/push/subscriptions", json=good)
            assert anonymous.status_code == 401

            bad_bodies = [
                {**good, "endpoint": "http://fcm.googleapis.com/fcm/send/1"},
                # Only browsers' push services: the server never posts where a client says.
                {**good, "endpoint": "https://push.example/send/1"},
                {**good, "endpoint": "https://169.254.169.254/latest/meta-data"},
                {**good, "endpoint": "https://localhost/admin"},
                {**good, "endpoint": "https://fcm.googleapis.com.evil.example/x"},
                {**good, "endpoint": "http://127.0.0.1:9/push"},
                {**good, "endpoint": "https://" + "a" * 1200 + ".example/"},
                {**good, "endpoint": "not a url"},
                {**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}},
                {**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "AAAA"}},
                {**good, "keys": {"p256dh": "!!", "auth": good["keys"]["auth"]}},
                {"endpoint": good["endpoint"]},
                [],
            ]
            for body in bad_bodies:
                answer = await ada.post("/api/push/subscriptions", body)
                assert answer.status_code == 400, (body, answer.text)
                assert set(answer.json()) >= {"code", "message"}
                assert answer.json()["code"] == "bad_request"

            endpoints = [f"https://fcm.googleapis.com/fcm/send/{n}" for n in range(12)]
            for endpoint in endpoints:
                await subscribe(ada, Browser(endpoint))
            kept = await subscriptions(database_url)
            assert len(kept) == 10 and {p for p, _e in kept} == {ada.id}
            assert {e for _p, e in kept} == set(endpoints[2:])  # the oldest two dropped

            # Someone else cannot remove Ada's subscription; Ada can, and again is fine.
            gone = {"endpoint": endpoints[5]}
            assert (
                await client.request(
                    "DELETE", "/api/push/subscriptions", json=gone, headers=bob.auth
                )
            ).status_code == 204
            assert len(await subscriptions(database_url)) == 10
            for _ in range(2):
                answer = await client.request(
                    "DELETE", "/api/push/subscriptions", json=gone, headers=ada.auth
                )
                assert answer.status_code == 204
            assert endpoints[5] not in {e for _p, e in await subscriptions(database_url)}

            # The same browser subscribing for another player moves to her.
            await subscribe(bob, Browser(endpoints[6]))
            assert (bob.id, endpoints[6]) in await subscriptions(database_url)
    finally:
        server.stop()


async def test_the_key_is_kept_over_a_restart_and_can_be_set(database_url: str) -> None:
    first = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=first.url) as client:
            key = (await client.get("/api/push/key")).json()["key"]
    finally:
        first.stop()
    again = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=again.url) as client:
            assert (await client.get("/api/push/key")).json()["key"] == key
            worker = await client.get("/sw.js")
            assert worker.status_code == 200
            assert worker.headers["content-type"].startswith("text/javascript")
            assert "showNotification" in worker.text
    finally:
        again.stop()
    private = ec.generate_private_key(ec.SECP256R1())
    raw = b64url(private.private_numbers().private_value.to_bytes(32, "big"))
    public = b64url(
        private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )
    chosen = LiveServer(database_url, vapid_private_key=raw).start()
    try:
        async with httpx.AsyncClient(base_url=chosen.url) as client:
            assert (await client.get("/api/push/key")).json()["key"] == public
    finally:
        chosen.stop()


async def test_an_invitation_is_pushed_to_the_friend_invited(
    database_url: str, push_endpoint: PushEndpoint
) -> None:
    """Play again with them (issue 18, item 5): "<host> invited you" to each friend invited."""
    server = LiveServer(database_url, push_allow_local_endpoints=True).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob, cy = await guests(client, "Ada", "Bob", "Cy")
            await started_match(client, [ada, bob])
            bob_browser, _cy_browser = await subscribed(push_endpoint, bob, cy)
            made = await ada.post(
                "/api/matches", {"game": "c64-maze", "seats": 2, "invite": [bob.id]}
            )
            assert made.status_code == 201, made.text
            assert pushed(push_endpoint, bob_browser, 1) == {
                "title": "Ada invited you",
                "body": "A table of C64 Maze is waiting for you.",
                "url": f"/match/{made.json()['id']}",
                "tag": f"invite-{made.json()['id']}",
            }
            assert push_endpoint.to("/push/cy") == []  # not invited: nothing
    finally:
        server.stop()


async def test_a_match_ended_or_claimed_by_a_player_is_pushed_to_the_others(
    database_url: str, push_endpoint: PushEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18, item 3 ("Your match ended"): a match a player ends, or whose win she claims
    when the other stayed away, ends for the others too, and their closed browsers hear it."""
    register_fixture_game(monkeypatch, QuestionGame())
    server = LiveServer(
        database_url,
        push_allow_local_endpoints=True,
        away_after_seconds=1,
        claim_win_after_seconds=1,
    ).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            ada_browser, bob_browser = await subscribed(push_endpoint, ada, bob)
            ended_id = await started_match(client, [ada, bob], game="test-question")
            claimed_id = await started_match(client, [ada, bob], game="test-question")
            wait_for(lambda: len(push_endpoint.to("/push/bob")) == 2)  # the two starts

            ended = await bob.post(f"/api/matches/{ended_id}/end")
            assert ended.status_code == 200, ended.text
            assert pushed(push_endpoint, ada_browser, 1) == {
                "title": "Your match ended",
                "body": "Question (test) with Bob: Bob ended it.",
                "url": f"/match/{ended_id}",
                "tag": f"match-{ended_id}",
            }

            # Nobody has a socket open: Bob is away after a second, and Ada may claim a
            # second later.
            deadline = time.monotonic() + 30
            claim_url = f"/api/matches/{claimed_id}/claim-win"
            while (claim := await ada.post(claim_url)).status_code != 200:
                assert claim.json()["code"] in {"not_away", "too_soon"}, claim.text
                assert time.monotonic() < deadline, claim.text
                await asyncio.sleep(0.1)
            assert pushed(push_endpoint, bob_browser, 3) == {
                "title": "Your match ended",
                "body": "Question (test) with Ada: "
                "Ada claimed the win: the other player stayed away.",
                "url": f"/match/{claimed_id}",
                "tag": f"match-{claimed_id}",
            }
            # The one who ended or claimed it is not told what she did herself.
            assert len(push_endpoint.to("/push/ada")) == 1
    finally:
        server.stop()
