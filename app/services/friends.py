"""Friends you play with (issue 18, item 5): the people you shared a table with recently, and
lobbies opened for them ("Play again with them"), which they find among their invitations.

Only someone you have played with can be invited: a player id alone invites nobody, so a
stranger who learns ids cannot fill anyone's invitations. Never commits: callers do.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.models import Invitation, Match, MatchSeat, Player
from app.engine.registry import get_game
from app.errors import ArcadeError
from app.timestamps import as_utc

RECENT_FRIENDS = 20
"""People listed, the most recent table first."""
MAX_INVITED = 7
"""Friends one lobby may invite (the largest table has eight seats)."""


@dataclass(frozen=True)
class Friend:
    id: str
    name: str
    last_played_at: datetime
    last_game: str
    last_game_name: str
    matches: int
    """Tables shared (lessons not counted)."""


@dataclass(frozen=True)
class Invite:
    match_id: str
    game: str
    game_name: str
    host: str
    invited_at: datetime


def _game_name(game_id: str) -> str:
    game = get_game(game_id)
    return game.title if game is not None else game_id


async def recent_friends(session: AsyncSession, player_id: str) -> list[Friend]:
    """People (no computers) seated with `player_id` in started matches, the most recent
    table first."""
    mine, theirs = aliased(MatchSeat), aliased(MatchSeat)
    played_at = func.coalesce(Match.finished_at, Match.started_at)
    rows = (
        await session.execute(
            select(theirs.player_id, Player.name, Match.game, played_at.label("at"))
            .join(mine, mine.match_id == theirs.match_id)
            .join(Match, Match.id == theirs.match_id)
            .join(Player, Player.id == theirs.player_id)
            .where(
                mine.player_id == player_id,
                theirs.player_id != player_id,
                Player.bot_level.is_(None),
                Match.started_at.is_not(None),
                Match.tutorial.is_(None),
            )
            .order_by(played_at.desc())
            .limit(500)  # enough to find the recent ones without reading a whole history
        )
    ).all()
    found: dict[str, Friend] = {}
    counts: dict[str, int] = {}
    for friend_id, name, game, at in rows:
        counts[friend_id] = counts.get(friend_id, 0) + 1
        if friend_id not in found:
            found[friend_id] = Friend(
                id=friend_id,
                name=name,
                last_played_at=as_utc(at) or datetime.now(UTC),
                last_game=game,
                last_game_name=_game_name(game),
                matches=0,
            )
    friends = [replace(f, matches=counts[f.id]) for f in found.values()]
    return friends[:RECENT_FRIENDS]


async def invite(session: AsyncSession, match: Match, host: Player, friend_ids: list[str]) -> None:
    """Invites `friend_ids` to the lobby `match` that `host` just opened."""
    wanted = list(dict.fromkeys(friend_ids))
    if len(wanted) > MAX_INVITED:
        raise ArcadeError("bad_request", f"Invite at most {MAX_INVITED} friends to one table.")
    if not wanted:
        return
    known = {f.id for f in await recent_friends(session, host.id)}
    strangers = [f for f in wanted if f not in known]
    if strangers:
        raise ArcadeError(
            "bad_request", "You can invite only people you have played with recently."
        )
    session.add_all(
        Invitation(match_id=match.id, player_id=friend, invited_by=host.id) for friend in wanted
    )


async def invitations(session: AsyncSession, player_id: str) -> list[Invite]:
    """Open lobbies `player_id` was invited to and has not joined, the newest first."""
    host = aliased(Player)
    rows = (
        await session.execute(
            select(Match.id, Match.game, Match.seats, host.name, Invitation.created_at)
            .join(Invitation, Invitation.match_id == Match.id)
            .join(host, host.id == Invitation.invited_by)
            .where(Invitation.player_id == player_id, Match.status == "open")
            .order_by(Invitation.created_at.desc(), Match.id)
            .limit(50)
        )
    ).all()
    return [
        Invite(
            match_id=match_id,
            game=game,
            game_name=_game_name(game),
            host=host_name,
            invited_at=as_utc(created_at) or datetime.now(UTC),
        )
        for match_id, game, seats, host_name, created_at in rows
        if player_id not in (seats or [])
    ]


async def decline(session: AsyncSession, player_id: str, match_id: str) -> None:
    await session.execute(
        delete(Invitation).where(Invitation.player_id == player_id, Invitation.match_id == match_id)
    )
