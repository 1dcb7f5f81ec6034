"""A match page follows its server's graceful stop (issue 19, item 2): the socket closed with
1012 ("service restart") reconnects at once, here to the process that took over the address,
and the match goes on in the page."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.conftest import RELAXED_LIMITS, LiveServer
from tests.e2e.browser_pages import page_maker
from tests.e2e.lobby_flow import api_match, auth

pytestmark = pytest.mark.browser
RESTART_JITTER_MS = 250  # static/js/socket.js: the longest wait before reconnecting on 1012
BACKOFF_MS = 375  # the shortest wait of the ordinary backoff (500 ms less a quarter)


def _on_loop(server: LiveServer, coroutine: Any, timeout: float = 30.0) -> Any:
    """Runs a coroutine on a server's own event loop (its thread) and waits for it."""
    loop = server.server.servers[0].get_loop()
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout)


async def _stop_listening(server: LiveServer) -> None:
    for listener in server.server.servers:
        listener.close()


def _wait_for(condition: Any, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_page_reconnects_after_a_graceful_stop_and_plays_on(browser: Any, tmp_path: Path) -> None:
    """Issue 19, item 2 (the browser's side of graceful shutdown): the page's socket on the
    stopping process is closed with 1012; the page connects again without being reloaded,
    to the process now at the same address, and shows the next move made there."""
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}"
    first = LiveServer(database_url, **RELAXED_LIMITS).start()
    second: LiveServer | None = None
    try:
        match_id, (ada, bob) = api_match(first.url, "c64-maze", ("Ada", "Bob"))
        with page_maker(browser, first.url) as new_page:
            page = new_page(player=ada)
            sockets: list[Any] = []
            page.on("websocket", lambda socket: sockets.append(socket))
            # The page's timers run on a clock the test moves: "at once" is checked, not timed.
            page.clock.install()
            page.goto(f"/match/{match_id}")
            connection = page.get_by_test_id("connection")
            expect(connection).to_have_attribute("data-state", "open")
            page.clock.pause_at(page.evaluate("Date.now()") + 1000)
            first_context = first.server.config.app.state.context
            _wait_for(lambda: first_context.drain.open_sockets == 1, "the page's socket")

            # The next process takes the address over (as a load balancer would send the
            # page elsewhere), then the first one drains.
            _on_loop(first, _stop_listening(first))
            second = LiveServer(database_url, **RELAXED_LIMITS)
            second.port = first.port
            second.server.config.port = first.port
            second.start()
            _on_loop(first, first_context.drain.run())
            assert first_context.drain.open_sockets == 0
            expect(connection).to_have_attribute("data-state", "reconnecting")
            assert len(sockets) == 1
            # Less time than the shortest backoff: only the reconnection on 1012 is due.
            page.clock.run_for(RESTART_JITTER_MS + 10)
            assert RESTART_JITTER_MS + 10 < BACKOFF_MS
            _wait_for(lambda: page.wait_for_timeout(20) or len(sockets) == 2, "no reconnection")
            page.clock.resume()

            second_context = second.server.config.app.state.context
            _wait_for(lambda: second_context.drain.open_sockets == 1, "the page came back")
            expect(connection).to_have_attribute("data-state", "open")
            assert len(sockets) == 2  # one reconnection, no reload

            entries = page.get_by_test_id("log-entry")
            before = entries.count()
            with httpx.Client(base_url=second.url) as client:
                mover = next(
                    p
                    for p in (ada, bob)
                    if client.get(f"/api/matches/{match_id}", headers=auth(p)).json()["view"][
                        "legal_moves"
                    ]
                )
                view = client.get(f"/api/matches/{match_id}", headers=auth(mover)).json()
                moved = client.post(
                    f"/api/matches/{match_id}/moves",
                    json={"move": view["view"]["legal_moves"][0], "id": "after-restart"},
                    headers=auth(mover),
                )
                assert moved.status_code == 200, moved.text
            expect(entries).to_have_count(before + 1)
    finally:
        first.stop()
        if second is not None:
            second.stop()
