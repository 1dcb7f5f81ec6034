"""Diagrams on a rules page: positions the rules module plays, never drawn by hand.

A diagram is a fenced ```diagram block of JSON in the page source. It is played exactly as
a match is: the set-up gets `Dice(seed, 0)` and move k gets `Dice(seed, k)`; a `position`
(JSON merge patch, RFC 7386) may describe a position that moves would take long to reach.
Every move must be legal, so a diagram shows only what the engine allows, and the claim its
caption makes is checked by a test (tests/rules_pages/).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from markdown_it import MarkdownIt
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.engine.contract import BadMove, Event, Game, State
from app.engine.dice import SETUP_MOVE_NUMBER, Dice
from app.engine.runtime import seat_state
from app.rules_pages.source import page_source

# Seats are named like friends at a table: a game's renderer may number players by turn
# order ("Red · Player 1"), which a name "Player 2" for seat 1 would contradict.
DIAGRAM_NAMES = ("Ada", "Bea", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")


class DiagramError(ValueError):
    """A diagram the rules module cannot play as written."""


class Diagram(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]{1,64}$")
    caption: str = Field(min_length=1, max_length=400)
    players: int = Field(ge=1, le=8)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: str = Field(min_length=1, max_length=200)
    moves: list[tuple[int, dict[str, Any]]] = Field(default_factory=list)
    position: dict[str, Any] | None = None
    viewer: int | None = None
    highlight: list[Any] = Field(default_factory=list)


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge key by key, null deletes a key, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    merged = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merge_patch(merged.get(key), value)
    return merged


@dataclass
class ScenarioRun:
    """A diagram played: the state after set-up (and position), then after each move."""

    game: Game
    diagram: Diagram
    states: list[State] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.states[-1]

    @cached_property
    def view(self) -> dict[str, Any]:
        """What the diagram's viewer sees of the final position (the renderer's board)."""
        return self.game.view(self.final, self.diagram.viewer)


def run_scenario(game: Game, diagram: Diagram) -> ScenarioRun:
    try:
        options = game.parse_options(diagram.options)
    except ValidationError as exc:
        raise DiagramError(f"{diagram.id}: bad options: {exc.errors()[0]['msg']}") from None
    if not game.min_players <= diagram.players <= game.max_players:
        raise DiagramError(f"{diagram.id}: {game.title} is not for {diagram.players} players")
    state = game.begin(diagram.players, options, Dice(diagram.seed, SETUP_MOVE_NUMBER))
    if diagram.position is not None:
        state = merge_patch(state, diagram.position)
    run = ScenarioRun(game=game, diagram=diagram, states=[state])
    for number, (seat, raw) in enumerate(diagram.moves, start=1):
        try:
            move = game.parse_move(raw)
        except BadMove as exc:
            raise DiagramError(f"{diagram.id}: move {number}: {exc.reason}") from None
        allowed = game.legal_moves(state, seat) if seat in game.active_seats(state) else []
        if move not in allowed and move not in game.out_of_turn_moves(state, seat):
            raise DiagramError(f"{diagram.id}: move {number} by seat {seat} is not legal: {move}")
        state, events = game.apply(state, seat, move, Dice(diagram.seed, number))
        run.states.append(state)
        run.events.append(events)
    return run


def wire_state(run: ScenarioRun, index: int) -> dict[str, Any]:
    """The match-page state after `index` moves, as the viewer's socket would carry it."""
    game, state, viewer = run.game, run.states[index], run.diagram.viewer
    return seat_state(
        game,
        state,
        version=index,
        seats=[
            {"seat": seat, "name": name, "bot": None}
            for seat, name in enumerate(DIAGRAM_NAMES[: run.diagram.players])
        ],
        you=viewer,
        board=game.view(state, viewer),
        outcome=game.outcome(state),
        legal_moves=lambda: game.legal_moves(state, viewer),  # type: ignore[arg-type]
    )


def drawing(run: ScenarioRun) -> dict[str, Any]:
    """What the page's script needs to draw a diagram with the game's renderer."""
    last = len(run.states) - 1
    shown: list[Event] = []
    for event in run.events[-1] if run.events else []:
        redacted = run.game.redact_event(event, run.diagram.viewer)
        if redacted is not None:
            shown.append(redacted)
    return {
        "id": run.diagram.id,
        "viewer": run.diagram.viewer,
        "before": wire_state(run, max(last - 1, 0)),
        "after": wire_state(run, last),
        "events": shown,
        "highlight": run.diagram.highlight,
    }


def parse_diagram(text: str) -> Diagram:
    try:
        return Diagram.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise DiagramError(f"bad diagram ({where}): {first['msg']}") from None


def diagrams_in(markdown: str) -> list[Diagram]:
    tokens = MarkdownIt("commonmark").parse(markdown)
    return [
        parse_diagram(token.content)
        for token in tokens
        if token.type == "fence" and token.info.strip() == "diagram"
    ]


def diagrams_of(game_id: str) -> list[Diagram]:
    source = page_source(game_id)
    return diagrams_in(source.markdown) if source is not None else []
