"""Tactrics in the browser, end to end against the real server: two friends play Crossing
in two browser contexts (lobby, turning towers, undo, confirm, the other side seeing it), and
one player plays Solitary (rotation count, undo). Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.games.tactrics.board import EDGES, TOWER_SLOTS, distances_to
from tests.e2e.c64_browser import log_texts, version
from tests.e2e.lobby_flow import api_match, auth, fits_width, friends_start_a_match

pytestmark = pytest.mark.browser

LEGAL_TOWER = '[data-testid="tower"][data-legal="true"]'


def routers(page: Any) -> dict[str, str]:
    """slot -> colour of every router drawn on the page's board."""
    cells = page.locator('[data-testid="router"]')
    return {
        cells.nth(i).get_attribute("data-slot"): cells.nth(i).get_attribute("data-colour")
        for i in range(cells.count())
    }


def turn_a_tower(page: Any, direction: str = "cw", skip: str = "", on_board: bool = False) -> str:
    """Clicks the first highlighted tower (other than `skip`) and turns it with the panel's
    button, or with the arrow drawn beside it on the board; returns its id."""
    knob = page.locator(f'{LEGAL_TOWER}:not([data-tower="{skip}"])').first
    tower = knob.get_attribute("data-tower") or ""
    knob.click()
    expect(page.locator(f'[data-testid="tower"][data-tower="{tower}"]')).to_have_attribute(
        "data-selected", "true"
    )
    before = version(page)
    page.get_by_test_id(f"{'board-' if on_board else ''}rotate-{direction}").click()
    expect(page.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))
    return tower


def test_two_friends_play_crossing(new_page: Any, live_server: str, artifacts: Path) -> None:
    (ada, bea), invite = friends_start_a_match(new_page, "tactrics-crossing")
    for page in (ada, bea):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.locator('[data-testid="router"]')).to_have_count(12)  # 6 each (V10)
    start = routers(ada)
    assert set(start.values()) == {"red", "blue"}

    # Turn 1 (V4): Ada, seat 0, has one action; Bea waits and sees no highlighted tower.
    expect(ada.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    expect(bea.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "false")
    expect(ada.get_by_test_id("actions-left")).to_have_text("1 of 1 action left")
    expect(bea.locator(LEGAL_TOWER)).to_have_count(0)
    assert ada.locator(LEGAL_TOWER).count() > 0

    turn_a_tower(ada, "cw", skip="T11")  # T11 holds six red routers: turning it shows nothing
    expect(ada.get_by_test_id("actions-left")).to_have_text("0 of 1 action left")
    expect(ada.locator(LEGAL_TOWER)).to_have_count(0)  # no action left: only undo or confirm
    moved = routers(ada)
    assert moved != start
    expect(bea.get_by_test_id("game-root")).to_have_attribute("data-version", "1")
    assert routers(bea) == moved  # Bea sees the turned tower

    # Undo restores the position exactly; then Ada turns the other way and confirms.
    ada.get_by_test_id("undo").click()
    expect(ada.get_by_test_id("game-root")).to_have_attribute("data-version", "2")
    assert routers(ada) == start
    turn_a_tower(ada, "ccw", skip="T11")
    ada.get_by_test_id("confirm").click()
    expect(ada.get_by_test_id("game-root")).to_have_attribute("data-version", "4")
    lines = log_texts(ada, 4)
    assert any("ends the turn" in line for line in lines), lines
    expect(bea.get_by_test_id("game-root")).to_have_attribute("data-version", "4")
    assert log_texts(bea, 4) == lines

    # Turn 2: Bea has two actions.
    expect(bea.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    expect(bea.get_by_test_id("actions-left")).to_have_text("2 of 2 actions left")
    turn_a_tower(bea, "cw", skip="T53")
    turn_a_tower(bea, "cw", skip="T53", on_board=True)
    expect(bea.get_by_test_id("actions-left")).to_have_text("0 of 2 actions left")
    bea.get_by_test_id("confirm").click()
    expect(ada.get_by_test_id("game-root")).to_have_attribute("data-version", "7")
    assert routers(ada) == routers(bea)
    expect(ada.get_by_test_id("actions-left")).to_have_text("3 of 3 actions left")
    ada.screenshot(path=str(artifacts / "tactrics-crossing-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "tactrics-crossing-bea.png"), full_page=True)

    # A friend watches on a phone: the same board, nothing to click, no sideways scrolling.
    watcher = new_page(width=390, height=844)
    watcher.goto(invite)
    expect(watcher.get_by_test_id("board")).to_be_visible()
    expect(watcher.get_by_test_id("game-root")).to_have_attribute("data-version", "7")
    assert routers(watcher) == routers(ada)
    expect(watcher.locator(LEGAL_TOWER)).to_have_count(0)
    assert fits_width(watcher, 390)
    watcher.screenshot(path=str(artifacts / "tactrics-crossing-phone.png"), full_page=True)


def test_solitary_counts_rotations(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, (solo,) = api_match(live_server, "tactrics-solitary", ["Solo"], {"colours": 2})

    page = new_page(width=390, height=844, player=solo)  # phone width
    page.goto(f"/match/{match_id}")
    board = page.get_by_test_id("board")
    expect(board).to_be_visible()
    expect(page.locator('[data-testid="router"]')).to_have_count(12)
    expect(page.locator(LEGAL_TOWER)).to_have_count(19)  # any tower turns (V9)
    counter = page.get_by_test_id("actions-left")
    expect(counter).to_have_attribute("data-rotations", "0")
    assert fits_width(page, 390), "no sideways scroll"
    expect(page.get_by_test_id("solitary-time")).to_have_text(re.compile(r"^Time \d+:\d\d$"))

    start = routers(page)
    page.locator('[data-testid="tower"][data-tower="T33"]').click()
    # On a phone the turn arrows appear on the board beside the tower, no scrolling needed.
    arrow = page.get_by_test_id("board-rotate-cw")
    expect(arrow).to_be_in_viewport()
    expect(arrow).to_have_attribute("data-tower", "T33")
    page.screenshot(path=str(artifacts / "tactrics-solitary-phone-arrows.png"))
    arrow.click()
    expect(counter).to_have_attribute("data-rotations", "1")
    page.locator('[data-testid="tower"][data-tower="T22"]').click()
    page.get_by_test_id("rotate-ccw").click()
    expect(counter).to_have_attribute("data-rotations", "2")
    expect(page.locator('[data-testid="log-entry"][data-seq="2"]').first).to_contain_text(
        "You turn T22 anticlockwise"
    )
    # Undo takes the last rotation back and does not count it.
    page.get_by_test_id("undo").click()
    expect(counter).to_have_attribute("data-rotations", "1")
    page.get_by_test_id("undo").click()
    expect(counter).to_have_attribute("data-rotations", "0")
    assert routers(page) == start
    expect(page.get_by_test_id("undo")).to_be_disabled()
    page.screenshot(path=str(artifacts / "tactrics-solitary-phone.png"), full_page=True)


def test_advanced_setup_places_controllers_by_clicking_routers(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, players = api_match(live_server, "tactrics-crossing-advanced")
    pages = [new_page(player=p) for p in players]
    for page in pages:
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("tactrics")).to_have_attribute("data-phase", "setup")
    for page in pages:  # V7: two controllers each on her own starting routers
        board = page.get_by_test_id("tactrics")
        for placed in (1, 2):
            page.locator('[data-testid="router"].clickable').first.click()
            # A click while a move is on its way is ignored: wait for this one's answer (the
            # other player's controllers may already be counted below).
            expect(board).to_have_attribute("data-busy", "false")
            expect(page.locator('[data-testid="controller"]')).not_to_have_count(placed - 1)
    for page in pages:
        expect(page.get_by_test_id("tactrics")).to_have_attribute("data-phase", "play")
        expect(page.locator('[data-testid="controller"]')).to_have_count(4)
    turn_a_tower(pages[0], "cw", skip="T11")
    pages[1].screenshot(path=str(artifacts / "tactrics-advanced.png"), full_page=True)


# The board is measured once it is styled (unstyled, an arrow's glyph is 16 user units tall and
# its box covers the routers beside it: the CI failure "T11 cw arrow covers" on a loaded
# machine, where the stylesheet came after the first click) and no animation is running.
BOARD_SETTLED = """() => {
  const table = document.querySelector('[data-testid="tactrics"]');
  return table?.dataset.styled === "true" && !table.getAnimations({ subtree: true })
    .some((a) => a.playState === "running" || a.playState === "pending");
}"""

ARROWS_AND_CONTROLLERS = """() => {
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height};
  };
  const arrow = (d) => box(document.querySelector(`[data-testid="board-rotate-${d}"]`));
  return {
    controllers: [...document.querySelectorAll('[data-testid="controller"]')].map(box),
    ccw: arrow("ccw"),
    cw: arrow("cw"),
  };
}"""


def test_advanced_board_arrows_never_cover_a_controller(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """The turn arrows drawn beside a selected tower stay off every controller: over one they
    hid it, and a click on that router (to move its controller, V7) turned the tower."""
    match_id, players = api_match(live_server, "tactrics-crossing-advanced")
    with httpx.Client(base_url=live_server) as client:
        for seat, player in enumerate(players):  # V7 set-up: the first two starting routers
            for number in range(2):
                view = client.get(f"/api/matches/{match_id}", headers=auth(player)).json()
                places = [m for m in view["view"]["legal_moves"] if m["type"] == "place"]
                # B4 lies up-left of T11, where that tower's arrows used to be drawn.
                place = next((m for m in places if m["slot"] == "B4"), places[0])
                answer = client.post(
                    f"/api/matches/{match_id}/moves",
                    json={"move": place, "id": f"place-{seat}-{number}"},
                    headers=auth(player),
                )
                assert answer.status_code == 200, answer.text
    page = new_page(width=390, height=844, player=players[0])
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("tactrics")).to_have_attribute("data-phase", "play")
    expect(page.locator('[data-testid="controller"]')).to_have_count(4)
    towers = page.locator(LEGAL_TOWER)
    for i in range(towers.count()):
        knob = towers.nth(i)
        knob.click()
        expect(knob).to_have_attribute("data-selected", "true")
        page.wait_for_function(BOARD_SETTLED)
        # Boxes are relative to the viewport, which a click may scroll (smoothly, over several
        # frames on a busy machine): every box is measured in one go, in the same frame.
        boxes = page.evaluate(ARROWS_AND_CONTROLLERS)
        centres = [
            (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for b in boxes["controllers"]
        ]
        for direction in ("ccw", "cw"):
            box = boxes[direction]
            covered = [
                (x, y)
                for x, y in centres
                if box["x"] <= x <= box["x"] + box["width"]
                and box["y"] <= y <= box["y"] + box["height"]
            ]
            assert not covered, f"{knob.get_attribute('data-tower')} {direction} arrow covers"
        # Each router under a controller takes a click itself, not an arrow above it.
        for router in page.locator('[data-testid="router"]:has([data-testid="controller"])').all():
            router.click(trial=True, timeout=2000)
        knob.click()  # deselect
    page.screenshot(path=str(artifacts / "tactrics-advanced-arrows.png"), full_page=True)


def test_board_waits_for_its_stylesheet(new_page: Any, live_server: str) -> None:
    """Unstyled, the board's arrows are 16-unit glyphs over the routers (the arrow test's CI
    failure under load): the board shows, and takes clicks, only once its stylesheet applies."""
    match_id, players = api_match(live_server, "tactrics-crossing")
    page = new_page(width=390, height=844, player=players[0])
    held: list[Any] = []
    page.route("**/css/tactrics.css", lambda route: held.append(route))
    page.goto(f"/match/{match_id}")
    expect(page.locator('[data-testid="tower"]')).to_have_count(19)  # drawn, not shown
    expect(page.get_by_test_id("board")).to_be_hidden()
    assert len(held) == 1
    held[0].continue_()
    expect(page.get_by_test_id("tactrics")).to_have_attribute("data-styled", "true")
    expect(page.get_by_test_id("board")).to_be_visible()


def test_cat_and_mouse_turn_ends_when_a_cat_is_turned(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, players = api_match(live_server, "tactrics-cat-mouse", options={"cats": 5})
    mouse, cats = (new_page(player=p) for p in players)
    for page in (mouse, cats):
        page.goto(f"/match/{match_id}")
        expect(page.locator('[data-testid="router"]')).to_have_count(6)
    expect(mouse.locator(LEGAL_TOWER)).to_have_count(1)  # only T12 holds the mouse (V8)
    expect(mouse.get_by_test_id("confirm")).to_be_disabled()  # at least one rotation
    turn_a_tower(mouse, "ccw")
    mouse.get_by_test_id("confirm").click()
    expect(cats.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    turn_a_tower(cats, "cw")
    expect(cats.locator(LEGAL_TOWER)).to_have_count(0)  # exactly one rotation
    cats.get_by_test_id("confirm").click()
    expect(mouse.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    mouse.screenshot(path=str(artifacts / "tactrics-cat-mouse.png"), full_page=True)


def test_cat_and_mouse_to_the_end_and_its_replay(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """A whole Cat & Mouse match over HTTP (the mouse heads for the cupboard, the cats make
    their first legal turn), then the game-over banner and the replay page."""
    to_cupboard = distances_to(EDGES["N"])

    def mouse_after(move: dict[str, Any], mouse: str) -> int:
        ring = TOWER_SLOTS[move["tower"]]
        step = 1 if move["direction"] == "cw" else -1
        return to_cupboard[ring[(ring.index(mouse) + step) % 6]]

    match_id, players = api_match(live_server, "tactrics-cat-mouse")
    auths = [auth(p) for p in players]
    with httpx.Client(base_url=live_server) as client:
        for _ in range(400):
            summary = client.get(f"/api/matches/{match_id}").json()
            if summary["status"] == "finished":
                break
            seat = summary["view"]["active_seats"][0]
            view = client.get(f"/api/matches/{match_id}", headers=auths[seat]).json()["view"]
            rotations = [m for m in view["legal_moves"] if m["type"] == "rotate"]
            if seat == 0 and rotations and view["board"]["turn"]["used"] < 3:
                move = min(rotations, key=lambda m: mouse_after(m, view["board"]["mouse"]))
            elif seat == 1 and rotations:
                move = rotations[0]
            else:
                move = {"type": "confirm"}
            sent = client.post(
                f"/api/matches/{match_id}/moves", json={"move": move}, headers=auths[seat]
            )
            assert sent.status_code == 200, sent.text
        summary = client.get(f"/api/matches/{match_id}").json()
    assert summary["status"] == "finished", "the match ended"

    page = new_page(player=players[0])
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("game-over")).to_be_visible()
    page.screenshot(path=str(artifacts / "tactrics-cat-mouse-over.png"), full_page=True)
    replay = new_page()
    replay.goto(f"/replay/{match_id}")
    expect(replay.get_by_test_id("board")).to_be_visible()
    expect(replay.get_by_test_id("replay-status")).to_have_text("finished")
    replay.get_by_test_id("next").click()
    expect(replay.locator('[data-testid="router"]')).to_have_count(5)
    replay.screenshot(path=str(artifacts / "tactrics-cat-mouse-replay.png"), full_page=True)


def solitary_solution(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Moves that solve the position shown in `view`, found with the rules module itself
    (guided search on its playout score, as the conformance playouts do)."""
    import random

    from app.engine.dice import Dice
    from app.engine.registry import get_game
    from app.games.tactrics.board import SLOTS

    rules = get_game("tactrics-solitary")
    assert rules is not None
    board = view["board"]
    state: dict[str, Any] = {
        "game": "tactrics-solitary",
        "phase": "play",
        "seats": 1,
        "scenario": board["scenario"],
        "targets": board["targets"],
        "routers": {s: c for s, c in zip(SLOTS, board["routers"], strict=True) if c},
        "rotations": 0,
        "history": [],
        "outcome": None,
    }
    chooser = random.Random(0)
    moves = []
    while rules.outcome(state) is None:
        assert len(moves) < 3000, "no solution found"
        legal = rules.legal_moves(state, 0)
        if chooser.random() < 0.1:
            move = chooser.choice(legal)
        else:

            def score(m: dict[str, Any], state: dict[str, Any] = state) -> float:
                return rules.playout_score(rules.apply(state, 0, m, Dice("x", 1))[0], 0) or 0.0

            move = max(legal, key=lambda m: (score(m), chooser.random()))
        state, _ = rules.apply(state, 0, move, Dice("x", 1))
        moves.append(move)
    return moves


def test_solitary_solved_shows_the_rotation_count(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, players = api_match(live_server, "tactrics-solitary", ["Hosty"], {"colours": 1})
    with httpx.Client(base_url=live_server, headers=auth(players[0])) as client:
        view = client.get(f"/api/matches/{match_id}").json()["view"]
        solution = solitary_solution(view)
        for move in solution[:-1]:
            sent = client.post(f"/api/matches/{match_id}/moves", json={"move": move})
            assert sent.status_code == 200, sent.text
    rotations = sum(1 if m["type"] == "rotate" else -1 for m in solution)

    page = new_page(player=players[0])
    page.goto(f"/match/{match_id}")
    last = solution[-1]
    if last["type"] == "undo":
        page.get_by_test_id("undo").click()
    else:
        page.locator(f'[data-testid="tower"][data-tower="{last["tower"]}"]').click()
        page.get_by_test_id(f"rotate-{last['direction']}").click()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    expect(page.get_by_test_id("game-over")).to_contain_text(f"after {rotations} rotation")
    expect(page.get_by_test_id("tactrics-status")).to_have_text(f"Solved in {rotations} rotations.")
    expect(page.get_by_test_id("solitary-time")).to_contain_text("(solved)")
    page.screenshot(path=str(artifacts / "tactrics-solitary-solved.png"), full_page=True)


def test_solitary_replay_tells_the_puzzle_and_never_offers_undo(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """QA, Solitary replay at move 0: "Next: Solitary.", a disabled Undo button and
    "Time 0:02 (solved)". A one-player puzzle has no next seat, so the start says what the
    puzzle is; replays never undo; the solving time shows only on the solved position."""
    match_id, players = api_match(live_server, "tactrics-solitary", ["Solo"], {"colours": 1})
    with httpx.Client(base_url=live_server, headers=auth(players[0])) as client:
        view = client.get(f"/api/matches/{match_id}").json()["view"]
        for move in solitary_solution(view):
            sent = client.post(f"/api/matches/{match_id}/moves", json={"move": move})
            assert sent.status_code == 200, sent.text

    page = new_page(player=players[0])  # her own replay: still nothing to undo
    page.goto(f"/replay/{match_id}")
    now, undo, clock = (page.get_by_test_id(t) for t in ("now-playing", "undo", "solitary-time"))
    expect(now).to_contain_text("The table is set.")
    page.get_by_test_id("last").click()
    expect(clock).to_have_text(re.compile(r"^Time \d+:\d\d \(solved\)$"))
    expect(undo).to_be_hidden()

    page.get_by_test_id("first").click()
    expect(now).to_contain_text(
        "The puzzle: bring every router around the tower ringed in its colour."
    )
    expect(now).not_to_contain_text("Next:")
    expect(clock).to_be_hidden()
    expect(undo).to_be_hidden()
    page.screenshot(path=str(artifacts / "tactrics-solitary-replay-start.png"), full_page=True)

    page.get_by_test_id("next").click()
    expect(now).to_contain_text("Move 1")
    expect(now).not_to_contain_text("Next:")
    expect(now).not_to_contain_text("The puzzle")
    expect(clock).to_be_hidden()
    expect(undo).to_be_hidden()
