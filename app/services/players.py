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

from app.db.models import Player, PlayerToken
from app.services.text import clean_name


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def create_player(session: AsyncSession, *, name: str) -> tuple[Player, str]:
    token = secrets.token_urlsafe(32)
    player = Player(id=uuid.uuid4().hex, name=clean_name(name), token_hash=hash_token(token))
    session.add(player)
    await session.flush()
    return player, token


async def player_for_token(session: AsyncSession, *, token: str) -> Player | None:
    if not token or len(token) > 200 or not token.isascii():
        return None  # ours are URL-safe base64; anything else is not one (and may not encode)
    digest = hash_token(token)
    player = await session.scalar(select(Player).where(Player.token_hash == digest))
    if player is not None:
        return player
    # A token of another device she continued on (issue_token).
    return await session.scalar(
        select(Player)
        .join(PlayerToken, PlayerToken.player_id == Player.id)
        .where(PlayerToken.token_hash == digest)
    )


async def issue_token(session: AsyncSession, *, player: Player) -> str:
    """A new credential for `player` on one more device; her other devices keep theirs."""
    token = secrets.token_urlsafe(32)
    session.add(PlayerToken(token_hash=hash_token(token), player_id=player.id))
    await session.flush()
    return token


async def rename_player(session: AsyncSession, *, player: Player, name: str) -> Player:
    player.name = clean_name(name)
    await session.flush()
    return player
