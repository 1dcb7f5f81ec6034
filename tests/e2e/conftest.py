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

from tests.conftest import RELAXED_LIMITS
from tests.e2e.browser_pages import page_maker

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
        # Every browser test shares this server and its one address, so the doors that
        # count per address are opened wide; chat keeps its real per-player limit (each
        # test's players are new, and the match page's refusal is tested against it).
        **{
            name.upper(): str(value)
            for name, value in RELAXED_LIMITS.items()
            if name != "chat_per_player"
        },
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
    with page_maker(browser, live_server) as make:
        yield make


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# ------------------------------------------------------------------ finished matches
# Replays and rematches need a match played to its end. A random two-player C64 Maze game
# takes a thousand moves or more; over HTTP one move costs two requests (~30 ms), so the
# players below move over the WebSocket (~6 ms a move) and steer towards their goal.

_SIDE_UP = {"S": "N", "W": "E", "N": "S", "E": "W"}
_CW = {"N": "E", "E": "S", "S": "W", "W": "N"}
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
_STEP = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


def _maze_move(state: dict[str, Any], rng: Any) -> dict[str, Any]:
    """A legal move: mostly the card that steps closest to the goal (walls as obstacles)."""
    moves = state["legal_moves"]
    plays = [m for m in moves if m["type"] == "play"]
    if not plays or rng.random() < 0.25:
        return dict(rng.choice(moves))
    board = state["board"]
    me = board["players"][state["you"]]
    faces = {c["id"]: c["face"] for c in board["joysticks"][state["you"]]["active"]}

    def xy(square: str) -> tuple[int, int]:
        return ord(square[0]) - 97, int(square[1:]) - 1

    walls = {xy(w if isinstance(w, str) else w["square"]) for w in board.get("walls") or []}
    goal = xy(me["goal"])
    distance = {goal: 0}
    queue = [goal]
    for x, y in queue:  # breadth-first from the goal around the walls
        for dx, dy in _STEP.values():
            near = (x + dx, y + dy)
            if 0 <= near[0] < 8 and 0 <= near[1] < 8 and near not in walls and near not in distance:
                distance[near] = distance[(x, y)] + 1
                queue.append(near)
    here = xy(me["square"])

    def gain(move: dict[str, Any]) -> int:
        face = faces.get(move["card"])
        up = _SIDE_UP[me["side"]]
        way = {"up": up, "down": _OPPOSITE[up], "right": _CW[up], "left": _OPPOSITE[_CW[up]]}.get(
            face or ""
        )
        if way is None:
            return 0  # a button
        to = (here[0] + _STEP[way][0], here[1] + _STEP[way][1])
        if to not in distance:
            return -1
        return distance.get(here, 99) - distance[to]

    best = max(gain(m) for m in plays)
    return dict(rng.choice([m for m in plays if gain(m) == best]))


def play_c64_maze_to_the_end(
    base: str,
    names: tuple[str, str] = ("Ada", "Bob"),
    seed: int = 4,
    max_moves: int = 3_000,
    attempts: int = 8,
) -> dict[str, Any]:
    """A two-player C64 Maze match played to the end through the real server: players, match
    (with nonces) and start over REST, moves over each player's WebSocket. A match still
    running after `max_moves` is left and a new one started (a replay of ten thousand moves
    makes every page check slow). Returns {"id", "players": [{id, name, token}] by seat,
    "moves": n, "summary": the final summary with the winner's view}."""
    import contextlib
    import json
    import random
    import secrets

    import httpx
    import jsonpatch
    from websockets.sync.client import connect

    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as client:
        people = []
        for name in names:
            created = client.post("/api/players", json={"name": name})
            assert created.status_code == 201, created.text
            people.append(created.json())

        def auth(person: dict[str, str]) -> dict[str, str]:
            return {"Authorization": f"Bearer {person['token']}"}

        for _attempt in range(attempts):
            opened = client.post(
                "/api/matches",
                json={
                    "game": "c64-maze",
                    "options": {},
                    "seats": 2,
                    "nonce": secrets.token_hex(32),
                },
                headers=auth(people[0]),
            )
            assert opened.status_code == 201, opened.text
            match_id = opened.json()["id"]
            joined = client.post(
                f"/api/matches/{match_id}/join",
                json={"nonce": secrets.token_hex(32)},
                headers=auth(people[1]),
            )
            assert joined.status_code == 200, joined.text
            started = client.post(
                f"/api/matches/{match_id}/start", json={}, headers=auth(people[0])
            )
            assert started.status_code == 200, started.text

            url = base.replace("http://", "ws://") + f"/api/matches/{match_id}/ws"
            with contextlib.ExitStack() as stack:
                tables: list[dict[str, Any]] = []
                for person in people:
                    ws = stack.enter_context(connect(url, max_size=None, open_timeout=10))
                    ws.send(json.dumps({"type": "hello", "token": person["token"]}))
                    tables.append({"ws": ws, "state": None, "version": -1})

                def catch_up(table: dict[str, Any], version: int) -> None:
                    while table["version"] < version:
                        message = json.loads(table["ws"].recv(timeout=15))
                        if message["type"] == "snapshot":
                            table["state"], table["version"] = message["state"], message["version"]
                        elif message["type"] == "patch":
                            assert message["version"] == table["version"] + 1, message["version"]
                            jsonpatch.apply_patch(table["state"], message["ops"], in_place=True)
                            table["version"] = message["version"]
                        elif message["type"] == "error":
                            raise AssertionError(f"the server refused: {message}")

                version = 0
                for table in tables:
                    catch_up(table, version)
                while tables[0]["state"]["status"] == "active" and version < max_moves:
                    mover = next(t for t in tables if t["state"]["legal_moves"])
                    move = _maze_move(mover["state"], rng)
                    mover["ws"].send(
                        json.dumps(
                            {"type": "move", "id": f"m{version}", "move": move, "version": version}
                        )
                    )
                    version += 1
                    for table in tables:
                        catch_up(table, version)
                if tables[0]["state"]["status"] != "finished":
                    continue  # too long: try a new match

            summary = client.get(f"/api/matches/{match_id}").json()
            assert summary["status"] == "finished", summary["status"]
            seat_of = {s["player_id"]: s["seat"] for s in summary["seats"]}
            by_seat = sorted(people, key=lambda p: seat_of[p["id"]])
            return {"id": match_id, "players": by_seat, "moves": version, "summary": summary}
    raise AssertionError(f"no match ended within {max_moves} moves in {attempts} tries")


@pytest.fixture(scope="session")
def finish_maze_match(live_server: str) -> Callable[..., dict[str, Any]]:
    """finish_maze_match(names=("Ada", "Bob")) -> play_c64_maze_to_the_end on the live server."""

    def play(**kwargs: Any) -> dict[str, Any]:
        return play_c64_maze_to_the_end(live_server, **kwargs)

    return play


# ------------------------------------------------------------------ Content-Security-Policy
RECORD_CSP_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const { violatedDirective, blockedURI, sourceFile, lineNumber } = event;
  window.__cspViolations.push(`${violatedDirective} ${blockedURI} at ${sourceFile}:${lineNumber}`);
}, true);
"""


@pytest.fixture
def watched_page(new_page: Callable[..., Any]) -> Callable[..., Any]:
    """watched_page(player=None) -> new_page(player=...) whose every document records each
    Content-Security-Policy violation in window.__cspViolations."""

    def make(player: dict[str, str] | None = None) -> Any:
        page = new_page(player=player)
        page.context.add_init_script(RECORD_CSP_VIOLATIONS)
        return page

    return make
