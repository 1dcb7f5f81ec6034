"""Movement (core rules, K2, K12): 6 points a turn, 2 per orthogonal step, 3 per diagonal
step whose two shared orthogonal cells are empty; rams into a neighbouring tank."""

from __future__ import annotations

import heapq

from app.games.tube_tanks.board import SQUEEZE_BLOCKERS, TANK, Occupant, neighbours
from app.games.tube_tanks.zone import XY, on_board

MOVEMENT_POINTS = 6
ORTHOGONAL_COST = 2
DIAGONAL_COST = 3
MAX_RAM_DAMAGE = 3  # K9: ramming damage is capped at 3 so it never stuns


def step_cost(a: XY, b: XY) -> int:
    return DIAGONAL_COST if a[0] != b[0] and a[1] != b[1] else ORTHOGONAL_COST


def squeeze_clear(occ: dict[XY, Occupant], a: XY, b: XY) -> bool:
    """A diagonal step needs both orthogonally shared cells empty (core rules); per K2 a gap
    counts as empty here, while walls, pools, tanks, wrecks and the board's edge do not."""
    if a[0] == b[0] or a[1] == b[1]:
        return True
    for corner in ((a[0], b[1]), (b[0], a[1])):
        if not on_board(*corner):
            return False
        if occ.get(corner, (None, None))[0] in SQUEEZE_BLOCKERS:
            return False
    return True


def enterable(occ: dict[XY, Occupant], xy: XY) -> bool:
    """Only empty floor may be entered (K2): not walls, pools, gaps, tanks, wrecks, off-board."""
    return on_board(*xy) and xy not in occ


def steps(occ: dict[XY, Occupant], origin: XY, budget: int) -> list[tuple[XY, int]]:
    """Neighbouring cells the tank may step to with `budget` points left, with their cost."""
    out = []
    for xy in neighbours(origin):
        cost = step_cost(origin, xy)
        if cost <= budget and enterable(occ, xy) and squeeze_clear(occ, origin, xy):
            out.append((xy, cost))
    return out


def rams(occ: dict[XY, Occupant], origin: XY, budget: int) -> list[tuple[XY, int]]:
    """Neighbouring tanks the tank may ram (K12): the step's cost must be affordable and a
    diagonal ram needs the normal squeeze clearance; wrecks cannot be rammed."""
    out = []
    for xy in neighbours(origin):
        cost = step_cost(origin, xy)
        if cost <= budget and occ.get(xy, (None, None))[0] == TANK:
            if squeeze_clear(occ, origin, xy):
                out.append((xy, cost))
    return out


def ram_damage(points_spent_including_ram: int) -> int:
    """K12: one damage per full 2 movement points the rammer spent this turn, capped (K9)."""
    return min(MAX_RAM_DAMAGE, points_spent_including_ram // 2)


def reach(occ: dict[XY, Occupant], origin: XY, budget: int) -> dict[XY, int]:
    """Every cell reachable with `budget` points, with its cheapest cost (Dijkstra); the
    tank's own cell is left out."""
    moving = {k: v for k, v in occ.items() if k != origin}
    best: dict[XY, int] = {origin: 0}
    queue = [(0, origin)]
    while queue:
        cost, xy = heapq.heappop(queue)
        if cost > best.get(xy, 1 << 30):
            continue
        for nxt, step in steps(moving, xy, budget - cost):
            total = cost + step
            if total < best.get(nxt, 1 << 30):
                best[nxt] = total
                heapq.heappush(queue, (total, nxt))
    del best[origin]
    return best
