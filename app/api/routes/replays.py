from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body

from app.api.responses import COMMON, VERIFY
from app.services.replays import verify_record

router = APIRouter(prefix="/api/replays", tags=["replays"], responses=COMMON)


@router.post("/verify", responses=VERIFY)
async def verify_replay(record: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """Re-run an exported record through the rules and check seed, every state, event and the
    outcome; answers with the first difference found, if any."""
    # Re-running thousands of moves takes a while: off the event loop, so play goes on.
    verdict = await asyncio.to_thread(verify_record, record)
    return verdict.to_json()
