"""Tactrics on a phone (390x844) and for every seat: the four games keep the board and the
current decision's controls on screen with 40px tap targets (issue 14 item 5, checked with
tests/e2e/phone.py), every player sees the board from her own side with arrows that turn
the way they point (item 4, rulings V2 and V10), and pieces are told apart by letter and
shape as well as colour (item 10)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import version
from tests.e2e.lobby_flow import api_match, auth, legal_moves
from tests.e2e.phone import PHONE, assert_phone_table

pytestmark = pytest.mark.browser

LEGAL_TOWER = '[data-testid="tower"][data-legal="true"]'


def open_match(new_page: Any, match_id: str, player: dict[str, str], **size: int) -> Any:
    page = new_page(player=player, **(size or PHONE))
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("tactrics")).to_have_attribute("data-styled", "true")
    return page


def post(base: str, match_id: str, player: dict[str, str], move: dict[str, Any]) -> None:
    with httpx.Client(base_url=base) as client:
        sent = client.post(
            f"/api/matches/{match_id}/moves", json={"move": move}, headers=auth(player)
        )
        assert sent.status_code == 200, sent.text


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def select_tower(page: Any, tower: str) -> None:
    knob = page.locator(f'[data-testid="tower"][data-tower="{tower}"]')
    knob.click()
    expect(knob).to_have_attribute("data-selected", "true")


def turn_on_board(page: Any, direction: str) -> None:
    before = version(page)
    page.get_by_test_id(f"board-rotate-{direction}").click()
    expect(page.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))


# ---------------------------------------------------------------- item 5: phone first


def test_crossing_on_a_phone(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, (ada, bea) = api_match(live_server, "tactrics-crossing")
    mine, theirs = open_match(new_page, match_id, ada), open_match(new_page, match_id, bea)
    assert_phone_table(mine)  # her turn: tap a tower
    assert_phone_table(theirs, controls=False)  # waiting: the board only
    tower = mine.locator(f'{LEGAL_TOWER}:not([data-tower="T11"])').first.get_attribute("data-tower")
    select_tower(mine, tower or "")
    assert_phone_table(mine)  # the arrows beside the tower, the panel's buttons below
    mine.screenshot(path=str(artifacts / "tactrics-phone-crossing-arrows.png"))
    turn_on_board(mine, "cw")
    assert_phone_table(mine)  # no action left: undo or end turn
    mine.get_by_test_id("confirm").click()
    expect(theirs.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    assert_phone_table(theirs)
    theirs.screenshot(path=str(artifacts / "tactrics-phone-crossing-bea.png"))


def place_a_controller(page: Any, placed: int) -> None:
    """Taps one of her routers until the board shows `placed` controllers: on a busy machine a
    tap can land on a router the board is just redrawing (for the previous placement's own
    frames), and is lost, as a person's tap would be; she taps again."""
    controllers = page.locator('[data-testid="controller"]')
    for _attempt in range(4):
        page.locator('[data-testid="router"].clickable').first.click()
        try:
            expect(controllers).to_have_count(placed, timeout=4000)
            return
        except AssertionError:
            continue
    expect(controllers).to_have_count(placed)


def test_crossing_advanced_on_a_phone(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, (ada, bea) = api_match(live_server, "tactrics-crossing-advanced")
    page = open_match(new_page, match_id, ada)
    expect(page.get_by_test_id("tactrics")).to_have_attribute("data-phase", "setup")
    assert_phone_table(page)  # set-up (V7): her routers are the buttons
    for placed in (1, 2):
        place_a_controller(page, placed)
    for move in [m for m in legal_moves(live_server, match_id, bea) if m["type"] == "place"][:2]:
        post(live_server, match_id, bea, move)
    expect(page.get_by_test_id("tactrics")).to_have_attribute("data-phase", "play")
    assert_phone_table(page)
    # A tower she may claim (V7): the claim is a button under the board, on screen.
    claim = next(m for m in legal_moves(live_server, match_id, ada) if m["type"] == "claim")
    select_tower(page, claim["tower"])
    expect(page.get_by_test_id("action-option").first).to_be_visible()
    assert_phone_table(page)
    page.screenshot(path=str(artifacts / "tactrics-phone-advanced-claim.png"))
    page.get_by_test_id("action-option").first.click()
    expect(page.get_by_test_id("actions-left")).to_have_text("0 of 1 action left")
    assert_phone_table(page)
    # Moving a controller: tap it, then one of the highlighted routers.
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("actions-left")).to_have_text("1 of 1 action left")
    page.locator('[data-testid="router"].clickable').first.click()
    expect(page.locator('[data-testid="slot-target"], .tac-router.target').first).to_be_visible()
    assert_phone_table(page)


def test_cat_and_mouse_on_a_phone(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, (mouse_player, cats_player) = api_match(live_server, "tactrics-cat-mouse")
    mouse, cats = (open_match(new_page, match_id, p) for p in (mouse_player, cats_player))
    assert_phone_table(mouse)
    assert_phone_table(cats, controls=False)
    select_tower(mouse, mouse.locator(LEGAL_TOWER).first.get_attribute("data-tower") or "")
    assert_phone_table(mouse)
    turn_on_board(mouse, "ccw")
    assert_phone_table(mouse)
    mouse.get_by_test_id("confirm").click()
    expect(cats.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    assert_phone_table(cats)
    select_tower(cats, cats.locator(LEGAL_TOWER).first.get_attribute("data-tower") or "")
    assert_phone_table(cats)
    cats.screenshot(path=str(artifacts / "tactrics-phone-cats.png"))


def test_solitary_on_a_phone(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, (solo,) = api_match(live_server, "tactrics-solitary", ["Solo"], {"colours": 3})
    page = open_match(new_page, match_id, solo)
    assert_phone_table(page)
    select_tower(page, "T33")
    assert_phone_table(page)
    turn_on_board(page, "cw")
    expect(page.get_by_test_id("undo")).to_be_enabled()
    assert_phone_table(page)
    page.screenshot(path=str(artifacts / "tactrics-phone-solitary.png"))


# ---------------------------------------------------------------- item 4: her own side


def test_every_player_sees_her_start_at_the_bottom(new_page: Any, live_server: str) -> None:
    """Chess sites turn the board for black; a Tactrics player sees her start tower where the
    first player sees hers (bottom left, or on a phone bottom centre). The view turns in sixths
    of a turn, so the hexagon, its slots and clockwise stay what they are."""
    match_id, (ada, bea) = api_match(live_server, "tactrics-crossing")  # T11 / T53 (4(d))
    ada_desk, bea_desk = (
        open_match(new_page, match_id, p, width=1280, height=900) for p in (ada, bea)
    )
    ada_spot = centre(ada_desk, '[data-testid="tower"][data-tower="T11"]')
    bea_spot = centre(bea_desk, '[data-testid="tower"][data-tower="T53"]')
    assert math.dist(ada_spot, bea_spot) < 2, (ada_spot, bea_spot)
    bea_phone = open_match(new_page, match_id, bea)
    board = bea_phone.get_by_test_id("board").bounding_box()
    assert board is not None
    x, y = centre(bea_phone, '[data-testid="tower"][data-tower="T53"]')
    assert abs(x - (board["x"] + board["width"] / 2)) < 2, "her start is at the bottom centre"
    assert y > board["y"] + 0.75 * board["height"]
    # Her opponent's start is across the board, at the top.
    _, far = centre(bea_phone, '[data-testid="tower"][data-tower="T11"]')
    assert far < board["y"] + 0.25 * board["height"]


BOARD_STILL = """() => !document.querySelector('[data-testid="board"]')
  .getAnimations({ subtree: true }).some((a) => a.playState === "running")"""

SCREEN_ANGLES = """([tower, colour]) => {
  // Angles on screen (degrees, y down: growing clockwise) of `colour`'s routers on the six
  // slots around `tower`, from the tower's centre to each triangle's centroid.
  const svg = document.querySelector('[data-testid="board"]');
  const ctm = svg.getScreenCTM();
  const onScreen = (x, y) => new DOMPoint(x, y).matrixTransform(ctm);
  const knob = `[data-testid="tower"][data-tower="${tower}"]`;
  const disc = document.querySelector(`${knob} .tac-knob-disc`);
  const c = onScreen(disc.cx.baseVal.value, disc.cy.baseVal.value);
  const near = 1.25 * disc.r.baseVal.value / 0.46 * ctm.a;  // within 1.25 board units
  const pieces = `[data-testid="router"][data-colour="${colour}"] .tac-piece`;
  return [...document.querySelectorAll(pieces)]
    .map((piece) => {
      const pts = [...piece.points].map((p) => onScreen(p.x, p.y));
      const x = pts.reduce((s, p) => s + p.x, 0) / 3, y = pts.reduce((s, p) => s + p.y, 0) / 3;
      const angle = (Math.atan2(y - c.y, x - c.x) * 180 / Math.PI + 360) % 360;
      return [Math.hypot(x - c.x, y - c.y), angle];
    })
    .filter(([d]) => d < near).map(([, a]) => a).sort((a, b) => a - b);
}"""


@pytest.mark.parametrize("size", [PHONE, {"width": 1280, "height": 900}])
def test_arrows_turn_the_way_they_point_on_her_turned_board(
    new_page: Any, live_server: str, size: dict[str, int]
) -> None:
    """Bea's board is turned half round; her clockwise arrow (↻) still turns the tower
    clockwise as she sees it (V2), one sixth of a turn."""
    match_id, (ada, bea) = api_match(live_server, "tactrics-crossing")
    post(live_server, match_id, ada, {"type": "confirm"})  # Ada passes her one action (V4)
    page = open_match(new_page, match_id, bea, **size)
    expect(page.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    before = page.evaluate(SCREEN_ANGLES, ["T43", "blue"])  # T43 shares E6, E7 with her T53
    assert len(before) == 2
    select_tower(page, "T43")
    expect(page.get_by_test_id("board-rotate-cw").locator("text")).to_have_text("↻")
    turn_on_board(page, "cw")
    page.wait_for_function(BOARD_STILL)
    after = page.evaluate(SCREEN_ANGLES, ["T43", "blue"])
    turned = sorted((a - 60) % 360 for a in after)
    assert len(turned) == 2
    assert all(
        min(abs(t - b), 360 - abs(t - b)) <= 2 for t, b in zip(turned, before, strict=True)
    ), (before, after)


# ---------------------------------------------------------------- item 10: tell pieces apart


def relative_luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_controllers_carry_their_players_letter(new_page: Any, live_server: str) -> None:
    """Crossing Advanced controllers were white rings nobody told apart: each is now a dark
    disc ringed in its owner's colour with her letter, on routers and on claimed towers."""
    match_id, (ada, bea) = api_match(live_server, "tactrics-crossing-advanced")  # red, blue
    for player in (ada, bea):
        for move in [m for m in legal_moves(live_server, match_id, player) if m["type"] == "place"][
            :2
        ]:
            post(live_server, match_id, player, move)
    claim = next(m for m in legal_moves(live_server, match_id, ada) if m["type"] == "claim")
    post(live_server, match_id, ada, claim)
    page = open_match(new_page, match_id, bea)
    controllers = page.locator('[data-testid="controller"]')
    expect(controllers).to_have_count(3)
    letters = {"red": "R", "blue": "B"}
    for router in page.locator('[data-testid="router"]:has([data-testid="controller"])').all():
        colour = router.get_attribute("data-colour") or ""
        expect(router.get_by_test_id("controller")).to_have_text(letters[colour])
    bare = page.locator('[data-testid="router"]:not(:has([data-testid="controller"]))')
    for router in bare.all():
        colour = router.get_attribute("data-colour") or ""
        expect(router.get_by_test_id("router-letter")).to_have_text(letters[colour])
    claimed = page.locator(f'[data-testid="tower"][data-tower="{claim["tower"]}"]')
    expect(claimed.get_by_test_id("claim")).to_have_text("R")
    expect(page.get_by_test_id("player-chip").first.locator("i")).to_have_text("R")


def test_cats_and_mouse_stand_out_on_the_dark_board(new_page: Any, live_server: str) -> None:
    """Black cats vanished on the dark board: each has a light outline (WCAG 1.4.11, 3:1 and
    at least 3px on a phone) and a cat's face, the mouse a mouse's face (not an emoji a
    phone may lack)."""
    match_id, players = api_match(live_server, "tactrics-cat-mouse")
    page = open_match(new_page, match_id, players[0])
    board = page.locator(".tac-slot").first.evaluate("(el) => getComputedStyle(el).fill")
    cats = page.locator('[data-testid="router"][data-colour="black"]')
    expect(cats).to_have_count(4)
    for cat in cats.all():
        expect(cat.get_by_test_id("cat")).to_have_count(1)
        stroke, width = cat.locator(".tac-piece").evaluate(
            """(el) => {
              const style = getComputedStyle(el);
              const scale = el.ownerSVGElement.getScreenCTM().a;
              return [style.stroke, parseFloat(style.strokeWidth) * scale];
            }"""
        )
        assert contrast(stroke, board) >= 3, (stroke, board)
        assert width >= 3, f"the outline is {width:.1f}px"
    expect(
        page.locator('[data-testid="router"][data-colour="red"] [data-testid="mouse"]')
    ).to_have_count(1)
