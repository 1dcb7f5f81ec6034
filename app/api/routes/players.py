from __future__ import annotations

from fastapi import APIRouter, status

from app.api.deps import CurrentPlayer, SessionDep
from app.api.schemas import PlayerCreate, PlayerCreated, PlayerPublic
from app.services.players import create_player, rename_player
from app.services.rate_limits import GuestCreationLimit

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=PlayerCreated)
async def create_guest(
    body: PlayerCreate, session: SessionDep, _: GuestCreationLimit
) -> PlayerCreated:
    """Create a guest player; keep the token, it is shown only once."""
    player, token = await create_player(session, name=body.name)
    await session.commit()
    return PlayerCreated(id=player.id, name=player.name, token=token)


@router.get("/me", response_model=PlayerPublic)
async def read_me(player: CurrentPlayer) -> PlayerPublic:
    """The player the bearer token belongs to."""
    return PlayerPublic(id=player.id, name=player.name)


@router.patch("/me", response_model=PlayerPublic)
async def rename_me(body: PlayerCreate, player: CurrentPlayer, session: SessionDep) -> PlayerPublic:
    """Change your display name."""
    player = await rename_player(session, player=await session.merge(player), name=body.name)
    await session.commit()
    return PlayerPublic(id=player.id, name=player.name)
