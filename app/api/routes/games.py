from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import OptionalPlayer, SessionDep
from app.api.responses import COMMON, GAME_READ
from app.api.schemas import GamePublic
from app.engine.registry import all_games, get_game
from app.errors import ArcadeError
from app.services.records import records

router = APIRouter(prefix="/api/games", tags=["games"], responses=COMMON)


@router.get("", response_model=list[GamePublic])
async def list_games() -> list[GamePublic]:
    """Every game this server plays, with its lobby options as JSON Schema."""
    return [
        GamePublic(
            id=g.id,
            title=g.title,
            min_players=g.min_players,
            max_players=g.max_players,
            options_schema=g.options_schema(),
            goal=g.goal,
            has_chance=g.has_chance,
            hidden_information=g.hidden_information,
            record_order=g.record_order,
        )
        for g in all_games()
    ]


@router.get("/{game_id}/records", responses=GAME_READ)
async def game_records(game_id: str, session: SessionDep, player: OptionalPlayer) -> dict[str, Any]:
    """Personal bests from finished matches, for games that keep records (`record_order`):
    the top ten per scenario and, when signed in, your own."""
    game = get_game(game_id)
    if game is None:
        raise ArcadeError("not_found", f"There is no game called {game_id!r}.")
    return await records(session, game, player_id=player.id if player else None)
