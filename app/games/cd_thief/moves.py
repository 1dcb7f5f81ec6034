"""The moves of CD Thief (docs/cd-thief.md), a discriminated union on "type".

A turn is small steps: `battle` (one Podcaster Encounter, while one is pending), `roll` (the
server rolls the 2 Movement dice) and `move` (to one of the legal end squares; the Event card,
or in Frantic Mode Intellivision-The-Great's chase, follows automatically).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Coordinate = Annotated[int, Field(strict=True, ge=0, le=20)]


class BattleMove(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["battle"]


class RollMove(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["roll"]


class MoveTo(BaseModel):
    """Move the thief to a legal end square [x, y]."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["move"]
    to: Annotated[list[Coordinate], Field(min_length=2, max_length=2)]


CdThiefMove = Annotated[BattleMove | RollMove | MoveTo, Field(discriminator="type")]
