"""The Tactrics (Vortex) board, built from the triangular lattice of ruling V1.

Lattice points sit in 7 rows (y = 0..6) of 4, 5, 6, 7, 6, 5, 4 points, x spaced by 2 and
centred on 0, so a point is (x, y) with |x| + |y - 3| <= 6 and x + y odd-even matched. The 19
inner points are the towers (rows 1..5: T11..T13, T21..T24, T31..T35, T41..T44, T51..T53);
the 18 outer points are the rim. Router slots are the 54 unit triangles of that hexagon,
named by their band (A = between rows 0 and 1, ..., F = between rows 5 and 6) and their
order from the west (A1..A7, B1..B9, C1..C11, D1..D11, E1..E9, F1..F7).

A tower's slots are the 6 triangles around its point, listed clockwise from the one straight
above it (the order of the rulings' table, 4(d)); a clockwise turn moves list position k to
k + 1 (V2). Two slots are adjacent when their triangles share a side (two lattice points).
Everything here is computed once at import time; `data/board.json` holds the rulings' own
table, and the tests check that the lattice gives exactly that table.
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
BANDS = "ABCDEF"
ROW_SIZES = (4, 5, 6, 7, 6, 5, 4)
ROOT3 = math.sqrt(3.0)

Point = tuple[int, int]


def _points() -> list[Point]:
    return [(2 * i - (size - 1), y) for y, size in enumerate(ROW_SIZES) for i in range(size)]


POINTS: frozenset[Point] = frozenset(_points())


def _is_rim(point: Point) -> bool:
    x, y = point
    row = [p for p in POINTS if p[1] == y]
    return y in (0, 6) or x in (min(p[0] for p in row), max(p[0] for p in row))


def _tower_names() -> dict[Point, str]:
    names: dict[Point, str] = {}
    for y in range(1, 6):
        inner = sorted(p for p in POINTS if p[1] == y and not _is_rim(p))
        for i, point in enumerate(inner, start=1):
            names[point] = f"T{y}{i}"
    return names


TOWER_AT: dict[Point, str] = _tower_names()
TOWER_POINT: dict[str, Point] = {name: point for point, name in TOWER_AT.items()}
TOWERS: tuple[str, ...] = tuple(
    sorted(TOWER_POINT, key=lambda t: (TOWER_POINT[t][1], TOWER_POINT[t][0]))
)


def _triangles() -> dict[str, frozenset[Point]]:
    """Every unit triangle of the hexagon, named by band and west-to-east order."""
    named: dict[str, frozenset[Point]] = {}
    for band in range(6):
        lower = sorted(p for p in POINTS if p[1] == band)
        upper = sorted(p for p in POINTS if p[1] == band + 1)
        found = []
        for a, b in zip(lower, lower[1:], strict=False):  # pointing up: base below
            apex = ((a[0] + b[0]) // 2, band + 1)
            if apex in POINTS:
                found.append(frozenset((a, b, apex)))
        for a, b in zip(upper, upper[1:], strict=False):  # pointing down: base above
            apex = ((a[0] + b[0]) // 2, band)
            if apex in POINTS:
                found.append(frozenset((a, b, apex)))
        found.sort(key=lambda tri: sum(p[0] for p in tri))
        for i, tri in enumerate(found, start=1):
            named[f"{BANDS[band]}{i}"] = tri
    return named


TRIANGLES: dict[str, frozenset[Point]] = _triangles()
SLOTS: tuple[str, ...] = tuple(TRIANGLES)


def slot_centre(slot: str) -> tuple[float, float]:
    """The triangle's centre in board units: x as in the lattice, y grows northwards."""
    tri = TRIANGLES[slot]
    return (sum(p[0] for p in tri) / 3, sum(p[1] for p in tri) * ROOT3 / 3)


def tower_centre(tower: str) -> tuple[float, float]:
    x, y = TOWER_POINT[tower]
    return (float(x), y * ROOT3)


def slot_points_up(slot: str) -> bool:
    """True when the triangle's apex is above its base."""
    ys = sorted(p[1] for p in TRIANGLES[slot])
    return ys[1] == ys[0]


def _tower_slots() -> dict[str, tuple[str, ...]]:
    table = {}
    for tower, point in TOWER_POINT.items():
        around = [s for s, tri in TRIANGLES.items() if point in tri]
        tx, ty = tower_centre(tower)

        def clockwise_from_north(slot: str, tx: float = tx, ty: float = ty) -> float:
            sx, sy = slot_centre(slot)
            return (90.0 - math.degrees(math.atan2(sy - ty, sx - tx))) % 360.0

        table[tower] = tuple(sorted(around, key=clockwise_from_north))
    return table


TOWER_SLOTS: dict[str, tuple[str, ...]] = _tower_slots()
SLOT_TOWERS: dict[str, tuple[str, ...]] = {
    slot: tuple(t for t in TOWERS if slot in TOWER_SLOTS[t]) for slot in SLOTS
}


def _lattice_neighbours(a: Point, b: Point) -> bool:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dy == 0 and dx == 2) or (dy == 1 and dx == 1)


NEIGHBOUR_TOWERS: dict[str, tuple[str, ...]] = {
    tower: tuple(
        sorted(
            other
            for other in TOWERS
            if other != tower and _lattice_neighbours(TOWER_POINT[tower], TOWER_POINT[other])
        )
    )
    for tower in TOWERS
}
SLOT_NEIGHBOURS: dict[str, tuple[str, ...]] = {
    slot: tuple(o for o in SLOTS if o != slot and len(TRIANGLES[slot] & TRIANGLES[o]) == 2)
    for slot in SLOTS
}


def _load_edges() -> dict[str, tuple[str, ...]]:
    raw = json.loads((DATA / "board.json").read_text())
    return {side: tuple(slots) for side, slots in raw["edges"].items()}


EDGES: dict[str, tuple[str, ...]] = _load_edges()


# --- rotation (V2) -----------------------------------------------------------------------
DIRECTIONS = ("cw", "ccw")
OPPOSITE_DIRECTION = {"cw": "ccw", "ccw": "cw"}
DIRECTION_WORDS = {"cw": "clockwise", "ccw": "anticlockwise"}


def rotation_map(tower: str, direction: str) -> dict[str, str]:
    """slot -> the slot its content moves to when `tower` turns one position."""
    ring = TOWER_SLOTS[tower]
    step = 1 if direction == "cw" else -1
    return {ring[k]: ring[(k + step) % 6] for k in range(6)}


def rotate_contents(contents: Mapping[str, Any], tower: str, direction: str) -> dict[str, Any]:
    """A new slot -> content mapping (only occupied slots listed) after one turn of `tower`;
    empty slots turn too, since a turn is a cyclic permutation of the 6 slots' contents."""
    moves = rotation_map(tower, direction)
    out = {slot: value for slot, value in contents.items() if slot not in moves}
    for slot, value in contents.items():
        if slot in moves:
            out[moves[slot]] = value
    return out


# --- distances (for playout scores and tests) ------------------------------------------------
def distances_to(goal: Iterable[str]) -> dict[str, int]:
    """Fewest slot-to-adjacent-slot steps from every slot into `goal` (a turn moves a router
    one such step)."""
    dist = {slot: 0 for slot in goal}
    queue = deque(dist)
    while queue:
        slot = queue.popleft()
        for other in SLOT_NEIGHBOURS[slot]:
            if other not in dist:
                dist[other] = dist[slot] + 1
                queue.append(other)
    return dist


def geometry() -> dict[str, Any]:
    """The board drawing for the client: tower and slot centres (y grows northwards)."""
    return {
        "tower_ids": list(TOWERS),
        "slot_ids": list(SLOTS),
        "towers": {t: [round(c, 4) for c in tower_centre(t)] for t in TOWERS},
        "slots": {
            s: {
                "x": round(slot_centre(s)[0], 4),
                "y": round(slot_centre(s)[1], 4),
                "up": slot_points_up(s),
            }
            for s in SLOTS
        },
        "tower_slots": {t: list(TOWER_SLOTS[t]) for t in TOWERS},
        "rim": [[x, round(y * ROOT3, 4)] for x, y in sorted(POINTS) if _is_rim((x, y))],
    }


GEOMETRY: dict[str, Any] = geometry()


def geometry_module() -> str:
    """The text of static/js/tactrics/geometry.js (the client's copy of the board); a test
    checks that the file is exactly this, so client and rules never disagree."""
    body = json.dumps(GEOMETRY, indent=1, sort_keys=False)
    return (
        "// Generated from app/games/tactrics/board.py (geometry_module); do not edit.\n"
        "// Tower and slot centres in board units, y growing northwards (ruling V1).\n"
        f"export const GEOMETRY = {body};\n"
    )


def slot_list(contents: Mapping[str, Any]) -> list[Any]:
    """`contents` as a list in `SLOTS` order (None where empty): a fixed shape, so a view's
    JSON patch after a turn only replaces entries and never reorders keys."""
    return [contents.get(slot) for slot in SLOTS]


def tower_list(contents: Mapping[str, Any]) -> list[Any]:
    return [contents.get(tower) for tower in TOWERS]
