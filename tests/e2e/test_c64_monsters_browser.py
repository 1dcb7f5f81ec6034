"""Two friends play C64 Monsters in two browsers, end to end against the real server.

Asserted on what a person sees (data-testid hooks on visible elements): the joystick, the
event log, adventurers, monsters and treasures on the board and the treasure panel; and the
order of a move: the adventurer steps, then her monster steps the opposite way.
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
    words_under_pieces,
)
from tests.e2e.lobby_flow import FRIENDS, api_match, friends_start_a_match

pytestmark = pytest.mark.browser


# ------------------------------------------------------------------ helpers


def panel(page: Any) -> list[tuple[str, ...]]:
    return row_attributes(page, "monsters-row", ("data-seat", "data-carrying"))


# ------------------------------------------------------------------ tests
def test_two_friends_set_up_and_hunt(new_page: Any, live_server: str, artifacts: Path) -> None:
    (ada, bea), _invite = friends_start_a_match(new_page, "c64-monsters")
    for page in (ada, bea):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("monsters-panel")).to_be_visible()
        # Two adventurers, two monsters, two treasure discs, homes and lairs marked.
        expect(page.locator('[data-piece^="adventurer-"]')).to_have_count(2)
        expect(page.locator('[data-piece^="monster-"]')).to_have_count(2)
        expect(page.locator('[data-point^="treasure-"]')).to_have_count(2)
        expect(page.locator('[data-testid="marker-goal"]')).to_have_count(2)

    seat_of = set_up_in_every_browser([ada, bea])

    def same_pieces(mover: Any, other: Any, seat: int) -> None:
        # The other browser saw it: same pieces, same treasure panel.
        kinds = ("adventurer", "monster")
        same_squares(mover, other, [f'[data-piece="{k}-{who}"]' for who in (0, 1) for k in kinds])
        assert panel(other) == panel(mover)

    play_until_each_seat_played([ada, bea], seat_of, 10, same_pieces)
    turn_titles_agree([ada, bea])
    screenshots([ada, bea], artifacts, "c64-monsters")


def test_adventurer_steps_then_her_monster(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Player 1 (South, a1) plays Up: her adventurer steps north to a2 first, then her
    monster leaves the fort south to d3; both pieces run an animation, the monster's later."""
    match_id, host, guest = c64_match(live_server, "c64-monsters")
    driver = Driver(live_server, match_id, [host, guest])
    try:
        board = driver.state(0)["board"]
        first = board["order"][0]
        p1, p2 = (0, 1) if first == 0 else (1, 0)
        driver.take(p1, {"up", "left_button"})
        driver.take(p2, {"up", "left_button"})
        view = driver.state(p2)
        driver.send(p2, view["legal_moves"][0])

        page = new_page(player=host if p1 == 0 else guest)
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("board")).to_be_visible()
        adventurer = page.locator(f'[data-piece="adventurer-{first}"]')
        monster = page.locator(f'[data-piece="monster-{first}"]')
        expect(adventurer).to_have_attribute("data-square", "a1")
        expect(monster).to_have_attribute("data-square", "d4")
        page.evaluate(
            """seat => {
                window.__started = {};
                const t0 = performance.now();
                for (const kind of ["adventurer", "monster"]) {
                  const el = document.querySelector(`[data-piece="${kind}-${seat}"]`);
                  const watch = () => {
                    const anim = el.getAnimations()[0];
                    if (anim) {
                      // When the piece first leaves its square, relative to the move's start.
                      const timing = anim.effect.getKeyframes().find((k) => k.offset > 0 &&
                        k.transform !== anim.effect.getKeyframes()[0].transform);
                      window.__started[kind] = timing ? timing.computedOffset : 0;
                    } else requestAnimationFrame(watch);
                  };
                  requestAnimationFrame(watch);
                }
                window.__t0 = t0;
            }""",
            first,
        )
        driver.play(p1, "up")
        expect(adventurer).to_have_attribute("data-square", "a2")
        expect(monster).to_have_attribute("data-square", "d3")
        page.wait_for_function("Object.keys(window.__started).length === 2")
        started = page.evaluate("window.__started")
        assert started["adventurer"] < started["monster"], started
        log = page.locator('[data-testid="log-entry"] .text')
        expect(log.filter(has_text="Red moves north to a2.")).to_have_count(1)
        expect(log.filter(has_text="Red's monster moves south to d3.")).to_have_count(1)
        animations_done(page)  # the move ends before the picture
        page.screenshot(path=str(artifacts / "c64-monsters-move.png"), full_page=True)
    finally:
        driver.close()


def test_phone_first_board_and_joystick_share_the_screen(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue 14 item 5: at 390x844 the board and the controls of each decision (set-up cards
    and faces, a card, its space, the next faces) are on screen together, taps >= 40px."""
    phone_first_through_set_up_and_play(new_page, live_server, "c64-monsters", 2, artifacts)


def test_lair_and_home_words_are_never_covered(new_page: Any, live_server: str) -> None:
    """Issue 14 item 10: a treasure disc covered the LAIR word (ruling C6: monster and
    treasure start on the centre square), and the legend spoke of a "fort" nothing on the
    board is called. Every seat sees the board from her side, so every view is checked."""
    match_id, people = api_match(live_server, "c64-monsters", FRIENDS[:4])
    for player in people:
        page = new_page(player=player)
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("board")).to_be_visible()
        labels = page.get_by_test_id("monsters-label")
        expect(labels).to_have_count(8)
        assert sorted(labels.all_text_contents()) == ["HOME"] * 4 + ["LAIR"] * 4
        assert (
            words_under_pieces(page, '[data-testid="monsters-label"]', ".monsters-treasure .gp")
            == []
        )
        # The words are drawn after (over) every piece: a monster at home never hides one.
        assert page.evaluate(
            """() => {
              const label = document.querySelector('[data-testid="monsters-label"]');
              return [...document.querySelectorAll('[data-testid="piece"], [data-testid="point"]')]
                .every((p) => p.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING);
            }"""
        )
        legend = page.locator(".board-legend").inner_text().lower()
        assert "lair" in legend and "fort" not in legend, legend
