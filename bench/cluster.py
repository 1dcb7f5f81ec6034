"""Several server processes behind one database (issue 19, item 5): throughput and p99 with 1,
2 and 3 processes, and how long a failover takes.

It starts everything itself: for each level a fresh PostgreSQL database, then N server
processes (`uvicorn app.main:create_app`, each on its own port, as replicas behind a load
balancer are) sharing that database and Redis. The load is `loadcore.py`'s closed loop: M
concurrent C64 Maze matches, two WebSocket players each, every player applying every patch,
checking versions and moving as soon as it may; with several processes the two players of a
match are on different processes, so every move crosses Redis to reach the opponent. Latency
runs from a move's submission to the opponent receiving its patch.

Then the failover, beside the same closed-loop load on the processes that survive: a match
whose player A is on one process and B on another; when A is to move, A's process is killed
with SIGKILL. A notices the lost connection, connects to a live process, says hello, takes
the snapshot and sends its move. The time printed runs from the kill to that move's ack (the
next accepted move of the match), split into its parts. The browser adds its reconnect
backoff (0.5 s, +-25 %, static/js/socket.js) before the connect; it is not included. The
killed process is replaced by a new one before the next trial.

    .venv/bin/python bench/cluster.py                     # about 1.5 minutes
    .venv/bin/python bench/cluster.py --processes 1 2 3 4 --matches 50 --seconds 60 \\
        --failovers 10 --log /tmp/cluster.log

The machine's CPU count and this process's CPU affinity are printed beside the figures: on a
2-core machine the N processes, PostgreSQL, Redis and the generator share two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import IO, Any

import httpx
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadcore import (  # noqa: E402  (the bench folder is not a package)
    OurServer,
    apply_ops,
    free_port,
    percentile,
    run_event_loop,
    run_level,
)

ROOT = Path(__file__).resolve().parent.parent
# The generator makes guests and tables from one address far faster than people do.
LIFTED_LIMITS = {
    name: "1000000/minute"
    for name in (
        "GUESTS_PER_ADDRESS",
        "LOBBIES_PER_PLAYER",
        "LOBBIES_PER_ADDRESS",
        "LOBBY_WRITES_PER_PLAYER",
        "LOBBY_WRITES_PER_ADDRESS",
        "SYNCS_PER_CONNECTION",
        "SYNCS_PER_PLAYER",
    )
}
START_SECONDS = 60.0
START_ATTEMPTS = 3
RECONNECT_SECONDS = 30.0
LOAD_WARMUP = 2.0
FAILOVER_LOAD_SECONDS = 5.0
"""Seconds of load measured around each failover trial (it lasts well under one)."""


# --- the database and the processes ----------------------------------------------------------
def psql(server_url: str, *commands: str) -> str:
    args = ["psql", f"{server_url}/postgres", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"]
    for command in commands:
        args += ["-c", command]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


class Database:
    """A PostgreSQL database made for one level and dropped after it."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.name = f"arcade_cluster_{secrets.token_hex(4)}"
        psql(server_url, f'CREATE DATABASE "{self.name}"')

    @property
    def url(self) -> str:
        return f"{self.server_url}/{self.name}"

    def backends(self) -> list[int]:
        """The pids of the PostgreSQL backends serving this database (same machine)."""
        out = psql(
            self.server_url, f"SELECT pid FROM pg_stat_activity WHERE datname = '{self.name}'"
        )
        return [int(line) for line in out.split()]

    def drop(self) -> None:
        psql(self.server_url, f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


class Server:
    """One server process on its own port, as one replica behind a load balancer."""

    def __init__(self, database_url: str, redis_url: str, *, migrate: bool, log: IO[bytes]) -> None:
        env = dict(os.environ)
        env.update(LIFTED_LIMITS)
        env.update(
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            MIGRATE_ON_START="true" if migrate else "false",
        )
        # A port found free may be taken (by a client socket's ephemeral port) before the
        # server binds it: then the server exits at once and another port is tried.
        for _attempt in range(START_ATTEMPTS):
            self.port = free_port()
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "app.main:create_app",
                    "--factory",
                    "--host=127.0.0.1",
                    f"--port={self.port}",
                    "--log-level=warning",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=log,
            )
            if self._up():
                return
        raise SystemExit(f"a server process exited with status {self.process.returncode}")

    def _up(self) -> bool:
        deadline = time.monotonic() + START_SECONDS
        while self.process.poll() is None:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("a server process did not start")
            time.sleep(0.1)
        return False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self) -> None:
        self.process.kill()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process.wait()


def start_servers(database: Database, redis_url: str, count: int, log: IO[bytes]) -> list[Server]:
    servers = [Server(database.url, redis_url, migrate=True, log=log)]
    servers += [Server(database.url, redis_url, migrate=False, log=log) for _ in range(count - 1)]
    return servers


# --- throughput ----------------------------------------------------------------------------
class ClusterServer(OurServer):
    """loadcore's adapter with the players of a match on different processes (when there are
    several): player i of a match connects to process (h + i) mod N, h from the match id.
    Players and tables are made through the first process."""

    def __init__(self, servers: list[Server]) -> None:
        super().__init__(servers[0].url)
        self.ws_urls = [server.ws_url for server in servers]

    def socket_url(self, match: str, index: int) -> str:
        first = zlib.crc32(match.encode())
        return self.ws_urls[(first + index) % len(self.ws_urls)]


def measure_level(
    pg: str, redis_url: str, processes: int, args: argparse.Namespace, log: IO[bytes]
) -> dict[str, Any]:
    database = Database(pg)
    servers: list[Server] = []
    try:
        servers = start_servers(database, redis_url, processes, log)
        watch = {"servers": lambda: [s.pid for s in servers], "database": database.backends}
        stats = run_event_loop(
            run_level(ClusterServer(servers), args.matches, args.seconds, args.warmup, watch)
        )
    finally:
        for server in servers:
            server.stop()
        database.drop()
    latencies = [x * 1000 for x in stats.latencies]
    elapsed = stats.elapsed or float("nan")
    servers_cpu = stats.server_cpu.get("servers") or 0.0
    return {
        "us/move": servers_cpu / stats.moves * 1e6 if stats.moves else float("nan"),
        "processes": processes,
        "moves/s": stats.moves / elapsed,
        "p50": percentile(latencies, 0.50),
        "p99": percentile(latencies, 0.99),
        "errors": stats.errors,
        "gaps": stats.version_errors,
        "finished": stats.matches_finished,
        "servers": servers_cpu / elapsed,
        "database": (stats.server_cpu.get("database") or 0.0) / elapsed,
        "generator": stats.generator_cpu / elapsed,
    }


# --- failover ------------------------------------------------------------------------------
class ProbePlayer:
    """A browser's match socket, reduced to what the failover needs."""

    def __init__(self, token: str, match_id: str) -> None:
        self.token = token
        self.match_id = match_id
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.ws: Any = None

    async def connect(self, ws_url: str) -> None:
        self.ws = await websockets.connect(f"{ws_url}/api/matches/{self.match_id}/ws")
        await self.ws.send(orjson.dumps({"type": "hello", "token": self.token}).decode())
        while (await self.recv())["type"] != "snapshot":
            pass

    async def recv(self) -> dict[str, Any]:
        frame = orjson.loads(await asyncio.wait_for(self.ws.recv(), RECONNECT_SECONDS))
        if frame["type"] == "snapshot":
            self.state, self.version = frame["state"], frame["version"]
        elif frame["type"] == "patch":
            if frame["version"] != self.version + 1:
                raise RuntimeError(f"a gap: version {self.version}, then {frame['version']}")
            self.state = apply_ops(self.state, frame["ops"])
            self.version = frame["version"]
        elif frame["type"] == "error":
            raise RuntimeError(f"refused: {frame}")
        return frame

    def may_move(self) -> bool:
        return bool(self.state and self.state["status"] == "active" and self.state["legal_moves"])

    async def move(self, rng: random.Random) -> int:
        assert self.state is not None
        move_id = secrets.token_hex(8)
        message = {
            "type": "move",
            "id": move_id,
            "move": rng.choice(self.state["legal_moves"]),
            "version": self.version,
        }
        await self.ws.send(orjson.dumps(message).decode())
        while True:
            frame = await self.recv()
            if frame["type"] == "ack" and frame["id"] == move_id:
                return int(frame["version"])

    async def catch_up(self, version: int) -> None:
        while self.version < version:
            await self.recv()


async def new_guest(client: httpx.AsyncClient, name: str) -> str:
    response = await client.post("/api/players", json={"name": name})
    response.raise_for_status()
    return str(response.json()["token"])


async def failover_once(victim: Server, survivors: list[Server], rng: random.Random) -> dict:
    """Kills `victim` when its player is to move; times that player's way back to an ack."""
    async with httpx.AsyncClient(base_url=survivors[0].url, timeout=30) as client:
        tokens = [await new_guest(client, "Probe A"), await new_guest(client, "Probe B")]
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        made = await client.post(
            "/api/matches", json={"game": "c64-maze", "seats": 2}, headers=auth[0]
        )
        match_id = made.json()["id"]
        await client.post(f"/api/matches/{match_id}/join", json={}, headers=auth[1])
        (await client.post(f"/api/matches/{match_id}/start", headers=auth[0])).raise_for_status()
    a, b = ProbePlayer(tokens[0], match_id), ProbePlayer(tokens[1], match_id)
    await a.connect(victim.ws_url)
    await b.connect(survivors[0].ws_url)
    try:
        # A few moves first, so that the match is under way; then until A is to move.
        played = 0
        while played < 4 or not a.may_move():
            mover = a if a.may_move() and (played < 4 or not b.may_move()) else b
            version = await mover.move(rng)
            await a.catch_up(version)
            await b.catch_up(version)
            played += 1
        killed = time.perf_counter()
        victim.kill()
        try:
            while True:
                await a.recv()
        except websockets.ConnectionClosed:
            noticed = time.perf_counter()
        await a.ws.close()
        deadline = time.monotonic() + RECONNECT_SECONDS
        for attempt in range(len(survivors) * 100):
            try:
                await a.connect(survivors[attempt % len(survivors)].ws_url)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
        snapshot = time.perf_counter()
        await a.move(rng)
        acked = time.perf_counter()
    finally:
        for player in (a, b):
            if player.ws is not None:
                await player.ws.close()
    return {
        "noticed": noticed - killed,
        "snapshot": snapshot - killed,
        "acked": acked - killed,
    }


async def failover_beside_load(
    victim: Server, survivors: list[Server], rng: random.Random, matches: int
) -> dict[str, float]:
    """One failover trial while `matches` closed-loop matches play on the survivors."""
    if matches == 0:
        return await failover_once(victim, survivors, rng)
    load = asyncio.create_task(
        run_level(ClusterServer(survivors), matches, FAILOVER_LOAD_SECONDS, LOAD_WARMUP, {})
    )
    await asyncio.sleep(LOAD_WARMUP)  # the trial starts once the load runs
    try:
        return await failover_once(victim, survivors, rng)
    finally:
        await load


def measure_failovers(
    pg: str, redis_url: str, processes: int, args: argparse.Namespace, log: IO[bytes]
) -> list[dict[str, float]]:
    database = Database(pg)
    servers: list[Server] = []
    results = []
    rng = random.Random(19)
    try:
        servers = start_servers(database, redis_url, processes, log)
        for trial in range(args.failovers):
            index = trial % processes
            victim = servers[index]
            survivors = [s for s in servers if s is not victim]
            results.append(
                asyncio.run(failover_beside_load(victim, survivors, rng, args.failover_load))
            )
            victim.stop()
            servers[index] = Server(database.url, redis_url, migrate=False, log=log)
    finally:
        for server in servers:
            server.stop()
        database.drop()
    return results


# --- the report ----------------------------------------------------------------------------
POOL_PER_PROCESS = 30
"""Connections one server process may open (app/db/session.py: pool_size 20 + overflow 10)."""


def postgres_connections(pg: str, processes: int) -> str:
    """PostgreSQL's connection limit against what N processes may open: past it a move's
    commit is refused ("too many clients"), its mover gets server_error and, in this closed
    loop, the match stalls; the figures then measure the limit, not the servers."""
    limit, used = (
        int(x)
        for x in psql(
            pg,
            "SELECT current_setting('max_connections')::int",
            "SELECT count(*) FROM pg_stat_activity",
        ).split()
    )
    line = (
        f"PostgreSQL max_connections {limit}, {used} in use; {processes} processes may open "
        f"{processes * POOL_PER_PROCESS}"
    )
    if used + processes * POOL_PER_PROCESS > limit:
        line += " (MORE than are left: moves may be refused)"
    return line


def cpus() -> str:
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    return f"os.cpu_count() {os.cpu_count()}, CPU affinity of this process {affinity}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432"),
        help="the PostgreSQL server (no database name): a database is made for each level",
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--matches", type=int, default=20, help="concurrent matches (M)")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per level")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument(
        "--failovers", type=int, default=3, help="kill -9 trials (0: none), on the most processes"
    )
    parser.add_argument(
        "--failover-load",
        type=int,
        default=None,
        metavar="M",
        help="closed-loop matches playing on the surviving processes during each failover "
        "(default: --matches)",
    )
    parser.add_argument("--log", default=os.devnull, help="where the server processes' output goes")
    args = parser.parse_args()
    if args.failover_load is None:
        args.failover_load = args.matches
    pg = args.postgres.rstrip("/")
    print(f"CPUs: {cpus()}; 1-minute load average {os.getloadavg()[0]:.1f}", flush=True)
    print(postgres_connections(pg, max(args.processes)), flush=True)
    print(
        f"M = {args.matches} C64 Maze matches, closed loop, {args.seconds:.0f} s measured after "
        f"{args.warmup:.0f} s warm-up; us/move: the server processes' CPU per move; servers, "
        "postgres, generator: cores busy (CPU seconds per second)",
        flush=True,
    )
    header = (
        "procs",
        "moves/s",
        "p50 ms",
        "p99 ms",
        "errors",
        "gaps",
        "finished",
        "us/move",
        "servers",
        "postgres",
        "generator",
    )
    widths = (5, 9, 8, 8, 7, 5, 9, 8, 8, 9, 10)
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)), flush=True)
    with open(args.log, "ab") as log:
        for processes in args.processes:
            row = measure_level(pg, args.redis_url, processes, args, log)
            print(
                f"{processes:>5} {row['moves/s']:>9.0f} {row['p50']:>8.1f} {row['p99']:>8.1f} "
                f"{row['errors']:>7} {row['gaps']:>5} {row['finished']:>9} {row['us/move']:>8.0f} "
                f"{row['servers']:>8.2f} {row['database']:>9.2f} {row['generator']:>10.2f}",
                flush=True,
            )
        if args.failovers:
            processes = max(2, max(args.processes))
            results = measure_failovers(pg, args.redis_url, processes, args, log)
            print(
                f"failover, {processes} processes, beside {args.failover_load} matches on the "
                f"survivors, {len(results)} trials (ms from kill -9 to ...):",
                flush=True,
            )
            for part in ("noticed", "snapshot", "acked"):
                values = [r[part] * 1000 for r in results]
                print(
                    f"  {part:<9} median {statistics.median(values):7.1f}  "
                    f"max {max(values):7.1f}  all {' '.join(f'{v:.0f}' for v in values)}",
                    flush=True,
                )
            print(
                "  noticed: the player's socket closed; snapshot: connected to a live process "
                "and got its snapshot;\n  acked: its next move accepted. A browser also waits "
                "its reconnect backoff (0.5 s +-25 %) before connecting.",
                flush=True,
            )
    print(f"CPUs: {cpus()}; 1-minute load average {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
