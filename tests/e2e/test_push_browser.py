"""Web Push in Chromium (issue 18, item 3): the home page's "Notify me when it's my turn"
registers the service worker /sw.js; a push delivered to it through the DevTools protocol
(ServiceWorker.deliverPushMessage) is shown as a notification with its title and body."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import give_name

pytestmark = pytest.mark.browser

SHOWN = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    const shown = await registration.getNotifications();
    if (shown.length) {
      return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}"""


def test_a_push_to_the_service_worker_shows_a_notification(
    new_page: Callable[..., Any], live_server: str
) -> None:
    page = new_page()
    page.context.grant_permissions(["notifications"], origin=live_server)
    cdp = page.context.new_cdp_session(page)
    registrations: dict[str, dict[str, Any]] = {}

    def updated(event: dict[str, Any]) -> None:
        for registration in event["registrations"]:
            registrations[registration["registrationId"]] = registration

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    cdp.send("ServiceWorker.enable")

    page.goto("/")
    give_name(page, "Ada")
    expect(page.get_by_test_id("player-name")).to_have_text("Ada")
    enable = page.get_by_test_id("push-enable")
    expect(enable).to_have_text("Notify me when it's my turn")
    enable.click()
    # Headless Chromium has no push service to subscribe with: the worker is registered all
    # the same, and the page says what happened.
    expect(page.get_by_test_id("push-status")).not_to_have_text(
        "Be told when a match waits for you, even with this page closed."
    )
    assert page.evaluate("async () => (await navigator.serviceWorker.ready).scope") == (
        f"{live_server}/"
    )

    deadline = time.monotonic() + 10
    while not any(
        r["scopeURL"] == f"{live_server}/" and not r["isDeleted"] for r in registrations.values()
    ):
        assert time.monotonic() < deadline, f"no registration reported: {registrations}"
        page.evaluate("0")  # a round trip, for the protocol's events to arrive
    registration_id = next(
        r["registrationId"]
        for r in registrations.values()
        if r["scopeURL"] == f"{live_server}/" and not r["isDeleted"]
    )

    payload = {
        "title": "Your turn in CD Thief with Bea",
        "body": "Bea moved; the match waits for you.",
        "url": "/match/abc123",
        "tag": "match-abc123",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server, "registrationId": registration_id, "data": json.dumps(payload)},
    )
    shown = page.evaluate(SHOWN)
    assert len(shown) == 1, shown
    assert shown[0]["title"] == payload["title"]
    assert shown[0]["body"] == payload["body"]
    assert shown[0]["tag"] == "match-abc123"
    assert shown[0]["data"] == {"url": f"{live_server}/match/abc123"}
