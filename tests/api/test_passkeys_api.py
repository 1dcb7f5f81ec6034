"""Passkeys (issue 18, item 4) over the API, on SQLite and PostgreSQL: the options the browser
gets, and a small software authenticator (an EC P-256 key, "none" attestation) standing in for
the browser's, so that registration, sign-in, the sign count and every refusal are exercised
end to end without a browser. The browser's own authenticator is tested in
tests/e2e/test_passkeys_browser.py."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from datetime import UTC, datetime, timedelta
from typing import Any

import cbor2
import httpx
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

from tests.conftest import LiveServer
from tests.helpers import Guest, guests


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    """One discoverable credential, as a platform authenticator makes it."""

    def __init__(self, origin: str, rp_id: str) -> None:
        self.origin, self.rp_id = origin, rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.user_handle: str | None = None
        self.count = 0

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        ).encode()

    def create(self, options: dict[str, Any], label: str | None = None) -> dict[str, Any]:
        self.user_handle = options["user"]["id"]
        auth_data = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([0x45])  # user present, user verified, attested credential data
            + self.count.to_bytes(4, "big")
            + bytes(16)  # AAGUID
            + len(self.credential_id).to_bytes(2, "big")
            + self.credential_id
            + self._cose_key()
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        credential: dict[str, Any] = {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(
                    self._client_data("webauthn.create", options["challenge"])
                ),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }
        if label is not None:
            credential["label"] = label
        return credential

    def get(self, options: dict[str, Any], *, count: int | None = None) -> dict[str, Any]:
        self.count = self.count + 1 if count is None else count
        auth_data = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([0x05])  # user present, user verified
            + self.count.to_bytes(4, "big")
        )
        client_data = self._client_data("webauthn.get", options["challenge"])
        signature = self.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": self.user_handle,
            },
            "clientExtensionResults": {},
        }


async def _options(guest: Guest) -> dict[str, Any]:
    answer = await guest.post("/api/passkeys/register/options")
    assert answer.status_code == 200, answer.text
    options: dict[str, Any] = answer.json()
    return options


async def _register(guest: Guest, device: SoftAuthenticator, label: str = "My phone") -> str:
    created = await guest.post(
        "/api/passkeys/register", device.create(await _options(guest), label)
    )
    assert created.status_code == 201, created.text
    passkey_id: str = created.json()["id"]
    return passkey_id


async def _login_options(client: httpx.AsyncClient) -> dict[str, Any]:
    answer = await client.post("/api/passkeys/login/options")
    assert answer.status_code == 200, answer.text
    options: dict[str, Any] = answer.json()
    return options


def _refused(answer: httpx.Response, status: int, words: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) >= {"code", "message"}, body
    assert words in body["message"], body["message"]


async def test_a_guest_adds_a_passkey_and_signs_in_with_it_elsewhere(database_url: str) -> None:
    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            phone = SoftAuthenticator(server.url, "127.0.0.1")

            options = await _options(ada)
            assert options["rp"] == {"id": "127.0.0.1", "name": "Arcade Night"}
            assert options["user"]["name"] == "Ada" and len(unb64url(options["user"]["id"])) == 32
            assert options["user"]["id"] != ada.id  # a random handle, not her public id
            assert len(unb64url(options["challenge"])) >= 32
            selection = options["authenticatorSelection"]
            assert selection["residentKey"] == "required"
            assert selection["userVerification"] == "preferred"
            assert options["excludeCredentials"] == []

            created = await ada.post("/api/passkeys/register", phone.create(options, "My phone"))
            assert created.status_code == 201, created.text
            passkey = created.json()
            assert passkey["label"] == "My phone" and passkey["created_at"].endswith(
                ("Z", "+00:00")
            )
            again = await ada.post("/api/passkeys/register", phone.create(options))
            _refused(again, 400, "already used")

            second = await _options(ada)  # her passkey is excluded; her handle stays
            assert second["user"]["id"] == options["user"]["id"]
            assert [c["id"] for c in second["excludeCredentials"]] == [b64url(phone.credential_id)]
            listed = await ada.get("/api/passkeys")
            assert [p["id"] for p in listed.json()["passkeys"]] == [passkey["id"]]
            assert (await bob.get("/api/passkeys")).json()["passkeys"] == []

            # Another browser: no cookie, no token.
            async with httpx.AsyncClient(base_url=server.url) as elsewhere:
                login = await _login_options(elsewhere)
                assert login["rpId"] == "127.0.0.1" and "allowCredentials" not in login
                assertion = phone.get(login)
                signed_in = await elsewhere.post("/api/passkeys/login", json=assertion)
                assert signed_in.status_code == 200, signed_in.text
                assert signed_in.json() == {"id": ada.id, "name": "Ada"}
                assert "HttpOnly" in signed_in.headers["set-cookie"]
                me = await elsewhere.get("/api/players/me")  # by the new cookie
                assert me.json() == {"id": ada.id, "name": "Ada"}
                replayed = await elsewhere.post("/api/passkeys/login", json=assertion)
                _refused(replayed, 400, "already used")
                cloned = phone.get(await _login_options(elsewhere), count=1)  # not past 1
                _refused(
                    await elsewhere.post("/api/passkeys/login", json=cloned), 400, "sign count"
                )
                again_ok = phone.get(await _login_options(elsewhere), count=7)
                assert (await elsewhere.post("/api/passkeys/login", json=again_ok)).is_success

            assert (await ada.get("/api/players/me")).json()["id"] == ada.id  # old token works
            used = (await ada.get("/api/passkeys")).json()["passkeys"][0]
            assert used["last_used_at"] is not None

            # Bob cannot remove Ada's passkey; Ada can, and it signs nobody in after that.
            path = f"/api/passkeys/{passkey['id']}"
            assert (await bob.client.delete(path, headers=bob.auth)).status_code == 404
            assert (await ada.client.delete(path, headers=ada.auth)).status_code == 204
            assert (await ada.get("/api/passkeys")).json()["passkeys"] == []
            gone = await client.post(
                "/api/passkeys/login", json=phone.get(await _login_options(client))
            )
            _refused(gone, 400, "not known here")
    finally:
        server.stop()


async def test_refusals_are_400_with_a_message(database_url: str) -> None:
    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            (ada,) = await guests(client, "Ada")
            phone = SoftAuthenticator(server.url, "127.0.0.1")
            for path in ("/api/passkeys/register/options", "/api/passkeys/register"):
                _refused(await client.post(path, json={}), 401, "guest")
            _refused(await client.get("/api/passkeys"), 401, "guest")

            login = "/api/passkeys/login"
            bad = await client.post(login, content=b"{not json", headers=_json())
            _refused(bad, 400, "JSON")
            _refused(await client.post(login, json=[1, 2]), 400, "JSON object")
            _refused(await client.post(login, json={"id": "x"}), 400, "clientDataJSON")
            garbled = {"id": "x", "response": {"clientDataJSON": "%%%"}}
            _refused(await client.post(login, json=garbled), 400, "clientDataJSON")
            huge = await client.post(login, content=b"{" + b" " * 70_000 + b"}", headers=_json())
            _refused(huge, 413, "KiB")

            # A challenge nobody handed out; one for registration used to sign in.
            stranger = SoftAuthenticator(server.url, "127.0.0.1")
            made_up = stranger.get({"challenge": b64url(os.urandom(32))})
            _refused(await client.post(login, json=made_up), 400, "unknown or was already used")
            register_options = await _options(ada)
            wrong_purpose = stranger.get(register_options)
            _refused(await client.post(login, json=wrong_purpose), 400, "unknown")

            # An unknown credential answering a real challenge.
            unknown = stranger.get(await _login_options(client))
            _refused(await client.post(login, json=unknown), 400, "not known here")

            # The wrong origin, and a forged signature.
            await _register(ada, phone)
            elsewhere = SoftAuthenticator("http://evil.example", "127.0.0.1")
            elsewhere.key, elsewhere.credential_id = phone.key, phone.credential_id
            elsewhere.user_handle = phone.user_handle
            _refused(
                await client.post(login, json=elsewhere.get(await _login_options(client))),
                400,
                "origin",
            )
            forged = phone.get(await _login_options(client))
            forged["response"]["signature"] = b64url(os.urandom(70))
            _refused(await client.post(login, json=forged), 400, "could not be verified")

            # A registration answer that is not an attestation.
            broken = phone.create(await _options(ada))
            broken["response"]["attestationObject"] = b64url(b"nonsense")
            _refused(await ada.post("/api/passkeys/register", broken), 400, "could not be verified")

            # An expired challenge (5 minutes): its row is moved into the past.
            expiring = await _login_options(client)
            await _age_challenges(server.database_url)
            late = phone.get(expiring)
            _refused(await client.post(login, json=late), 400, "expired")
            # A page of another site may not sign a browser in.
            foreign = await client.post(
                login,
                json=phone.get(await _login_options(client)),
                headers={"Origin": "http://evil.example"},
            )
            _refused(foreign, 403, "own pages")

            # A label that is not a name is refused without using up the challenge.
            fresh = await _options(ada)
            labelled = await ada.post("/api/passkeys/register", stranger.create(fresh, "a\x07b"))
            _refused(labelled, 400, "control characters")
            kept = await ada.post("/api/passkeys/register", stranger.create(fresh, " Laptop "))
            assert kept.status_code == 201 and kept.json()["label"] == "Laptop", kept.text
    finally:
        server.stop()


def _json() -> dict[str, str]:
    return {"Content-Type": "application/json"}


async def _age_challenges(database_url: str) -> None:
    from sqlalchemy import update

    from app.db.models import PasskeyChallenge
    from app.db.session import make_engine

    engine = make_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                update(PasskeyChallenge).values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
            )
    finally:
        await engine.dispose()


async def test_passkey_doors_are_rate_limited(database_url: str) -> None:
    server = LiveServer(
        database_url, passkeys_per_address="3/minute", passkeys_per_player="2/minute"
    ).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            for _ in range(3):
                assert (await client.post("/api/passkeys/login/options")).status_code == 200
            refused = await client.post("/api/passkeys/login/options")
            _refused(refused, 429, "passkey")
            assert refused.json()["code"] == "rate_limited" and refused.headers["retry-after"]
    finally:
        server.stop()
    server = LiveServer(database_url, passkeys_per_player="2/minute").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            (ada,) = await guests(client, "Ada")
            assert (await ada.get("/api/passkeys")).status_code == 200
            assert (await ada.post("/api/passkeys/register/options")).status_code == 200
            _refused(await ada.get("/api/passkeys"), 429, "passkey")
    finally:
        server.stop()
