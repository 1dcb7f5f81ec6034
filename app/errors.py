"""Refusals with a code and a sentence a player understands; one type for REST and WebSocket."""

from __future__ import annotations

from typing import Any

HTTP_STATUS = {
    "bad_request": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "not_your_turn": 409,
    "illegal_move": 409,
    "stale_version": 409,
    "match_not_active": 409,
    # Absent friends: the player is not away (yet), it is not her turn, or too little time
    # has passed to claim the win.
    "not_away": 409,
    "not_allowed": 409,
    "too_soon": 409,
    # A guided first match: the learner's move is not the lesson's; the message is its hint.
    "off_script": 409,
    "link_used": 410,
    "too_large": 413,
    "unprocessable": 422,
    "rate_limited": 429,
}


class ArcadeError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[ArcadeError], tuple[str, str]]:
        # Raised in worker processes too (app/services/record_check.py): pickled by fields.
        return (type(self), (self.code, self.message))

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 400)

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class RateLimited(ArcadeError):
    """A `rate_limited` refusal that says in how many seconds the door opens again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = retry_after

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "retry_after": self.retry_after}
