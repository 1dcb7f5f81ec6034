"""Guided first matches (app/tutorials/): the lessons, and starting one."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, status

from app.api.deps import ContextDep, CurrentPlayer, SessionDep
from app.api.responses import BAD_INPUT, COMMON, MATCH_CHANGE, NOT_FOUND, merged
from app.api.routes.matches import summary_for
from app.errors import ArcadeError
from app.services.rate_limits import LobbyCreationLimit
from app.services.tutorials import start_tutorial
from app.tutorials import FAMILY_TITLES, all_tutorials, tutorial

router = APIRouter(prefix="/api/tutorials", tags=["tutorials"], responses=COMMON)
Family = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[a-z0-9-]+$")]


@router.get("")
async def list_tutorials() -> list[dict[str, Any]]:
    """The guided first matches: one per family of games, each a short real match."""
    return [
        {
            "family": lesson.family,
            "family_title": FAMILY_TITLES[lesson.family],
            "game": lesson.game,
            "title": lesson.title,
            "intro": lesson.intro,
            "steps": len(lesson.steps),
            "learn_url": f"/learn/{lesson.family}",
        }
        for lesson in all_tutorials().values()
    ]


@router.get("/{family}", responses=merged(BAD_INPUT, NOT_FOUND))
async def show_tutorial(family: Family) -> dict[str, Any]:
    """One lesson whole: its seed, and each step's move and words (a lesson has no secrets)."""
    lesson = tutorial(family)
    if lesson is None:
        raise ArcadeError("not_found", f"There is no tutorial called {family!r}.")
    return lesson.public()


@router.post("/{family}/matches", status_code=status.HTTP_201_CREATED, responses=MATCH_CHANGE)
async def begin_tutorial(
    family: Family,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyCreationLimit,
) -> dict[str, Any]:
    """Start the lesson as a private match against computer players; open /match/{id}."""
    match = await start_tutorial(session, player=player, family=family)
    await session.commit()
    return await summary_for(context, session, match, player.id)
