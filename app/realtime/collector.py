"""Collects the oldest generation after connections have come and gone.

The start-up GC tuning (app/main.py) makes full collections rare, which is what keeps moves
cheap; but every closed connection leaves reference cycles (uvicorn's protocol objects, for
one) that have usually aged into the oldest generation by then, and only a full collection
frees them. Counting closed connections ties that collection to the churn that needs it: a
server whose sockets stay open (a steady game night) never pays for it.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

SPACING = 20
"""After a collection that took t seconds, the next waits at least SPACING * t: the collector
takes at most a twentieth of the process however many sockets close at once. With 10,000
sockets open a full collection takes a second or more, and when they all closed together (a
network outage, a load balancer restarting) one every second left the process collecting
for minutes, answering nothing in between."""


class OldGenerationCollector:
    def __init__(
        self,
        collect: Callable[[], object] = gc.collect,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.every = 0  # closed connections per collection; 0: never
        self.min_interval = 1.0
        self._collect, self._clock = collect, clock
        self._closed = 0
        self._next_at = 0.0

    def configure(self, *, every: int, min_interval: float) -> None:
        self.every, self.min_interval = every, min_interval

    def connection_closed(self) -> None:
        if self.every <= 0:
            return
        self._closed += 1
        started = self._clock()
        if self._closed >= self.every and started >= self._next_at:
            self._closed = 0
            self._collect()
            took = self._clock() - started
            self._next_at = started + max(self.min_interval, SPACING * took)


# The collector's generations belong to the process, so one counter serves every app in it.
old_generation = OldGenerationCollector()
