"""Tactrics: Cat & Mouse. The mouse (a red router) runs for the cupboard behind the grey
controllers; the cats (black routers) corner it.

Rules: the Tactrics Advanced rulebook, "#3 Cat & Mouse", with rulings V1, V2
(docs/rules/families/tactrics-rulings.md) and V8 (docs/rules/tactrics-cat-mouse.md) and a set-up
from `data/cat_mouse.json`: rules version 2 starts the cats on E2, E4, E6, E8 (issue 15: from the
squares we first proposed the mouse won 83% of matches between equal normal bots); matches begun
under version 1 keep those first squares. Seat 0 plays the mouse and moves first; seat 1 plays the
cats.
- Mouse turn: rotations (one position, either way) of towers around the mouse's slot; a tower
  with 2+ cats may not turn; turning a tower with exactly 1 cat moves that cat too and ends
  the mouse's rotations; at least one rotation, at most 30; then confirm (undo allowed before).
- Cats turn: exactly one rotation of a tower with at least one cat, never the exact reverse of
  the mouse's last rotation; then confirm.
- The mouse wins the moment it stands on one of the 7 cupboard slots (the N edge row), whoever
  moved it; the cats win when a mouse turn starts and the mouse has no legal rotation.

State (on top of `turns.py`): ``cats`` (4 or 5), ``mouse_last`` ([tower, direction] of the
mouse's last rotation, or None), ``setup`` (the set-up's key in the data, "2"; absent in a
match of rules version 1, whose states keep their old shape). No chance, no hidden
information.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.engine.contract import Event, Move, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.tactrics.board import (
    DATA,
    DIRECTION_WORDS,
    EDGES,
    OPPOSITE_DIRECTION,
    SLOT_TOWERS,
    TOWER_SLOTS,
    TOWERS,
    distances_to,
)
from app.games.tactrics.turns import TurnGame, rotate_board, rotate_move

SETUP = json.loads((DATA / "cat_mouse.json").read_text())
SETUPS: dict[str, dict[str, Any]] = SETUP["setups"]
CUPBOARD: tuple[str, ...] = EDGES[SETUP["cupboard"]]
MOUSE = SETUP["mouse_colour"]
CAT = SETUP["cat_colour"]
MOUSE_SEAT, CATS_SEAT = 0, 1
MOUSE_CAP = int(SETUP["mouse_turn_cap"])


class CatMouseOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cats: Literal[4, 5] = Field(
        default=4, description="4 cats, or 5 with the cat from next door (much harder)."
    )


def start_routers(setup: str, cats: int) -> dict[str, str]:
    """The routers a match starts with under set-up `setup` (a key of `SETUPS`)."""
    chosen = SETUPS[setup]
    routers = {chosen["mouse"]: MOUSE}
    for slot in chosen["cats"][str(cats)]:
        routers[slot] = CAT
    return routers


@lru_cache(maxsize=1)
def _cupboard_distance() -> dict[str, int]:
    return distances_to(CUPBOARD)


def mouse_slot(state: State) -> str:
    return next(slot for slot, c in state["routers"].items() if c == MOUSE)


def cats_on(state: State, tower: str) -> int:
    return sum(1 for slot in TOWER_SLOTS[tower] if state["routers"].get(slot) == CAT)


def mouse_towers(state: State) -> list[str]:
    """Towers the mouse may turn now: around its slot, with fewer than 2 cats (V8)."""
    return [t for t in SLOT_TOWERS[mouse_slot(state)] if cats_on(state, t) < 2]


@register
class CatMouse(TurnGame):
    id = "tactrics-cat-mouse"
    title = "Tactrics: Cat & Mouse"
    min_players = 2
    max_players = 2
    rules_version = "2"
    older_rules_versions = frozenset({"1"})
    game_key = "cat-mouse"
    goal = "The mouse reaches the cupboard behind the grey controllers; the cats corner it."
    Options = CatMouseOptions

    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        if players != 2:
            raise ValueError(f"{self.title} is for 2 players, not {players}")
        assert isinstance(options, CatMouseOptions)
        state: State = {
            "game": self.id,
            "phase": "play",
            "seats": 2,
            "routers": start_routers(self.rules_version, options.cats),
            "controllers": {},
            "claims": {},
            "reserve": [0, 0],
            "cats": options.cats,
            "mouse_last": None,
            "turn": None,
            "outcome": None,
            "setup": self.rules_version,
        }
        self.start_turn(state, MOUSE_SEAT, 0)
        return state

    def keep_older_rules(self, state: State, rules_version: str) -> State:
        if rules_version == "1":  # the cats start on the first squares, as they were played
            state["routers"] = start_routers("1", state["cats"])
            del state["setup"]
        return state

    def colour_of(self, state: State, seat: int) -> str:
        return "The mouse" if seat == MOUSE_SEAT else "The cats"

    def verb(self, seat: int, singular: str) -> str:
        return singular if seat == MOUSE_SEAT else singular.removesuffix("s")

    def allowed_actions(self, state: State, seat: int, index: int) -> int:
        return MOUSE_CAP if seat == MOUSE_SEAT else 1

    def can_confirm(self, state: State, seat: int) -> bool:
        used = state["turn"]["used"]
        return used >= 1 if seat == MOUSE_SEAT else used == 1

    def actions(self, state: State, seat: int) -> list[Move]:
        if seat == MOUSE_SEAT:
            return [rotate_move(t, d) for t in mouse_towers(state) for d in ("cw", "ccw")]
        last = state["mouse_last"]
        forbidden = None if last is None else (last[0], OPPOSITE_DIRECTION[last[1]])
        return [
            rotate_move(t, d)
            for t in TOWERS
            if cats_on(state, t) >= 1
            for d in ("cw", "ccw")
            if (t, d) != forbidden
        ]

    def perform(self, state: State, seat: int, move: Move, events: list[Event]) -> None:
        tower = move["tower"]
        cats = cats_on(state, tower)
        rotate_board(state, tower, move["direction"])
        event = self.rotation_event(state, seat, move)
        if seat == MOUSE_SEAT and cats == 1:
            state["turn"]["locked"] = True  # the cat moved: no more rotations
            event["text"] = (
                f"The mouse turns {tower} {DIRECTION_WORDS[move['direction']]}, "
                "moving a cat too; that ends its rotations."
            )
        events.append(event)

    def check_end(self, state: State, seat: int) -> Outcome | None:
        slot = mouse_slot(state)
        if slot in CUPBOARD:
            return Outcome(
                winners=(MOUSE_SEAT,),
                reason=f"The mouse reaches the cupboard at {slot} and wins.",
                details={"mouse": slot},
            )
        return None

    def after_confirm(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        if state["turn"]["seat"] == MOUSE_SEAT and not mouse_towers(state):
            return Outcome(
                winners=(CATS_SEAT,),
                reason="The mouse is cornered: every tower around it holds two cats. The cats win.",
                details={"mouse": mouse_slot(state)},
            )
        return None

    def apply(self, state: State, seat: int, move: Move, rng: Dice) -> tuple[State, list[Event]]:
        new, events = super().apply(state, seat, move, rng)
        if seat == MOUSE_SEAT and move.get("type") == "confirm":
            # The last rotation left standing at the confirm is the one cats may not reverse.
            rotations = [s["move"] for s in state["turn"]["undo"] if s["move"]["type"] == "rotate"]
            new["mouse_last"] = [rotations[-1]["tower"], rotations[-1]["direction"]]
        return new, events

    def refusal(self, state: State, seat: int, move: Move) -> str:
        if move.get("type") != "rotate":
            if move.get("type") == "confirm":
                if seat == MOUSE_SEAT:
                    return "The mouse must make at least one rotation first."
                return "The cats must make exactly one rotation first."
            return "In Cat & Mouse the only action is turning a tower."
        tower = move.get("tower", "")
        if seat == MOUSE_SEAT:
            if tower not in SLOT_TOWERS[mouse_slot(state)]:
                return f"The mouse may only turn a tower it stands on; {tower} is not one."
            return f"{tower} holds two cats or more, so the mouse may not turn it."
        if cats_on(state, tower) == 0:
            return f"The cats may only turn a tower with a cat on it; {tower} has none."
        return "The cats may not simply undo the mouse's last rotation."

    def playout_score(self, state: State, seat: int) -> float | None:
        outcome = state.get("outcome")
        if outcome is not None:
            return 1000.0 if seat in outcome["winners"] else -1000.0
        dist = float(_cupboard_distance()[mouse_slot(state)])
        return -dist if seat == MOUSE_SEAT else dist

    def extra_view(self, state: State, board: dict[str, Any]) -> None:
        board["cupboard"] = list(CUPBOARD)
        board["cats"] = state["cats"]
        board["mouse_last"] = None if state["mouse_last"] is None else list(state["mouse_last"])
        board["mouse"] = mouse_slot(state)
        board["players"] = [
            {"seat": MOUSE_SEAT, "colour": MOUSE, "role": "mouse"},
            {"seat": CATS_SEAT, "colour": CAT, "role": "cats"},
        ]
