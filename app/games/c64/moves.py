"""The moves of every C64 game (docs/c64-view.md): take, return and play, as Pydantic models.

`Game.parse_move` validates raw JSON against `C64Move` and dumps the canonical form: card
lists sorted by card id and no "next" key when it is absent. `legal_moves` produces exactly
that form, so the server's `move in legal_moves` check is a plain equality.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Face = Literal["up", "down", "left", "right", "left_button", "right_button"]
CardId = Annotated[int, Field(strict=True, ge=0, le=8)]
CellIndex = Annotated[int, Field(strict=True, ge=0, le=2)]
Cell = Annotated[list[CellIndex], Field(min_length=2, max_length=2)]
"""A space of the player's own 3x3 grid, [row, col]; row 0 is the top row as she sees it."""


class CardFace(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    card: CardId
    face: Face


TwoCards = Annotated[list[CardFace], Field(min_length=2, max_length=2)]


def _sorted_pair(cards: list[CardFace]) -> list[CardFace]:
    if cards[0].card == cards[1].card:
        raise ValueError("the two cards must be different cards")
    return sorted(cards, key=lambda c: c.card)


class TakeMove(BaseModel):
    """Set-up: two cards of one row or column become active with these faces."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["take"]
    cards: TwoCards

    @field_validator("cards")
    @classmethod
    def _canonical(cls, cards: list[CardFace]) -> list[CardFace]:
        return _sorted_pair(cards)


class ReturnMove(BaseModel):
    """Set-up, Player 2 and Player 4: one active card back to an empty space, no action."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["return"]
    card: CardId
    to: Cell


class PlayMove(BaseModel):
    """A turn: an active card to an empty space; the last active card also carries `next`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["play"]
    card: CardId
    to: Cell
    next: TwoCards | None = None

    @field_validator("next")
    @classmethod
    def _canonical(cls, cards: list[CardFace] | None) -> list[CardFace] | None:
        return None if cards is None else _sorted_pair(cards)


C64Move = Annotated[TakeMove | ReturnMove | PlayMove, Field(discriminator="type")]
