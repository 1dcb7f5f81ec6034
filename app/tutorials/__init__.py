"""Guided first matches: one JSON file per family of games in this folder, run by one engine.

A tutorial is a real match with a fixed dice seed: the learner sits at `learner`, computer
players at the other seats, and step k of the script is the match's move k+1. The server
plays the computers' scripted moves (app/services/computer_turns.py) and answers a learner's
move that is not the script's with the step's hint (app/engine/runtime.py); the match page's
coach (static/js/tutorial-coach.js) shows each step's words and outlines what to click.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

TUTORIALS_DIR = Path(__file__).resolve().parent
FAMILY_TITLES = {
    "c64": "C64 Board",
    "tube-tanks": "Tank Skirmish",
    "joystick-heroes": "Joystick Heroes",
    "cd-thief": "CD Thief",
    "tactrics": "Tactrics",
}
"""The families a tutorial can teach, in the order the /learn page lists them."""


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: int = Field(ge=0)
    move: dict[str, Any]
    say: str | None = Field(default=None, max_length=600)
    highlight: list[str] = Field(default_factory=list, max_length=8)
    hint: str | None = Field(default=None, max_length=400)
    after: str | None = Field(default=None, max_length=600)


class Tutorial(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    family: str
    game: str
    title: str = Field(max_length=80)
    intro: str = Field(max_length=800)
    players: int = Field(ge=1, le=8)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: str = Field(min_length=1, max_length=64)  # a match's seed column holds 64
    learner: int = Field(default=0, ge=0)
    steps: list[Step] = Field(min_length=1, max_length=60)
    ready: str = Field(max_length=600)

    @model_validator(mode="after")
    def _seats_fit(self) -> Tutorial:
        if self.learner >= self.players or any(s.seat >= self.players for s in self.steps):
            raise ValueError("a seat beyond the tutorial's players")
        return self

    def step(self, moves_made: int) -> Step | None:
        """The step to play after `moves_made` moves; None once the script is over."""
        return self.steps[moves_made] if moves_made < len(self.steps) else None

    def public(self) -> dict[str, Any]:
        """What the learner's page gets: everything (the script is no secret: it is a lesson)."""
        return self.model_dump()


@cache
def all_tutorials() -> dict[str, Tutorial]:
    found: dict[str, Tutorial] = {}
    for path in sorted(TUTORIALS_DIR.glob("*.json")):
        tutorial = Tutorial.model_validate_json(path.read_text(encoding="utf-8"))
        if tutorial.family != path.stem or tutorial.family not in FAMILY_TITLES:
            raise ValueError(f"{path.name}: its family must be its file name, one of the known")
        found[tutorial.family] = tutorial
    return {family: found[family] for family in FAMILY_TITLES if family in found}


def tutorial_families() -> list[str]:
    return list(all_tutorials())


def tutorial(family: str) -> Tutorial | None:
    return all_tutorials().get(family)


def tutorial_for_game(game_id: str) -> Tutorial | None:
    """The tutorial of the game's family (a C64 tutorial teaches every C64 game's engine)."""
    from app.rules_pages.source import page_source

    source = page_source(game_id)
    family = source.meta.get("family") if source is not None else None
    return all_tutorials().get(family) if family else None
