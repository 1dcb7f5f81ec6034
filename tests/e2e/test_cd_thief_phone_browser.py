"""CD Thief on a phone (issue 14 item 5): at 390x844 the hotel map and the controls for the
decision at hand share the screen, and every square she can tap is at least 40px.

The map (21 x 17 squares) is far too dense at phone width, so it sits in a scrolling viewport
at 46px a square, centred on the thief to move and her highlighted squares; "Whole map" shows
all of it and a tap there zooms back in. A real match is played on two phones for the roll and
the choice of a square; the battle and Frantic Mode decisions, which a real match reaches only
by chance, are fed to the renderer on a page laid out like the match page. Pieces are told
apart by letter or shape as well as colour (issue item 10).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.engine.dice import Dice
from app.engine.registry import get_game
from tests.e2e.lobby_flow import api_match
from tests.e2e.phone import PHONE, assert_phone_table
from tests.e2e.test_cd_thief_browser import ROOT, update, wire

pytestmark = pytest.mark.browser

GAME = get_game("cd-thief")
assert GAME is not None

# Whether a square's box lies inside the board's viewport (what the player sees of the map).
IN_VIEW = """(el) => {
  const viewport = document.querySelector('[data-testid="cd-viewport"]').getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return r.left >= viewport.left - 1 && r.right <= viewport.right + 1
    && r.top >= viewport.top - 1 && r.bottom <= viewport.bottom + 1;
}"""


def settled(page: Any) -> None:
    expect(page.locator(ROOT)).to_have_attribute("data-busy", "false")


def in_view(locator: Any) -> bool:
    return bool(locator.evaluate(IN_VIEW))


def test_a_phone_shows_the_map_zoomed_on_the_thief_with_the_decision_beside_it(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, players = api_match(live_server, "cd-thief", ("Ada", "Bea"))
    pages = [new_page(**PHONE, player=player) for player in players]
    for page in pages:
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("cd-board")).to_be_visible()
        settled(page)  # the first state is drawn: who has the roll is settled
    mover = next(page for page in pages if page.get_by_test_id("cd-roll").is_visible())
    other = pages[1] if mover is pages[0] else pages[0]
    seat = int(mover.locator(ROOT).get_attribute("data-you") or -1)
    thief = mover.get_by_test_id(f"cd-piece-thief-{seat}")

    # The roll: board and Roll button on screen, the map zoomed on her at the Hotel Exit.
    assert_phone_table(mover)
    assert_phone_table(other, controls=False)
    assert in_view(thief), "the thief to move is centred in the board's viewport"
    width = mover.get_by_test_id("cd-board").evaluate("el => el.getBoundingClientRect().width")
    assert width / 21 >= 40, f"the zoomed map is drawn at {width / 21:.0f}px a square"
    mover.screenshot(path=str(artifacts / "cd-thief-phone-roll.png"))

    # The choice of a square: every highlighted square is a 40px+ target, some in view.
    mover.get_by_test_id("cd-roll").click()
    expect(mover.locator(ROOT)).to_have_attribute("data-phase", "move")
    settled(mover)
    targets = mover.locator('[data-testid^="cd-target-"]')
    expect(targets.first).to_be_attached()
    assert_phone_table(mover)
    assert any(in_view(targets.nth(i)) for i in range(targets.count()))
    assert in_view(thief)
    mover.screenshot(path=str(artifacts / "cd-thief-phone-targets.png"))

    # Whole map: all of it on screen; its squares are too small to tap, so a tap zooms in there.
    zoom = mover.get_by_test_id("cd-zoom")
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "true")
    assert_phone_table(mover)
    assert in_view(mover.get_by_test_id("cd-board"))
    last = targets.last
    testid = last.get_attribute("data-testid") or ""
    x, y = (int(v) for v in testid.split("-")[-2:])
    mover.screenshot(path=str(artifacts / "cd-thief-phone-whole.png"))
    box = last.bounding_box()
    assert box is not None
    mover.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(zoom).to_have_attribute("aria-pressed", "false")
    assert in_view(last), "a tap on the whole map zooms in on the tapped square"
    assert_phone_table(mover)

    # Now the square itself is tapped: she moves, and the other phone has the roll to make.
    last.click()
    for page in pages:
        expect(page.get_by_test_id(f"cd-piece-thief-{seat}")).to_have_attribute("data-x", str(x))
        expect(page.get_by_test_id(f"cd-piece-thief-{seat}")).to_have_attribute("data-y", str(y))
    expect(other.get_by_test_id("cd-roll")).to_be_visible()
    settled(other)
    assert_phone_table(other)
    other_seat = 1 - seat
    assert in_view(other.get_by_test_id(f"cd-piece-thief-{other_seat}"))


# --- decisions a real match reaches only by chance -------------------------------------------
# The renderer on a page laid out like the match page: the table's room starts as far down as
# on the real page at 390x844 (header, match head and turn banner above it).
PHONE_PAGE = """
<!doctype html><html><head><link rel="stylesheet" href="/static/css/arcade.css"></head>
<body><main><div class="cdt-test-chrome"></div>
<section id="game-view"><div id="game-root"></div></section></main></body></html>
"""

MOUNT = """async (chrome) => {
  document.querySelector(".cdt-test-chrome").style.height = `${chrome}px`;
  const root = document.getElementById("game-root");
  // as match.js measures it: from the top of #game-root to the bottom of the screen
  const top = root.getBoundingClientRect().top + window.scrollY;
  root.style.setProperty("--table-room", `${Math.floor(window.innerHeight - top - 8)}px`);
  const module = await import("/static/js/games/cd-thief.js");
  window.cdRenderer = module.createRenderer(root, {
    you: 0, submit: (move) => { window.cdSubmitted = move; return Promise.resolve(); },
  });
}"""

CHROME_PX = 190  # header, match head and a two-line turn banner on a 390px-wide match page


def phone_renderer(new_page: Any) -> Any:
    page = new_page(**PHONE)
    page.goto("/static/css/arcade.css")  # same origin as the modules, no app script running
    page.set_content(PHONE_PAGE)
    page.evaluate(MOUNT, CHROME_PX)
    return page


def mid_game(seed: str) -> dict[str, Any]:
    state = GAME.setup(2, GAME.parse_options({}), Dice(seed, 0))
    state["turn"] = {
        "seat": 0,
        "number": 12,
        "phase": "roll",
        "dice": None,
        "targets": [],
        "battled": [],
    }
    return state


def test_a_battle_on_a_phone(new_page: Any, live_server: str, artifacts: Path) -> None:
    """Rulebook "Podcaster Encounter" (D5): Scott next to Red at the start of her turn; the
    Battle button and the two of them are on screen together."""
    state = mid_game("phone-battle")
    state["thieves"][0]["pos"] = [16, 8]
    state["podcasters"]["scott"] = [17, 7]
    state["turn"]["phase"] = "battle"
    page = phone_renderer(new_page)
    update(page, wire(state, 0, 1), [])
    expect(page.get_by_test_id("cd-battle")).to_be_visible()
    assert_phone_table(page)
    assert in_view(page.get_by_test_id("cd-piece-thief-0"))
    assert in_view(page.get_by_test_id("cd-piece-pod-scott"))
    page.get_by_test_id("cd-battle").click()
    assert page.evaluate("() => window.cdSubmitted") == {"type": "battle"}
    page.screenshot(path=str(artifacts / "cd-thief-phone-battle.png"))


def test_frantic_mode_on_a_phone(new_page: Any, live_server: str, artifacts: Path) -> None:
    """D9: the Frantic Mode banner joins the controls; the board shrinks to keep both on
    screen, and after the roll her squares toward the exit are 40px targets in view."""
    state = mid_game("phone-frantic")
    state["thieves"][0].update(pos=[10, 11], backpack=["cds", "key", "studson"], opened=["casino"])
    for item in ("cds", "red-key", "red-studson"):
        del state["items"][item]
    state["frantic"] = 0
    page = phone_renderer(new_page)
    update(page, wire(state, 0, 1), [])
    expect(page.get_by_test_id("cd-frantic")).to_be_visible()
    assert_phone_table(page)
    rolled, events = GAME.apply(state, 0, {"type": "roll"}, Dice("phone-frantic", 1))
    update(page, wire(rolled, 0, 2), events)
    assert_phone_table(page)
    targets = page.locator('[data-testid^="cd-target-"]')
    assert targets.count() == len(rolled["turn"]["targets"])
    assert any(in_view(targets.nth(i)) for i in range(targets.count()))
    page.screenshot(path=str(artifacts / "cd-thief-phone-frantic.png"))


def test_pieces_are_told_apart_by_letter_and_thieves_sharing_a_square_by_place(
    new_page: Any, live_server: str
) -> None:
    """Issue item 10: every piece is distinguishable by letter or shape as well as colour:
    thieves are discs marked with their colour's initial, items carry their owner's initial
    ("RK" is Red's key, "GK" Green's). Ruling D11 (amended 2026-11-24) lets thieves share a
    Hotel Exit square: both are drawn, side by side, not one hidden under the other."""
    state = mid_game("phone-letters")
    state["thieves"][1]["pos"] = [8, 15]  # on Red's start square, with Red
    page = phone_renderer(new_page)
    update(page, wire(state, 0, 1), [])
    red, green = (page.get_by_test_id(f"cd-piece-thief-{seat}") for seat in (0, 1))
    expect(red.locator("text")).to_have_text("R")
    expect(green.locator("text")).to_have_text("G")
    expect(page.get_by_test_id("cd-item-red-key").locator("text")).to_have_text("RK")
    expect(page.get_by_test_id("cd-item-green-key").locator("text")).to_have_text("GK")
    expect(page.get_by_test_id("cd-item-green-studson").locator("text")).to_have_text("GS")
    boxes = [piece.locator("circle").bounding_box() for piece in (red, green)]
    assert boxes[0] is not None and boxes[1] is not None
    apart = (
        boxes[0]["x"] + boxes[0]["width"] <= boxes[1]["x"] + 0.5
        or boxes[1]["x"] + boxes[1]["width"] <= boxes[0]["x"] + 0.5
    )
    assert apart, f"two thieves on one square overlap: {boxes}"
    assert in_view(red) and in_view(green)
