"""Frantic Mode (rulebook "Escape (Frantic Mode)", ruling D9).

A thief who lands on the CDs with her Studson takes them and at once begins a new turn. While
she runs, no Event cards are drawn by anyone; after each of her moves Intellivision-The-Great
rolls the white die and walks that many king steps straight at her (walls ignored, never
outside). Landing on her square catches her: the CDs drop on the first free square of the
shortest path from her square toward their Casino square, she is caught stealing (D8) and
Frantic Mode ends. Reaching the Hotel Exit with the CDs wins.
"""

from __future__ import annotations

from app.engine.contract import Event, State
from app.engine.dice import Dice
from app.games.cd_thief.battles import Namer, caught_stealing
from app.games.cd_thief.board import (
    CDS_HOME,
    Square,
    as_list,
    is_exit,
    is_standable,
    not_wall,
    shortest_path,
    sq,
)
from app.games.cd_thief.pieces import (
    character_squares,
    is_free,
    item_at,
    nearest_free,
    set_backpack,
    thief_square,
)
from app.games.cd_thief.podcasters import king_walk


def steal_cds(state: State, seat: int, name: Namer, events: list[Event]) -> None:
    """D9.1/D9.6: the CDs go into her backpack and Frantic Mode begins."""
    state["items"] = {k: v for k, v in state["items"].items() if k != "cds"}
    set_backpack(state, seat, [*state["thieves"][seat]["backpack"], "cds"])
    state["frantic"] = seat
    events.append(
        {
            "type": "frantic",
            "seat": seat,
            "text": (
                f"{name(seat)} steals the stack of CDs! Frantic Mode: she takes a new turn at once "
                "and must reach the Hotel Exit before Intellivision-The-Great catches her."
            ),
        }
    )


def drop_square(state: State, square: Square) -> Square:
    """D9.5: the first free square of the shortest path from `square` toward the CDs' Casino
    start square (walls block, rooms do not: the CDs are dropped, nobody walks)."""
    path = shortest_path(square, CDS_HOME, lambda s: not_wall(s) and not is_exit(s))
    for step in path[1:]:
        if is_standable(step) and is_free(state, step):
            return step
    return nearest_free(state, square)


def itg_turn(state: State, seat: int, rng: Dice, name: Namer, events: list[Event]) -> None:
    """D9.2: ITG rolls the white die and chases the frantic thief."""
    target = thief_square(state, seat)
    assert target is not None
    start = sq(state["itg"])
    die = rng.roll(6)
    occupied = (character_squares(state) | set(item_at(state))) - {start}

    def may_end(square: Square) -> bool:
        return square == target or (is_standable(square) and square not in occupied)

    path = king_walk(start, {target}, die, lambda s: s == target, may_end)
    state["itg"] = as_list(path[-1])
    caught = path[-1] == target
    steps = len(path) - 1
    events.append(
        {
            "type": "itg",
            "seat": seat,
            "die": die,
            "path": [as_list(s) for s in path],
            "caught": caught,
            "text": (
                f"Intellivision-The-Great rolls {die} on the white die and moves {steps} "
                f"step{'s' if steps != 1 else ''}"
                + (f" onto {name(seat)}: caught!" if caught else f" toward {name(seat)}.")
            ),
        }
    )
    if caught:
        # She is still on her square (ITG shares it for a moment): the drop looks past it.
        drop = drop_square(state, target)
        caught_stealing(state, seat, name, events, drop_cds_at=drop)
