"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright.

`live_server` starts `python -m app.cli serve` on a free port with a fresh SQLite file and
waits until `GET /api/games` answers; `browser` launches /usr/bin/chromium (Playwright's own
browser download is not used). Without Chromium the tests skip, except in CI where a skip
would hide a broken setup, so they fail instead.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STARTUP_TIMEOUT_S = 60.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 (local test server)
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return False


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a freshly started server with its own database."""
    workdir = tmp_path_factory.mktemp("e2e-server")
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/e2e.db",
        "REDIS_URL": "",  # the in-process hub
        "PYTHONUNBUFFERED": "1",
    }
    log_path = workdir / "server.log"
    base = f"http://127.0.0.1:{port}"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT_S
            while not _answers(f"{base}/api/games"):
                if proc.poll() is not None:
                    pytest.fail(
                        f"the server exited with {proc.returncode}:\n{log_path.read_text()[-4000:]}"
                    )
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"the server did not answer within {STARTUP_TIMEOUT_S:.0f}s:\n"
                        f"{log_path.read_text()[-4000:]}"
                    )
                time.sleep(0.2)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Module scope: Playwright's sync API runs its own event loop, which must be gone before
    # pytest-asyncio tests in other modules run.
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser: Any, live_server: str) -> Iterator[Callable[..., Any]]:
    """new_page(width=1280, height=900, player=None) -> a page in its own browser context
    (its own localStorage: one friend each). `player` ({id, name, token}) is stored as the
    guest before any page script runs. Page errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 900, player: dict[str, str] | None = None) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=live_server
        )
        context.set_default_timeout(10_000)
        if player is not None:
            import json

            context.add_init_script(
                f"localStorage.setItem('arcade.player', {json.dumps(json.dumps(player))});"
            )
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
