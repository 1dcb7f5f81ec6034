"""Guest players: a name and a bearer token of which only the SHA-256 is stored.

Tokens are 256-bit random values, not passwords, so a fast hash is the right tool: nothing
to brute-force, and a lookup by hash stays an index probe.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.errors import ArcadeError


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= 40:
        raise ArcadeError("bad_request", "A name needs 1 to 40 characters.")
    return cleaned


async def create_player(session: AsyncSession, *, name: str) -> tuple[Player, str]:
    token = secrets.token_urlsafe(32)
    player = Player(id=uuid.uuid4().hex, name=clean_name(name), token_hash=hash_token(token))
    session.add(player)
    await session.flush()
    return player, token


async def player_for_token(session: AsyncSession, *, token: str) -> Player | None:
    if not token or len(token) > 200:
        return None
    return await session.scalar(select(Player).where(Player.token_hash == hash_token(token)))


async def rename_player(session: AsyncSession, *, player: Player, name: str) -> Player:
    player.name = clean_name(name)
    await session.flush()
    return player
