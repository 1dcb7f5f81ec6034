"""`TurnGame`: the turn, undo and confirm machinery shared by Crossing, Crossing Advanced and
Cat & Mouse (ruling V4), on top of the board of `board.py`.

Common state (JSON)::

    {"game": "tactrics-crossing",
     "phase": "setup" | "play" | "over",
     "seats": 2,
     "routers": {slot: colour},          # occupied slots only
     "controllers": {slot: seat},        # controllers standing on routers (Advanced)
     "claims": {tower: seat},            # towers carrying a controller (Advanced)
     "reserve": [count per seat],        # minority-rotation controllers (V6)
     "turn": {"seat", "index", "allowed", "used", "locked", "undo": [snapshot, ...]} | None,
     "outcome": None | {"winners", "reason", "scores", "details"},
     ...game keys}

A turn's actions apply one by one. Before each, a snapshot of the board keys (routers,
controllers, claims, reserve) and of `used` is pushed on `turn.undo`; `undo` pops it, so it
restores the position exactly; `confirm` ends the turn and passes to the next seat. The end
of the game is checked after every action (V4: a winning action ends the game at once, so it
cannot be undone).

Copying: `apply` never changes its input. `fresh` copies the top-level dict, the board dicts
and the turn; states are treated as immutable values (snapshots share unchanged dicts).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

from app.engine.contract import Event, Game, IllegalMove, Move, Outcome, State
from app.engine.dice import Dice
from app.games.tactrics.board import (
    DIRECTION_WORDS,
    OPPOSITE_DIRECTION,
    TOWER_SLOTS,
    TOWERS,
    rotate_contents,
    slot_list,
    tower_list,
)
from app.games.tactrics.moves import TactricsMove

BOARD_KEYS = ("routers", "controllers", "claims", "reserve")
MOVE_NAMES = {
    "rotate": "turning a tower",
    "place": "placing a controller",
    "claim": "claiming a tower",
    "move_controller": "moving a controller",
    "take_back": "taking a controller back",
    "undo": "undo",
    "confirm": "confirming the turn",
}


def fresh(state: State) -> State:
    """A copy safe to change: new top-level dict, board containers and turn."""
    new = dict(state)
    for key in ("routers", "controllers", "claims"):
        new[key] = dict(state[key])
    new["reserve"] = list(state["reserve"])
    if state.get("turn") is not None:
        turn = dict(state["turn"])
        turn["undo"] = list(turn["undo"])
        new["turn"] = turn
    return new


def rotate_board(state: State, tower: str, direction: str) -> None:
    """V2 on a fresh state: routers and the controllers on them turn with the tower."""
    state["routers"] = rotate_contents(state["routers"], tower, direction)
    state["controllers"] = rotate_contents(state["controllers"], tower, direction)


def colour_counts(state: State, tower: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for slot in TOWER_SLOTS[tower]:
        colour = state["routers"].get(slot)
        if colour is not None:
            counts[colour] = counts.get(colour, 0) + 1
    return counts


def rotate_move(tower: str, direction: str, *, reserve: bool = False) -> Move:
    move: Move = {"type": "rotate", "tower": tower, "direction": direction}
    if reserve:
        move["reserve"] = True
    return move


def all_rotations(towers: tuple[str, ...] | list[str] = TOWERS) -> list[Move]:
    return [rotate_move(t, d) for t in towers for d in ("cw", "ccw")]


class TurnGame(Game):
    """Base of the turn-based Tactrics games; see the module docstring for the state."""

    has_chance = False
    hidden_information = False
    MoveType = TactricsMove
    game_key: ClassVar[str]

    # --- hooks -------------------------------------------------------------------------------
    @abstractmethod
    def colour_of(self, state: State, seat: int) -> str:
        """The seat's name in texts, a colour or a side ("Green", "The mouse")."""

    @abstractmethod
    def actions(self, state: State, seat: int) -> list[Move]:
        """The action moves `seat` may make now (the turn still has actions left)."""

    @abstractmethod
    def perform(self, state: State, seat: int, move: Move, events: list[Event]) -> None:
        """Carry out a legal action on a fresh state; append its event."""

    @abstractmethod
    def check_end(self, state: State, seat: int) -> Outcome | None:
        """Checked after every action (V4, V5)."""

    def verb(self, seat: int, singular: str) -> str:
        """`singular` ("turns") as the seat's name needs it ("The cats turn")."""
        return singular

    def allowed_actions(self, state: State, seat: int, index: int) -> int:
        """How many actions turn number `index` has: 1, 2, 3, then 4 (V4)."""
        return min(index + 1, 4)

    def can_confirm(self, state: State, seat: int) -> bool:
        return True

    def next_seat(self, state: State, seat: int) -> int:
        return (seat + 1) % state["seats"]

    def after_confirm(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        """After a turn ends and the next one is set up; may end the game (Cat & Mouse)."""
        return None

    def setup_moves(self, state: State, seat: int) -> list[Move]:
        """Legal moves in a simultaneous set-up phase (Crossing Advanced)."""
        return []

    def setup_seats(self, state: State) -> frozenset[int]:
        return frozenset()

    def apply_setup(self, state: State, seat: int, move: Move, events: list[Event]) -> None:
        raise IllegalMove("There is nothing to set up in this game.")

    def refusal(self, state: State, seat: int, move: Move) -> str:
        """A sentence saying why `move` is not legal (the generic one)."""
        kind = move.get("type")
        if kind == "rotate":
            return f"You may not turn {move.get('tower')} now."
        return f"{MOVE_NAMES.get(str(kind), 'That move').capitalize()} is not allowed now."

    def extra_view(self, state: State, board: dict[str, Any]) -> None:
        """Add the game's own keys to the view (fresh containers only)."""

    # --- turn machinery ----------------------------------------------------------------------
    def start_turn(self, state: State, seat: int, index: int) -> None:
        state["turn"] = {
            "seat": seat,
            "index": index,
            "allowed": self.allowed_actions(state, seat, index),
            "used": 0,
            "locked": False,  # no more actions this turn (the mouse moved a cat)
            "undo": [],
        }

    def turn_left(self, state: State) -> int:
        turn = state["turn"]
        if turn["locked"]:
            return 0
        return int(turn["allowed"]) - int(turn["used"])

    # --- the contract ------------------------------------------------------------------------
    def active_seats(self, state: State) -> frozenset[int]:
        if state["phase"] == "play":
            return frozenset((state["turn"]["seat"],))
        if state["phase"] == "setup":
            return self.setup_seats(state)
        return frozenset()

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["phase"] == "setup":
            return self.setup_moves(state, seat) if seat in self.setup_seats(state) else []
        if state["phase"] != "play" or seat != state["turn"]["seat"]:
            return []
        moves = self.actions(state, seat) if self.turn_left(state) > 0 else []
        if state["turn"]["undo"]:
            moves.append({"type": "undo"})
        if self.can_confirm(state, seat):
            moves.append({"type": "confirm"})
        return moves

    def apply(self, state: State, seat: int, move: Move, rng: Dice) -> tuple[State, list[Event]]:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["seats"]:
            raise IllegalMove("There is no such seat at this table.")
        if not isinstance(move, dict):
            raise IllegalMove("A move is a JSON object with a 'type'.")
        phase = state["phase"]
        if phase == "over":
            raise IllegalMove("The game is over.")
        if phase == "setup":
            if seat not in self.setup_seats(state):
                raise IllegalMove("You have finished your set-up; wait for the others.")
            if move not in self.setup_moves(state, seat):
                if move.get("type") != "place":
                    raise IllegalMove("Set-up first: play starts when every controller is placed.")
                raise IllegalMove(self.refusal(state, seat, move))
            new = fresh(state)
            events: list[Event] = []
            self.apply_setup(new, seat, move, events)
            return new, events
        if seat != state["turn"]["seat"]:
            mover = state["turn"]["seat"]
            now = self.colour_of(state, mover).replace("The ", "the ", 1)
            raise IllegalMove(f"It is not your turn: {now} {self.verb(mover, 'plays')} now.")
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(self._refusal(state, seat, move))
        new = fresh(state)
        events = []
        kind = move["type"]
        if kind == "undo":
            self._undo(new, seat, events)
        elif kind == "confirm":
            self._confirm(new, seat, events)
        else:
            turn = new["turn"]
            turn["undo"].append(
                {
                    **{k: state[k] for k in BOARD_KEYS},
                    "used": turn["used"],
                    "locked": turn["locked"],
                    "move": move,
                }
            )
            turn["used"] += 1
            self.perform(new, seat, move, events)
            ended = self.check_end(new, seat)
            if ended is not None:
                self._finish(new, ended, events)
        return new, events

    def _refusal(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type")
        if kind == "undo":
            return "There is nothing to undo in this turn."
        if kind == "confirm":
            return self.refusal(state, seat, move)
        if self.turn_left(state) <= 0:
            return "This turn has no actions left: undo or confirm."
        return self.refusal(state, seat, move)

    def _undo(self, state: State, seat: int, events: list[Event]) -> None:
        turn = state["turn"]
        snapshot = turn["undo"].pop()
        for key in BOARD_KEYS:
            state[key] = snapshot[key]
        turn["used"] = snapshot["used"]
        turn["locked"] = snapshot["locked"]
        undone = snapshot["move"]
        event: Event = {
            "type": "undo",
            "seat": seat,
            "text": f"{self.colour_of(state, seat)} {self.verb(seat, 'takes')} back "
            f"{self.describe(undone)}.",
            "move": undone,
        }
        if undone["type"] == "rotate":  # the client turns the tower back
            event["tower"] = undone["tower"]
            event["direction"] = OPPOSITE_DIRECTION[undone["direction"]]
        events.append(event)

    def _confirm(self, state: State, seat: int, events: list[Event]) -> None:
        turn = state["turn"]
        events.append(
            {
                "type": "confirm",
                "seat": seat,
                "text": f"{self.colour_of(state, seat)} {self.verb(seat, 'ends')} the turn after "
                f"{turn['used']} "
                f"action{'s' if turn['used'] != 1 else ''}.",
            }
        )
        nxt = self.next_seat(state, seat)
        self.start_turn(state, nxt, turn["index"] + 1)
        ended = self.after_confirm(state, seat, events)
        if ended is not None:
            self._finish(state, ended, events)

    def _finish(self, state: State, outcome: Outcome, events: list[Event]) -> None:
        state["phase"] = "over"
        state["turn"] = None
        state["outcome"] = outcome.to_json()
        events.append(
            {"type": "game_over", "text": outcome.reason, "winners": list(outcome.winners)}
        )

    def describe(self, move: Move) -> str:
        kind = move["type"]
        if kind == "rotate":
            extra = " with a reserve controller" if move.get("reserve") else ""
            return f"turning {move['tower']} {DIRECTION_WORDS[move['direction']]}{extra}"
        if kind == "claim":
            return f"claiming {move['tower']}"
        if kind == "move_controller":
            return f"moving a controller from {move['from']} to {move['to']}"
        if kind == "take_back":
            return f"taking the controller back from {move['tower']}"
        return MOVE_NAMES.get(kind, str(kind))

    def rotation_event(self, state: State, seat: int, move: Move) -> Event:
        return {
            "type": "rotate",
            "seat": seat,
            "tower": move["tower"],
            "direction": move["direction"],
            "text": f"{self.colour_of(state, seat)} {self.verb(seat, 'turns')} {move['tower']} "
            f"{DIRECTION_WORDS[move['direction']]}"
            + (" with a reserve controller." if move.get("reserve") else "."),
        }

    def outcome(self, state: State) -> Outcome | None:
        raw = state.get("outcome")
        if raw is None:
            return None
        scores = raw.get("scores")
        return Outcome(
            winners=tuple(raw["winners"]),
            reason=raw["reason"],
            scores={int(k): v for k, v in scores.items()} if scores is not None else None,
            details=dict(raw.get("details") or {}),
        )

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        turn = state.get("turn")
        board: dict[str, Any] = {
            "family": "tactrics",
            "game": self.game_key,
            "phase": state["phase"],
            "routers": slot_list(state["routers"]),
            "controllers": slot_list(state["controllers"]),
            "claims": tower_list(state["claims"]),
            "turn": None
            if turn is None
            else {
                "seat": turn["seat"],
                "index": turn["index"],
                "allowed": turn["allowed"],
                "used": turn["used"],
                "left": self.turn_left(state),
                "actions": [self.describe(s["move"]) for s in turn["undo"]],
                "can_undo": bool(turn["undo"]),
            },
        }
        self.extra_view(state, board)
        return board
