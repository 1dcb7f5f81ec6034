"""CD Thief movement (rulebook "CD Thief Movement", rulings D2, D3 and D11).

A thief rolls 2d6 = N and makes exactly N orthogonal steps, back and forth allowed, never
through walls, characters or rooms she has no access to (D2). Outside the hotel nobody blocks
(D11): any number of thieves may stand on, pass and end on one Hotel Exit square. She may
pass over items but land only on a free square or on her own item (picked up, no step cost);
the CDs count as someone else's item unless she carries her Studson. If no square can be
reached in exactly N steps she may stop on any square she could land on in fewer steps (the
rulebook's "does not have to take their full movement" exception). A thief escaping with the
CDs wins as soon as she steps onto a Hotel Exit square, so those squares count at any
distance up to N (D9.4).
"""

from __future__ import annotations

from app.engine.contract import State
from app.games.cd_thief.board import (
    DOOR_OF_ROOM,
    EXIT,
    ROOM_ITEM,
    ROOM_OF_TERRAIN,
    WALL,
    Square,
    orthogonal_neighbours,
    shortest_path,
    terrain,
    terrain_in,
    under_d11,
)
from app.games.cd_thief.pieces import character_squares, has, item_at, thief_square


def has_access(state: State, seat: int, square: Square) -> bool:
    """D2: walls never; a room (and its door) needs the item or that room's opened counter."""
    kind = terrain_in(state, square)
    if kind == WALL:
        return False
    room = ROOM_OF_TERRAIN.get(kind)
    if room is None:
        return True
    return has(state, seat, ROOM_ITEM[room]) or room in state["thieves"][seat]["opened"]


class Walker:
    """The squares one thief may walk over and land on, for one state."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.colour = state["thieves"][seat]["colour"]
        self.start = thief_square(state, seat)
        self.blocked = character_squares(state) - {self.start}
        self.items = item_at(state)
        self.studson = has(state, seat, "studson")
        self.frantic = state["frantic"] == seat

    def passable(self, square: Square) -> bool:
        # D11: one thief parked outside the single entrance kept everyone out (and every
        # thief with the CDs in), so only characters inside the hotel block.
        free = square not in self.blocked or (terrain(square) == EXIT and under_d11(self.state))
        return free and has_access(self.state, self.seat, square)

    def landable(self, square: Square) -> bool:
        """D3: free, or her own item, or the CDs when she carries her Studson."""
        if not self.passable(square):
            return False
        item = self.items.get(square)
        if item is None:
            return True
        if item == "cds":
            return self.studson
        return item.startswith(self.colour + "-")

    def targets(self, steps: int) -> list[Square]:
        """The legal end squares for a roll of `steps`, sorted by (y, x)."""
        assert self.start is not None
        layers = [{self.start}]
        for _ in range(steps):
            # The escaping thief's walk ends where it reaches the outside (she has won).
            walking = [s for s in layers[-1] if not (self.frantic and terrain(s) == EXIT)]
            layers.append(
                {n for s in walking for n in orthogonal_neighbours(s) if self.passable(n)}
            )
        ends = {s for s in layers[steps] if self.landable(s)}
        if not ends:  # "does not have to take their full movement"
            ends = {s for layer in layers[:steps] for s in layer if self.landable(s)}
        if self.frantic:  # D9.4: stepping outside with the CDs wins at once
            ends |= {s for layer in layers[1:] for s in layer if terrain(s) == EXIT}
        return sorted(ends, key=lambda s: (s[1], s[0]))

    def path(self, target: Square, steps: int) -> list[Square]:
        """A walk start..target for the animation and the door counters: a shortest path,
        padded at its end by stepping back and forth when the roll was larger and she uses
        all of it (every walk between two squares has the parity of their distance)."""
        assert self.start is not None
        path = shortest_path(self.start, target, self.passable)
        spare = steps - (len(path) - 1)
        if self.frantic and terrain(target) == EXIT:
            return path
        if spare <= 0 or spare % 2:
            return path
        back: Square | None
        if len(path) > 1:
            back = path[-2]
        else:
            back = next((n for n in orthogonal_neighbours(target) if self.passable(n)), None)
            if back is None:
                return path
        for _ in range(spare // 2):
            path += [back, target]
        return path


def doors_opened(state: State, seat: int, path: list[Square]) -> list[str]:
    """D2: the rooms whose door she enters or passes while holding that room's item and whose
    counter she lacks, in path order."""
    opened = list(state["thieves"][seat]["opened"])
    new: list[str] = []
    for square in path[1:]:
        for room, door in DOOR_OF_ROOM.items():
            fresh = room not in opened and room not in new
            if terrain(square) == door and fresh and has(state, seat, ROOM_ITEM[room]):
                new.append(room)
    return new
