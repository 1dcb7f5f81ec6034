"""The refusals each operation can answer, for the OpenAPI document: all share the body
{code, message} (`Problem`). Routers carry what every one of their operations can answer;
a route adds what only it can."""

from __future__ import annotations

from typing import Any

from app.api.schemas import Problem

Responses = dict[int | str, dict[str, Any]]
"""FastAPI's `responses`: status code -> what is answered with it."""


def problem(description: str) -> dict[str, Any]:
    return {"model": Problem, "description": description}


def merged(*parts: Responses) -> Responses:
    return {status: spec for part in parts for status, spec in part.items()}


LIMITED: Responses = {429: problem("Too many requests: slow down and retry later (`rate_limited`)")}
BAD_INPUT: Responses = {
    400: problem("A parameter or the body breaks a rule; the message says which")
}
TOO_LARGE: Responses = {
    413: problem("The body is larger than this operation accepts (`too_large`)")
}
UNPROCESSABLE: Responses = {
    422: problem("Well-formed, but beyond what the server will work through (`unprocessable`)")
}
TOKEN: Responses = {
    401: problem(
        "A token (Bearer header or guest cookie) was sent that is not known here, "
        "or this operation needs one and none was sent"
    )
}
FORBIDDEN: Responses = {
    403: problem(
        "Not yours to do or see (a private match, another player's lobby), or a change "
        "authenticated by the cookie came from another site's page"
    )
}
NOT_FOUND: Responses = {404: problem("No such match or game")}
CONFLICT: Responses = {
    409: problem(
        "Not possible in the match's current state: taken seat, not your turn, illegal or "
        "stale move, match not started or over (`conflict`, `not_your_turn`, ...)"
    )
}
GONE: Responses = {410: problem("The device link was already used or has expired (`link_used`)")}

# On every router: a rate limit (app/services/rate_limits.py) guards every operation.
COMMON: Responses = LIMITED
GUEST_READ: Responses = TOKEN
GUEST_CHANGE = merged(BAD_INPUT, TOKEN, FORBIDDEN)
LISTING = merged(BAD_INPUT, TOKEN)
GAME_READ = merged(TOKEN, NOT_FOUND)
MATCH_READ = merged(BAD_INPUT, TOKEN, FORBIDDEN, NOT_FOUND)
MATCH_CHANGE = merged(BAD_INPUT, TOKEN, FORBIDDEN, NOT_FOUND, CONFLICT)
VERIFY = merged(BAD_INPUT, TOO_LARGE, UNPROCESSABLE)
