"""create_app(): routers, static files, and the lifespan that owns database, hub and runtime."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from app.api import openapi
from app.api.routes import games, matches, passkeys, players, push, replays, tutorials
from app.api_compression import CompressApiAnswers
from app.config import Settings, get_settings
from app.context import AppContext, match_channel
from app.db.migrate import upgrade_to_head
from app.db.session import make_engine, make_sessionmaker
from app.drain import Drain
from app.engine.runtime import MatchRuntime
from app.errors import ArcadeError
from app.pages import assemble_pages, match_page_name
from app.readiness import Readiness
from app.realtime import socket
from app.realtime.collector import old_generation
from app.realtime.hub import make_hub
from app.realtime.leases import make_leases, process_id
from app.realtime.presence import Presence
from app.rules_pages.site import LessonPages, RulesPages
from app.security_headers import EMBEDDABLE_CSP, SecurityHeaders
from app.services import rate_limits
from app.services.absence import Absence
from app.services.computer_turns import ComputerTurns
from app.services.keepers import MatchKeepers, make_registry
from app.services.lobby_sweeper import LobbySweeper
from app.services.matches import game_of
from app.services.push import PushNotifier, load_vapid_key
from app.static_files import (
    MEDIA_TYPES,
    answer,
    load_static_tree,
    page_response,
    static_endpoint,
)

GC_THRESHOLDS = (700, 10, 10_000)
"""gc.set_threshold: CPython's young generations as they are (a collection of the youngest
every 700 new container objects, of the middle one every 10 of those), the oldest only every
10,000 middle ones instead of 10. Measured under load (bench/README.md, "Garbage collection"):
young collections cost about 1 us an object, so a larger youngest generation only makes
longer pauses; full passes over thousands of sockets and matches are what must be rare."""

STATIC = Path(__file__).resolve().parent.parent / "static"
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "bad_request",
    409: "conflict",
    413: "too_large",
    429: "rate_limited",
}


def wants_a_page(request: Request) -> bool:
    """A browser following a link (it accepts HTML) rather than a script calling the API."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get(
        "accept", ""
    )


class ArcadeApp(FastAPI):
    """FastAPI, but a match socket goes from the entry straight to its endpoint
    (app/realtime/socket.py, `serve_match_socket`)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not await socket.serve_match_socket(self, scope, receive, send):
            await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    pages = assemble_pages(STATIC)  # once: the files do not change while the server runs
    rules_pages = RulesPages(STATIC)
    lesson_pages = LessonPages(STATIC)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The cyclic collector only has to find cycles: what a move makes dies by reference
        # counting. Objects made during start-up are frozen out of it; see GC_THRESHOLDS.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        # ...which leaves what closed connections keep in cycles to a collection of its own.
        old_generation.configure(every=settings.gc_after_closed_sockets, min_interval=1.0)
        if settings.migrate_on_start:
            await asyncio.to_thread(upgrade_to_head, settings.database_url)
        engine = make_engine(
            settings.database_url,
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
        )
        # One id for this process wherever Redis sees it (hub notices, leases, presence).
        this_process = process_id()
        hub = make_hub(settings.redis_url, this_process)
        await hub.start()

        async def announce(match_id: str, version: int, accepted: dict[str, object]) -> None:
            await hub.publish(
                match_channel(match_id),
                {"kind": "version", "version": version, "accepted": accepted},
            )

        # Who owns each clock and piece of background work (one process at a time): the
        # keepers, the lobby sweeper and the away sweeper.
        leases = make_leases(settings.redis_url, this_process)
        app.state.context = AppContext(
            settings=settings,
            engine=engine,
            sessions=make_sessionmaker(engine),
            hub=hub,
            runtime=MatchRuntime(
                engine,
                announce,
                max_live=settings.live_matches,
                idle_views=settings.idle_views_seconds,
            ),
            presence=Presence(
                redis_url=settings.redis_url, owner=this_process, ttl=settings.presence_ttl_seconds
            ),
            drain=Drain(settings.drain_seconds),
        )
        app.state.context.presence.start()
        # SIGTERM drains first (app/drain.py), then reaches the server's own handler.
        restore_signals = app.state.context.drain.install_signal_handlers()
        app.state.readiness = Readiness(engine, settings.redis_url, app.state.context.drain)
        sweeper = LobbySweeper(
            app.state.context.sessions,
            app.state.context.notify,
            ttl=timedelta(minutes=settings.open_lobby_ttl_minutes),
            interval=settings.lobby_sweep_seconds,
            leases=leases,
            lease=f"lobby-sweeper:{settings.lease_scope}",
        )
        sweeper.start()
        app.state.lobby_sweeper = sweeper
        context = app.state.context
        computer_turns = ComputerTurns(
            context.runtime,
            context.sessions,
            workers=settings.bot_workers,
            time_budget=settings.bot_time_budget,
            think_seconds=settings.bot_think_seconds,
            pending_limit=settings.bot_pending_limit,
        )
        context.computer_turns = computer_turns
        keepers = MatchKeepers(
            context.runtime,
            context.sessions,
            hub,
            leases,
            make_registry(settings.redis_url, f"arcade:keepers:{settings.lease_scope}"),
            lease_seconds=settings.keeper_lease_seconds,
            sweep_seconds=settings.keeper_sweep_seconds,
            database_sweep_seconds=settings.bot_sweep_seconds,
            sweep_limit=settings.keeper_sweep_limit,
            most_kept=settings.live_matches,
        )
        keepers.duties.append(computer_turns.consider)
        app.state.keepers = keepers
        keepers.start()
        # A stopping process hands its matches over as soon as its sockets are closed.
        context.drain.hooks.append(keepers.release_all)
        absence = Absence(
            context.sessions,
            context.presence,
            hub,
            away_after=settings.away_after_seconds,
            leases=leases,
            sweep_every=settings.away_sweep_seconds,
            database=settings.database_url,
        )
        context.absence = absence
        absence.start()
        notifier = PushNotifier(
            context.sessions, await load_vapid_key(context.sessions, settings), settings, hub
        )
        context.push = notifier
        context.runtime.after_move.append(notifier.after_move)
        notifier.start()
        try:
            yield
        finally:
            # Already done when a signal started the shutdown; else the server has closed
            # the sockets (with 1012) and only the hooks are left to run.
            await context.drain.run()
            restore_signals()
            await app.state.readiness.close()
            await notifier.close()
            await absence.close()
            # The keepers give their matches up first: the others take them over at once.
            await keepers.close()
            await context.presence.close()
            await computer_turns.close()
            await sweeper.close()
            await leases.close()
            app.state.context.record_checker.close()
            await app.state.context.runtime.close()
            await hub.stop()
            await engine.dispose()

    app = ArcadeApp(
        title="Arcade Night",
        description="Retro-arcade board games with friends: lobbies, live play, replays.",
        version="0.1.0",
        lifespan=lifespan,
        # Swagger UI is served below from our own files: a game night on a LAN without
        # internet has no CDN. ReDoc is dropped rather than vendored as well.
        docs_url=None,
        redoc_url=None,
    )

    @app.exception_handler(ArcadeError)
    async def _arcade_error(_request: Request, exc: ArcadeError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.http_status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"Bad request: {where} {first.get('msg', '')}".strip()
        return JSONResponse({"code": "bad_request", "message": message}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and wants_a_page(request):
            return await page_response(request, pages["404"], status=404)
        code = HTTP_CODES.get(exc.status_code, "bad_request")
        return JSONResponse({"code": code, "message": str(exc.detail)}, status_code=exc.status_code)

    rate_limits.install(app, settings)
    for module in (players, passkeys, games, matches, replays, tutorials, push):
        app.include_router(module.router)
    openapi.install(app)

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> Response:
        return await page_response(request, pages["index"])

    @app.get("/match/{match_id}", include_in_schema=False)
    async def match_page(request: Request, match_id: str) -> Response:
        context: AppContext = request.app.state.context
        live = context.runtime.cached_match(match_id)
        if live is not None:
            game_id: str | None = live.game.id
        else:
            async with context.sessions() as session:
                game_id = await game_of(session, match_id=match_id)
        page = pages.get(match_page_name(game_id)) if game_id else None
        return await page_response(request, page or pages["match"])

    @app.get("/replay/{match_id}", include_in_schema=False)
    async def replay_page(request: Request, match_id: str) -> Response:
        return await page_response(request, pages["replay"])

    @app.get("/history", include_in_schema=False)
    async def history_page(request: Request) -> Response:
        return await page_response(request, pages["history"])

    @app.get("/docs", include_in_schema=False)
    async def api_docs(request: Request) -> Response:
        # Our own page rather than FastAPI's get_swagger_ui_html, whose inline script the
        # Content-Security-Policy refuses: static/docs.html starts the vendored Swagger UI
        # from static/js/api-docs.js.
        return await page_response(request, pages["docs"])

    @app.get("/games/{game_id}/rules", include_in_schema=False)
    async def rules_page(request: Request, game_id: str, embed: bool = False) -> Response:
        page = rules_pages.page(game_id, embed=embed)
        if page is None:
            return await page_response(request, pages["404"], status=404)
        # The match page shows the embedded form beside the board, in a frame of its own origin.
        framing = {"x-frame-options": "SAMEORIGIN", "content-security-policy": EMBEDDABLE_CSP}
        return await page_response(request, page, headers=framing if embed else None)

    @app.get("/learn", include_in_schema=False)
    async def learn_page(request: Request) -> Response:
        return await page_response(request, lesson_pages.index())

    @app.get("/learn/{family}", include_in_schema=False)
    async def lesson_page(request: Request, family: str) -> Response:
        page = lesson_pages.lesson(family)
        if page is None:
            return await page_response(request, pages["404"], status=404)
        return await page_response(request, page)

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, str]:
        """Liveness: the process answers (restart it if not). Nothing else is checked."""
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def ready(request: Request) -> JSONResponse:
        """Readiness: the database (and Redis when set) answer and the process is not
        draining; 503 otherwise, so a load balancer sends it no new traffic."""
        is_ready, parts = await request.app.state.readiness.check()
        return JSONResponse(parts, status_code=200 if is_ready else 503)

    static_tree = load_static_tree(STATIC)
    service_worker = static_tree.files["sw.js"]

    @app.get("/sw.js", include_in_schema=False)
    async def push_service_worker(request: Request) -> Response:
        # At the root, so that its scope is the whole site; revalidated on every load, so
        # that a changed worker is picked up.
        return await answer(
            request,
            service_worker.body,
            media_type=MEDIA_TYPES[".js"],
            etag=service_worker.etag,
            cache_control="no-cache",
            compressible=service_worker.compressible,
        )

    # The files under static/, in memory, compressed and cached (app/static_files.py): under
    # /static/<version>/ for a year, under /static/ for old links with revalidation.
    app.add_route(
        "/static/{path:path}",
        static_endpoint(static_tree),
        methods=["GET", "HEAD"],
        include_in_schema=False,
    )
    app.add_middleware(CompressApiAnswers)
    app.add_middleware(SecurityHeaders)
    return app
