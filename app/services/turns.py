"""The matches waiting for a player's move, across all her tables (`GET /api/players/me/turns`).

Whose turn it is comes from the rules (the live match's active seats), never from a copy kept
beside the match: each of her active matches is brought up to the database's version first, so
every server process answers alike, and after a restart too. A seat a computer stands in for is
not waiting for her, nor are lessons.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, MatchSeat, Move
from app.engine.registry import get_game
from app.engine.runtime import MatchRuntime, stand_ins_of
from app.services.matches import player_names
from app.timestamps import as_utc

MAX_ACTIVE_MATCHES = 100
"""Her active matches looked at, the most recently started first: a bound on the work of one
request however many tables a player keeps."""


@dataclass(frozen=True)
class Turn:
    match_id: str
    game: str
    game_name: str
    version: int
    seat: int
    opponents: list[str]
    since: datetime
    """When it became her turn: the last move, or the start."""
    deadline: datetime | None
    """When the match's turn timer runs out for her; None without a turn timer."""


def _order(turn: Turn) -> tuple[bool, datetime, datetime]:
    # A clock running first, the soonest first; then the longest waiting.
    far = datetime.max.replace(tzinfo=UTC)
    return (turn.deadline is None, turn.deadline or far, turn.since)


async def waiting_for(session: AsyncSession, runtime: MatchRuntime, player_id: str) -> list[Turn]:
    matches = list(
        (
            await session.scalars(
                select(Match)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .where(
                    MatchSeat.player_id == player_id,
                    Match.status == "active",
                    Match.tutorial.is_(None),
                )
                .order_by(Match.started_at.desc(), Match.id)
                .limit(MAX_ACTIVE_MATCHES)
            )
        ).all()
    )
    waiting: list[tuple[Match, int, int | None]] = []
    for match in matches:
        live = await runtime.get(match.id)
        if live is None:
            continue
        await runtime.ensure_version(live, match.version)
        seat = live.seat_of(player_id)
        if (
            seat is None
            or live.status != "active"
            or seat in live.bots
            # Stand-ins from the row just read, not the cached match: another process may
            # have made or ended one, and only this process's match sockets hear of it.
            or seat in stand_ins_of(match.stand_ins)
            or seat not in live.game.active_seats(live.state)
        ):
            continue
        waiting.append((match, seat, live.turn_deadlines.get(live.version)))
    if not waiting:
        return []
    last_moves = dict(
        (
            await session.execute(
                select(Move.match_id, func.max(Move.created_at))
                .where(Move.match_id.in_([m.id for m, _s, _d in waiting]))
                .group_by(Move.match_id)
            )
        ).all()
    )
    names = await player_names(session, [m for m, _s, _d in waiting])
    turns = []
    for match, seat, deadline_ms in waiting:
        since = as_utc(last_moves.get(match.id)) or as_utc(match.started_at) or datetime.now(UTC)
        game = get_game(match.game)
        turns.append(
            Turn(
                match_id=match.id,
                game=match.game,
                game_name=game.title if game is not None else match.game,
                version=match.version,
                seat=seat,
                opponents=[
                    names.get(other, "?")
                    for number, other in enumerate(match.seats)
                    if other is not None and number != seat
                ],
                since=since,
                deadline=None
                if deadline_ms is None
                else datetime.fromtimestamp(deadline_ms / 1000, UTC),
            )
        )
    return sorted(turns, key=_order)
