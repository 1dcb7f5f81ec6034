"""The Zone: coordinates, the zone layout model and the two suggested setups (rulings K1, 1(d)).

Cells are named like a chess board (K1): columns A-O west to east, rows 1-15 south to north,
so "E1" is green's home row and "E15" orange's. Internally a cell is also (x, y) with x, y in
0..14; positions off the board (a collateral landing, K6) exist only as (x, y).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
SIDES = ("green", "orange")
HOME_ROW = {"green": 0, "orange": SIZE - 1}  # y of each side's home edge (K1)
CENTRE = "H8"  # Mission 1's extra Energy Pool (K14)

XY = tuple[int, int]


def on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def cell_name(x: int, y: int) -> str:
    if not on_board(x, y):
        edge = f"{COLUMNS[min(max(x, 0), SIZE - 1)]}{min(max(y, 0), SIZE - 1) + 1}"
        return f"a spot off the Zone beyond {edge}"
    return f"{COLUMNS[x]}{y + 1}"


def parse_cell(name: str) -> XY:
    """ "E1" -> (4, 0); raises ValueError for anything that is not a cell of the Zone."""
    if not isinstance(name, str) or len(name) < 2 or name[0] not in COLUMNS:
        raise ValueError(f"{name!r} is not a cell (A1..O15)")
    digits = name[1:]
    if not digits.isdigit() or digits.startswith("0"):
        raise ValueError(f"{name!r} is not a cell (A1..O15)")
    row = int(digits)
    if not 1 <= row <= SIZE:
        raise ValueError(f"{name!r} is not a cell (A1..O15)")
    return COLUMNS.index(name[0]), row - 1


ALL_CELLS = tuple(cell_name(x, y) for y in range(SIZE) for x in range(SIZE))


def _cells(values: list[str]) -> list[str]:
    for value in values:
        parse_cell(value)
    if len(set(values)) != len(values):
        raise ValueError("a cell is listed twice")
    return values


class Zone(BaseModel):
    """A layout: walls, Energy Pools, gaps (pre-destroyed floor, K1) and the six tanks' cells,
    tank 1, 2, 3 of each side in order."""

    model_config = ConfigDict(extra="forbid")

    walls: list[str] = Field(default_factory=list, description="Wall cells, e.g. 'B8'.")
    pools: list[str] = Field(default_factory=list, description="Energy Pool cells.")
    gaps: list[str] = Field(default_factory=list, description="Gap (destroyed floor) cells.")
    green: list[str] = Field(description="Cells of green tanks 1, 2, 3.")
    orange: list[str] = Field(description="Cells of orange tanks 1, 2, 3.")

    @field_validator("walls", "pools", "gaps")
    @classmethod
    def _valid_cells(cls, values: list[str]) -> list[str]:
        return sorted(_cells(values), key=parse_cell)

    @field_validator("green", "orange")
    @classmethod
    def _three_tanks(cls, values: list[str]) -> list[str]:
        if len(values) != 3:
            raise ValueError("each side has exactly three tanks")
        return _cells(values)

    @model_validator(mode="after")
    def _no_overlap(self) -> Zone:
        seen: dict[str, str] = {}
        for kind in ("walls", "pools", "gaps", "green", "orange"):
            for cell in getattr(self, kind):
                if cell in seen:
                    raise ValueError(f"{cell} holds both {seen[cell]} and {kind}")
                seen[cell] = kind
        return self


DATA = Path(__file__).parent / "data"


def _load_setup(letter: str) -> Zone:
    raw: dict[str, Any] = json.loads((DATA / f"setup-{letter.lower()}.json").read_text())
    return Zone.model_validate({k: raw[k] for k in ("walls", "pools", "gaps", "green", "orange")})


SETUPS: dict[str, Zone] = {letter: _load_setup(letter) for letter in ("A", "B")}
SETUP_NAMES = {
    letter: json.loads((DATA / f"setup-{letter.lower()}.json").read_text())["name"]
    for letter in SETUPS
}

COMPASS: dict[int, XY] = {
    int(face): (int(step[0]), int(step[1]))
    for face, step in json.loads((DATA / "compass.json").read_text()).items()
    if face.isdigit()
}
