"""What the security headers cost a request: the ASGI app alone, behind SecurityHeaders, and
behind the same work as a Starlette BaseHTTPMiddleware (what app/security_headers.py avoids).

In-process, no network: each request is one scope sent through the app (a small JSON answer,
like the open-lobby poll). Prints microseconds per request for each, best of --runs.

    .venv/bin/python bench/security_headers.py --requests 20000 --runs 5
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from app.security_headers import SECURITY_HEADERS, SecurityHeaders

SCOPE: dict[str, Any] = {
    "type": "http",
    "asgi": {"version": "3.0"},
    "http_version": "1.1",
    "method": "GET",
    "scheme": "http",
    "path": "/api/matches",
    "raw_path": b"/api/matches",
    "query_string": b"status=open",
    "root_path": "",
    "headers": [(b"host", b"bench"), (b"accept", b"application/json")],
    "client": ("127.0.0.1", 1),
    "server": ("127.0.0.1", 80),
}


async def open_lobbies(_request: Request) -> JSONResponse:
    return JSONResponse({"matches": [], "count": 0})


class HeadersAsBaseHTTPMiddleware(BaseHTTPMiddleware):
    async def dispatch(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS:
            response.headers.setdefault(name, value)
        return response


def make(middleware: list[Middleware]) -> Starlette:
    return Starlette(routes=[Route("/api/matches", open_lobbies)], middleware=middleware)


async def one_request(app: Any) -> None:
    body_sent = False
    never = asyncio.Event()

    async def receive() -> dict[str, Any]:
        nonlocal body_sent
        if body_sent:  # like a server: the next message is the client leaving, much later
            await never.wait()
        body_sent = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(_message: dict[str, Any]) -> None:
        return None

    await app(dict(SCOPE), receive, send)


async def per_request_us(app: Any, requests: int) -> float:
    for _ in range(200):  # warm-up
        await one_request(app)
    start = time.perf_counter()
    for _ in range(requests):
        await one_request(app)
    return (time.perf_counter() - start) / requests * 1e6


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    apps = {
        "no middleware": make([]),
        "SecurityHeaders (pure ASGI)": make([Middleware(SecurityHeaders)]),
        "same headers, BaseHTTPMiddleware": make([Middleware(HeadersAsBaseHTTPMiddleware)]),
    }
    best = dict.fromkeys(apps, float("inf"))
    for _run in range(args.runs):  # interleaved: a shared machine's speed drifts between runs
        for name, app in apps.items():
            best[name] = min(best[name], await per_request_us(app, args.requests))
    base = best["no middleware"]
    for name, us in best.items():
        print(f"{name:34s} {us:7.1f} us/request  ({us - base:+6.1f} us)")


if __name__ == "__main__":
    asyncio.run(main())
