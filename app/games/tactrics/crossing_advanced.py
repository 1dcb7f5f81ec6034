"""Tactrics: Crossing Advanced. Crossing plus controllers: claim and capture towers, move
controllers along touching routers, take a controller back for a whole turn.

Rules: the Tactrics Advanced rulebook, "#2 Crossing Advanced" ("Actions" 2-4, the minority
rotation rule on claimed towers) with rulings V1-V6 and V10 (docs/rules/families/) and V7
(docs/rules/tactrics-crossing-advanced.md). Set-up
(V7): every player places 2 controllers on 2 of her starting routers, all at once (phase
"setup", one `place` move per controller); then turns run as in Crossing. A claimed tower may
be turned only by its claimant (with the majority rule of V3); other players need a reserve
controller (V6, when the option is on).

State: Crossing's (see `crossing.py`); ``controllers`` maps a slot to the seat whose
controller stands on the router there, ``claims`` maps a tower to the seat whose controller
is on it, ``reserve`` counts reserve controllers (2 each with the minority option; a captured
controller with no free router of its owner goes there too, V7). No chance, no hidden
information.
"""

from __future__ import annotations

from collections import deque

from app.engine.contract import Event, Move, State
from app.engine.registry import register
from app.games.tactrics.board import SLOT_NEIGHBOURS, TOWER_SLOTS, TOWERS
from app.games.tactrics.crossing import Crossing, player_colour
from app.games.tactrics.turns import colour_counts

CONTROLLERS_EACH = 2


def free_routers(state: State, seat: int) -> list[str]:
    """`seat`'s routers without a controller, in slot order."""
    colour = player_colour(state, seat)
    return sorted(
        (s for s, c in state["routers"].items() if c == colour and s not in state["controllers"]),
        key=_slot_key,
    )


def _slot_key(slot: str) -> tuple[str, int]:
    return (slot[0], int(slot[1:]))


def reachable(state: State, start: str) -> set[str]:
    """Occupied slots joined to `start` by a chain of side-by-side routers (any colour)."""
    seen = {start}
    queue = deque([start])
    while queue:
        slot = queue.popleft()
        for other in SLOT_NEIGHBOURS[slot]:
            if other not in seen and other in state["routers"]:
                seen.add(other)
                queue.append(other)
    return seen


@register
class CrossingAdvanced(Crossing):
    id = "tactrics-crossing-advanced"
    title = "Tactrics: Crossing Advanced"
    game_key = "crossing-advanced"
    goal = (
        "Be the first to bring all your routers into your goal area, claiming towers with "
        "your controllers to stop others turning them."
    )

    # --- set-up (V7) --------------------------------------------------------------------------
    def setup_extra(self, state: State) -> None:
        state["phase"] = "setup"

    def placed(self, state: State, seat: int) -> int:
        return sum(1 for s in state["controllers"].values() if s == seat)

    def setup_seats(self, state: State) -> frozenset[int]:
        return frozenset(
            seat for seat in range(state["seats"]) if self.placed(state, seat) < CONTROLLERS_EACH
        )

    def setup_moves(self, state: State, seat: int) -> list[Move]:
        return [{"type": "place", "slot": slot} for slot in free_routers(state, seat)]

    def apply_setup(self, state: State, seat: int, move: Move, events: list[Event]) -> None:
        state["controllers"][move["slot"]] = seat
        events.append(
            {
                "type": "place",
                "seat": seat,
                "slot": move["slot"],
                "text": f"{self.colour_of(state, seat)} puts a controller on the router at "
                f"{move['slot']}.",
            }
        )
        if not self.setup_seats(state):
            state["phase"] = "play"
            events.append(
                {
                    "type": "start",
                    "text": f"Every controller is placed; {self.colour_of(state, 0)} begins.",
                }
            )

    # --- actions ------------------------------------------------------------------------------
    def claim_moves(self, state: State, seat: int) -> list[Move]:
        moves: list[Move] = []
        colour = player_colour(state, seat)
        for tower in TOWERS:
            claimant = state["claims"].get(tower)
            if claimant == seat:
                continue
            counts = colour_counts(state, tower)
            mine = counts.get(colour, 0)
            others = [
                counts.get(player_colour(state, o), 0) for o in range(state["seats"]) if o != seat
            ]
            if mine == 0 or any(mine <= n for n in others):
                continue
            for slot in TOWER_SLOTS[tower]:
                if state["controllers"].get(slot) != seat or state["routers"].get(slot) != colour:
                    continue
                if claimant is None:
                    moves.append({"type": "claim", "tower": tower, "slot": slot})
                    continue
                targets = free_routers(state, claimant)
                if not targets:
                    moves.append({"type": "claim", "tower": tower, "slot": slot})
                for to in targets:
                    moves.append({"type": "claim", "tower": tower, "slot": slot, "to": to})
        return moves

    def controller_moves(self, state: State, seat: int) -> list[Move]:
        moves: list[Move] = []
        colour = player_colour(state, seat)
        for slot in sorted(state["controllers"], key=_slot_key):
            if state["controllers"][slot] != seat:
                continue
            joined = reachable(state, slot)
            for to in sorted(joined, key=_slot_key):
                if to != slot and state["routers"][to] == colour and to not in state["controllers"]:
                    moves.append({"type": "move_controller", "from": slot, "to": to})
        return moves

    def take_back_moves(self, state: State, seat: int) -> list[Move]:
        turn = state["turn"]
        if turn["used"] != 0 or turn["allowed"] < 4:
            return []
        targets = free_routers(state, seat)
        return [
            {"type": "take_back", "tower": tower, "to": to}
            for tower in TOWERS
            if state["claims"].get(tower) == seat
            for to in targets
        ]

    def actions(self, state: State, seat: int) -> list[Move]:
        return [
            *self.rotation_moves(state, seat),
            *self.claim_moves(state, seat),
            *self.controller_moves(state, seat),
            *self.take_back_moves(state, seat),
        ]

    def perform(self, state: State, seat: int, move: Move, events: list[Event]) -> None:
        kind = move["type"]
        name = self.colour_of(state, seat)
        if kind == "rotate":
            super().perform(state, seat, move, events)
        elif kind == "claim":
            tower, slot = move["tower"], move["slot"]
            claimant = state["claims"].get(tower)
            del state["controllers"][slot]
            state["claims"][tower] = seat
            text = f"{name} claims {tower} with the controller from {slot}."
            if claimant is not None:
                loser = self.colour_of(state, claimant)
                if "to" in move:
                    state["controllers"][move["to"]] = claimant
                    text = (
                        f"{name} captures {tower} from {loser} with the controller from "
                        f"{slot}; {loser}'s controller goes to her router at {move['to']}."
                    )
                else:
                    state["reserve"][claimant] += 1
                    text = (
                        f"{name} captures {tower} from {loser}; {loser} has no free router, "
                        "so her controller goes to her reserve."
                    )
            events.append(
                {
                    "type": "claim",
                    "seat": seat,
                    "tower": tower,
                    "slot": slot,
                    "captured": claimant,
                    "text": text,
                }
            )
        elif kind == "move_controller":
            del state["controllers"][move["from"]]
            state["controllers"][move["to"]] = seat
            events.append(
                {
                    "type": "move_controller",
                    "seat": seat,
                    "from": move["from"],
                    "to": move["to"],
                    "text": f"{name} moves a controller from {move['from']} to "
                    f"{move['to']} along touching routers.",
                }
            )
        elif kind == "take_back":
            del state["claims"][move["tower"]]
            state["controllers"][move["to"]] = seat
            state["turn"]["used"] = state["turn"]["allowed"]
            events.append(
                {
                    "type": "take_back",
                    "seat": seat,
                    "tower": move["tower"],
                    "to": move["to"],
                    "text": f"{name} takes the controller back from {move['tower']} onto "
                    f"the router at {move['to']}; that uses the whole turn.",
                }
            )

    def refusal(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type")
        if kind == "place":
            if state["phase"] != "setup":
                return "Controllers are placed only at the start of the game."
            return "Put your controllers on your own starting routers, one router each."
        if kind == "claim":
            return (
                f"You may not claim {move.get('tower')} with the controller at "
                f"{move.get('slot')}: you need your controller on one of your routers "
                "around it and more routers there than every other player."
            )
        if kind == "move_controller":
            return (
                "A controller moves from one of your routers to another of your routers "
                "without a controller, along routers that touch side by side."
            )
        if kind == "take_back":
            return (
                "Taking a controller back from your claimed tower onto one of your free "
                "routers uses a whole turn of 4 actions, before any other action."
            )
        return super().refusal(state, seat, move)
