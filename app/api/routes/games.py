from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import OptionalPlayer, SessionDep
from app.api.responses import COMMON, GAME_READ
from app.api.schemas import GamePublic
from app.engine.contract import Game
from app.engine.registry import all_games, get_game
from app.errors import ArcadeError
from app.rules_pages.durations import minutes
from app.rules_pages.source import page_source
from app.services.records import records
from app.tutorials import tutorial_families

LEARN_LEVELS = ("easy", "medium", "hard")

router = APIRouter(prefix="/api/games", tags=["games"], responses=COMMON)


@router.get("", response_model=list[GamePublic])
async def list_games() -> list[GamePublic]:
    """Every game this server plays, with its lobby options as JSON Schema and what the home
    page's cards say of it (one line, how hard to learn, minutes, its rules and lesson)."""
    return [_public(g) for g in all_games()]


def _public(g: Game) -> GamePublic:
    source = page_source(g.id)
    meta = source.meta if source is not None else {}
    family = meta.get("family")
    return GamePublic(
        id=g.id,
        title=g.title,
        min_players=g.min_players,
        max_players=g.max_players,
        options_schema=g.options_schema(),
        goal=g.goal,
        has_chance=g.has_chance,
        hidden_information=g.hidden_information,
        record_order=g.record_order,
        tagline=meta.get("tagline") or None,
        learn=meta.get("learn") if meta.get("learn") in LEARN_LEVELS else None,
        minutes=minutes(g.id),
        rules_url=f"/games/{g.id}/rules" if source is not None else None,
        learn_url=f"/learn/{family}" if family in tutorial_families() else None,
    )


@router.get("/{game_id}/records", responses=GAME_READ)
async def game_records(game_id: str, session: SessionDep, player: OptionalPlayer) -> dict[str, Any]:
    """Personal bests from finished matches, for games that keep records (`record_order`):
    the top ten per scenario and, when signed in, your own."""
    game = get_game(game_id)
    if game is None:
        raise ArcadeError("not_found", f"There is no game called {game_id!r}.")
    return await records(session, game, player_id=player.id if player else None)
