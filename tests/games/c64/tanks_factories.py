"""Factories for the C64 Tanks tests: states built directly, so each scenario shows its board.

(A module of its own, not part of c64_factories, so that the C64 games added in parallel do
not edit one shared helper file.)
"""

from __future__ import annotations

from typing import Any

from c64_factories import (
    first_turn,
    fresh_game,
    give_and_play,
    joysticks_for,
    play,
    seat_sides,
)

from app.engine.contract import Event, State
from app.games.c64.geometry import ABSOLUTE, LEFT_CORNER
from app.games.c64.tanks import START_WALLS, Tanks

TANKS = Tanks()


def tanks_state(
    players: int = 2,
    *,
    order: list[int] | None = None,
    squares: dict[int, str] | None = None,
    walls: dict[str, str] | None = None,
    latest: dict[int, str] | None = None,
    hit: dict[int, bool] | None = None,
    discs: dict[int, list[int]] | None = None,
    turn: int | None = None,
    joysticks: dict[int, dict[str, Any]] | None = None,
    phase: str = "play",
) -> State:
    """A Tanks state. Defaults: order 0..n-1 (so seat 0 is S = Red, Player 1), tanks on their
    left corners, the mirrors of map T, latest = seat Up, nobody hit, no discs, each seat
    holding an Up card and a Left card, turn = order[0]. `walls` is {square: "/" or "\\"}."""
    order, side_of = seat_sides(players, order)
    squares = squares or {}
    latest = latest or {}
    hit = hit or {}
    discs = discs or {}
    return {
        "game": "c64-tanks",
        "phase": phase,
        "turn": first_turn(order, turn, phase),
        "order": order,
        "players": [
            {
                "seat": s,
                "side": side_of[s],
                "latest": latest.get(s, ABSOLUTE[side_of[s]]["up"]),
                "square": squares.get(s, LEFT_CORNER[side_of[s]]),
                "hit": hit.get(s, False),
                "discs": sorted(discs.get(s, [])),
            }
            for s in range(players)
        ],
        "joysticks": joysticks_for(players, joysticks, phase),
        "outcome": None,
        "walls": dict(START_WALLS if walls is None else walls),
    }


def fresh_tanks(players: int = 2, seed: str = "seed") -> State:
    return fresh_game(TANKS, players, seed)


def tanks_play(state: State, seat: int, face: str) -> tuple[State, list[Event]]:
    """`seat` plays its active card showing `face` (the seat needs one, see `holding`)."""
    return play(state, seat, face, TANKS)


def tanks_act(state: State, seat: int, face: str, **changes: Any) -> tuple[State, list[Event]]:
    """Give `seat` a card showing `face` (plus `changes` to its player entry) and play it."""
    return give_and_play(TANKS, state, seat, face, changes)


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]
