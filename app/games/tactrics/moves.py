"""The moves of the four Tactrics games (docs/tactrics.md), one Pydantic union for all.

Each game lists only the moves it allows in `legal_moves`; a move of another game parses but
is refused with a sentence. Canonical form: no key whose value is absent, so the minority
flag `reserve` appears only when true.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.games.tactrics.board import SLOTS, TOWERS

Tower = Literal[TOWERS]  # type: ignore[valid-type]
Slot = Literal[SLOTS]  # type: ignore[valid-type]
Direction = Literal["cw", "ccw"]


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RotateMove(_Move):
    """Turn one tower one position (V2); `reserve` spends a minority controller (V6)."""

    type: Literal["rotate"]
    tower: Tower
    direction: Direction
    reserve: Literal[True] | None = None


class PlaceMove(_Move):
    """Crossing Advanced set-up: a controller onto one of your starting routers (V7)."""

    type: Literal["place"]
    slot: Slot


class ClaimMove(_Move):
    """Crossing Advanced: the controller on your router at `slot` goes onto `tower`; when the
    tower was an opponent's, her controller goes to her router at `to` (V7)."""

    type: Literal["claim"]
    tower: Tower
    slot: Slot
    to: Slot | None = None


class MoveControllerMove(_Move):
    """Crossing Advanced: a controller from your router at `from` to your router at `to`
    along touching routers (V7). `from` is a Python keyword, hence the alias."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    type: Literal["move_controller"]
    from_: Slot = Field(alias="from")
    to: Slot

    def model_dump(self, **kwargs):  # type: ignore[no-untyped-def, override]
        return super().model_dump(by_alias=True, **kwargs)


class TakeBackMove(_Move):
    """Crossing Advanced: your controller from your claimed tower onto your router at `to`;
    it costs the whole turn (V7)."""

    type: Literal["take_back"]
    tower: Tower
    to: Slot


class UndoMove(_Move):
    """Take back the last action of this turn (V4)."""

    type: Literal["undo"]


class ConfirmMove(_Move):
    """End the turn; its actions stand (V4)."""

    type: Literal["confirm"]


TactricsMove = Annotated[
    RotateMove | PlaceMove | ClaimMove | MoveControllerMove | TakeBackMove | UndoMove | ConfirmMove,
    Field(discriminator="type"),
]
