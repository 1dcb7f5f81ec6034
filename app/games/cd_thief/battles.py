"""Battles and their consequences (rulebook "Podcaster Encounter", "Caught Stealing",
"Killing a Podcaster", "Activating Carl", "Carl's Inventory"; rulings D5-D8).

Every battle rolls the 2 Battle dice, each showing 0, 1, 1, 2, 2, 2 hit points (D6). With her
Zapper a thief wins on 2+ hits; without it only exactly 4 hits gets her away. All functions
mutate the state they are given (a fresh copy owned by `CdThief.apply`) and append events.
"""

from __future__ import annotations

from collections.abc import Callable

from app.engine.contract import Event, State
from app.engine.dice import Dice
from app.games.cd_thief.board import (
    CDS_HOME,
    DOORS,
    EXIT_SQUARES,
    ITG_HOME,
    KING_STEPS,
    PODCASTER_NAMES,
    STEAL_ORDER,
    Square,
    as_list,
    is_exit,
    is_standable,
    item_id,
    item_text,
    nearest,
    not_wall,
    on_board,
    orthogonal_neighbours,
    terrain_in,
    thief_start,
    under_d11,
)
from app.games.cd_thief.movement import has_access
from app.games.cd_thief.pieces import (
    character_squares,
    has,
    inside,
    is_free,
    nearest_free,
    place_item,
    set_backpack,
    thief_square,
    update_thief,
)
from app.games.cd_thief.podcasters import send_home

BATTLE_DIE: tuple[int, ...] = (0, 1, 1, 2, 2, 2)
"""D6 [PROPOSAL]: the hit points on the six faces of a Battle die."""
LIVES = 5
"""Rulebook NOTE: "each CD Thief starts the game with 5 lives" in difficult mode."""

Namer = Callable[[int], str]


def roll_battle_dice(rng: Dice) -> list[int]:
    return [BATTLE_DIE[rng.below(6)], BATTLE_DIE[rng.below(6)]]


def thief_wins(hits: int, zapper: bool) -> bool:
    """With the Zapper 2+ hit points wins; without it only 4 hit points escapes."""
    return hits >= 2 if zapper else hits == 4


def _exit_square(state: State, seat: int) -> Square:
    """D8 as amended by D11: her own start square, whoever stands there (nobody blocks
    outside the hotel). Before D11: her start square if free, else the nearest free one."""
    start = thief_start(state["thieves"][seat]["colour"])
    if under_d11(state):
        return start
    found = nearest(start, lambda s: is_exit(s) and is_free(state, s), is_exit)
    if found is None:  # pragma: no cover - 36 exit squares for 4 thieves
        return next(s for s in EXIT_SQUARES if is_free(state, s))
    return found


def end_frantic(state: State, events: list[Event]) -> None:
    """D9.5: Frantic Mode ends and ITG returns to his start square."""
    state["frantic"] = None
    itg = state["itg"]
    state["itg"] = [-1, -1]  # off the board while we look for his square
    home = nearest_free(state, ITG_HOME)
    state["itg"] = as_list(home)
    events.append(
        {
            "type": "itg",
            "path": [itg, as_list(home)],
            "caught": False,
            "text": "Frantic Mode ends; Intellivision-The-Great returns to the Casino.",
        }
    )


def caught_stealing(
    state: State, seat: int, name: Namer, events: list[Event], drop_cds_at: Square | None = None
) -> None:
    """Rulebook "Caught Stealing" with D8 (and D9.5 when she carries the CDs): back to the
    Hotel Exit, the Zapper back to its start square, other items and opened doors kept.
    Difficult mode: one life lost; at none left she is out and her items leave the game."""
    square = thief_square(state, seat)
    assert square is not None
    thief = state["thieves"][seat]
    colour = thief["colour"]
    exit_square = _exit_square(state, seat)
    update_thief(state, seat, pos=as_list(exit_square))
    events.append(
        {
            "type": "caught",
            "seat": seat,
            "from": as_list(square),
            "to": as_list(exit_square),
            "text": f"{name(seat)} is caught stealing and thrown out of the hotel.",
        }
    )
    if has(state, seat, "cds"):
        set_backpack(state, seat, [k for k in thief["backpack"] if k != "cds"])
        drop = drop_cds_at if drop_cds_at is not None else square
        state["items"] = {**state["items"], "cds": as_list(drop)}
        events.append(
            {
                "type": "drop",
                "seat": seat,
                "item": "cds",
                "to": as_list(drop),
                "text": f"{name(seat)} drops the stack of CDs.",
            }
        )
    if state["frantic"] == seat:
        end_frantic(state, events)
    if has(state, seat, "zapper"):
        set_backpack(state, seat, [k for k in state["thieves"][seat]["backpack"] if k != "zapper"])
        where = place_item(state, item_id(colour, "zapper"))
        events.append(
            {
                "type": "drop",
                "seat": seat,
                "item": item_id(colour, "zapper"),
                "to": where,
                "text": f"{name(seat)}'s Zapper goes back to its start square.",
            }
        )
    if thief["lives"] is not None:
        lives = thief["lives"] - 1
        update_thief(state, seat, lives=lives)
        if lives > 0:
            events.append(
                {
                    "type": "life",
                    "seat": seat,
                    "lives": lives,
                    "text": f"{name(seat)} has {lives} {'life' if lives == 1 else 'lives'} left.",
                }
            )
        else:
            _exclude(state, seat, name, events)


def _exclude(state: State, seat: int, name: Namer, events: list[Event]) -> None:
    """D8 difficult mode: out of lives, out of the Expo; her items leave with her."""
    colour = state["thieves"][seat]["colour"]
    update_thief(state, seat, pos=None, backpack=[], out=True, lives=0)
    state["items"] = {k: v for k, v in state["items"].items() if not k.startswith(colour + "-")}
    dustpan = state["carl"]["dustpan"]
    if dustpan is not None and dustpan.startswith(colour + "-"):
        state["carl"] = {**state["carl"], "dustpan": None}
    events.append(
        {
            "type": "out",
            "seat": seat,
            "text": f"{name(seat)} has no lives left and is excluded from the Expo for good.",
        }
    )


def battle_podcaster(
    state: State, seat: int, podcaster: str, rng: Dice, name: Namer, events: list[Event]
) -> bool:
    """One Podcaster Encounter battle (D5); returns True if she was caught."""
    zapper = has(state, seat, "zapper")
    dice = roll_battle_dice(rng)
    hits = sum(dice)
    who = PODCASTER_NAMES[podcaster]
    event: Event = {
        "type": "battle",
        "seat": seat,
        "opponent": podcaster,
        "dice": dice,
        "hits": hits,
        "zapper": zapper,
    }
    if thief_wins(hits, zapper):
        if zapper:
            killed = [*state["thieves"][seat]["killed"], podcaster]
            update_thief(state, seat, killed=killed)
            event["result"] = "killed"
            event["text"] = (
                f"{name(seat)} battles {who}: {hits} hit points with the Zapper. {who} is dead "
                f"for {name(seat)} for the rest of the game."
            )
            events.append(event)
        else:
            event["result"] = "escaped"
            event["text"] = (
                f"{name(seat)} battles {who}: 4 hit points without a Zapper, so she escapes and "
                f"{who} goes back to his starting square."
            )
            events.append(event)
            path = send_home(state, podcaster)
            events.append(
                {
                    "type": "podcaster",
                    "podcaster": podcaster,
                    "path": [as_list(s) for s in path],
                    "text": f"{who} goes back to his starting square.",
                }
            )
        return False
    need = "2" if zapper else "4"
    event["result"] = "caught"
    event["text"] = (
        f"{name(seat)} battles {who}: {hits} hit point{'s' if hits != 1 else ''} "
        f"{'with' if zapper else 'without'} a Zapper ({need} needed)."
    )
    events.append(event)
    caught_stealing(state, seat, name, events)
    return True


def _is_doorway(state: State, square: Square) -> bool:
    """Next to a door (orthogonally): the only way through it from one side."""
    return any(terrain_in(state, n) in DOORS for n in orthogonal_neighbours(square))


def _carl_square(state: State, seat: int) -> Square:
    """D7: a free floor square next to her, else the nearest free square. D7 does not say
    which of several. Carl stays until the next Carl icon, so we take one that leaves her a
    way to walk off, then one not in front of a door (there he would seal that room; in front
    of the main entrance, the whole hotel), then N, E, S, W, NE, SE, SW, NW. Without this a
    thief in a corner was boxed in by Carl for ever (found by the simulation)."""
    square = thief_square(state, seat)
    assert square is not None
    blocked = character_squares(state)
    free = []
    for dx, dy in KING_STEPS:
        nxt = (square[0] + dx, square[1] + dy)
        if on_board(nxt) and is_standable(nxt) and is_free(state, nxt):
            free.append(nxt)

    def traps_her(carl: Square) -> bool:
        return not any(
            n != carl and n not in blocked and has_access(state, seat, n)
            for n in orthogonal_neighbours(square)
        )

    if free:  # min is stable: KING_STEPS order among equals
        return min(free, key=lambda s: (traps_her(s), _is_doorway(state, s)))
    return nearest(square, lambda s: is_standable(s) and is_free(state, s), not_wall) or square


def _return_item(state: State, item: str, seat: int, name: Namer, events: list[Event]) -> None:
    where = place_item(state, item)
    events.append(
        {
            "type": "drop",
            "seat": seat,
            "item": item,
            "to": where,
            "text": f"Carl puts {item_text(item)} back in its place.",
        }
    )


def activate_carl(state: State, seat: int, rng: Dice, name: Namer, events: list[Event]) -> None:
    """Rulebook "Activating Carl" and "Carl's Inventory" with D7."""
    if not inside(state, seat):
        events.append(
            {
                "type": "carl",
                "seat": seat,
                "path": [state["carl"]["pos"]],
                "text": f"Carl's icon: {name(seat)} is outside the hotel, so Carl stays put.",
            }
        )
        return
    start = state["carl"]["pos"]
    state["carl"] = {**state["carl"], "pos": [-1, -1]}
    square = _carl_square(state, seat)
    state["carl"] = {**state["carl"], "pos": as_list(square)}
    events.append(
        {
            "type": "carl",
            "seat": seat,
            "path": [start, as_list(square)],
            "text": f"Carl the Janitor appears next to {name(seat)}.",
        }
    )
    zapper = has(state, seat, "zapper")
    dice = roll_battle_dice(rng)
    hits = sum(dice)
    held = state["carl"]["dustpan"]
    event: Event = {
        "type": "battle",
        "seat": seat,
        "opponent": "carl",
        "dice": dice,
        "hits": hits,
        "zapper": zapper,
    }
    if thief_wins(hits, zapper):
        if not zapper:
            event["result"] = "escaped"
            event["text"] = f"{name(seat)} rolls 4 hit points and escapes from Carl."
            events.append(event)
            return
        event["result"] = "shot"
        event["text"] = f"{name(seat)} rolls {hits} hit points and shoots Carl with her Zapper."
        events.append(event)
        if held is None:
            events.append({"type": "note", "text": "Carl's dustpan is empty."})
            return
        state["carl"] = {**state["carl"], "dustpan": None}
        colour = state["thieves"][seat]["colour"]
        if held.startswith(colour + "-"):
            set_backpack(state, seat, [*state["thieves"][seat]["backpack"], held.split("-")[1]])
            events.append(
                {
                    "type": "pickup",
                    "seat": seat,
                    "item": held,
                    "text": f"Carl drops {item_text(held)}; {name(seat)} takes it back.",
                }
            )
        else:
            where = place_item(state, held, CDS_HOME if held == "cds" else None)
            events.append(
                {
                    "type": "drop",
                    "seat": seat,
                    "item": held,
                    "to": where,
                    "text": f"Carl drops {item_text(held)}; it goes back to its start square.",
                }
            )
        return
    event["result"] = "stolen"
    kind = next((k for k in STEAL_ORDER if has(state, seat, k)), None)
    if kind is None:
        event["text"] = f"{name(seat)} rolls {hits}; Carl finds nothing in her backpack to take."
        events.append(event)
        return
    stolen = "cds" if kind == "cds" else item_id(state["thieves"][seat]["colour"], kind)
    event["item"] = stolen
    event["text"] = f"{name(seat)} rolls {hits}; Carl steals {item_text(stolen)}."
    events.append(event)
    set_backpack(state, seat, [k for k in state["thieves"][seat]["backpack"] if k != kind])
    state["carl"] = {**state["carl"], "dustpan": stolen}
    if held is not None:
        _return_item(state, held, seat, name, events)
    if kind == "cds" and state["frantic"] == seat:
        end_frantic(state, events)
