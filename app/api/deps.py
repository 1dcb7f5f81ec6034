"""Dependency aliases shared by the routers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.guest_cookie import COOKIE_NAME, is_foreign_origin
from app.context import AppContext
from app.db.models import Player
from app.errors import ArcadeError
from app.services.players import player_for_token

bearer = HTTPBearer(auto_error=False, description="The guest token from POST /api/players")
# Declared for the OpenAPI document; read through the request below.
cookie = APIKeyCookie(
    name=COOKIE_NAME,
    auto_error=False,
    description="The same token in the HttpOnly cookie that POST /api/players sets for browsers",
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def get_context(request: Request) -> AppContext:
    context: AppContext = request.app.state.context
    return context


ContextDep = Annotated[AppContext, Depends(get_context)]


async def get_session(context: ContextDep) -> AsyncIterator[AsyncSession]:
    async with context.sessions() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
CookieToken = Annotated[str | None, Depends(cookie)]


async def get_optional_player(
    request: Request, session: SessionDep, credentials: Credentials, cookie_token: CookieToken
) -> Player | None:
    """The Bearer header first (API clients), else the browser's cookie."""
    if credentials is not None:
        token = credentials.credentials
    elif cookie_token:
        if request.method not in SAFE_METHODS and is_foreign_origin(request):
            raise ArcadeError(
                "forbidden", "Changes must come from this site's own pages, not from another site."
            )
        token = cookie_token
    else:
        return None
    player = await player_for_token(session, token=token)
    if player is None and credentials is not None:
        raise ArcadeError("unauthorized", "That token is not known here; create a new guest.")
    # An unknown cookie (a reset database) reads as a visitor: pages keep working, and the
    # operations that need a guest answer 401 so the page makes a new one.
    return player


async def get_current_player(
    player: Annotated[Player | None, Depends(get_optional_player)],
) -> Player:
    if player is None:
        raise ArcadeError(
            "unauthorized",
            "Sign in as a guest first (the guest cookie, or Authorization: Bearer <token>).",
        )
    return player


OptionalPlayer = Annotated[Player | None, Depends(get_optional_player)]
CurrentPlayer = Annotated[Player, Depends(get_current_player)]


async def get_bearer_player(session: SessionDep, credentials: Credentials) -> tuple[Player, str]:
    """The player of the Bearer header alone, with the token (to put it in the cookie)."""
    if credentials is None:
        raise ArcadeError("unauthorized", "Send the guest token as Authorization: Bearer <token>.")
    player = await player_for_token(session, token=credentials.credentials)
    if player is None:
        raise ArcadeError("unauthorized", "That token is not known here; create a new guest.")
    return player, credentials.credentials


BearerPlayer = Annotated[tuple[Player, str], Depends(get_bearer_player)]
