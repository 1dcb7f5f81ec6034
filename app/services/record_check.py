"""Checking a replay record that anyone may send (POST /api/replays/verify).

A record is untrusted and its cost is the sender's choice, so every check is bounded: the
body in bytes (the caller reads at most that much), the record in moves, and the work in
seconds. The rules re-run in a worker process, parsing included: a big record never
occupies the event loop, holds the GIL against live play, or leaves its memory in the server.
One worker per server process and a short queue; a sender who finds it full is told to retry.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import orjson

from app.errors import ArcadeError, RateLimited
from app.services.replays import OutOfTime, moves_digest, verify_record

# A worker keeps what the parser took from the system; starting afresh now and then hands
# the memory of a few big records back.
CHECKS_PER_WORKER = 16


@dataclass(frozen=True)
class CheckedRecord:
    verdict: dict[str, Any]
    match_id: str | None
    server_seed: str | None
    moves_digest: str | None


def check_raw_record(raw: bytes, max_moves: int, seconds: float) -> CheckedRecord:
    """In the worker: parse, bound, verify. Refusals are raised as ArcadeError."""
    try:
        record = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ArcadeError("bad_request", f"That is not a JSON record ({exc}).") from None
    moves = record.get("moves") if isinstance(record, dict) else None
    if isinstance(moves, list) and len(moves) > max_moves:
        raise ArcadeError(
            "unprocessable",
            f"This record has {len(moves):,} moves; the server checks records of at most "
            f"{max_moves:,}. Check it with `arcade verify` on your own machine.",
        )
    try:
        verdict = verify_record(record, deadline=time.monotonic() + seconds)
    except OutOfTime as exc:
        raise ArcadeError(
            "unprocessable",
            f"This record could not be checked within {seconds:g} s (its first {exc.checked} "
            "moves are fine). Check it with `arcade verify` on your own machine.",
        ) from None
    identity = record if isinstance(record, dict) else {}
    match_id, seed = identity.get("id"), identity.get("server_seed")
    return CheckedRecord(
        verdict=verdict.to_json(),
        match_id=match_id if isinstance(match_id, str) else None,
        server_seed=seed if isinstance(seed, str) else None,
        moves_digest=moves_digest(moves) if isinstance(moves, list) else None,
    )


class RecordChecker:
    """One worker process, started on first use; at most `queue` checks in flight."""

    def __init__(self, queue: int = 2) -> None:
        self._queue = queue
        self._in_flight = 0
        self._pool: ProcessPoolExecutor | None = None

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork would copy the server's event loop, sockets and database pool.
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                max_tasks_per_child=CHECKS_PER_WORKER,
            )
        return self._pool

    async def check(self, raw: bytes, *, max_moves: int, seconds: float) -> CheckedRecord:
        if self._in_flight >= self._queue:
            raise RateLimited(
                "The server is checking other records right now; try again in 30 seconds.", 30
            )
        self._in_flight += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._workers(), check_raw_record, raw, max_moves, seconds
            )
        finally:
            self._in_flight -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
