"""What stands on each cell of a running game, and the names used in event texts.

The state keeps walls, pools and gaps as sorted lists of cell names and the six tanks in one
list (green 1-3, then orange 1-3); `occupancy` indexes them by cell for the rules below.
"""

from __future__ import annotations

from typing import Any

from app.engine.contract import State
from app.games.tube_tanks.zone import XY, cell_name, on_board, parse_cell

WALL, POOL, GAP, TANK, WRECK = "wall", "pool", "gap", "tank", "wreck"
SQUEEZE_BLOCKERS = {WALL, POOL, TANK, WRECK}  # K2: a gap does not block a diagonal squeeze
BOLT_BLOCKERS = {WALL, TANK, WRECK}  # K2: pools and gaps let an energy bolt through

Occupant = tuple[str, int | None]  # (kind, tank index for tanks and wrecks)


def occupancy(state: State) -> dict[XY, Occupant]:
    occ: dict[XY, Occupant] = {}
    for kind, key in ((WALL, "walls"), (POOL, "pools"), (GAP, "gaps")):
        for name in state[key]:
            occ[parse_cell(name)] = (kind, None)
    for index, tank in enumerate(state["tanks"]):
        if tank["cell"] is not None:
            occ[parse_cell(tank["cell"])] = (WRECK if tank["destroyed"] else TANK, index)
    return occ


def tank_name(tank: dict[str, Any]) -> str:
    return f"{tank['side'].capitalize()} {tank['number']}"


def tank_xy(tank: dict[str, Any]) -> XY:
    assert tank["cell"] is not None
    return parse_cell(tank["cell"])


def describe_cell(occ: dict[XY, Occupant], state: State, xy: XY) -> str:
    """ "Orange 1 on K15", "the wall on H4", "the empty space F9", for event texts."""
    if not on_board(*xy):
        return cell_name(*xy)
    name = cell_name(*xy)
    kind, index = occ.get(xy, ("floor", None))
    if kind == TANK and index is not None:
        return f"{tank_name(state['tanks'][index])} on {name}"
    if kind == WRECK and index is not None:
        return f"the wreck of {tank_name(state['tanks'][index])} on {name}"
    if kind == WALL:
        return f"the wall on {name}"
    if kind == POOL:
        return f"the Energy Pool on {name}"
    if kind == GAP:
        return f"the gap on {name}"
    return f"the empty space {name}"


NEIGHBOURS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def neighbours(xy: XY) -> list[XY]:
    return [(xy[0] + dx, xy[1] + dy) for dx, dy in NEIGHBOURS if on_board(xy[0] + dx, xy[1] + dy)]


def alive(state: State, side: str) -> list[int]:
    return [i for i, t in enumerate(state["tanks"]) if t["side"] == side and not t["destroyed"]]
