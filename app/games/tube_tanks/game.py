"""Tank Skirmish (tube edition): two squadrons of three tanks fight on a 15x15 Zone.

Rules: the Tank Skirmish rulebook with our rulings K1-K14 (docs/rules/tube-tanks.md). Seat 0 plays
green (home row 1), seat 1 orange (home row 15); the first player is drawn at random. Players
alternate turns; each turn belongs to the player's active tank (1, 2, 3, 1, ...), and a
destroyed tank's slot still takes its (empty) turn. A turn is a series of small moves for that
tank (moves.py): steps, a ram, one shot, a stationary declaration, a repair, then `end`.

State (JSON)::

    {"game": "tube-tanks", "setup": "A" | "B" | "custom",
     "rules": {flag: bool, ...},            # options.RULE_FLAGS, fixed at set-up
     "walls": [cell, ...], "pools": [...], "gaps": [...],   # sorted cell names ("B8")
     "tanks": [{"seat", "side", "number", "cell" | None, "hp", "stunned", "destroyed",
                "token": [x, y] | None, "streak"}, ...],    # green 1-3 then orange 1-3
     "first": seat, "active": [slot of seat 0, slot of seat 1],   # activation discs
     "turn": {"seat", "tank", "number", "mp", "steady", "fired", "rammed"},
     "walls_destroyed": [n, n],             # Mission 3
     "last_shot": None | {"number", "events": [...]},   # the latest shot and what it did
     "outcome": None | {"winners", "reason", "kind"}}

A tank's "token" is its targeting token as 0-based (x, y), which a collateral landing may put
off the board; "streak" counts its consecutive activations repairing at the centre pool
(Mission 1). "last_shot" keeps the events of the latest shot (from its `fire` event on) so a
page opened late, or a replay at any position, shows the shot of that position without having
seen it happen. View: the state plus "reach" ([cell, cost] pairs: the cells the active tank
can still reach), "compass", "centre", "setup_name", "max_dice", "movement_points"
(docs/tube-tanks.md). Chance: the first-player draw and every die, each shown in a "fire"
event with its face. Hidden information: none.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel

from app.engine.contract import Event, Game, IllegalMove, Move, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.tube_tanks import combat, missions
from app.games.tube_tanks.ballistics import MAX_DICE
from app.games.tube_tanks.board import neighbours, occupancy, tank_name, tank_xy
from app.games.tube_tanks.effects import HIT_POINTS, damage
from app.games.tube_tanks.movement import (
    MOVEMENT_POINTS,
    ram_damage,
    rams,
    reach,
    step_cost,
    steps,
)
from app.games.tube_tanks.moves import TanksMove
from app.games.tube_tanks.options import Options
from app.games.tube_tanks.zone import CENTRE, COMPASS, SETUP_NAMES, SIDES, cell_name, parse_cell

REPAIR_POINTS = 2
TANKS_PER_SIDE = 3
MOVE_KINDS = ("step", "ram", "stay", "fire", "repair", "end")


JsonT = TypeVar("JsonT")


def _copy(data: JsonT) -> JsonT:
    """A deep copy of JSON data (a state, a list of events)."""
    copied: JsonT = json.loads(json.dumps(data))
    return copied


def new_state(options: Options, first: int) -> State:
    """The state at the start of play, before the first activation is opened."""
    zone = options.layout()
    pools = list(zone.pools)
    if options.mission_1 and CENTRE not in pools:
        pools = sorted([*pools, CENTRE], key=parse_cell)
    tanks = []
    for seat, side in enumerate(SIDES):
        for number, cell in enumerate(getattr(zone, side), start=1):
            tanks.append(
                {
                    "seat": seat,
                    "side": side,
                    "number": number,
                    "cell": cell,
                    "hp": HIT_POINTS,
                    "stunned": False,
                    "destroyed": False,
                    "token": None,
                    "streak": 0,
                }
            )
    return {
        "game": TubeTanks.id,
        "setup": options.setup,
        "rules": options.rules(),
        "walls": list(zone.walls),
        "pools": pools,
        "gaps": list(zone.gaps),
        "tanks": tanks,
        "first": first,
        "active": [0, 0],
        "turn": {
            "seat": first,
            "tank": _slot_tank(first, 0),
            "number": 0,
            "mp": 0,
            "steady": False,
            "fired": False,
            "rammed": False,
        },
        "walls_destroyed": [0, 0],
        "last_shot": None,
        "outcome": None,
    }


def _slot_tank(seat: int, slot: int) -> int:
    return seat * TANKS_PER_SIDE + slot


def open_activation(state: State, seat: int, number: int, events: list[Event]) -> None:
    """Hand the turn to `seat`'s active tank. A destroyed tank's slot takes its empty turn and
    a stunned tank spends its activation recovering (K9); both pass the turn at once."""
    for _ in range(4 * TANKS_PER_SIDE):
        slot = state["active"][seat]
        index = _slot_tank(seat, slot)
        tank = state["tanks"][index]
        number += 1
        if not tank["destroyed"] and not tank["stunned"]:
            state["turn"] = {
                "seat": seat,
                "tank": index,
                "number": number,
                "mp": 0,
                "steady": False,
                "fired": False,
                "rammed": False,
            }
            events.append(
                {
                    "type": "turn",
                    "seat": seat,
                    "tank": index,
                    "number": number,
                    "text": f"{tank_name(tank)} is active.",
                }
            )
            return
        if tank["destroyed"]:
            events.append(
                {
                    "type": "skip",
                    "seat": seat,
                    "tank": index,
                    "number": number,
                    "text": f"{tank_name(tank)} is destroyed: its turn passes.",
                }
            )
        else:
            tank["stunned"] = False
            tank["streak"] = 0
            events.append(
                {
                    "type": "recover",
                    "seat": seat,
                    "tank": index,
                    "number": number,
                    "text": f"{tank_name(tank)} recovers from the stun instead of acting.",
                }
            )
        state["active"][seat] = (slot + 1) % TANKS_PER_SIDE
        seat = 1 - seat
    raise AssertionError("no tank can act although both sides have units")


@register
class TubeTanks(Game):
    id = "tube-tanks"
    title = "Tank Skirmish (tube edition)"
    min_players = 2
    max_players = 2
    rules_version = "2"
    # Version 1 kept no "last_shot" in the state; its matches keep that shape, so the state
    # hashes in replays exported under it still verify.
    older_rules_versions = frozenset({"1"})
    has_chance = True
    hidden_information = False
    goal = "Destroy all three enemy tanks (or achieve an agreed mission) to win the battle."
    Options = Options
    MoveType = TanksMove

    def options_need_agreement(self, options: BaseModel) -> bool:
        return isinstance(options, Options) and options.setup == "custom"

    def check_start(self, players: int, options: BaseModel) -> str | None:
        """K14: Mission 3 "needs Wall Destruction, and Target Anything or collateral hits" (or
        an energy bolt a wall stops): without them no wall can ever fall. Refused at the start
        rather than in the options model, so the host can toggle the rules in any order."""
        if not isinstance(options, Options) or not options.mission_3:
            return None
        if not options.wall_destruction:
            return "Mission 3 (destroy 5 walls) needs the Wall Destruction rule."
        if not (options.target_anything or options.collateral_damage or options.energy_bolts):
            return (
                "Mission 3 (destroy 5 walls) needs a way to hit walls: Target Anything, "
                "Collateral Damage or Energy Bolts."
            )
        return None

    # --- the contract -------------------------------------------------------------------------
    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        if players != 2:
            raise ValueError(f"{self.title} is for 2 players, not {players}")
        assert isinstance(options, Options)
        first = rng.below(2)  # "any peaceful means" (1(d)): drawn by the match's dice
        state = new_state(options, first)
        open_activation(state, first, 0, [])
        return state

    def active_seats(self, state: State) -> frozenset[int]:
        if state["outcome"] is not None:
            return frozenset()
        return frozenset((state["turn"]["seat"],))

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["outcome"] is not None or seat != state["turn"]["seat"]:
            return []
        turn = state["turn"]
        index = turn["tank"]
        tank = state["tanks"][index]
        rules = state["rules"]
        moves: list[Move] = []
        for kind in ("step", "ram", "stay", "repair"):
            moves += self.legal_moves_of_kind(state, kind)
        if not tank["destroyed"]:
            if not turn["fired"]:
                aims = ["tank"]
                if rules["triangulation"] and tank["token"] is not None:
                    aims.append("token")
                for target in combat.targets(state, index):
                    for aim in aims:
                        moves.append({"type": "fire", "target": target, "aim": aim})
        moves.append({"type": "end"})
        return moves

    def apply(self, state: State, seat: int, move: Move, rng: Dice) -> tuple[State, list[Event]]:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
            raise IllegalMove("There is no such seat at this table.")
        if not isinstance(move, dict) or move.get("type") not in MOVE_KINDS:
            raise IllegalMove("That is not a Tank Skirmish move.")
        if state["outcome"] is not None:
            raise IllegalMove("The battle is over.")
        if seat != state["turn"]["seat"]:
            raise IllegalMove("It is not your turn.")
        if not self._is_legal(state, move):
            raise IllegalMove(self._refusal(state, move))
        state = _copy(state)
        events: list[Event] = []
        turn = state["turn"]
        index = turn["tank"]
        tank = state["tanks"][index]
        kind = move["type"]
        if kind == "step":
            self._step(state, index, parse_cell(move["to"]), events)
        elif kind == "ram":
            self._ram(state, index, parse_cell(move["at"]), events)
        elif kind == "stay":
            turn["steady"] = True
            events.append(
                {
                    "type": "stay",
                    "seat": seat,
                    "tank": index,
                    "text": f"{tank_name(tank)} stays put this turn and aims carefully (2 dice "
                    "fewer).",
                }
            )
        elif kind == "fire":
            turn["fired"] = True
            combat.fire(state, seat, index, move["target"], move["aim"], rng, events)
            self._finish_if_over(state, events, seat)
            if "last_shot" in state:
                state["last_shot"] = {"number": turn["number"], "events": _copy(events)}
        elif kind == "repair":
            before = tank["hp"]
            tank["hp"] = min(HIT_POINTS, before + REPAIR_POINTS)
            at_centre = state["rules"]["mission_1"] and missions.repaired_at_centre(state, index)
            tank["streak"] = tank["streak"] + 1 if at_centre else 0
            events.append(
                {
                    "type": "repair",
                    "seat": seat,
                    "tank": index,
                    "amount": tank["hp"] - before,
                    "hp": tank["hp"],
                    "text": f"{tank_name(tank)} draws energy from a pool and repairs "
                    f"{tank['hp'] - before} damage ({tank['hp']} of {HIT_POINTS}).",
                }
            )
            self._end_activation(state, seat, events, repaired=True)
        else:
            self._end_activation(state, seat, events, repaired=False)
        return state, events

    def keep_older_rules(self, state: State, rules_version: str) -> State:
        if rules_version == "1":
            del state["last_shot"]
        return state

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        board = _copy(state)
        board["setup_name"] = SETUP_NAMES.get(state["setup"], "Custom zone")
        board["compass"] = {str(k): list(v) for k, v in COMPASS.items()}
        board["centre"] = CENTRE
        board["max_dice"] = MAX_DICE
        board["movement_points"] = MOVEMENT_POINTS
        # A match begun under rules version 1 keeps no last shot: the page then shows the
        # shots it saw.
        board.setdefault("last_shot", None)
        turn = state["turn"]
        tank = state["tanks"][turn["tank"]]
        cells: list[list[Any]] = []
        if (
            state["outcome"] is None
            and not tank["destroyed"]
            and not turn["steady"]
            and not turn["rammed"]
        ):
            budget = MOVEMENT_POINTS - turn["mp"]
            found = reach(occupancy(state), tank_xy(tank), budget)
            cells = [[cell_name(*xy), cost] for xy, cost in sorted(found.items())]
        board["reach"] = cells
        return board

    def outcome(self, state: State) -> Outcome | None:
        result = state["outcome"]
        if result is None:
            return None
        hp = {seat: sum(t["hp"] for t in state["tanks"] if t["seat"] == seat) for seat in (0, 1)}
        return Outcome(
            winners=tuple(result["winners"]),
            reason=result["reason"],
            scores=hp,
            details={"kind": result["kind"], "walls_destroyed": list(state["walls_destroyed"])},
        )

    def playout_score(self, state: State, seat: int) -> float | None:
        """Own hit points minus the enemy's, a win above everything: random play with Target
        Anything shoots at empty cells for ever, this makes playouts fight."""
        result = state["outcome"]
        if result is not None:
            return 100.0 if seat in result["winners"] else -100.0
        own = sum(t["hp"] for t in state["tanks"] if t["seat"] == seat)
        enemy = sum(t["hp"] for t in state["tanks"] if t["seat"] != seat)
        return float(own - enemy)

    # --- moves ----------------------------------------------------------------------------------
    def _is_legal(self, state: State, move: Move) -> bool:
        """The same answer as `move in legal_moves(...)`, without listing every target."""
        kind = move["type"]
        if kind == "end":
            return move == {"type": "end"}
        if kind in ("stay", "repair"):
            return move in self.legal_moves_of_kind(state, kind)
        turn = state["turn"]
        tank = state["tanks"][turn["tank"]]
        if tank["destroyed"]:
            return False
        if kind == "fire":
            if set(move) != {"type", "target", "aim"} or turn["fired"]:
                return False
            if move["aim"] == "token":
                if not state["rules"]["triangulation"] or tank["token"] is None:
                    return False
            elif move["aim"] != "tank":
                return False
            try:
                xy = parse_cell(move["target"])
            except ValueError:
                return False
            return combat.is_target(state, occupancy(state), turn["tank"], xy)
        return move in self.legal_moves_of_kind(state, kind)

    def legal_moves_of_kind(self, state: State, kind: str) -> list[Move]:
        turn = state["turn"]
        index = turn["tank"]
        tank = state["tanks"][index]
        if tank["destroyed"]:
            return []
        untouched = turn["mp"] == 0 and not turn["fired"] and not turn["steady"]
        if kind == "stay":
            return [{"type": "stay"}] if untouched else []
        if kind == "repair":
            return [{"type": "repair"}] if untouched and self._may_repair(state, index) else []
        if turn["steady"] or turn["rammed"]:
            return []
        occ = occupancy(state)
        here = tank_xy(tank)
        budget = MOVEMENT_POINTS - turn["mp"]
        if kind == "step":
            return [{"type": "step", "to": cell_name(*xy)} for xy, _ in steps(occ, here, budget)]
        if kind == "ram" and state["rules"]["collision"]:
            return [{"type": "ram", "at": cell_name(*xy)} for xy, _ in rams(occ, here, budget)]
        return []

    def _may_repair(self, state: State, index: int) -> bool:
        """K11: next to an Energy Pool. Without the Repair rule, Mission 1 still needs repairs,
        but only at its own pool on the centre (K14): the setup's pools stay inert."""
        rules = state["rules"]
        if rules["repair"]:
            pools = {parse_cell(p) for p in state["pools"]}
        elif rules["mission_1"]:
            pools = {parse_cell(CENTRE)}
        else:
            return False
        return any(xy in pools for xy in neighbours(tank_xy(state["tanks"][index])))

    def _step(self, state: State, index: int, to: tuple[int, int], events: list[Event]) -> None:
        tank = state["tanks"][index]
        turn = state["turn"]
        here = tank_xy(tank)
        cost = step_cost(here, to)
        turn["mp"] += cost
        tank["cell"] = cell_name(*to)
        events.append(
            {
                "type": "step",
                "seat": tank["seat"],
                "tank": index,
                "from": cell_name(*here),
                "to": tank["cell"],
                "cost": cost,
                "mp": turn["mp"],
                "text": f"{tank_name(tank)} moves from {cell_name(*here)} to {tank['cell']} "
                f"({cost} points, {turn['mp']} of {MOVEMENT_POINTS} spent).",
            }
        )
        won = missions.enemy_home_reached(state, index)
        if won is not None:
            self._declare(state, won, events)

    def _ram(self, state: State, index: int, at: tuple[int, int], events: list[Event]) -> None:
        tank = state["tanks"][index]
        turn = state["turn"]
        occ = occupancy(state)
        victim = occ[at][1]
        assert victim is not None
        cost = step_cost(tank_xy(tank), at)
        turn["mp"] += cost
        turn["rammed"] = True
        amount = ram_damage(turn["mp"])
        events.append(
            {
                "type": "ram",
                "seat": tank["seat"],
                "tank": index,
                "victim": victim,
                "at": cell_name(*at),
                "cost": cost,
                "mp": turn["mp"],
                "damage": amount,
                "text": f"{tank_name(tank)} rams {tank_name(state['tanks'][victim])} on "
                f"{cell_name(*at)} ({turn['mp']} points spent): both take {amount} damage.",
            }
        )
        damage(state, victim, amount, events, hit=False)
        damage(state, index, amount, events, hit=False)
        self._finish_if_over(state, events, tank["seat"])

    def _finish_if_over(self, state: State, events: list[Event], seat: int) -> None:
        won = missions.annihilation(state) or missions.walls_destroyed(state, seat)
        if won is not None:
            self._declare(state, won, events)

    def _declare(self, state: State, won: dict[str, Any], events: list[Event]) -> None:
        if state["outcome"] is None:
            state["outcome"] = won
            events.append({"type": "game_over", "winners": won["winners"], "text": won["reason"]})

    def _end_activation(
        self, state: State, seat: int, events: list[Event], *, repaired: bool
    ) -> None:
        turn = state["turn"]
        index = turn["tank"]
        tank = state["tanks"][index]
        if not repaired:
            tank["streak"] = 0
        events.append(
            {
                "type": "end",
                "seat": seat,
                "tank": index,
                "text": f"{tank_name(tank)} ends its turn.",
            }
        )
        won = missions.centre_held(state, index)
        if won is not None:
            self._declare(state, won, events)
            return
        state["active"][seat] = (state["active"][seat] + 1) % TANKS_PER_SIDE
        open_activation(state, 1 - seat, turn["number"], events)

    def _refusal(self, state: State, move: Move) -> str:
        turn = state["turn"]
        tank = state["tanks"][turn["tank"]]
        kind = move.get("type")
        if tank["destroyed"]:
            return f"{tank_name(tank)} is destroyed: you can only end the turn."
        if kind in ("step", "ram"):
            if turn["steady"]:
                return "You declared to stay put this turn: no more movement."
            if turn["rammed"]:
                return "Ramming ends the tank's movement for this turn."
            if kind == "ram" and not state["rules"]["collision"]:
                return "Ramming needs the Collision rule."
            return "The tank cannot move there (blocked, too far, or not enough points)."
        if kind == "fire":
            if turn["fired"]:
                return "You can only fire the cannon once per turn."
            return "That is not a target you may shoot at."
        if kind == "repair":
            return "Repair needs a whole turn next to an Energy Pool, doing nothing else."
        if kind == "stay":
            return "You can only stay put before moving or firing."
        return "That move is not allowed now."
