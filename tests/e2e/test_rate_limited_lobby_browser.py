"""The lobby page under a rate limit: it says how long it waits, and waits (issue 13)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture
def strict_server(tmp_path: Path) -> Iterator[LiveServer]:
    # Two list reads a minute: the page's first open-list and in-progress polls use them up.
    live = LiveServer(
        f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}", list_reads_per_address="2/minute"
    ).start()
    try:
        yield live
    finally:
        live.stop()


def test_the_open_list_shows_the_wait_and_pauses_its_polls(
    browser: Any, strict_server: LiveServer
) -> None:
    context = browser.new_context(base_url=strict_server.url)
    context.set_default_timeout(20_000)
    list_reads: list[int] = []
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "response",
            lambda r: list_reads.append(r.status) if "/api/matches?" in r.url else None,
        )
        page.goto("/")
        paused = page.get_by_test_id("open-list-paused")
        paused.wait_for(state="visible")
        assert "refreshes again in" in paused.inner_text()
        refused = list_reads.count(429)
        assert refused == 1, list_reads
        # Two more poll periods: no request goes out while the server asked to wait.
        page.wait_for_function("() => new Promise((done) => setTimeout(() => done(true), 6500))")
        assert list_reads.count(429) == refused, list_reads
    finally:
        context.close()
    assert not errors, errors
