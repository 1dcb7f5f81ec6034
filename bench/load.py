"""Load benchmark: drives a *running* Arcade Night server with M concurrent C64 Maze matches.

Each match has two WebSocket players. A player submits a random legal move as soon as it is
its turn (a closed loop, no think time). Latency is measured from a move's submission to the
*opponent* receiving the patch for that version. A match that finishes is replaced by a new
one, so the load stays at M matches for the whole run.

With --computer-matches K..., each level also runs beside K matches in which one generator
player (random moves, no think time) plays a normal computer player, so the server's worker
process searches all the time; it prints the M matches' figures for each K side by side, and
the computer's decisions as its opponent sees them (from the frame where the computer is the
seat to move to the patch with its move). Start the server with BOT_THINK_SECONDS=0 for that,
or every decision also holds the human pace the server adds.

    arcade serve --port 8000          # with DATABASE_URL pointing at PostgreSQL
    python bench/load.py --url http://127.0.0.1:8000 --matches 1 10 100 --seconds 15
    python bench/load.py --url http://127.0.0.1:8000 --matches 100 --computer-matches 0 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import websockets


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


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    frame_bytes: int = 0
    frames: int = 0
    errors: int = 0
    matches_finished: int = 0


@dataclass
class ComputerStats:
    """What the generator saw of the computer players: one decision per position in which
    the computer was the only seat to move, timed from that frame to the next patch."""

    decisions: list[float] = field(default_factory=list)
    errors: int = 0
    matches_finished: int = 0


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


async def play_match(
    ws_url: str,
    match_id: str,
    players: list[Player],
    stats: Stats,
    deadline: float,
    sent_at: dict[tuple[str, int], float],
    rng: random.Random,
    measuring: list[bool],
) -> None:
    sockets = [
        await websockets.connect(
            f"{ws_url}/api/matches/{match_id}/ws",
            max_size=2**22,
            compression="deflate" if COMPRESSION[0] else None,
        )
        for _ in players
    ]
    done = asyncio.Event()

    async def run(index: int) -> None:
        ws = sockets[index]
        await ws.send(orjson.dumps({"type": "hello", "token": players[index].token}).decode())
        loop = asyncio.get_running_loop()
        # One timer for the whole run, not one per frame (wait_for made a task and a timer for
        # every frame: a tenth of the generator's CPU, taken from the server it measures).
        stop_at = loop.time() + max(0.01, deadline - time.perf_counter())
        try:
            async with asyncio.timeout_at(stop_at):
                await receive(index, ws)
        except TimeoutError:
            done.set()

    async def receive(index: int, ws: Any) -> None:
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
            elif kind == "patch":
                state = apply_ops(state, frame["ops"])
                version = frame["version"]
                if measuring[0]:
                    stats.frame_bytes += len(text)
                    stats.frames += 1
                started = sent_at.get((match_id, version))
                if started is not None and started[1] != index:  # the opponent saw the move
                    del sent_at[(match_id, version)]
                    if measuring[0]:
                        stats.latencies.append(now - started[0])
                        stats.moves += 1
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
                sent_at[(match_id, version + 1)] = (time.perf_counter(), index)
                pending = True
                await ws.send(
                    orjson.dumps(
                        {
                            "type": "move",
                            "id": f"{match_id}-{version + 1}",
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


async def lane(
    client: httpx.AsyncClient,
    ws_url: str,
    lane_id: int,
    stats: Stats,
    deadline: float,
    sent_at: dict,
    measuring: list[bool],
    prepared: tuple[list[Player], str] | None = None,
) -> None:
    """`prepared`: the lane's players and first match, made before the clock started."""
    rng = random.Random(lane_id)
    players, match_id = prepared or (await prepare_lane(client, lane_id), None)
    while time.perf_counter() < deadline:
        match_id = match_id or await new_match(client, *players)
        await play_match(ws_url, match_id, players, stats, deadline, sent_at, rng, measuring)
        match_id = None


async def prepare_lane(client: httpx.AsyncClient, lane_id: int) -> list[Player]:
    return [
        await new_player(client, f"bench{lane_id}a"),
        await new_player(client, f"bench{lane_id}b"),
    ]


async def prepare_lane_and_match(
    client: httpx.AsyncClient, lane_id: int
) -> tuple[list[Player], str]:
    players = await prepare_lane(client, lane_id)
    return players, await new_match(client, *players)


async def new_computer_match(client: httpx.AsyncClient, host: Player) -> str:
    auth = {"Authorization": f"Bearer {host.token}"}
    match = (
        await client.post("/api/matches", json={"game": "c64-maze", "seats": 2}, headers=auth)
    ).json()
    for step, body in (("bots", {"level": "normal"}), ("start", None)):
        response = await client.post(f"/api/matches/{match['id']}/{step}", json=body, headers=auth)
        response.raise_for_status()
    return match["id"]


DRAIN_SECONDS = 60.0


async def play_computer_match(
    ws_url: str,
    match_id: str,
    player: Player,
    stats: ComputerStats,
    deadline: float,
    rng: random.Random,
    measuring: list[bool],
) -> bool:
    """Plays until the match ends (True) or the deadline passes. After the deadline it makes
    no move but waits for the computer's answer to the last one, so the next level does not
    start with this one's searches still queued at the server."""
    async with websockets.connect(
        f"{ws_url}/api/matches/{match_id}/ws",
        max_size=2**22,
        compression="deflate" if COMPRESSION[0] else None,
    ) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": player.token}).decode())
        state: dict | None = None
        computer_to_move_since: float | None = None
        moved_at = -1  # the version our last move answered: one move per position
        sent = 0
        async with asyncio.timeout(max(0.01, deadline - time.perf_counter()) + DRAIN_SECONDS):
            while True:
                text = await ws.recv()
                now = time.perf_counter()
                frame = orjson.loads(text)
                kind = frame["type"]
                if kind == "snapshot":
                    state = frame["state"]
                elif kind == "patch":
                    state = apply_ops(state, frame["ops"])
                    if computer_to_move_since is not None and measuring[0]:
                        stats.decisions.append(now - computer_to_move_since)
                    computer_to_move_since = None
                elif kind == "error":
                    stats.errors += 1
                    moved_at = -1
                if state is None or kind not in ("snapshot", "patch", "error"):
                    continue
                if state["status"] != "active":
                    stats.matches_finished += 1
                    return True
                active = state["active_seats"]
                mine = state["you"] in active
                if active and not mine:
                    if computer_to_move_since is None:
                        computer_to_move_since = now
                    continue
                if now >= deadline:
                    return False
                if mine and moved_at != state["version"] and state["legal_moves"]:
                    moved_at = state["version"]
                    sent += 1
                    await ws.send(
                        orjson.dumps(
                            {
                                "type": "move",
                                "id": f"{match_id}-{sent}",
                                "move": rng.choice(state["legal_moves"]),
                                "version": moved_at,
                            }
                        ).decode()
                    )


async def computer_lane(
    client: httpx.AsyncClient,
    ws_url: str,
    lane_id: int,
    stats: ComputerStats,
    deadline: float,
    measuring: list[bool],
    prepared: tuple[Player, str],
) -> None:
    rng = random.Random(f"computer{lane_id}")
    player, match_id = prepared
    while time.perf_counter() < deadline:
        if not await play_computer_match(
            ws_url, match_id, player, stats, deadline, rng, measuring
        ):
            return
        match_id = await new_computer_match(client, player)


async def prepare_computer_lane(client: httpx.AsyncClient, lane_id: int) -> tuple[Player, str]:
    player = await new_player(client, f"benchcpu{lane_id}")
    return player, await new_computer_match(client, player)


COMPRESSION = [False]
SERVER_PID: list[int | None] = [None]


def process_cpu_seconds(pid: int | None) -> float | None:
    """user + system CPU time of a process on this machine (Linux /proc), or None."""
    if pid is None:
        return None
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_level(
    url: str,
    matches: int,
    seconds: float,
    warmup: float,
    computer_matches: int = 0,
    computer_stats: ComputerStats | None = None,
) -> Stats:
    ws_url = url.replace("http", "ws", 1)
    stats = Stats()
    sent_at: dict = {}
    measuring = [False]
    limits = httpx.Limits(max_connections=50, keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        # Beside computers, every lane's players and first match are made before the clock
        # starts: on a busy machine those few hundred requests can outlast the warm-up.
        human_lanes: list[tuple[list[Player], str] | None] = [None] * matches
        computer_lanes: list[tuple[Player, str]] = []
        if computer_stats is not None:
            human_lanes = list(
                await asyncio.gather(*(prepare_lane_and_match(client, i) for i in range(matches)))
            )
            computer_lanes = list(
                await asyncio.gather(
                    *(prepare_computer_lane(client, i) for i in range(computer_matches))
                )
            )
        start = time.perf_counter()
        deadline = start + warmup + seconds
        tasks = [
            asyncio.create_task(
                lane(
                    client,
                    url.replace("http", "ws", 1),
                    i,
                    stats,
                    deadline,
                    sent_at,
                    measuring,
                    human_lanes[i],
                )
            )
            for i in range(matches)
        ]
        computer_tasks = [
            asyncio.create_task(
                computer_lane(
                    client, ws_url, i, computer_stats, deadline, measuring, computer_lanes[i]
                )
            )
            for i in range(computer_matches)
            if computer_stats is not None
        ]
        await asyncio.sleep(warmup)
        measuring[0] = True
        measured_from = time.perf_counter()
        cpu_from = process_cpu_seconds(SERVER_PID[0])
        await asyncio.gather(*tasks)
        stats.elapsed = time.perf_counter() - measured_from  # type: ignore[attr-defined]
        cpu_to = process_cpu_seconds(SERVER_PID[0])
        stats.server_cpu = None if cpu_from is None else cpu_to - cpu_from  # type: ignore[attr-defined,operator]
        await asyncio.gather(*computer_tasks)
    return stats


def run_event_loop(coroutine: Any) -> Any:
    """uvloop when installed (uvicorn[standard] brings it): the generator shares the CPU with
    the server it measures, so it should spend as little of it as it can."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def run_beside_computers(
    url: str, levels: list[int], computer_levels: list[int], seconds: float, warmup: float,
    runs: int,
) -> None:
    """Each level M beside each count K of computer matches, the Ks taking turns within a
    run so that the machine's drift falls on all of them alike."""
    print(f"{os.cpu_count()} CPUs; 1-minute load average {os.getloadavg()[0]:.1f} at the start")
    header = (
        "M", "K", "moves/s", "p50 ms", "p99 ms", "us/move", "errors", "finished",
        "decisions", "dec p50 ms", "dec p95 ms", "load",
    )
    widths = (5, 4, 9, 8, 8, 8, 7, 9, 10, 11, 11, 6)
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    for m in levels:
        rates: dict[int, list[float]] = {k: [] for k in computer_levels}
        p50s: dict[int, list[float]] = {k: [] for k in computer_levels}
        p99s: dict[int, list[float]] = {k: [] for k in computer_levels}
        decisions: dict[int, list[float]] = {k: [] for k in computer_levels}
        for _run in range(runs):
            for k in computer_levels:
                computers = ComputerStats()
                stats = run_event_loop(run_level(url, m, seconds, warmup, k, computers))
                lat = [x * 1000 for x in stats.latencies]
                made = [x * 1000 for x in computers.decisions]
                rate = stats.moves / stats.elapsed  # type: ignore[attr-defined]
                cpu = getattr(stats, "server_cpu", None)
                per_move = cpu / stats.moves * 1e6 if cpu is not None and stats.moves else None
                rates[k].append(rate)
                p50s[k].append(percentile(lat, 0.50))
                p99s[k].append(percentile(lat, 0.99))
                decisions[k].extend(made)
                print(
                    f"{m:>5} {k:>4} {rate:>9.0f} {percentile(lat, 0.50):>8.1f} "
                    f"{percentile(lat, 0.99):>8.1f} "
                    f"{'-' if per_move is None else f'{per_move:.0f}':>8} "
                    f"{stats.errors + computers.errors:>7} "
                    f"{stats.matches_finished + computers.matches_finished:>9} {len(made):>10} "
                    f"{percentile(made, 0.50):>11.0f} {percentile(made, 0.95):>11.0f} "
                    f"{os.getloadavg()[0]:>6.1f}",
                    flush=True,
                )
        print(f"      side by side at M={m}, medians over {runs} run(s); decisions pooled:")
        for k in computer_levels:
            made = decisions[k]
            line = (
                f"      K={k:<3} moves/s {statistics.median(rates[k]):.0f}, "
                f"p50 {statistics.median(p50s[k]):.1f} ms, p99 {statistics.median(p99s[k]):.1f} ms"
            )
            if made:
                line += (
                    f"; {len(made)} computer decisions, p50 {percentile(made, 0.50):.0f} ms, "
                    f"p95 {percentile(made, 0.95):.0f} ms"
                )
            print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--matches", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per level")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument(
        "--server-pid",
        type=int,
        default=None,
        help="the server's process id (same machine): also print its CPU time per move",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="measure each level this many times (the machine's speed drifts between runs)",
    )
    parser.add_argument(
        "--compression",
        action="store_true",
        help="offer permessage-deflate (off by default, like socket.io)",
    )
    parser.add_argument(
        "--computer-matches",
        type=int,
        nargs="+",
        default=None,
        metavar="K",
        help="also run each level beside K matches of a generator player against a normal "
        "computer player (several Ks: each in turn, printed side by side); start the server "
        "with BOT_THINK_SECONDS=0",
    )
    args = parser.parse_args()
    COMPRESSION[0] = args.compression
    SERVER_PID[0] = args.server_pid
    if args.computer_matches is not None:
        run_beside_computers(
            args.url,
            args.matches,
            list(dict.fromkeys(args.computer_matches)),
            args.seconds,
            args.warmup,
            args.runs,
        )
        return
    header = ("M", "moves/s", "p50 ms", "p95 ms", "p99 ms", "bytes/frame", "errors", "finished")
    widths = (5, 9, 8, 8, 8, 12, 7, 9)
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    for m in args.matches:
        rates, p99s = [], []
        for _run in range(args.runs):
            stats = run_event_loop(run_level(args.url, m, args.seconds, args.warmup))
            lat = [x * 1000 for x in stats.latencies]
            rate = stats.moves / stats.elapsed  # type: ignore[attr-defined]
            size = stats.frame_bytes / stats.frames if stats.frames else float("nan")
            print(
                f"{m:>5} {rate:>9.0f} {percentile(lat, 0.50):>8.1f} "
                f"{percentile(lat, 0.95):>8.1f} {percentile(lat, 0.99):>8.1f} {size:>12.0f} "
                f"{stats.errors:>7} {stats.matches_finished:>9}",
                flush=True,
            )
            if lat:
                line = f"      mean {statistics.fmean(lat):.1f} ms over {len(lat)} moves"
                cpu = getattr(stats, "server_cpu", None)
                if cpu is not None and stats.moves:
                    line += f"; server CPU {cpu / stats.moves * 1e6:.0f} us per move"
                print(line, flush=True)
                rates.append(rate)
                p99s.append(percentile(lat, 0.99))
        if len(rates) > 1:
            print(
                f"      {len(rates)} runs at M={m}: moves/s {min(rates):.0f}-{max(rates):.0f} "
                f"(median {statistics.median(rates):.0f}), p99 {min(p99s):.1f}-{max(p99s):.1f} ms "
                f"(median {statistics.median(p99s):.1f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
