"""The production example's load balancer (issue 19, item 2): deploy/haproxy.cfg is valid, and
a real HAProxy run with it in front of two servers carries sockets and REST with no
stickiness, and sends the sockets of a draining server to the other one."""

from __future__ import annotations

import asyncio
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from app.realtime.socket import CLOSE_RESTART
from tests.conftest import IN_CI, LiveServer, free_port
from tests.helpers import Viewer, guests, play_turns, started_match
from tests.realtime.test_redis_hub import redis_url  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "deploy" / "haproxy.cfg"
DRAIN_SECONDS = 5.0
UP_SECONDS = 30.0  # HAProxy's checks (every 2 s, two in a row) see both servers up


@pytest.fixture(scope="module")
def haproxy() -> str:
    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")
    if found is None:
        reason = "haproxy is missing (apt-get install haproxy; .ci/run installs it)"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def test_the_example_config_is_valid(haproxy: str) -> None:
    """Issue 19, item 2: the load balancer's configuration in the repository parses."""
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(CONFIG)], capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def local_config(port: int, servers: dict[str, int]) -> str:
    """deploy/haproxy.cfg as it is, except where it listens and which servers it knows: here
    fixed local ports instead of Docker's DNS, and fewer connections."""
    text = CONFIG.read_text()
    text = re.sub(r"\nresolvers docker\n(?:    .*\n)+", "\n", text)
    # Its connection cap needs twice as many open files as this machine's limit may allow.
    text = re.sub(r"\n    maxconn \d+\n", "\n    maxconn 1000\n", text, count=1)
    text = text.replace("    bind :8000\n", f"    bind 127.0.0.1:{port}\n")
    template = re.search(r"    server-template .*\n", text)
    assert template is not None, "the config has no server-template line any more"
    lines = "".join(f"    server {name} 127.0.0.1:{p}\n" for name, p in servers.items())
    return text.replace(template.group(0), lines)


@pytest.fixture
def servers(database_url: str, redis_url: str) -> Iterator[dict[str, LiveServer]]:  # noqa: F811
    prefix = f"arcade-limits-test-{secrets.token_hex(4)}"
    first = LiveServer(
        database_url,
        redis_url=redis_url,
        drain_seconds=DRAIN_SECONDS,
        rate_limit_key_prefix=prefix,
    ).start()
    second = LiveServer(
        database_url,
        redis_url=redis_url,
        migrate_on_start=False,
        drain_seconds=DRAIN_SECONDS,
        rate_limit_key_prefix=prefix,
    ).start()
    try:
        yield {"first": first, "second": second}
    finally:
        first.stop()
        second.stop()


@pytest.fixture
def balancer(haproxy: str, servers: dict[str, LiveServer], tmp_path: Path) -> Iterator[str]:
    port = free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(local_config(port, {name: s.port for name, s in servers.items()}))
    log = (tmp_path / "haproxy.log").open("wb")
    process = subprocess.Popen(
        [haproxy, "-db", "-f", str(config)], stdout=log, stderr=log, cwd=tmp_path
    )
    try:
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


async def _both_up(base: str) -> None:
    """Until HAProxy answers and its checks passed on both servers (new connections alternate
    between them then: each holds one of two sockets opened in a row)."""
    deadline = time.monotonic() + UP_SECONDS
    async with httpx.AsyncClient(base_url=base, timeout=5) as client:
        while True:
            try:
                if (await client.get("/readyz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "HAProxy never answered /readyz"
            await asyncio.sleep(0.1)


def _sockets(server: LiveServer) -> int:
    return int(server.server.config.app.state.context.drain.open_sockets)


async def _until(condition: object, what: str, timeout: float = UP_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def test_sockets_and_rest_through_haproxy_without_stickiness_and_a_drain_moves_them(
    servers: dict[str, LiveServer], balancer: str
) -> None:
    """Issue 19, item 2 (the production example, run for real): through HAProxy with the
    repository's config, the two players' sockets land on different servers and a match
    plays, moves over REST too; when one server drains, its socket is closed with 1012 and
    its reconnection, through the same address, is served by the other server (a handshake
    that reaches the draining one is answered 503 and retried by HAProxy), and play goes
    on from the same version."""
    first, second = servers["first"], servers["second"]
    base, ws_url = f"http://{balancer}", f"ws://{balancer}"
    await _both_up(base)
    async with httpx.AsyncClient(base_url=base) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
        # Both servers in HAProxy's rotation: leastconn gives each one of two sockets.
        deadline = time.monotonic() + UP_SECONDS
        while True:
            a = await Viewer(ws_url, match_id, ada.token).__aenter__()
            b = await Viewer(ws_url, match_id, bob.token).__aenter__()
            await a.until_type("snapshot")
            await b.until_type("snapshot")
            if _sockets(first) == _sockets(second) == 1:
                break
            await a.__aexit__()
            await b.__aexit__()
            await _until(lambda: _sockets(first) + _sockets(second) == 0, "sockets closed")
            assert time.monotonic() < deadline, "HAProxy never used both servers"
            await asyncio.sleep(0.5)
        try:
            await play_turns([a, b], 6)
            mover = ada if a.state and a.state["legal_moves"] else bob
            view = (await mover.get(f"/api/matches/{match_id}")).json()["view"]
            moved = await mover.post(
                f"/api/matches/{match_id}/moves",
                {"move": view["legal_moves"][0], "id": "through-haproxy"},
            )
            assert moved.status_code == 200, moved.text
            for viewer in (a, b):
                while viewer.version < 7:
                    await viewer.recv()

            # The first server drains: its socket goes, and comes back through HAProxy.
            context = first.server.config.app.state.context
            on_first = a if ada.id in context.presence.online_here(match_id) else b
            assert (bob if on_first is a else ada).id not in context.presence.online_here(match_id)
            loop = first.server.servers[0].get_loop()
            drained = asyncio.run_coroutine_threadsafe(context.drain.run(), loop)
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await on_first.recv(timeout=DRAIN_SECONDS + 10)
            assert on_first.ws.close_code == CLOSE_RESTART
            await asyncio.wrap_future(drained)
            token = ada.token if on_first is a else bob.token
            async with Viewer(ws_url, match_id, token) as back:
                await back.until_type("snapshot")
                assert back.version == 7
                assert _sockets(first) == 0 and _sockets(second) == 2
                other = b if on_first is a else a
                await play_turns([back, other], 2)
                assert back.version == other.version == 9
        finally:
            for viewer in (a, b):
                await viewer.ws.close()
