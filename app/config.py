"""Settings from the environment, validated once at start-up."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from limits import parse_many
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def to_async_url(url: str) -> str:
    """Accept the URLs people paste (postgres://, sqlite:///, ...); pick our async driver."""
    for prefix in ("postgres://", "postgresql://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
    return url


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./arcade.db"
    # PostgreSQL connections one process keeps, and how many more it may open at a peak:
    # with N processes, N x (pool + overflow) must stay under the server's max_connections.
    db_pool_size: int = Field(default=20, ge=1, le=500)
    db_max_overflow: int = Field(default=10, ge=0, le=500)
    redis_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    max_frame_bytes: int = 64 * 1024
    max_chat_chars: int = 500
    # Rate limits, in `limits` notation ("count/period", several joined by ";"): moving
    # windows per client address or per player, shared through Redis when REDIS_URL is set.
    # The defaults leave a friend at a party room to play; a script hammering a door waits.
    guests_per_address: str = "20/minute;200/day"
    lobbies_per_player: str = "6/minute;60/hour"
    lobbies_per_address: str = "30/minute;300/hour"
    max_open_lobbies_per_player: int = Field(
        default=5, ge=1, description="open lobbies one player may host at a time"
    )
    # POST /api/replays/verify: records are untrusted, so their cost is bounded.
    verify_max_bytes: int = Field(default=8 * 1024 * 1024, description="largest record body")
    verify_max_moves: int = Field(default=10_000, description="most moves in a record")
    verify_seconds: float = Field(default=20.0, description="time budget of one check")
    lobby_writes_per_player: str = "30/minute;600/hour"
    lobby_writes_per_address: str = "120/minute"
    http_moves_per_player: str = "10/second;300/minute"
    record_reads_per_address: str = "60/minute"
    # Every open lobby page polls the list every 3 s: room for a houseful behind one address.
    list_reads_per_address: str = "600/minute"
    verifications_per_address: str = "10/minute"
    syncs_per_connection: str = "10/minute"
    syncs_per_player: str = "30/minute"
    chat_per_player: str = "30/minute"
    # Every open page of a player asks for her waiting matches every 30 s while it is seen.
    turn_reads_per_player: str = "30/minute;1000/hour"
    # "Continue on another device": links made, and claims tried from one address.
    device_links_per_player: str = "10/hour"
    device_claims_per_address: str = "20/minute"
    # Subscribing a browser to Web Push, or unsubscribing it (docs/protocol.md, section 17).
    push_changes_per_player: str = "10/minute;100/day"
    push_key_reads_per_address: str = "60/minute"
    # Passkeys (docs/protocol.md section 18): options, registrations, sign-ins, lists.
    passkeys_per_player: str = "20/minute;200/day"
    passkeys_per_address: str = "30/minute;500/day"
    rate_limit_key_prefix: str = "arcade-limits"
    # Stale tables. An open lobby nobody joins, leaves, changes or starts for this long
    # closes (abandoned, reason "expired"); a sweeper looks for such lobbies every
    # `lobby_sweep_seconds` in every server process. A match in progress with no move for
    # `idle_match_minutes` is listed apart, as idle.
    open_lobby_ttl_minutes: float = Field(
        default=30.0, gt=0, description="minutes an untouched open lobby stays open"
    )
    lobby_sweep_seconds: float = Field(
        default=60.0, gt=0, description="seconds between two looks for expired lobbies"
    )
    idle_match_minutes: float = Field(
        default=60.0, gt=0, description="minutes without a move after which a match is idle"
    )
    # Lists of matches count at most this many (the `count` of a page, reported as capped).
    list_count_cap: int = Field(default=1000, ge=1)
    # A connection whose client does not read is dropped (close code 4500, the client resyncs)
    # once this much waits for it, or once one frame waits this long.
    socket_outbox_frames: int = Field(
        default=512, description="frames that may wait for one connection"
    )
    socket_outbox_bytes: int = Field(
        default=512 * 1024, description="characters of frames that may wait for one connection"
    )
    socket_send_timeout: float = Field(
        default=15.0, description="seconds one frame may wait for a client that does not read"
    )
    socket_close_timeout: float = Field(
        default=60.0,
        description="seconds a close frame may wait behind what a client has not read yet",
    )
    presence_interval: float = Field(
        default=0.5, description="at least this many seconds between two presence frames"
    )
    # Presence across processes (REDIS_URL set): each process's share expires this long after
    # its last heartbeat (one every third of it), so a dead process's players show offline
    # within that many seconds.
    presence_ttl_seconds: float = Field(
        default=9.0,
        ge=0.3,
        le=3600,
        description="seconds a process's share of presence outlives its last heartbeat",
    )
    ws_compression: Literal["message", "context", "off"] = Field(
        default="message",
        description="permessage-deflate: 'message' compresses each frame on its own and keeps "
        "no zlib state between frames (no memory per idle socket); 'context' is uvicorn's, "
        "smaller frames for about 50 KiB a socket; 'off' never compresses",
    )
    live_matches: int = Field(
        default=10_000,
        ge=1,
        description="matches a process keeps in memory; the least recently used idle one "
        "beyond it is dropped and reloaded (moves replayed) when needed again",
    )
    idle_views_seconds: float = Field(
        default=2.0,
        gt=0,
        description="seconds without a move after which a match counts as waiting: its cached "
        "views and compact-frame dictionaries are dropped",
    )
    gc_after_closed_sockets: int = Field(
        default=250,
        description="closed sockets after which the oldest generation is collected (0: never)",
    )
    # Computer players and absent friends (docs/bots.md, docs/protocol.md).
    away_after_seconds: int = Field(
        default=60, ge=1, description="seconds with no socket before a seated player is away"
    )
    # One process at a time (a lease) sweeps for players whose grace period just ended and
    # tells their matches' pages, once each.
    away_sweep_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="seconds between two sweeps for absences to announce",
    )
    claim_win_after_seconds: int = Field(
        default=120,
        ge=0,
        description="seconds an opponent must be away before a two-player win may be claimed",
    )
    bot_workers: int = Field(
        default=1, ge=1, description="worker processes that search for computer players' moves"
    )
    bot_time_budget: float = Field(
        default=0.7, gt=0, description="seconds a normal computer player searches at most"
    )
    bot_think_seconds: float = Field(
        default=0.8,
        ge=0,
        description="least seconds before a computer's move is made (human pace; a random "
        "extra of up to as much again hides how hard the choice was)",
    )
    bot_pending_limit: int = Field(
        default=256, ge=1, description="computer decisions waiting at once in one process"
    )
    bot_sweep_seconds: float = Field(
        default=15.0,
        gt=0,
        description="seconds between two looks in the database for matches with computers or "
        "clocks whose work nobody is doing (computer turns, a match no process keeps)",
    )
    # Match keepers (app/services/keepers.py): with several processes, one at a time runs a
    # match's decision clock and computer players, under a lease in Redis it renews every
    # third of `keeper_lease_seconds`; when it dies, another process takes the match over at
    # its next registry sweep after the lease ran out.
    keeper_lease_seconds: float = Field(
        default=5.0, gt=0, description="seconds a keeper's lease lasts without renewal"
    )
    keeper_sweep_seconds: float = Field(
        default=1.0, gt=0, description="seconds between two looks for matches nobody keeps"
    )
    keeper_sweep_limit: int = Field(
        default=200, ge=1, description="matches one sweep looks at, at most"
    )
    lease_scope: str = Field(
        default="arcade",
        min_length=1,
        max_length=64,
        description="names the deployment in its Redis leases and keepers' registry: the "
        "processes of one site share it; another site on the same Redis needs its own",
    )
    # Web Push (docs/protocol.md, section 17). The VAPID private key (P-256, unpadded
    # base64url of the 32-byte value, or DER) every process signs with; unset, one is made
    # once and kept in the database.
    vapid_private_key: str | None = None
    vapid_subject: str = Field(
        default="mailto:arcade-night@localhost",
        description="the contact (mailto: or https:) push services see in the VAPID claims",
    )
    push_allow_local_endpoints: bool = Field(
        default=False,
        description="accept http://127.0.0.1 push endpoints besides https ones (tests)",
    )
    push_workers: int = Field(default=4, ge=1, description="pushes sent at once per process")
    push_queue: int = Field(
        default=1000, ge=1, description="notices waiting to be sent; beyond, new ones are dropped"
    )
    push_timeout: float = Field(default=10.0, gt=0, description="seconds one push may take")
    migrate_on_start: bool = True
    # Graceful shutdown (app/drain.py): on SIGTERM a process answers /readyz with 503, lets
    # the moves being committed finish and ack, closes every socket with 1012 (reconnect
    # elsewhere), runs its drain hooks, then stops; all of it within this bound. A container
    # orchestrator's grace period must be longer (docker-compose.yml: stop_grace_period).
    drain_seconds: float = Field(
        default=10.0, gt=0, description="seconds a stopping process takes at most to drain"
    )
    public_origins: str = Field(
        default="",
        description="comma-separated origins (https://arcade.example) browsers may use besides "
        "the request's own Host: for a proxy that does not pass the Host header on",
    )

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, value: str) -> str:
        return to_async_url(value)

    @field_validator(
        "guests_per_address",
        "lobbies_per_player",
        "lobbies_per_address",
        "lobby_writes_per_player",
        "lobby_writes_per_address",
        "http_moves_per_player",
        "record_reads_per_address",
        "list_reads_per_address",
        "verifications_per_address",
        "syncs_per_connection",
        "syncs_per_player",
        "chat_per_player",
        "turn_reads_per_player",
        "device_links_per_player",
        "device_claims_per_address",
        "push_changes_per_player",
        "push_key_reads_per_address",
        "passkeys_per_player",
        "passkeys_per_address",
    )
    @classmethod
    def _rate_limit(cls, value: str) -> str:
        parse_many(value)  # refuses what `limits` cannot read, at start-up
        return value

    @field_validator("redis_url", "vapid_private_key")
    @classmethod
    def _empty_is_none(cls, value: str | None) -> str | None:
        return value or None


@lru_cache
def get_settings() -> Settings:
    return Settings()
