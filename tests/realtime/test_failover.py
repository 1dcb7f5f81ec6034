"""Losing a server process mid-match (issue 19, item 3).

Three server processes (subprocesses, so SIGKILL is real) share one fresh PostgreSQL database
and Redis. A three-player Joystick Heroes match (a game with a decision clock) is played to
its end by players connected to different processes, watched by a fourth guest. Presence and
chat agree on every page. Mid-match, while a question's decision clock runs, the process that
keeps that clock (the owner of the lease `keeper:<match id>` in Redis) is killed with SIGKILL
just after its player sent a move: its clients reconnect to the others as the browser does
(static/js/socket.js: hello, a fresh snapshot, the unacknowledged move sent again under its
id and stamp) and play on; the clock fires from another process; and the moves log holds
every acknowledged move exactly once, nothing else but the server's timeout answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
import websockets

from tests.conftest import RELAXED_LIMITS, drop_postgres_database, fresh_postgres_database
from tests.helpers import Guest, Viewer, guests, started_match
from tests.realtime.server_process import ServerProcess
from tests.realtime.test_redis_hub import redis_url  # noqa: F401  (the fixture)

PROCESSES = 3
# Short keeper leases and sweeps (app/services/keepers.py) so that a dead keeper's clock is
# taken over within a few seconds; presence frames often, so the pages' checks are quick.
CLUSTER_SETTINGS: dict[str, object] = {
    **RELAXED_LIMITS,
    "presence_interval": 0.2,
    "keeper_lease_seconds": 2,
    "keeper_sweep_seconds": 0.5,
}
KEEPER_LEASE = "arcade:lease:keeper:{match_id}"
KILL_AFTER_MOVES = 20
"""The kill comes at the first question with a running clock after this many moves, so the
match is well under way (every seat has played) when its process goes."""
TAKEOVER_SECONDS = 15.0
"""How late after its deadline the clock may fire once its keeper died: the lease's expiry
plus a sweep or two, with room for a loaded 2-core machine."""
FRAME_WAIT = 30.0
REACTIONS = ("tilt", "thief")


class Cluster:
    """Server processes on one database and one Redis; the first one migrates."""

    def __init__(self, database_url: str, redis_address: str, size: int) -> None:
        self.servers: list[ServerProcess] = []
        for index in range(size):
            settings = {**CLUSTER_SETTINGS, "redis_url": redis_address}
            if index:
                settings["migrate_on_start"] = False
            self.servers.append(ServerProcess(database_url, **settings).start())

    def next_alive(self, index: int) -> int:
        """The next live process after `index`, as a load balancer would pick one."""
        for step in range(1, len(self.servers) + 1):
            candidate = (index + step) % len(self.servers)
            if self.servers[candidate].alive:
                return candidate
        raise RuntimeError("no server process is alive")

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


class Page(Viewer):
    """A match page's socket as static/js/socket.js runs it: when its connection drops it
    connects to another live process, says hello, takes the new snapshot and sends again,
    under their ids and version stamps, the moves not yet acknowledged. It keeps every ack,
    the last presence frame and the chat texts it was sent."""

    def __init__(
        self, cluster: Cluster, home: int, match_id: str, guest: Guest, seat: int | None
    ) -> None:
        super().__init__(cluster.servers[home].ws_url, match_id, guest.token)
        self.cluster = cluster
        self.home = home
        self.match_id = match_id
        self.name = guest.name
        self.seat = seat
        self.sent: dict[str, dict[str, Any]] = {}  # move id -> the move
        self.unacknowledged: dict[str, dict[str, Any]] = {}  # move id -> its message
        self.acks: dict[str, int] = {}  # move id -> the version it made
        self.presence: dict[str, Any] | None = None
        self.chat: list[str] = []
        self.reconnects = 0
        self._resend_after_snapshot = False

    async def __aenter__(self) -> Page:
        await self._connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def _connect(self) -> None:
        ws_url = self.cluster.servers[self.home].ws_url
        self.url = f"{ws_url}/api/matches/{self.match_id}/ws"
        self.ws = await websockets.connect(self.url, max_size=2**22)
        await self.send({"type": "hello", "token": self.token})

    async def _reconnect(self) -> None:
        deadline = time.monotonic() + FRAME_WAIT
        while True:
            self.home = self.cluster.next_alive(self.home)
            try:
                await self._connect()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)  # a retry's backoff, not a synchronization
        self.reconnects += 1
        self._resend_after_snapshot = True

    async def recv(self, timeout: float = FRAME_WAIT) -> dict[str, Any]:
        while True:
            try:
                frame = await super().recv(timeout)
            except websockets.ConnectionClosed:
                await self._reconnect()
                continue
            break
        kind = frame["type"]
        if kind == "ack":
            self.acks[frame["id"]] = frame["version"]
            self.unacknowledged.pop(frame["id"], None)
        elif kind == "error":
            raise AssertionError(f"{self.name} was refused: {frame}")
        elif kind == "presence":
            self.presence = frame
        elif kind == "chat":
            self.chat.append(frame["text"])
        elif kind == "snapshot" and self._resend_after_snapshot:
            self._resend_after_snapshot = False
            for message in list(self.unacknowledged.values()):
                await self.send(message)
        return frame

    async def play(self, move: dict[str, Any]) -> str:
        """Sends a move stamped with this page's version; its ack comes through recv."""
        move_id = uuid.uuid4().hex
        message = {"type": "move", "id": move_id, "move": move, "version": self.version}
        self.sent[move_id] = move
        self.unacknowledged[move_id] = message
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.send(message)  # else sent again after the next snapshot
        return move_id

    async def until_acked(self, move_id: str) -> int:
        while move_id not in self.acks:
            await self.recv()
        return self.acks[move_id]

    async def catch_up(self, version: int) -> None:
        while self.version < version:
            await self.recv()

    def online(self) -> set[int]:
        if self.presence is None:
            return set()
        return {seat["seat"] for seat in self.presence["seats"] if seat["online"]}


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A short, always legal way through Joystick Heroes (about 250 moves with three
    players): never discard, buy Prizes, decline every question, roll, stop when done."""
    moves = [m for m in legal if m["type"] != "discard"] or legal
    for wanted in ({"type": "buy", "item": "prize"}, {"type": "answer", "accept": False}):
        if wanted in moves:
            return wanted
    for kind in ("roll", "buy", "done"):
        for move in moves:
            if move["type"] == kind:
                return move
    return moves[0]


def waiting_for(page: Page) -> bool:
    """The page's seat must move now (a reaction question it answered waits for others)."""
    state = page.state
    if state is None or state["status"] != "active" or state["you"] not in state["active_seats"]:
        return False
    question = state["board"]["question"]
    return not (
        question is not None
        and question["kind"] in REACTIONS
        and question.get("answer") is not None
    )


async def play_one(players: list[Page], pages: list[Page]) -> None:
    """The first seat to move plays; every page catches up with the version it made."""
    mover = next(p for p in players if waiting_for(p))
    assert mover.state is not None
    version = await mover.until_acked(await mover.play(choose(mover.state["legal_moves"])))
    for page in pages:
        await page.catch_up(version)


async def until_state(page: Page, done: Any, timeout: float) -> None:
    """Reads frames until the page's state satisfies `done` (perhaps at once)."""
    deadline = time.monotonic() + timeout
    while page.state is None or not done(page.state):
        try:
            await page.recv(max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            pytest.fail(f"{page.name}'s page waited in vain at version {page.version}")


async def presence_agrees(pages: list[Page], seats: set[int]) -> None:
    """Every page's latest presence frame shows exactly `seats` online."""
    for page in pages:
        deadline = time.monotonic() + FRAME_WAIT
        while page.online() != seats:
            try:
                await page.recv(max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                pytest.fail(
                    f"{page.name}'s page (process {page.home}) shows seats {page.online()} "
                    f"online, not {seats}: {page.presence}"
                )


async def chat_reaches_everyone(players: list[Page], watcher: Page, tag: str) -> None:
    """Each player's line reaches every player (the players' channel), the watcher's reaches
    every page (the watchers' channel), whichever process each page is on."""
    lines = {page.name: f"{tag}: hello from {page.name}" for page in (*players, watcher)}
    for page in players:
        await page.send({"type": "chat", "text": lines[page.name], "channel": "players"})
    await watcher.send({"type": "chat", "text": lines[watcher.name], "channel": "watchers"})
    for page in (*players, watcher):
        expected = set(lines.values()) if page in players else {lines[watcher.name]}
        while not expected <= set(page.chat):
            await page.recv()


async def keeper_of(cluster: Cluster, match_id: str, store: aioredis.Redis) -> tuple[int, str]:
    """The process that keeps the match's clock, and its lease owner id. The owner is in
    Redis; which process it is shows when it renews the lease (every third of its life): the
    Redis connection that sends that claim is one of the process's own TCP sockets."""
    key = KEEPER_LEASE.format(match_id=match_id)
    owner = await store.get(key)
    assert owner is not None, "no process keeps the match's clock"
    owner = owner.decode()
    async with asyncio.timeout(FRAME_WAIT), store.monitor() as monitor:
        while True:
            seen = await monitor.next_command()
            words = seen["command"].split()
            if seen["client_type"] != "tcp" or key not in words or owner not in words:
                continue
            port = int(seen["client_port"])
            for index, server in enumerate(cluster.servers):
                if server.alive and port in server.tcp_ports():
                    return index, owner


async def watch_owners(store: aioredis.Redis, key: str, seen: set[str]) -> None:
    """Every owner the lease has while the test waits for the clock."""
    while True:
        owner = await store.get(key)
        if owner is not None:
            seen.add(owner.decode())
        await asyncio.sleep(0.05)


def epoch(at: str) -> float:
    return datetime.fromisoformat(at).timestamp()


@pytest.fixture
def cluster(redis_url: str) -> Iterator[Cluster]:  # noqa: F811
    database_url, name = fresh_postgres_database()
    cluster = Cluster(database_url, redis_url, PROCESSES)
    try:
        yield cluster
    finally:
        cluster.stop()
        drop_postgres_database(name)


async def test_a_match_plays_to_its_end_through_the_loss_of_a_process(
    cluster: Cluster,
    redis_url: str,  # noqa: F811
) -> None:
    """Issue 19, item 3: players on different processes, presence and chat on every page,
    kill -9 of the clock's keeper mid-match, no acknowledged move lost or doubled, the dead
    process's clock fired by another."""
    async with httpx.AsyncClient(base_url=cluster.servers[0].url, timeout=30) as client:
        ada, bob, cyd, eve = await guests(client, "Ada", "Bob", "Cyd", "Eve")
        match_id = await started_match(
            client, [ada, bob, cyd], game="joystick-heroes", options={"skip_tournaments": True}
        )
    store = aioredis.from_url(redis_url)
    players = [Page(cluster, seat, match_id, g, seat) for seat, g in enumerate((ada, bob, cyd))]
    watcher = Page(cluster, 0, match_id, eve, None)
    pages = [*players, watcher]
    try:
        for page in pages:
            await page.__aenter__()
        for page in pages:
            await page.until_type("snapshot")

        await presence_agrees(pages, {0, 1, 2})
        await chat_reaches_everyone(players, watcher, "before")

        # Play until a question's clock runs and the player on its keeper's process can
        # send a move that leaves the question open (a discard, allowed at any time).
        moves = 0
        while True:
            assert watcher.state is not None
            assert watcher.state["status"] == "active", "the match ended before the kill"
            if moves >= KILL_AFTER_MOVES and watcher.state["deadline"] is not None:
                keeper, owner_before = await keeper_of(cluster, match_id, store)
                victim = next(p for p in players if p.home == keeper)
                assert victim.state is not None
                discards = [m for m in victim.state["legal_moves"] if m["type"] == "discard"]
                if discards:
                    break
            await play_one(players, pages)
            moves += 1

        deadline_ms = watcher.state["deadline"]
        version_at_kill = watcher.version
        in_flight = await victim.play(discards[0])
        killed_at = time.time()
        cluster.servers[keeper].kill()
        owners: set[str] = set()
        key = KEEPER_LEASE.format(match_id=match_id)
        watching = asyncio.create_task(watch_owners(store, key, owners))
        try:
            # Nobody answers: every page waits for the server to answer for the silent seats.
            wait = deadline_ms / 1000 - time.time() + TAKEOVER_SECONDS + FRAME_WAIT
            for page in pages:
                await until_state(page, lambda state: state["deadline"] != deadline_ms, wait)
            await victim.until_acked(in_flight)
        finally:
            watching.cancel()
        assert owners - {owner_before}, "no other process took the dead keeper's lease over"
        reconnected = [p for p in pages if p.reconnects]
        assert victim in reconnected and all(p.home != keeper for p in pages)

        # The pages that moved agree again: everyone online, chat through the survivors.
        for page in pages:
            await page.catch_up(max(p.version for p in pages))
        await presence_agrees(pages, {0, 1, 2})
        await chat_reaches_everyone(players, watcher, "after")

        while watcher.state["status"] == "active":
            await play_one(players, pages)
        final = watcher.version
        assert watcher.state["status"] == "finished"
        for page in pages:
            await page.catch_up(final)
            assert page.state is not None and page.version == final
            assert page.state["outcome"] == watcher.state["outcome"]

        survivor = cluster.servers[cluster.next_alive(keeper)]
        async with httpx.AsyncClient(base_url=survivor.url, timeout=30) as client:
            logs = {
                p.seat: (
                    await client.get(
                        f"/api/matches/{match_id}/log",
                        headers={"Authorization": f"Bearer {p.token}"},
                    )
                ).json()["moves"]
                for p in players
            }
    finally:
        for page in pages:
            if page.ws is not None:
                await page.ws.close()
        await store.aclose()

    # The log, read by each seat (her own moves in full), against every ack.
    entries = logs[0]
    assert [e["seq"] for e in entries] == list(range(1, final + 1)), "a version is missing"
    acked: dict[int, tuple[int, dict[str, Any]]] = {}
    for page in players:
        assert set(page.acks) == set(page.sent), f"{page.name} has moves never acknowledged"
        for move_id, version in page.acks.items():
            assert version not in acked, f"two acknowledged moves made version {version}"
            acked[version] = (page.seat, page.sent[move_id])
            entry = logs[page.seat][version - 1]
            assert (entry["seat"], entry["move"]) == (page.seat, page.sent[move_id])
    assert in_flight in victim.acks
    # Every version nobody was acknowledged for is the server's answer for a silent seat,
    # made after the kill (by a survivor), at the clock's deadline or a little after.
    timeouts = [e for e in entries if e["seq"] not in acked]
    assert timeouts, "the clock the dead process kept never fired"
    for entry in timeouts:
        full = logs[entry["seat"]][entry["seq"] - 1]
        assert full["move"] == {"type": "answer", "accept": False}, full
        assert entry["seq"] > version_at_kill
        fired = epoch(entry["at"])
        assert killed_at < fired, "a timeout answer before the kill"
        assert deadline_ms / 1000 - 0.5 <= fired <= deadline_ms / 1000 + TAKEOVER_SECONDS
