"""A match's two chat channels: the players' table talk and the watchers' chat.

The seated write in the players' channel and read both; everyone else who looks on (a guest
with a name) writes and reads the watchers' channel only, so the players may talk among
themselves. Who is seated is read from the match's seats whenever a message is written or a
history is sent, so taking or leaving a seat in the lobby changes the channel at once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ChatMessage, Match
from app.errors import ArcadeError
from app.timestamps import iso_utc

PLAYERS = "players"
WATCHERS = "watchers"
CHANNELS = (PLAYERS, WATCHERS)
HISTORY = 50  # messages per channel sent to a socket when it connects


def is_seated(match: Match, player_id: str | None) -> bool:
    return player_id is not None and player_id in match.seats


def readable(*, seated: bool) -> tuple[str, ...]:
    return CHANNELS if seated else (WATCHERS,)


def may_read(channel: str | None, *, seated: bool) -> bool:
    # A notice without a channel comes from a process that predates channels: all its chat was
    # the players' (anyone could read it then), so only the seated get it now.
    return (channel or PLAYERS) in readable(seated=seated)


def channel_to_write(asked: object, *, seated: bool, named: bool) -> str:
    """The channel a chat message goes to, or an ArcadeError saying why it may not be sent.
    `asked` is the message's optional `channel`; without one a player writes to the players
    and a watcher to the watchers, as every message did before channels."""
    if asked is not None and asked not in CHANNELS:
        raise ArcadeError("bad_request", 'A chat channel is "players" or "watchers".')
    own = PLAYERS if seated else WATCHERS
    if asked is not None and asked != own:
        if seated:
            raise ArcadeError(
                "forbidden",
                "The watchers' channel is theirs to write in; players can read it and write "
                "in the players' channel.",
            )
        raise ArcadeError(
            "forbidden",
            "Only the players write in the players' channel; watchers chat in the watchers' "
            "channel.",
        )
    if not named:
        raise ArcadeError("name_required", "Choose a name before you chat with the other watchers.")
    return own


async def history(
    session: AsyncSession, match_id: str, channels: tuple[str, ...]
) -> list[ChatMessage]:
    """The last HISTORY messages of each channel, oldest first."""
    found: list[ChatMessage] = []
    for channel in channels:
        rows = await session.scalars(
            select(ChatMessage)
            .where(ChatMessage.match_id == match_id, ChatMessage.channel == channel)
            .order_by(ChatMessage.id.desc())
            .limit(HISTORY)
        )
        found.extend(rows)
    return sorted(found, key=lambda item: item.id)


def frame(*, seat: int | None, name: str, text: str, at: datetime, channel: str) -> dict[str, Any]:
    return {
        "type": "chat",
        "channel": channel,
        "seat": seat,
        "name": name,
        "text": text,
        "at": iso_utc(at),
    }


def frame_of(item: ChatMessage) -> dict[str, Any]:
    return frame(
        seat=item.seat, name=item.name, text=item.text, at=item.created_at, channel=item.channel
    )
