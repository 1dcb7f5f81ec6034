"""The hotel map and the fixed content of CD Thief, read once from ``data/`` (rulings D1, 3(d)).

``board.txt`` is the 21 x 17 picture from the rulings; ``items.json`` the item start squares,
fixed pieces and Event-card landmarks; ``events.json`` the 50 Event cards. Squares are
``(x, y)`` tuples in code and ``[x, y]`` lists in states, views and events (JSON has no
tuples). Marker symbols ('$', 'k', 'R', ...) stand on a square whose terrain follows from
the marker (the CDs lie in the Casino, Zappers in the Museum, Studsons in the VIP room...).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from typing import Any, Final

Square = tuple[int, int]

WIDTH: Final = 21
HEIGHT: Final = 17

WALL, FLOOR, CASINO, MUSEUM, VIP, EXIT = "#", ".", "c", "m", "v", "x"
CASINO_DOOR, MUSEUM_DOOR, VIP_DOOR, ENTRANCE = "C", "U", "P", "E"
DOORS: Final = frozenset({CASINO_DOOR, MUSEUM_DOOR, VIP_DOOR, ENTRANCE})

MARKER_TERRAIN: Final = {
    "$": CASINO,
    "I": CASINO,
    "J": MUSEUM,
    "z": MUSEUM,
    "s": VIP,
    "1": FLOOR,
    "2": FLOOR,
    "3": FLOOR,
    "k": FLOOR,
    "p": FLOOR,
    "R": EXIT,
    "G": EXIT,
    "Y": EXIT,
    "B": EXIT,
}
TERRAINS: Final = frozenset({WALL, FLOOR, CASINO, MUSEUM, VIP, EXIT}) | DOORS

ROOM_OF_TERRAIN: Final = {
    CASINO: "casino",
    CASINO_DOOR: "casino",
    MUSEUM: "museum",
    MUSEUM_DOOR: "museum",
    VIP: "vip",
    VIP_DOOR: "vip",
}
"""D2: the squares that need the Key (casino, museum) or the VIP Pass (vip)."""
DOOR_OF_ROOM: Final = {"casino": CASINO_DOOR, "museum": MUSEUM_DOOR, "vip": VIP_DOOR}
ROOM_ITEM: Final = {"casino": "key", "museum": "key", "vip": "pass"}
ROOM_NAMES: Final = {"casino": "the Casino", "museum": "the Museum", "vip": "the VIP room"}

ORTHOGONAL: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N, E, S, W
KING_STEPS: Final = ORTHOGONAL + ((1, -1), (1, 1), (-1, 1), (-1, -1))  # then NE, SE, SW, NW
"""D4's tie order: orthogonal before diagonal, then N, E, S, W, NE, SE, SW, NW."""


def _read(name: str) -> str:
    return resources.files("app.games.cd_thief").joinpath("data").joinpath(name).read_text("utf-8")


def parse_board(text: str) -> tuple[dict[Square, str], dict[Square, str]]:
    """The picture as ({square: terrain}, {square: marker}); raises ValueError if malformed."""
    rows = [line.rstrip() for line in text.splitlines()]
    rows = [line for line in rows if line and not line.startswith(";")]
    if len(rows) != HEIGHT or any(len(row) != WIDTH for row in rows):
        raise ValueError(f"the hotel map must be {WIDTH} x {HEIGHT} symbols")
    terrain: dict[Square, str] = {}
    markers: dict[Square, str] = {}
    for y, row in enumerate(rows):
        for x, symbol in enumerate(row):
            if symbol in MARKER_TERRAIN:
                markers[(x, y)] = symbol
                terrain[(x, y)] = MARKER_TERRAIN[symbol]
            elif symbol in TERRAINS:
                terrain[(x, y)] = symbol
            else:
                raise ValueError(f"unknown map symbol {symbol!r} at ({x}, {y})")
    return terrain, markers


TERRAIN, MARKERS = parse_board(_read("board.txt"))
CONTENT: Final[dict[str, Any]] = json.loads(_read("items.json"))
CARDS: Final[dict[int, dict[str, Any]]] = {
    card["number"]: card for card in json.loads(_read("events.json"))["cards"]
}

COLOURS: Final[tuple[str, ...]] = tuple(CONTENT["colours"])
ITEM_KINDS: Final = ("zapper", "key", "pass", "studson")
STEAL_ORDER: Final = ("cds", "zapper", "key", "pass", "studson")
"""Rulebook, Carl's Inventory: "CD Stack - Zapper - Key - VIP Pass - Studson"."""
ITEM_NAMES: Final = {
    "cds": "the stack of CDs",
    "zapper": "Zapper",
    "key": "Key",
    "pass": "VIP Pass",
    "studson": "Studson",
}
PODCASTERS: Final = ("scott", "socal_mike", "uk_mike")
"""D5's battle order: Scott, SoCal Mike, UK Mike."""
PODCASTER_NAMES: Final = {"scott": "Scott", "socal_mike": "SoCal Mike", "uk_mike": "UK Mike"}


def sq(value: Iterable[int]) -> Square:
    x, y = value
    return (x, y)


def as_list(square: Square) -> list[int]:
    return [square[0], square[1]]


CDS_HOME: Final = sq(CONTENT["cds"])
ITG_HOME: Final = sq(CONTENT["itg"])
CARL_HOME: Final = sq(CONTENT["carl"])
PODCASTER_HOMES: Final = {name: sq(xy) for name, xy in CONTENT["podcasters"].items()}
LANDMARKS: Final = {name: sq(xy) for name, xy in CONTENT["landmarks"].items()}
LANDMARK_NAMES: Final = {
    "casino_door": "the Casino door",
    "museum_door": "the Museum door",
    "vip_door": "the VIP door",
    "lobby": "the Lobby",
    "cd_stack": "the CD stack",
}


PLACE_OF_TERRAIN: Final = {
    CASINO: "the Casino",
    MUSEUM: "the Museum",
    VIP: "the VIP room",
    EXIT: "the Hotel Exit",
    CASINO_DOOR: "the Casino door",
    MUSEUM_DOOR: "the Museum door",
    VIP_DOOR: "the VIP door",
    ENTRANCE: "the main entrance",
}
CORRIDOR_ROWS: Final = range(7, 9)
"""Rulings 3(d) "Areas": the main corridor is rows 7-8; the north hall lies above it, the
lobby and the lounge below."""
LOUNGE_FIRST_COLUMN: Final = 13
"""The lobby's opening into the lounge, (13,12), is counted as the lounge."""


def _columns(*kinds: str) -> frozenset[int]:
    return frozenset(x for (x, _y), kind in TERRAIN.items() if kind in kinds)


CASINO_COLUMNS: Final = _columns(CASINO, CASINO_DOOR)
MUSEUM_COLUMNS: Final = _columns(MUSEUM, MUSEUM_DOOR)


def place_name(square: Square) -> str | None:
    """Where `square` is, in words a player can check on the drawn map (which shows no
    coordinates): a room, door or the Hotel Exit by its name, the hotel floor by its area
    (the map labels the Lobby and the Lounge; the corridor is told apart by the room beside
    it); None for a wall or a square off the map."""
    kind = terrain(square)
    if kind in PLACE_OF_TERRAIN:
        return PLACE_OF_TERRAIN[kind]
    if kind != FLOOR:
        return None
    x, y = square
    if y < CORRIDOR_ROWS.start:
        return "the hall between the Casino and the Museum"
    if y in CORRIDOR_ROWS:
        if x in CASINO_COLUMNS:
            return "the corridor outside the Casino"
        if x in MUSEUM_COLUMNS:
            return "the corridor outside the Museum"
        return "the middle of the corridor"
    return "the Lounge" if x >= LOUNGE_FIRST_COLUMN else "the Lobby"


def item_id(colour: str, kind: str) -> str:
    return f"{colour}-{kind}"


def item_home(item: str) -> Square:
    """The start square of an item id ("red-key", "cds")."""
    if item == "cds":
        return CDS_HOME
    colour, kind = item.split("-")
    return sq(CONTENT["items"][colour][kind])


def thief_start(colour: str) -> Square:
    return sq(CONTENT["items"][colour]["start"])


def item_text(item: str) -> str:
    if item == "cds":
        return ITEM_NAMES["cds"]
    colour, kind = item.split("-")
    return f"the {colour} {ITEM_NAMES[kind]}"


def on_board(square: Square) -> bool:
    return 0 <= square[0] < WIDTH and 0 <= square[1] < HEIGHT


def terrain(square: Square) -> str:
    return TERRAIN.get(square, WALL)


def is_exit(square: Square) -> bool:
    """The Hotel Exit area, outside the hotel."""
    return terrain(square) == EXIT


def is_inside(square: Square) -> bool:
    return not is_exit(square) and terrain(square) != WALL


def is_standable(square: Square) -> bool:
    """Inside, and neither a wall nor a door: where podcasters, Carl, ITG and items may rest."""
    kind = terrain(square)
    return kind not in DOORS and kind not in (WALL, EXIT)


EXIT_SQUARES: Final = tuple(
    sorted((s for s, t in TERRAIN.items() if t == EXIT), key=lambda s: (s[1], s[0]))
)


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def orthogonal_neighbours(square: Square) -> Iterator[Square]:
    for dx, dy in ORTHOGONAL:
        nxt = (square[0] + dx, square[1] + dy)
        if on_board(nxt):
            yield nxt


def king_neighbours(square: Square) -> Iterator[Square]:
    for dx, dy in KING_STEPS:
        nxt = (square[0] + dx, square[1] + dy)
        if on_board(nxt):
            yield nxt


def adjacent(a: Square, b: Square) -> bool:
    """The 8 neighbours (D4)."""
    return chebyshev(a, b) == 1


def nearest(
    origin: Square, accept: Callable[[Square], bool], through: Callable[[Square], bool]
) -> Square | None:
    """The first square accepted by a breadth-first search from `origin` (itself first) over
    orthogonal steps on squares `through` allows, in N, E, S, W order: "the nearest free
    square" of the rulings, searched along the corridors so that a displaced item or piece
    stays in the same part of the hotel rather than jumping a wall."""
    seen = {origin}
    queue = deque([origin])
    while queue:
        square = queue.popleft()
        if accept(square):
            return square
        for nxt in orthogonal_neighbours(square):
            if nxt not in seen and through(nxt):
                seen.add(nxt)
                queue.append(nxt)
    return None


RULINGS_KEY: Final = "rulings"
"""In the state of a match played by rules version 2 (ruling D11 of 2026-11-24: a main
entrance three squares wide, nobody blocks outside). A match begun under version 1 has no such
key and keeps its single-square entrance, blocking outside and D8's nearest free exit."""
BESIDE_THE_OLD_ENTRANCE: Final = frozenset({(8, 14), (10, 14)})


def under_d11(state: dict[str, Any]) -> bool:
    return RULINGS_KEY in state


def terrain_in(state: dict[str, Any], square: Square) -> str:
    """`terrain`, except that a match begun before D11 has walls beside its one entrance."""
    if square in BESIDE_THE_OLD_ENTRANCE and not under_d11(state):
        return WALL
    return terrain(square)


def not_wall(square: Square) -> bool:
    return terrain(square) != WALL


def shortest_path(start: Square, goal: Square, through: Callable[[Square], bool]) -> list[Square]:
    """A shortest orthogonal path start..goal (both included) over `through`; [] if none."""
    previous: dict[Square, Square | None] = {start: None}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        if square == goal:
            path = [square]
            while (back := previous[path[-1]]) is not None:
                path.append(back)
            return path[::-1]
        for nxt in orthogonal_neighbours(square):
            if nxt not in previous and through(nxt):
                previous[nxt] = square
                queue.append(nxt)
    return []
