"""The socket's way out (app/realtime/writer.py): frames written at once while the transport
takes them, queued and bounded while it is paused, and a queue stuck past the send timeout
reported. Against a stand-in for uvicorn's protocol, so the transport can be paused at will."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocketState

from app.realtime.lean import LeanEvent, LeanQueue
from app.realtime.outbox import Outbox
from app.realtime.writer import FrameWriter


class _Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return False


class _Conn:
    def __init__(self) -> None:
        self._out: list[bytes] = []

    def send_text(self, data: bytes) -> None:
        self._out.append(data)

    def data_to_send(self) -> list[bytes]:
        out, self._out = self._out, []
        return out


class _Protocol:
    """What wire.write needs of uvicorn's websockets-sansio protocol."""

    def __init__(self) -> None:
        self.conn = _Conn()
        self.transport = _Transport()
        self.writable = LeanEvent()
        self.writable.set()
        self.close_sent = False
        self.disconnected = False
        self.queue: LeanQueue[Any] = LeanQueue()

    async def receive(self) -> Any:
        return await self.queue.get()

    async def send(self, message: dict[str, Any]) -> None:
        # uvicorn's send: waits for a writable transport, then writes.
        await self.writable.wait()
        self.conn.send_text(message["text"].encode())
        self.transport.write(b"".join(self.conn.data_to_send()))


class _WebSocket:
    def __init__(self, protocol: _Protocol) -> None:
        self._receive = protocol.receive
        self.protocol = protocol
        self.application_state = WebSocketState.CONNECTED

    async def send_text(self, text: str) -> None:
        await self.protocol.send({"type": "websocket.send", "text": text})


def _writer(
    *, frames: int = 4, chars: int = 1000, timeout: float = 5.0
) -> tuple[FrameWriter, _Protocol, list[str]]:
    protocol = _Protocol()
    stuck: list[str] = []
    writer = FrameWriter(
        _WebSocket(protocol),  # type: ignore[arg-type]
        Outbox(max_frames=frames, max_bytes=chars),
        timeout=timeout,
        on_stuck=lambda: stuck.append("stuck"),
    )
    return writer, protocol, stuck


def _sent(protocol: _Protocol) -> list[bytes]:
    return protocol.transport.written


async def test_a_frame_is_written_at_once_without_a_task_while_the_transport_takes_it() -> None:
    writer, protocol, _ = _writer()
    assert writer.send("a") and writer.send("b")
    assert _sent(protocol) == [b"a", b"b"]  # in the caller, before any await
    assert writer.idle and len(writer.outbox) == 0


async def test_frames_sent_together_go_out_in_one_write_in_order() -> None:
    writer, protocol, _ = _writer()
    writer.send("before")
    with writer.together():
        assert writer.send("patch") and writer.send("ack")
        assert _sent(protocol) == [b"before"]  # held until the end
    assert _sent(protocol) == [b"before", b"patchack"]
    with writer.together():
        pass  # nothing held: nothing written
    assert len(_sent(protocol)) == 2 and writer.idle


async def test_a_frame_that_must_queue_while_held_frames_wait_goes_out_after_them() -> None:
    writer, protocol, _ = _writer()
    with writer.together():
        writer.send("patch")
        protocol.writable.clear()  # the transport paused meanwhile
        writer.send("ack")  # queued: uvicorn's send will take the held frame first
    protocol.writable.set()
    await writer.wait_idle(1.0)
    assert b"".join(_sent(protocol)) == b"patchack" and writer.idle


async def test_frames_wait_while_the_transport_is_paused_and_go_out_in_order() -> None:
    writer, protocol, stuck = _writer()
    writer.send("1")
    protocol.writable.clear()  # the client stopped reading: uvicorn's pause_writing
    assert writer.send("2") and writer.send("3")
    assert _sent(protocol) == [b"1"] and not writer.idle
    protocol.writable.set()  # resume_writing
    writer.send("4")  # queued behind 2 and 3, not written ahead of them
    await writer.wait_idle(1.0)
    assert _sent(protocol) == [b"1", b"2", b"3", b"4"]
    assert writer.idle and not stuck
    writer.send("5")  # the queue is gone: written at once again
    assert _sent(protocol)[-1] == b"5" and writer.idle


async def test_frames_written_at_once_still_meet_the_bound_once_the_client_stops_reading() -> None:
    writer, protocol, _ = _writer(frames=3, chars=10_000)
    for _ in range(5):
        assert writer.send("x" * 10)  # the transport's buffer takes these
    protocol.writable.clear()
    # One frame taken by the queue's task and waiting to be written, three queued: then the
    # bound refuses (the connection is closed with 4500 for it).
    results = [writer.send("y" * 10) for _ in range(3)]
    await asyncio.sleep(0)
    results += [writer.send("y" * 10) for _ in range(2)]
    assert results == [True, True, True, True, False]
    assert len(writer.outbox) == 3
    await writer.stop()


async def test_the_bound_counts_characters_too() -> None:
    writer, protocol, _ = _writer(frames=100, chars=25)
    protocol.writable.clear()
    assert writer.send("a" * 10)
    await asyncio.sleep(0)  # taken by the task, waiting for the transport
    assert writer.send("b" * 10) and writer.send("c" * 10)
    assert not writer.send("d" * 10)  # 30 of 25 characters
    await writer.stop()


async def test_a_frame_that_cannot_be_written_within_the_timeout_reports_the_client_stuck() -> None:
    writer, protocol, stuck = _writer(timeout=0.05)
    protocol.writable.clear()
    writer.send("never read")
    writer.send("nor this")
    await writer.wait_idle(2.0)
    assert stuck == ["stuck"]
    assert len(writer.outbox) == 0 and writer.idle


async def test_nothing_goes_out_after_stop() -> None:
    writer, protocol, _ = _writer()
    await writer.stop()
    assert writer.send("late")
    assert _sent(protocol) == [] and len(writer.outbox) == 0


async def test_without_uvicorns_protocol_every_frame_takes_the_awaited_path() -> None:
    sent: list[str] = []

    class _Plain:
        application_state = WebSocketState.CONNECTED

        async def send_text(self, text: str) -> None:
            sent.append(text)

    writer = FrameWriter(
        _Plain(),  # type: ignore[arg-type]
        Outbox(max_frames=4, max_bytes=100),
        timeout=1.0,
        on_stuck=lambda: None,
    )
    writer.send("a")
    writer.send("b")
    assert sent == [] and not writer.idle
    await writer.wait_idle(1.0)
    assert sent == ["a", "b"] and writer.idle


async def test_lean_queue_and_event_behave_as_asyncios() -> None:
    queue: LeanQueue[int] = LeanQueue()
    assert queue.empty()
    getter = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait(1)
    queue.put_nowait(2)
    assert await getter == 1
    assert queue.qsize() == 1 and await queue.get() == 2 and queue.empty()
    with_timeout = asyncio.create_task(asyncio.wait_for(queue.get(), 0.01))
    await asyncio.wait({with_timeout})
    assert isinstance(with_timeout.exception(), TimeoutError)
    queue.put_nowait(3)  # a cancelled getter does not swallow it
    assert await queue.get() == 3

    event = LeanEvent()
    waiters = [asyncio.create_task(event.wait()) for _ in range(2)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiters)
    event.set()
    assert await asyncio.gather(*waiters) == [True, True]
    event.clear()
    assert not event.is_set()


async def test_a_protocol_of_another_kind_is_not_written_to_directly() -> None:
    protocol = _Protocol()
    protocol.conn = object()  # type: ignore[assignment]  # wsproto's connection, say
    writer = FrameWriter(
        _WebSocket(protocol),  # type: ignore[arg-type]
        Outbox(max_frames=4, max_bytes=100),
        timeout=1.0,
        on_stuck=lambda: None,
    )
    assert writer._protocol is None


async def test_a_lean_queue_getter_cancelled_after_its_wake_up_passes_it_on() -> None:
    queue: LeanQueue[int] = LeanQueue()
    first = asyncio.create_task(queue.get())
    second = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait(1)  # wakes the first getter
    first.cancel()  # before it runs
    assert await asyncio.wait_for(second, 1.0) == 1
