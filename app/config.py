"""Settings from the environment, validated once at start-up."""

from __future__ import annotations

from functools import lru_cache

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
    redis_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    max_frame_bytes: int = 64 * 1024
    max_chat_chars: int = 500
    chat_per_minute: int = Field(
        default=30, description="chat messages a connection may send a minute"
    )
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
    gc_after_closed_sockets: int = Field(
        default=250,
        description="closed sockets after which the oldest generation is collected (0: never)",
    )
    migrate_on_start: bool = True

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, value: str) -> str:
        return to_async_url(value)

    @field_validator("redis_url")
    @classmethod
    def _empty_is_none(cls, value: str | None) -> str | None:
        return value or None


@lru_cache
def get_settings() -> Settings:
    return Settings()
