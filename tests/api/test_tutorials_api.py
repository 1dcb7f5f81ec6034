"""Guided first matches over HTTP (issue 16, part 3): a lesson starts a real private match
against computer players with the lesson's dice; the computers play the script; a move off
the script gets the step's hint and changes nothing; the match verifies like any other."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.tutorials import all_tutorials
from tests.conftest import LiveServer
from tests.helpers import Guest, guests

QUICK = {"bot_think_seconds": 0.0, "bot_time_budget": 0.1, "bot_sweep_seconds": 0.5}


@pytest.fixture
def quick_server(database_url: str) -> Iterator[LiveServer]:
    live = LiveServer(database_url, **QUICK).start()
    try:
        yield live
    finally:
        live.stop()


async def _version_reaches(learner: Guest, match_id: str, version: int) -> dict[str, Any]:
    for _ in range(600):
        summary = (await learner.get(f"/api/matches/{match_id}")).json()
        if summary["version"] >= version:
            return summary
        await asyncio.sleep(0.05)
    raise AssertionError(f"the computers did not reach version {version}")


async def test_a_lesson_is_a_match_whose_computers_follow_the_script(
    quick_server: LiveServer,
) -> None:
    lesson = next(iter(all_tutorials().values()))
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=30) as client:
        listed = (await client.get("/api/tutorials")).json()
        assert [t["family"] for t in listed] == list(all_tutorials())
        assert (await client.get(f"/api/tutorials/{lesson.family}")).json()["seed"] == lesson.seed
        assert (await client.get("/api/tutorials/no-such")).status_code == 404
        (ada,) = await guests(client, "Ada")
        assert (await ada.post("/api/tutorials/no-such/matches")).status_code == 404

        started = await ada.post(f"/api/tutorials/{lesson.family}/matches")
        assert started.status_code == 201, started.text
        match = started.json()
        match_id = match["id"]
        assert match["status"] == "active" and match["tutorial"] == lesson.family
        assert match["private"] is True
        seats = match["seats"]
        assert seats[lesson.learner]["player_id"] == ada.id
        assert all(s["bot"] for i, s in enumerate(seats) if i != lesson.learner)

        wrong_tried = False
        for number, step in enumerate(lesson.steps):
            if step.seat != lesson.learner:
                continue
            await _version_reaches(ada, match_id, number)
            if not wrong_tried:
                # Off the script: the step's hint, and nothing changes.
                legal = (await ada.get(f"/api/matches/{match_id}")).json()["view"]["legal_moves"]
                other = next((m for m in legal if m != step.move), {"type": "nonsense"})
                refused = await ada.post(f"/api/matches/{match_id}/moves", {"move": other})
                assert refused.status_code in (400, 409), refused.text
                if refused.status_code == 409:
                    assert refused.json() == {"code": "off_script", "message": step.hint}
                wrong_tried = True
                assert (await ada.get(f"/api/matches/{match_id}")).json()["version"] == number
            made = await ada.post(f"/api/matches/{match_id}/moves", {"move": step.move})
            assert made.status_code == 200, made.text
            assert made.json()["version"] == number + 1
        await _version_reaches(ada, match_id, len(lesson.steps))
        log = (await ada.get(f"/api/matches/{match_id}/log")).json()
        played = [(m["seat"], m["move"]) for m in log["moves"][: len(lesson.steps)]]
        assert played == [(s.seat, s.move) for s in lesson.steps]
