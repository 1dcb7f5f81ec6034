"""The match WebSocket: hello, move, sync and chat in; snapshot, patch, ack, error, presence,
lobby and chat out.

Each socket runs a receive task and a hub-listener task; its frames are written at once when
the transport takes them and queued otherwise (app/realtime/writer.py). A socket never holds a
database session between messages. Every connection gets a patch for
every version (the mover's too, before its ack), computed between *views*, never raw states.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from datetime import UTC, datetime
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from starlette.routing import Match as RouteMatch
from starlette.routing import WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.guest_cookie import cookie_token, is_foreign_origin
from app.context import AppContext, match_channel
from app.db.models import ChatMessage, Match
from app.engine.contract import Outcome
from app.engine.runtime import LiveMatch, stand_ins_of
from app.errors import ArcadeError
from app.realtime.collector import old_generation
from app.realtime.compact import Told
from app.realtime.hangup import close_now
from app.realtime.outbox import Outbox
from app.realtime.writer import FrameWriter
from app.security_headers import SecurityHeaders
from app.services import chat as chat_channels
from app.services import computers
from app.services import matches as lobby
from app.services.players import player_for_token
from app.services.rate_limits import limits_of
from app.services.text import clean_chat

log = logging.getLogger(__name__)
HELLO_TIMEOUT = 30.0
# Close codes (besides 4404 and 4408, said during hello).
CLOSE_TOO_SLOW = 4500  # the client did not read its frames: it reconnects and gets a snapshot
CLOSE_FORBIDDEN = 4403  # the match became private and this viewer may no longer watch
# The process is stopping (app/drain.py): the client reconnects at once, and the load
# balancer sends it to another process. RFC 6455's "service restart".
CLOSE_RESTART = 1012


def _dump(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()


async def match_socket(websocket: WebSocket) -> None:
    match_id: str = websocket.path_params["match_id"]
    if is_foreign_origin(websocket):
        # The handshake carries the guest cookie whichever page opened it: another site's
        # page may not play as our guest. Closed before accept: the browser sees a 403.
        await websocket.close(code=4403, reason="foreign origin")
        return
    context: AppContext = websocket.app.state.context
    if context.drain.draining:
        await refuse_while_draining(websocket)
        return
    await websocket.accept()
    if context.drain.draining:  # it began while the handshake was answered
        await websocket.close(code=CLOSE_RESTART, reason="service restart")
        return
    connection = MatchConnection(context, websocket, match_id)
    context.drain.opened(connection)  # no await since the check: the drain will restart it
    try:
        with contextlib.suppress(WebSocketDisconnect):
            await connection.serve()
    finally:
        context.drain.closed(connection)


async def refuse_while_draining(websocket: WebSocket) -> None:
    """A handshake reaching a stopping process: HTTP 503, which a load balancer retries on
    another process (deploy/haproxy.cfg, `retry-on 503`) and a browser reconnects after;
    where the server cannot answer a handshake with a status, accepted and closed with
    1012."""
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(
            JSONResponse(
                {"code": "unavailable", "message": "This server is restarting: connect again."},
                status_code=503,
                headers={"retry-after": "1"},
            )
        )
        return
    await websocket.accept()
    await websocket.close(code=CLOSE_RESTART, reason="service restart")


MATCH_SOCKET_ROUTE = WebSocketRoute("/api/matches/{match_id}/ws", match_socket)


async def _match_socket_app(scope: Scope, receive: Receive, send: Send) -> None:
    await match_socket(WebSocket(scope, receive, send))


_SECURED_MATCH_SOCKET = SecurityHeaders(_match_socket_app)


async def serve_match_socket(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> bool:
    """Serves `scope` if it is a match socket, straight from the app's entry (True), or
    leaves it to the app's middleware and router (False).

    Every coroutine between uvicorn and the endpoint lives as long as the socket. Through the
    app's stack that is some twenty (its middleware, FastAPI's exception and telemetry
    wrappers, three routers), with the closures they wrap `send` in: about a fifth of an idle
    socket's memory. None of them does anything for a match socket but the security headers
    on a refused handshake, so only those are kept."""
    if scope["type"] != "websocket":
        return False
    found, child_scope = MATCH_SOCKET_ROUTE.matches(scope)
    if found is not RouteMatch.FULL:
        return False
    scope.update(child_scope)
    scope["app"] = app
    await _SECURED_MATCH_SOCKET(scope, receive, send)
    return True


async def presence_frame(context: AppContext, match_id: str) -> str:
    """The presence frame of a match as this process sees it, once for all its connections;
    with each seat's computer player, stand-in and absence (read from the database, which
    every process shares). Presence is read across processes (`Presence.look`)."""
    seen = await context.presence.look(match_id)
    online = seen.online
    live = await context.runtime.get(match_id)
    if live is not None and (
        live.status != "active"
        or all(p in online for i, p in enumerate(live.players) if i not in live.bots)
    ):
        # Nobody can be away: what the frame says comes from memory (a frame is built on
        # every arrival and departure, so a busy night must not cost a query each time).
        seats = [
            {
                "seat": i,
                "name": n,
                "online": p in online,
                "bot": live.bots.get(i),
                "stand_in": live.stand_ins.get(i),
                "away_since": None,
            }
            for i, (p, n) in enumerate(zip(live.players, live.names, strict=True))
        ]
        return _dump({"type": "presence", "seats": seats, "spectators": seen.spectators})
    async with context.sessions() as session:
        match = await lobby.get_match(session, match_id=match_id)
        names = await lobby.player_names(session, [match])
        facts = await context.seat_facts(session, match, online=online)
    if live is not None:
        seats = [
            {"seat": i, "name": n, "online": p in online}
            for i, (p, n) in enumerate(zip(live.players, live.names, strict=True))
        ]
    else:
        seats = [
            {"seat": i, "name": names.get(p) if p else None, "online": p in online}
            for i, p in enumerate(match.seats)
        ]
    if len(seats) == len(match.seats):
        computers.describe_seats({"seats": seats}, match, facts)
    return _dump({"type": "presence", "seats": seats, "spectators": seen.spectators})


class MatchConnection:
    # Thousands of these live at once: slots, not a dict each.
    __slots__ = (
        "admitted",
        "busy",
        "closing",
        "compact",
        "connection_key",
        "context",
        "conversation",
        "cookie_refused",
        "handling",
        "lock",
        "match_id",
        "moving",
        "player_id",
        "player_name",
        "restarting",
        "seated",
        "sent_version",
        "told",
        "watch",
        "websocket",
        "writer",
    )

    def __init__(self, context: AppContext, websocket: WebSocket, match_id: str) -> None:
        self.context = context
        self.websocket = websocket
        self.match_id = match_id
        self.player_id: str | None = None
        self.player_name: str | None = None
        self.sent_version: int | None = None  # None until a snapshot went out
        self.handling = False  # the listener is acting on a notice (it may be awaiting)
        self.moving = False  # this connection's move is being made: its own patch waits
        self.watch: str | None = None  # the watch link offered in hello
        self.seated = False  # as of the last lobby summary: decides which chat it may read
        self.admitted = False  # past hello
        self.compact = 0  # the compact form asked for in hello (app/realtime/compact.py): 0, 1, 2
        self.told: Told | None = None  # what it was sent of the compact form's dictionary
        settings = context.settings
        self.writer = FrameWriter(
            websocket,
            Outbox(
                max_frames=settings.socket_outbox_frames, max_bytes=settings.socket_outbox_bytes
            ),
            timeout=settings.socket_send_timeout,
            on_stuck=self._too_slow,
        )
        self.lock = asyncio.Lock()
        self.connection_key = secrets.token_hex(8)  # rate limits per connection
        self.cookie_refused = False  # an unknown cookie is said once; then it is a spectator
        self.conversation: asyncio.Task[None] | None = None
        self.closing: tuple[int, str] | None = None  # (code, reason) once the server hangs up
        self.busy = False  # a client message is being handled (a move being committed...)
        self.restarting = False  # the process drains: close with 1012 once not busy

    # --- plumbing ------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        self.send_text(_dump(message))

    def send_text(self, text: str) -> None:
        if self.closing is not None:
            return
        if not self.writer.send(text):
            self._too_slow()

    def _too_slow(self) -> None:
        self.writer.outbox.clear()  # nothing more goes out: the client resyncs when it is back
        self.hang_up(CLOSE_TOO_SLOW, "too slow: reconnect for a fresh snapshot")

    def hang_up(self, code: int, reason: str) -> None:
        """Ends this connection from anywhere (a send, a notice): serve() closes the socket."""
        if self.closing is not None:
            return
        self.closing = (code, reason)
        if self.conversation is not None:
            self.conversation.cancel()

    def restart(self) -> None:
        """The process is stopping: close with 1012 now, or, if a message is being handled
        (a move being committed), as soon as it is answered, so its ack goes out first."""
        self.restarting = True
        if not self.busy:
            self.hang_up(CLOSE_RESTART, "service restart")

    def error(self, code: str, message: str, move_id: str | None = None) -> None:
        payload: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if move_id is not None:
            payload["id"] = move_id
        self.send(payload)

    async def _receive_json(self) -> dict[str, Any] | None:
        """Next client message, or None after answering a bad frame with an error."""
        frame = await self.websocket.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        text = frame.get("text")
        if text is None and frame.get("bytes") is not None:
            text = frame["bytes"].decode("utf-8", errors="replace")
        if text is None:
            return None
        if len(text.encode()) > self.context.settings.max_frame_bytes:
            self.error(
                "too_large",
                f"Messages may be at most {self.context.settings.max_frame_bytes // 1024} KiB.",
            )
            return None
        try:
            message = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            self.error("bad_request", f"That message is not valid JSON ({exc.msg}).")
            return None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self.error("bad_request", 'Every message must be a JSON object with a "type".')
            return None
        if message["type"] == "hello" and not self.admitted:
            # The last hello before the connection is let in is the one it was let in with:
            # its watch link decides whether it may keep watching if the match turns private.
            watch = message.get("watch")
            self.watch = watch if isinstance(watch, str) else None
        return message

    # --- life of a socket ------------------------------------------------------------------
    async def serve(self) -> None:
        self.conversation = asyncio.create_task(self._converse())
        try:
            await self.conversation
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if self.closing is None or (current is not None and current.cancelling()):
                raise
        finally:
            if self.closing is None:
                await self._drain()
            else:
                await self._close(*self.closing)
            # The exception that ends a connection keeps this frame alive: a task left here
            # would close a reference cycle (task -> its cancellation -> the exception -> this
            # frame -> task) that only the full collection frees.
            self.conversation = None
            old_generation.connection_closed()

    async def _converse(self) -> None:
        if not await self._hello():
            return
        self.admitted = True
        context = self.context
        async with context.hub.subscribe(match_channel(self.match_id)) as inbox:
            context.presence.connect(self.match_id, self.player_id)
            try:
                if context.absence is not None:
                    await context.absence.seen(self.match_id, self.player_id)
                await context.presence.announce(context.hub, self.match_id)
                stood_in = await self._greet()
                if stood_in:
                    await self._take_seat_back()
                context.presence.enter(
                    self.match_id,
                    self.send_text,
                    hub=context.hub,
                    build=functools.partial(presence_frame, context),
                    interval=context.settings.presence_interval,
                )
                inbox.at_once = self._advance_at_once
                listener = asyncio.create_task(self._listen(inbox))
                try:
                    await self._receive_loop()
                finally:
                    inbox.at_once = None
                    listener.cancel()
                    with contextlib.suppress(BaseException):
                        await listener
                    del listener
            finally:
                context.presence.leave(self.match_id, self.send_text)
                context.presence.disconnect(self.match_id, self.player_id)
                await context.presence.announce(context.hub, self.match_id)
                if context.absence is not None and self.player_id not in (
                    context.presence.online_here(self.match_id)
                ):
                    await context.absence.left(self.match_id, self.player_id)

    async def _drain(self) -> None:
        # Let queued frames go out (the last error, say) before the writer stops.
        await self._drain_now()
        await self.writer.stop()

    async def _close(self, code: int, reason: str) -> None:
        if code != CLOSE_TOO_SLOW:
            await self._drain_now()  # the error frame saying why goes out first
        await self.writer.stop()
        # Neither waits on a client that does not read: its close frame goes behind what is
        # unsent (a stopping process must not wait SOCKET_CLOSE_TIMEOUT for it).
        if code in (CLOSE_TOO_SLOW, CLOSE_RESTART) and close_now(self.websocket, code, reason):
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.websocket.close(code=code, reason=reason),
                self.context.settings.socket_close_timeout,
            )

    async def _hello(self) -> bool:
        while True:
            try:
                message = await asyncio.wait_for(self._receive_json(), HELLO_TIMEOUT)
            except TimeoutError:
                self.error("bad_request", "Say hello first.")
                await self.websocket.close(code=4408, reason="no hello")
                return False
            if message is None:
                continue
            if message["type"] != "hello":
                self.error("bad_request", 'The first message must be {"type": "hello"}.')
                continue
            token = message.get("token")
            watch = message.get("watch")
            from_cookie = token is None and not self.cookie_refused
            if from_cookie:
                token = cookie_token(self.websocket)
            async with self.context.sessions() as session:
                match = await session.get(Match, self.match_id)
                if match is None:
                    self.error("not_found", "There is no such match.")
                    await self._drain_now()
                    await self.websocket.close(code=4404, reason="no such match")
                    return False
                player = None
                if token is not None:
                    if isinstance(token, str):
                        player = await player_for_token(session, token=token)
                    if player is None:
                        self.cookie_refused = self.cookie_refused or from_cookie
                        self.error(
                            "unauthorized",
                            "That token is not known here; you can still watch without one.",
                        )
                        continue
                allowed = lobby.may_watch(
                    match,
                    player_id=player.id if player else None,
                    watch=watch if isinstance(watch, str) else None,
                )
            if not allowed:
                self.error("forbidden", "This match is private: ask a player for the watch link.")
                continue
            if player is not None:
                self.player_id, self.player_name = player.id, player.name
            compact = message.get("compact")
            self.compact = compact if type(compact) is int and compact in (1, 2) else 0
            return True

    async def _take_seat_back(self) -> None:
        """A player a computer stood in for is back: her seat is hers again at once, everyone
        hears it, and she hears what the computer did meanwhile."""
        if self.player_id is None:
            return
        async with self.context.sessions() as session:
            back = await computers.come_back(
                session,
                match_id=self.match_id,
                player_id=self.player_id,
                name=self.player_name or "A player",
            )
            await session.commit()
        if back is None:
            return
        moves = (
            "no moves"
            if back.moves == 0
            else ("1 move" if back.moves == 1 else f"{back.moves} moves")
        )
        self.send(
            {
                "type": "welcome_back",
                "seat": back.seat,
                "moves": back.moves,
                "text": f"Welcome back! While you were away the computer made {moves} for you.",
            }
        )
        await self.context.notify(self.match_id, "seats", frame=back.told)

    async def _drain_now(self) -> None:
        with contextlib.suppress(Exception):
            await self.writer.wait_idle(1.0)

    async def _greet(self) -> bool:
        """Snapshot or lobby, then the chat history. True when, as the match's row says, a
        computer stands in for this player (the row, not this process's copy of the match:
        the stand-in may have been made through another process that this one never heard)."""
        async with self.context.sessions() as session:
            match = await lobby.get_match(session, match_id=self.match_id)
            self.seated = chat_channels.is_seated(match, self.player_id)
            stood_in = (
                match.status == "active"
                and self.player_id in match.seats
                and str(match.seats.index(self.player_id)) in (match.stand_ins or {})
            )
            chat = await chat_channels.history(
                session, self.match_id, chat_channels.readable(seated=self.seated)
            )
            status, started = match.status, match.started_at is not None
        if status == "open" or (status == "abandoned" and not started):
            await self._send_lobby()
        else:
            await self._snapshot()
            if status == "abandoned":  # ended by a player: the last position, and why it stopped
                await self._send_lobby()
        for item in chat:
            self.send(chat_channels.frame_of(item))
        return stood_in

    async def _receive_loop(self) -> None:
        handlers = {
            "move": self._on_move,
            "sync": self._on_sync,
            "chat": self._on_chat,
            "hello": self._on_hello_again,
        }
        while True:
            message = await self._receive_json()
            if message is None:
                continue
            if self.restarting:
                # Read after the drain began: not acted on; the client sends it again to
                # the process it reconnects to (a move by the same id is taken once).
                self.closing = (CLOSE_RESTART, "service restart")
                return
            self.busy = True
            handler = handlers.get(message["type"])
            if handler is None:
                self.error("bad_request", f"Unknown message type {message['type'][:40]!r}.")
            else:
                try:
                    await handler(message)
                except ArcadeError as exc:
                    self.error(
                        exc.code,
                        exc.message,
                        message.get("id") if isinstance(message.get("id"), str) else None,
                    )
                except WebSocketDisconnect:
                    raise
                except Exception:  # the handler must survive anything one message does
                    log.exception("socket message failed")
                    self.error(
                        "server_error", "Something went wrong on our side; nothing was changed."
                    )
            self.busy = False
            if self.restarting:
                # Answered (its ack is queued): now the close. Set, not hang_up(): this is
                # the conversation itself, which must not cancel its own clean-up.
                self.closing = (CLOSE_RESTART, "service restart")
                return

    async def _listen(self, inbox: Any) -> None:
        while True:
            notice = await inbox.get()
            kind = notice.get("kind")
            self.handling = True
            try:
                if kind == "version":
                    await self.advance_to(int(notice["version"]), notice.get("accepted"))
                elif kind == "lobby":
                    await self._send_lobby()
                elif kind == "ended":
                    # Other processes hold the match too: none of them may take another move.
                    await self.context.runtime.end(self.match_id)
                    await self._send_lobby(just_ended=True)
                elif kind == "started":
                    async with self.lock:
                        if self.sent_version is None:
                            await self._snapshot_locked()
                    self.context.presence.request(self.match_id)
                elif kind == "chat":
                    message = notice["message"]
                    if chat_channels.may_read(message.get("channel"), seated=self.seated):
                        self.send({"type": "chat", **message})
                elif kind == "rematch":
                    await self._send_rematch(str(notice["rematch_id"]))
                elif kind == "seats":
                    await self._seats_changed(notice)
                elif kind == "resync":
                    await self._resync()
            except Exception:
                log.exception("hub notice failed")
            finally:
                self.handling = False

    # --- outgoing state --------------------------------------------------------------------
    async def _live(self) -> LiveMatch | None:
        return await self.context.runtime.get(self.match_id)

    async def _snapshot(self) -> None:
        async with self.lock:
            await self._snapshot_locked()

    async def _snapshot_locked(self) -> None:
        live = await self._live()
        if live is None:
            return
        seat = live.seat_of(self.player_id)
        version = live.version
        self.send(
            {"type": "snapshot", "version": version, "state": live.viewer_state(version, seat)}
        )
        self.sent_version = version

    async def advance_to(self, version: int, accepted: dict[str, Any] | None = None) -> None:
        async with self.lock:
            if self.sent_version is None:
                await self._snapshot_locked()
                return
            if version <= self.sent_version:
                return
            live = await self._live()
            if live is None:
                return
            await self.context.runtime.ensure_version(live, version, accepted)
            if not self._has_patches(live, version):
                await self._snapshot_locked()  # too far behind for patches
                return
            self._send_patches(live, version)

    def _advance_at_once(self, notice: dict[str, Any]) -> bool:
        """A version notice acted on in the publisher's call (the hub's `Inbox.at_once`): the
        patches go out with no task switch when this process holds them and nothing else is
        being done for this connection. False leaves the notice to the listener, in order."""
        if (
            notice.get("kind") != "version"
            or self.handling
            or self.moving
            or self.lock.locked()
            or self.sent_version is None
        ):
            return False
        try:
            version = int(notice["version"])
            if version <= self.sent_version:
                return True
            live = self.context.runtime.cached_match(self.match_id)
            if live is None or live.version < version or not self._has_patches(live, version):
                return False  # another process made it, or a snapshot is due: the listener
            self._send_patches(live, version)
        except Exception:  # the publisher is another connection's move: never fail it
            log.exception("version notice failed")
            return False
        return True

    def _has_patches(self, live: LiveMatch, version: int) -> bool:
        assert self.sent_version is not None
        return all(live.has(v) for v in range(self.sent_version, version + 1))

    def _send_patches(self, live: LiveMatch, version: int) -> None:
        """The frames from the version after `sent_version` to `version` (all in `live`)."""
        assert self.sent_version is not None
        seat = live.seat_of(self.player_id)
        for v in range(self.sent_version + 1, version + 1):
            # compact 2: the versions right after a wait go out in full, the cheapest frames to
            # make (a dictionary begun for a few moves saves nothing; deflate shrinks them).
            if self.compact == 1 or (self.compact == 2 and not live.waited_before(v)):
                self.send(self._compact_frame(live, v, seat))
            else:
                self.send(
                    {
                        "type": "patch",
                        "version": v,
                        "ops": live.patch(v, seat),
                        "events": live.events_for(v, seat),
                    }
                )
            self.sent_version = v

    def _compact_frame(self, live: LiveMatch, version: int, seat: int | None) -> dict[str, Any]:
        if self.told is None:
            self.told = Told()
        return self.told.frame(live.compact_patch(version, seat))

    async def _send_lobby(self, *, just_ended: bool = False) -> None:
        async with self.context.sessions() as session:
            match = await lobby.get_match(session, match_id=self.match_id)
            names = await lobby.player_names(session, [match])
            online = (await self.context.presence.look(self.match_id)).online
            facts = await self.context.seat_facts(session, match, online=online)
        if not lobby.may_watch(match, player_id=self.player_id, watch=self.watch):
            # The match was made private: only its players and watch-link holders stay.
            self.error("forbidden", "This match is now private: ask a player for the watch link.")
            self.hang_up(CLOSE_FORBIDDEN, "match made private")
            return
        summary = lobby.summary(match, names=names, online=set(online), viewer=self.player_id)
        computers.describe_seats(summary, match, facts)
        message: dict[str, Any] = {"type": "lobby", "match": summary}
        if just_ended:  # said beside the summary too, for clients that read only messages
            message["ended_by"] = summary["ended_by"]
        self.send(message)
        await self._follow_seat(chat_channels.is_seated(match, self.player_id))

    async def _seats_changed(self, notice: dict[str, Any]) -> None:
        """A computer took over a seat, gave it back, or a win was claimed: this process's
        copy of the match follows, and the page hears what happened."""
        async with self.context.sessions() as session:
            match = await lobby.get_match(session, match_id=self.match_id)
        runtime = self.context.runtime
        runtime.set_stand_ins(self.match_id, stand_ins_of(match.stand_ins))
        if match.status == "finished" and match.outcome and notice.get("claimed"):
            await runtime.claim(self.match_id, Outcome.from_json(match.outcome))
            await self._snapshot()
        frame = notice.get("frame")
        if isinstance(frame, dict):
            self.send(frame)
        self.context.presence.request(self.match_id)

    async def _resync(self) -> None:
        """The hub was cut off from the other processes (Redis was away) and is back: what
        their notices said meanwhile is read again from the database. Missed versions go out
        by the version notice's own path (patches while this process still holds them, else
        a snapshot); an end or a claimed win this process did not hear of is applied; and a
        fresh lobby summary says how the seats stand now (presence refreshes itself: its
        own channel gets the same notice)."""
        async with self.context.sessions() as session:
            match = await lobby.get_match(session, match_id=self.match_id)
        runtime = self.context.runtime
        runtime.set_stand_ins(self.match_id, stand_ins_of(match.stand_ins))
        await self.advance_to(match.version)
        ended = match.status == "abandoned" and match.started_at is not None
        live = runtime.cached_match(self.match_id)
        if live is not None and live.status == "active":
            if ended:
                await runtime.end(self.match_id)
            elif match.status == "finished" and match.outcome:
                await runtime.claim(self.match_id, Outcome.from_json(match.outcome))
                await self._snapshot()
        await self._send_lobby(just_ended=ended)

    async def _follow_seat(self, seated: bool) -> None:
        """A watcher who took a seat now reads the players' channel: its recent talk too."""
        was_seated, self.seated = self.seated, seated
        if seated and not was_seated:
            async with self.context.sessions() as session:
                chat = await chat_channels.history(session, self.match_id, (chat_channels.PLAYERS,))
            for item in chat:
                self.send(chat_channels.frame_of(item))

    async def _send_rematch(self, match_id: str) -> None:
        async with self.context.sessions() as session:
            match = await lobby.get_match(session, match_id=match_id)
            names = await lobby.player_names(session, [match])
            online = (await self.context.presence.look(match_id)).online
            facts = await self.context.seat_facts(session, match, online=online)
        summary = lobby.summary(match, names=names, online=set(online), viewer=self.player_id)
        computers.describe_seats(summary, match, facts)
        self.send({"type": "rematch", "match": summary})

    # --- incoming messages -----------------------------------------------------------------
    async def _on_move(self, message: dict[str, Any]) -> None:
        move_id = message.get("id")
        if not isinstance(move_id, str) or not 1 <= len(move_id) <= 64:
            raise ArcadeError("bad_request", "A move needs an id: a string of 1 to 64 characters.")
        if self.player_id is None:
            raise ArcadeError("forbidden", "Spectators cannot move; take a seat to play.")
        version = message.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise ArcadeError("bad_request", "version must be an integer.")
        if "move" not in message:
            raise ArcadeError("bad_request", 'A move message needs a "move".')
        # The others' patches go out in the announcement's call; the mover's is sent here,
        # after theirs (the latency that matters is the move reaching the others).
        self.moving = True
        try:
            new_version = await self.context.runtime.submit(
                self.match_id,
                player_id=self.player_id,
                raw_move=message["move"],
                client_id=move_id,
                version=version,
            )
        finally:
            self.moving = False
        with self.writer.together():
            await self.advance_to(new_version)  # the mover's patch goes out before its ack
            self.send({"type": "ack", "id": move_id, "version": new_version})

    async def _on_sync(self, _message: dict[str, Any]) -> None:
        if not await self._within_limits(
            ("syncs_per_connection", "syncs", self.connection_key),
            ("syncs_per_player", "syncs-player", self.player_id),
            message="Too many full refreshes.",
            asked=_message,
        ):
            return
        live = await self._live()
        if live is None:
            await self._send_lobby()
            return
        await self.context.runtime.ensure_version(live, live.version)
        await self._snapshot()

    async def _on_chat(self, message: dict[str, Any]) -> None:
        seated = False  # a connection without a guest holds no seat: no database read
        if self.player_id is not None:
            async with self.context.sessions() as session:
                match = await lobby.get_match(session, match_id=self.match_id)
            seated = chat_channels.is_seated(match, self.player_id)
        channel = chat_channels.channel_to_write(
            message.get("channel"), seated=seated, named=self.player_name is not None
        )
        text = message.get("text")
        if not isinstance(text, str):
            raise ArcadeError("bad_request", "A chat message needs some text.")
        text = clean_chat(text, max_chars=self.context.settings.max_chat_chars)
        if not await self._within_limits(
            ("chat_per_player", "chat", self.player_id or self._address()),
            message="Slow down: too many chat messages.",
            asked=message,
        ):
            return
        live = await self._live()
        seat = live.seat_of(self.player_id) if live is not None else None
        name = self.player_name
        assert name is not None  # channel_to_write refuses the nameless
        at = datetime.now(UTC)
        async with self.context.sessions() as session:
            session.add(
                ChatMessage(
                    match_id=self.match_id,
                    player_id=self.player_id,
                    seat=seat,
                    channel=channel,
                    name=name,
                    text=text,
                    created_at=at,
                )
            )
            await session.commit()
        chat = chat_channels.frame(seat=seat, name=name, text=text, at=at, channel=channel)
        await self.context.notify(self.match_id, "chat", message=chat)

    def _address(self) -> str:
        client = self.websocket.client
        return client.host if client else "unknown"

    async def _within_limits(
        self, *doors: tuple[str, str, str | None], message: str, asked: dict[str, Any]
    ) -> bool:
        """Each door is (setting, name, key); a None key (no player) is not counted. Past a
        limit: an error frame (with the `id` of the message `asked`, like every error) that
        says in how many seconds to try again, and False."""
        limits = limits_of(self.websocket.app)
        for setting, door, key in doors:
            if key is None:
                continue
            refused = await limits.refusal(getattr(limits.settings, setting), door, key, message)
            if refused is not None:
                frame: dict[str, Any] = {"type": "error", **refused.to_json()}
                if isinstance(asked.get("id"), str):
                    frame["id"] = asked["id"]
                self.send(frame)
                return False
        return True

    async def _on_hello_again(self, _message: dict[str, Any]) -> None:
        raise ArcadeError("bad_request", "You already said hello on this connection.")
