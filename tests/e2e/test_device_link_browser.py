"""Continue on another device in the browser (issue 18, item 4): on the home page a guest
makes a one-time link, shown as a QR code and a link to copy; another browser opens the link,
says yes, and is her (the header names her; the server agrees). A third browser with the same
link is told it was used and stays who it was. At phone size."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_player, fits_width
from tests.e2e.phone import PHONE


def _me(page: Any) -> Any:
    return page.evaluate("fetch('/api/players/me').then((r) => r.ok ? r.json() : null)")


pytestmark = pytest.mark.browser


def test_a_link_makes_another_browser_the_same_player(new_page: Any, live_server: str) -> None:
    with httpx.Client(base_url=live_server) as client:
        ada, cy = api_player(client, "Ada"), api_player(client, "Cy")
    laptop = new_page(width=1280, height=800, player=ada)
    laptop.goto("/")
    laptop.get_by_test_id("device-link-make").click()
    expect(laptop.get_by_test_id("device-link-qr")).to_be_visible()
    url = laptop.get_by_test_id("device-link-url").input_value()
    assert "#device=" in url

    phone = new_page(width=PHONE["width"], height=PHONE["height"])
    phone.goto(url)
    expect(phone.get_by_test_id("device-claim")).to_be_visible()
    assert fits_width(phone, PHONE["width"])
    phone.get_by_test_id("device-link-claim").click()
    phone.wait_for_url(re.compile(r"/$"))  # the page starts again as her, without the link
    expect(phone.get_by_test_id("player-name")).to_have_text("Ada")
    assert _me(phone)["id"] == ada["id"]
    assert _me(laptop)["id"] == ada["id"]  # the laptop stays signed in

    other = new_page(width=PHONE["width"], height=PHONE["height"], player=cy)
    other.goto(url)
    expect(other.get_by_test_id("device-claim-text")).to_contain_text("plays as Cy")
    other.get_by_test_id("device-link-claim").click()
    expect(other.get_by_test_id("device-claim")).to_be_hidden()
    expect(other.locator(".toast")).to_contain_text("already used")
    assert _me(other)["id"] == cy["id"]
