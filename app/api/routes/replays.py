from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from app.api.bodies import read_capped_body
from app.api.deps import ContextDep
from app.api.responses import COMMON, VERIFY
from app.db.models import Match
from app.services import matches as lobby
from app.services.rate_limits import VerificationLimit
from app.services.record_check import CheckedRecord
from app.services.replays import moves_digest

router = APIRouter(prefix="/api/replays", tags=["replays"], responses=COMMON)

RECORD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "description": "A record from GET /api/matches/{id}/replay.",
                }
            }
        },
    }
}


@router.post("/verify", responses=VERIFY, openapi_extra=RECORD_BODY)
async def verify_replay(
    request: Request, context: ContextDep, _: VerificationLimit
) -> dict[str, Any]:
    """Re-run an exported record through the rules and check seed, every state, event and the
    outcome; answers with the first difference found, if any, and whether this server hosted
    that match (`hosted`: same match id, seed and moves as its own log). Records are bounded
    in size (413), in moves and in checking time (422)."""
    settings = context.settings
    limit = settings.verify_max_bytes
    raw = await read_capped_body(
        request, limit, f"A record may be at most {limit // (1024 * 1024)} MiB; this one is larger."
    )
    checked = await context.record_checker.check(
        raw, max_moves=settings.verify_max_moves, seconds=settings.verify_seconds
    )
    return {**checked.verdict, "hosted": await _hosted_here(context, checked)}


async def _hosted_here(context: Any, checked: CheckedRecord) -> bool:
    """The record is of a match finished here, with its seed and exactly its moves."""
    if checked.match_id is None or checked.server_seed is None or len(checked.match_id) > 32:
        return False
    async with context.sessions() as session:
        match = await session.get(Match, checked.match_id)
        if match is None or match.status != "finished" or match.seed != checked.server_seed:
            return False
        ours = await lobby.move_log(session, match_id=match.id)
    return await asyncio.to_thread(moves_digest, ours) == checked.moves_digest
