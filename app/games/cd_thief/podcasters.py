"""Podcaster movement (rulebook "Podcaster Movement", "Event Deck", "Killing a Podcaster";
rulings D4 and the Event card effects of 3(d)).

Podcasters walk in king steps, through walls, doors and pieces, never into the Hotel Exit
area. Each step must bring them closer (Chebyshev) to their goal; ties go to the larger
Manhattan gain, then to the first of N, E, S, W, NE, SE, SW, NW. After every step a podcaster
next to an inside thief who has not killed it stops there (the battle follows on her turn).
A podcaster must not end on a wall, a door, an item or a character: it then backs up along
its path to the last square where it may stand. `king_walk` is shared with
Intellivision-The-Great (D9.2), whose goal is the escaping thief's own square.
"""

from __future__ import annotations

from collections.abc import Callable

from app.engine.contract import Event, State
from app.games.cd_thief.board import (
    CDS_HOME,
    KING_STEPS,
    LANDMARK_NAMES,
    LANDMARKS,
    PODCASTER_HOMES,
    PODCASTER_NAMES,
    Square,
    as_list,
    chebyshev,
    is_exit,
    is_standable,
    manhattan,
    on_board,
    sq,
)
from app.games.cd_thief.pieces import (
    character_squares,
    is_eligible,
    item_at,
    nearest_free,
    thief_square,
)


def king_walk(
    start: Square,
    goals: set[Square],
    steps: int,
    stop_after: Callable[[Square], bool],
    may_end: Callable[[Square], bool],
) -> list[Square]:
    """D4's walk: up to `steps` king steps from `start` toward the nearest of `goals`; returns
    the path, start included, already backed up to its last square where `may_end` holds."""
    path = [start]
    for _ in range(steps):
        here = path[-1]
        distance = min(chebyshev(here, g) for g in goals)
        if distance == 0:
            break
        walk = min(manhattan(here, g) for g in goals)
        best: tuple[tuple[int, int], Square] | None = None
        for order, (dx, dy) in enumerate(KING_STEPS):
            nxt = (here[0] + dx, here[1] + dy)
            if not on_board(nxt) or is_exit(nxt):
                continue
            if min(chebyshev(nxt, g) for g in goals) >= distance:
                continue
            gain = walk - min(manhattan(nxt, g) for g in goals)
            key = (-gain, order)
            if best is None or key < best[0]:
                best = (key, nxt)
        if best is None:
            break
        path.append(best[1])
        if stop_after(best[1]):
            break
    while len(path) > 1 and not may_end(path[-1]):
        path.pop()
    return path


def _neighbour_goals(square: Square) -> set[Square]:
    """D4: a goal of "thief X" means any square adjacent to X."""
    return {(square[0] + dx, square[1] + dy) for dx, dy in KING_STEPS}


def closest_thief(state: State, podcaster: str, drawer: int) -> int | None:
    """D4: the eligible thief at the smallest Chebyshev distance; ties go to the current
    player, then clockwise; None if no thief is eligible (the podcaster then stays put)."""
    here = sq(state["podcasters"][podcaster])
    players = len(state["thieves"])
    best: tuple[int, int] | None = None
    chosen = None
    for offset in range(players):
        seat = (drawer + offset) % players
        if not is_eligible(state, seat, podcaster):
            continue
        square = thief_square(state, seat)
        assert square is not None
        key = (chebyshev(here, square), offset)
        if best is None or key < best:
            best, chosen = key, seat
    return chosen


def _may_stand(state: State, mover: Square) -> Callable[[Square], bool]:
    occupied = (character_squares(state) | set(item_at(state))) - {mover}

    def may_end(square: Square) -> bool:
        return square == mover or (is_standable(square) and square not in occupied)

    return may_end


def _stops_next_to_thief(state: State, podcaster: str) -> Callable[[Square], bool]:
    watched = [
        thief_square(state, seat)
        for seat in range(len(state["thieves"]))
        if is_eligible(state, seat, podcaster)
    ]

    def stop(square: Square) -> bool:
        return any(w is not None and chebyshev(square, w) == 1 for w in watched)

    return stop


def walk_podcaster(state: State, podcaster: str, goals: set[Square], steps: int) -> list[Square]:
    """Move `podcaster` (mutates `state`) and return its path."""
    start = sq(state["podcasters"][podcaster])
    path = king_walk(
        start, goals, steps, _stops_next_to_thief(state, podcaster), _may_stand(state, start)
    )
    state["podcasters"] = {**state["podcasters"], podcaster: as_list(path[-1])}
    return path


def send_home(state: State, podcaster: str) -> list[Square]:
    """HOME, and a thief's escape without a Zapper: back to its start square, or the nearest
    free square if that one is taken."""
    start = sq(state["podcasters"][podcaster])
    home = PODCASTER_HOMES[podcaster]
    others = dict(state["podcasters"])
    del others[podcaster]
    target = nearest_free({**state, "podcasters": others}, home)
    state["podcasters"] = {**state["podcasters"], podcaster: as_list(target)}
    return [start, target]


def _path_event(podcaster: str, path: list[Square], why: str) -> Event:
    name = PODCASTER_NAMES[podcaster]
    if len(path) == 1:
        text = f"{name} stays where he is ({why})."
    else:
        steps = len(path) - 1
        text = f"{name} moves {steps} step{'s' if steps != 1 else ''} {why}."
    return {
        "type": "podcaster",
        "podcaster": podcaster,
        "path": [as_list(s) for s in path],
        "text": text,
    }


def cd_stack_square(state: State) -> Square:
    """Landmark "CD stack": the CDs' square, or their Casino square while someone holds them."""
    pos = state["items"].get("cds")
    return sq(pos) if pos is not None else CDS_HOME


def resolve_effect(
    state: State, effect: dict[str, object], drawer: int, colour_of: Callable[[int], str]
) -> list[Event]:
    """One podcaster instruction of an Event card (mutates `state`)."""
    kind = effect["kind"]
    who = str(effect["who"])
    if kind == "swap":
        other = str(effect["with"])
        a, b = sq(state["podcasters"][who]), sq(state["podcasters"][other])
        state["podcasters"] = {**state["podcasters"], who: as_list(b), other: as_list(a)}
        text = f"{PODCASTER_NAMES[who]} and {PODCASTER_NAMES[other]} swap places."
        return [
            {"type": "podcaster", "podcaster": who, "path": [as_list(a), as_list(b)], "text": text},
            {
                "type": "podcaster",
                "podcaster": other,
                "path": [as_list(b), as_list(a)],
                "text": f"{PODCASTER_NAMES[other]} takes {PODCASTER_NAMES[who]}'s place.",
            },
        ]
    if kind == "home":
        path = send_home(state, who)
        return [_path_event(who, path, "back to his starting square")]
    steps = int(str(effect["steps"]))
    if kind == "patrol":
        place = str(effect["place"])
        goal = cd_stack_square(state) if place == "cd_stack" else LANDMARKS[place]
        path = walk_podcaster(state, who, {goal}, steps)
        return [_path_event(who, path, f"toward {LANDMARK_NAMES[place]}")]
    target: int | None
    if kind == "hunt" and is_eligible(state, drawer, who):
        target = drawer
    else:  # CHASE, or HUNT of a thief he may not target (acts as CHASE)
        target = closest_thief(state, who, drawer)
    if target is None:
        return [_path_event(who, [sq(state["podcasters"][who])], "no thief for him to chase")]
    square = thief_square(state, target)
    assert square is not None
    path = walk_podcaster(state, who, _neighbour_goals(square), steps)
    return [_path_event(who, path, f"toward {colour_of(target)}")]
