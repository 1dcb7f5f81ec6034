"""Web Push (docs/protocol.md, section 17): the server's VAPID key, players' subscriptions,
and the notifier that tells people it is their turn, or that their match ended, in a closed
browser.

Sending is pywebpush's (the payload encrypted as aes128gcm with the subscription's keys, the
request signed with our VAPID key). It blocks, so it runs in threads, fed by a bounded queue
and a few workers: a move never waits for a push service, and a push that fails is logged and
forgotten, never raised into the move's path. A push service answering 404 or 410 says the
subscription is gone: it is deleted.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Match, PushKey, PushSubscription
from app.engine.contract import Outcome, State
from app.engine.runtime import LiveMatch
from app.errors import ArcadeError
from app.realtime.hub import Hub

log = logging.getLogger(__name__)

KEY_NAME = "vapid"
MAX_SUBSCRIPTIONS = 10
"""Subscriptions kept per player (her browsers and devices); a new one drops the oldest."""
TTL_SECONDS = 24 * 60 * 60
"""How long a push service keeps a notice for a browser that is offline."""
GONE = frozenset({404, 410})


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# --- the VAPID key ----------------------------------------------------------------------------


def new_private_key() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


@dataclass(frozen=True)
class VapidKey:
    vapid: Vapid02
    public_key: str
    """The uncompressed P-256 point, unpadded base64url: a browser's applicationServerKey."""

    @classmethod
    def from_private(cls, private_key: str) -> VapidKey:
        try:
            vapid = Vapid02.from_string(private_key)
        except Exception as exc:
            raise ValueError("VAPID_PRIVATE_KEY is not a P-256 private key") from exc
        point = vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return cls(vapid=vapid, public_key=b64url(point))


async def load_vapid_key(
    sessions: async_sessionmaker[AsyncSession], settings: Settings
) -> VapidKey:
    """The setting's key if there is one, else the database's, made on first need (two
    processes starting at once agree: the second insert fails and reads the first's)."""
    if settings.vapid_private_key:
        return VapidKey.from_private(settings.vapid_private_key)
    for _attempt in range(3):
        async with sessions() as session:
            stored = await session.scalar(
                select(PushKey.private_key).where(PushKey.name == KEY_NAME)
            )
            if stored is not None:
                return VapidKey.from_private(stored)
            session.add(PushKey(name=KEY_NAME, private_key=new_private_key()))
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()
    raise RuntimeError("no VAPID key could be stored or read")


# --- subscriptions ----------------------------------------------------------------------------


PUSH_SERVICES = (
    "fcm.googleapis.com",  # Chrome, Edge, Opera, Samsung Internet
    "android.googleapis.com",
    "push.services.mozilla.com",  # Firefox (updates.push.services.mozilla.com)
    "notify.windows.com",  # Edge's Windows push service (wns2-*.notify.windows.com)
    "push.apple.com",  # Safari (web.push.apple.com)
)
"""The push services browsers use (a host or a subdomain of one). The server posts to the
endpoint a browser hands it, so any other host is refused: a client cannot make this server
send requests to an address of its choosing (an internal one, say)."""


def _push_service(host: str, services: tuple[str, ...]) -> bool:
    return any(host == service or host.endswith("." + service) for service in services)


def check_subscription(
    endpoint: str,
    p256dh: str,
    auth: str,
    *,
    allow_local: bool,
    services: tuple[str, ...] = PUSH_SERVICES,
) -> None:
    """Refuses (bad_request) an endpoint that is not https on a known push service (or, when
    allowed, http to 127.0.0.1) or keys that are not a P-256 point and a 16-byte secret."""
    parts = urlsplit(endpoint)
    local = allow_local and parts.scheme == "http" and parts.hostname == "127.0.0.1"
    if not (parts.scheme == "https" and parts.hostname) and not local:
        raise ArcadeError("bad_request", "A push endpoint must be an https address.")
    if not local and not _push_service((parts.hostname or "").lower(), services):
        raise ArcadeError("bad_request", "A push endpoint must be on a browser's push service.")
    if parts.username or parts.password:
        raise ArcadeError("bad_request", "A push endpoint may not carry a user name.")
    try:
        point, secret = b64url_decode(p256dh), b64url_decode(auth)
    except (binascii.Error, ValueError):
        raise ArcadeError("bad_request", "The subscription's keys are not base64url.") from None
    if len(point) != 65 or point[0] != 4:
        raise ArcadeError("bad_request", "keys.p256dh must be an uncompressed P-256 point.")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ArcadeError("bad_request", "keys.p256dh is not a point of P-256.") from None
    if len(secret) != 16:
        raise ArcadeError("bad_request", "keys.auth must be a 16-byte secret.")


async def subscribe(
    session: AsyncSession, player_id: str, endpoint: str, p256dh: str, auth: str
) -> None:
    """Keeps the subscription for this player (an endpoint seen before moves to her, with
    its new keys); beyond MAX_SUBSCRIPTIONS her oldest are dropped."""
    for _attempt in range(3):
        row = await session.scalar(
            select(PushSubscription).where(PushSubscription.endpoint == endpoint)
        )
        if row is None:
            session.add(
                PushSubscription(player_id=player_id, endpoint=endpoint, p256dh=p256dh, auth=auth)
            )
        else:
            row.player_id, row.p256dh, row.auth = player_id, p256dh, auth
        try:
            await session.flush()
            break
        except IntegrityError:  # the same browser subscribing twice at once
            await session.rollback()
    else:
        raise ArcadeError("conflict", "This subscription is being changed; try again.")
    ids = (
        await session.scalars(
            select(PushSubscription.id)
            .where(PushSubscription.player_id == player_id)
            .order_by(PushSubscription.created_at.desc(), PushSubscription.id.desc())
        )
    ).all()
    if len(ids) > MAX_SUBSCRIPTIONS:
        await session.execute(
            delete(PushSubscription).where(PushSubscription.id.in_(ids[MAX_SUBSCRIPTIONS:]))
        )
    await session.commit()


async def unsubscribe(session: AsyncSession, player_id: str, endpoint: str) -> None:
    await session.execute(
        delete(PushSubscription).where(
            PushSubscription.endpoint == endpoint, PushSubscription.player_id == player_id
        )
    )
    await session.commit()


# --- what a move tells whom -------------------------------------------------------------------


def in_words(names: list[str]) -> str:
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True)
class Notice:
    match_id: str
    player_id: str
    payload: dict[str, str]


def _people(live: LiveMatch) -> list[int]:
    """Seats of people (a computer may be standing in for one of them now)."""
    return [s for s in range(len(live.players)) if s not in live.bots]


def _others(live: LiveMatch, me: int) -> str:
    return in_words([name for s, name in enumerate(live.names) if s != me])


def notices_after_move(
    live: LiveMatch, seat: int, before: State, after: State, outcome: Outcome | None
) -> list[Notice]:
    """A move just accepted: "Your turn" for each seated person whose turn it has just become
    (not the mover, not a computer, not someone a computer stands in for), or, when it ended
    the match, "Your match ended" for every seated person."""
    computers = live.computers()
    people = _people(live)
    url, tag = f"/match/{live.id}", f"match-{live.id}"
    title = live.game.title

    def others(me: int) -> str:
        return _others(live, me)

    if outcome is not None:
        winners = list(outcome.winners)
        notices = []
        for me in people:
            if not winners:
                result = "No one won."
            elif me in winners:
                rest = [live.names[w] for w in winners if w != me]
                result = "You won." if not rest else f"You won with {in_words(rest)}."
            else:
                result = f"{in_words([live.names[w] for w in winners])} won."
            reason = f" {outcome.reason}" if outcome.reason else ""
            notices.append(
                Notice(
                    live.id,
                    live.players[me],
                    {
                        "title": "Your match ended",
                        "body": f"{title} with {others(me)}: {result}{reason}",
                        "url": url,
                        "tag": tag,
                    },
                )
            )
        return notices
    now = live.game.active_seats(after)
    was = live.game.active_seats(before)
    mover = live.names[seat] if 0 <= seat < len(live.names) else "?"
    return [
        Notice(
            live.id,
            live.players[me],
            {
                "title": f"Your turn in {title} with {others(me)}",
                "body": f"{mover} moved; the match waits for you.",
                "url": url,
                "tag": tag,
            },
        )
        for me in sorted(now)
        if me in people and me not in computers and me not in was and me != seat
    ]


def notices_at_start(live: LiveMatch, starter_id: str) -> list[Notice]:
    """The match just started: "Your match started" for every seated person but the one who
    started it, saying whether she is to move first."""
    active = sorted(live.game.active_seats(live.state))
    first = in_words([live.names[s] for s in active])
    verb = "moves" if len(active) == 1 else "move"
    return [
        Notice(
            live.id,
            live.players[me],
            {
                "title": "Your match started",
                "body": f"{live.game.title} with {_others(live, me)}: "
                + ("it is your turn." if me in active else f"{first} {verb} first."),
                "url": f"/match/{live.id}",
                "tag": f"match-{live.id}",
            },
        )
        for me in _people(live)
        if live.players[me] != starter_id
    ]


def notices_when_stopped(live: LiveMatch, actor_id: str, what: str) -> list[Notice]:
    """A player ended the match or claimed the win (`what` says which, in a sentence):
    "Your match ended" for every other seated person."""
    return [
        Notice(
            live.id,
            live.players[me],
            {
                "title": "Your match ended",
                "body": f"{live.game.title} with {_others(live, me)}: {what}",
                "url": f"/match/{live.id}",
                "tag": f"match-{live.id}",
            },
        )
        for me in _people(live)
        if live.players[me] != actor_id
    ]


# --- sending ----------------------------------------------------------------------------------


def send_push(
    subscription: dict[str, Any],
    payload: dict[str, str],
    key: VapidKey,
    subject: str,
    timeout: float,
) -> int:
    """One push, blocking; the push service's status (0: it could not be reached)."""
    try:
        response = webpush(
            subscription,
            json.dumps(payload, separators=(",", ":")),
            vapid_private_key=key.vapid,
            vapid_claims={"sub": subject},  # a new dict each time: webpush adds aud and exp
            content_encoding="aes128gcm",
            ttl=TTL_SECONDS,
            timeout=timeout,
        )
    except WebPushException as exc:
        return int(exc.response.status_code) if exc.response is not None else 0
    except Exception:
        log.warning("push to %s failed", urlsplit(subscription["endpoint"]).hostname, exc_info=True)
        return 0
    return int(getattr(response, "status_code", 0))


SUBSCRIBERS_CHANNEL = "push:subscribers"
"""Hub channel on which a process says a player has just subscribed (every process then
pushes to her), and on which a `resync` makes each process read the list again."""
SUBSCRIBERS_REFRESH = 60.0
"""Seconds between re-readings of who has a subscription (drops those who have none left)."""
DROPS_LOGGED_EVERY = 60.0  # seconds: a full queue is logged once in this time, with a count


class PushNotifier:
    """MatchRuntime.after_move's notifier: notices go into a bounded queue (dropped, and
    logged, when it is full), a few workers send them off the event loop.

    Only notices to players with a subscription are queued: the notifier knows who has one
    (read at start and every SUBSCRIBERS_REFRESH, and told at once by every process when a
    player subscribes), so the moves of people who never asked for pushes cost nothing here.
    """

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        key: VapidKey,
        settings: Settings,
        hub: Hub | None = None,
    ) -> None:
        self.sessions = sessions
        self.key = key
        self.subject = settings.vapid_subject
        self.timeout = settings.push_timeout
        self.workers = settings.push_workers
        self.queue: asyncio.Queue[Notice] = asyncio.Queue(maxsize=settings.push_queue)
        self.hub = hub
        self.subscribers: set[str] | None = None
        """Players with a subscription; None until read (then every notice is queued)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._dropped = 0
        self._dropped_told_at = float("-inf")

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._work()) for _ in range(self.workers)]
        self._tasks.append(asyncio.create_task(self._follow_subscribers()))

    async def subscribed(self, player_id: str) -> None:
        """She has just subscribed here: every process pushes to her from now on."""
        if self.subscribers is not None:
            self.subscribers.add(player_id)
        if self.hub is not None:
            await self.hub.publish(SUBSCRIBERS_CHANNEL, {"kind": "subscribed", "player": player_id})

    async def _read_subscribers(self) -> None:
        try:
            async with self.sessions() as session:
                ids = await session.scalars(select(PushSubscription.player_id).distinct())
                self.subscribers = set(ids)
        except Exception:
            log.exception("could not read who has push subscriptions")

    async def _follow_subscribers(self) -> None:
        if self.hub is None:
            while True:
                await self._read_subscribers()
                await asyncio.sleep(SUBSCRIBERS_REFRESH)
        loop = asyncio.get_running_loop()
        async with self.hub.subscribe(SUBSCRIBERS_CHANNEL) as inbox:
            await self._read_subscribers()  # after subscribing: no "subscribed" falls between
            read_at = loop.time()
            while True:
                wait = read_at + SUBSCRIBERS_REFRESH - loop.time()
                try:
                    told = await asyncio.wait_for(inbox.get(), timeout=max(0.0, wait))
                except TimeoutError:
                    told = {"kind": "resync"}
                if told.get("kind") == "subscribed" and self.subscribers is not None:
                    self.subscribers.add(str(told.get("player")))
                elif told.get("kind") != "subscribed":
                    await self._read_subscribers()
                    read_at = loop.time()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    def after_move(
        self, live: LiveMatch, seat: int, before: State, after: State, outcome: Outcome | None
    ) -> None:
        if live.script is not None:
            return  # a lesson: its learner is on its page
        if self.subscribers is not None and self.subscribers.isdisjoint(live.players):
            return  # nobody here to tell: most moves, so the notices are not even written
        self.tell(notices_after_move(live, seat, before, after, outcome))

    def tell(self, notices: list[Notice]) -> None:
        """Queues the notices to players with a subscription for the workers; when the queue
        is full they are dropped (logged once a minute at most, with how many)."""
        for notice in notices:
            if self.subscribers is not None and notice.player_id not in self.subscribers:
                continue
            try:
                self.queue.put_nowait(notice)
            except asyncio.QueueFull:
                self._dropped += 1
                now = time.monotonic()
                if now - self._dropped_told_at >= DROPS_LOGGED_EVERY:
                    log.warning("push queue full: %d notices dropped", self._dropped)
                    self._dropped, self._dropped_told_at = 0, now

    def invited(self, match_id: str, game_title: str, host: str, player_ids: list[str]) -> None:
        """The notice "<host> invited you" to each friend invited to the lobby `match_id`."""
        self.tell(
            [
                Notice(
                    match_id=match_id,
                    player_id=player_id,
                    payload={
                        "title": f"{host} invited you",
                        "body": f"A table of {game_title} is waiting for you.",
                        "url": f"/match/{match_id}",
                        "tag": f"invite-{match_id}",
                    },
                )
                for player_id in player_ids
            ]
        )

    async def _work(self) -> None:
        while True:
            notice = await self.queue.get()
            try:
                await self._deliver(notice)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a push notice for match %s failed", notice.match_id)
            finally:
                self.queue.task_done()

    async def _deliver(self, notice: Notice) -> None:
        async with self.sessions() as session:
            tutorial = await session.scalar(
                select(Match.tutorial).where(Match.id == notice.match_id)
            )
            if tutorial is not None:
                return
            rows = (
                await session.execute(
                    select(
                        PushSubscription.endpoint, PushSubscription.p256dh, PushSubscription.auth
                    ).where(PushSubscription.player_id == notice.player_id)
                )
            ).all()
        gone = []
        for endpoint, p256dh, auth in rows:
            subscription = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
            status = await asyncio.to_thread(
                send_push, subscription, notice.payload, self.key, self.subject, self.timeout
            )
            if status in GONE:
                gone.append(endpoint)
            elif not 200 <= status < 300:
                log.warning(
                    "push service %s answered %s", urlsplit(endpoint).hostname, status or "nothing"
                )
        if gone:
            async with self.sessions() as session:
                await session.execute(
                    delete(PushSubscription).where(PushSubscription.endpoint.in_(gone))
                )
                await session.commit()
