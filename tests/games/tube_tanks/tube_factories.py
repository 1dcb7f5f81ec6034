"""Small explicit Tank Skirmish states for scenario tests.

`build(...)` places walls, pools, gaps and tanks (a cell, or None for a destroyed and removed
tank) and gives the turn to one tank; `rules` overrides rule flags (all advanced rules are on
by default, as in the lobby). `ScriptedDice` rolls the given faces in order, so a test states
exactly what the dice showed.
"""

from __future__ import annotations

from typing import Any

from app.engine.contract import Event, State
from app.engine.dice import Dice
from app.engine.registry import get_game
from app.games.tube_tanks.game import TubeTanks, new_state
from app.games.tube_tanks.options import Options

GAME = get_game("tube-tanks")
assert isinstance(GAME, TubeTanks)

CORE = {
    flag: False
    for flag in (
        "collateral_damage",
        "floor_destruction",
        "wall_destruction",
        "blast",
        "stun",
        "triangulation",
        "energy_bolts",
        "target_anything",
        "repair",
        "collision",
    )
}


class ScriptedDice(Dice):
    """Dice that show the given faces, in order; fails loudly if the rules roll more."""

    def __init__(self, *faces: int) -> None:
        super().__init__("scripted", 1)
        self.faces = list(faces)

    def roll(self, sides: int = 6) -> int:
        assert self.faces, "the rules rolled more dice than the test scripted"
        self.draws += 1
        return self.faces.pop(0)


def build(
    *,
    rules: dict[str, bool] | None = None,
    walls: tuple[str, ...] = (),
    pools: tuple[str, ...] = (),
    gaps: tuple[str, ...] = (),
    green: tuple[str | None, ...] = ("E1", "H1", "K1"),
    orange: tuple[str | None, ...] = ("K15", "H15", "E15"),
    seat: int = 0,
    tank: int = 1,
    hp: dict[tuple[str, int], int] | None = None,
) -> State:
    """The turn belongs to `seat`'s tank number `tank` (1-3), at the start of its turn."""
    options = Options(**(rules or {}))
    state = new_state(options, seat)
    state["walls"], state["pools"], state["gaps"] = list(walls), list(pools), list(gaps)
    for side, cells in (("green", green), ("orange", orange)):
        for number, cell in enumerate(cells, start=1):
            entry = next(t for t in state["tanks"] if t["side"] == side and t["number"] == number)
            entry["cell"] = cell
            if cell is None:
                entry["destroyed"], entry["hp"] = True, 0
    for (side, number), points in (hp or {}).items():
        tank_entry(state, side, number)["hp"] = points
    state["active"][seat] = tank - 1
    state["turn"] = {
        "seat": seat,
        "tank": seat * 3 + tank - 1,
        "number": 1,
        "mp": 0,
        "steady": False,
        "fired": False,
        "rammed": False,
    }
    return state


def tank_entry(state: State, side: str, number: int) -> dict[str, Any]:
    return next(t for t in state["tanks"] if t["side"] == side and t["number"] == number)


def play(
    state: State, *moves: dict[str, Any], dice: Dice | None = None
) -> tuple[State, list[Event]]:
    """Apply moves by the seat whose turn it is; returns the last state and all events."""
    events: list[Event] = []
    for move in moves:
        seat = state["turn"]["seat"]
        state, new = GAME.apply(state, seat, move, dice or ScriptedDice())
        events += new
    return state, events


def fire(target: str, aim: str = "tank") -> dict[str, Any]:
    return {"type": "fire", "target": target, "aim": aim}


def step(to: str) -> dict[str, Any]:
    return {"type": "step", "to": to}


END = {"type": "end"}
STAY = {"type": "stay"}


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]
