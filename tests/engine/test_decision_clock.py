"""The decision clock: a question the rules put to other seats (a Versus challenge, a loan)
is answered by the server with the game's `timeout_move` once its time is up.

The game below is a real, minimal rules module registered only for these tests: seat 0 asks,
seat 1 must answer "yes" or "no" within a fraction of a second, "no" being the answer the
rules give for silence.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

import httpx
import pytest
from pydantic import BaseModel

from app.engine import registry
from app.engine.contract import Event, Game, IllegalMove, Outcome, State
from app.engine.dice import Dice
from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, started_match

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


@pytest.fixture
def question_game(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.all_games()  # discover the real games first, then add this one beside them
    monkeypatch.setitem(registry._games, QuestionGame.id, QuestionGame())


async def _log(server: LiveServer, match_id: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=server.url) as client:
        response = await client.get(f"/api/matches/{match_id}/log")
        assert response.status_code == 200, response.text
        return response.json()["moves"]


async def test_silence_is_answered_by_the_server_when_time_is_up(
    server: LiveServer, question_game: None
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob], game=QuestionGame.id)
    async with Viewer(server.ws_url, match_id, ada.token) as a, Viewer(
        server.ws_url, match_id, bob.token
    ) as b:
        await a.until_type("snapshot")
        await b.until_type("snapshot")
        assert a.state["deadline"] is None, "no clock on an ordinary turn"
        loop = asyncio.get_running_loop()
        await a.move({"type": "ask"})
        await a.until_type("ack")
        await b.until(lambda f: f["type"] == "patch" and f["version"] == 1)
        deadline = b.state["deadline"]
        assert isinstance(deadline, int), "the asked seat sees when its time runs out"
        asked_at = loop.time()
        await b.until(lambda f: f["type"] == "patch" and f["version"] == 2, timeout=5)
        waited = loop.time() - asked_at
    assert waited >= ANSWER_SECONDS * 0.5
    assert b.state["board"]["answers"] == ["no"]
    assert b.state["deadline"] is None
    moves = await _log(server, match_id)
    assert [(m["seat"], m["move"]) for m in moves] == [
        (0, {"type": "ask"}),
        (1, {"type": "answer", "answer": "no"}),
    ]


async def test_an_answer_in_time_stops_the_clock(server: LiveServer, question_game: None) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob], game=QuestionGame.id)
    async with Viewer(server.ws_url, match_id, ada.token) as a, Viewer(
        server.ws_url, match_id, bob.token
    ) as b:
        await a.until_type("snapshot")
        await b.until_type("snapshot")
        await a.move({"type": "ask"})
        await b.until(lambda f: f["type"] == "patch" and f["version"] == 1)
        await b.move({"type": "answer", "answer": "yes"})
        await b.until_type("ack")
        await asyncio.sleep(ANSWER_SECONDS * 2)
    moves = await _log(server, match_id)
    assert [m["move"] for m in moves] == [
        {"type": "ask"},
        {"type": "answer", "answer": "yes"},
    ], "the server must not answer a question that was answered in time"
