"""Factories for the Tactrics tests: fresh games, small explicit positions and moves."""

from __future__ import annotations

from typing import Any

from app.engine.contract import Game, State
from app.engine.dice import Dice
from app.engine.registry import get_game

CROSSING = "tactrics-crossing"
ADVANCED = "tactrics-crossing-advanced"
CAT_MOUSE = "tactrics-cat-mouse"
SOLITARY = "tactrics-solitary"


def game(game_id: str) -> Game:
    found = get_game(game_id)
    assert found is not None
    return found


def dice(n: int = 1) -> Dice:
    return Dice("tactrics-tests", n)


def fresh(game_id: str, players: int, **options: Any) -> State:
    g = game(game_id)
    return g.setup(players, g.parse_options(options), dice(0))


def position(
    game_id: str,
    players: int = 2,
    *,
    routers: dict[str, str] | None = None,
    controllers: dict[str, int] | None = None,
    claims: dict[str, int] | None = None,
    seat: int = 0,
    index: int = 5,
    used: int = 0,
    **options: Any,
) -> State:
    """A game in its play phase at turn `index` of `seat` (default: a 4-action turn), with
    the board replaced by exactly the given routers, controllers and claims."""
    g = game(game_id)
    state = fresh(game_id, players, **options)
    state["phase"] = "play"
    if routers is not None:
        state["routers"] = dict(routers)
    state["controllers"] = dict(controllers or {})
    state["claims"] = dict(claims or {})
    g.start_turn(state, seat, index)  # type: ignore[attr-defined]
    state["turn"]["used"] = used
    return state


def rotate(tower: str, direction: str = "cw", reserve: bool = False) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "rotate", "tower": tower, "direction": direction}
    if reserve:
        move["reserve"] = True
    return move


UNDO = {"type": "undo"}
CONFIRM = {"type": "confirm"}


def act(game_id: str, state: State, seat: int, *moves: dict[str, Any]) -> tuple[State, list]:
    """Apply moves in order (each must be legal); returns the last state and all events."""
    g = game(game_id)
    events: list = []
    for number, move in enumerate(moves, start=1):
        assert move in g.legal_moves(state, seat), (move, g.legal_moves(state, seat))
        state, new = g.apply(state, seat, move, dice(number))
        events.extend(new)
    return state, events


def towers_in(moves: list[dict[str, Any]]) -> set[str]:
    return {m["tower"] for m in moves if m["type"] == "rotate"}
