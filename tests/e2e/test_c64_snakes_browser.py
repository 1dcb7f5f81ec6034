"""Two friends play C64 Snakes in two browsers, end to end against the real server.

Everything is asserted on what a person sees (data-testid hooks on visible elements): the
lobby, the joystick, the event log, the snake heads on their grid points, the segments and
the panel with lengths, sticks left and captures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import (
    phone_first_through_set_up_and_play,
    play_a_move_card,
    play_until_each_seat_played,
    screenshots,
    set_up_in_every_browser,
    the_final_score,
    turn_titles_agree,
)
from tests.e2e.lobby_flow import friends_start_a_match

pytestmark = pytest.mark.browser


def test_two_friends_grow_snakes(new_page: Any, live_server: str, artifacts: Path) -> None:
    pages, _invite = friends_start_a_match(new_page, "c64-snakes")
    ada = pages[0]
    for page in pages:
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.locator('[data-testid="point"][data-point^="head-"]')).to_have_count(2)
        expect(page.get_by_test_id("snakes-score-row")).to_have_count(2)
        expect(page.get_by_test_id("snakes-supply")).to_have_text(["16", "16"])
    heads = {ada.locator(f'[data-point="head-{s}"]').get_attribute("data-at") for s in range(2)}
    assert heads == {"0,0", "8,8"}  # S and N left corners (ruling C2)

    seat_of = set_up_in_every_browser(pages, flip=False)  # faces: the chooser's first offer

    def same_snake(mover: Any, other: Any, seat: int) -> None:
        # The other browser saw it: the head on the same grid point, the same segments of
        # that colour and the same row in the score panel.
        head = f'[data-point="head-{seat}"]'
        expect(other.locator(head)).to_have_attribute(
            "data-at", mover.locator(head).get_attribute("data-at") or ""
        )
        segments = mover.locator(f'[data-segment^="snake-{seat}-"]').count()
        expect(other.locator(f'[data-segment^="snake-{seat}-"]')).to_have_count(segments)
        row = f'[data-testid="snakes-score-row"][data-seat="{seat}"]'
        expect(other.locator(row)).to_have_text(mover.locator(row).text_content() or "")

    def play(page: Any, first: bool) -> str:  # a move card, so that snakes grow
        return play_a_move_card(page, artifacts / "c64-snakes-preview.png" if first else None)

    play_until_each_seat_played(pages, seat_of, 10, same_snake, play=play)
    turn_titles_agree(pages)

    # The north player sees the board from her side; she turns it North up: the pieces keep
    # their grid points.
    north = next(p for p in pages if "North side" in p.get_by_test_id("my-joystick").inner_text())
    expect(north.get_by_test_id("board")).to_have_attribute("data-view", "N")
    head = f'[data-point="head-{seat_of[id(north)]}"]'
    at = north.locator(head).get_attribute("data-at")
    assert at is not None
    north.get_by_test_id("toggle-view").click()
    expect(north.get_by_test_id("board")).to_have_attribute("data-view", "S")
    expect(north.locator(head)).to_have_attribute("data-at", at)

    screenshots(pages, artifacts, "c64-snakes")


# ------------------------------------------------------------------ a finished game


def test_the_final_score_is_shown_at_the_end(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    page, panel, reason = the_final_score(
        new_page, live_server, "c64-snakes", 2, "snakes-score", "Final count"
    )
    expect(page.get_by_test_id("snakes-note")).to_have_text(reason)
    page.screenshot(path=str(artifacts / "c64-snakes-final.png"), full_page=True)


def test_phone_first_board_and_joystick_share_the_screen(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue 14 item 5: at 390x844 the board and the controls of each decision (set-up cards
    and faces, a card, its space, the next faces) are on screen together, taps >= 40px."""
    phone_first_through_set_up_and_play(new_page, live_server, "c64-snakes", 2, artifacts)
