from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body

from app.services.rate_limits import VerificationLimit
from app.services.replays import verify_record

router = APIRouter(prefix="/api/replays", tags=["replays"])


@router.post("/verify")
async def verify_replay(
    record: Annotated[dict[str, Any], Body()], _: VerificationLimit
) -> dict[str, Any]:
    """Re-run an exported record through the rules and check seed, every state, event and the
    outcome; answers with the first difference found, if any."""
    # Re-running thousands of moves takes a while: off the event loop, so play goes on.
    verdict = await asyncio.to_thread(verify_record, record)
    return verdict.to_json()
