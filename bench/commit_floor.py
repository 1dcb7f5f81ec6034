"""The floor under a durable move's round trip on this machine (issue 17, target 3).

At M = 1 a move crosses three processes: the player's (the load generator), the server and a
PostgreSQL backend, which must flush the WAL to disk before the server may answer. Between two
moves every one of them goes idle, and on a virtual machine waking an idle process and its CPU
costs far more than the work. This measures the two parts of that path that no server code
can shorten, each from idle (after a pause of `--gaps` milliseconds, as between moves at M = 1)
and back to back:

- **commit**: a one-row INSERT committed (synchronous_commit on) in a scratch table, from a
  client with its own connection, round trip;
- **loopback**: a 100-byte message to an echo process over TCP on 127.0.0.1 and back.

A move's p50 at M = 1 cannot be below one commit plus one loopback round trip (the move to the
server and the frame to the opponent), before any parsing, rules or frames. Compare it with the
M = 1 p50 of `compare.py`, taken on the same machine at the same time.

    .venv/bin/python bench/commit_floor.py                  # fresh database arcade_floor
    .venv/bin/python bench/commit_floor.py --gaps 0 1 2 --count 2000
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import socket
import statistics
import time

import asyncpg

MESSAGE = b"x" * 100


def _echo(port_out: multiprocessing.connection.Connection) -> None:
    """A process that answers each message with itself, as plainly as a process can."""
    listener = socket.create_server(("127.0.0.1", 0))
    port_out.send(listener.getsockname()[1])
    while True:  # one client at a time: a connection for each gap
        conn, _ = listener.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while data := conn.recv(65536):
            conn.sendall(data)
        conn.close()


def summary(name: str, gap_ms: float, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p10 = ordered[len(ordered) // 10] * 1e6
    p90 = ordered[len(ordered) * 9 // 10] * 1e6
    return (
        f"{name:>9}  gap {gap_ms:4g} ms  p50 {statistics.median(ordered) * 1e6:6.0f} us"
        f"  p10 {p10:6.0f}  p90 {p90:6.0f}"
    )


async def commit_times(url: str, gap: float, count: int) -> list[float]:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS floor (id bigserial PRIMARY KEY, v int)")
        await conn.execute("SET synchronous_commit = on")  # as every move is committed
        times = []
        for _ in range(count):
            if gap:
                await asyncio.sleep(gap)
            started = time.perf_counter()
            await conn.execute("INSERT INTO floor (v) VALUES (1)")
            times.append(time.perf_counter() - started)
        return times
    finally:
        await conn.close()


def loopback_times(port: int, gap: float, count: int) -> list[float]:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        times = []
        for _ in range(count):
            if gap:
                time.sleep(gap)
            started = time.perf_counter()
            conn.sendall(MESSAGE)
            received = 0
            while received < len(MESSAGE):
                received += len(conn.recv(65536))
            times.append(time.perf_counter() - started)
        return times


async def make_database(server: str, name: str, *, drop_only: bool = False) -> None:
    admin = await asyncpg.connect(f"{server}/postgres")
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if not drop_only:
            await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--gaps", type=float, nargs="+", default=[0, 1, 2], metavar="MS")
    parser.add_argument("--count", type=int, default=2000, help="round trips per gap")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="arcade_floor", help="made fresh, dropped after")
    args = parser.parse_args()

    receiver, sender = multiprocessing.Pipe(duplex=False)
    echo = multiprocessing.Process(target=_echo, args=(sender,), daemon=True)
    echo.start()
    port = receiver.recv()
    asyncio.run(make_database(args.postgres, args.database))
    url = f"{args.postgres}/{args.database}"
    try:
        print(f"{args.count} round trips each; p10 and p90 beside the median")
        for gap_ms in args.gaps:
            gap = gap_ms / 1000
            print(summary("commit", gap_ms, asyncio.run(commit_times(url, gap, args.count))))
            print(summary("loopback", gap_ms, loopback_times(port, gap, args.count)))
    finally:
        asyncio.run(make_database(args.postgres, args.database, drop_only=True))
        echo.terminate()


if __name__ == "__main__":
    main()
