"""What hits do to the Zone: damage, destruction (K13), Stun (K9), Blast (K8), Floor and Wall
Destruction. Every function mutates the working copy of the state `apply` made and appends
events."""

from __future__ import annotations

from app.engine.contract import Event, State
from app.games.tube_tanks.board import TANK, neighbours, occupancy, tank_name
from app.games.tube_tanks.zone import XY, cell_name, parse_cell

HIT_POINTS = 6
STUN_ABOVE = 3  # "hit with more than 3 points of damage"
BLAST_DAMAGE = 6  # "hit with 6 points of damage"


def damage(
    state: State, index: int, amount: int, events: list[Event], *, hit: bool, blast: bool = False
) -> None:
    """`amount` damage to tank `index`. `hit` marks the declared target of a successful shot
    (the only damage that can stun by size or set off a Blast); `blast` marks Blast damage."""
    tank = state["tanks"][index]
    if tank["destroyed"] or amount <= 0:
        return
    rules = state["rules"]
    where = tank["cell"]
    tank["hp"] -= amount
    left = max(tank["hp"], 0)
    events.append(
        {
            "type": "damage",
            "seat": tank["seat"],
            "tank": index,
            "cell": where,
            "amount": amount,
            "hp": left,
            "text": f"{tank_name(tank)} takes {amount} damage ({left} of {HIT_POINTS} left).",
        }
    )
    destroyed = tank["hp"] < 1
    if destroyed:
        tank["hp"] = 0
        tank["destroyed"] = True
        tank["stunned"] = False
        kept = rules["wrecks"]
        if not kept:
            tank["cell"] = None
        events.append(
            {
                "type": "destroyed",
                "seat": tank["seat"],
                "tank": index,
                "cell": where,
                "text": f"{tank_name(tank)} is destroyed"
                + (f" and stays on {where} as a wreck." if kept else " and removed from the Zone."),
            }
        )
    elif rules["stun"] and ((hit and amount > STUN_ABOVE) or blast) and not tank["stunned"]:
        tank["stunned"] = True
        events.append(
            {
                "type": "stunned",
                "seat": tank["seat"],
                "tank": index,
                "cell": where,
                "text": f"{tank_name(tank)} is stunned and will skip its next turn.",
            }
        )
    if hit and amount >= BLAST_DAMAGE and where is not None:
        set_off_blast(state, parse_cell(where), events)


def set_off_blast(state: State, centre: XY, events: list[Event]) -> None:
    """K8: every unit on the 8 neighbouring cells takes 1 damage; Blast damage never sets off
    another Blast (and stuns, K9)."""
    if not state["rules"]["blast"]:
        return
    occ = occupancy(state)
    victims = [occ[xy][1] for xy in neighbours(centre) if occ.get(xy, ("", None))[0] == TANK]
    events.append(
        {
            "type": "blast",
            "cell": cell_name(*centre),
            "tanks": [v for v in victims if v is not None],
            "text": f"A blast on {cell_name(*centre)} "
            + (
                "hits "
                + ", ".join(tank_name(state["tanks"][v]) for v in victims if v is not None)
                + "."
                if victims
                else "hits no unit."
            ),
        }
    )
    for victim in victims:
        if victim is not None:
            damage(state, victim, 1, events, hit=False, blast=True)


def destroy_floor(state: State, xy: XY, events: list[Event]) -> None:
    """Floor Destruction: an empty space a rocket hits becomes a gap (and blasts, K8)."""
    name = cell_name(*xy)
    if not state["rules"]["floor_destruction"]:
        events.append(
            {
                "type": "absorbed",
                "cell": name,
                "text": f"The shot lands on the empty space {name}: the floor holds.",
            }
        )
        return
    state["gaps"] = sorted([*state["gaps"], name], key=parse_cell)
    events.append(
        {
            "type": "floor_destroyed",
            "cell": name,
            "text": f"The floor on {name} is destroyed: it is a gap now.",
        }
    )
    set_off_blast(state, xy, events)


def destroy_wall(state: State, xy: XY, seat: int, events: list[Event]) -> None:
    """Wall Destruction: a wall a rocket hits is removed (and blasts, K8); the shooter's count
    of destroyed walls is kept for Mission 3."""
    if not state["rules"]["wall_destruction"]:
        events.append(
            {
                "type": "absorbed",
                "cell": cell_name(*xy),
                "text": f"The wall on {cell_name(*xy)} absorbs the shot.",
            }
        )
        return
    name = cell_name(*xy)
    state["walls"] = [w for w in state["walls"] if w != name]
    state["walls_destroyed"][seat] += 1
    events.append(
        {
            "type": "wall_destroyed",
            "cell": name,
            "seat": seat,
            "count": state["walls_destroyed"][seat],
            "text": f"The wall on {name} is destroyed.",
        }
    )
    set_off_blast(state, xy, events)
