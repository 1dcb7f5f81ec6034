"""Where everything stands: read-only queries on a CD Thief state, and small mutators that the
rules modules call on a state they own (a fresh copy made by `CdThief.apply`).

"No two characters or items can occupy the same space on the board" (rulebook), so most
rules ask one of three questions: is a character there, is an item there, is it free.
"""

from __future__ import annotations

from app.engine.contract import State
from app.games.cd_thief.board import PODCASTERS as PODCASTERS_ORDER
from app.games.cd_thief.board import (
    STEAL_ORDER,
    Square,
    is_exit,
    is_standable,
    item_home,
    nearest,
    not_wall,
    sq,
)


def thief_square(state: State, seat: int) -> Square | None:
    pos = state["thieves"][seat]["pos"]
    return None if pos is None else sq(pos)


def thief_at(state: State) -> dict[Square, int]:
    return {sq(t["pos"]): seat for seat, t in enumerate(state["thieves"]) if t["pos"] is not None}


def character_squares(state: State) -> set[Square]:
    """Thieves, podcasters, Carl and Intellivision-The-Great."""
    squares = set(thief_at(state))
    squares.update(sq(pos) for pos in state["podcasters"].values())
    squares.add(sq(state["carl"]["pos"]))
    squares.add(sq(state["itg"]))
    return squares


def item_at(state: State) -> dict[Square, str]:
    return {sq(pos): item for item, pos in state["items"].items()}


def is_free(state: State, square: Square) -> bool:
    """No character and no item on it."""
    return square not in character_squares(state) and square not in item_at(state)


def inside(state: State, seat: int) -> bool:
    """In the hotel (not out of the game, not in the Hotel Exit area)."""
    square = thief_square(state, seat)
    return square is not None and not is_exit(square)


def is_eligible(state: State, seat: int, podcaster: str) -> bool:
    """D4: a thief a podcaster reacts to: inside the hotel and not having killed it."""
    return inside(state, seat) and podcaster not in state["thieves"][seat]["killed"]


def adjacent_podcasters(state: State, seat: int) -> list[str]:
    """The podcasters next to `seat` (8 neighbours) that she has not killed, in D5's order."""
    square = thief_square(state, seat)
    if square is None or not inside(state, seat):
        return []
    found = []
    for name in PODCASTERS_ORDER:
        pos = sq(state["podcasters"][name])
        if max(abs(pos[0] - square[0]), abs(pos[1] - square[1])) == 1 and is_eligible(
            state, seat, name
        ):
            found.append(name)
    return found


def nearest_free(state: State, origin: Square) -> Square:
    """D7/D8/HOME: `origin` if free, else the nearest free standable square."""
    occupied = character_squares(state) | set(item_at(state))
    found = nearest(origin, lambda s: is_standable(s) and s not in occupied, not_wall)
    if found is None:  # pragma: no cover - the hotel always has room
        raise RuntimeError("no free square left in the hotel")
    return found


def place_item(state: State, item: str, square: Square | None = None) -> list[int]:
    """Put `item` on `square` (default: its start square), or the nearest free square if that
    one is taken; returns where it went."""
    target = nearest_free(state, square if square is not None else item_home(item))
    state["items"] = {**state["items"], item: [target[0], target[1]]}
    return [target[0], target[1]]


def remove_item(state: State, item: str) -> None:
    state["items"] = {k: v for k, v in state["items"].items() if k != item}


def set_backpack(state: State, seat: int, kinds: list[str]) -> None:
    thief = dict(state["thieves"][seat])
    thief["backpack"] = [k for k in STEAL_ORDER if k in kinds]
    thieves = list(state["thieves"])
    thieves[seat] = thief
    state["thieves"] = thieves


def update_thief(state: State, seat: int, **changes: object) -> None:
    thieves = list(state["thieves"])
    thieves[seat] = {**thieves[seat], **changes}
    state["thieves"] = thieves


def has(state: State, seat: int, kind: str) -> bool:
    return kind in state["thieves"][seat]["backpack"]
