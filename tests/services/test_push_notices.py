"""What a move tells whom (app/services/push.py, docs/protocol.md section 17): a turn that
has just begun, never the mover's own nor a computer's; the end to every seated person;
nothing for lessons; a full queue drops rather than waits."""

from __future__ import annotations

from typing import Any

import pytest

from app.config import Settings
from app.engine.dice import Dice
from app.engine.runtime import LiveMatch, ScriptedMove
from app.services.push import PushNotifier, VapidKey, new_private_key, notices_after_move
from tests.fixture_games import QuestionGame


def _match() -> LiveMatch:
    live = LiveMatch.in_memory(QuestionGame(), "seed", 2)
    live.names = ["Ada", "Bob"]
    return live


def _move(live: LiveMatch, seat: int, move: dict[str, Any]) -> tuple[Any, Any, Any]:
    before = live.state
    after, _events = live.game.apply(before, seat, move, Dice(live.seed, live.version + 1))
    return before, after, live.game.outcome(after)


def test_a_turn_that_begins_is_told_once_to_its_player() -> None:
    live = _match()
    before, after, outcome = _move(live, 0, {"type": "ask"})
    notices = notices_after_move(live, 0, before, after, outcome)
    assert [(n.player_id, n.payload["title"]) for n in notices] == [
        ("p1", "Your turn in Question (test) with Ada")
    ]
    assert notices[0].payload["url"] == f"/match/{live.id}"
    assert notices[0].payload["tag"] == f"match-{live.id}"
    # A computer in that seat, or standing in for its player, is told nothing.
    live.bots = {1: "easy"}
    assert notices_after_move(live, 0, before, after, outcome) == []
    live.bots, live.stand_ins = {}, {1: "easy"}
    assert notices_after_move(live, 0, before, after, outcome) == []


def test_the_end_is_told_to_every_seated_person_in_words() -> None:
    live = _match()
    before, after, outcome = _move(live, 0, {"type": "finish"})
    notices = notices_after_move(live, 0, before, after, outcome)
    assert {n.player_id: n.payload["body"] for n in notices} == {
        "p0": "Question (test) with Bob: You won. Finished.",
        "p1": "Question (test) with Ada: Ada won. Finished.",
    }
    assert {n.payload["title"] for n in notices} == {"Your match ended"}


async def test_lessons_send_nothing_and_a_full_queue_drops(
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = Settings(push_queue=1)
    notifier = PushNotifier(None, VapidKey.from_private(new_private_key()), settings)  # type: ignore[arg-type]
    live = _match()
    before, after, outcome = _move(live, 0, {"type": "finish"})
    live.script = [ScriptedMove(seat=0, move={"type": "finish"}, hint="")]
    notifier.after_move(live, 0, before, after, outcome)
    assert notifier.queue.qsize() == 0
    live.script = None
    notifier.after_move(live, 0, before, after, outcome)  # two notices, room for one
    assert notifier.queue.qsize() == 1
    assert "push queue full" in caplog.text


async def test_only_notices_to_players_with_a_subscription_are_queued() -> None:
    """A move of people who never asked for pushes costs no delivery (no database query)."""
    notifier = PushNotifier(None, VapidKey.from_private(new_private_key()), Settings())  # type: ignore[arg-type]
    live = _match()
    before, after, outcome = _move(live, 0, {"type": "finish"})
    notifier.subscribers = {"p1"}
    notifier.after_move(live, 0, before, after, outcome)
    assert [notifier.queue.get_nowait().player_id] == ["p1"] and notifier.queue.empty()
    await notifier.subscribed("p0")  # she subscribed here just now
    notifier.after_move(live, 0, before, after, outcome)
    assert notifier.queue.qsize() == 2
