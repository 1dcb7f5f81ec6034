"""Passkeys in Chromium (issue 18, item 4): guest Ada adds a passkey on the home page with a
virtual authenticator (the DevTools protocol's WebAuthn domain: CTAP2, internal, resident key,
user verification); in a second browser context, her other device, the same credential signs
her in with "Sign in with a passkey", and she is Ada there too.

The pages are opened on http://localhost: a secure context for WebAuthn, and a host name a
relying party id may be (an IP address may not)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.browser_pages import page_maker

pytestmark = pytest.mark.browser

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def _authenticator(page: Any) -> tuple[Any, str]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, added["authenticatorId"]


def test_ada_adds_a_passkey_and_signs_in_with_it_on_another_device(
    browser: Any, live_server: str
) -> None:
    base = live_server.replace("127.0.0.1", "localhost")
    with httpx.Client(base_url=live_server) as client:
        ada = client.post("/api/players", json={"name": "Ada"}).json()

    with page_maker(browser, base, size=(390, 844)) as make:
        phone = make(player={"id": ada["id"], "name": "Ada"})
        phone.context.add_cookies([{"name": "arcade_guest", "value": ada["token"], "url": base}])
        cdp, phone_authenticator = _authenticator(phone)
        phone.goto("/")
        identity = phone.get_by_test_id("identity")
        expect(identity).to_be_visible()
        expect(phone.get_by_test_id("player-name")).to_have_text("Ada")
        add = identity.get_by_test_id("passkey-add")
        expect(add).to_be_visible()
        add.click()
        expect(identity.get_by_test_id("passkey")).to_have_count(1)
        expect(identity.get_by_test_id("identity-status")).to_contain_text("Passkey added")
        # Phone first: the block fits the 390 px screen, its buttons are thumb-sized.
        for button in (add, identity.get_by_test_id("passkey-signin")):
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390

        credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_authenticator})[
            "credentials"
        ]
        assert len(credentials) == 1 and credentials[0]["isResidentCredential"]
        assert credentials[0]["rpId"] == "localhost"

        # Her laptop: a new browser context (no cookie, no localStorage) whose own virtual
        # authenticator holds the same credential, as a synced passkey would be.
        laptop = make()
        laptop_cdp, laptop_authenticator = _authenticator(laptop)
        laptop_cdp.send(
            "WebAuthn.addCredential",
            {"authenticatorId": laptop_authenticator, "credential": credentials[0]},
        )
        laptop.goto("/")
        # A newcomer is asked for a name first; the dialog offers the passkey as well.
        dialog = laptop.get_by_test_id("name-dialog")
        expect(dialog).to_be_visible()
        expect(laptop.get_by_test_id("passkey-add")).to_be_hidden()
        with laptop.expect_navigation():  # signed in, the page starts again as her
            dialog.get_by_test_id("passkey-signin-dialog").click()
        expect(laptop.get_by_test_id("player-name")).to_have_text("Ada")
        expect(laptop.get_by_test_id("name-dialog")).to_have_count(0)
        me = laptop.evaluate("fetch('/api/players/me').then((r) => r.json())")
        assert me == {"id": ada["id"], "name": "Ada"}
        stored = laptop.evaluate("JSON.parse(localStorage.getItem('arcade.player'))")
        assert stored == {"id": ada["id"], "name": "Ada"}
        expect(laptop.get_by_test_id("passkey")).to_have_count(1)  # her passkey, listed here
        # The phone is still hers: its token was left alone.
        assert phone.evaluate("fetch('/api/players/me').then((r) => r.json())")["id"] == ada["id"]

        # A browser where someone else (Bob) is the guest: "Sign in with a passkey" in the
        # block makes it Ada's.
        with httpx.Client(base_url=live_server) as client:
            bob = client.post("/api/players", json={"name": "Bob"}).json()
        shared = make(player={"id": bob["id"], "name": "Bob"})
        shared.context.add_cookies([{"name": "arcade_guest", "value": bob["token"], "url": base}])
        shared_cdp, shared_authenticator = _authenticator(shared)
        # The laptop's copy, with its sign count: a copy whose count went back (the phone's,
        # from before the laptop used it) is refused as a cloned authenticator.
        current = laptop_cdp.send(
            "WebAuthn.getCredentials", {"authenticatorId": laptop_authenticator}
        )["credentials"][0]
        assert current["signCount"] > credentials[0]["signCount"]
        shared_cdp.send(
            "WebAuthn.addCredential",
            {"authenticatorId": shared_authenticator, "credential": current},
        )
        shared.goto("/")
        expect(shared.get_by_test_id("player-name")).to_have_text("Bob")
        with shared.expect_navigation():
            shared.get_by_test_id("passkey-signin").click()
        expect(shared.get_by_test_id("player-name")).to_have_text("Ada")
        me = shared.evaluate("fetch('/api/players/me').then((r) => r.json())")
        assert me == {"id": ada["id"], "name": "Ada"}
