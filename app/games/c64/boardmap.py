"""Wall maps of the C64 games, read from the ASCII pictures in ``maps/<name>.txt``.

A map file is the picture from the rulings (row 8 on top, one symbol per square separated by
spaces, the column letters below), with optional comment lines starting with ``;``. Keeping
the maps as data means a ruling change to a map is a change to a text file, not to code.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Final

from app.games.c64.geometry import COLUMNS, SIZE

SYMBOLS: Final = frozenset(".#/\\TAM12345678")
"""'.' empty, '#' wall, '/' '\\' Tanks mirrors, 'T' 'A' starts, 'M' centre squares, digits
Cars start squares."""


def parse_map(text: str) -> MappingProxyType[str, str]:
    """The picture as {square: symbol} for all 64 squares; raises ValueError on a bad picture."""
    lines = [line.rstrip() for line in text.splitlines()]
    lines = [line for line in lines if line.strip() and not line.lstrip().startswith(";")]
    if len(lines) != SIZE + 1:
        raise ValueError(f"a map has {SIZE} rows and a column footer, found {len(lines)} lines")
    if lines[-1].split() != list(COLUMNS):
        raise ValueError(f"the map's last line must be the columns {' '.join(COLUMNS)}")
    squares: dict[str, str] = {}
    for line, row in zip(lines[:-1], range(SIZE, 0, -1), strict=True):
        label, *cells = line.split()
        if label != str(row):
            raise ValueError(f"expected row {row}, found {label!r}")
        if len(cells) != SIZE:
            raise ValueError(f"row {row} has {len(cells)} squares, not {SIZE}")
        for column, symbol in zip(COLUMNS, cells, strict=True):
            if symbol not in SYMBOLS:
                raise ValueError(f"unknown symbol {symbol!r} at {column}{row}")
            squares[f"{column}{row}"] = symbol
    return MappingProxyType(squares)


@cache
def load_map(name: str) -> MappingProxyType[str, str]:
    """Map `name` ('Z', 'T', 'M', 'K') from the package's maps folder."""
    text = resources.files(__package__).joinpath("maps", f"{name}.txt").read_text("utf-8")
    return parse_map(text)


def squares_with(name: str, symbols: str) -> tuple[str, ...]:
    """The squares of map `name` that show one of `symbols`, sorted by name."""
    return tuple(sorted(sq for sq, sym in load_map(name).items() if sym in symbols))
