"""Computer players' turns: a search in a worker process, a move through the ordinary path.

Whenever the match's keeper (app/services/keepers.py: one process at a time per match) makes,
loads or hears of a version in which a computer plays a seat to move (its own seat, or
standing in for an absent player), its move is chosen off the event loop, in a process pool
(app.bots.choose_move: the seat's view, sampled where it hides something, never the hidden
parts themselves), and submitted as that seat's move under an id made of the version and
seat. So it is validated, logged (as a computer's), replayed and patched like anyone's, and
two processes that choose for the same position (while Redis is unreachable, each keeps its
matches alone) commit it once. The keepers' database sweep finds the turns nobody is taking
(after a restart, a lost worker) and starts them again. Moves wait at least `think_seconds`
plus a random extra: friends can follow the table, and a quick "no" never tells that the
computer held no card.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.engine.runtime import LiveMatch, MatchRuntime

log = logging.getLogger(__name__)

DECISIONS_PER_WORKER = 500  # a worker starts afresh now and then: memory goes back
LEAST_BUDGET = 0.05
"""Seconds a search gets however many wait: when many computers are to move at once, each
searches less (a weaker move) rather than the last one waiting many budgets for a worker."""


WORKER_NICENESS = 10
"""How much lower the search workers' CPU priority is than the server's: when cores are
short, people's moves are served first and a search gets what is left within its time
budget (a weaker move, never a later one)."""


def _lower_priority() -> None:
    # Where it is not permitted, the workers run at the server's priority.
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


def choose_in_worker(
    game_id: str, state: dict[str, Any], seat: int, level: str, seed: int, budget: float
) -> dict[str, Any]:
    from app.bots import choose_move  # imported in the worker process only

    return choose_move(game_id, state, seat, level, seed, time_budget=budget)


def decision_seed(match_id: str, version: int, seat: int) -> int:
    """The same position gets the same search in every process (not the match's dice seed:
    a computer must not know the dice to come)."""
    digest = hashlib.sha256(f"{match_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class ComputerTurns:
    def __init__(
        self,
        runtime: MatchRuntime,
        sessions: async_sessionmaker[AsyncSession],
        *,
        workers: int,
        time_budget: float,
        think_seconds: float,
        pending_limit: int,
    ) -> None:
        self._runtime = runtime
        self._sessions = sessions
        self._workers = workers
        self._time_budget = time_budget
        self._think_seconds = think_seconds
        self._pending_limit = pending_limit
        self._pool: ProcessPoolExecutor | None = None
        self._pending: dict[tuple[str, int, int], asyncio.Task[None]] = {}
        self.searches = 0
        """Searches sent to the workers by this process (tests read it: one per decision)."""
        self._pace = random.SystemRandom()
        # One decision per worker at a time; the others wait here, where a stale one can
        # still be dropped, rather than in the pool's queue.
        self._slots = asyncio.Semaphore(workers)
        self._waiting = 0

    async def close(self) -> None:
        tasks = list(self._pending.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._pending.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def budget_now(self) -> float:
        """The full budget when the workers keep up; shared out when decisions queue, so the
        ones waiting are answered within about one budget each round of the workers."""
        share = self._time_budget / (1 + self._waiting / self._workers)
        return max(LEAST_BUDGET, share)

    def _pool_of_workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork would copy the server's event loop, sockets and database pool.
            self._pool = ProcessPoolExecutor(
                max_workers=self._workers,
                mp_context=multiprocessing.get_context("spawn"),
                max_tasks_per_child=DECISIONS_PER_WORKER,
                initializer=_lower_priority,
            )
        return self._pool

    def _forget_pending(self, key: tuple[str, int, int], _task: asyncio.Task[None]) -> None:
        self._pending.pop(key, None)

    def consider(self, live: LiveMatch) -> None:
        """Start the turn of every computer-played seat to move now, once."""
        if live.status != "active":
            return
        computers = live.computers()
        if not computers:
            return
        for seat in sorted(live.game.active_seats(live.state)):
            level = computers.get(seat)
            key = (live.id, live.version, seat)
            if level is None or key in self._pending:
                continue
            if len(self._pending) >= self._pending_limit:
                log.warning("computer turns: %d waiting; the sweep will retry", len(self._pending))
                return
            task = asyncio.create_task(self._play(live, seat, level))
            self._pending[key] = task
            task.add_done_callback(functools.partial(self._forget_pending, key))

    async def _play(self, live: LiveMatch, seat: int, level: str) -> None:
        loop = asyncio.get_running_loop()
        version, state = live.version, live.state
        started = loop.time()
        scripted = live.scripted()
        if scripted is not None:
            # A lesson's computer plays its script, paced like any computer player's move.
            if scripted.seat == seat:
                await asyncio.sleep(self._think_seconds)
                await self._runtime.submit_for_computer(live.id, seat, scripted.move, version)
            return
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        try:
            # Waited for a worker: a position others have moved on from needs no answer.
            current = self._runtime.cached_match(live.id)
            if current is None or current.version != version:
                return
            budget = self.budget_now()
            self.searches += 1
            try:
                move = await loop.run_in_executor(
                    self._pool_of_workers(),
                    choose_in_worker,
                    live.game.id,
                    state,
                    seat,
                    level,
                    decision_seed(live.id, version, seat),
                    budget,
                )
            except Exception:
                log.exception(
                    "computer player failed in %s at %d; playing a legal move", live.id, version
                )
                move = live.game.legal_moves(state, seat)[0]
        finally:
            self._slots.release()
        wait = self._think_seconds * (1 + self._pace.random()) - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        await self._runtime.submit_for_computer(live.id, seat, move, version)
