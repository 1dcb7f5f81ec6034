"""The moves of Joystick Heroes (docs/joystick-heroes.md), a Pydantic union on "type".

Moves are small steps (one card, one purchase, one answer at a time, then "done"), so
`legal_moves` stays a short list and the server's `move in legal_moves` check is an equality.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Column = Literal[
    "joystick", "driving", "buttons", "shooting", "adventure", "classic", "scifi", "sports"
]
Genre = Literal["adventure", "classic", "scifi", "sports"]
Skill = Literal["joystick", "driving", "buttons", "shooting"]
Face = Literal["+100", "+200", "-100", "key", "heart", "bomb"]
CardId = Annotated[str, Field(pattern=r"^P\d{1,2}$")]
Spot = Annotated[int, Field(strict=True, ge=0, le=20)]
SeatNo = Annotated[int, Field(strict=True, ge=0, le=7)]
DieIndex = Annotated[int, Field(strict=True, ge=0, le=30)]


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChooseGenres(_Move):
    """Set-up: the two genres that get a starting cube."""

    type: Literal["choose_genres"]
    genres: Annotated[list[Genre], Field(min_length=2, max_length=2)]

    @field_validator("genres")
    @classmethod
    def _canonical(cls, genres: list[str]) -> list[str]:
        if genres[0] == genres[1]:
            raise ValueError("choose two different genres")
        return sorted(genres)


class MoveTo(_Move):
    """PLAY: move the pawn to an arcade spot and insert a coin."""

    type: Literal["move_to"]
    spot: Spot


class PlayCard(_Move):
    """Play a Power card for its primary power; `skill` (Skill Boost), `die` (Turbo), `face`
    (Cheat Code) and `spot` (Out of Order) say how."""

    type: Literal["play_card"]
    card: CardId
    skill: Skill | None = None
    die: DieIndex | None = None
    face: Face | None = None
    spot: Spot | None = None


class Discard(_Move):
    type: Literal["discard"]
    card: CardId


class UseKey(_Move):
    """Spend a Power card for its Key value after rolling a Key."""

    type: Literal["use_key"]
    card: CardId


class AskCoop(_Move):
    type: Literal["ask_coop"]
    lender: SeatNo
    column: Column


class Roll(_Move):
    type: Literal["roll"]


class TakeLife(_Move):
    """The Heart: roll one more Scoring die and reroll the Game die."""

    type: Literal["take_life"]


class MarkDie(_Move):
    """Do-Over: mark one Scoring die for the reroll."""

    type: Literal["mark_die"]
    die: DieIndex


class Reroll(_Move):
    """Do-Over: reroll the marked dice."""

    type: Literal["reroll"]


class ContinueGame(_Move):
    """The optional "Continue?" rule: 2 tickets for 1 Scoring die plus the Game die."""

    type: Literal["continue_game"]


class Done(_Move):
    """Ends the current step: collect (or go on to the next Level), or finish a Power Up."""

    type: Literal["done"]


class Answer(_Move):
    """A reply to a question (Versus challenge, Co-op loan, Tilt!, Ticket Thief)."""

    type: Literal["answer"]
    accept: bool


class Buy(_Move):
    """POWER UP: one cube in a column of the last game, or one Prize."""

    type: Literal["buy"]
    item: Column | Literal["prize"]


class UseCoupon(_Move):
    type: Literal["use_coupon"]
    card: CardId


class Undo(_Move):
    """POWER UP: take back the last purchase or coupon."""

    type: Literal["undo"]


JoystickHeroesMove = Annotated[
    ChooseGenres
    | MoveTo
    | PlayCard
    | Discard
    | UseKey
    | AskCoop
    | Roll
    | TakeLife
    | MarkDie
    | Reroll
    | ContinueGame
    | Done
    | Answer
    | Buy
    | UseCoupon
    | Undo,
    Field(discriminator="type"),
]
