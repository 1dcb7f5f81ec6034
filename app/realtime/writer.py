"""A connection's way out: frames written at once when they can be, queued when they cannot.

A frame is written in the caller (`wire.write`) when no frame waits before it and the
transport takes writes; otherwise it waits in the connection's bounded `Outbox` and a task
made for the purpose writes the queue through `WebSocket.send_text`, each frame within the
send timeout, and ends once the queue is empty. A socket whose client keeps up therefore has
no sending task and no queue, and a frame costs no task switch. A client that stops reading
fills its transport's buffer until the transport pauses; from then on its frames queue and are
bounded as before: past the bound `send` says False, and a frame that waits longer than the
timeout calls `on_stuck`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import WebSocket

from app.realtime import wire
from app.realtime.outbox import Outbox


def _nothing() -> None:
    return None


class FrameWriter:
    __slots__ = (
        "_held",
        "_holding",
        "_protocol",
        "_stopped",
        "_task",
        "on_stuck",
        "outbox",
        "timeout",
        "websocket",
    )

    def __init__(
        self,
        websocket: WebSocket,
        outbox: Outbox,
        *,
        timeout: float,
        on_stuck: Callable[[], None],
    ) -> None:
        self.websocket = websocket
        self.outbox = outbox
        self.timeout = timeout
        self.on_stuck = on_stuck
        self._protocol: Any = wire.direct_writer(websocket)
        self._task: asyncio.Task[None] | None = None  # only while frames wait
        self._stopped = False
        self._holding = False  # inside `together`
        self._held = False  # a frame was framed but not yet written

    @property
    def idle(self) -> bool:
        """Nothing waits and nothing is being written."""
        return self._task is None

    def send(self, text: str) -> bool:
        """Writes or queues one frame; False when the queue's bound refuses it."""
        if self._stopped:
            return True  # the connection is ending: nothing more goes out
        if (
            self._task is None
            and self._protocol is not None
            and wire.write(self._protocol, self.websocket, text, hold=self._holding)
        ):
            self._held = self._holding
            return True
        if not self.outbox.put(text):
            return False
        if self._task is None:
            self._task = asyncio.create_task(self._write_queued())
        return True

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """The frames sent inside go out in one write at the end (a move's patch and its ack:
        one system call instead of two). Frames that must queue still queue, after these."""
        if self._holding:
            yield
            return
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
            if self._held:
                self._held = False
                wire.flush(self._protocol)

    async def _write_queued(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            # One timeout context for the queue, armed only while a frame is written.
            async with asyncio.timeout(None) as deadline:
                while (text := self.outbox.take()) is not None:
                    deadline.reschedule(loop.time() + self.timeout)
                    await self.websocket.send_text(text)
                    deadline.reschedule(None)
                # No await from here to the return: a frame sent meanwhile would find this
                # task still set and wait for a task that is ending.
                self._task = None
        except TimeoutError:
            self._task = None
            self.outbox.clear()
            self.on_stuck()
        except Exception:  # the client went away: its receive side ends the connection
            self._task = None
            self._stopped = True
            self.outbox.clear()

    async def wait_idle(self, timeout: float) -> None:
        """Until the queue is written, at most `timeout` seconds."""
        task = self._task
        if task is not None:
            await asyncio.wait((task,), timeout=timeout)

    async def stop(self) -> None:
        """No frame goes out after this; one being written is abandoned."""
        self._stopped = True
        # on_stuck is usually a method of the connection that holds this writer: dropping it
        # lets reference counting free the pair, without waiting for a full collection.
        self.on_stuck = _nothing
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        self.outbox.clear()
