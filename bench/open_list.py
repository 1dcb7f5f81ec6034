"""Open-lobby list benchmark: the latency of `GET /api/matches?status=open` (what every lobby
page polls every 3 s) with few and with many open lobbies.

Starts its own server (uvicorn in a thread, limits lifted) on a fresh database, opens the
lobbies straight through the services (hosts of 5 lobbies each, as the cap allows), and times
sequential requests at each level:

    python bench/open_list.py --lobbies 3 3000 --requests 200
    python bench/open_list.py --database-url postgresql://postgres@127.0.0.1:5432/arcade_bench
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from loadcore import free_port  # the bench folder, on the path of a script run from it

from app.config import Settings
from app.db.migrate import upgrade_to_head
from app.db.session import make_engine, make_sessionmaker
from app.main import create_app
from app.services.matches import create_match
from app.services.players import create_player

LIFTED = {
    name: "1000000/minute"
    for name in ("list_reads_per_address", "guests_per_address", "lobbies_per_player")
}


async def open_lobbies(database_url: str, total: int, already: int) -> None:
    engine = make_engine(database_url)
    async with make_sessionmaker(engine)() as session:
        host = None
        for i in range(already, total):
            if i % 5 == 0 or host is None:
                host, _token = await create_player(session, name=f"Host {i // 5}")
            await create_match(session, host=host, game_id="c64-maze", options={}, seats=2)
            if i % 500 == 499:
                await session.commit()
        await session.commit()
    await engine.dispose()


async def time_polls(url: str, requests: int) -> list[float]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for _ in range(10):  # warm-up
            await client.get("/api/matches", params={"status": "open"})
        took = []
        for _ in range(requests):
            start = time.perf_counter()
            answer = await client.get("/api/matches", params={"status": "open"})
            took.append(time.perf_counter() - start)
            answer.raise_for_status()
        return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lobbies", type=int, nargs="+", default=[3, 3000])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--database-url", help="an empty database (default: a new SQLite file)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as workdir:
        url = args.database_url or f"sqlite:///{Path(workdir) / 'bench.db'}"
        settings = Settings(database_url=url, **LIFTED)  # type: ignore[arg-type]
        upgrade_to_head(settings.database_url)
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            made = 0
            print(f"{'open lobbies':>12}  {'median ms':>9}  {'p95 ms':>7}  page  count")
            for level in sorted(args.lobbies):
                asyncio.run(open_lobbies(settings.database_url, level, made))
                made = level
                took = asyncio.run(time_polls(f"http://127.0.0.1:{port}", args.requests))
                page = httpx.get(
                    f"http://127.0.0.1:{port}/api/matches", params={"status": "open"}
                ).json()
                p95 = statistics.quantiles(took, n=20)[-1]
                print(
                    f"{level:>12}  {1000 * statistics.median(took):>9.2f}  {1000 * p95:>7.2f}"
                    f"  {len(page['matches']):>4}  {page['count']}"
                    f"{'+' if page.get('count_capped') else ''}"
                )
        finally:
            server.should_exit = True
            thread.join(timeout=15)


if __name__ == "__main__":
    main()
