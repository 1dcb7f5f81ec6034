"""Rate limits on every door: who may do what how often, per client address and per player.

Moving windows from the `limits` library: counted in this process, or in Redis when
`REDIS_URL` is set so that every process behind the same Redis shares the counts (in this
process again while Redis is out of reach). Each limit is a setting in `limits` notation
("20/minute;200/hour"); a refusal says when to try again.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio import ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from app.api.deps import CurrentPlayer
from app.config import Settings
from app.db.models import Player
from app.errors import RateLimited

log = logging.getLogger(__name__)


class RateLimits:
    """The counts of every door. With Redis they are shared by every process; while Redis is
    out of reach each process counts alone, in memory (a limit is then per process: looser,
    never a server error), and it goes back to Redis once Redis answers again."""

    REDIS_TIMEOUT = 1.0  # seconds a count in Redis may take before Redis counts as away
    RETRY_AFTER = 1.0
    """Seconds after a failure during which Redis is not asked (the counts stay in memory):
    an outage must not cost every request a connect timeout."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._parsed: dict[str, list[RateLimitItem]] = {}
        # Our own pool, so that the server's shutdown closes its connections.
        self._redis_pool: ConnectionPool | None = None
        self.local = MovingWindowRateLimiter(MemoryStorage())
        self.shared: MovingWindowRateLimiter | None = None
        self._shared_down_until = 0.0
        self._shared_failed = False  # logged once per outage
        if settings.redis_url is not None:
            self._redis_pool = ConnectionPool.from_url(
                settings.redis_url,
                socket_timeout=self.REDIS_TIMEOUT,
                socket_connect_timeout=self.REDIS_TIMEOUT,
                # Once, at once, on a broken connection: a pooled one that a restarted Redis
                # closed. Never on a timeout, which would make a request wait twice as long.
                retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
            )
            storage: Storage = RedisStorage(
                "async+" + settings.redis_url,
                implementation="redispy",
                key_prefix=settings.rate_limit_key_prefix,
                # limits hands its options to redis-py, which takes a pool (typed too narrowly)
                connection_pool=self._redis_pool,  # type: ignore[arg-type]
            )
            self.shared = MovingWindowRateLimiter(storage)

    @property
    def limiter(self) -> MovingWindowRateLimiter:
        """Where passages are counted now: Redis, unless it failed a moment ago."""
        if self.shared is not None and time.monotonic() >= self._shared_down_until:
            return self.shared
        return self.local

    async def close(self) -> None:
        if self._redis_pool is not None:
            await self._redis_pool.disconnect()

    def _items(self, rule: str) -> list[RateLimitItem]:
        items = self._parsed.get(rule)
        if items is None:
            items = self._parsed[rule] = parse_many(rule)
        return items

    async def refusal(self, rule: str, door: str, key: str, message: str) -> RateLimited | None:
        """Counts one passage through `door` for `key`; a refusal if `rule` is exceeded.
        Should the shared counts be out of reach (Redis down), this process counts alone
        until they are back: players keep playing, and a script hammering a door is still
        refused by each process it reaches."""
        limiter = self.limiter
        try:
            return await self._count(limiter, rule, door, key, message)
        except Exception as exc:
            if limiter is self.local:  # never expected: memory does not fail
                log.warning("rate limit %s not counted", door, exc_info=True)
                return None
            self._shared_down_until = time.monotonic() + self.RETRY_AFTER
            if not self._shared_failed:
                self._shared_failed = True
                log.warning(
                    "rate limits: Redis unreachable (%s); each process counts alone until it "
                    "is back",
                    exc,
                )
        return await self.refusal(rule, door, key, message)

    async def _count(
        self, limiter: MovingWindowRateLimiter, rule: str, door: str, key: str, message: str
    ) -> RateLimited | None:
        for item in self._items(rule):
            if not await limiter.hit(item, door, key):
                stats = await limiter.get_window_stats(item, door, key)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                return RateLimited(f"{message} Try again in {_seconds(wait)}.", wait)
        if limiter is self.shared and self._shared_failed:
            self._shared_failed = False
            log.warning("rate limits: Redis answers again; the counts are shared again")
        return None

    async def check(self, rule: str, door: str, key: str, message: str) -> None:
        refused = await self.refusal(rule, door, key, message)
        if refused is not None:
            raise refused


def _seconds(wait: int) -> str:
    if wait < 120:
        return f"{wait} second{'s' if wait != 1 else ''}"
    return f"{math.ceil(wait / 60)} minutes"


def install(app: FastAPI, settings: Settings) -> None:
    """The app's limits (closed after the app's own lifespan), and refusals answered as HTTP
    429 with a Retry-After header."""
    limits = app.state.rate_limits = RateLimits(settings)
    lifespan = app.router.lifespan_context

    @asynccontextmanager
    async def closing_limits(app: FastAPI) -> AsyncIterator[Any]:
        try:
            async with lifespan(app) as state:
                yield state
        finally:
            await limits.close()

    app.router.lifespan_context = closing_limits

    @app.exception_handler(RateLimited)
    async def _rate_limited(_request: Request, exc: RateLimited) -> JSONResponse:
        return JSONResponse(
            exc.to_json(), status_code=429, headers={"Retry-After": str(exc.retry_after)}
        )


def limits_of(app: Any) -> RateLimits:
    limits: RateLimits = app.state.rate_limits
    return limits


def client_address(request: Request) -> str:
    # uvicorn puts the forwarded address here when the proxy is trusted (--forwarded-allow-ips).
    return request.client.host if request.client else "unknown"


# --- the doors, as route dependencies ---------------------------------------------------------


@dataclass(frozen=True)
class Door:
    """One limit on a route: the setting holding its rule, the name its counts go under,
    whose passages it counts (the client's address, or the signed-in player), and the
    sentence a refusal starts with."""

    setting: str
    name: str
    per: Literal["address", "player"]
    message: str


def _guarded(*doors: Door) -> Callable[..., Awaitable[None]]:
    """A route dependency that counts one passage through each door, in order."""

    async def check(request: Request, player: Player | None) -> None:
        limits = limits_of(request.app)
        for door in doors:
            key = player.id if door.per == "player" and player else client_address(request)
            await limits.check(getattr(limits.settings, door.setting), door.name, key, door.message)

    if any(door.per == "player" for door in doors):

        async def by_player(request: Request, player: CurrentPlayer) -> None:
            await check(request, player)

        return by_player

    async def by_address(request: Request) -> None:
        await check(request, None)

    return by_address


_TABLE_CHANGES = "Slow down: too many changes to tables."
limit_guest_creation = _guarded(
    Door(
        "guests_per_address", "guests", "address", "Too many guests were created from your address."
    )
)
limit_lobby_creation = _guarded(
    Door("lobbies_per_player", "lobbies", "player", "You are opening tables too fast."),
    Door(
        "lobbies_per_address",
        "lobbies-address",
        "address",
        "Too many tables were opened from your address.",
    ),
)
limit_lobby_writes = _guarded(
    Door("lobby_writes_per_player", "lobby-writes", "player", _TABLE_CHANGES),
    Door("lobby_writes_per_address", "lobby-writes-address", "address", _TABLE_CHANGES),
)
limit_http_moves = _guarded(
    Door("http_moves_per_player", "moves", "player", "Slow down: too many moves.")
)
# Logs, replays and replay frames: each read rebuilds or reads a whole match.
limit_record_reads = _guarded(
    Door(
        "record_reads_per_address",
        "records",
        "address",
        "Too many match records were read from your address.",
    )
)
limit_list_reads = _guarded(
    Door(
        "list_reads_per_address",
        "lists",
        "address",
        "Too many lists of matches were read from your address.",
    )
)
limit_turn_reads = _guarded(
    Door(
        "turn_reads_per_player",
        "turns",
        "player",
        "Too many looks at the matches waiting for you.",
    )
)
limit_device_links = _guarded(
    Door("device_links_per_player", "device-links", "player", "Too many device links made.")
)
limit_device_claims = _guarded(
    Door(
        "device_claims_per_address",
        "device-claims",
        "address",
        "Too many device links were tried from your address.",
    )
)
limit_push_changes = _guarded(
    Door(
        "push_changes_per_player",
        "push",
        "player",
        "Too many changes to your notifications.",
    )
)
limit_push_key_reads = _guarded(
    Door(
        "push_key_reads_per_address",
        "push-key",
        "address",
        "Too many looks at the push key from your address.",
    )
)
# Verifying a record re-runs a whole match through the rules.
limit_verifications = _guarded(
    Door(
        "verifications_per_address",
        "verify",
        "address",
        "Too many records were verified from your address.",
    )
)

_PASSKEYS = "Too many passkey requests"
limit_passkeys_of_guests = _guarded(
    Door("passkeys_per_player", "passkeys", "player", _PASSKEYS + "."),
    Door("passkeys_per_address", "passkeys-address", "address", _PASSKEYS + " from your address."),
)
limit_passkey_sign_ins = _guarded(
    Door("passkeys_per_address", "passkeys-address", "address", _PASSKEYS + " from your address.")
)


GuestCreationLimit = Annotated[None, Depends(limit_guest_creation)]
LobbyCreationLimit = Annotated[None, Depends(limit_lobby_creation)]
LobbyWriteLimit = Annotated[None, Depends(limit_lobby_writes)]
HttpMoveLimit = Annotated[None, Depends(limit_http_moves)]
ListReadLimit = Annotated[None, Depends(limit_list_reads)]
TurnReadLimit = Annotated[None, Depends(limit_turn_reads)]
DeviceLinkLimit = Annotated[None, Depends(limit_device_links)]
DeviceClaimLimit = Annotated[None, Depends(limit_device_claims)]
PushChangeLimit = Annotated[None, Depends(limit_push_changes)]
PushKeyReadLimit = Annotated[None, Depends(limit_push_key_reads)]
RecordReadLimit = Annotated[None, Depends(limit_record_reads)]
VerificationLimit = Annotated[None, Depends(limit_verifications)]
PasskeyLimit = Annotated[None, Depends(limit_passkeys_of_guests)]
PasskeySignInLimit = Annotated[None, Depends(limit_passkey_sign_ins)]
