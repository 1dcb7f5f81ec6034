"""The rules-module contract every game implements.

A game is pure: `apply(state, seat, move, rng)` returns a new state and events and never
touches its input, the clock, I/O or global random. States, moves, views and events are plain
JSON data (dicts, lists, str, int, bool, None), which makes equality, replays and golden files
trivial and lets the server hold a state without knowing the game.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from app.engine.dice import Dice

State = dict[str, Any]
Move = dict[str, Any]
Event = dict[str, Any]
"""An event: {"type": ..., "text": "Red moves north to a2.", ...}. The optional key
"only" (a list of seats) limits who may see it; everyone else gets it through `redact_event`."""


class IllegalMove(Exception):
    """Raised by `apply` for a move the rules refuse; `reason` is a sentence for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadMove(Exception):
    """A move that does not even have the shape of one of the game's moves."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NoOptions(BaseModel):
    """For games whose lobby offers no options."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...]
    reason: str
    scores: dict[int, int] | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["winners"] = list(self.winners)
        if self.scores is not None:
            data["scores"] = {str(k): v for k, v in self.scores.items()}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """The outcome `to_json` stored (in the matches table, or told by another process)."""
        scores = data.get("scores")
        return cls(
            winners=tuple(data.get("winners", ())),
            reason=data.get("reason", ""),
            scores=None if scores is None else {int(k): v for k, v in scores.items()},
            details=data.get("details") or {},
        )


class Game(ABC):
    """One game's rules. Subclasses declare the metadata once and register with `@register`."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[str]
    older_rules_versions: ClassVar[frozenset[str]] = frozenset()
    """Rules versions this game still plays, for matches begun under them: when a ruling is
    amended, matches already played must replay, verify and end exactly as they were played
    (see `begin` and `keep_older_rules`)."""
    has_chance: ClassVar[bool] = False
    hidden_information: ClassVar[bool] = False
    goal: ClassVar[str] = ""
    """How to win, in one sentence from the rulebook, for the lobby's "how it plays"."""
    Options: ClassVar[type[BaseModel]] = NoOptions
    record_order: ClassVar[str | None] = None
    """"low" or "high" for games whose outcome score is a personal record (Tactrics Solitary
    counts rotations, fewer is better): the platform keeps each player's best from finished
    matches. None: no records."""
    playouts_always_end: ClassVar[bool] = True
    """False when even guided random play may go on for ever with more than two players (C64
    Monsters): the conformance suite then checks those playouts over a fixed length."""
    MoveType: ClassVar[Any]
    """A Pydantic model or an `Annotated[Union[...], Field(discriminator="type")]` union."""

    _move_adapter: ClassVar[TypeAdapter[Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "MoveType" in cls.__dict__:
            cls._move_adapter = TypeAdapter(cls.MoveType)

    # --- the contract -------------------------------------------------------------------
    @abstractmethod
    def setup(self, players: int, options: BaseModel, rng: Dice) -> State: ...

    def begin(
        self, players: int, options: BaseModel, rng: Dice, rules_version: str | None = None
    ) -> State:
        """The state a match starts in, played by the rules version the match was begun
        under (None: the current one). Every replay of a stored match starts here."""
        state = self.setup(players, options, rng)
        if rules_version is None or rules_version == self.rules_version:
            return state
        return self.keep_older_rules(state, rules_version)

    def knows_rules(self, rules_version: str) -> bool:
        return rules_version == self.rules_version or rules_version in self.older_rules_versions

    def keep_older_rules(self, state: State, rules_version: str) -> State:
        """Marks a freshly set-up state to be played by `rules_version`, one of
        `older_rules_versions` (games whose rulings changed keep the old ones' switch in the
        state, so the rules stay pure). A version the game does not know is played by the
        current rules, the best a server can do for a match it cannot drop."""
        return state

    @abstractmethod
    def active_seats(self, state: State) -> frozenset[int]: ...

    @abstractmethod
    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move of `seat`, each in the canonical form `parse_move` returns."""

    @abstractmethod
    def apply(self, state: State, seat: int, move: Move, rng: Dice) -> tuple[State, list[Event]]:
        """Returns (new state, events); raises IllegalMove and leaves `state` untouched."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see of `state`; None is a spectator."""

    def view_since(
        self, state: State, seat: int | None, earlier: State, earlier_view: dict[str, Any]
    ) -> dict[str, Any]:
        """`view(state, seat)`, given `earlier_view`, this seat's view of an `earlier` state of
        the same match. A game may hand back parts of `earlier_view` whose sources are the
        very objects of `earlier` (a move leaves most of a state shared) instead of building
        them again; the runtime's diff then skips them by identity, and the collector has
        fewer new objects to walk. Views are never mutated, so sharing is safe. The result
        must equal `view(state, seat)` (the conformance tests check it on random play); the
        default builds it afresh."""
        return self.view(state, seat)

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None: ...

    # --- shared behaviour -----------------------------------------------------------------
    def out_of_turn_moves(self, state: State, seat: int) -> list[Move]:
        """Moves `seat` may make although it is not to move (Joystick Heroes: a discard at any
        time of a PLAY phase, ruling H13a); none by default. They never make the table wait:
        `active_seats` leaves such a seat out (no banner names it, no clock runs for it), and
        the runtime accepts them from any seat. A game that has them lists them among
        `legal_moves(state, seat)` for a seat that is not to move, so logs verify as before."""
        return []

    def playout_score(self, state: State, seat: int) -> float | None:
        """How well `seat` stands, higher is better, for seeded playouts and simple bots; None
        (the default) means no opinion, so playouts pick uniformly at random. Games whose
        random play almost never ends (C64 Monsters) give one."""
        return None

    def sample_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """A state `seat` cannot tell from `state`, with every part hidden from `seat` drawn
        afresh from `rng`: what a computer player searches instead of the real state, so it
        never peeks (determinization). The sample has the same `view(_, seat)` and the same
        `legal_moves(_, seat)` as `state`, and is computed only from what `seat` can see: two
        states with equal views for `seat` and the same `rng` seed give equal samples.

        The default copies `state`, right for games where `seat` sees everything. Games that
        hide something from `seat` (other hands, a deck's order) must override it. `rng` is
        the bot's own generator, never the match's `Dice`."""
        return self.copy_state(state)

    def decision_seconds(self, state: State) -> float | None:
        """Seconds the active seats have to answer before the server answers for them with
        `timeout_move` (a Versus challenge, a loan request); None (the default) means no clock.
        The rules stay pure: the clock lives in the runtime, which submits an ordinary move."""
        return None

    def timeout_move(self, state: State, seat: int) -> Move | None:
        """The move made for `seat` when its time is up (one of its legal moves), or None."""
        return None

    def check_start(self, players: int, options: BaseModel) -> str | None:
        """Why these options cannot be played by this many players (teams need 4 or 6), as a
        sentence for the lobby, or None. Checked when the host starts the match."""
        return None

    def options_need_agreement(self, options: BaseModel) -> bool:
        """True when every seated player must accept the host's options before the match
        starts (a custom Tank Skirmish zone); any change to them withdraws the acceptances."""
        return False

    def secret_values(self, state: State, seat: int) -> list[Any]:
        """The values only `seat` may know now (its hand, say), for the leak tests: no other
        seat's view or events and no spectator's may contain them. Games with hidden
        information must override this; the conformance suite checks that they do."""
        return []

    def reveal_view(self, state: State) -> dict[str, Any]:
        """Everything, every seat's secrets included: for replays of finished matches.
        Games with hidden information override it; for the others it is the common view."""
        return self.view(state, None)

    def parse_options(self, raw: dict[str, Any] | None) -> BaseModel:
        return self.Options.model_validate(raw or {})

    def options_schema(self) -> dict[str, Any]:
        return self.Options.model_json_schema()

    def move_schema(self) -> dict[str, Any]:
        return self._move_adapter.json_schema()

    def parse_move(self, raw: Any) -> Move:
        """Schema validation, step one: returns the canonical JSON form or raises BadMove."""
        try:
            model = self._move_adapter.validate_python(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise BadMove(
                f"That is not a valid move: {where} {first.get('msg', '')}".strip()
            ) from exc
        dumped: Move = model.model_dump(mode="json", exclude_none=True)
        return dumped

    def redact_event(self, event: Event, seat: int | None) -> Event | None:
        """The event as `seat` may see it; None hides it. Games with secrets override this."""
        only = event.get("only")
        if only is not None and seat not in only:
            return None
        return event

    def hides_mover(self, move: Move, events: list[Event]) -> bool:
        """Whether the others may not learn who made this move, or when, while the match is
        being played (a secret answer that everyone asked gives at once). The live stream
        never names the mover; the move log leaves the seat and time out for such moves."""
        return False

    def copy_state(self, state: State) -> State:
        return copy.deepcopy(state)
