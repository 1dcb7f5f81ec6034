"""Churn benchmark: the server's memory while sockets come and go on a live match.

Starts one two-player C64 Maze match whose players keep moving, then runs cycles: open N
spectator sockets, each says hello and gets its snapshot, then close them all. After each
cycle it prints the server's resident memory (VmRSS from /proc/<pid>/status, so the server must
run on this machine). A server that frees what a closed connection held levels off after the
first cycle or two; one that leaks grows by about the same amount every cycle.

    arcade serve --port 8000 &         # with DATABASE_URL pointing at PostgreSQL
    python bench/churn.py --url http://127.0.0.1:8000 --server-pid $! --sockets 1000 --cycles 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import time
from typing import Any

import httpx
import orjson
import websockets
from load import apply_ops  # bench/ is on the path when this runs as a script


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def guest(client: httpx.AsyncClient, name: str) -> str:
    response = await client.post("/api/players", json={"name": name})
    response.raise_for_status()
    return str(response.json()["token"])


async def live_match(client: httpx.AsyncClient) -> tuple[str, list[str]]:
    tokens = [await guest(client, "Churn A"), await guest(client, "Churn B")]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    created = await client.post(
        "/api/matches", json={"game": "c64-maze", "options": {}, "seats": 2}, headers=auth[0]
    )
    created.raise_for_status()
    match_id = created.json()["id"]
    (
        await client.post(f"/api/matches/{match_id}/join", json={}, headers=auth[1])
    ).raise_for_status()
    (await client.post(f"/api/matches/{match_id}/start", headers=auth[0])).raise_for_status()
    return match_id, tokens


async def player(ws_url: str, token: str, pace: float, stop: asyncio.Event) -> None:
    """Makes a random legal move every `pace` seconds whenever it may, so the match stays live."""
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        state: Any = None
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                frame = orjson.loads(await asyncio.wait_for(ws.recv(), pace))
                if frame["type"] == "snapshot":
                    state = frame["state"]
                elif frame["type"] == "patch" and state is not None:
                    state = apply_ops(state, frame["ops"])
                continue
            if state is not None and state["legal_moves"]:
                move = {"type": "move", "id": f"c{time.monotonic_ns()}"}
                move["move"] = random.choice(state["legal_moves"])
                await ws.send(orjson.dumps(move).decode())


async def spectator(ws_url: str, opened: asyncio.Semaphore) -> Any:
    async with opened:
        ws = await websockets.connect(ws_url, max_size=2**22, open_timeout=60)
        await ws.send('{"type":"hello"}')
        while orjson.loads(await asyncio.wait_for(ws.recv(), 60))["type"] != "snapshot":
            pass
        return ws


async def churn(url: str, pid: int, sockets: int, cycles: int, settle: float) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        match_id, tokens = await live_match(client)
    ws_url = url.replace("http", "ws", 1) + f"/api/matches/{match_id}/ws"
    stop = asyncio.Event()
    players = [asyncio.create_task(player(ws_url, t, 0.2, stop)) for t in tokens]
    opened = asyncio.Semaphore(100)  # connects in flight at once
    print(f"before: {rss_mb(pid):.1f} MB", flush=True)
    try:
        for cycle in range(1, cycles + 1):
            began = time.monotonic()
            spectators = await asyncio.gather(*(spectator(ws_url, opened) for _ in range(sockets)))
            at_peak = rss_mb(pid)
            await asyncio.gather(*(ws.close() for ws in spectators))
            del spectators
            await asyncio.sleep(settle)
            print(
                f"cycle {cycle}: {sockets} sockets opened and closed in "
                f"{time.monotonic() - began - settle:.1f} s; RSS {at_peak:.1f} MB with them open, "
                f"{rss_mb(pid):.1f} MB {settle:.0f} s after they closed",
                flush=True,
            )
    finally:
        stop.set()
        for task in players:
            with contextlib.suppress(Exception):
                await task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--server-pid", type=int, required=True, help="for its RSS")
    parser.add_argument("--sockets", type=int, default=1000, help="spectators per cycle")
    parser.add_argument("--cycles", type=int, default=5)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after each close")
    args = parser.parse_args()
    asyncio.run(churn(args.url, args.server_pid, args.sockets, args.cycles, args.settle))


if __name__ == "__main__":
    main()
