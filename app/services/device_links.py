"""Continue on another device (issue 18, item 4): a one-time link that lets one browser become
the player who made it, within minutes, with no password.

The link carries a random token of which only the SHA-256 is stored. Claiming it is one
conditional UPDATE (unused and not expired), so of two browsers racing with the same link
exactly one wins, in any number of processes. The winner gets a token of its own
(`issue_token`): the device that made the link stays signed in. Never commits: callers do.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

import segno
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import DeviceLink, Player
from app.errors import ArcadeError
from app.services.players import hash_token, issue_token

LINK_TTL = timedelta(minutes=10)
"""How long a device link can be claimed."""


def _now() -> datetime:
    return datetime.now(UTC)


async def make_link(
    session: AsyncSession, player: Player, now: datetime | None = None
) -> tuple[str, datetime]:
    """A new link's token and when it expires."""
    now = now or _now()
    token = secrets.token_urlsafe(24)
    expires = now + LINK_TTL
    session.add(DeviceLink(token_hash=hash_token(token), player_id=player.id, expires_at=expires))
    await session.flush()
    return token, expires


async def claim_link(
    session: AsyncSession, token: str, now: datetime | None = None
) -> tuple[Player, str]:
    """The player the link belongs to and a new token for this device; the link is used up."""
    if not token or len(token) > 100 or not token.isascii():
        raise ArcadeError("bad_request", "That is not a device link.")
    now = now or _now()
    digest = hash_token(token)
    claimed = await session.execute(
        update(DeviceLink)
        .where(
            DeviceLink.token_hash == digest,
            DeviceLink.used_at.is_(None),
            DeviceLink.expires_at > now,
        )
        .values(used_at=now)
        .returning(DeviceLink.player_id)
    )
    player_id = claimed.scalar_one_or_none()
    if player_id is None:
        raise ArcadeError(
            "link_used",
            "This link was already used or has expired: make a new one on your other device.",
        )
    player = await session.get(Player, player_id)
    if player is None:  # the player was removed after making the link
        raise ArcadeError("link_used", "This link no longer leads to a player.")
    return player, await issue_token(session, player=player)


def qr_rows(text: str) -> list[str]:
    """`text` as a QR code: its rows of modules, "1" dark, "0" light (no quiet zone)."""
    code = segno.make(text, error="m")
    return ["".join("1" if module else "0" for module in row) for row in code.matrix]
