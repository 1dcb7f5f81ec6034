"""Bring a database's schema to Alembic head; the server does this when it starts."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config


def migrations_dir() -> Path:
    # Next to the package in a checkout; the working directory in an installed copy (Docker).
    for candidate in (
        Path(__file__).resolve().parents[2] / "migrations",
        Path.cwd() / "migrations",
    ):
        if (candidate / "env.py").exists():
            return candidate
    raise FileNotFoundError("cannot find the migrations/ folder")


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.set_main_option("sqlalchemy.url", database_url)
    return config


def upgrade_to_head(database_url: str) -> None:
    """Blocking (Alembic's env runs its own event loop): call it in a thread from async code."""
    command.upgrade(alembic_config(database_url), "head")
