"""The games registry: every package under `app.games` registers its games by importing."""

from __future__ import annotations

import importlib
import pkgutil
from typing import TypeVar

from app.engine.contract import Game

_games: dict[str, Game] = {}
_discovered = False
G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: `@register class Maze(Game): ...`."""
    if cls.id in _games and type(_games[cls.id]) is not cls:
        raise ValueError(f"two games claim the id {cls.id!r}")
    _games[cls.id] = cls()
    return cls


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    import app.games as package

    for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
        importlib.import_module(info.name)
    _discovered = True


def all_games() -> list[Game]:
    _discover()
    return sorted(_games.values(), key=lambda g: g.id)


def get_game(game_id: str) -> Game | None:
    _discover()
    return _games.get(game_id)
