"""Board geometry shared by the C64 games (ruling C2), as tables.

Squares are named ``a1``..``h8``: column a-h west to east, row 1-8 south to north. Grid points
(Trains, Snakes) are ``[gx, gy]`` with 0..8 each; square ``a1`` has the corners (0,0)-(1,1).
Seats sit at compass sides; clockwise seen from above is S -> W -> N -> E. Every seat-relative
direction is turned into an absolute one here, before any game rule sees it.
"""

from __future__ import annotations

from typing import Final

DIRECTIONS: Final = ("N", "E", "S", "W")
DIRECTION_NAMES: Final = {"N": "north", "E": "east", "S": "south", "W": "west"}
DELTA: Final = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE: Final = {"N": "S", "S": "N", "E": "W", "W": "E"}

MOVE_FACES: Final = ("up", "down", "left", "right")
BUTTON_FACES: Final = ("left_button", "right_button")
FACES: Final = MOVE_FACES + BUTTON_FACES
FACE_NAMES: Final = {
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "left_button": "Left Button",
    "right_button": "Right Button",
}

# Ruling C2, one row per seat:
# side, colour, faces, up, down, left, right, left corner, opposite corner,
# left corner point, opposite corner point, closest centre square.
_SEAT_TABLE: Final = (
    ("S", "red", "N", "N", "S", "W", "E", "a1", "h8", (0, 0), (8, 8), "d4"),
    ("W", "blue", "E", "E", "W", "N", "S", "a8", "h1", (0, 8), (8, 0), "d5"),
    ("N", "green", "S", "S", "N", "E", "W", "h8", "a1", (8, 8), (0, 0), "e5"),
    ("E", "yellow", "W", "W", "E", "S", "N", "h1", "a8", (8, 0), (0, 8), "e4"),
)

SIDES: Final = tuple(row[0] for row in _SEAT_TABLE)
"""Clockwise order seen from above."""
SIDES_BY_PLAYERS: Final = {2: ("S", "N"), 3: ("S", "W", "N"), 4: ("S", "W", "N", "E")}
"""Sides in turn order (Player 1 first) for each player count."""

COLOR: Final = {row[0]: row[1] for row in _SEAT_TABLE}
FACING: Final = {row[0]: row[2] for row in _SEAT_TABLE}
ABSOLUTE: Final = {
    row[0]: {"up": row[3], "down": row[4], "left": row[5], "right": row[6]} for row in _SEAT_TABLE
}
"""ABSOLUTE[side][relative face] -> absolute direction."""
LEFT_CORNER: Final = {row[0]: row[7] for row in _SEAT_TABLE}
OPPOSITE_CORNER: Final = {row[0]: row[8] for row in _SEAT_TABLE}
LEFT_CORNER_POINT: Final = {row[0]: row[9] for row in _SEAT_TABLE}
OPPOSITE_CORNER_POINT: Final = {row[0]: row[10] for row in _SEAT_TABLE}
CENTRE: Final = {row[0]: row[11] for row in _SEAT_TABLE}

COLUMNS: Final = "abcdefgh"
SIZE: Final = 8
SQUARES: Final = tuple(f"{c}{r}" for r in range(1, SIZE + 1) for c in COLUMNS)
CORNERS: Final = frozenset({"a1", "h1", "a8", "h8"})


def square_xy(square: str) -> tuple[int, int]:
    """'a1' -> (0, 0); 'h8' -> (7, 7)."""
    return COLUMNS.index(square[0]), int(square[1]) - 1


def xy_square(x: int, y: int) -> str | None:
    """(0, 0) -> 'a1'; None off the board."""
    if 0 <= x < SIZE and 0 <= y < SIZE:
        return f"{COLUMNS[x]}{y + 1}"
    return None


def _neighbours(square: str) -> dict[str, str | None]:
    x, y = square_xy(square)
    return {d: xy_square(x + dx, y + dy) for d, (dx, dy) in DELTA.items()}


STEP: Final[dict[str, dict[str, str | None]]] = {sq: _neighbours(sq) for sq in SQUARES}
"""STEP[square][direction] -> the neighbouring square, or None past the edge."""


def step(square: str, direction: str) -> str | None:
    return STEP[square][direction]


def point_step(point: tuple[int, int] | list[int], direction: str) -> tuple[int, int] | None:
    """One grid point in `direction`, None off the 9x9 grid points."""
    dx, dy = DELTA[direction]
    x, y = point[0] + dx, point[1] + dy
    if 0 <= x <= SIZE and 0 <= y <= SIZE:
        return x, y
    return None


def absolute(side: str, face: str) -> str:
    """A seat-relative move face ('up', ...) as an absolute direction ('N', ...)."""
    return ABSOLUTE[side][face]
