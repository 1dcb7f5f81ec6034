"""Victory (core rules, K8) and Missions 1-3 (K14): each check returns the outcome dict that
ends the game, or None."""

from __future__ import annotations

from typing import Any

from app.engine.contract import State
from app.games.tube_tanks.board import alive, neighbours, tank_name
from app.games.tube_tanks.zone import CENTRE, HOME_ROW, SIDES, parse_cell

MISSION_1_TURNS = 3
MISSION_3_WALLS = 5


def _win(seat: int, reason: str, kind: str) -> dict[str, Any]:
    return {"winners": [seat], "reason": reason, "kind": kind}


def annihilation(state: State) -> dict[str, Any] | None:
    """Core rules and K8: a side without units loses; no units on either side is a tie."""
    green, orange = (alive(state, side) for side in SIDES)
    if not green and not orange:
        return {
            "winners": [0, 1],
            "reason": "Every tank is destroyed: the battle is a tie.",
            "kind": "tie",
        }
    for seat, side in enumerate(SIDES):
        if not (orange if side == "green" else green):
            enemy = SIDES[1 - seat]
            return _win(seat, f"{side.capitalize()} destroyed every {enemy} tank.", "destruction")
    return None


def enemy_home_reached(state: State, index: int) -> dict[str, Any] | None:
    """Mission 2: a unit of yours ends a move on the enemy home row (K1: green row 1, orange
    row 15)."""
    if not state["rules"]["mission_2"]:
        return None
    tank = state["tanks"][index]
    enemy = SIDES[1 - tank["seat"]]
    if tank["cell"] is not None and parse_cell(tank["cell"])[1] == HOME_ROW[enemy]:
        return _win(
            tank["seat"],
            f"Mission 2: {tank_name(tank)} reached the {enemy} home row on {tank['cell']}.",
            "mission_2",
        )
    return None


def repaired_at_centre(state: State, index: int) -> bool:
    tank = state["tanks"][index]
    return tank["cell"] is not None and parse_cell(CENTRE) in neighbours(parse_cell(tank["cell"]))


def centre_held(state: State, index: int) -> dict[str, Any] | None:
    """Mission 1 (K14): one unit repairs at the centre pool in 3 consecutive activations of
    that unit."""
    tank = state["tanks"][index]
    if state["rules"]["mission_1"] and tank["streak"] >= MISSION_1_TURNS:
        return _win(
            tank["seat"],
            f"Mission 1: {tank_name(tank)} repaired at the centre pool {MISSION_1_TURNS} turns "
            "in a row.",
            "mission_1",
        )
    return None


def walls_destroyed(state: State, seat: int) -> dict[str, Any] | None:
    """Mission 3 (K14): the first player to have destroyed 5 walls wins."""
    if state["rules"]["mission_3"] and state["walls_destroyed"][seat] >= MISSION_3_WALLS:
        side = SIDES[seat].capitalize()
        return _win(seat, f"Mission 3: {side} destroyed {MISSION_3_WALLS} walls.", "mission_3")
    return None
