"""Human-pace benchmark: many live matches in one server process, each moving at a person's
pace. Drives a *running* server (PostgreSQL behind it) and reads its memory from /proc.

1. Makes `--matches` started C64 Maze matches straight through the services and the database
   (two new guests each, no HTTP: no rate limit to lift), `--database-url` being the
   server's database.
2. Starts `--procs` generator processes; each opens the two player sockets of its share of
   the matches (`--connect-concurrency` handshakes in flight per process), says hello with
   the player's token and waits for the snapshot. The server's RSS with every socket idle is
   read then (the cost of an idle socket is that rise divided by the sockets).
3. The seat to move in each match waits a random think time (exponential, mean `--think`
   seconds) and then sends a random legal move, so each match moves every `--think` seconds
   on average. The first `--warmup` seconds (20) are played but not counted: every match
   starts in its set-up, where both seats move, at twice the steady rate; then `--seconds`
   are measured. Every patch is applied and its version checked, as a browser
   does. Latency runs from a move's submission to the *opponent* receiving the patch for it.
   The generators run at niceness `--nice` (10): they stand for 10,000 browsers on other
   machines, and on a small machine they would otherwise take from the server the CPU it
   needs. Nothing of the server's latency is hidden by it: a generator that waits for a CPU
   reads its frames later, so its waiting counts in the latency. `--nice 0` shares the CPU
   evenly, as the figures before this option did. `--pin` keeps them off the server's CPU
   altogether: its threads on the first CPU, the generators on the others.
4. The generators exit, closing every socket at once: how long the server then takes to
   answer `/healthz`, and its CPU in the 20 s after.

It prints the matches and sockets, moves/s, latency p50/p99/max, errors, the server's RSS
(idle, peak during the run, at the end; MiB), the server's CPU and each generator's CPU (the
share of the machine the load itself took), the CPU count and load average.

    python bench/human_pace.py --url http://127.0.0.1:8600 --server-pid $PID \
        --database-url postgresql://postgres@127.0.0.1:5432/arcade_human --matches 5000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing as mp
import os
import random
import resource
import sys
import time
import urllib.request
from typing import Any

import orjson
import websockets

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loadcore import apply_ops, patch_of, percentile, process_cpu_seconds  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from app.realtime.compact import Reader  # noqa: E402

# --- 1. the matches, straight through the services -----------------------------------------


async def make_matches(database_url: str, count: int) -> list[tuple[str, str, str]]:
    """(match id, host token, guest token) for `count` new started C64 Maze matches."""
    from app.config import Settings
    from app.db.session import make_engine, make_sessionmaker
    from app.services.matches import create_match, join_match, start_match
    from app.services.players import create_player

    engine = make_engine(Settings(database_url=database_url).database_url)
    made: list[tuple[str, str, str]] = []
    try:
        sessions = make_sessionmaker(engine)

        async def one_batch(first: int, size: int) -> None:
            async with sessions() as session:
                for i in range(first, first + size):
                    host, host_token = await create_player(session, name=f"Human {i}a")
                    guest, guest_token = await create_player(session, name=f"Human {i}b")
                    match = await create_match(
                        session, host=host, game_id="c64-maze", options={}, seats=2
                    )
                    await join_match(session, match_id=match.id, player=guest, seat=None)
                    await start_match(session, match_id=match.id, player=host)
                    made.append((match.id, host_token, guest_token))
                await session.commit()

        batch = 100
        jobs = [one_batch(first, min(batch, count - first)) for first in range(0, count, batch)]
        for start in range(0, len(jobs), 8):  # eight sessions at a time
            await asyncio.gather(*jobs[start : start + 8])
    finally:
        await engine.dispose()
    return made


# --- 2 and 3. a generator process ----------------------------------------------------------


class Totals:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.received_at: list[float] = []  # when each latency's frame came, as time.time()
        self.moves = 0
        self.errors = 0
        self.error_codes: dict[str, int] = {}
        self.finished = 0
        self.closed = 0
        self.frames = 0
        self.frame_bytes = 0


class CollectorPauses:
    """The generator's own cyclic-collector passes while it measures, by generation (wall
    time): a pause here delays every frame this process reads, so it shows in the latency
    as if the server had been slow. The collector is off while it measures (`generate`), so a
    pass here would be one something asked for."""

    def __init__(self, until: float) -> None:
        self.passes: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._until = until
        self._started = 0.0
        gc.callbacks.append(self._timed)

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started < self._until:  # during the measured time, not the closing
            self.passes[info["generation"]].append(time.perf_counter() - self._started)

    def stop(self) -> dict[int, list[float]]:
        gc.callbacks.remove(self._timed)
        return self.passes


class MatchPlayers:
    """The two players of one match, in this process: who moves waits a think time first."""

    def __init__(self, match_id: str, tokens: tuple[str, str], rng: random.Random) -> None:
        self.match_id = match_id
        self.tokens = tokens
        self.rng = rng
        self.sent_at: dict[int, tuple[float, int]] = {}  # version -> (time, mover)


async def player(
    url: str,
    match: MatchPlayers,
    index: int,
    think: float,
    totals: Totals,
    go: asyncio.Event,
    stop_at: list[float],
    count_from: list[float],
    ready: asyncio.Event,
    gate: asyncio.Semaphore,
    compression: bool,
    compact: bool,
) -> None:
    reader = Reader() if compact else None
    async with gate:
        ws = await websockets.connect(
            f"{url}/api/matches/{match.match_id}/ws",
            max_size=2**22,
            compression="deflate" if compression else None,
            open_timeout=120,
            ping_interval=None,  # the server pings; the client answers (as browsers do)
        )
        hello: dict[str, Any] = {"type": "hello", "token": match.tokens[index]}
        if compact:
            hello["compact"] = 2  # as the match page asks
        await ws.send(orjson.dumps(hello).decode())
        state: dict[str, Any] | None = None
        version = -1
        while state is None:
            frame = orjson.loads(await ws.recv())
            if frame["type"] == "snapshot":
                state, version = frame["state"], frame["version"]
    ready.set()
    await go.wait()
    mover: asyncio.Task[None] | None = None

    async def move_later(at_version: int, legal: list[Any]) -> None:
        await asyncio.sleep(match.rng.expovariate(1.0 / think))
        if time.perf_counter() >= stop_at[0]:
            return
        match.sent_at[at_version + 1] = (time.perf_counter(), index)
        await ws.send(
            orjson.dumps(
                {
                    "type": "move",
                    "id": f"{match.match_id}-{at_version + 1}",
                    "move": match.rng.choice(legal),
                    "version": at_version,
                }
            ).decode()
        )

    thinking_at = -1  # the version the think time under way answers: one move a position

    def maybe_move() -> None:
        nonlocal mover, thinking_at
        assert state is not None
        if state["status"] != "active" or not state["legal_moves"] or thinking_at == version:
            return
        if mover is not None:
            mover.cancel()  # still thinking about an older position
        thinking_at = version
        mover = asyncio.create_task(move_later(version, state["legal_moves"]))

    try:
        maybe_move()
        async with asyncio.timeout(max(0.01, stop_at[0] + 5.0 - time.perf_counter())):
            while True:
                text = await ws.recv()
                now = time.perf_counter()
                frame = orjson.loads(text)
                kind = frame["type"]
                if kind == "snapshot":
                    state, version = frame["state"], frame["version"]
                elif (patch := patch_of(frame, reader)) is not None:
                    new_version, ops = patch
                    if new_version != version + 1:
                        totals.errors += 1
                        totals.error_codes["version_gap"] = (
                            totals.error_codes.get("version_gap", 0) + 1
                        )
                    state = apply_ops(state, ops)
                    version = new_version
                    totals.frames += 1
                    totals.frame_bytes += len(text)
                    started = match.sent_at.get(version)
                    if started is not None and started[1] != index:
                        del match.sent_at[version]
                        if count_from[0] <= started[0] and now < stop_at[0]:
                            totals.latencies.append(now - started[0])
                            totals.received_at.append(time.time())
                            totals.moves += 1
                elif kind == "error":
                    totals.errors += 1
                    code = str(frame.get("code"))
                    totals.error_codes[code] = totals.error_codes.get(code, 0) + 1
                else:
                    continue
                if state["status"] != "active":
                    totals.finished += 1
                    await asyncio.sleep(max(0.0, stop_at[0] - time.perf_counter()))
                    return
                if state["you"] in state["active_seats"]:
                    maybe_move()
    except TimeoutError:
        pass
    except websockets.ConnectionClosed:
        if time.perf_counter() < stop_at[0]:
            totals.closed += 1
    finally:
        if mover is not None:
            mover.cancel()
        await ws.close()


async def generate(
    url: str,
    share: list[tuple[str, str, str]],
    think: float,
    concurrency: int,
    compression: bool,
    compact: bool,
    seed: int,
    conn: Any,
) -> None:
    totals = Totals()
    gate = asyncio.Semaphore(concurrency)
    go = asyncio.Event()
    stop_at = [float("inf")]
    count_from = [float("inf")]
    readies: list[asyncio.Event] = []
    tasks = []
    for n, (match_id, *tokens) in enumerate(share):
        match = MatchPlayers(match_id, (tokens[0], tokens[1]), random.Random(f"{seed}-{n}"))
        for index in (0, 1):
            ready = asyncio.Event()
            readies.append(ready)
            tasks.append(
                asyncio.create_task(
                    player(
                        url,
                        match,
                        index,
                        think,
                        totals,
                        go,
                        stop_at,
                        count_from,
                        ready,
                        gate,
                        compression,
                        compact,
                    )
                )
            )
    waiting = asyncio.gather(*(r.wait() for r in readies))
    done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if waiting not in done:  # a socket failed before every one was open
        for task in done:
            task.result()
    # This process stands for thousands of browsers, each with a heap of its own: a collector
    # pass here walks every socket's objects at once and stalls every frame it reads, which
    # the latency would blame on the server (with compact frames, whose dictionaries grow
    # all the time, passes of up to 2.4 s). What the greeting made is kept out of the
    # collector's way, and the collector stays off while it measures (reference counting
    # still frees nearly everything; the process's peak RSS is reported).
    gc.collect()
    gc.freeze()
    gc.disable()
    conn.send(("ready", len(readies)))
    # The main process says when to start: moves from then on, counted after the warm-up.
    warmup, seconds = await asyncio.to_thread(conn.recv)
    now = time.perf_counter()
    count_from[0], stop_at[0] = now + warmup, now + warmup + seconds
    go.set()
    await asyncio.sleep(warmup)
    cpu_from = time.process_time()
    pauses = CollectorPauses(until=stop_at[0])
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    conn.send(
        {
            "latencies": totals.latencies,
            "received_at": totals.received_at,
            "moves": totals.moves,
            "errors": totals.errors + len(failures),
            "error_codes": totals.error_codes,
            "failures": [repr(f) for f in failures[:3]],
            "finished": totals.finished,
            "closed": totals.closed,
            "frames": totals.frames,
            "frame_bytes": totals.frame_bytes,
            "cpu": time.process_time() - cpu_from,
            "gc_pauses": pauses.stop(),
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    )


def generator_main(
    url: str,
    share: list[tuple[str, str, str]],
    think: float,
    concurrency: int,
    compression: bool,
    compact: bool,
    seed: int,
    conn: Any,
    niceness: int,
) -> None:
    os.nice(niceness)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    runner(generate(url, share, think, concurrency, compression, compact, seed, conn))


# --- the main process ----------------------------------------------------------------------


def pin_apart(server_pid: int) -> None:
    """The server on one CPU, the generators (children of this process) on the others: they
    stand for browsers on other machines, so they should not take the server's core, nor it
    theirs. PostgreSQL is left where the system puts it."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--pin needs two CPUs or more")
    for thread in os.listdir(f"/proc/{server_pid}/task"):
        os.sched_setaffinity(int(thread), {cpus[0]})
    os.sched_setaffinity(0, set(cpus[1:]))


def rss_mib(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MiB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, amount, _unit = line.split()
                values[key] = int(amount) / 1024
    return values["VmRSS:"], values["VmHWM:"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--server-pid", type=int, required=True, help="the server (this machine)")
    parser.add_argument("--database-url", required=True, help="the server's database")
    parser.add_argument("--matches", type=int, default=5000)
    parser.add_argument("--think", type=float, default=5.0, help="mean seconds between moves")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time")
    parser.add_argument("--procs", type=int, default=3, help="generator processes")
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="do not offer permessage-deflate (browsers offer it; the default does too)",
    )
    parser.add_argument(
        "--full-frames",
        action="store_true",
        help="ask for the full patch frames (1 KB a C64 Maze move) rather than the compact "
        "form the match page asks for (`compact: 2`, docs/protocol.md)",
    )
    parser.add_argument(
        "--nice",
        type=int,
        default=10,
        help="the generators' niceness (0: the server's priority; see the module's text)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server's threads on the first CPU, this process and the generators on the "
        "others (the server's affinity stays so until it stops)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=20.0,
        help="seconds played before the measured time (every match starts in its set-up, "
        "where both seats move: twice the steady rate)",
    )
    args = parser.parse_args()
    ws_url = args.url.replace("http", "ws", 1)
    if args.pin:
        pin_apart(args.server_pid)
    print(f"{os.cpu_count()} CPUs; 1-minute load average {os.getloadavg()[0]:.1f} at the start")
    rss_start, _ = rss_mib(args.server_pid)
    t0 = time.perf_counter()
    matches = asyncio.run(make_matches(args.database_url, args.matches))
    print(f"made {len(matches)} matches in {time.perf_counter() - t0:.1f} s", flush=True)

    ctx = mp.get_context("spawn")
    pipes, procs = [], []
    for p in range(args.procs):
        parent, child = ctx.Pipe()
        share = matches[p :: args.procs]
        proc = ctx.Process(
            target=generator_main,
            args=(
                ws_url,
                share,
                args.think,
                args.connect_concurrency,
                not args.no_compression,
                not args.full_frames,
                p,
                child,
                args.nice,
            ),
            daemon=True,
        )
        proc.start()
        pipes.append(parent)
        procs.append(proc)
    t0 = time.perf_counter()
    sockets = sum(pipe.recv()[1] for pipe in pipes)
    rss_idle, _ = rss_mib(args.server_pid)
    print(
        f"{sockets} sockets open and greeted in {time.perf_counter() - t0:.1f} s; server RSS "
        f"{rss_start:.0f} MiB before, {rss_idle:.0f} MiB with them idle "
        f"({(rss_idle - rss_start) * 1024 / max(1, sockets):.1f} KiB a socket, matches "
        "included)",
        flush=True,
    )
    for pipe in pipes:
        pipe.send((args.warmup, args.seconds))
    peak = rss_idle

    def watch_rss(seconds: float) -> None:
        nonlocal peak
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            time.sleep(min(1.0, max(0.0, started + seconds - time.perf_counter())))
            peak = max(peak, rss_mib(args.server_pid)[0])

    watch_rss(args.warmup)  # the peak counts the warm-up too
    server_cpu_from = process_cpu_seconds(args.server_pid)
    watch_rss(args.seconds)
    server_cpu = (process_cpu_seconds(args.server_pid) or 0.0) - (server_cpu_from or 0.0)
    load = os.getloadavg()[0]
    rss_end, _ = rss_mib(args.server_pid)
    reports = [pipe.recv() for pipe in pipes]
    for proc in procs:
        proc.join(timeout=30)
    # The generators are gone and with them every socket at once: how soon does the server
    # answer again, and what does the closing cost it?
    closed_at = time.perf_counter()
    cpu_at_close = process_cpu_seconds(args.server_pid) or 0.0
    answered_after = health_answer_seconds(args.url, since=closed_at)
    time.sleep(max(0.0, closed_at + CLOSING_WATCHED - time.perf_counter()))
    closing_cpu = (process_cpu_seconds(args.server_pid) or 0.0) - cpu_at_close
    latencies = [x * 1000 for r in reports for x in r["latencies"]]
    moves = sum(r["moves"] for r in reports)
    errors = sum(r["errors"] for r in reports)
    codes: dict[str, int] = {}
    for r in reports:
        for code, n in r["error_codes"].items():
            codes[code] = codes.get(code, 0) + n
    frames = sum(r["frames"] for r in reports)
    frame_bytes = sum(r["frame_bytes"] for r in reports)
    print(
        f"{len(matches)} matches, {sockets} sockets, think {args.think:.1f} s, "
        f"{args.seconds:.0f} s measured after {args.warmup:.0f} s of warm-up, compression "
        f"{'off' if args.no_compression else 'offered'}, "
        f"{'full' if args.full_frames else 'compact'} frames"
    )
    print(
        f"moves/s {moves / args.seconds:.0f}; opponent latency p50 {percentile(latencies, 0.5):.1f}"
        f" ms, p99 {percentile(latencies, 0.99):.1f} ms, max "
        f"{max(latencies, default=float('nan')):.1f} ms over {moves} moves"
    )
    print(
        "p99 by 10 s of the run (ms):", " ".join(f"{p:.0f}" for p in p99_by_window(reports, WINDOW))
    )
    print(
        f"errors {errors} {codes or ''}; sockets closed by the server "
        f"{sum(r['closed'] for r in reports)}; matches finished "
        f"{sum(r['finished'] for r in reports) // 2}; "
        f"{frame_bytes / max(1, frames):.0f} bytes a patch frame"
    )
    for r in reports:
        if r["failures"]:
            print("  failures:", *r["failures"])
    print(
        f"server RSS MiB: idle {rss_idle:.0f}, peak {peak:.0f}, end {rss_end:.0f}; server CPU "
        f"{server_cpu:.1f} s ({server_cpu / args.seconds * 100:.0f}% of a core, "
        f"{server_cpu / max(1, moves) * 1e6:.0f} us a move)"
    )
    print(
        "generator CPU: "
        + ", ".join(f"{r['cpu'] / args.seconds * 100:.0f}%" for r in reports)
        + f" of a core each ({args.procs} processes, nice {args.nice}; peak RSS "
        + ", ".join(f"{r['peak_rss_mib']:.0f}" for r in reports)
        + f" MiB); {os.cpu_count()} CPUs; "
        f"1-minute load average {load:.1f}"
        + ("; server pinned to one CPU, generators to the others" if args.pin else "")
    )

    for generation in (0, 1, 2):
        pauses = [x * 1000 for r in reports for x in r["gc_pauses"][generation]]
        print(
            f"generators' collector, generation {generation}: {len(pauses)} passes, max "
            f"{max(pauses, default=0.0):.1f} ms, {sum(pauses) / 1000:.2f} s in all"
        )
    print(
        f"after the {sockets} sockets closed at once: /healthz answered in "
        f"{answered_after:.2f} s; server CPU in the {CLOSING_WATCHED:.0f} s after: "
        f"{closing_cpu:.1f} s"
    )


CLOSING_WATCHED = 20.0
WINDOW = 10.0


def p99_by_window(reports: list[dict[str, Any]], seconds: float) -> list[float]:
    """The latency p99 of each `seconds` of the run in turn: a rise over the run shows
    something growing, a single bad window a stall."""
    pairs = sorted(
        pair for r in reports for pair in zip(r["received_at"], r["latencies"], strict=True)
    )
    if not pairs:
        return []
    start = pairs[0][0]
    windows: dict[int, list[float]] = {}
    for at, latency in pairs:
        windows.setdefault(int((at - start) // seconds), []).append(latency * 1000)
    return [percentile(windows[n], 0.99) for n in sorted(windows)]


def health_answer_seconds(url: str, *, since: float) -> float:
    """Seconds from `since` until GET /healthz is answered (each try may wait 60 s)."""
    with urllib.request.urlopen(f"{url}/healthz", timeout=60) as answer:
        answer.read()
    return time.perf_counter() - since


if __name__ == "__main__":
    main()
