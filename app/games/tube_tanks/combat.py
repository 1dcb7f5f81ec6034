"""Firing (core rules, K3-K7, K10): legal targets, the roll, where the shot lands, what an
energy bolt meets on its way, and the targeting token."""

from __future__ import annotations

from typing import Any

from app.engine.contract import Event, State
from app.engine.dice import Dice
from app.games.tube_tanks.ballistics import (
    AUTO_HIT_DAMAGE,
    bolt_path,
    collateral,
    collateral_landing,
    dice_count,
    distance,
)
from app.games.tube_tanks.board import (
    BOLT_BLOCKERS,
    TANK,
    WALL,
    Occupant,
    describe_cell,
    occupancy,
    tank_name,
    tank_xy,
)
from app.games.tube_tanks.effects import damage, destroy_floor, destroy_wall
from app.games.tube_tanks.zone import ALL_CELLS, XY, cell_name, on_board, parse_cell


def targets(state: State, shooter: int) -> list[str]:
    """K5: enemy units; with Target Anything also every empty floor cell and wall. Never your
    own unit, a wreck, a pool or a gap."""
    occ = occupancy(state)
    return [name for name in ALL_CELLS if is_target(state, occ, shooter, parse_cell(name))]


def is_target(state: State, occ: dict[XY, Occupant], shooter: int, xy: XY) -> bool:
    kind, index = occ.get(xy, (None, None))
    if kind == TANK and index is not None:
        return bool(state["tanks"][index]["side"] != state["tanks"][shooter]["side"])
    return bool(state["rules"]["target_anything"]) and kind in (None, WALL) and on_board(*xy)


def origin(state: State, shooter: int, aim: str) -> XY:
    tank = state["tanks"][shooter]
    if aim == "token":
        token = tank["token"]
        assert token is not None
        return int(token[0]), int(token[1])
    return tank_xy(tank)


def shot_dice(state: State, shooter: int, target: XY, aim: str) -> int:
    """K4 with the turn's stationary declaration (K3) and Triangulation (K10)."""
    return dice_count(
        distance(origin(state, shooter, aim), target),
        stationary=bool(state["turn"]["steady"]),
        triangulating=aim == "token",
    )


def fire(
    state: State,
    seat: int,
    shooter: int,
    target_name: str,
    aim: str,
    rng: Dice,
    events: list[Event],
) -> None:
    rules = state["rules"]
    tank = state["tanks"][shooter]
    occ = occupancy(state)
    target = parse_cell(target_name)
    what = describe_cell(occ, state, target)
    target_kind, target_index = occ.get(target, (None, None))
    dist = distance(origin(state, shooter, aim), target)
    count = shot_dice(state, shooter, target, aim)
    faces = [rng.roll() for _ in range(count)] if count >= 1 else []
    base: dict[str, Any] = {
        "seat": seat,
        "tank": shooter,
        "from": tank["cell"],
        "target": target_name,
        "aim": aim,
        "distance": dist,
        "count": count,
        "dice": faces,
        "steady": bool(state["turn"]["steady"]),
    }
    subject = what if target_kind != TANK else tank_name(state["tanks"][target_index or 0])
    via = " from its targeting token" if aim == "token" else ""
    if count < 1:
        result, amount = "auto", AUTO_HIT_DAMAGE
        text = f"{tank_name(tank)} fires at {subject}{via}: 0 dice - automatic hit for 6."
    elif 1 in faces:
        result, amount = "miss", 0
        text = f"{tank_name(tank)} fires at {subject}{via}: {count} dice {_faces(faces)} - miss."
    else:
        result, amount = "hit", min(faces)
        text = (
            f"{tank_name(tank)} fires at {subject}{via}: {count} dice {_faces(faces)} - "
            f"hit for {amount}."
        )
    events.append({"type": "fire", **base, "result": result, "damage": amount, "text": text})

    landing, kind = target, "hit" if result != "miss" else "miss"
    if result == "miss":
        if rules["collateral_damage"]:
            left = collateral(faces)
            if not left:
                kind = "glancing"
                events.append(
                    {
                        "type": "collateral",
                        "seat": seat,
                        "remaining": {},
                        "landing": target_name,
                        "text": "Collateral: every die cancels out - "
                        "a glancing blow on the target.",
                    }
                )
            else:
                kind = "stray"
                landing = collateral_landing(target, left)
                events.append(
                    {
                        "type": "collateral",
                        "seat": seat,
                        "remaining": {str(v): n for v, n in left.items()},
                        "landing": list(landing),
                        "text": f"Collateral: {_offsets(left)} - the shot lands on "
                        f"{describe_cell(occ, state, landing)}.",
                    }
                )
        else:
            events.append(
                {
                    "type": "missed",
                    "seat": seat,
                    "target": target_name,
                    "text": "The shot misses and vanishes.",
                }
            )

    impact = landing
    if kind != "miss":
        impact = _strike(
            state, seat, shooter, occ, target, target_kind, landing, kind, amount, events
        )
    if rules["triangulation"] and not tank["destroyed"]:
        tank["token"] = list(impact)
        events.append(
            {
                "type": "token",
                "seat": seat,
                "tank": shooter,
                "at": list(impact),
                "text": f"{tank_name(tank)}'s targeting token now marks {cell_name(*impact)}.",
            }
        )


def _strike(
    state: State,
    seat: int,
    shooter: int,
    occ: dict[XY, Occupant],
    target: XY,
    target_kind: str | None,
    landing: XY,
    kind: str,
    amount: int,
    events: list[Event],
) -> XY:
    """Resolve where the shot ends; returns the impact cell (for the targeting token)."""
    if state["rules"]["energy_bolts"]:
        path = bolt_path(tank_xy(state["tanks"][shooter]), landing)
        events.append(
            {
                "type": "bolt",
                "seat": seat,
                "path": [list(xy) for xy in path],
                "text": "The energy bolt flies "
                + (
                    "over " + ", ".join(cell_name(*xy) for xy in path if on_board(*xy))
                    if any(on_board(*xy) for xy in path)
                    else "off the Zone"
                )
                + ".",
            }
        )
        for xy in path[:-1]:
            if on_board(*xy) and occ.get(xy, ("", None))[0] in BOLT_BLOCKERS:
                _intercept(state, seat, occ, xy, events)
                return xy
    if kind == "hit":
        if target_kind == TANK:
            index = occ[target][1]
            assert index is not None
            damage(state, index, amount, events, hit=True)
        else:
            _land(state, seat, occ, landing, events)
    elif kind == "glancing":
        if target_kind == TANK:
            index = occ[target][1]
            assert index is not None
            damage(state, index, 1, events, hit=False)
        else:
            events.append(
                {
                    "type": "absorbed",
                    "cell": cell_name(*target),
                    "text": f"The glancing blow does nothing to {cell_name(*target)}.",
                }
            )
    else:
        _land(state, seat, occ, landing, events)
    return landing


def _intercept(
    state: State, seat: int, occ: dict[XY, Occupant], xy: XY, events: list[Event]
) -> None:
    """K7: the first wall, tank or wreck on the line stops the bolt."""
    kind, index = occ[xy]
    events.append(
        {
            "type": "intercepted",
            "cell": cell_name(*xy),
            "seat": seat,
            "text": f"The bolt is stopped by {describe_cell(occ, state, xy)}.",
        }
    )
    if kind == TANK and index is not None:
        damage(state, index, 1, events, hit=False)
    elif kind == WALL:
        destroy_wall(state, xy, seat, events)


def _land(state: State, seat: int, occ: dict[XY, Occupant], xy: XY, events: list[Event]) -> None:
    """K6 landing: a unit takes 1 damage, empty floor becomes a gap, a wall is removed; a pool,
    a gap, a wreck or off the board: nothing."""
    if not on_board(*xy):
        events.append({"type": "absorbed", "text": "The shot lands off the Zone."})
        return
    kind, index = occ.get(xy, (None, None))
    if kind == TANK and index is not None:
        damage(state, index, 1, events, hit=False)
    elif kind == WALL:
        destroy_wall(state, xy, seat, events)
    elif kind is None:
        destroy_floor(state, xy, events)
    else:  # a pool, a gap or a wreck
        events.append(
            {
                "type": "absorbed",
                "cell": cell_name(*xy),
                "text": f"The shot lands on {describe_cell(occ, state, xy)}: nothing happens.",
            }
        )


def _faces(faces: list[int]) -> str:
    return " ".join(str(f) for f in faces)


COMPASS_WORDS = {2: "north", 5: "south", 3: "west", 4: "east"}


def _offsets(left: dict[int, int]) -> str:
    parts = []
    for value, n in left.items():
        cells = "space" if n == 1 else "spaces"
        parts.append(f"{n} {cells} {COMPASS_WORDS[value]} ({n} x {value})")
    return ", ".join(parts)
