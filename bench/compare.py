"""Our server beside boardgame.io 0.50.2 on the same closed loop (issue 17, targets 2 and 3).

Both servers play C64 Maze (boardgame.io the faithful port in bench/peer/boardgameio, checked
against our rules by bench/peer/check_port.py). One load-generator core (bench/loadcore.py)
drives both: M concurrent matches, two players each, every player picking a random legal move
from the state it holds as soon as it may move (a closed loop, no think time), a finished
match replaced by a new one. Only the protocol differs, in two adapters:

- ours: hello, a snapshot, then a JSON Patch frame per move, applied to the held state, its
  version checked to be the next one; every move committed to PostgreSQL before its ack.
- boardgame.io: its socket.io protocol as its browser client speaks it (`sync`, then a
  full-state `update` per move, whose `_stateID` is checked to be the next one; a move is an
  `update` message carrying the `_stateID` it was chosen at); matches in its InMemory storage.

Latency runs from a move's submission to the opponent receiving the frame it made. Levels of M
run in turn, each level `--runs` times, the two servers alternating within a run (who goes
first swaps every run) so the machine's drift falls on both alike. Each line prints moves/s,
p50/p99 latency, the state frame's bytes per player per move (uncompressed, as sent), the
generator's own CPU (its process time) and each server's CPU from /proc (ours: the server
process and, apart, the PostgreSQL backends serving its database), then medians, the
our/boardgame.io ratios, and the most moves/s the machine's CPUs could give ours at the CPU a
move measured for the generator, our server and PostgreSQL together (`cpu_cap`).

Starting both servers itself (ours on a fresh PostgreSQL database it creates, rate limits
lifted; boardgame.io with NODE_ENV=production; run `npm ci` in bench/peer/boardgameio once):

    .venv/bin/python bench/compare.py --start --matches 1 100 --seconds 15 --warmup 3 --runs 3

Or driving servers you started (give their pids for their CPU; --ours-database for the
PostgreSQL backends' CPU):

    .venv/bin/python bench/compare.py --ours-url http://127.0.0.1:8640 --ours-pid P1 \\
        --ours-database arcade_compare --bgio-url http://127.0.0.1:8740 --bgio-pid P2

boardgame.io's frames are its whole state by default; BGIO_VIEW=view in the environment of
its server (passed on by --start) makes them what ours carry instead (bench/README.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadcore import (  # noqa: E402  (the bench folder is not a package)
    Book,
    OurServer,
    Stats,
    percentile,
    run_event_loop,
    run_level,
    stop_at_deadline,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.games.c64.maze import Maze  # noqa: E402

MAZE = Maze()
BGIO_DIR = Path(__file__).resolve().parent / "peer" / "boardgameio"
GAME = "c64-maze"
NAMESPACE = f"/{GAME}"


class _OrjsonForSocketIO:
    """python-socketio's packets through orjson, as our adapter's frames are: the generator's
    cost per frame should not differ between the two servers because of the JSON library."""

    @staticmethod
    def loads(text: str | bytes) -> Any:
        return orjson.loads(text)

    @staticmethod
    def dumps(data: Any, **_: Any) -> str:
        return orjson.dumps(data).decode()


def socketio_errors() -> Any:
    import socketio

    return socketio.exceptions


def socketio_client(http_session: Any) -> Any:
    """A python-socketio AsyncClient that also counts the bytes of each message it receives
    (the Engine.IO message as it came over the WebSocket: its '4' type byte and the Socket.IO
    packet, e.g. `42/c64-maze,["update",...]`). All of them share one aiohttp session."""
    import socketio

    class CountingClient(socketio.AsyncClient):  # type: ignore[misc]
        last_bytes = 0

        async def _handle_eio_message(self, data: Any) -> None:
            self.last_bytes = 1 + len(data.encode() if isinstance(data, str) else data)
            await super()._handle_eio_message(data)

    return CountingClient(reconnection=False, json=_OrjsonForSocketIO, http_session=http_session)


def legal_moves(g: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The seat's legal moves: sent by the server (BGIO_VIEW=view) or, as boardgame.io's
    browser client does with the game's code, derived from G (BGIO_VIEW=raw, the default) by
    the rules (our module: rules.js agrees with it move for move, bench/peer/check_port.py)."""
    sent = g.get("legal_moves")
    if sent is not None:
        return sent
    return MAZE.legal_moves(g, seat)


class BoardgameIO:
    """boardgame.io 0.50.2's Lobby API (a match, then a seat and credentials per player) and
    its socket.io transport, as its browser client uses them (dist/cjs/socketio-*.js):
    emit `sync` (matchID, playerID, credentials, numPlayers); receive `sync` (matchID,
    {state, log, ...}) and `update` (matchID, state, deltalog); emit `update` (action,
    stateID, matchID, playerID) with a MAKE_MOVE action. A player may move when the state's
    ctx names it active (or current, with no active players) and its playerView offers legal
    moves; a stale move is dropped by the server without an answer, so a pending move ends
    with the next state."""

    name = "boardgame.io"

    def __init__(self, url: str) -> None:
        self.url = url
        self.client: httpx.AsyncClient | None = None
        self.http_session: Any = None

    async def open(self) -> None:
        import aiohttp

        limits = httpx.Limits(max_connections=50, keepalive_expiry=1.0)
        self.client = httpx.AsyncClient(base_url=self.url, limits=limits, timeout=60)
        # No cap on connections: each player's WebSocket holds one for the whole match.
        self.http_session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()
        if self.http_session is not None:
            await self.http_session.close()

    async def prepare_lane(self, lane_id: int) -> int:
        return lane_id

    async def new_match(self, lane: int) -> tuple[str, list[str]]:
        assert self.client is not None
        created = await self.client.post(f"/games/{GAME}/create", json={"numPlayers": 2})
        created.raise_for_status()
        match_id = created.json()["matchID"]
        credentials = []
        for player_id in ("0", "1"):
            joined = await self.client.post(
                f"/games/{GAME}/{match_id}/join",
                json={"playerID": player_id, "playerName": f"bench{lane}-{player_id}"},
            )
            joined.raise_for_status()
            credentials.append(joined.json()["playerCredentials"])
        return match_id, credentials

    async def play_match(
        self,
        lane: int,
        match: tuple[str, list[str]],
        book: Book,
        deadline: float,
        rng: random.Random,
    ) -> None:
        match_id, credentials = match
        stats = book.stats
        done = asyncio.Event()
        clients = [socketio_client(self.http_session) for _ in credentials]

        def attach(index: int) -> None:
            sio = clients[index]
            player_id = str(index)
            held: dict[str, Any] = {"state": None, "pending": None}

            async def decide() -> None:
                # Everything up to the emit runs before the first await, so frames are handled
                # in the order they came even though python-socketio gives each its own task.
                state = held["state"]
                ctx = state["ctx"]
                if ctx.get("gameover") is not None:
                    if not done.is_set():
                        stats.matches_finished += 1
                        done.set()
                    return
                if held["pending"] is not None or done.is_set() or time.perf_counter() >= deadline:
                    return
                active = ctx.get("activePlayers")
                mine = player_id in active if active else ctx["currentPlayer"] == player_id
                if not mine:
                    return
                legal = legal_moves(state["G"], index)
                if not legal:
                    return
                state_id = state["_stateID"]
                move = rng.choice(legal)
                held["pending"] = state_id
                book.sent(match_id, state_id + 1, index)
                action = {
                    "type": "MAKE_MOVE",
                    "payload": {
                        "type": "move",
                        "args": [move],
                        "playerID": player_id,
                        "credentials": credentials[index],
                    },
                }
                try:
                    await sio.emit(
                        "update", (action, state_id, match_id, player_id), namespace=NAMESPACE
                    )
                except socketio_errors().SocketIOError:
                    if not done.is_set():  # not the end of the match: a lost connection
                        stats.errors += 1
                        done.set()

            async def on_sync(_match: str, sync_info: dict[str, Any]) -> None:
                held["state"] = sync_info["state"]
                await decide()

            async def on_update(_match: str, state: dict[str, Any], _deltalog: Any) -> None:
                now = time.perf_counter()
                before = held["state"]
                state_id = state["_stateID"]
                if before is None or state_id != before["_stateID"] + 1:
                    stats.version_errors += 1
                if before is not None and state_id < before["_stateID"]:
                    return  # a browser client ignores an older state
                held["state"] = state
                if held["pending"] is not None and state_id > held["pending"]:
                    held["pending"] = None
                book.frame(match_id, state_id, index, sio.last_bytes, now)
                await decide()

            sio.on("sync", on_sync, namespace=NAMESPACE)
            sio.on("update", on_update, namespace=NAMESPACE)

        for index in range(len(clients)):
            attach(index)
        try:
            for index, sio in enumerate(clients):
                await sio.connect(
                    self.url, namespaces=[NAMESPACE], transports=["websocket"], wait_timeout=60
                )
                await sio.emit(
                    "sync", (match_id, str(index), credentials[index], 2), namespace=NAMESPACE
                )
            await stop_at_deadline(deadline, done.wait())
        finally:
            done.set()
            for sio in clients:
                await sio.disconnect()


# --- the servers ------------------------------------------------------------------------------
LIMIT_ENV = (
    "GUESTS_PER_ADDRESS",
    "LOBBIES_PER_PLAYER",
    "LOBBIES_PER_ADDRESS",
    "LOBBY_WRITES_PER_PLAYER",
    "LOBBY_WRITES_PER_ADDRESS",
)


def require_free_port(port: int, what: str) -> None:
    """--start must not measure a server someone else left on the port."""
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise SystemExit(f"port {port} is in use: choose another for {what} (see --help)")


def wait_until_up(url: str, process: subprocess.Popen[bytes], what: str) -> None:
    for _ in range(240):
        if process.poll() is not None:
            raise SystemExit(f"{what} exited with status {process.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"{what} did not answer {url}")


def psql(database_url: str, *commands: str) -> str:
    args = ["psql", database_url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"]
    for command in commands:
        args += ["-c", command]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def start_ours(
    pg: str, database: str, port: int, log: Any, *, workers: int = 1, redis: str = DEFAULT_REDIS
) -> subprocess.Popen[bytes]:
    """Our server on a fresh database `database` (dropped and made again), limits lifted; with
    several workers, sharing `redis` as `arcade serve --workers` requires."""
    require_free_port(port, "our server (--ours-url)")
    psql(f"{pg}/postgres", f'DROP DATABASE IF EXISTS "{database}"', f'CREATE DATABASE "{database}"')
    env = dict(os.environ)
    env.update({name: "1000000/minute" for name in LIMIT_ENV})
    env.update({"DATABASE_URL": f"{pg}/{database}", "PORT": str(port)})
    if workers > 1:
        # A scope of its own, so that leases and presence left in Redis by an earlier run
        # (or by anything else using this Redis) are not this run's.
        env.update({"REDIS_URL": redis, "LEASE_SCOPE": database})
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--workers", str(workers)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
    )
    wait_until_up(f"http://127.0.0.1:{port}/healthz", process, "our server")
    return process


def start_bgio(port: int, log: Any) -> subprocess.Popen[bytes]:
    if not (BGIO_DIR / "node_modules" / "boardgame.io").is_dir():
        raise SystemExit(f"run `npm ci` in {BGIO_DIR} first")
    require_free_port(port, "boardgame.io (--bgio-url)")
    env = dict(os.environ, NODE_ENV="production", PORT=str(port))
    process = subprocess.Popen(["node", "server.js"], cwd=BGIO_DIR, env=env, stdout=log, stderr=log)
    wait_until_up(f"http://127.0.0.1:{port}/games", process, "boardgame.io")
    return process


def process_tree(pid: int) -> Callable[[], list[int]]:
    """`pid` and its children (the workers of `arcade serve --workers N`, and its computer
    players' and record checker's processes, which the benchmark leaves idle)."""

    def find() -> list[int]:
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as children:
                return [pid, *(int(child) for child in children.read().split())]
        except OSError:
            return [pid]

    return find


def database_backends(pg: str, database: str) -> Callable[[], list[int]]:
    """The pids of the PostgreSQL backends serving `database` (same machine)."""

    def find() -> list[int]:
        out = psql(
            f"{pg}/postgres",
            f"SELECT pid FROM pg_stat_activity WHERE datname = '{database}'",
        )
        return [int(line) for line in out.split()]

    return find


# --- the report -------------------------------------------------------------------------------
def per_move_us(seconds: float | None, moves: int) -> float | None:
    return None if seconds is None or not moves else seconds / moves * 1e6


def fmt(value: float | None, spec: str = ".0f") -> str:
    return "-" if value is None else format(value, spec)


HEADER = (
    ("server", 13),
    ("M", 4),
    ("moves/s", 8),
    ("p50 ms", 7),
    ("p99 ms", 7),
    ("B/frame", 8),
    ("gen CPU", 8),
    ("gen us/mv", 10),
    ("srv us/mv", 10),
    ("db us/mv", 9),
    ("err", 4),
    ("gaps", 5),
    ("done", 5),
    ("load", 5),
)


def line(name: str, m: int, stats: Stats) -> dict[str, Any]:
    lat = [x * 1000 for x in stats.latencies]
    row = {
        "server": name,
        "M": m,
        "rate": stats.moves / stats.elapsed if stats.elapsed else 0.0,
        "p50": percentile(lat, 0.50),
        "p99": percentile(lat, 0.99),
        "bytes": stats.frame_bytes / stats.frames if stats.frames else float("nan"),
        "gen_core": stats.generator_cpu / stats.elapsed if stats.elapsed else 0.0,
        "gen_us": per_move_us(stats.generator_cpu, stats.moves),
        "srv_us": per_move_us(stats.server_cpu.get("server"), stats.moves),
        "db_us": per_move_us(stats.server_cpu.get("db"), stats.moves),
        "srv_core": None,
    }
    server_cpu = stats.server_cpu.get("server")
    if server_cpu is not None and stats.elapsed:
        row["srv_core"] = server_cpu / stats.elapsed
    cells = (
        name,
        m,
        f"{row['rate']:.0f}",
        f"{row['p50']:.2f}",
        f"{row['p99']:.2f}",
        f"{row['bytes']:.0f}",
        f"{row['gen_core']:.0%}",
        fmt(row["gen_us"]),
        fmt(row["srv_us"]),
        fmt(row["db_us"]),
        stats.errors,
        stats.version_errors,
        stats.matches_finished,
        f"{os.getloadavg()[0]:.1f}",
    )
    print(" ".join(f"{c!s:>{w}}" for c, (_, w) in zip(cells, HEADER, strict=True)), flush=True)
    return row


def summary(rows: list[dict[str, Any]], levels: list[int]) -> None:
    print(
        "\nmedians over the runs (range in brackets); ratios are ours / boardgame.io, "
        "paired run by run"
    )
    for m in levels:
        ours = [r for r in rows if r["M"] == m and r["server"] == "ours"]
        peer = [r for r in rows if r["M"] == m and r["server"] == "boardgame.io"]
        for name, group in (("ours", ours), ("boardgame.io", peer)):
            if not group:
                continue

            def med(key: str, spec: str, group: list[dict[str, Any]] = group) -> str:
                values = [r[key] for r in group if r[key] is not None]
                if not values:
                    return "-"
                return (
                    f"{format(statistics.median(values), spec)} "
                    f"[{format(min(values), spec)}-{format(max(values), spec)}]"
                )

            print(
                f"  M={m:<4} {name:<13} moves/s {med('rate', '.0f')}, p50 {med('p50', '.2f')} ms, "
                f"p99 {med('p99', '.2f')} ms, {med('bytes', '.0f')} B/frame, generator "
                f"{med('gen_us', '.0f')} us/move, server {med('srv_us', '.0f')} us/move"
                + (f", PostgreSQL {med('db_us', '.0f')} us/move" if name == "ours" else "")
            )
        pairs = list(zip(ours, peer, strict=False))
        if pairs:

            def ratio(key: str, pairs: list[tuple[dict, dict]] = pairs) -> str:
                values = [a[key] / b[key] for a, b in pairs if b[key]]
                if not values:
                    return "-"
                return f"{statistics.median(values):.2f}x [{min(values):.2f}-{max(values):.2f}]"

            print(
                f"  M={m:<4} ours/boardgame.io: moves/s {ratio('rate')}, p50 {ratio('p50')}, "
                f"p99 {ratio('p99')}, bytes {ratio('bytes')}"
            )
            caps = [(cap, b["rate"]) for a, b in pairs if (cap := cpu_cap(a)) and b["rate"]]
            if caps:
                limits = [c for c, _ in caps]
                over_peer = [c / rate for c, rate in caps]
                print(
                    f"  M={m:<4} ours at most, with all {os.cpu_count()} CPUs busy at this "
                    f"generator, server and PostgreSQL CPU a move: moves/s "
                    f"{statistics.median(limits):.0f} [{min(limits):.0f}-{max(limits):.0f}], "
                    f"{statistics.median(over_peer):.2f}x [{min(over_peer):.2f}-"
                    f"{max(over_peer):.2f}] boardgame.io's"
                )


def cpu_cap(row: dict[str, Any]) -> float | None:
    """The most moves per second this machine's CPUs could give at the CPU a move the run
    measured for everything the loop runs (generator, server, PostgreSQL), however the
    server's share were spread over processes: a bound for target 2 that no number of
    server processes can pass (bench/README.md, session 13)."""
    parts = (row["gen_us"], row["srv_us"], row["db_us"])
    if any(part is None for part in parts):
        return None
    return (os.cpu_count() or 1) * 1e6 / sum(parts)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, nargs="+", default=[1, 100], metavar="M")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per level")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3, help="times each level is measured")
    parser.add_argument(
        "--only", choices=("ours", "boardgame.io"), default=None, help="drive one server only"
    )
    parser.add_argument(
        "--start",
        action="store_true",
        help="start both servers (ours on a fresh database --ours-database) and stop them after",
    )
    parser.add_argument("--ours-url", default=None, help="default http://127.0.0.1:8640")
    parser.add_argument("--bgio-url", default=None, help="default http://127.0.0.1:8740")
    parser.add_argument("--ours-pid", type=int, default=None, help="our server's pid, for CPU")
    parser.add_argument("--bgio-pid", type=int, default=None, help="boardgame.io's pid, for CPU")
    parser.add_argument(
        "--ours-database",
        default="arcade_compare",
        help="our server's database name: made fresh with --start; its PostgreSQL backends' "
        "CPU is printed (db us/mv)",
    )
    parser.add_argument(
        "--postgres",
        default="postgresql://postgres@127.0.0.1:5432",
        help="PostgreSQL server URL without a database",
    )
    parser.add_argument(
        "--ours-workers",
        type=int,
        default=1,
        help="with --start: our server's processes (`arcade serve --workers N`, sharing Redis)",
    )
    parser.add_argument(
        "--ours-compact",
        action="store_true",
        help="our players ask for the compact frames as the match page does (`compact: 2`) "
        "and expand them with its reader, instead of the full `patch` frames",
    )
    parser.add_argument("--redis", default=DEFAULT_REDIS, help="Redis for --ours-workers above 1")
    parser.add_argument("--log", default="/tmp/compare-servers.log", help="the servers' output")
    args = parser.parse_args()

    ours_url = args.ours_url or "http://127.0.0.1:8640"
    bgio_url = args.bgio_url or "http://127.0.0.1:8740"
    started: list[subprocess.Popen[bytes]] = []
    ours_pid, bgio_pid = args.ours_pid, args.bgio_pid
    log = open(args.log, "ab")  # noqa: SIM115  (closed at the end of main)
    try:
        if args.start:
            if args.only != "boardgame.io":
                process = start_ours(
                    args.postgres,
                    args.ours_database,
                    _port(ours_url),
                    log,
                    workers=args.ours_workers,
                    redis=args.redis,
                )
                started.append(process)
                ours_pid = process.pid
            if args.only != "ours":
                process = start_bgio(_port(bgio_url), log)
                started.append(process)
                bgio_pid = process.pid
        servers: list[tuple[Any, dict[str, Callable[[], list[int]]]]] = []
        if args.only != "boardgame.io":
            watch: dict[str, Callable[[], list[int]]] = {}
            if ours_pid is not None:
                watch["server"] = process_tree(ours_pid)
            if args.ours_database:
                watch["db"] = database_backends(args.postgres, args.ours_database)
            servers.append((lambda: OurServer(ours_url, compact=args.ours_compact), watch))
        if args.only != "ours":
            watch = {} if bgio_pid is None else {"server": lambda: [bgio_pid]}
            servers.append((lambda: BoardgameIO(bgio_url), watch))
        print(
            f"{os.cpu_count()} CPUs; 1-minute load average {os.getloadavg()[0]:.1f} at the start; "
            f"{args.seconds:g} s measured after {args.warmup:g} s warm-up, {args.runs} run(s)"
            + (f"; BGIO_VIEW={os.environ.get('BGIO_VIEW', 'raw')}" if args.start else "")
        )
        print(" ".join(f"{h:>{w}}" for h, w in HEADER))
        rows = []
        for m in args.matches:
            for run in range(args.runs):
                order = servers if run % 2 == 0 else servers[::-1]
                for make, watch in order:
                    adapter = make()
                    stats = run_event_loop(
                        run_level(adapter, m, args.seconds, args.warmup, watch, prepare_first=True)
                    )
                    rows.append(line(adapter.name, m, stats))
        summary(rows, args.matches)
        print(f"1-minute load average {os.getloadavg()[0]:.1f} at the end")
    finally:
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        log.close()


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


if __name__ == "__main__":
    main()
