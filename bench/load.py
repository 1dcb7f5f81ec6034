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
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadcore import (  # noqa: E402  (the bench folder is not a package)
    Book,
    OurServer,
    Player,
    Stats,
    apply_ops,
    new_player,
    percentile,
    run_event_loop,
)
from loadcore import run_level as run_core_level  # noqa: E402


@dataclass
class ComputerStats:
    """What the generator saw of the computer players: one decision per position in which
    the computer was the only seat to move, timed from that frame to the next patch."""

    decisions: list[float] = field(default_factory=list)
    errors: int = 0
    matches_finished: int = 0


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
    book: Book,
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
                    if computer_to_move_since is not None and book.measuring:
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
    book: Book,
    prepared: tuple[Player, str],
) -> None:
    rng = random.Random(f"computer{lane_id}")
    player, match_id = prepared
    while time.perf_counter() < deadline:
        if not await play_computer_match(ws_url, match_id, player, stats, deadline, rng, book):
            return
        match_id = await new_computer_match(client, player)


async def prepare_computer_lane(client: httpx.AsyncClient, lane_id: int) -> tuple[Player, str]:
    player = await new_player(client, f"benchcpu{lane_id}")
    return player, await new_computer_match(client, player)


COMPRESSION = [False]
SERVER_PID: list[int | None] = [None]


async def run_level(
    url: str,
    matches: int,
    seconds: float,
    warmup: float,
    computer_matches: int = 0,
    computer_stats: ComputerStats | None = None,
) -> Stats:
    adapter = OurServer(url, compression=COMPRESSION[0])
    watch = {} if SERVER_PID[0] is None else {"server": lambda: [SERVER_PID[0]]}
    if computer_stats is None:
        return await run_core_level(adapter, matches, seconds, warmup, watch)

    async def prepare_computers() -> Any:
        # Beside computers, every lane's players and first match are made before the clock
        # starts: on a busy machine those few hundred requests can outlast the warm-up.
        client = adapter.client
        assert client is not None
        prepared = await asyncio.gather(
            *(prepare_computer_lane(client, i) for i in range(computer_matches))
        )

        async def run(book: Book, deadline: float) -> None:
            await asyncio.gather(
                *(
                    computer_lane(
                        client, adapter.ws_url, i, computer_stats, deadline, book, prepared[i]
                    )
                    for i in range(computer_matches)
                )
            )

        return run

    return await run_core_level(
        adapter, matches, seconds, warmup, watch, prepare_first=True, beside=prepare_computers
    )


def run_beside_computers(
    url: str,
    levels: list[int],
    computer_levels: list[int],
    seconds: float,
    warmup: float,
    runs: int,
) -> None:
    """Each level M beside each count K of computer matches, the Ks taking turns within a
    run so that the machine's drift falls on all of them alike."""
    print(f"{os.cpu_count()} CPUs; 1-minute load average {os.getloadavg()[0]:.1f} at the start")
    header = (
        "M",
        "K",
        "moves/s",
        "p50 ms",
        "p99 ms",
        "us/move",
        "errors",
        "finished",
        "decisions",
        "dec p50 ms",
        "dec p95 ms",
        "load",
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
                rate = stats.moves / stats.elapsed
                cpu = stats.server_cpu.get("server")
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
            rate = stats.moves / stats.elapsed
            size = stats.frame_bytes / stats.frames if stats.frames else float("nan")
            print(
                f"{m:>5} {rate:>9.0f} {percentile(lat, 0.50):>8.1f} "
                f"{percentile(lat, 0.95):>8.1f} {percentile(lat, 0.99):>8.1f} {size:>12.0f} "
                f"{stats.errors:>7} {stats.matches_finished:>9}",
                flush=True,
            )
            if lat:
                line = f"      mean {statistics.fmean(lat):.1f} ms over {len(lat)} moves"
                cpu = stats.server_cpu.get("server")
                if cpu is not None and stats.moves:
                    line += f"; server CPU {cpu / stats.moves * 1e6:.0f} us per move"
                line += (
                    f"; generator CPU {stats.generator_cpu / stats.elapsed:.0%} of a core"
                    f"; {stats.version_errors} version gaps"
                )
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
