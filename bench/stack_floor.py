"""What the server's stack and a move's own work cost in the side-by-side closed loop (issue
17, target 2), with no database, hub, locks or socket bookkeeping in between.

`compare.py` at M = 100 runs our server on one core: its CPU a move decides its moves per
second. This serves the same traffic from a relay on the stack `arcade serve` runs (uvicorn
with uvloop and httptools, `app.realtime.ws_protocol`, Starlette's `WebSocket`, frames written
as the match socket writes them, `app.realtime.wire`). Each of `--matches` pairs of sockets
takes turns as two players do: the socket to move sends a move message; the relay parses it
and sends a patch frame to the other socket, and a patch frame and an ack to the mover in one
write; the other socket, on its frame, moves next. The client only counts, so that the relay
gets what CPU the machine has.

- Alone, the relay sends a fixed patch frame of the size ours are (about 1,070 B, made with
  `orjson` each time): the least a move can cost the server on this stack.
- With `--game` it also does what the server does with a move's rules and views: each move is
  a random legal move of the pair's C64 Maze match (`LiveMatch`, a new match once one ends),
  applied by the rules, remembered, and turned into each seat's real patch frame
  (`LiveMatch.patch`, `events_for`). The sockets still take turns sending; the seat that moves
  is one the rules let move (in the set-up both may), and each socket gets its seat's frame.

It prints moves/s, the relay's CPU a move (user and system, from `/proc/<pid>/stat`) and the
client's. Read the relay's CPU a move against the server's in `compare.py --only ours`, taken
on the same machine at the same time: what the server takes beyond the relay with `--game` is
the rest of a move's path (validation, the commit, the hub, the socket's bookkeeping).

    .venv/bin/python bench/stack_floor.py --matches 100 --seconds 10 --runs 3
    .venv/bin/python bench/stack_floor.py --matches 100 --seconds 10 --runs 3 --game
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from loadcore import free_port, process_cpu_seconds  # noqa: E402  (the bench folder is not a package)


def _frame_body() -> dict[str, Any]:
    """A patch frame's ops and events, about the size of a C64 Maze move's (1,070 B a frame)."""
    ops = [
        {"op": "replace", "path": "/version", "value": 0},
        {"op": "replace", "path": "/active_seats/0", "value": 1},
        {
            "op": "replace",
            "path": "/legal_moves",
            "value": [
                {"type": "play", "card": card, "to": [row, 0]} for card in (0, 1) for row in (0, 2)
            ],
        },
        {"op": "replace", "path": "/board/turn", "value": 1},
        {"op": "replace", "path": "/board/players/0/latest", "value": "E"},
        {"op": "replace", "path": "/board/joysticks/0/grid/0/1", "value": None},
        {"op": "replace", "path": "/board/joysticks/0/grid/2/1", "value": 3},
        {
            "op": "replace",
            "path": "/board/joysticks/0/active",
            "value": [{"id": 2, "face": "down"}, {"id": 7, "face": "right_button"}],
        },
        {"op": "replace", "path": "/board/joysticks/0/tilted/1", "value": 1},
        {"op": "replace", "path": "/board/joysticks/0/axis", "value": "col"},
    ]
    events = [
        {"type": "played", "seat": 0, "card": 7, "text": "Red plays Right Button."},
        {"type": "moved", "seat": 0, "from": "a2", "to": "a3", "text": "Red moves from a2 to a3."},
        {"type": "turn", "seat": 1, "text": "Green's turn."},
    ]
    return {"ops": ops, "events": events}


# --- the relay (a process of its own, as the server is) ---------------------------------------


def make_relay(with_game: bool) -> Any:
    import random

    from starlette.websockets import WebSocket, WebSocketDisconnect

    from app.engine.dice import Dice
    from app.engine.registry import get_game
    from app.engine.runtime import LiveMatch
    from app.realtime import wire

    body = _frame_body()
    pairs: dict[int, list[Any]] = {}
    matches: dict[int, LiveMatch] = {}
    game = get_game("c64-maze")
    assert game is not None
    rng = random.Random(17)

    def play_a_move(pair: int) -> tuple[int, list[str]]:
        """One random legal move in the pair's match (a new match once one ends): the new
        version and each seat's patch frame, made as the server makes them."""
        live = matches.get(pair)
        if live is None or game.outcome(live.state) is not None:
            live = matches[pair] = LiveMatch.in_memory(game, f"floor-{pair}-{rng.random()}", 2)
        version = live.version
        seat = rng.choice([s for s in range(2) if live.legal(version, s)])
        move = rng.choice(live.legal(version, seat))
        state, events = game.apply(live.state, seat, move, Dice(live.seed, version + 1))
        live.remember(version + 1, state, events)
        live.state, live.version = state, version + 1
        return live.version, [
            orjson.dumps(
                {
                    "type": "patch",
                    "version": live.version,
                    "ops": live.patch(live.version, s),
                    "events": live.events_for(live.version, s),
                }
            ).decode()
            for s in range(2)
        ]

    async def relay(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "websocket":
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        websocket = WebSocket(scope, receive, send)
        await websocket.accept()
        protocol = wire.direct_writer(websocket)
        hello = orjson.loads(await websocket.receive_text())
        pair, seat = int(hello["pair"]), int(hello["seat"])
        seats = pairs.setdefault(pair, [None, None])
        seats[seat] = (websocket, protocol)
        await websocket.send_text('{"type":"ready"}')
        try:
            while True:
                move = orjson.loads(await websocket.receive_text())
                if with_game:
                    version, frames = play_a_move(pair)
                else:
                    version = move["version"] + 1
                    frame = orjson.dumps({"type": "patch", "version": version, **body}).decode()
                    frames = [frame, frame]
                opponent, opponent_protocol = seats[1 - seat]
                wire.write(opponent_protocol, opponent, frames[1 - seat])
                wire.write(protocol, websocket, frames[seat], hold=True)
                ack = orjson.dumps({"type": "ack", "id": move["id"], "version": version})
                wire.write(protocol, websocket, ack.decode())
        except WebSocketDisconnect:
            pairs.pop(pair, None)
            matches.pop(pair, None)

    return relay


def serve(port: int, with_game: bool) -> None:
    import uvicorn

    # As app/cli.py runs `arcade serve` (ws_compression "message", its default).
    uvicorn.run(
        make_relay(with_game),
        host="127.0.0.1",
        port=port,
        ws="app.realtime.ws_protocol:StatelessDeflateProtocol",
        ws_per_message_deflate=True,
        ws_max_size=1024 * 1024,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        log_level="warning",
    )


# --- the players --------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    seconds = process_cpu_seconds(pid)
    if seconds is None:
        raise SystemExit(f"the relay (pid {pid}) is gone")
    return seconds


async def play(url: str, relay_pid: int, args: argparse.Namespace) -> tuple[int, float, float]:
    """Moves made in the `args.seconds` after `args.warmup`, and the relay's and this
    process's CPU seconds over them."""
    import websockets

    counting = False
    moves = 0
    stop = asyncio.Event()

    async def pair(index: int) -> None:
        nonlocal moves
        sockets = [await websockets.connect(url, compression=None) for _ in (0, 1)]
        try:
            for seat, ws in enumerate(sockets):
                await ws.send(orjson.dumps({"pair": index, "seat": seat}).decode())
                await ws.recv()
            version = 0
            mover = 0
            while not stop.is_set():
                await sockets[mover].send(f'{{"id":"m{version}","version":{version}}}')
                await sockets[1 - mover].recv()  # the other's frame: it moves next
                await sockets[mover].recv()  # the mover's frame and ack (one write)
                await sockets[mover].recv()
                version += 1
                mover = 1 - mover
                if counting:
                    moves += 1
        finally:
            for ws in sockets:
                await ws.close()

    tasks = [asyncio.create_task(pair(index)) for index in range(args.matches)]
    await asyncio.sleep(args.warmup)
    relay_before, client_before = cpu_seconds(relay_pid), time.process_time()
    counting = True
    await asyncio.sleep(args.seconds)
    counting = False
    counted = moves
    relay_cpu = cpu_seconds(relay_pid) - relay_before
    client_cpu = time.process_time() - client_before
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return counted, relay_cpu, client_cpu


def wait_listening(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the relay did not listen on port {port}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--game",
        action="store_true",
        help="the relay also plays C64 Maze: each move is a random legal move of the pair's "
        "match, remembered and turned into each seat's patch frame as the server does it",
    )
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.game)
        return

    import uvloop

    uvloop.install()  # a cheaper client leaves more of the machine to the relay
    print(f"{os.cpu_count()} CPUs; 1-minute load average {os.getloadavg()[0]:.1f} at the start")
    print("relay with the game's work (C64 Maze)" if args.game else "relay alone")
    print(f"{'M':>5} {'moves/s':>9} {'relay us/mv':>12} {'relay CPU':>10} {'client us/mv':>13}")
    relay_per_move = []
    for _run in range(args.runs):
        port = free_port()
        command = [sys.executable, __file__, "--serve", str(port)]
        relay = subprocess.Popen(command + (["--game"] if args.game else []), cwd=ROOT)
        try:
            wait_listening(port)
            moves, relay_cpu, client_cpu = asyncio.run(
                play(f"ws://127.0.0.1:{port}/", relay.pid, args)
            )
            per_move = relay_cpu / moves * 1e6
            relay_per_move.append(per_move)
            print(
                f"{args.matches:>5} {moves / args.seconds:>9.0f} {per_move:>12.0f}"
                f" {relay_cpu / args.seconds:>10.0%} {client_cpu / moves * 1e6:>13.0f}"
            )
        finally:
            relay.terminate()
            relay.wait(timeout=30)
    print(
        f"relay CPU a move: median {statistics.median(relay_per_move):.0f} us "
        f"[{min(relay_per_move):.0f}-{max(relay_per_move):.0f}] over {args.runs} run(s); "
        f"1-minute load average {os.getloadavg()[0]:.1f} at the end"
    )


if __name__ == "__main__":
    main()
