"""The match page loads everything under the static tree's versioned prefix (app/static_files.py):
no request fails, the renderer and its stylesheet come from /static/<version>/, and a repeat
visit takes every static file from the browser's cache (issue 17, item 5)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match

pytestmark = pytest.mark.browser

VERSIONED = re.compile(r"/static/[0-9a-f]{12}/")


def test_the_match_page_draws_its_renderer_through_the_versioned_prefix(
    new_page: Any, live_server: str
) -> None:
    match_id, players = api_match(live_server, "c64-maze")
    page = new_page(player=players[0])
    failed: list[str] = []
    statics: list[str] = []
    page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
    page.on(
        "response", lambda r: failed.append(f"{r.url}: {r.status}") if r.status >= 400 else None
    )
    page.on("request", lambda r: statics.append(r.url) if "/static/" in r.url else None)

    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    stylesheet = page.locator("link[data-c64-css]")
    expect(stylesheet).to_have_count(1)
    assert VERSIONED.search(stylesheet.evaluate("link => link.href"))
    # the stylesheet applied (the board is laid out by it)
    page.wait_for_function(
        "() => [...document.styleSheets].some(s => s.href?.endsWith('/css/c64.css'))"
    )

    assert not failed, failed
    assert any(url.endswith("/js/games/c64-maze.js") for url in statics), statics
    unversioned = [url for url in statics if not VERSIONED.search(url)]
    assert not unversioned, unversioned

    # A repeat visit in the same browser: no static file crosses the network again.
    again = page.context.new_page()
    cdp = page.context.new_cdp_session(again)
    urls: dict[str, str] = {}
    transferred: dict[str, int] = {}
    cdp.on(
        "Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"])
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: transferred.__setitem__(urls.get(e["requestId"], "?"), e["encodedDataLength"]),
    )
    cdp.send("Network.enable")
    again.goto(f"/match/{match_id}")
    expect(again.get_by_test_id("board")).to_be_visible()
    expect(again.locator("link[data-c64-css]")).to_have_count(1)
    fetched = {url: size for url, size in transferred.items() if "/static/" in url and size > 0}
    assert not fetched, fetched
    again.close()
