"""A connection's frames waiting to be written, bounded in count and in bytes.

A client that stops reading makes the socket's writes block; without a bound every frame meant
for it piles up here. Past either bound `put` refuses, and the connection is dropped instead.
"""

from __future__ import annotations

import asyncio
from collections import deque


class Outbox:
    def __init__(self, *, max_frames: int, max_bytes: int) -> None:
        self.max_frames = max_frames
        self.max_bytes = max_bytes
        self._frames: deque[str] = deque()
        self._bytes = 0
        self._ready = asyncio.Event()
        self._empty = asyncio.Event()
        self._empty.set()

    def put(self, text: str) -> bool:
        """Queues one frame; False (and nothing queued) when it would pass a bound."""
        size = len(text)  # characters: cheap, and within 4x of the UTF-8 size
        if len(self._frames) >= self.max_frames or self._bytes + size > self.max_bytes:
            return False
        self._frames.append(text)
        self._bytes += size
        self._ready.set()
        self._empty.clear()
        return True

    async def get(self) -> str:
        """The oldest frame; call `done` once it is written."""
        while not self._frames:
            self._ready.clear()
            await self._ready.wait()
        text = self._frames.popleft()
        self._bytes -= len(text)
        return text

    def done(self) -> None:
        # Empty only once the last frame taken is written, not when it is taken.
        if not self._frames:
            self._empty.set()

    def clear(self) -> None:
        self._frames.clear()
        self._bytes = 0
        self._empty.set()

    async def wait_empty(self) -> None:
        await self._empty.wait()
