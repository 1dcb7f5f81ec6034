"""The `arcade` command: serve, migrate."""

from __future__ import annotations

import argparse
import contextlib
import sys

from app.config import get_settings


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
        import os

        import uvicorn

        if args.workers > 1:
            if not settings.redis_url:
                parser.error("several workers share matches through Redis: set REDIS_URL")
            # Migrate once here rather than racing in every worker's start-up.
            from app.db.migrate import upgrade_to_head

            upgrade_to_head(settings.database_url)
            os.environ["MIGRATE_ON_START"] = "false"

        # Every socket is a file: thousands of live matches need more than the usual 1,024.
        import resource

        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        uvicorn.run(
            "app.main:create_app",
            factory=True,
            host=args.host or settings.host,
            port=args.port or settings.port,
            workers=args.workers,
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
        )
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
