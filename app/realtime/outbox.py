"""A connection's frames waiting to be written, bounded in count and in bytes.

A client that stops reading makes the socket's writes block; without a bound every frame meant
for it piles up here. Past either bound `put` refuses, and the connection is dropped instead.
Frames wait here only while the transport is paused or frames before them wait: a socket whose
client keeps up holds no queue at all (the deque is made for the first frame that waits and
dropped once the last one is taken).
"""

from __future__ import annotations

from collections import deque


class Outbox:
    __slots__ = ("_bytes", "_frames", "max_bytes", "max_frames")

    def __init__(self, *, max_frames: int, max_bytes: int) -> None:
        self.max_frames = max_frames
        self.max_bytes = max_bytes
        self._frames: deque[str] | None = None
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._frames) if self._frames is not None else 0

    def put(self, text: str) -> bool:
        """Queues one frame; False (and nothing queued) when it would pass a bound."""
        size = len(text)  # characters: cheap, and within 4x of the UTF-8 size
        frames = self._frames
        if frames is None:
            frames = self._frames = deque()
        if len(frames) >= self.max_frames or self._bytes + size > self.max_bytes:
            return False
        frames.append(text)
        self._bytes += size
        return True

    def take(self) -> str | None:
        """The oldest frame, or None when none waits."""
        frames = self._frames
        if not frames:
            self._frames = None
            return None
        text = frames.popleft()
        self._bytes -= len(text)
        return text

    def clear(self) -> None:
        self._frames = None
        self._bytes = 0
