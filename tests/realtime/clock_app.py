"""The app with a question game whose clock is long enough to kill its keeper during it: what
the keepers' tests run in a server process (`ServerProcess(factory=FACTORY)`), and register
in their own process for the in-thread servers beside it."""

from __future__ import annotations

from fastapi import FastAPI

from app.engine import registry
from app.main import create_app as create_arcade_app
from tests.fixture_games import QuestionGame

FACTORY = "tests.realtime.clock_app:create_app"
SLOW_ANSWER_SECONDS = 10.0


class SlowQuestionGame(QuestionGame):
    """QuestionGame with a ten-second clock: the keeper can die while it runs."""

    id = "test-slow-question"
    title = "Slow question (test)"

    def decision_seconds(self, state: dict) -> float | None:  # type: ignore[override]
        return SLOW_ANSWER_SECONDS if state["asking"] else None


def register() -> None:
    registry.all_games()  # the real games first, then this one beside them
    registry._games[SlowQuestionGame.id] = SlowQuestionGame()


def create_app() -> FastAPI:
    register()
    return create_arcade_app()
