"""Who is connected to which match, in this process (counted per player; None = spectator),
and the presence frames sent to them.

Presence frames are coalesced per match: any number of joins and leaves within
`interval` seconds become one frame, built once and handed as the same text to every local
connection of the match. Joins and leaves on other processes arrive through the hub's
presence channel of the match, so each process hears about them with one notice, not one per
connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable

from app.realtime.hub import Hub

log = logging.getLogger(__name__)

Sink = Callable[[str], None]
BuildFrame = Callable[[str], Awaitable[str]]


def presence_channel(match_id: str) -> str:
    return f"presence:{match_id}"


class _Room:
    """The local connections of one match and the one task that sends them presence."""

    def __init__(self, match_id: str, build: BuildFrame, interval: float) -> None:
        self.match_id = match_id
        self.build = build
        self.interval = interval
        self.sinks: set[Sink] = set()
        self.changed = False
        self.last_sent = float("-inf")
        self.flusher: asyncio.Task[None] | None = None
        self.listener: asyncio.Task[None] | None = None

    def request(self) -> None:
        if self.flusher is None or self.flusher.done():
            self.flusher = asyncio.create_task(self._flush())
        else:
            self.changed = True

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            # sleep(0) at least: every join made in this turn of the loop goes in one frame.
            await asyncio.sleep(max(0.0, self.last_sent + self.interval - loop.time()))
            self.changed = False
            self.last_sent = loop.time()
            try:
                text = await self.build(self.match_id)
            except Exception:
                log.exception("presence frame failed")
            else:
                for sink in list(self.sinks):
                    sink(text)
            if not self.changed:
                return

    async def listen(self, hub: Hub) -> None:
        async with hub.subscribe(presence_channel(self.match_id)) as inbox:
            while True:
                await inbox.get()
                self.request()

    def stop(self) -> None:
        for task in (self.flusher, self.listener):
            if task is not None:
                task.cancel()
        self.flusher = self.listener = None
        self.sinks.clear()


class Presence:
    def __init__(self) -> None:
        self._by_match: defaultdict[str, Counter[str | None]] = defaultdict(Counter)
        self._rooms: dict[str, _Room] = {}

    def connect(self, match_id: str, player_id: str | None) -> None:
        self._by_match[match_id][player_id] += 1

    def disconnect(self, match_id: str, player_id: str | None) -> None:
        counter = self._by_match.get(match_id)
        if counter is None:
            return
        counter[player_id] -= 1
        if counter[player_id] <= 0:
            del counter[player_id]
        if not counter:
            del self._by_match[match_id]

    def online(self, match_id: str) -> set[str]:
        counter = self._by_match.get(match_id)
        return {p for p in counter if p is not None} if counter else set()

    def seated_pairs(self) -> list[tuple[str, str]]:
        """(match id, player id) for every guest with a socket open here."""
        return [
            (match_id, player_id)
            for match_id, counter in self._by_match.items()
            for player_id in counter
            if player_id is not None
        ]

    def spectators(self, match_id: str) -> int:
        counter = self._by_match.get(match_id)
        return counter.get(None, 0) if counter else 0

    # --- presence frames ---------------------------------------------------------------------
    def enter(
        self, match_id: str, sink: Sink, *, hub: Hub, build: BuildFrame, interval: float
    ) -> None:
        """`sink` gets every presence frame of the match from now on (the first one soon)."""
        room = self._rooms.get(match_id)
        if room is None:
            room = self._rooms[match_id] = _Room(match_id, build, interval)
            room.listener = asyncio.create_task(room.listen(hub))
        room.sinks.add(sink)
        room.request()

    def leave(self, match_id: str, sink: Sink) -> None:
        room = self._rooms.get(match_id)
        if room is None:
            return
        room.sinks.discard(sink)
        if not room.sinks:
            del self._rooms[match_id]
            room.stop()

    def request(self, match_id: str) -> None:
        """Something presence shows changed here: the match's connections hear of it soon."""
        room = self._rooms.get(match_id)
        if room is not None:
            room.request()

    async def announce(self, hub: Hub, match_id: str) -> None:
        """Tells every process (this one too) that someone joined or left the match."""
        with contextlib.suppress(Exception):
            await hub.publish(presence_channel(match_id), {"kind": "presence"})
