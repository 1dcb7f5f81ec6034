"""`C64Game`: the turn and phase machinery shared by the six C64 Board games (C2-C4).

A C64 state is JSON data::

    {"game": "c64-maze",
     "phase": "setup" | "play" | "over",
     "turn": seat | None,              # the seat to act in the play phase
     "order": [seat, ...],             # turn order; order[0] is Player 1 (drawn at set-up)
     "players": [{"seat", "side", "latest", ...game keys}],   # indexed by seat
     "joysticks": [joystick, ...],     # indexed by seat, see `joystick.py`
     "outcome": None | {"winners", "reason", "scores", "details"},
     ...game keys (Maze: "walls")}

Set-up is simultaneous: every seat takes two cards (Player 2 and 4 then return one) and play
starts with order[0] once all are ready. A turn is a `play` move: the joystick engine places
and tilts the card, then the game executes its face through the hooks below, then the player
takes her next cards if that was her last active one, then the game checks its end.

Hooks for a game (see `maze.py` for a complete one):
- `setup_board(state, options, rng)`: put pieces and walls into the fresh state (mutate it).
- `move_piece(state, seat, direction, events)`: execute a move card, direction absolute.
- `press_button(state, seat, button, events)`: "left_button" or "right_button".
- `execute_face(...)`: override to take over both (Cars' recovery action replaces any card).
- `skip_action(state, seat, events)`: True if this card's action is lost (Tanks hit, C4.7).
- `after_turn(state, seat, events)`: the end check; return an `Outcome` to end the game.
- `board_view(state, board)` / `player_view(state, seat, entry)`: extra view keys.

Copying: `apply` never changes its input. A hook receives a new top-level dict whose
"players" list and every player dict are fresh copies (mutate those freely, but replace any
list or dict stored inside a player, never change it in place); the mover's joystick is
fresh; everything else (walls, ...) is shared with the previous state and must be replaced,
not mutated. New states therefore share unchanged parts with old ones: treat states as
immutable values.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar

from pydantic import BaseModel

from app.engine.contract import Event, Game, IllegalMove, Move, Outcome, State
from app.engine.dice import Dice
from app.games.c64 import joystick as js
from app.games.c64.geometry import (
    ABSOLUTE,
    COLOR,
    DIRECTION_NAMES,
    FACE_NAMES,
    MOVE_FACES,
    SIDES_BY_PLAYERS,
)
from app.games.c64.moves import C64Move

MOVE_KINDS = ("take", "return", "play")


def colour_name(state: State, seat: int) -> str:
    """The seat's colour as it appears in event texts: "Red", "Blue", "Green", "Yellow"."""
    return COLOR[state["players"][seat]["side"]].capitalize()


def _faces_text(cards: list[dict[str, Any]]) -> str:
    return " and ".join(FACE_NAMES[c["face"]] for c in cards)


class C64Game(Game):
    """Base of every C64 game: seats and sides (C2), the joystick engine (C3, C4), views."""

    game_key: ClassVar[str]
    """Short name in the view's "game" key: "maze", "tanks", ..."""

    has_chance = True  # the shuffled joystick grids and the first-player draw
    hidden_information = False
    MoveType = C64Move

    # --- hooks --------------------------------------------------------------------------------
    @abstractmethod
    def setup_board(self, state: State, options: BaseModel, rng: Dice) -> None:
        """Add the game's pieces to a fresh state (players already have seat, side, latest)."""

    def move_piece(self, state: State, seat: int, direction: str, events: list[Event]) -> None:
        """Execute a move card of `seat` in absolute `direction` ("N", "E", "S", "W")."""
        raise NotImplementedError

    def press_button(self, state: State, seat: int, button: str, events: list[Event]) -> None:
        """Execute "left_button" or "right_button" for `seat`."""
        raise NotImplementedError

    def skip_action(self, state: State, seat: int, events: list[Event]) -> bool:
        """True when this card's action is lost (C4.7); the card is still placed and the next
        cards are still taken. Default: never."""
        return False

    def execute_face(self, state: State, seat: int, face: str, events: list[Event]) -> None:
        """Execute a played face. Move faces become absolute and set "latest" (C4.6: the
        direction of the most recent executed move card, whether or not the piece could
        move); buttons leave "latest" alone."""
        if face in MOVE_FACES:
            player = state["players"][seat]
            direction = ABSOLUTE[player["side"]][face]
            player["latest"] = direction
            self.move_piece(state, seat, direction, events)
        else:
            self.press_button(state, seat, face, events)

    @abstractmethod
    def after_turn(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        """The end check after `seat`'s turn; an Outcome ends the game."""

    def board_view(self, state: State, board: dict[str, Any]) -> None:
        """Add the game's keys to the view's board (fresh containers only)."""

    def player_view(self, state: State, seat: int, entry: dict[str, Any]) -> None:
        """Add the game's keys to one entry of the view's "players"."""

    # --- the contract -------------------------------------------------------------------------
    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players}-{self.max_players} players, not {players}"
            )
        first = rng.below(players)  # Player 1 is drawn at random and sits S (C2)
        order = [(first + i) % players for i in range(players)]
        sides = SIDES_BY_PLAYERS[players]
        side_of = {seat: sides[i] for i, seat in enumerate(order)}
        state: State = {
            "game": self.id,
            "phase": "setup",
            "turn": None,
            "order": order,
            "players": [
                {"seat": s, "side": side_of[s], "latest": ABSOLUTE[side_of[s]]["up"]}
                for s in range(players)
            ],
            "joysticks": [js.new_joystick(rng) for _ in range(players)],
            "outcome": None,
        }
        self.setup_board(state, options, rng)
        return state

    def active_seats(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase == "play":
            return frozenset((state["turn"],))
        if phase == "setup":
            return frozenset(
                seat for seat, joy in enumerate(state["joysticks"]) if not js.is_ready(joy)
            )
        return frozenset()

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        phase = state["phase"]
        if phase == "play":
            if seat != state["turn"]:
                return []
            return js.play_moves(state["joysticks"][seat])
        if phase == "setup" and 0 <= seat < len(state["joysticks"]):
            joy = state["joysticks"][seat]
            if joy["must_return"]:
                return js.return_moves(joy)
            return js.take_moves(joy)
        return []

    def apply(self, state: State, seat: int, move: Move, rng: Dice) -> tuple[State, list[Event]]:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalMove("There is no such seat at this table.")
        if not 0 <= seat < len(state["players"]):
            raise IllegalMove("There is no such seat at this table.")
        if not isinstance(move, dict):
            raise IllegalMove("A move is a JSON object with a 'type'.")
        phase = state["phase"]
        if phase == "over":
            raise IllegalMove("The game is over.")
        kind = move.get("type")
        if kind not in MOVE_KINDS:
            raise IllegalMove(f"There is no {kind!r} move; the moves are take, return and play.")
        if phase == "setup":
            if kind == "play":
                raise IllegalMove("Play starts when every player has taken her joystick cards.")
            return self._setup_move(state, seat, move)
        if kind != "play":
            raise IllegalMove(
                "Cards are taken and returned only at set-up; later your next cards come "
                "with the play of your last active card."
            )
        if seat != state["turn"]:
            now = colour_name(state, state["turn"])
            raise IllegalMove(f"It is not your turn: {now} plays now.")
        return self._play(state, seat, move)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self._board(state, None, None)

    def view_since(
        self, state: State, seat: int | None, earlier: State, earlier_view: dict[str, Any]
    ) -> dict[str, Any]:
        # A move changes the mover's joystick only: the others' views are kept, and with
        # them most of what the next patch would otherwise compare.
        return self._board(state, earlier, earlier_view)

    def _board(
        self, state: State, earlier: State | None, earlier_view: dict[str, Any] | None
    ) -> dict[str, Any]:
        phase = state["phase"]
        order = state["order"]
        players = []
        for p in state["players"]:
            s = p["seat"]
            entry = {
                "seat": s,
                "side": p["side"],
                "color": COLOR[p["side"]],
                "number": order.index(s) + 1,
                "latest": p["latest"],
                "ready": js.is_ready(state["joysticks"][s]),
            }
            self.player_view(state, s, entry)
            players.append(entry)
        board: dict[str, Any] = {
            "family": "c64",
            "game": self.game_key,
            "phase": phase,
            "turn": state["turn"] if phase == "play" else None,
            "order": list(order),
            "players": players,
            "joysticks": _joystick_views(state, earlier, earlier_view),
            "cards": _CARD_TABLE,
        }
        self.board_view(state, board)
        return board

    def outcome(self, state: State) -> Outcome | None:
        data = state["outcome"]
        if data is None:
            return None
        scores = data.get("scores")
        return Outcome(
            winners=tuple(data["winners"]),
            reason=data["reason"],
            scores=None if scores is None else {int(k): v for k, v in scores.items()},
            details=dict(data.get("details") or {}),
        )

    # --- the machinery ------------------------------------------------------------------------
    def _setup_move(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        joy = state["joysticks"][seat]
        name = colour_name(state, seat)
        if js.is_ready(joy):
            raise IllegalMove("You are ready; play starts when every player has taken her cards.")
        events: list[Event] = []
        if move["type"] == "take":
            must_return = state["order"].index(seat) in (1, 3)  # Player 2 and Player 4 (C4.2)
            new_joy, taken = js.take(joy, move, must_return)
            text = f"{name} takes two cards from a {new_joy['axis']}: {_faces_text(taken)}."
            if must_return:
                number = state["order"].index(seat) + 1
                text += f" As Player {number}, {name} must put one back."
            events.append(
                {
                    "type": "take",
                    "seat": seat,
                    "cards": [dict(c) for c in taken],
                    "axis": new_joy["axis"],
                    "text": text,
                }
            )
        else:
            new_joy, card, to = js.return_card(joy, move)
            left = new_joy["active"][0]["face"]
            events.append(
                {
                    "type": "return",
                    "seat": seat,
                    "card": card,
                    "to": list(to),
                    "text": f"{name} puts a card back without acting and starts with "
                    f"{FACE_NAMES[left]} only.",
                }
            )
        new = dict(state)
        joysticks = list(state["joysticks"])
        joysticks[seat] = new_joy
        new["joysticks"] = joysticks
        if all(js.is_ready(j) for j in joysticks):
            first = state["order"][0]
            new["phase"] = "play"
            new["turn"] = first
            events.append(
                {
                    "type": "start",
                    "seat": first,
                    "text": f"Everyone is ready. {colour_name(state, first)} is Player 1 "
                    "and starts.",
                }
            )
        return new, events

    def _play(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        played = js.play(state["joysticks"][seat], move)
        new = dict(state)
        new["players"] = [dict(p) for p in state["players"]]
        joysticks = list(state["joysticks"])
        joysticks[seat] = played.joystick
        new["joysticks"] = joysticks
        name = colour_name(state, seat)
        face = played.face
        play_event: Event = {
            "type": "play",
            "seat": seat,
            "card": played.card,
            "face": face,
            "to": list(played.to),
            "text": f"{name} plays {FACE_NAMES[face]}.",
        }
        if face in MOVE_FACES:
            direction = ABSOLUTE[state["players"][seat]["side"]][face]
            play_event["direction"] = direction
            play_event["text"] = f"{name} plays {FACE_NAMES[face]} ({DIRECTION_NAMES[direction]})."
        events: list[Event] = [play_event]
        if not self.skip_action(new, seat, events):
            self.execute_face(new, seat, face, events)
        if played.taken is not None:
            events.append(
                {
                    "type": "take",
                    "seat": seat,
                    "cards": [dict(c) for c in played.taken],
                    "axis": played.joystick["axis"],
                    "text": f"{name} takes two new cards: {_faces_text(played.taken)}.",
                }
            )
        outcome = self.after_turn(new, seat, events)
        if outcome is not None:
            new["phase"] = "over"
            new["turn"] = None
            new["outcome"] = outcome.to_json()
            events.append(
                {
                    "type": "win",
                    "seat": seat,
                    "winners": list(outcome.winners),
                    "text": outcome.reason,
                }
            )
        else:
            order = state["order"]
            new["turn"] = order[(order.index(seat) + 1) % len(order)]
        return new, events


# One shared table for every view (views are never mutated): the diff skips it by identity.
_CARD_TABLE = [list(faces) for faces in js.CARD_FACES]


def _joystick_views(
    state: State, earlier: State | None, earlier_view: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """Every seat's joystick view; a joystick that is the very object it was in `earlier`
    keeps its view from `earlier_view`."""
    kept_from: list[js.Joystick] = [] if earlier is None else earlier["joysticks"]
    kept: list[dict[str, Any]] = [] if earlier_view is None else earlier_view["joysticks"]
    return [
        kept[s] if s < len(kept_from) and kept_from[s] is joy else _joystick_view(s, joy)
        for s, joy in enumerate(state["joysticks"])
    ]


def _joystick_view(seat: int, joy: js.Joystick) -> dict[str, Any]:
    # Cards are ids; their faces are in the board's "cards" table, which never changes, so a
    # card moving between grid and hand costs a patch a number, not its faces again.
    return {
        "seat": seat,
        "grid": [list(row) for row in joy["grid"]],
        "active": [{"id": a["card"], "face": a["face"]} for a in joy["active"]],
        "tilted": None if joy["tilted"] is None else list(joy["tilted"]),
        "axis": joy["axis"],
        "must_return": joy["must_return"],
    }
