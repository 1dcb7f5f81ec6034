"""Gzip for the API's JSON answers (Starlette's GZipMiddleware), and for nothing else.

Static files and pages are compressed by app/static_files.py, which sets its own `Vary`; the
middleware would add a second one to every answer it leaves alone, so it only sees `/api/`.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send


class CompressApiAnswers:
    def __init__(self, app: ASGIApp, minimum_size: int = 1024) -> None:
        self._app = app
        # Small answers (a move's ack, a join) are not worth the time; lists and summaries are.
        self._gzip = GZipMiddleware(app, minimum_size=minimum_size, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            await self._gzip(scope, receive, send)
        else:
            await self._app(scope, receive, send)
