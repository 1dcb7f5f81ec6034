"""Two friends play C64 Cars in two browsers, end to end against the real server.

Asserted on what a person sees (data-testid hooks on visible elements): the joystick, the
event log, the cars on the board and the dashboard (gear, facing, flipped/off-board,
checkpoints); and the drive animation: a car runs along its path square by square.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import (
    Driver,
    animations_done,
    c64_match,
    phone_first_through_set_up_and_play,
    play_until_each_seat_played,
    row_attributes,
    same_squares,
    screenshots,
    set_up_in_every_browser,
    turn_titles_agree,
)
from tests.e2e.lobby_flow import FRIENDS, api_match, friends_start_a_match

pytestmark = pytest.mark.browser

EAST_FACE = {"S": "right", "W": "up", "N": "left", "E": "down"}  # ruling C2


# ------------------------------------------------------------------ helpers


def dashboard(page: Any) -> list[tuple[str, ...]]:
    keys = ("data-seat", "data-gear", "data-facing", "data-flipped", "data-off", "data-checkpoints")
    return row_attributes(page, "cars-row", keys)


# ------------------------------------------------------------------ tests
def test_two_friends_set_up_and_race(new_page: Any, live_server: str, artifacts: Path) -> None:
    (ada, bea), _invite = friends_start_a_match(new_page, "c64-cars")
    for page in (ada, bea):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("cars-dashboard")).to_be_visible()
        # The start grid: both cars on their start squares, gear 0, facing east.
        expect(page.locator('[data-testid="marker-start"]')).to_have_count(2)
        expect(page.locator('[data-segment="cars-goal"]')).to_have_count(1)
        expect(page.locator('[data-testid="marker-cars-zone"]')).to_have_count(24)
    assert sorted(r[1:4] for r in dashboard(ada)) == [("0", "E", "false")] * 2

    seat_of = set_up_in_every_browser([ada, bea])

    def same_cars(mover: Any, other: Any, seat: int) -> None:
        # The other browser saw it: same cars, same dashboard.
        same_squares(mover, other, [f'[data-piece="car-{car}"]' for car in (0, 1)])
        expect(other.get_by_test_id("cars-row")).to_have_count(2)
        assert dashboard(other) == dashboard(mover)

    play_until_each_seat_played([ada, bea], seat_of, 10, same_cars)
    turn_titles_agree([ada, bea])
    screenshots([ada, bea], artifacts, "c64-cars")


def test_a_drive_runs_square_by_square(new_page: Any, live_server: str, artifacts: Path) -> None:
    """Player 1 shifts into gear 1 and drives east: her car glides along its path (an
    animation runs on the piece) and ends on the next square for both browsers' dashboards."""
    match_id, host, guest = c64_match(live_server, "c64-cars")
    driver = Driver(live_server, match_id, [host, guest])
    try:
        board = driver.state(0)["board"]
        first = board["order"][0]  # Player 1: the S side, on e1
        p1, p2 = (0, 1) if first == 0 else (1, 0)
        side_1 = board["players"][first]["side"]
        side_2 = board["players"][board["order"][1]]["side"]
        driver.take(p1, {"left_button", EAST_FACE[side_1]})
        driver.take(p2, {"left_button", EAST_FACE[side_2]})
        view = driver.state(p2)
        active = {a["id"]: a["face"] for a in view["board"]["joysticks"][view["you"]]["active"]}
        driver.send(p2, next(m for m in view["legal_moves"] if active[m["card"]] != "left_button"))
        driver.play(p1, "left_button")  # gear 1
        driver.play(p2, "left_button")  # gear 1 (and her next two cards)

        page = new_page(player=host if p1 == 0 else guest)
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.locator(f'[data-testid="cars-row"][data-seat="{first}"]')).to_have_attribute(
            "data-gear", "1"
        )
        expect(page.locator(f'[data-piece="car-{first}"]')).to_have_attribute("data-square", "e1")
        page.evaluate(
            """seat => {
                window.__carAnimated = false;
                const el = document.querySelector(`[data-piece="car-${seat}"]`);
                const watch = () => {
                  if (el.getAnimations().length) window.__carAnimated = true;
                  else requestAnimationFrame(watch);
                };
                requestAnimationFrame(watch);
            }""",
            first,
        )
        driver.play(p1, EAST_FACE[side_1])  # rule 1: drive 1 square east, e1 -> f1
        expect(page.locator(f'[data-piece="car-{first}"]')).to_have_attribute("data-square", "f1")
        page.wait_for_function("window.__carAnimated === true")
        log = page.locator('[data-testid="log-entry"] .text')
        expect(log.filter(has_text="Red drives east to f1.")).to_have_count(1)
        row = page.locator(f'[data-testid="cars-row"][data-seat="{first}"]')
        expect(row).to_have_attribute("data-facing", "E")
        animations_done(page)  # the drive ends before the picture
        page.screenshot(path=str(artifacts / "c64-cars-drive.png"), full_page=True)
    finally:
        driver.close()


def test_phone_first_board_and_joystick_share_the_screen(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue 14 item 5: at 390x844 the board and the controls of each decision (set-up cards
    and faces, a card, its space, the next faces) are on screen together, taps >= 40px."""
    phone_first_through_set_up_and_play(new_page, live_server, "c64-cars", 2, artifacts)


def test_the_facing_arrow_turns_with_the_board(new_page: Any, live_server: str) -> None:
    """Issue 14 item 4: each player sees the board from her side, so an arrow naming a car's
    facing points the way the car points on her screen: cars start facing east (ruling C8),
    which is to the left for the North player and to the right North up."""
    match_id, people = api_match(live_server, "c64-cars", FRIENDS[:2])
    for player in people:
        page = new_page(player=player)
        page.goto(f"/match/{match_id}")
        board = page.get_by_test_id("board")
        expect(page.locator(".cars-facing")).to_have_count(2)
        side = board.get_attribute("data-view")
        east = {"S": "→ east", "N": "← east"}[side or ""]
        assert page.locator(".cars-facing").all_inner_texts() == [east, east]
        if side == "N":
            page.get_by_test_id("toggle-view").click()
            expect(board).to_have_attribute("data-view", "S")
            expect(page.locator(".cars-facing")).to_have_text(["→ east", "→ east"])
