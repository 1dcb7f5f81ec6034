"""Request bodies read by hand, for routes that must bound a body before parsing it."""

from __future__ import annotations

from fastapi import Request

from app.errors import ArcadeError


async def read_capped_body(request: Request, limit: int, refusal: str) -> bytes:
    """The request body, refused (`too_large`, saying `refusal`) as soon as it is known to
    exceed `limit` bytes: by its declared length, or while it streams in."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ArcadeError("too_large", refusal)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ArcadeError("too_large", refusal)
        chunks.append(chunk)
    return b"".join(chunks)
