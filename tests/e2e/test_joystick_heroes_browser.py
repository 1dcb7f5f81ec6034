"""Two friends play the first round of Joystick Heroes in two browsers, end to end against the
real server: genres, moves to Games cards, the dice rolling on both screens, the POWER UP
done by both, then round 2. Screenshots go to test-artifacts/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import version
from tests.e2e.lobby_flow import api_match, auth, fits_width

pytestmark = pytest.mark.browser

GAME = "joystick-heroes"


def started_match(base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    match_id, (host, guest) = api_match(base, GAME, ("Ada", "Bea"))
    return match_id, host, guest


# What a player clicks, in order of preference: decline questions, go to a card, roll,
# collect, finish shopping, skip when stuck.
ACTIONS = [
    '[data-testid="answer-no"]',
    '[data-testid="arcade-spot"][data-legal="true"]',
    '[data-testid="roll"]',
    '[data-testid="collect"]',
    '[data-testid="powerup-done"]',
    '[data-testid="skip-turn"]',
]


def act(page: Any) -> str | None:
    """The page's player makes one move if she has one; returns what she clicked."""
    if page.get_by_test_id("turn-banner").get_attribute("data-mine") != "true":
        return None
    for selector in ACTIONS:
        target = page.locator(selector).first
        if target.count() and target.is_visible():
            before = version(page)
            target.click()
            expect(page.get_by_test_id("game-root")).not_to_have_attribute(
                "data-version", str(before)
            )
            return selector
    return None


def test_two_friends_play_a_round(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, host, guest = started_match(live_server)
    ada = new_page(player=host)
    bea = new_page(player=guest)
    for page in (ada, bea):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("arcade-spot")).to_have_count(5)  # H2: players + 3
        expect(page.get_by_test_id("hero-board")).to_have_count(2)

    # Set-up, both at once: each picks her two genres.
    for page in (ada, bea):
        expect(page.get_by_test_id("genre-choice")).to_have_count(6)
        page.get_by_test_id("genre-choice").first.click()
    for page in (ada, bea):
        expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "play")
        # Hands are private: 3 cards of your own, the other's only as a count.
        expect(page.get_by_test_id("power-card")).to_have_count(3)
        expect(page.get_by_test_id("hand-count").first).to_contain_text("3")

    clicks: list[str] = []
    rolled_seen = False
    shopped = 0
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if ada.get_by_test_id("phase").get_attribute("data-phase") == "play" and shopped >= 2:
            break
        moved = False
        for page, other in ((ada, bea), (bea, ada)):
            clicked = act(page)
            if clicked is None:
                continue
            moved = True
            clicks.append(clicked)
            if clicked == '[data-testid="roll"]':
                # The roll shows on both screens: the same dice and the same Game die face.
                tray = page.get_by_test_id("dice-tray")
                expect(tray.get_by_test_id("game-die")).not_to_have_attribute("data-face", "")
                face = tray.get_by_test_id("game-die").get_attribute("data-face")
                expect(other.get_by_test_id("game-die")).to_have_attribute("data-face", face or "")
                dice = tray.get_by_test_id("scoring-die").count()
                expect(other.get_by_test_id("scoring-die")).to_have_count(dice)
                if not rolled_seen:
                    # The other player holds cards, so she is asked about Tilt! whether she
                    # holds one or not (the question gives nobody away); without one her page
                    # passes for her after a short pause.
                    expect(other.get_by_test_id("question-text")).to_have_attribute(
                        "data-kind", "tilt"
                    )
                    other.screenshot(path=str(artifacts / "joystick-heroes-reaction.png"),
                                     full_page=True)
                    page.screenshot(path=str(artifacts / "joystick-heroes-roll.png"),
                                    full_page=True)
                rolled_seen = True
            if clicked == '[data-testid="powerup-done"]':
                shopped += 1
                if shopped == 1:
                    expect(page.get_by_test_id("powerup-waiting")).to_be_visible()
                    page.screenshot(path=str(artifacts / "joystick-heroes-powerup.png"),
                                    full_page=True)
        if not moved:
            ada.wait_for_timeout(150)
    assert rolled_seen, f"nobody rolled: {clicks}"
    assert shopped == 2, f"both must finish the POWER UP: {clicks}"
    for page in (ada, bea):
        expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "play")
        expect(page.get_by_test_id("jh-status")).to_contain_text("Round 2")
    # The log tells the story in words on both screens.
    expect(ada.locator('[data-testid="log-entry"]').filter(has_text="rolls").first).to_be_visible()
    power_up_line = bea.locator('[data-testid="log-entry"]').filter(has_text="POWER UP")
    expect(power_up_line.first).to_be_visible()
    ada.screenshot(path=str(artifacts / "joystick-heroes-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "joystick-heroes-bea.png"), full_page=True)


def test_phone_width_shows_the_arcade_without_scrolling_sideways(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    width = 390
    match_id, host, _guest = started_match(live_server)
    page = new_page(width=width, height=844, player=host)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("arcade")).to_be_visible()
    page.get_by_test_id("genre-choice").first.click()
    expect(page.get_by_test_id("power-card")).to_have_count(3)
    assert fits_width(page, width)
    page.screenshot(path=str(artifacts / "joystick-heroes-phone.png"), full_page=True)


def quick_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A fast, simple player for driving a match over HTTP: says no, goes to the first free
    card, rolls, collects, buys Prizes."""
    for wanted in ({"type": "answer", "accept": False}, {"type": "buy", "item": "prize"}):
        if wanted in legal:
            return wanted
    for kind in ("choose_genres", "move_to", "roll", "reroll", "done"):
        for move in legal:
            if move["type"] == kind:
                return move
    return legal[0]


def test_a_finished_game_shows_the_prizes_per_round_chart(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, host, guest = started_match(live_server)
    players = [host, guest]
    with httpx.Client(base_url=live_server) as client:
        for number in range(2000):
            views = [
                client.get(f"/api/matches/{match_id}", headers=auth(p)).json() for p in players
            ]
            if views[0]["status"] == "finished":
                break
            seat = next(i for i, v in enumerate(views) if v["view"]["legal_moves"])
            move = quick_move(views[seat]["view"]["legal_moves"])
            answer = client.post(
                f"/api/matches/{match_id}/moves", json={"move": move, "id": f"m{number}"},
                headers=auth(players[seat]),
            )
            assert answer.status_code == 200, answer.text
    assert views[0]["status"] == "finished"
    page = new_page(player=host)
    page.goto(f"/match/{match_id}")
    chart = page.get_by_test_id("prize-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(2)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "over")
    chart.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "joystick-heroes-end.png"), full_page=True)

    # The replay's move list shows each roll's Scoring dice as numbers (200, 300): every die
    # chip keeps its number on one line instead of breaking it inside the shared 22px chip.
    page.goto(f"/replay/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    dice = page.locator('[data-testid="replay-move"] [data-testid="die"]')
    expect(dice.first).to_be_attached()
    sizes = dice.evaluate_all(
        "els => els.map(e => [e.textContent, e.scrollWidth, e.clientWidth, e.scrollHeight,"
        " e.clientHeight])"
    )
    cramped = [s for s in sizes if s[1] > s[2] or s[3] > s[4]]
    assert not cramped, f"die chips too narrow for their numbers: {cramped[:5]}"
