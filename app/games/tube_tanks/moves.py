"""The moves of Tank Skirmish, all for the active tank of the seat to play (docs/tube-tanks.md).

A turn is a sequence of small moves: `step` to a neighbouring cell (costs 2 or 3 movement
points), `ram` a neighbouring tank (Collision), `stay` (declare the tank stationary for the
whole turn: the -2 dice bonus, no more movement, K3), `fire` once at a target from the tank or
from its targeting token (Triangulation), `repair` (the whole turn, next to an Energy Pool),
and `end` the activation.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.games.tube_tanks.zone import parse_cell


def _cell(value: str) -> str:
    parse_cell(value)
    return value


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StepMove(_Move):
    type: Literal["step"]
    to: str

    _check = field_validator("to")(classmethod(lambda cls, v: _cell(v)))


class RamMove(_Move):
    type: Literal["ram"]
    at: str

    _check = field_validator("at")(classmethod(lambda cls, v: _cell(v)))


class FireMove(_Move):
    type: Literal["fire"]
    target: str
    aim: Literal["tank", "token"] = "tank"

    _check = field_validator("target")(classmethod(lambda cls, v: _cell(v)))


class StayMove(_Move):
    type: Literal["stay"]


class RepairMove(_Move):
    type: Literal["repair"]


class EndMove(_Move):
    type: Literal["end"]


TanksMove = Annotated[
    StepMove | RamMove | FireMove | StayMove | RepairMove | EndMove,
    Field(discriminator="type"),
]
