from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from app.services.replays import verify_record

router = APIRouter(prefix="/api/replays", tags=["replays"])


@router.post("/verify")
async def verify_replay(record: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """Re-run an exported record through the rules and check seed, every state, event and the
    outcome; answers with the first difference found, if any."""
    return verify_record(record).to_json()
