"""Who is connected to which match (counted per player; None = spectator), in this process and
across processes, and the presence frames sent to the match's connections.

Each process counts its own sockets (`connect` / `disconnect`); that count is the truth for
this process. With several processes (REDIS_URL set) each one also writes its share to Redis:
one sorted set per match, `arcade:online:<match id>`, whose members are
`<process owner id>|<player id>` (and `<owner>|*<n>` for its n spectators), each scored by the
moment it expires (Redis's own clock). A process rewrites its share when someone joins or
leaves here and on a heartbeat every `ttl / 3` seconds; a process that dies simply stops
renewing, and its share drops out within `ttl` seconds without anyone cleaning up. Readers
(`look`, `look_many`) take this process's share from memory and the others' from Redis.

Presence frames are coalesced per match: any number of joins and leaves within `interval`
seconds become one frame, built once and handed as the same text to every local connection
of the match. Joins and leaves on other processes arrive through the hub's presence channel of
the match, so each process hears about them with one notice, not one per connection; a share
that expired (its process died) is noticed by the heartbeat, which compares what each match
with connections here showed with what Redis now says.

While Redis cannot be reached, presence is this process's own knowledge: nothing fails, and
the next heartbeat after Redis is back writes and reads everything again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from app.realtime.hub import Hub

log = logging.getLogger(__name__)

Sink = Callable[[str], None]
BuildFrame = Callable[[str], Awaitable[str]]

SPECTATORS = "*"
"""Marks a member that counts spectators (`<owner>|*<n>`): player ids never start with it."""

# Replace one owner's share of a match and return every live member (after dropping expired
# ones): KEYS[1] the match's set; ARGV owner, ttl in ms, then the owner's members. Scores are
# expiry times on Redis's clock, so processes on machines whose clocks differ still agree.
_WRITE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local prefix = ARGV[1] .. '|'
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(member, 1, #prefix) == prefix then
    redis.call('ZREM', KEYS[1], member)
  end
end
local expiry = now + tonumber(ARGV[2])
for i = 3, #ARGV do
  redis.call('ZADD', KEYS[1], expiry, prefix .. ARGV[i])
end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then
  redis.call('PEXPIREAT', KEYS[1], last[2])
end
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

# The live members of each match in KEYS.
_READ = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local found = {}
for i, key in ipairs(KEYS) do
  found[i] = redis.call('ZRANGEBYSCORE', key, '(' .. now, '+inf')
end
return found
"""


def presence_channel(match_id: str) -> str:
    return f"presence:{match_id}"


@dataclass(frozen=True)
class Seen:
    """Who is at a match on every process: the players with a socket open, and how many
    spectators (sockets without a guest) there are."""

    online: frozenset[str]
    spectators: int


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
        self.seen: Seen | None = None  # as last read: the heartbeat compares Redis with it

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


class _SharedCounts:
    """Each process's share of each match's presence, in Redis (see the module docstring)."""

    KEY = "arcade:online:"
    RETRY_AFTER = 1.0
    """Seconds after a failed call during which Redis is not asked again: an outage must not
    slow every join and frame down by a connect timeout."""
    BATCH = 200
    """Matches written in one pipeline, or read by one script call."""

    def __init__(self, url: str, owner: str, ttl: float) -> None:
        import redis.asyncio as redis

        self.owner = owner
        self.ttl_ms = max(1, int(ttl * 1000))
        self._redis = redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        self._write = self._redis.register_script(_WRITE)
        self._read = self._redis.register_script(_READ)
        self._down_until = 0.0
        self._away = False  # Redis failed last time: said once per outage, not per call

    def _reachable(self) -> bool:
        return time.monotonic() >= self._down_until

    def _failed(self, what: str) -> None:
        if not self._away:
            log.warning("presence: Redis unreachable (%s); this process's own sockets only", what)
        self._away = True
        self._down_until = time.monotonic() + self.RETRY_AFTER

    def _answered(self) -> None:
        if self._away:
            log.warning("presence: Redis answers again; presence is shared again")
        self._away = False

    async def write(self, shares: dict[str, list[str]]) -> dict[str, list[str]] | None:
        """Sets this process's share of each match; every live member of each, or None when
        Redis cannot be reached."""
        if not self._reachable():
            return None
        found: dict[str, list[str]] = {}
        items = list(shares.items())
        try:
            for start in range(0, len(items), self.BATCH):
                batch = items[start : start + self.BATCH]
                async with self._redis.pipeline(transaction=False) as pipe:
                    for match_id, members in batch:
                        await self._write(
                            keys=[self.KEY + match_id],
                            args=[self.owner, self.ttl_ms, *members],
                            client=pipe,
                        )
                    replies = await pipe.execute()
                for (match_id, _), reply in zip(batch, replies, strict=True):
                    found[match_id] = [m.decode() for m in reply]
        except Exception:
            self._failed("write")
            return None
        self._answered()
        return found

    async def read(self, match_ids: list[str]) -> dict[str, list[str]] | None:
        if not self._reachable():
            return None
        found: dict[str, list[str]] = {}
        try:
            for start in range(0, len(match_ids), self.BATCH):
                batch = match_ids[start : start + self.BATCH]
                replies = await self._read(keys=[self.KEY + m for m in batch])
                for match_id, reply in zip(batch, replies, strict=True):
                    found[match_id] = [m.decode() for m in reply]
        except Exception:
            self._failed("read")
            return None
        self._answered()
        return found

    async def close(self) -> None:
        await self._redis.aclose()


class Presence:
    def __init__(
        self, *, redis_url: str | None = None, owner: str = "local", ttl: float = 9.0
    ) -> None:
        self._by_match: defaultdict[str, Counter[str | None]] = defaultdict(Counter)
        self._rooms: dict[str, _Room] = {}
        self.owner = owner
        self._ttl = ttl
        self._shared = _SharedCounts(redis_url, owner, ttl) if redis_url else None
        self._written: set[str] = set()  # matches whose share in Redis may not be empty
        self._writers: dict[str, list[Any]] = {}  # match id -> [lock, users]: one write at a time
        self._heartbeat: asyncio.Task[None] | None = None

    # --- this process's sockets ------------------------------------------------------------
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

    def online_here(self, match_id: str) -> set[str]:
        """The players with a socket open on the match in this process."""
        counter = self._by_match.get(match_id)
        return {p for p in counter if p is not None} if counter else set()

    def spectators_here(self, match_id: str) -> int:
        counter = self._by_match.get(match_id)
        return counter.get(None, 0) if counter else 0

    def seated_pairs(self) -> list[tuple[str, str]]:
        """(match id, player id) for every guest with a socket open here."""
        return [
            (match_id, player_id)
            for match_id, counter in self._by_match.items()
            for player_id in counter
            if player_id is not None
        ]

    # --- every process ---------------------------------------------------------------------
    async def look(self, match_id: str) -> Seen:
        """Who is at the match, on every process (this one's share from memory)."""
        return (await self.look_many([match_id]))[match_id]

    async def look_many(self, match_ids: Iterable[str]) -> dict[str, Seen]:
        """`look` for several matches, with one round trip to Redis."""
        ids = list(dict.fromkeys(match_ids))
        shared = await self._shared.read(ids) if self._shared is not None and ids else None
        seen = {m: self._seen(m, shared.get(m) if shared else None) for m in ids}
        for match_id, one in seen.items():
            room = self._rooms.get(match_id)
            if room is not None:
                room.seen = one
        return seen

    def _seen(self, match_id: str, members: list[str] | None) -> Seen:
        online = self.online_here(match_id)
        spectators = self.spectators_here(match_id)
        for member in members or ():
            owner, _, entry = member.partition("|")
            if owner == self.owner or not entry:
                continue  # this process's own share: memory is newer than Redis
            if entry.startswith(SPECTATORS):
                with contextlib.suppress(ValueError):
                    spectators += int(entry[len(SPECTATORS) :])
            else:
                online.add(entry)
        return Seen(frozenset(online), spectators)

    def _share(self, match_id: str) -> list[str]:
        members: list[str] = sorted(self.online_here(match_id))
        spectators = self.spectators_here(match_id)
        if spectators:
            members.append(f"{SPECTATORS}{spectators}")
        return members

    async def _write_one(self, match_id: str) -> None:
        """Writes this process's share of the match as it is now. One write per match at a
        time, so a later join's write never lands before an earlier one's."""
        if self._shared is None:
            return
        writer = self._writers.setdefault(match_id, [asyncio.Lock(), 0])
        writer[1] += 1
        try:
            async with writer[0]:
                share = self._share(match_id)
                if await self._shared.write({match_id: share}) is not None:
                    if share:
                        self._written.add(match_id)
                    else:
                        self._written.discard(match_id)
        finally:
            writer[1] -= 1
            if writer[1] == 0:
                del self._writers[match_id]

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

    async def announce(self, hub: Hub, match_id: str, **notice: object) -> None:
        """Someone joined or left the match here (or, with `notice`, something else presence
        shows changed): this process's share is written first, then every process (this one
        too) hears of it and rebuilds the match's frame once. With the hub unreachable, this
        process's own pages still hear of it."""
        await self._write_one(match_id)
        try:
            await hub.publish(presence_channel(match_id), {"kind": "presence", **notice})
        except Exception:
            self.request(match_id)

    # --- heartbeat -----------------------------------------------------------------------------
    def start(self) -> None:
        if self._shared is not None:
            self._heartbeat = asyncio.create_task(self._beat_forever())

    async def beat(self) -> None:
        """Renews this process's share of every match it has sockets on (and clears the share
        of matches it no longer has), then refreshes the frames of matches whose presence
        changed elsewhere (a process died, or Redis is back)."""
        if self._shared is None:
            return
        ids = sorted(set(self._by_match) | self._written | set(self._rooms))
        if not ids:
            return
        shares = {m: self._share(m) for m in ids}
        found = await self._shared.write(shares)
        if found is None:
            return
        self._written |= {m for m, share in shares.items() if share}
        self._written -= {m for m, share in shares.items() if not share}
        for match_id, room in list(self._rooms.items()):
            fresh = self._seen(match_id, found.get(match_id))
            if room.seen is not None and fresh != room.seen:
                room.request()
            room.seen = fresh

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self._ttl / 3)
            try:
                await self.beat()
            except Exception:  # presence must never stop renewing because of one bad beat
                log.exception("presence heartbeat failed")

    async def close(self) -> None:
        """Stops the heartbeat and withdraws this process's share at once (best effort: it
        expires by itself otherwise)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(BaseException):
                await self._heartbeat
            self._heartbeat = None
        if self._shared is not None:
            if self._written:
                await self._shared.write({m: [] for m in self._written})
            await self._shared.close()
