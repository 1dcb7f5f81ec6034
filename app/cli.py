"""The `arcade` command: serve, migrate, verify."""

from __future__ import annotations

import argparse
import contextlib
import sys

from app.config import Settings, get_settings

# After the app's own drain (app/drain.py, DRAIN_SECONDS) uvicorn waits this long for the
# requests still being answered before it cancels them: the drain has closed the sockets.
SHUTDOWN_SECONDS_AFTER_DRAIN = 5


def workers_problem(workers: int, settings: Settings) -> str | None:
    """Why `serve --workers N` cannot run with these settings, or None."""
    if workers < 1:
        return "--workers must be at least 1"
    if workers == 1:
        return None
    if not settings.redis_url:
        return (
            "several workers share matches, presence and rate limits through Redis: "
            "set REDIS_URL (redis://host:6379/0)"
        )
    if settings.database_url.startswith("sqlite"):
        return (
            "several workers need a database they can all write to at once: set "
            "DATABASE_URL to PostgreSQL (postgresql://user:password@host/db); SQLite "
            "serves one process"
        )
    return None


def serve_forever(settings: Settings, *, host: str | None, port: int | None, workers: int) -> None:
    """uvicorn with the app's factory; with several workers, uvicorn's supervisor keeps
    `workers` processes on one listening socket (a worker that dies is replaced) and stops
    them all on SIGTERM, each draining first."""
    import os
    import resource

    import uvicorn

    if workers > 1:
        # Migrate once here rather than racing in every worker's start-up.
        from app.db.migrate import upgrade_to_head

        upgrade_to_head(settings.database_url)
        os.environ["MIGRATE_ON_START"] = "false"
    # Every socket is a file: thousands of live matches need more than the usual 1,024.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=host or settings.host,
        port=port or settings.port,
        workers=workers,
        ws=(
            "app.realtime.ws_protocol:StatelessDeflateProtocol"
            if settings.ws_compression == "message"
            else "auto"
        ),
        ws_per_message_deflate=settings.ws_compression != "off",
        ws_max_size=1024 * 1024,
        log_level="info",
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=SHUTDOWN_SECONDS_AFTER_DRAIN,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arcade", description="Arcade Night server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the web server")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes; more than one needs REDIS_URL and PostgreSQL",
    )
    commands.add_parser("migrate", help="bring the database schema up to date")
    verify = commands.add_parser(
        "verify", help="re-run an exported replay through the rules and check every step"
    )
    verify.add_argument("file", help="a record from GET /api/matches/{id}/replay ('-' = stdin)")
    args = parser.parse_args(argv)
    settings = get_settings()

    if args.command == "verify":
        import json

        from app.services.replays import verify_record

        source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
        with source:
            try:
                record = json.load(source)
            except json.JSONDecodeError as exc:
                print(f"not valid JSON: {exc}")
                return 1
        verdict = verify_record(record)
        if verdict.ok:
            print(
                f"ok: seed matches its commitment; {verdict.checked_moves} moves, every "
                "state, event and the outcome reproduced"
            )
            return 0
        print(f"FAILED after {verdict.checked_moves} good moves: {verdict.problem}")
        return 1
    if args.command == "migrate":
        from app.db.migrate import upgrade_to_head

        upgrade_to_head(settings.database_url)
        return 0
    if args.command == "serve":
        problem = workers_problem(args.workers, settings)
        if problem is not None:
            parser.error(problem)
        serve_forever(settings, host=args.host, port=args.port, workers=args.workers)
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
