"""Minimal real games for platform tests: each one exercises one platform hook (a decision
clock, options that need agreement, personal records) without depending on a full game.
They are registered only by the `register_fixture_game` helper, never by discovery."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from app.engine import registry
from app.engine.contract import Event, Game, IllegalMove, Outcome, State
from app.engine.dice import Dice


def register_fixture_game(monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    registry.all_games()  # discover the real games first, then add this one beside them
    monkeypatch.setitem(registry._games, game.id, game)


ANSWER_SECONDS = 0.4


class Ask(BaseModel):
    type: Literal["ask"]


class Answer(BaseModel):
    type: Literal["answer"]
    answer: Literal["yes", "no"]


class Finish(BaseModel):
    type: Literal["finish"]


class QuestionGame(Game):
    id = "test-question"
    title = "Question (test)"
    min_players = 2
    max_players = 2
    rules_version = "1"
    MoveType = Ask | Answer | Finish

    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        return {"asking": False, "answers": [], "over": False}

    def active_seats(self, state: State) -> frozenset[int]:
        return frozenset() if state["over"] else frozenset({1 if state["asking"] else 0})

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.active_seats(state):
            return []
        if state["asking"]:
            return [{"type": "answer", "answer": "yes"}, {"type": "answer", "answer": "no"}]
        return [{"type": "ask"}, {"type": "finish"}]

    def apply(
        self, state: State, seat: int, move: dict[str, Any], rng: Dice
    ) -> tuple[State, list[Event]]:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("Not now.")
        new = {**state, "answers": list(state["answers"])}
        if move["type"] == "ask":
            new["asking"] = True
            return new, [{"type": "ask", "seat": seat, "text": "Seat 0 asks."}]
        if move["type"] == "answer":
            new["asking"] = False
            new["answers"].append(move["answer"])
            return new, [{"type": "answer", "seat": seat, "text": f"Seat 1 says {move['answer']}."}]
        new["over"] = True
        return new, [{"type": "finish", "seat": seat, "text": "Over."}]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def outcome(self, state: State) -> Outcome | None:
        return Outcome(winners=(0,), reason="Finished.") if state["over"] else None

    def decision_seconds(self, state: State) -> float | None:
        return ANSWER_SECONDS if state["asking"] else None

    def timeout_move(self, state: State, seat: int) -> dict[str, Any] | None:
        return {"type": "answer", "answer": "no"} if state["asking"] else None


class ZoneOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    custom: bool = Field(default=False, description="Play on a zone the host draws")
    walls: list[int] = Field(default_factory=list, description="Wall squares 0..8")


class Pick(BaseModel):
    type: Literal["pick"]
    square: int


class AgreementGame(Game):
    """Seat 0 picks a square that is not a wall and wins; custom zones need agreement."""

    id = "test-agreement"
    title = "Agreement (test)"
    min_players = 2
    max_players = 2
    rules_version = "1"
    Options = ZoneOptions
    MoveType = Pick

    def options_need_agreement(self, options: BaseModel) -> bool:
        return bool(getattr(options, "custom", False))

    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        return {"walls": list(getattr(options, "walls", [])), "picked": None}

    def active_seats(self, state: State) -> frozenset[int]:
        return frozenset() if state["picked"] is not None else frozenset({0})

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.active_seats(state):
            return []
        return [{"type": "pick", "square": i} for i in range(9) if i not in state["walls"]]

    def apply(
        self, state: State, seat: int, move: dict[str, Any], rng: Dice
    ) -> tuple[State, list[Event]]:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("That square is a wall.")
        return {**state, "picked": move["square"]}, [
            {"type": "pick", "seat": seat, "text": f"Seat 0 picks {move['square']}."}
        ]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def outcome(self, state: State) -> Outcome | None:
        return None if state["picked"] is None else Outcome(winners=(0,), reason="Picked.")


class Score(BaseModel):
    type: Literal["score"]
    points: int = Field(ge=1, le=5)


class RecordGame(Game):
    """One player names a score from 1 to 5 and the game ends with it; fewer is better."""

    id = "test-record"
    title = "Record (test)"
    min_players = 1
    max_players = 1
    rules_version = "1"
    record_order = "low"
    MoveType = Score

    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        return {"points": None}

    def active_seats(self, state: State) -> frozenset[int]:
        return frozenset() if state["points"] is not None else frozenset({0})

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.active_seats(state):
            return []
        return [{"type": "score", "points": p} for p in range(1, 6)]

    def apply(
        self, state: State, seat: int, move: dict[str, Any], rng: Dice
    ) -> tuple[State, list[Event]]:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("The game is over.")
        return {"points": move["points"]}, [
            {"type": "score", "seat": seat, "text": f"Scored {move['points']}."}
        ]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def outcome(self, state: State) -> Outcome | None:
        if state["points"] is None:
            return None
        return Outcome(
            winners=(0,), reason="Done.", scores={0: state["points"]}, details={"record_key": "x"}
        )
