"""The decision clock: a question the rules put to other seats (a Versus challenge, a loan)
is answered by the server with the game's `timeout_move` once its time is up.

QuestionGame (tests/fixture_games.py) is a real, minimal rules module: seat 0 asks,
seat 1 must answer "yes" or "no" within a fraction of a second, "no" being the answer the
rules give for silence.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from tests.conftest import LiveServer
from tests.fixture_games import ANSWER_SECONDS, QuestionGame, register_fixture_game
from tests.helpers import Viewer, guests, started_match


@pytest.fixture
def question_game(monkeypatch: pytest.MonkeyPatch) -> None:
    register_fixture_game(monkeypatch, QuestionGame())


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
    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, bob.token) as b,
    ):
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
    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, bob.token) as b,
    ):
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
