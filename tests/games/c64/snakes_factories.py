"""Factories for the C64 Snakes tests: states built directly, so each scenario shows its
position (snakes as grid points [gx, gy] from head to tail, ruling C2)."""

from __future__ import annotations

from typing import Any

from c64_factories import (
    first_turn,
    fresh_game,
    give_and_play,
    joysticks_for,
    seat_sides,
)

from app.engine.contract import Event, State
from app.games.c64.geometry import ABSOLUTE, LEFT_CORNER_POINT
from app.games.c64.snakes import STICKS, Snakes

SNAKES = Snakes()


def snakes_state(
    players: int = 2,
    *,
    order: list[int] | None = None,
    snakes: dict[int, list[list[int]]] | None = None,
    supply: dict[int, int] | None = None,
    captured: dict[int, int] | None = None,
    turn: int | None = None,
    joysticks: dict[int, dict[str, Any]] | None = None,
    phase: str = "play",
) -> State:
    """A Snakes state in the play phase. Defaults: order 0..n-1 (seat 0 = Red S Player 1 at
    (0,0); 2 players: seat 1 = Green N at (8,8); 3-4 players: seat 1 = Blue W (0,8), seat 2 =
    Green N (8,8), seat 3 = Yellow E (8,0)), heads alone on their left-corner points, supply
    = the starting sticks minus the segments on the board, nothing captured, every seat
    holding an Up and a Left card, turn = order[0]."""
    order, side_of = seat_sides(players, order)
    snakes = snakes or {}
    supply = supply or {}
    captured = captured or {}
    out_players = []
    for s in range(players):
        snake = [list(p) for p in snakes.get(s, [LEFT_CORNER_POINT[side_of[s]]])]
        out_players.append(
            {
                "seat": s,
                "side": side_of[s],
                "latest": ABSOLUTE[side_of[s]]["up"],
                "snake": snake,
                "supply": supply.get(s, STICKS[players] - (len(snake) - 1)),
                "captured": captured.get(s, 0),
            }
        )
    return {
        "game": "c64-snakes",
        "phase": phase,
        "turn": first_turn(order, turn, phase),
        "order": order,
        "players": out_players,
        "joysticks": joysticks_for(players, joysticks, phase),
        "outcome": None,
    }


def path(start: tuple[int, int], steps: str) -> list[list[int]]:
    """A snake from its head at `start`, following `steps` (N/E/S/W) towards its tail."""
    deltas = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
    x, y = start
    out = [[x, y]]
    for step in steps:
        dx, dy = deltas[step]
        x, y = x + dx, y + dy
        out.append([x, y])
    return out


def fresh_snakes(players: int = 2, seed: str = "seed") -> State:
    return fresh_game(SNAKES, players, seed)


def act(state: State, seat: int, face: str) -> tuple[State, list[Event]]:
    """Give `seat` a card showing `face`, make it her turn and play it."""
    return give_and_play(SNAKES, state, seat, face)
