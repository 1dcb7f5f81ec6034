"""Page weight: bytes a browser transfers for our pages, on a first and on a repeat visit.

Loads each page in Debian's Chromium through Playwright and counts, with the DevTools
protocol's Network domain, the bytes of every HTTP response as received (headers and body as
they crossed the wire, compressed or not; a response served from the browser's cache counts
0). WebSocket frames are counted apart (they are the match itself, not the page).

Pages: the match page of a started match of each game family (their renderer modules and
stylesheets differ: C64 Maze, CD Thief, Joystick Heroes, Tactrics Crossing, Tube Tanks), the
home page, a rules page and a lesson page. "first" is a new browser context (empty cache);
"repeat" is a new page in the same context, opening the same address again (a returning
visitor's cache).

Run (starts a server on a fresh SQLite database from --repo, default this checkout):

    python bench/page_weight.py                  # this checkout
    python bench/page_weight.py --repo ../other-checkout --label before   # another checkout
    python bench/page_weight.py --base http://127.0.0.1:8000       # a running server
    python bench/page_weight.py --details        # every request of every load
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from loadcore import free_port  # the bench folder, on the path of a script run from it

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# One game of each family: the renderer modules differ.
MATCH_GAMES = ("c64-maze", "cd-thief", "joystick-heroes", "tactrics-crossing", "tube-tanks")


@dataclass
class Load:
    """What one page load transferred."""

    by_type: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    requests: list[dict[str, Any]] = field(default_factory=list)
    websocket_bytes: int = 0
    failed: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.by_type.values())

    @property
    def over_network(self) -> int:
        """Responses that crossed the network (one from the cache counts 0 bytes)."""
        return sum(1 for request in self.requests if request["bytes"] > 0)


# ------------------------------------------------------------------------- the server


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 (local server)
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return False


@contextmanager
def server(repo: Path) -> Iterator[str]:
    """A server from `repo` on a free port and a fresh SQLite database; its base URL."""
    with tempfile.TemporaryDirectory(prefix="page-weight-") as workdir:
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/bench.db",
            "REDIS_URL": "",
            "PYTHONUNBUFFERED": "1",
        }
        python = repo / ".venv" / "bin" / "python"
        with open(f"{workdir}/server.log", "wb") as log:
            proc = subprocess.Popen(
                [
                    str(python if python.exists() else sys.executable),
                    *("-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)),
                ],
                cwd=repo,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            base = f"http://127.0.0.1:{port}"
            try:
                deadline = time.monotonic() + 60
                while not answers(f"{base}/api/games"):
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(Path(f"{workdir}/server.log").read_text()[-3000:])
                    time.sleep(0.2)
                yield base
            finally:
                proc.terminate()
                proc.wait(timeout=10)


def started_match(base: str, game: str) -> tuple[str, dict[str, str]]:
    """A started two-seat (or one-seat) match of `game` over the REST API: (id, host)."""
    with httpx.Client(base_url=base) as client:
        info = client.get(f"/api/games/{game}").json()
        seats = max(1, min(2, int(info.get("max_players", 2))), int(info.get("min_players", 1)))
        players = [
            client.post("/api/players", json={"name": f"Bench{i}"}).json() for i in range(seats)
        ]
        headers = [{"Authorization": f"Bearer {p['token']}"} for p in players]
        created = client.post(
            "/api/matches", json={"game": game, "options": {}, "seats": seats}, headers=headers[0]
        )
        created.raise_for_status()
        match_id = created.json()["id"]
        for guest in headers[1:]:
            client.post(f"/api/matches/{match_id}/join", json={}, headers=guest).raise_for_status()
        client.post(
            f"/api/matches/{match_id}/start", json={}, headers=headers[0]
        ).raise_for_status()
    return match_id, players[0]


# ------------------------------------------------------------------------ measuring


def measure(context: Any, url: str, ready: str | None) -> Load:
    """Opens `url` in a new page of `context` and counts what crossed the network."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    load = Load()
    types: dict[str, str] = {}
    urls: dict[str, str] = {}
    statuses: dict[str, int] = {}

    def will_send(event: dict[str, Any]) -> None:
        urls[event["requestId"]] = event["request"]["url"]
        types[event["requestId"]] = event.get("type", "Other")

    def received(event: dict[str, Any]) -> None:
        types[event["requestId"]] = event.get("type", "Other")
        statuses[event["requestId"]] = event["response"]["status"]

    def finished(event: dict[str, Any]) -> None:
        request_id = event["requestId"]
        size = int(event["encodedDataLength"])
        kind = types.get(request_id, "Other")
        load.by_type[kind] += size
        load.requests.append(
            {
                "url": urls.get(request_id, "?"),
                "type": kind,
                "status": statuses.get(request_id),
                "bytes": size,
            }
        )

    def failed(event: dict[str, Any]) -> None:
        load.failed.append(f"{urls.get(event['requestId'], '?')}: {event.get('errorText')}")

    def frame(event: dict[str, Any]) -> None:
        load.websocket_bytes += len(event["response"]["payloadData"])

    cdp.on("Network.requestWillBeSent", will_send)
    cdp.on("Network.responseReceived", received)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.loadingFailed", failed)
    cdp.on("Network.webSocketFrameReceived", frame)
    cdp.on("Network.webSocketFrameSent", frame)
    cdp.send("Network.enable")
    page.goto(url, wait_until="load")
    if ready:
        page.wait_for_selector(ready, state="attached", timeout=20_000)
    # A page that keeps polling never goes idle: count what came so far.
    with suppress(Exception):
        page.wait_for_load_state("networkidle", timeout=10_000)
    page.wait_for_timeout(300)  # late events of the last responses
    cdp.detach()
    page.close()
    return load


def measure_pair(
    browser: Any, base: str, path: str, ready: str | None, player: dict[str, str] | None
) -> tuple[Load, Load]:
    context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
    if player is not None:
        stored = json.dumps(json.dumps(player))
        context.add_init_script(f"localStorage.setItem('arcade.player', {stored});")
    try:
        first = measure(context, base + path, ready)
        repeat = measure(context, base + path, ready)
    finally:
        context.close()
    return first, repeat


def kb(n: int) -> str:
    return f"{n / 1000:7.1f}"


def report(name: str, first: Load, repeat: Load, details: bool) -> None:
    kinds = sorted(set(first.by_type) | set(repeat.by_type))
    print(f"\n{name}")
    print(f"  {'type':<12}{'first KB':>10}{'repeat KB':>11}")
    for kind in kinds:
        print(
            f"  {kind:<12}{kb(first.by_type.get(kind, 0)):>10}{kb(repeat.by_type.get(kind, 0)):>11}"
        )
    print(
        f"  {'total':<12}{kb(first.total):>10}{kb(repeat.total):>11}"
        f"   ({first.over_network} / {repeat.over_network} responses over the network;"
        f" WebSocket {first.websocket_bytes / 1000:.1f} / {repeat.websocket_bytes / 1000:.1f} KB)"
    )
    for load, label in ((first, "first"), (repeat, "repeat")):
        for failure in load.failed:
            print(f"  FAILED ({label}): {failure}")
        if details:
            for request in load.requests:
                print(
                    f"    {label:<6} {request['status']!s:>4} {request['bytes']:>8} "
                    f"{request['type']:<11} {request['url']}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout to serve")
    parser.add_argument("--base", help="measure a running server instead of starting one")
    parser.add_argument("--label", default="", help="a word printed with the figures")
    parser.add_argument("--details", action="store_true", help="every request of every load")
    parser.add_argument("--games", nargs="*", default=list(MATCH_GAMES))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load_average = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"page weight {args.label} (KB = 1000 bytes as transferred; cpu_count "
        f"{os.cpu_count()}, load average {load_average})"
    )
    serving = server(args.repo.resolve()) if args.base is None else _given(args.base)
    with serving as base, sync_playwright() as playwright:
        totals: list[tuple[str, Load, Load]] = []
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for game in args.games:
                match_id, host = started_match(base, game)
                first, repeat = measure_pair(
                    browser, base, f"/match/{match_id}", "#game-root > *", host
                )
                report(f"match page, {game}", first, repeat, args.details)
                totals.append((f"match {game}", first, repeat))
            for name, path, ready in (
                ("home page", "/", "[data-testid=you-chip]"),
                ("rules page", "/games/c64-maze/rules", None),
                ("lesson page", "/learn/c64", None),
            ):
                first, repeat = measure_pair(browser, base, path, ready, None)
                report(f"{name} {path}", first, repeat, args.details)
                totals.append((name, first, repeat))
        finally:
            browser.close()
    print(f"\nsummary {args.label}: KB first / repeat (of which the API's JSON, first / repeat)")
    for name, first, repeat in totals:
        print(
            f"  {name:<26}{kb(first.total)} /{kb(repeat.total)}"
            f"   ({kb(first.by_type.get('Fetch', 0))} /{kb(repeat.by_type.get('Fetch', 0))})"
        )


@contextmanager
def _given(base: str) -> Iterator[str]:
    yield base.rstrip("/")


if __name__ == "__main__":
    main()
