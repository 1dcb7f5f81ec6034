from __future__ import annotations

from fastapi import APIRouter

from app.api.schemas import GamePublic
from app.engine.registry import all_games

router = APIRouter(prefix="/api/games", tags=["games"])


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
        )
        for g in all_games()
    ]
