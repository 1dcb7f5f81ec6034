"""The closed-loop load generator's core, shared by `load.py` (our server alone) and
`compare.py` (our server beside boardgame.io): M concurrent C64 Maze matches, two players
each, every player picking a random legal move from its own copy of the state as soon as it
may move. A server is reached through an adapter (`OurServer` here; boardgame.io's in
compare.py) that makes players and matches and plays one match over its protocol; the core
keeps the books and the clock.

What every adapter must do, as a browser does: keep the whole state from the first frame on,
apply every frame it receives (our JSON Patch ops; boardgame.io's full states), check that
each frame's version is the one after the last (a gap is counted in `version_errors`), and
choose its moves only from the state it holds. Latency runs from a move's submission to the
*opponent* receiving the frame with the version that move made.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
import orjson
import websockets

# The match page's reader of compact frames, which the generator uses as the page does.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from app.realtime.compact import Reader  # noqa: E402


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    frame_bytes: int = 0
    frames: int = 0
    errors: int = 0
    version_errors: int = 0
    matches_finished: int = 0
    elapsed: float = 0.0
    generator_cpu: float = 0.0
    server_cpu: dict[str, float | None] = field(default_factory=dict)
    """CPU seconds in the measured time of each watched process group (e.g. "server", "db")."""


class Book:
    """One level's shared bookkeeping: when each move was sent, what the opponents received."""

    def __init__(self) -> None:
        self.stats = Stats()
        self.sent_at: dict[tuple[str, int], tuple[float, int]] = {}
        self.measuring = False

    def sent(self, match_id: str, version: int, index: int) -> None:
        """Player `index` submitted the move that should make `version`."""
        self.sent_at[(match_id, version)] = (time.perf_counter(), index)

    def frame(self, match_id: str, version: int, index: int, nbytes: int, now: float) -> None:
        """Player `index` received the state frame of `version`, `nbytes` long."""
        stats = self.stats
        if self.measuring:
            stats.frame_bytes += nbytes
            stats.frames += 1
        started = self.sent_at.get((match_id, version))
        if started is not None and started[1] != index:  # the opponent saw the move
            del self.sent_at[(match_id, version)]
            if self.measuring:
                stats.latencies.append(now - started[0])
                stats.moves += 1


class Adapter(Protocol):
    """A server under load."""

    name: str

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def prepare_lane(self, lane_id: int) -> Any:
        """What a lane keeps from match to match (its players)."""

    async def new_match(self, lane: Any) -> Any:
        """A started two-player C64 Maze match of this lane's players."""

    async def play_match(
        self, lane: Any, match: Any, book: Book, deadline: float, rng: random.Random
    ) -> None:
        """Plays `match` until it ends or `deadline` (time.perf_counter()) passes."""


def patch_of(frame: dict[str, Any], reader: Reader | None) -> tuple[int, list[Any]] | None:
    """(version, RFC 6902 ops) of a state frame after the snapshot: a full `patch` frame, or a
    compact one (type "p") expanded by `reader`; None for any other frame."""
    kind = frame["type"]
    if kind == "patch":
        return frame["version"], frame["ops"]
    if kind == "p" and reader is not None:
        return frame["v"], reader.expand(frame)[0]
    return None


def apply_ops(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """The RFC 6902 subset our server emits (add, remove, replace), in place: kept tiny so
    the load generator spends its CPU on load, not on a general patch library."""
    for op in ops:
        path = op["path"]
        if path == "":
            doc = op["value"]
            continue
        keys = [k.replace("~1", "/").replace("~0", "~") for k in path[1:].split("/")]
        parent = doc
        for key in keys[:-1]:
            parent = parent[int(key)] if isinstance(parent, list) else parent[key]
        last = keys[-1]
        kind = op["op"]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if kind == "add":
                parent.insert(index, op["value"])
            elif kind == "remove":
                del parent[index]
            else:
                parent[index] = op["value"]
        elif kind == "remove":
            del parent[last]
        else:
            parent[last] = op["value"]
    return doc


# --- our server -------------------------------------------------------------------------------
class Player:
    def __init__(self, name: str, token: str) -> None:
        self.name, self.token = name, token


async def new_player(client: httpx.AsyncClient, name: str) -> Player:
    body = (await client.post("/api/players", json={"name": name})).json()
    return Player(name, body["token"])


async def new_match(client: httpx.AsyncClient, a: Player, b: Player) -> str:
    auth = {"Authorization": f"Bearer {a.token}"}
    match = (
        await client.post("/api/matches", json={"game": "c64-maze", "seats": 2}, headers=auth)
    ).json()
    await client.post(
        f"/api/matches/{match['id']}/join", json={}, headers={"Authorization": f"Bearer {b.token}"}
    )
    await client.post(f"/api/matches/{match['id']}/start", headers=auth)
    return match["id"]


async def stop_at_deadline(deadline: float, play: Awaitable[None]) -> bool:
    """Runs `play` until it returns (True) or the deadline passes (False). One timer for the
    whole match, not one per frame (wait_for made a task and a timer for every frame: a tenth
    of the generator's CPU, taken from the server it measures)."""
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout_at(loop.time() + max(0.01, deadline - time.perf_counter())):
            await play
    except TimeoutError:
        return False
    return True


class OurServer:
    """Our WebSocket protocol (docs/protocol.md): hello, then a snapshot, then one patch frame
    per move with the version it makes; a move carries the version it was chosen at."""

    name = "ours"

    def __init__(self, url: str, compression: bool = False, compact: bool = False) -> None:
        self.url = url
        self.ws_url = url.replace("http", "ws", 1)
        self.compression = compression
        self.compact = compact
        """Ask for the compact frames as the match page does (`"compact": 2`) and expand
        them as its reader does, instead of the full `patch` frames."""
        self.client: httpx.AsyncClient | None = None

    async def open(self) -> None:
        limits = httpx.Limits(max_connections=50, keepalive_expiry=1.0)
        self.client = httpx.AsyncClient(base_url=self.url, limits=limits, timeout=60)

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()

    def socket_url(self, match: str, index: int) -> str:
        """Where player `index` of `match` opens its socket: the one server here;
        bench/cluster.py puts the two players of a match on different processes."""
        return self.ws_url

    async def prepare_lane(self, lane_id: int) -> list[Player]:
        assert self.client is not None
        return [
            await new_player(self.client, f"bench{lane_id}a"),
            await new_player(self.client, f"bench{lane_id}b"),
        ]

    async def new_match(self, lane: list[Player]) -> str:
        assert self.client is not None
        return await new_match(self.client, *lane)

    async def play_match(
        self, lane: list[Player], match: str, book: Book, deadline: float, rng: random.Random
    ) -> None:
        sockets = [
            await websockets.connect(
                f"{self.socket_url(match, index)}/api/matches/{match}/ws",
                max_size=2**22,
                compression="deflate" if self.compression else None,
            )
            for index in range(len(lane))
        ]
        done = asyncio.Event()
        stats = book.stats

        async def run(index: int) -> None:
            ws = sockets[index]
            hello: dict[str, Any] = {"type": "hello", "token": lane[index].token}
            if self.compact:
                hello["compact"] = 2
            await ws.send(orjson.dumps(hello).decode())
            if not await stop_at_deadline(deadline, receive(index, ws)):
                done.set()

        async def receive(index: int, ws: Any) -> None:
            reader = Reader() if self.compact else None
            state: dict | None = None
            version = -1
            pending = False
            while not done.is_set():
                text = await ws.recv()
                now = time.perf_counter()
                frame = orjson.loads(text)
                kind = frame["type"]
                if kind == "snapshot":
                    state, version = frame["state"], frame["version"]
                elif (patch := patch_of(frame, reader)) is not None:
                    new_version, ops = patch
                    if new_version != version + 1 or state is None:
                        stats.version_errors += 1
                    state = apply_ops(state, ops)
                    version = new_version
                    if state is not None and state.get("version") != version:
                        stats.version_errors += 1
                    book.frame(match, version, index, len(text), now)
                elif kind == "ack":
                    pending = False
                elif kind == "error":
                    stats.errors += 1
                    pending = False
                else:
                    continue
                if state is None or pending:
                    continue
                if state["status"] != "active":
                    stats.matches_finished += 1
                    done.set()
                    return
                if state["legal_moves"] and time.perf_counter() < deadline:
                    move = rng.choice(state["legal_moves"])
                    book.sent(match, version + 1, index)
                    pending = True
                    # The player's index is in the id: in C64 Maze's set-up both seats move
                    # at once, and the same id from both would be answered to the second as
                    # a resend of the first (its ack, its move never applied).
                    await ws.send(
                        orjson.dumps(
                            {
                                "type": "move",
                                "id": f"{match}-{index}-{version + 1}",
                                "move": move,
                                "version": version,
                            }
                        ).decode()
                    )

        try:
            await asyncio.gather(run(0), run(1))
        finally:
            for ws in sockets:
                await ws.close()


# --- the level ------------------------------------------------------------------------------
def free_port() -> int:
    """A TCP port nothing on 127.0.0.1 listens on now, for a server a benchmark starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def process_cpu_seconds(pid: int | None) -> float | None:
    """user + system CPU time of a process on this machine (Linux /proc), or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def group_cpu_seconds(pids: list[int]) -> dict[int, float]:
    """CPU seconds of each of some processes that is still there."""
    found = {}
    for pid in pids:
        seconds = process_cpu_seconds(pid)
        if seconds is not None:
            found[pid] = seconds
    return found


def group_cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU a group of processes used between two readings: what each that was there both times
    used, and all of what each newcomer used (one that went away in between is not counted)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def own_cpu_seconds() -> float:
    """The generator's own CPU time (user + system, all its threads)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def lane(
    adapter: Adapter,
    lane_id: int,
    book: Book,
    deadline: float,
    prepared: tuple[Any, Any] | None = None,
) -> None:
    """One of the M matches, replaced by a new one when it ends. `prepared`: the lane's
    players and first match, made before the clock started."""
    rng = random.Random(lane_id)
    if prepared is None:
        players, match = await adapter.prepare_lane(lane_id), None
    else:
        players, match = prepared
    while time.perf_counter() < deadline:
        try:
            if match is None:
                match = await adapter.new_match(players)
            await adapter.play_match(players, match, book, deadline, rng)
        except Exception as exc:  # noqa: BLE001  (counted and shown; the lane goes on)
            book.stats.errors += 1
            if book.stats.errors <= 3:
                print(f"  {adapter.name} lane {lane_id}: {exc!r}", file=sys.stderr, flush=True)
            await asyncio.sleep(0.1)
        match = None


async def prepare_lane_and_match(adapter: Adapter, lane_id: int) -> tuple[Any, Any]:
    players = await adapter.prepare_lane(lane_id)
    return players, await adapter.new_match(players)


async def run_level(
    adapter: Adapter,
    matches: int,
    seconds: float,
    warmup: float,
    watch: dict[str, Callable[[], list[int]]] | None = None,
    prepare_first: bool = False,
    beside: Callable[[], Awaitable[Callable[[Book, float], Awaitable[Any]]]] | None = None,
) -> Stats:
    """M lanes for `warmup` + `seconds`; figures from the measured `seconds` only. `watch`
    names process groups whose CPU time is taken over the measured time (each a function
    giving the pids, asked at the start and at the end). `prepare_first`: make every lane's
    players and first match before the clock starts. `beside`: other load (load.py's
    computer matches), prepared before the clock starts; it returns what runs beside the
    lanes, `run(book, deadline)`, awaited after the measurement ends."""
    book = Book()
    await adapter.open()
    try:
        prepared: list[tuple[Any, Any] | None] = [None] * matches
        if prepare_first:
            prepared = list(
                await asyncio.gather(*(prepare_lane_and_match(adapter, i) for i in range(matches)))
            )
        run_beside = None if beside is None else await beside()
        deadline = time.perf_counter() + warmup + seconds
        tasks = [
            asyncio.create_task(lane(adapter, i, book, deadline, prepared[i]))
            for i in range(matches)
        ]
        beside_task = (
            None if run_beside is None else asyncio.create_task(run_beside(book, deadline))
        )
        await asyncio.sleep(warmup)
        book.measuring = True
        measured_from = time.perf_counter()
        watch = watch or {}
        cpu_from = {name: group_cpu_seconds(find()) for name, find in watch.items()}
        own_from = own_cpu_seconds()
        await asyncio.gather(*tasks)
        stats = book.stats
        stats.elapsed = time.perf_counter() - measured_from
        stats.generator_cpu = own_cpu_seconds() - own_from
        for name, find in watch.items():
            before = cpu_from[name]
            after = group_cpu_seconds(list(before) + find())
            stats.server_cpu[name] = group_cpu_used(before, after) if before or after else None
        if beside_task is not None:
            await beside_task
    finally:
        await adapter.close()
    return stats


def run_event_loop(coroutine: Any) -> Any:
    """uvloop when installed (uvicorn[standard] brings it): the generator shares the CPU with
    the server it measures, so it should spend as little of it as it can."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)
