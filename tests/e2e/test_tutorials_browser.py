"""The five guided first matches, as a newcomer takes them (issue 16, parts 3 and 6): from
/learn she opens a lesson, starts it, and clicks only what the coach outlines until "You're
ready", at desktop and at phone width; then "Open a real table" opens a lobby of that game.
A move off the script gets the step's hint in the coach, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from app.tutorials import Tutorial, all_tutorials
from tests.e2e.lobby_flow import fits_width, give_name

pytestmark = pytest.mark.browser

LESSONS = list(all_tutorials().values())
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
ANYTHING_TO_DO = """() => {
  const ready = document.querySelector('[data-testid="tutorial-ready"]');
  return (ready && !ready.hidden) || !!document.querySelector('[data-coach="target"]');
}"""


def start_lesson(page: Any, lesson: Tutorial) -> None:
    page.goto("/learn")
    page.locator(f'[data-testid="learn-card"][data-family="{lesson.family}"]').get_by_test_id(
        "learn-open"
    ).click()
    expect(page.get_by_test_id("lesson-title")).to_have_text(lesson.title)
    page.get_by_test_id("lesson-start").click()
    give_name(page, "Newcomer")
    page.wait_for_url("**/match/*")
    expect(page.get_by_test_id("coach")).to_be_visible()


def follow_the_coach(page: Any, lesson: Tutorial) -> None:
    ready = page.get_by_test_id("tutorial-ready")
    clicks = sum(len(step.highlight) for step in lesson.steps)
    for _ in range(clicks):
        page.wait_for_function(ANYTHING_TO_DO)
        if ready.is_visible():
            return
        where = page.get_by_test_id("coach").get_attribute("data-step")
        page.locator('[data-coach="target"]').click()
        page.wait_for_function(
            "(where) => document.querySelector('[data-testid=\"coach\"]').dataset.step !== where",
            arg=where,
        )
    expect(ready).to_be_visible()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.family for lesson in LESSONS])
def test_a_newcomer_completes_the_lesson_clicking_only_what_it_outlines(
    new_page: Any, lesson: Tutorial, size: str
) -> None:
    width, height = SIZES[size]
    page = new_page(width, height)
    start_lesson(page, lesson)
    follow_the_coach(page, lesson)
    expect(page.get_by_test_id("tutorial-ready")).to_contain_text("You're ready")
    assert fits_width(page, width)

    lesson_url = page.url
    page.get_by_test_id("tutorial-open-lobby").click()
    page.wait_for_url(lambda url: "/match/" in url and url != lesson_url)
    expect(page.get_by_test_id("lobby-view")).to_be_visible()
    match_id = page.url.rstrip("/").split("/")[-1]
    lobby = page.request.get(f"/api/matches/{match_id}").json()  # with her guest cookie
    assert lobby["game"] == lesson.game and lobby["status"] == "open"
    assert lobby["tutorial"] is None


def test_a_move_off_the_script_gets_the_hint_and_changes_nothing(new_page: Any) -> None:
    lesson = LESSONS[0]
    page = new_page(1280, 800)
    start_lesson(page, lesson)
    page.wait_for_function("() => !!document.querySelector('[data-coach=\"target\"]')")
    version = page.evaluate("() => arcade.state.version")
    step = lesson.steps[version]
    legal = page.evaluate("() => arcade.state.legal_moves")
    other = next((move for move in legal if move != step.move), {"type": "nonsense"})
    refused = page.evaluate(
        """async (move) => {
          try { await arcade.submit(move); return null; } catch (error) { return error.code; }
        }""",
        other,
    )
    assert refused in ("off_script", "bad_request")
    if refused == "off_script":
        expect(page.get_by_test_id("coach-hint")).to_have_text(step.hint or "")
        expect(page.get_by_test_id("move-error")).to_be_hidden()
    assert page.evaluate("() => arcade.state.version") == version
