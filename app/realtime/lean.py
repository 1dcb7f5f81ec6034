"""A queue and an event for objects every socket holds for its life.

asyncio's Queue is four deques and its Event one, 760 bytes each however empty, and a match
socket held five of them (uvicorn's receive queue and writable event, the hub inbox) that sit
empty nearly all the time. These keep the same interface (as much of it as the socket path
uses) and allocate only while something waits or is queued.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class _Waiters:
    """The futures of the tasks waiting, in a list made for the first and dropped with the last."""

    __slots__ = ("_waiters",)

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] | None = None

    async def _wait(self) -> None:
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            self._waiters.remove(waiter)
            if not self._waiters:
                self._waiters = None
            self._after_wait()

    def _after_wait(self) -> None:
        """Called as a wait ends, woken or cancelled."""


class LeanQueue(_Waiters, Generic[T]):
    """asyncio.Queue's put_nowait, get, empty and qsize, unbounded."""

    __slots__ = ("_items",)

    def __init__(self) -> None:
        super().__init__()
        self._items: deque[T] | None = None

    def qsize(self) -> int:
        return len(self._items) if self._items is not None else 0

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: T) -> None:
        if self._items is None:
            self._items = deque()
        self._items.append(item)
        self._wake_one()

    async def get(self) -> T:
        while not self._items:
            await self._wait()
        item = self._items.popleft()
        if not self._items:
            self._items = None
        else:  # another getter may take what this one left
            self._wake_one()
        return item

    def _after_wait(self) -> None:
        if self._waiters and self._items:  # woken and then cancelled: the wake-up is passed on
            self._wake_one()

    def _wake_one(self) -> None:
        for waiter in self._waiters or ():
            if not waiter.done():
                waiter.set_result(None)
                return


class LeanEvent(_Waiters):
    """asyncio.Event: set, clear, is_set and wait."""

    __slots__ = ("_flag",)

    def __init__(self) -> None:
        super().__init__()
        self._flag = False

    def is_set(self) -> bool:
        return self._flag

    def set(self) -> None:
        if self._flag:
            return
        self._flag = True
        for waiter in self._waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._flag = False

    async def wait(self) -> bool:
        if not self._flag:
            await self._wait()
        return True
