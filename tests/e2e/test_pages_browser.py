"""The pages around the games in a real browser: the friendly "Page not found" and the API
documentation at /docs, drawn from this server's own files (a LAN game night has no CDN).
Page errors fail the tests (the `new_page` fixture)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_an_unknown_address_shows_a_page_with_the_way_back(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    page = new_page()
    response = page.goto("/nonexistent")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    expect(page.locator(".site-header svg.brand-logo")).to_be_visible()
    page.screenshot(path=str(artifacts / "page-not-found.png"), full_page=True)
    page.get_by_test_id("back-to-lobby").click()
    page.wait_for_url(f"{live_server}/")
    expect(page.get_by_test_id("you-chip")).to_be_visible()


def test_api_docs_list_the_operations_without_the_internet(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    page = new_page()
    elsewhere: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(live_server) else elsewhere.append(r.url))
    page.goto("/docs")
    moves = page.locator(".opblock-summary-path", has_text="/api/matches/{match_id}/moves")
    expect(moves.first).to_be_visible()
    assert page.locator(".opblock").count() > 10
    page.screenshot(path=str(artifacts / "api-docs.png"))
    assert elsewhere == []
