"""A guided first match: a real match whose dice seed and opponents come from a tutorial."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, Player
from app.engine.fairness import seed_commitment
from app.errors import ArcadeError
from app.services import computers
from app.services import matches as lobby
from app.tutorials import tutorial


async def start_tutorial(session: AsyncSession, *, player: Player, family: str) -> Match:
    """Opens, seats and starts the lesson's match: the player at the learner's seat, computer
    players at the others, the tutorial's seed for the dice (its script depends on them)."""
    lesson = tutorial(family)
    if lesson is None:
        raise ArcadeError("not_found", f"There is no tutorial called {family!r}.")
    match = await lobby.create_match(
        session,
        host=player,
        game_id=lesson.game,
        options=lesson.options,
        seats=lesson.players,
        private=True,  # a lesson is nobody else's to watch
    )
    for seat in range(1, lesson.players):
        await computers.add_computer(
            session, match_id=match.id, player=player, level="easy", seat=seat
        )

    def lesson_seats(match: Match) -> dict[str, Any]:
        seats = list(match.seats)
        seats[0], seats[lesson.learner] = seats[lesson.learner], seats[0]
        return {
            "seats": seats,
            "tutorial": lesson.family,
            "seed": lesson.seed,
            "seed_commitment": seed_commitment(lesson.seed),
        }

    await lobby.change_lobby(session, match.id, lesson_seats)
    match = await lobby.start_match(session, match_id=match.id, player=player)
    # No nonces: the dice are the lesson's seed itself, as its script was written against
    # (app/engine/fairness.py: a match without nonces rolls with the bare seed).
    await session.execute(update(Match).where(Match.id == match.id).values(nonces=[]))
    match.nonces = []
    return match
