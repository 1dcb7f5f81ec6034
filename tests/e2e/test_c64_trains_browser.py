"""Three friends play C64 Trains in three browsers, end to end against the real server.

Everything is asserted on what a person sees (data-testid hooks on visible elements): the
lobby, the joystick, the event log, the trains on their grid points, the rails and the score
panel with supplies and VP.
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
    words_under_pieces,
)
from tests.e2e.lobby_flow import FRIENDS, api_match, friends_start_a_match

pytestmark = pytest.mark.browser


def test_three_friends_lay_rails(new_page: Any, live_server: str, artifacts: Path) -> None:
    pages, _invite = friends_start_a_match(new_page, "c64-trains", seats=3)
    ada = pages[0]
    for page in pages:
        expect(page.get_by_test_id("board")).to_be_visible()
        # Three trains on their left-corner grid points, a score panel with full supplies.
        expect(page.locator('[data-testid="point"][data-point^="train-"]')).to_have_count(3)
        expect(page.get_by_test_id("trains-score-row")).to_have_count(3)
    corners = {ada.locator(f'[data-point="train-{s}"]').get_attribute("data-at") for s in range(3)}
    assert corners == {"0,0", "0,8", "8,8"}  # S, W, N left corners (ruling C2)

    seat_of = set_up_in_every_browser(pages, flip=False)  # faces: the chooser's first offer

    def same_train(mover: Any, other: Any, seat: int) -> None:
        # Everybody else saw it: the train on the same grid point, the same rails of that
        # colour and the same row in the score panel.
        train = f'[data-point="train-{seat}"]'
        at = mover.locator(train).get_attribute("data-at") or ""
        rails = mover.locator(f'[data-segment^="rail-{seat}-"]').count()
        expect(other.locator(train)).to_have_attribute("data-at", at)
        expect(other.locator(f'[data-segment^="rail-{seat}-"]')).to_have_count(rails)
        row = f'[data-testid="trains-score-row"][data-seat="{seat}"]'
        expect(other.locator(row)).to_have_text(mover.locator(row).text_content() or "")

    def play(page: Any, first: bool) -> str:  # a move card, so that trains drive, rails appear
        return play_a_move_card(page, artifacts / "c64-trains-preview.png" if first else None)

    play_until_each_seat_played(pages, seat_of, 16, same_train, play=play)
    turn_titles_agree(pages)
    screenshots(pages, artifacts, "c64-trains")


# ------------------------------------------------------------------ a finished game


def test_the_final_score_is_shown_at_the_end(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    page, panel, _reason = the_final_score(
        new_page, live_server, "c64-trains", 3, "trains-score", "Final scoring"
    )
    expect(page.get_by_test_id("trains-score-row")).to_have_count(3)
    expect(panel.locator("tr.winner").first).to_be_visible()
    contacts = page.get_by_test_id("trains-connection")
    if contacts.count():  # the breakdown opens by itself at the end
        expect(contacts.first).to_be_visible()
    page.screenshot(path=str(artifacts / "c64-trains-final.png"), full_page=True)


def test_phone_first_board_and_joystick_share_the_screen(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue 14 item 5: at 390x844 the board and the controls of each decision (set-up cards
    and faces, a card, its space, the next faces) are on screen together, taps >= 40px."""
    phone_first_through_set_up_and_play(new_page, live_server, "c64-trains", 3, artifacts)


def test_edge_numbers_keep_clear_of_the_trains(new_page: Any, live_server: str) -> None:
    """Issue 14 item 10: the edge numbers 0 and 8 hid under the trains standing on the corner
    grid points (ruling C9: trains start on the left-corner points), in every seat's view."""
    match_id, people = api_match(live_server, "c64-trains", FRIENDS[:4])
    for player in people:
        page = new_page(player=player)
        page.goto(f"/match/{match_id}")
        expect(page.locator('[data-testid="point"][data-point^="train-"]')).to_have_count(4)
        numbers = page.locator('[data-testid="point-coords"] text')
        expect(numbers).to_have_count(18)
        trains = '[data-point^="train-"] .ring, [data-point^="train-"] .gp'
        assert words_under_pieces(page, '[data-testid="point-coords"] text', trains) == []
