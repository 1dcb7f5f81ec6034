"""Dependency aliases shared by the routers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.context import AppContext
from app.db.models import Player
from app.errors import ArcadeError
from app.services.players import player_for_token

bearer = HTTPBearer(auto_error=False, description="The guest token from POST /api/players")


def get_context(request: Request) -> AppContext:
    context: AppContext = request.app.state.context
    return context


ContextDep = Annotated[AppContext, Depends(get_context)]


async def get_session(context: ContextDep) -> AsyncIterator[AsyncSession]:
    async with context.sessions() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


async def get_optional_player(session: SessionDep, credentials: Credentials) -> Player | None:
    if credentials is None:
        return None
    player = await player_for_token(session, token=credentials.credentials)
    if player is None:
        raise ArcadeError("unauthorized", "That token is not known here; create a new guest.")
    return player


async def get_current_player(
    player: Annotated[Player | None, Depends(get_optional_player)],
) -> Player:
    if player is None:
        raise ArcadeError(
            "unauthorized", "Sign in as a guest first (Authorization: Bearer <token>)."
        )
    return player


OptionalPlayer = Annotated[Player | None, Depends(get_optional_player)]
CurrentPlayer = Annotated[Player, Depends(get_current_player)]
