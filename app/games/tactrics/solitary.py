"""Tactrics: Solitary. One player turns any tower, as often as she likes, until every router
stands around the tower of its colour; fewer rotations is better.

Rules: the Tactrics Advanced rulebook, "#4 Solitary", with rulings V1, V2
(docs/rules/families/tactrics-rulings.md) and V9 (docs/rules/tactrics-solitary.md) and our scenarios
(`data/solitary.json`): split (up to 6 colours
on the six corner towers) or clustered (3 colours on T22, T34, T42, which together ring the
centre tower). K colours of 6 routers each are placed on random distinct slots at set-up
(the match's seeded RNG). Any tower turns, no majority rule. Solved when every router is on a
slot of its colour's target tower. Score = rotations used (an undone rotation does not count).

State (JSON)::

    {"game": "tactrics-solitary", "phase": "play" | "over", "seats": 1,
     "scenario": "split" | "clustered", "targets": {colour: tower},
     "routers": {slot: colour}, "rotations": int,
     "history": [[tower, direction], ...],   # the last rotations, for undo (at most 50)
     "outcome": None | {...}}

Chance: the set-up only. Hidden information: none. The platform keeps each player's best
(lowest) score per scenario: Outcome.details["record_key"] is e.g. "split-6".
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.engine.contract import Event, Game, IllegalMove, Move, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.tactrics.board import (
    DATA,
    DIRECTION_WORDS,
    OPPOSITE_DIRECTION,
    SLOTS,
    TOWER_SLOTS,
    TOWERS,
    distances_to,
    rotate_contents,
    slot_list,
)
from app.games.tactrics.moves import TactricsMove
from app.games.tactrics.turns import all_rotations

SOLITARY = json.loads((DATA / "solitary.json").read_text())
PER_COLOUR = int(SOLITARY["routers_per_colour"])
UNDO_DEPTH = int(SOLITARY["undo_depth"])
ROTATIONS = all_rotations()


class SolitaryOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: Literal["split", "clustered"] = Field(
        default="split",
        description="Split: colours gather on the six corner towers. Clustered: three colours "
        "gather on three towers that ring the centre.",
    )
    colours: int = Field(
        default=3,
        ge=1,
        le=6,
        description="Number of colours, 6 routers each (split: 1-6; clustered: exactly 3).",
    )


@lru_cache(maxsize=16)
def _distances(tower: str) -> dict[str, int]:
    return distances_to(TOWER_SLOTS[tower])


def solved(state: State) -> bool:
    targets = state["targets"]
    return all(slot in TOWER_SLOTS[targets[c]] for slot, c in state["routers"].items())


def placed_right(state: State) -> int:
    targets = state["targets"]
    return sum(1 for slot, c in state["routers"].items() if slot in TOWER_SLOTS[targets[c]])


@register
class Solitary(Game):
    id = "tactrics-solitary"
    title = "Tactrics: Solitary"
    min_players = 1
    max_players = 1
    rules_version = "1"
    has_chance = True
    hidden_information = False
    goal = "Gather every router around the tower of its colour in as few rotations as you can."
    Options = SolitaryOptions
    MoveType = TactricsMove
    record_order = "low"

    def check_start(self, players: int, options: BaseModel) -> str | None:
        """4(d): the clustered scenario is 3 colours on three towers around the centre; the
        lobby says so rather than set-up changing the number of colours."""
        assert isinstance(options, SolitaryOptions)
        targets = SOLITARY["scenarios"][options.scenario]["targets"]
        if options.scenario == "clustered" and options.colours != len(targets):
            return (
                f"The clustered scenario is played with {len(targets)} colours, not "
                f"{options.colours}; choose {len(targets)} colours or the split scenario."
            )
        return None

    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        if players != 1:
            raise ValueError(f"{self.title} is for 1 player, not {players}")
        assert isinstance(options, SolitaryOptions)
        scenario = SOLITARY["scenarios"][options.scenario]
        count = min(options.colours, len(scenario["targets"]))
        colours = scenario["colours"][:count]
        slots = rng.shuffled(SLOTS)[: count * PER_COLOUR]
        routers = {slot: colours[i // PER_COLOUR] for i, slot in enumerate(slots)}
        state: State = {
            "game": self.id,
            "phase": "play",
            "seats": 1,
            "scenario": options.scenario,
            "targets": dict(zip(colours, scenario["targets"], strict=False)),
            "routers": routers,
            "rotations": 0,
            "history": [],
            "outcome": None,
        }
        if solved(state):  # a shuffle that is already solved costs nothing to record
            state["phase"] = "over"
            state["outcome"] = self._result(state).to_json()
        return state

    def record_key(self, state: State) -> str:
        return f"{state['scenario']}-{len(state['targets'])}"

    def _result(self, state: State) -> Outcome:
        n = state["rotations"]
        return Outcome(
            winners=(0,),
            reason=f"Every router is around its own tower after {n} "
            f"rotation{'s' if n != 1 else ''}.",
            scores={0: n},
            details={"record_key": self.record_key(state), "rotations": n},
        )

    def active_seats(self, state: State) -> frozenset[int]:
        return frozenset((0,)) if state["phase"] == "play" else frozenset()

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["phase"] != "play" or seat != 0:
            return []
        if not state["history"]:
            return [dict(m) for m in ROTATIONS]
        # Turning the last tower straight back is spelled "undo" (and is not counted).
        tower, direction = state["history"][-1]
        back = {"type": "rotate", "tower": tower, "direction": OPPOSITE_DIRECTION[direction]}
        return [*(dict(m) for m in ROTATIONS if m != back), {"type": "undo"}]

    def apply(self, state: State, seat: int, move: Move, rng: Dice) -> tuple[State, list[Event]]:
        if seat != 0:
            raise IllegalMove("Solitary has one seat; you are not playing it.")
        if state["phase"] != "play":
            raise IllegalMove("The puzzle is solved; the game is over.")
        if not isinstance(move, dict) or move not in self.legal_moves(state, seat):
            kind = move.get("type") if isinstance(move, dict) else None
            if kind == "undo":
                raise IllegalMove("There is no rotation left to undo.")
            if kind == "rotate" and state["history"]:
                raise IllegalMove(
                    "Turning that tower straight back is an undo: use Undo (it is not counted)."
                )
            raise IllegalMove("In Solitary you turn towers: pick a tower and a direction.")
        new = dict(state)
        history = list(state["history"])
        if move["type"] == "undo":
            tower, direction = history.pop()
            back = OPPOSITE_DIRECTION[direction]
            new["routers"] = rotate_contents(state["routers"], tower, back)
            new["rotations"] = state["rotations"] - 1
            event: Event = {
                "type": "undo",
                "seat": 0,
                "tower": tower,
                "direction": back,
                "text": f"You take back turning {tower} {DIRECTION_WORDS[direction]}.",
            }
        else:
            tower, direction = move["tower"], move["direction"]
            new["routers"] = rotate_contents(state["routers"], tower, direction)
            new["rotations"] = state["rotations"] + 1
            history = [*history, [tower, direction]][-UNDO_DEPTH:]
            event = {
                "type": "rotate",
                "seat": 0,
                "tower": tower,
                "direction": direction,
                "text": f"You turn {tower} {DIRECTION_WORDS[direction]} "
                f"(rotation {new['rotations']}).",
            }
        new["history"] = history
        events = [event]
        if solved(new):
            new["phase"] = "over"
            outcome = self._result(new)
            new["outcome"] = outcome.to_json()
            events.append({"type": "game_over", "text": outcome.reason, "winners": [0]})
        return new, events

    def outcome(self, state: State) -> Outcome | None:
        raw = state.get("outcome")
        if raw is None:
            return None
        return Outcome(
            winners=tuple(raw["winners"]),
            reason=raw["reason"],
            scores={int(k): v for k, v in raw["scores"].items()},
            details=dict(raw["details"]),
        )

    def playout_score(self, state: State, seat: int) -> float | None:
        """Minus the routers' total distance to their towers, plus half the best gain one
        more rotation could bring: so a neutral turn that lines up a gain beats other
        neutral turns, and guided playouts do not stall one router short."""
        if state.get("outcome") is not None:
            return 1000.0
        targets = state["targets"]
        routers = state["routers"]

        def dist(slot: str, colour: str) -> int:
            return _distances(targets[colour])[slot]

        total = sum(dist(s, c) for s, c in routers.items())
        best_gain = 0
        for tower in TOWER_SLOTS:
            ring = TOWER_SLOTS[tower]
            for step in (1, -1):
                gain = 0
                for k, slot in enumerate(ring):
                    colour = routers.get(slot)
                    if colour is not None:
                        gain += dist(slot, colour) - dist(ring[(k + step) % 6], colour)
                best_gain = max(best_gain, gain)
        return -float(total) + 0.5 * best_gain

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "family": "tactrics",
            "game": "solitary",
            "phase": state["phase"],
            "routers": slot_list(state["routers"]),
            "controllers": [None] * len(SLOTS),
            "claims": [None] * len(TOWERS),
            "scenario": state["scenario"],
            "targets": dict(state["targets"]),
            "rotations": state["rotations"],
            "can_undo": bool(state["history"]),
            "placed": placed_right(state),
            "total": len(state["routers"]),
            "record_key": self.record_key(state),
            "turn": None if state["phase"] != "play" else {"seat": 0, "left": None},
            "players": [{"seat": 0, "colour": None}],
        }
