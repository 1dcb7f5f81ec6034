"""A stopping process's way out: not ready, finish what is being written, send every socket
elsewhere (close code 1012), run the drain hooks, then let the server stop.

On SIGTERM (or SIGINT) uvicorn would at once close every WebSocket with 1012 and drop the
transport, so a move being committed at that moment could not send its ack. `Drain` runs
before that: `install_signal_handlers` chains the server's own handlers (uvicorn's, set with
`signal.signal` while the app starts), so the first signal starts the drain and hands the
signal on to the server once the drain is over; a second SIGINT (Ctrl+C twice) hands it on
at once. Wherever no signal reaches the app (a server in a thread), the app's lifespan runs the same
drain when it ends; the sockets are then already closed by the server, with 1012 too.

The drain is bounded by `seconds` (the `DRAIN_SECONDS` setting): whatever is still open then
is left to the server, which closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any, Protocol

log = logging.getLogger(__name__)

DrainHook = Callable[[], Awaitable[None]]
HANDLED_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Restartable(Protocol):
    def restart(self) -> None:
        """Close with 1012 as soon as what is being done for this client is done."""


class Drain:
    """One process's drain: the `draining` flag the readiness check and the socket read, the
    open sockets to send elsewhere, and `hooks`, the ordered list of async callbacks run once
    the sockets are closed (release leases, hand work over). A hook gets what is left of the
    bound; one that fails or overruns is logged and the next one runs."""

    def __init__(self, seconds: float = 10.0) -> None:
        self.seconds = seconds
        self.draining = False
        self.hooks: list[DrainHook] = []
        self._sockets: set[Restartable] = set()
        self._sockets_gone: asyncio.Event | None = None
        self._run: asyncio.Task[None] | None = None
        self._signalled = False
        self._stopping: asyncio.Task[None] | None = None  # the drain a signal started

    # --- sockets --------------------------------------------------------------------------
    def opened(self, socket: Restartable) -> None:
        self._sockets.add(socket)

    def closed(self, socket: Restartable) -> None:
        self._sockets.discard(socket)
        if not self._sockets and self._sockets_gone is not None:
            self._sockets_gone.set()

    @property
    def open_sockets(self) -> int:
        return len(self._sockets)

    # --- the drain ------------------------------------------------------------------------
    async def run(self) -> None:
        """Drains once; later calls wait for the same drain."""
        if self._run is None:
            self._run = asyncio.ensure_future(self._drain())
        await asyncio.shield(self._run)

    async def _drain(self) -> None:
        started = time.monotonic()
        deadline = started + self.seconds
        self.draining = True
        self._sockets_gone = asyncio.Event()
        if self._sockets:
            log.info("draining: sending %d sockets elsewhere", len(self._sockets))
            for socket in list(self._sockets):
                socket.restart()
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    await self._sockets_gone.wait()
            except TimeoutError:
                log.warning("draining: %d sockets still open at the bound", len(self._sockets))
        for hook in self.hooks:
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    await hook()
            except TimeoutError:
                log.warning("drain hook %r did not finish within the bound", hook)
            except Exception:
                log.exception("drain hook %r failed", hook)
        log.info("drained in %.2f s", time.monotonic() - started)

    # --- signals --------------------------------------------------------------------------
    def install_signal_handlers(self) -> Callable[[], None]:
        """Chains SIGINT and SIGTERM in front of the handlers already set (the server's):
        returns the function that puts them back. Does nothing outside the main thread,
        where signals cannot be handled (a server in a thread)."""
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        loop = asyncio.get_running_loop()
        previous: dict[int, Any] = {}

        def hand_on(sig: int, frame: FrameType | None) -> None:
            handler = previous.get(sig)
            if callable(handler):
                handler(sig, frame)
            elif handler == signal.SIG_DFL:
                signal.signal(sig, signal.SIG_DFL)
                signal.raise_signal(sig)

        def on_signal(sig: int, frame: FrameType | None) -> None:
            if self._signalled:
                # Ctrl+C twice stops at once. Another SIGTERM changes nothing: a supervisor
                # and a service manager may both send one (uvicorn's workers, systemd's
                # control group), and the drain is bounded anyway.
                if sig == signal.SIGINT:
                    hand_on(sig, frame)
                return
            self._signalled = True

            async def drain_then_stop() -> None:
                try:
                    await self.run()
                finally:
                    hand_on(sig, None)

            def start() -> None:
                self._stopping = loop.create_task(drain_then_stop())

            # In a signal handler the loop may be anywhere: schedule, do not run.
            loop.call_soon_threadsafe(start)

        for sig in HANDLED_SIGNALS:
            previous[sig] = signal.getsignal(sig)
            signal.signal(sig, on_signal)

        def restore() -> None:
            for sig, handler in previous.items():
                with contextlib.suppress(ValueError, TypeError):
                    if signal.getsignal(sig) is on_signal:
                        signal.signal(sig, handler)

        return restore
