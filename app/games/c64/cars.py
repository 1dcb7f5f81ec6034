"""C64 Cars: race once around the island and be first across the goal line.

Rules: the C64 Board rulebook ("C64 Cars", including the six numbered card-back rules) with
our rulings C1-C4 (docs/rules/families/c64-board-rulings.md) and C8 (docs/rules/c64-cars.md), track
per map K. Every car
starts in gear 0 facing east on its start square (turn order: e1, e2, f1, f2).

- Left Button: gear + 1 (max 3). Right Button: gear - 1 (min 0).
- A direction card `d` (absolute): in gear 0 the car only turns to `d`. Same direction: drive
  `gear` squares (rule 1). A new direction in gear 1: turn and drive 1 square the new way
  (rule 2). A new direction in gear 2/3: drive `gear` squares the OLD way, then turn to `d`
  and flip over (rule 3).
- Driving is resolved one square at a time with a budget of moves. Past the edge: the car
  leaves the board (remembering the square it left) and stops. A wall ahead (rule 4): the
  remaining budget, this move included, is driven the opposite way, then gear 0; a second
  wall stops the rebound. A car ahead (rule 5): one move pushes it one square the same way
  (off the board if that is the edge; not at all if a wall or car is behind it) and the
  driver goes on with what is left.
- Rule 6: while a car is flipped or off the board, its owner's next card (whatever it shows)
  is replaced by the recovery: unflip, or put it back where it left if that square is empty
  (else it stays off). Either way gear 0. `execute_face` is the hook for this.
- Goal: a car stepping east from d1/d2 into e1/e2 (driving, rebounding or being pushed) after
  it has stood on a square of each checkpoint zone (East g3-h6, North c7-f8, West a3-b6)
  wins at once, whoever's turn it is; everything else of that turn stops.

Interpretations (beyond C8, each in one place): squares a car passes during a multi-square
drive count as "stood on" for the checkpoints (movement is square by square); a car that
leaves the board is no longer flipped, so returning it is its one recovery (rule 6 names the
two as alternatives), and rule 3 flips a car only if it is still on the board.

State (JSON, on top of the common C64 state described in `base.py`), per player (one car):
- ``square``: the car's square, None while off the board; ``left``: the square it left the
  board from (None on the board); ``exit``: the direction it left in (for the picture);
- ``facing``: "N"/"E"/"S"/"W"; ``gear``: 0-3 (discs taken); ``flipped``: bool;
- ``checkpoints``: {"East": bool, "North": bool, "West": bool}, replaced when one turns true;
- ``finished``: True once the car crossed the goal line after its lap (ends the game).
Top level: ``walls``, the wall squares of map K (they never move in this game). The zones, the
goal line and the start squares are data in maps/K.txt.

View: the common C64 view (docs/c64-view.md) with ``walls``, ``checkpoints`` (each zone's
name and squares), ``goal_line`` (the crossing steps) and, per player, ``square``, ``left``,
``exit``, ``off``, ``facing``, ``gear``, ``flipped``, ``checkpoints``, ``start``.
Events besides the common ones: ``drive`` (``path``: the driver's squares in order, and
``steps``: every step of every car involved, in order, for the animation:
{"car", "kind": "move"|"pushed"|"off"|"wall"|"bump"|"stuck", "from", "to", "direction"}),
``turn``, ``gear``, ``rebound``, ``push``, ``off_board``, ``flip``, ``checkpoint``,
``recover``. Chance: yes (the shuffled joystick grids and the first-player draw at set-up).
Hidden information: none.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Final

from pydantic import BaseModel

from app.engine.contract import Event, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.c64.base import C64Game, colour_name
from app.games.c64.boardmap import load_map, squares_with
from app.games.c64.geometry import (
    DIRECTION_NAMES,
    OPPOSITE,
    SQUARES,
    STEP,
    square_xy,
)
from app.games.c64.guidance import UNREACHABLE, final_score, fixed_distances

MAP = "K"
MAX_GEAR: Final = 3
START_FACING: Final = "E"

Player = dict[str, Any]


def _track() -> tuple[tuple[str, ...], dict[str, frozenset[str]], frozenset[tuple[str, str]]]:
    """Start squares, checkpoint zones and goal steps of map K, read from maps/K.txt."""
    picture = load_map(MAP)
    starts = tuple(sorted((sym, sq) for sq, sym in picture.items() if sym.isdigit()))
    if [sym for sym, _ in starts] != ["1", "2", "3", "4"]:
        raise ValueError(f"map {MAP} must number four start squares 1-4")
    zones: dict[str, frozenset[str]] = {}
    goal: set[tuple[str, str]] = set()
    text = resources.files(__package__).joinpath("maps", f"{MAP}.txt").read_text("utf-8")
    for line in text.splitlines():
        if not line.startswith("; @"):
            continue
        words = line[2:].split()
        if words[0] == "@checkpoint" and len(words) == 4:
            (x1, y1), (x2, y2) = square_xy(words[2]), square_xy(words[3])
            zones[words[1]] = frozenset(
                sq
                for sq in SQUARES
                if min(x1, x2) <= square_xy(sq)[0] <= max(x1, x2)
                and min(y1, y2) <= square_xy(sq)[1] <= max(y1, y2)
            )
        elif words[0] == "@goal" and len(words) == 3 and STEP[words[1]]["E"] == words[2]:
            goal.add((words[1], words[2]))
        else:
            raise ValueError(f"map {MAP}: cannot read {line.strip()!r}")
    if len(zones) != 3 or not goal:
        raise ValueError(f"map {MAP} needs three checkpoint zones and a goal line")
    return tuple(sq for _, sq in starts), zones, frozenset(goal)


START_SQUARES, ZONES, GOAL_STEPS = _track()
"""START_SQUARES[i]: the start of the (i+1)-th player in turn order; ZONES: checkpoint name ->
squares, in the order of the map file (the race order East, North, West); GOAL_STEPS: the
(from, to) steps that cross the goal line in the race direction (eastward)."""
START_WALLS = squares_with(MAP, "#")
ZONE_OF: Final = {sq: name for name, zone in ZONES.items() for sq in zone}
NO_CHECKPOINTS: Final = {name: False for name in ZONES}
GOAL_SQUARES: Final = frozenset(frm for frm, _to in GOAL_STEPS)
"""Where a car stands to cross the goal line with its next eastward step (playout_score)."""


def _car_at(players: list[Player], square: str) -> Player | None:
    for p in players:
        if p["square"] == square:
            return p
    return None


@register
class Cars(C64Game):
    id = "c64-cars"
    title = "C64 Cars"
    min_players = 2
    max_players = 4
    rules_version = "1"
    has_chance = True
    hidden_information = False
    game_key = "cars"
    goal = "After a full lap of the track, the first car to cross the goal line wins."

    def setup_board(self, state: State, options: BaseModel, rng: Dice) -> None:
        for number, seat in enumerate(state["order"]):
            player = state["players"][seat]
            player.update(
                {
                    "square": START_SQUARES[number],
                    "left": None,
                    "exit": None,
                    "facing": START_FACING,
                    "gear": 0,
                    "flipped": False,
                    "checkpoints": dict(NO_CHECKPOINTS),
                    "finished": False,
                }
            )
        state["walls"] = list(START_WALLS)

    # --- rule 6: recovery replaces any card --------------------------------------------------
    def execute_face(self, state: State, seat: int, face: str, events: list[Event]) -> None:
        car = state["players"][seat]
        if car["flipped"] or car["square"] is None:
            self._recover(state, seat, events)
        else:
            super().execute_face(state, seat, face, events)

    def _recover(self, state: State, seat: int, events: list[Event]) -> None:
        players = state["players"]
        car = players[seat]
        name = colour_name(state, seat)
        if car["square"] is None:
            back = car["left"]
            blocker = _car_at(players, back)
            car["gear"] = 0
            if blocker is not None:
                events.append(
                    {
                        "type": "recover",
                        "seat": seat,
                        "car": seat,
                        "kind": "return_blocked",
                        "square": back,
                        "text": f"{name} cannot put her car back on {back}: "
                        f"{colour_name(state, blocker['seat'])}'s car is there. Gear 0.",
                    }
                )
                return
            car["square"] = back
            car["left"] = None
            car["exit"] = None
            events.append(
                {
                    "type": "recover",
                    "seat": seat,
                    "car": seat,
                    "kind": "return",
                    "square": back,
                    "text": f"{name} puts her car back on {back} instead of her card's action. "
                    "Gear 0.",
                }
            )
            _visit(state, car, back, events)
            return
        car["flipped"] = False
        car["gear"] = 0
        events.append(
            {
                "type": "recover",
                "seat": seat,
                "car": seat,
                "kind": "unflip",
                "square": car["square"],
                "text": f"{name} turns her car back onto its wheels instead of her card's "
                "action. Gear 0.",
            }
        )

    # --- buttons: gears ----------------------------------------------------------------------
    def press_button(self, state: State, seat: int, button: str, events: list[Event]) -> None:
        car = state["players"][seat]
        name = colour_name(state, seat)
        old = car["gear"]
        new = min(MAX_GEAR, old + 1) if button == "left_button" else max(0, old - 1)
        car["gear"] = new
        if new == old:
            text = (
                f"{name} is already in top gear ({MAX_GEAR})."
                if button == "left_button"
                else f"{name} is already in gear 0."
            )
        else:
            text = f"{name} shifts {'up' if new > old else 'down'} to gear {new}."
        events.append(
            {"type": "gear", "seat": seat, "car": seat, "from": old, "to": new, "text": text}
        )

    # --- direction cards: rules 1-3 ----------------------------------------------------------
    def move_piece(self, state: State, seat: int, direction: str, events: list[Event]) -> None:
        car = state["players"][seat]
        name = colour_name(state, seat)
        gear, facing = car["gear"], car["facing"]
        way = DIRECTION_NAMES[direction]
        if gear == 0:
            car["facing"] = direction
            text = (
                f"{name} stays on {car['square']} facing {way} (gear 0)."
                if direction == facing
                else f"{name} turns {way} on {car['square']} (gear 0: no movement)."
            )
            events.append(
                {
                    "type": "turn",
                    "seat": seat,
                    "car": seat,
                    "from": facing,
                    "to": direction,
                    "square": car["square"],
                    "text": text,
                }
            )
            return
        if direction == facing:
            self._drive(state, seat, facing, gear, 1, events)
            return
        if gear == 1:
            car["facing"] = direction
            self._drive(state, seat, direction, 1, 2, events)
            return
        # Rule 3: too fast to turn. Drive on the old way, then turn and flip over.
        self._drive(state, seat, facing, gear, 3, events)
        if _over(state):
            return
        car["facing"] = direction
        if car["square"] is not None:
            car["flipped"] = True
            events.append(
                {
                    "type": "flip",
                    "seat": seat,
                    "car": seat,
                    "square": car["square"],
                    "facing": direction,
                    "text": f"{name} swerves {way} in gear {gear} and flips over on "
                    f"{car['square']}!",
                }
            )

    def _drive(
        self, state: State, seat: int, direction: str, budget: int, rule: int, events: list[Event]
    ) -> None:
        """Rules 1, 4 and 5, one square at a time; appends the `drive` event (with every step
        of every car, for the animation) followed by what happened on the way."""
        players = state["players"]
        walls = state["walls"]
        car = players[seat]
        name = colour_name(state, seat)
        start = car["square"]
        path = [start]
        steps: list[dict[str, Any]] = []
        later: list[Event] = []  # rebound, push, off-board, checkpoint events, in order
        first_direction = direction
        rebounded = False
        while budget > 0 and not _over(state):
            here = car["square"]
            ahead = STEP[here][direction]
            if ahead is None:
                _leave_board(car, here, direction)
                steps.append(_step(seat, "off", here, None, direction))
                later.append(_off_event(state, seat, seat, here, direction))
                break
            if ahead in walls:
                steps.append(_step(seat, "wall", here, ahead, direction))
                if rebounded:
                    later.append(
                        {
                            "type": "rebound",
                            "seat": seat,
                            "car": seat,
                            "wall": ahead,
                            "square": here,
                            "stopped": True,
                            "text": f"{name} hits the wall at {ahead} as well and stops on {here}.",
                        }
                    )
                    break
                rebounded = True
                back = OPPOSITE[direction]
                later.append(
                    {
                        "type": "rebound",
                        "seat": seat,
                        "car": seat,
                        "wall": ahead,
                        "square": here,
                        "stopped": False,
                        "moves": budget,
                        "text": f"{name} hits the wall at {ahead} and bounces "
                        f"{DIRECTION_NAMES[back]} with {budget} move{'s' if budget > 1 else ''} "
                        "left.",
                    }
                )
                direction = back
                continue  # the same budget, this move included, goes the other way
            other = _car_at(players, ahead)
            if other is not None:
                budget -= 1
                self._push(state, seat, other, ahead, direction, steps, later)
                continue
            car["square"] = ahead
            budget -= 1
            path.append(ahead)
            steps.append(_step(seat, "move", here, ahead, direction))
            _visit(state, car, ahead, later)
            _cross(state, car, here, ahead)
        if rebounded:
            car["gear"] = 0
        end = car["square"]
        if end is not None:
            where = f"to {end}"
        elif len(path) > 1:
            where = f"to {path[-1]} and off the board"
        else:
            where = "off the board"
        route = " → ".join(path)
        text = (
            f"{name} drives {DIRECTION_NAMES[first_direction]} {where}"
            + (f" ({route})" if len(path) > 2 else "")
            + (", then gear 0" if rebounded else "")
            + "."
        )
        if len(path) == 1 and end is not None:
            text = f"{name} does not get past {start}" + (", gear 0" if rebounded else "") + "."
        events.append(
            {
                "type": "drive",
                "seat": seat,
                "car": seat,
                "rule": rule,
                "direction": first_direction,
                "from": start,
                "to": end,
                "path": path,
                "steps": steps,
                "rebound": rebounded,
                "text": text,
            }
        )
        events.extend(later)

    def _push(
        self,
        state: State,
        seat: int,
        other: Player,
        square: str,
        direction: str,
        steps: list[dict[str, Any]],
        later: list[Event],
    ) -> None:
        """Rule 5: one move of the driver pushes the car on `square` one square onward."""
        players = state["players"]
        name = colour_name(state, seat)
        victim = other["seat"]
        them = colour_name(state, victim)
        driver_square = players[seat]["square"]
        steps.append(_step(seat, "bump", driver_square, square, direction))
        dest = STEP[square][direction]
        if dest is None:
            _leave_board(other, square, direction)
            steps.append(_step(victim, "off", square, None, direction))
            later.append(
                {
                    "type": "push",
                    "seat": seat,
                    "car": victim,
                    "from": square,
                    "to": None,
                    "direction": direction,
                    "text": f"{name} pushes {them} off the board at {square}!",
                }
            )
            later.append(_off_event(state, seat, victim, square, direction))
            return
        if dest in state["walls"]:
            blocker: str | None = "a wall"
        else:
            behind = _car_at(players, dest)
            blocker = None if behind is None else f"{colour_name(state, behind['seat'])}'s car"
        if blocker is not None:
            steps.append(_step(victim, "stuck", square, dest, direction))
            later.append(
                {
                    "type": "push",
                    "seat": seat,
                    "car": victim,
                    "from": square,
                    "to": square,
                    "direction": direction,
                    "text": f"{name} bumps {them} on {square}, but {blocker} on {dest} holds it.",
                }
            )
            return
        other["square"] = dest
        steps.append(_step(victim, "pushed", square, dest, direction))
        later.append(
            {
                "type": "push",
                "seat": seat,
                "car": victim,
                "from": square,
                "to": dest,
                "direction": direction,
                "text": f"{name} pushes {them} {DIRECTION_NAMES[direction]} from {square} to "
                f"{dest}.",
            }
        )
        _visit(state, other, dest, later)
        _cross(state, other, square, dest)

    # --- end, view -----------------------------------------------------------------------
    def after_turn(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        for p in state["players"]:
            if p["finished"]:
                winner = p["seat"]
                name = colour_name(state, winner)
                how = "" if winner == seat else f", pushed by {colour_name(state, seat)},"
                return Outcome(
                    winners=(winner,),
                    reason=f"{name}{how} crosses the goal line after a full lap and wins.",
                    details={"square": p["square"]},
                )
        return None

    def board_view(self, state: State, board: dict[str, Any]) -> None:
        board["walls"] = list(state["walls"])
        board["checkpoints"] = [
            {"name": name, "squares": sorted(zone)} for name, zone in ZONES.items()
        ]
        board["goal_line"] = [list(step) for step in sorted(GOAL_STEPS)]

    def playout_score(self, state: State, seat: int) -> float | None:
        """Progress round the lap: 30 per checkpoint zone reached, minus the driving distance
        around the walls to the next zone in race order (then to the goal line); a flipped or
        off-board car loses a card to recover, and a higher gear covers more ground."""
        final = final_score(state, seat)
        if final is not None:
            return final
        car = state["players"][seat]
        reached = car["checkpoints"]
        todo = [name for name in ZONES if not reached[name]]
        target = ZONES[todo[0]] if todo else GOAL_SQUARES
        square = car["square"] if car["square"] is not None else car["left"]
        walls = frozenset(state["walls"])
        steps = fixed_distances(target, walls).get(square, UNREACHABLE)
        score = 30.0 * (len(ZONES) - len(todo)) - steps + 0.5 * car["gear"]
        if car["square"] is None or car["flipped"]:
            score -= 4.0
        return score

    def player_view(self, state: State, seat: int, entry: dict[str, Any]) -> None:
        car = state["players"][seat]
        entry["square"] = car["square"]
        entry["off"] = car["square"] is None
        entry["left"] = car["left"]
        entry["exit"] = car["exit"]
        entry["facing"] = car["facing"]
        entry["gear"] = car["gear"]
        entry["flipped"] = car["flipped"]
        entry["checkpoints"] = dict(car["checkpoints"])
        entry["start"] = START_SQUARES[state["order"].index(seat)]


def _over(state: State) -> bool:
    return any(p["finished"] for p in state["players"])


def _step(car: int, kind: str, frm: str, to: str | None, direction: str) -> dict[str, Any]:
    return {"car": car, "kind": kind, "from": frm, "to": to, "direction": direction}


def _leave_board(car: Player, square: str, direction: str) -> None:
    car["square"] = None
    car["left"] = square
    car["exit"] = direction
    car["flipped"] = False  # off the board, putting it back is its one recovery


def _off_event(state: State, seat: int, victim: int, square: str, direction: str) -> Event:
    name = colour_name(state, victim)
    return {
        "type": "off_board",
        "seat": seat,
        "car": victim,
        "square": square,
        "direction": direction,
        "text": f"{name}'s car leaves the board {DIRECTION_NAMES[direction]} of {square}; "
        "her next action puts it back there.",
    }


def _visit(state: State, car: Player, square: str, events: list[Event]) -> None:
    """A car stands on `square`: tick the checkpoint zone it belongs to (replaced dict)."""
    zone = ZONE_OF.get(square)
    if zone is None or car["checkpoints"][zone]:
        return
    car["checkpoints"] = {**car["checkpoints"], zone: True}
    done = sum(car["checkpoints"].values())
    name = colour_name(state, car["seat"])
    events.append(
        {
            "type": "checkpoint",
            "seat": car["seat"],
            "car": car["seat"],
            "zone": zone,
            "square": square,
            "text": f"{name} reaches the {zone} checkpoint on {square} ({done} of {len(ZONES)}).",
        }
    )


def _cross(state: State, car: Player, frm: str, to: str) -> None:
    """A step across the goal line in the race direction finishes a car that did its lap."""
    if (frm, to) in GOAL_STEPS and all(car["checkpoints"].values()):
        car["finished"] = True
