"""Factories for the C64 Trains tests: states built directly, so each scenario shows its
position (grid points [gx, gy], rails [x1, y1, x2, y2], ruling C2)."""

from __future__ import annotations

import copy
from typing import Any

from c64_factories import (
    first_turn,
    fresh_game,
    give_and_play,
    holding,
    joysticks_for,
    play,
    seat_sides,
)

from app.engine.contract import Event, State
from app.games.c64.geometry import ABSOLUTE, LEFT_CORNER_POINT
from app.games.c64.trains import Trains

TRAINS = Trains()


def trains_state(
    players: int = 3,
    *,
    order: list[int] | None = None,
    points: dict[int, list[int]] | None = None,
    rails: dict[int, list[list[int]]] | None = None,
    stations: dict[int, list[list[int]]] | None = None,
    turn: int | None = None,
    ender: int | None = None,
    final_turns: int | None = None,
    joysticks: dict[int, dict[str, Any]] | None = None,
    phase: str = "play",
) -> State:
    """A Trains state in the play phase. Defaults: order 0..n-1 (seat 0 = Red S Player 1,
    seat 1 = Blue W, seat 2 = Green N, seat 3 = Yellow E), trains on their left-corner points,
    no rails, no stations, every seat holding an Up and a Left card, turn = order[0]."""
    order, side_of = seat_sides(players, order)
    points = points or {}
    rails = rails or {}
    stations = stations or {}
    return {
        "game": "c64-trains",
        "phase": phase,
        "turn": first_turn(order, turn, phase),
        "order": order,
        "players": [
            {
                "seat": s,
                "side": side_of[s],
                "latest": ABSOLUTE[side_of[s]]["up"],
                "point": list(points.get(s, LEFT_CORNER_POINT[side_of[s]])),
                "rails": [list(r) for r in rails.get(s, [])],
                "stations": [list(p) for p in stations.get(s, [])],
            }
            for s in range(players)
        ],
        "joysticks": joysticks_for(players, joysticks, phase),
        "outcome": None,
        "ender": ender,
        "final_turns": final_turns,
    }


def rails_along(start: tuple[int, int], steps: str) -> list[list[int]]:
    """Rails laid by a walk from `start`, e.g. rails_along((0, 0), "NNEE"): one per step."""
    deltas = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
    x, y = start
    out = []
    for step in steps:
        dx, dy = deltas[step]
        nx, ny = x + dx, y + dy
        a, b = sorted([(x, y), (nx, ny)])
        out.append([a[0], a[1], b[0], b[1]])
        x, y = nx, ny
    return out


def fresh_trains(players: int = 3, seed: str = "seed") -> State:
    return fresh_game(TRAINS, players, seed)


def act(state: State, seat: int, face: str) -> tuple[State, list[Event]]:
    """Give `seat` a card showing `face`, make it her turn and play it."""
    return give_and_play(TRAINS, state, seat, face)


def take_turn(state: State, seat: int, face: str = "left_button") -> tuple[State, list[Event]]:
    """`seat` plays a card in turn order (default a button: a station or nothing)."""
    assert state["turn"] == seat, f"it is seat {state['turn']}'s turn, not {seat}'s"
    state = copy.deepcopy(state)
    state["joysticks"][seat] = holding(face)
    return play(state, seat, face, TRAINS)
