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


class OldGenerationCollector:
    def __init__(self) -> None:
        self.every = 0  # closed connections per collection; 0: never
        self.min_interval = 1.0
        self._closed = 0
        self._last = 0.0

    def configure(self, *, every: int, min_interval: float) -> None:
        self.every, self.min_interval = every, min_interval

    def connection_closed(self) -> None:
        if self.every <= 0:
            return
        self._closed += 1
        now = time.monotonic()
        if self._closed >= self.every and now - self._last >= self.min_interval:
            self._closed, self._last = 0, now
            gc.collect()


# The collector's generations belong to the process, so one counter serves every app in it.
old_generation = OldGenerationCollector()
