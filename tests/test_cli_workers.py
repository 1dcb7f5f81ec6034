"""`arcade serve --workers N` (issue 19, item 2): several processes on one port, sharing
PostgreSQL and Redis; a match plays with its players on different workers, and SIGTERM stops
them all gracefully."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import websockets

from app.realtime.socket import CLOSE_RESTART
from tests.conftest import (
    RELAXED_LIMITS,
    free_port,
)
from tests.helpers import Viewer, guests, play_turns, started_match
from tests.realtime.test_redis_hub import redis_url  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 2
DRAIN_SECONDS = 5.0
START_SECONDS = 90.0  # two workers and their bot workers start on a loaded 2-core machine
EXIT_MARGIN = 20.0
FIND_SECONDS = 60.0  # to find a socket held by a given worker (it may still be starting)


def _serve(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "needs"),
    [
        ({"REDIS_URL": ""}, "REDIS_URL"),
        ({"REDIS_URL": "redis://127.0.0.1:6379/0", "DATABASE_URL": "sqlite:///x.db"}, "PostgreSQL"),
    ],
)
def test_several_workers_refuse_what_they_cannot_share(env: dict[str, str], needs: str) -> None:
    """Issue 19, item 2: more than one worker needs Redis and PostgreSQL; without them the
    command stops at once with a sentence that says what to set, and starts nothing."""
    done = _serve("--workers", "2", "--port", str(free_port()), **env)
    assert done.returncode == 2
    assert needs in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


# --- which worker holds a connection (from /proc: the test sees the real processes) ----------
def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent == pid and b"spawn_main" in cmdline:
                found.append(int(entry.name))
    return sorted(found)


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def _client_ports(pid: int, server_port: int) -> set[int]:
    """The client ports of the TCP connections to `server_port` that process `pid` holds."""
    inodes = _socket_inodes(pid)
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if inode in inodes and int(local.rsplit(":", 1)[1], 16) == server_port:
                ports.add(int(remote.rsplit(":", 1)[1], 16))
    return ports


async def _viewer_on(
    worker: int, server_port: int, ws_url: str, match_id: str, token: str | None
) -> Viewer:
    """A socket of this player that the given worker holds (others are opened and closed:
    the kernel hands each new connection to whichever worker accepts it first)."""
    deadline = time.monotonic() + FIND_SECONDS
    while time.monotonic() < deadline:
        viewer = await Viewer(ws_url, match_id, token).__aenter__()
        await viewer.until(lambda f: f["type"] in ("snapshot", "lobby"), timeout=15)
        if viewer.ws.local_address[1] in _client_ports(worker, server_port):
            return viewer
        await viewer.__aexit__()
    raise AssertionError(f"no socket reached worker {worker} in {FIND_SECONDS:.0f} s")


@pytest.mark.postgres
async def test_two_workers_serve_one_match_across_them_and_stop_gracefully(
    redis_url: str,  # noqa: F811 (the fixture)
    postgres_url: str,
    tmp_path: Path,
) -> None:
    """Issue 19, item 2 (`arcade serve --workers 2`): both workers are ready (database and
    Redis), each holds sockets, a match whose two players are on different workers plays
    with every socket seeing every version, and SIGTERM closes every socket with 1012 and
    stops the whole server within the drain bound."""
    port = free_port()
    log_path = tmp_path / "server.log"
    env = {
        **os.environ,
        "DATABASE_URL": postgres_url,
        "REDIS_URL": redis_url,
        "DRAIN_SECONDS": str(DRAIN_SECONDS),
        # The Redis on this machine is shared: this server's rate-limit counters are its own.
        "RATE_LIMIT_KEY_PREFIX": f"arcade-limits-test-{secrets.token_hex(4)}",
        **{name.upper(): str(value) for name, value in RELAXED_LIMITS.items()},
    }
    command = [sys.executable, "-m", "app.cli", "serve", "--workers", str(WORKERS)]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    opened: list[Viewer] = []
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        workers = await _until_ready(server, base, log_path)

        async with httpx.AsyncClient(base_url=base) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob])
        a = await _viewer_on(workers[0], port, ws_url, match_id, ada.token)
        b = await _viewer_on(workers[1], port, ws_url, match_id, bob.token)
        watchers = [await _viewer_on(worker, port, ws_url, match_id, None) for worker in workers]
        opened += [a, b, *watchers]
        await play_turns([a, b], 12, watchers=tuple(watchers))
        assert {v.version for v in opened} == {12}
        assert a.state is not None and b.state is not None
        for watcher in watchers:
            assert watcher.state == watchers[0].state

        stopped_at = time.monotonic()
        server.send_signal(signal.SIGTERM)
        for viewer in opened:
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await viewer.recv(timeout=DRAIN_SECONDS + EXIT_MARGIN)
            assert (viewer.ws.close_code, viewer.ws.close_reason) == (
                CLOSE_RESTART,
                "service restart",
            )
        await asyncio.to_thread(server.wait, DRAIN_SECONDS + EXIT_MARGIN)
        assert time.monotonic() - stopped_at < DRAIN_SECONDS + EXIT_MARGIN
        assert not _children(server.pid)
    finally:
        for viewer in opened:
            await viewer.ws.close()
        if server.poll() is None:
            server.kill()
            server.wait()


async def _until_ready(server: subprocess.Popen[bytes], base: str, log_path: Path) -> list[int]:
    """Waits until the server answers ready and has its workers; returns their pids."""
    deadline = time.monotonic() + START_SECONDS
    async with httpx.AsyncClient(base_url=base, timeout=5) as client:
        while True:
            if server.poll() is not None:
                raise AssertionError(f"the server exited: {log_path.read_text()[-3000:]}")
            assert time.monotonic() < deadline, log_path.read_text()[-3000:]
            workers = _children(server.pid)
            try:
                ready = await client.get("/readyz")
            except httpx.HTTPError:
                ready = None
            if ready is not None and ready.status_code == 200 and len(workers) == WORKERS:
                assert ready.json()["redis"] == "ok"
                break
            await asyncio.sleep(0.2)
        return workers
