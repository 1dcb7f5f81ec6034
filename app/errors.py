"""Refusals with a code and a sentence a player understands; one type for REST and WebSocket."""

from __future__ import annotations

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
