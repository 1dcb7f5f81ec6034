"""Every player sees the C64 board from her own side, and her cards say where they go.

Issue 14 item 4: the cards are seat-relative (ruling C2: a West player's "left" is north), and
the board was always drawn North up, so a West player's cards read "Left" under an ↑ and a
North player's "Left" card moved her piece to the right of the screen. Now each player sees
the board from her own side (the way chess sites turn the board), a card is named by the way
its move goes on the board she sees, and spectators see the standard view (North up).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import MINE, Driver, cards_disagreeing
from tests.e2e.lobby_flow import FRIENDS, api_match

pytestmark = pytest.mark.browser

# Which card each side plays: one that is free from her starting corner (ruling C9: a train
# starts on her left-corner grid point) and, on the old North-up board, went elsewhere on
# screen than its word said (W "Right" went down, N "Up" went down, E "Right" went up).
WORD_BY_SIDE = {"S": "Up", "W": "Right", "N": "Up", "E": "Right"}
SCREEN_STEP = {"Up": (0, -1), "Down": (0, 1), "Left": (-1, 0), "Right": (1, 0)}


def _centre(page: Any, selector: str) -> tuple[float, float]:
    """Where the piece is on screen, in px from the board's top left corner (banners above
    the board come and go between turns)."""
    box = page.locator(selector).bounding_box()
    board = page.get_by_test_id("board").bounding_box()
    assert box is not None and board is not None
    return box["x"] + box["width"] / 2 - board["x"], box["y"] + box["height"] / 2 - board["y"]


def _settled(page: Any, selector: str, at: str) -> None:
    """The piece stands on grid point `at` and has stopped gliding there."""
    expect(page.locator(selector)).to_have_attribute("data-at", at)
    page.wait_for_function(
        "sel => document.querySelector(sel).getAnimations().length === 0", arg=selector
    )


def test_each_seat_sees_her_card_move_her_train_the_way_it_says(
    new_page: Any, live_server: str
) -> None:
    match_id, people = api_match(live_server, "c64-trains", FRIENDS[:4])
    driver = Driver(live_server, match_id, people)
    board = driver.state(0)["board"]
    side_of = {p["seat"]: p["side"] for p in board["players"]}
    assert sorted(side_of.values()) == ["E", "N", "S", "W"]

    # Set-up over the API: every seat takes a card whose word (on her own board) is hers.
    # Faces are seat-relative and a seat's own board turns them into screen words unchanged.
    for seat in range(4):
        wanted = WORD_BY_SIDE[side_of[seat]].lower()
        legal = driver.state(seat)["legal_moves"]
        # One card of that face, so that one card says her word.
        take = next(m for m in legal if [c["face"] for c in m["cards"]].count(wanted) == 1)
        driver.send(seat, take)
    for seat in range(4):
        view = driver.state(seat)
        returns = [m for m in view["legal_moves"] if m["type"] == "return"]
        if returns:  # Player 2 and Player 4 keep one card (ruling C4.2): the wanted one
            faces = {a["id"]: a["face"] for a in view["board"]["joysticks"][seat]["active"]}
            wanted = WORD_BY_SIDE[side_of[seat]].lower()
            driver.send(seat, next(m for m in returns if faces[m["card"]] != wanted))
    driver.close()

    watcher = new_page()
    watcher.goto(f"/match/{match_id}")
    expect(watcher.get_by_test_id("board")).to_have_attribute("data-view", "S")
    pages = {}
    for seat in range(4):
        page = new_page(player=people[seat])
        page.emulate_media(reduced_motion="reduce")
        page.goto(f"/match/{match_id}")
        pages[seat] = page
    for seat, page in pages.items():
        expect(page.get_by_test_id("board")).to_have_attribute("data-view", side_of[seat])
        assert cards_disagreeing(page) == [], side_of[seat]
    assert cards_disagreeing(watcher) == []

    # Turns in order S, W, N, E: each clicks the card that says her word.
    for seat in board["order"]:
        page, side = pages[seat], side_of[seat]
        word = WORD_BY_SIDE[side]
        expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "play")
        train = f'[data-point="train-{seat}"]'
        start = page.locator(train).get_attribute("data-at") or ""
        before = _centre(page, train)
        card = page.locator(f'{MINE} [data-testid="active-card"]').filter(
            has=page.locator(".f-name", has_text=word)
        )
        expect(card).to_have_count(1)
        if card.get_attribute("data-selected") != "true":  # a single card comes selected
            card.click()
        page.locator(f'{MINE} [data-testid="joy-space"][data-legal="true"]').first.click()
        if page.get_by_test_id("face-chooser").is_visible():  # her last card: next faces
            page.get_by_test_id("confirm-move").click()
        expect(page.locator(train)).not_to_have_attribute("data-at", start)
        _settled(page, train, page.locator(train).get_attribute("data-at") or "")
        after = _centre(page, train)
        dx, dy = after[0] - before[0], after[1] - before[1]
        sx, sy = SCREEN_STEP[word]
        along, across = (dx * sx + dy * sy), abs(dx * sy) + abs(dy * sx)
        assert along > 20 and across < 3, (
            f"{side}'s {word!r} card moved her train by ({dx:.0f}, {dy:.0f}) px on her screen"
        )
        assert cards_disagreeing(page) == [], side

    # A player may turn the board to the standard view: the words follow the arrows there too.
    west = next(pages[s] for s in range(4) if side_of[s] == "W")
    west.get_by_test_id("toggle-view").click()
    expect(west.get_by_test_id("board")).to_have_attribute("data-view", "S")
    assert cards_disagreeing(west) == []
    assert cards_disagreeing(watcher) == []
