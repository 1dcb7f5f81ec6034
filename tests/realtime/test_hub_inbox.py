"""A subscriber may act on a notice in the publisher's call (`Inbox.at_once`, used by the match
socket for version notices it holds the patches of), but never out of order: once a notice
waits in the queue, later ones wait behind it."""

from __future__ import annotations

from typing import Any

from app.realtime.hub import QUEUE_LIMIT, RESYNC, MemoryHub


async def test_notices_are_acted_on_at_once_only_while_none_waits() -> None:
    hub = MemoryHub()
    acted: list[int] = []

    def at_once(notice: dict[str, Any]) -> bool:
        if notice["kind"] != "version":
            return False  # left to the listener
        acted.append(notice["n"])
        return True

    async with hub.subscribe("match:m") as inbox:
        inbox.at_once = at_once
        await hub.publish("match:m", {"kind": "version", "n": 1})
        await hub.publish("match:m", {"kind": "lobby", "n": 2})
        await hub.publish("match:m", {"kind": "version", "n": 3})  # behind the lobby notice
        assert acted == [1]
        assert (await inbox.get())["n"] == 2
        assert (await inbox.get())["n"] == 3
        await hub.publish("match:m", {"kind": "version", "n": 4})  # nothing waits again
        assert acted == [1, 4]
        assert inbox.queue.empty()


async def test_a_subscriber_that_fell_too_far_behind_is_told_to_catch_up() -> None:
    """Issue 19, item 4 (nothing unbounded): past QUEUE_LIMIT waiting notices the newer ones
    are dropped, and once the subscriber has read what was kept it gets a resync notice, as
    after a Redis outage, rather than silently missing the rest."""
    hub = MemoryHub()
    async with hub.subscribe("match:m") as inbox:
        for n in range(QUEUE_LIMIT + 5):
            await hub.publish("match:m", {"kind": "lobby", "n": n})
        assert inbox.queue.qsize() == QUEUE_LIMIT
        kept = [(await inbox.get())["n"] for _ in range(QUEUE_LIMIT)]
        assert kept == list(range(QUEUE_LIMIT))
        assert await inbox.get() == RESYNC
        assert inbox.queue.empty()
