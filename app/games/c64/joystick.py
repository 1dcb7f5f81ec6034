"""The joystick-card engine every C64 game shares (rulings C3 and C4), as pure functions.

A player's joystick is JSON data::

    {"grid": [[id | None] * 3] * 3,      # row 0 is the top row as the player sees it
     "active": [{"card": id, "face": f}], # taken cards with their chosen faces, sorted by id
     "tilted": [row, col] | None,         # the last played card's cell
     "axis": "row" | "col" | None,        # axis of the line the active cards came from;
                                          # None until the set-up take
     "must_return": bool}                 # set-up: Player 2/4 still has to return one card

Card faces (C3): cards 0-2 are Up|Down, 3-5 Left|Right, 6-8 Left Button|Right Button. Every
function here returns a fresh joystick and never changes the one it is given; anything a
player may not do raises `IllegalMove` with a sentence for that player.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any, Final, NamedTuple

from app.engine.contract import IllegalMove, Move
from app.engine.dice import Dice
from app.games.c64.geometry import FACE_NAMES

Joystick = dict[str, Any]
Cell = tuple[int, int]

CARD_IDS: Final = tuple(range(9))
CARD_FACES: Final = (
    ("up", "down"),
    ("up", "down"),
    ("up", "down"),
    ("left", "right"),
    ("left", "right"),
    ("left", "right"),
    ("left_button", "right_button"),
    ("left_button", "right_button"),
    ("left_button", "right_button"),
)
"""CARD_FACES[card id] = (front, back), ruling C3."""

PERPENDICULAR: Final = {"row": "col", "col": "row"}
CELLS: Final = tuple((r, c) for r in range(3) for c in range(3))


class Played(NamedTuple):
    """What a play did: the new joystick, the card and its face, and the cards taken next."""

    joystick: Joystick
    card: int
    face: str
    to: Cell
    taken: list[dict[str, Any]] | None


def new_joystick(rng: Dice) -> Joystick:
    """A player's nine cards shuffled into the 3x3 grid with the match RNG (C3)."""
    ids = rng.shuffled(CARD_IDS)
    return {
        "grid": [ids[0:3], ids[3:6], ids[6:9]],
        "active": [],
        "tilted": None,
        "axis": None,
        "must_return": False,
    }


def has_taken(joy: Joystick) -> bool:
    return joy["axis"] is not None


def is_ready(joy: Joystick) -> bool:
    """Set-up is done for this joystick: cards taken and, for Player 2/4, one returned."""
    return joy["axis"] is not None and not joy["must_return"]


_LINES: Final = {
    (axis, (r, c)): ((r, 0), (r, 1), (r, 2)) if axis == "row" else ((0, c), (1, c), (2, c))
    for axis in ("row", "col")
    for r, c in CELLS
}


def line_cells(axis: str, cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells of the line of `axis` ("row" or "col") through `cell`."""
    return _LINES[axis, cell]


def empty_cells(joy: Joystick) -> list[Cell]:
    grid = joy["grid"]
    return [cell for cell in CELLS if grid[cell[0]][cell[1]] is None]


def find_card(joy: Joystick, card: int) -> Cell | None:
    grid = joy["grid"]
    for r, c in CELLS:
        if grid[r][c] == card:
            return r, c
    return None


def next_cards(joy: Joystick, to: Cell) -> list[int]:
    """The cards a player takes after placing her last active card at `to` (C4 step 4):
    the other two cards of the line through `to` perpendicular to `axis`, sorted by id."""
    grid = joy["grid"]
    cells = line_cells(PERPENDICULAR[joy["axis"]], to)
    return sorted(grid[r][c] for r, c in cells if (r, c) != to)


# --- legal moves ------------------------------------------------------------------------------
# A seat's legal moves are rebuilt on most moves and kept in the cached views (a set-up list is
# 72 moves), so every part of a move that depends only on card ids and cells is built once,
# here, and shared by all moves and lists: each choice of faces for two cards, each take move
# (36 pairs of cards, 4 choices of faces each), each "to" cell, and each move without "next".
# Sharing is safe only because nothing changes a legal move or any part of it once it is
# built (the server compares them with submitted moves, diffs and serialises the views that
# hold them; bots pick one and hand it to `apply`, which only reads it): treat a legal move as
# an immutable value and copy it before changing anything in it.
def _tables() -> tuple[dict[tuple[int, int], Any], dict[tuple[int, int], Any]]:
    """Two cards' face choices and take moves, keyed by the pair in either order (the moves
    list the lower id first, as `parse_move` does)."""
    choices: dict[tuple[int, int], tuple[list[dict[str, Any]], ...]] = {}
    takes: dict[tuple[int, int], tuple[Move, ...]] = {}
    for a, b in combinations(CARD_IDS, 2):
        pair_choices = tuple(
            [{"card": a, "face": fa}, {"card": b, "face": fb}]
            for fa, fb in product(CARD_FACES[a], CARD_FACES[b])
        )
        pair_takes = tuple({"type": "take", "cards": cards} for cards in pair_choices)
        choices[a, b] = choices[b, a] = pair_choices
        takes[a, b] = takes[b, a] = pair_takes
    return choices, takes


_FACE_CHOICES, _TAKE_MOVES = _tables()
_TO: Final = {cell: list(cell) for cell in CELLS}
_PLAY_MOVES: Final = {
    (card, cell): {"type": "play", "card": card, "to": _TO[cell]}
    for card in CARD_IDS
    for cell in CELLS
}
_RETURN_MOVES: Final = {
    (card, cell): {"type": "return", "card": card, "to": _TO[cell]}
    for card in CARD_IDS
    for cell in CELLS
}


def take_moves(joy: Joystick) -> list[Move]:
    """Set-up: every pair of cards of one row or column, with every choice of faces."""
    if has_taken(joy):
        return []
    grid = joy["grid"]
    moves: list[Move] = []
    for a, b, c in (*grid, *zip(*grid, strict=True)):  # the rows, then the columns
        moves += _TAKE_MOVES[a, b]
        moves += _TAKE_MOVES[a, c]
        moves += _TAKE_MOVES[b, c]
    return moves


def return_moves(joy: Joystick) -> list[Move]:
    """Set-up, Player 2/4: any active card to any empty space."""
    if not joy["must_return"]:
        return []
    empties = empty_cells(joy)
    return [_RETURN_MOVES[a["card"], to] for a in joy["active"] for to in empties]


def play_moves(joy: Joystick) -> list[Move]:
    """A turn: any active card to any empty space; the last one also names the next faces."""
    active = joy["active"]
    empties = empty_cells(joy)
    if len(active) > 1:
        return [_PLAY_MOVES[a["card"], to] for a in active for to in empties]
    grid = joy["grid"]
    across = PERPENDICULAR[joy["axis"]]
    moves: list[Move] = []
    for a in active:
        card = a["card"]
        for to in empties:
            x, y = (grid[r][c] for r, c in _LINES[across, to] if (r, c) != to)  # next_cards
            cell = _TO[to]
            moves += [
                {"type": "play", "card": card, "to": cell, "next": cards}
                for cards in _FACE_CHOICES[x, y]
            ]
    return moves


# --- validation helpers -----------------------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(move: Move, allowed: tuple[str, ...], what: str) -> None:
    extra = sorted(k for k in move if k not in allowed)
    if extra:
        raise IllegalMove(f"A {what} move has no {', '.join(map(repr, extra))}.")


def _card_id(value: Any) -> int:
    if not _is_int(value) or not 0 <= value <= 8:
        raise IllegalMove("Name a joystick card by its number, 0 to 8.")
    return int(value)


def _cell(value: Any) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(_is_int(v) and 0 <= v <= 2 for v in value)
    ):
        raise IllegalMove("Name a space of your grid as [row, column], each 0 to 2.")
    return int(value[0]), int(value[1])


def _face_choice(value: Any, what: str) -> list[tuple[int, str]]:
    """Two {"card", "face"} entries, checked for shape, distinct cards and faces they show."""
    shape = f"Choose {what} as two cards, each with a card number and a face."
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise IllegalMove(shape)
    out: list[tuple[int, str]] = []
    for entry in value:
        if not isinstance(entry, dict) or set(entry) != {"card", "face"}:
            raise IllegalMove(shape)
        card = _card_id(entry["card"])
        face = entry["face"]
        if face not in CARD_FACES[card]:
            front, back = (FACE_NAMES[f] for f in CARD_FACES[card])
            raise IllegalMove(f"Card {card} shows {front} or {back}, not {face!r}.")
        out.append((card, face))
    if out[0][0] == out[1][0]:
        raise IllegalMove(f"Choose two different cards for {what}.")
    out.sort()
    return out


def _copy(joy: Joystick) -> Joystick:
    return {
        "grid": [list(row) for row in joy["grid"]],
        "active": list(joy["active"]),
        "tilted": joy["tilted"],
        "axis": joy["axis"],
        "must_return": joy["must_return"],
    }


def _active_index(joy: Joystick, card: int) -> int:
    for i, a in enumerate(joy["active"]):
        if a["card"] == card:
            return i
    if find_card(joy, card) is not None:
        raise IllegalMove(f"Card {card} is in your grid, not one of your active cards.")
    raise IllegalMove(f"Card {card} is not one of your active cards.")


# --- transitions ------------------------------------------------------------------------------
def take(joy: Joystick, move: Move, must_return: bool) -> tuple[Joystick, list[dict[str, Any]]]:
    """Set-up (C4 step 1): two cards of one line leave the grid with the chosen faces."""
    _check_keys(move, ("type", "cards"), "take")
    if has_taken(joy):
        raise IllegalMove("You have already taken your joystick cards.")
    chosen = _face_choice(move.get("cards"), "your active cards")
    (a, _), (b, _) = chosen
    cell_a, cell_b = find_card(joy, a), find_card(joy, b)
    assert cell_a is not None and cell_b is not None  # at set-up all nine cards are in the grid
    if cell_a[0] == cell_b[0]:
        axis = "row"
    elif cell_a[1] == cell_b[1]:
        axis = "col"
    else:
        raise IllegalMove(f"Cards {a} and {b} are not in one row or column of your grid.")
    new = _copy(joy)
    for r, c in (cell_a, cell_b):
        new["grid"][r][c] = None
    taken = [{"card": card, "face": face} for card, face in chosen]
    new["active"] = taken
    new["axis"] = axis
    new["must_return"] = must_return
    return new, taken


def return_card(joy: Joystick, move: Move) -> tuple[Joystick, int, Cell]:
    """Set-up, Player 2/4 (C4 step 2): one active card back to an empty space, no action."""
    _check_keys(move, ("type", "card", "to"), "return")
    if not has_taken(joy):
        raise IllegalMove("Take your two joystick cards first.")
    if not joy["must_return"]:
        raise IllegalMove("Only Player 2 and Player 4 return a card at set-up, once.")
    card = _card_id(move.get("card"))
    to = _cell(move.get("to"))
    index = _active_index(joy, card)
    if joy["grid"][to[0]][to[1]] is not None:
        raise IllegalMove(f"The space [{to[0]}, {to[1]}] of your grid is not empty.")
    new = _copy(joy)
    new["grid"][to[0]][to[1]] = card
    del new["active"][index]
    new["must_return"] = False
    return new, card, to


def play(joy: Joystick, move: Move) -> Played:
    """A turn (C4 steps 3-5): place an active card on an empty space and tilt it; after the
    last one, take the other two cards of the perpendicular line with the faces in "next"."""
    _check_keys(move, ("type", "card", "to", "next"), "play")
    card = _card_id(move.get("card"))
    to = _cell(move.get("to"))
    index = _active_index(joy, card)
    if joy["grid"][to[0]][to[1]] is not None:
        raise IllegalMove(f"The space [{to[0]}, {to[1]}] of your grid is not empty.")
    last = len(joy["active"]) == 1
    nxt = move.get("next")
    if not last and nxt is not None:
        raise IllegalMove(
            "You still have another active card, so do not choose next cards yet (no 'next')."
        )
    new = _copy(joy)
    grid = new["grid"]
    grid[to[0]][to[1]] = card
    face = new["active"].pop(index)["face"]
    new["tilted"] = [to[0], to[1]]
    taken: list[dict[str, Any]] | None = None
    if last:
        expected = next_cards(new, to)
        line = "column" if joy["axis"] == "row" else "row"
        if nxt is None:
            raise IllegalMove(
                "This is your last active card: also choose the faces of the other two cards "
                f"of the {line} you place it in (cards {expected[0]} and {expected[1]}) as 'next'."
            )
        chosen = _face_choice(nxt, "your next cards")
        if [c for c, _ in chosen] != expected:
            raise IllegalMove(
                f"Your next cards must be the other two cards of the {line} you place this card "
                f"in: cards {expected[0]} and {expected[1]}."
            )
        for r, c in line_cells(PERPENDICULAR[joy["axis"]], to):
            if (r, c) != to:
                grid[r][c] = None
        taken = [{"card": c, "face": f} for c, f in chosen]
        new["active"] = taken
        new["axis"] = PERPENDICULAR[joy["axis"]]
    return Played(new, card, face, to, taken)
