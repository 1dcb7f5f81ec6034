"""Joystick Heroes on two phones (390x844), issue 14 items 2, 5 and 10: at every kind of
decision (genres at set-up, moving to a Games card, a Versus challenge when one comes up,
rolling, the cards and the collect after the roll, a reaction, discarding out of turn, the
POWER UP) the controls and the board the decision is about are on screen together with tap
targets of at least 40 px; a player discards while the other one plays (ruling H13a), and the
banner keeps naming only the hero to move. Screenshots go to test-artifacts/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import version
from tests.e2e.lobby_flow import api_match
from tests.e2e.phone import PHONE, assert_phone_table

pytestmark = pytest.mark.browser

GAME = "joystick-heroes"


def view(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("window.arcade.state")
    return state


def mine(page: Any) -> bool:
    return page.get_by_test_id("turn-banner").get_attribute("data-mine") == "true"


def click_and_wait(page: Any, target: Any) -> None:
    before = version(page)
    target.click()
    expect(page.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))


def checked(page: Any, artifacts: Path, name: str, seen: set[str]) -> None:
    """The phone-first check at this decision, and a screenshot the first time it is seen."""
    if name not in seen:
        seen.add(name)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"joystick-heroes-phone-{name}.png"))
    assert_phone_table(page)


def test_every_decision_fits_a_phone_and_discards_go_on_out_of_turn(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, players = api_match(live_server, GAME, ("Ada", "Bea"))
    pages = [new_page(player=p, **PHONE) for p in players]
    seen: set[str] = set()
    for page in pages:
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("genre-choice")).to_have_count(6)
    checked(pages[0], artifacts, "genres", seen)  # the genre buttons with the arcade
    for page in pages:
        page.get_by_test_id("genre-choice").first.click()
    for page in pages:
        expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "play")
        expect(page.get_by_test_id("power-card")).to_have_count(3)

    mover = view(pages[0])["active_seats"][0]
    idle = 1 - mover
    expect(pages[mover].get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    checked(pages[mover], artifacts, "move", seen)  # the glowing Games cards

    # H13a: the other player may discard now, while it is not her turn; the banner still
    # says whom the table waits for, on both phones.
    other = pages[idle]
    expect(other.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "false")
    expect(other.get_by_test_id("turn-title")).to_contain_text("Waiting for")
    expect(other.get_by_test_id("card-discard")).to_have_count(3)
    expect(other.get_by_test_id("discard-hint")).to_be_visible()
    checked(other, artifacts, "discard-out-of-turn", seen)
    click_and_wait(other, other.get_by_test_id("card-discard").first)
    expect(other.get_by_test_id("power-card")).to_have_count(2)
    expect(other.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "false")
    expect(pages[mover].get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
    assert view(other)["active_seats"] == [mover]
    expect(other.get_by_test_id("move-error")).to_be_hidden()

    # Play on until the POWER UP, checking each kind of decision as it comes. A Versus card
    # is chosen when one is free, so that the challenge is seen too when the arcade has one.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if all(view(p)["board"]["phase"] == "powerup" for p in pages):
            break
        moved = False
        for page in pages:
            if not mine(page):
                continue
            board = view(page)["board"]
            question = board["question"]
            play = board["play"]
            spots = page.locator('[data-testid="arcade-spot"][data-legal="true"]')
            if question is not None and question["kind"] in ("versus", "coop"):
                checked(page, artifacts, question["kind"], seen)
                click_and_wait(page, page.get_by_test_id("answer-no"))
            elif question is not None:
                if not question.get("holding"):
                    continue  # her page passes by itself
                checked(page, artifacts, "reaction", seen)
                click_and_wait(page, page.get_by_test_id("answer-no"))
            elif board["phase"] == "powerup":
                checked(page, artifacts, "powerup", seen)
                click_and_wait(page, page.get_by_test_id("powerup-done"))
            elif play is not None and play["step"] == "before":
                checked(page, artifacts, "roll", seen)
                click_and_wait(page, page.get_by_test_id("roll"))
            elif play is not None:
                checked(page, artifacts, "after-roll", seen)
                click_and_wait(page, page.get_by_test_id("collect"))
            elif spots.count():
                versus = spots.filter(has=page.locator(".jh-mode", has_text="VS"))
                checked(page, artifacts, "move", seen)
                click_and_wait(page, versus.first if versus.count() else spots.first)
            elif page.get_by_test_id("skip-turn").count():
                click_and_wait(page, page.get_by_test_id("skip-turn"))
            else:
                continue
            moved = True
        if not moved:
            # Someone else (a page passing for its player, the server's clock) moves next.
            expect(pages[0].get_by_test_id("game-root")).not_to_have_attribute(
                "data-version", str(version(pages[0]))
            )
    for page in pages:
        expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "powerup")
        checked(page, artifacts, "powerup", seen)
    assert {"genres", "move", "discard-out-of-turn", "roll", "after-roll", "powerup"} <= seen


# The renderer of the match page, mounted again in its place and fed made-up views: a crowded
# table (nine Games cards, a hand whose cards offer many choices) cannot be dealt on purpose.
MOUNT_IN_PLACE = """async (view) => {
  const { createRenderer } = await import("/static/js/games/joystick-heroes.js");
  document.getElementById("game-root").hidden = true;
  const root = document.createElement("div");
  root.dataset.testid = "test-renderer";
  document.getElementById("game-view").append(root);
  window.testRenderer = createRenderer(root, { you: view.you, submit: async () => {} });
  window.testRenderer.update(view, []);
}"""

HAND = [
    {
        "id": "P40",
        "kind": "out_of_order",
        "name": "Out of Order",
        "key": 100,
        "timing": "turn",
        "text": "Place it on an unoccupied Games card: nobody may move there until the start of "
        "your next turn.",
    },
    {
        "id": "P35",
        "kind": "cheat_code",
        "name": "Cheat Code",
        "key": 300,
        "timing": "after",
        "text": "Turn the Game die to any face of your choice (a chosen Heart works normally).",
    },
    {
        "id": "P20",
        "kind": "turbo",
        "name": "Turbo",
        "key": 200,
        "timing": "after",
        "text": "Turn one of your Scoring dice to 300.",
    },
]


def test_a_crowded_table_still_fits_a_phone(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Nine Games cards (six heroes), Out of Order's nine spots at the start of a turn, then
    Turbo on nine Scoring dice and Cheat Code's six faces after the roll: still one screen."""
    match_id, players = api_match(live_server, GAME, ("Ada", "Bea"))
    page = new_page(player=players[0], **PHONE)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("genre-choice")).to_have_count(6)
    real = view(page)
    board = real["board"]
    cards = [entry["card"] for entry in board["arcade"]]
    arcade = [
        {
            "spot": i,
            "card": cards[i % len(cards)],
            "plays": i % 3,
            "blocked_by": None,
            "pawns": [i] if i < 6 else [],
        }
        for i in range(9)
    ]
    players_view = [dict(board["players"][i % 2], seat=i) for i in range(6)]
    turn = {
        "seat": 0,
        "step": "start",
        "free": False,
        "favorite": False,
        "spot": None,
        "challenger": None,
    }
    start = {
        **real,
        "active_seats": [0],
        "deadline": None,
        "legal_moves": [{"type": "move_to", "spot": s} for s in range(6, 9)]
        + [{"type": "play_card", "card": "P40", "spot": s} for s in range(6, 9)]
        + [{"type": "discard", "card": c["id"]} for c in HAND],
        "board": {
            **board,
            "phase": "play",
            "arcade": arcade,
            "players": players_view,
            "hand": HAND,
            "turn": turn,
            "play": None,
            "question": None,
        },
    }
    page.evaluate(MOUNT_IN_PLACE, start)
    mounted = page.get_by_test_id("test-renderer")
    expect(mounted.get_by_test_id("arcade-spot")).to_have_count(9)
    page.screenshot(path=str(artifacts / "joystick-heroes-phone-crowded-start.png"))
    assert_phone_table(page)

    dice = [0, 100, 100, 200, 300, 0, 200, 100, 300]
    play = {
        "seat": 0,
        "card": cards[0],
        "context": "arcade",
        "step": "after",
        "level": 1,
        "dice": dice,
        "face": "-100",
        "face_mod": None,
        "continued": None,
        "coop": None,
        "marked": [],
        "premium": False,
        "level_target": None,
        "high_score_target": 1200,
        "dice_count": 9,
        "score": 1100,
        "life_open": False,
        "key_open": False,
    }
    after = {
        **start,
        "version": start["version"] + 1,
        "legal_moves": [{"type": "play_card", "card": "P20", "die": i} for i in range(9)]
        + [
            {"type": "play_card", "card": "P35", "face": f}
            for f in ("+100", "+200", "-100", "key", "heart", "bomb")
        ]
        + [{"type": "discard", "card": c["id"]} for c in HAND]
        + [{"type": "done"}],
        "board": {**start["board"], "turn": {**turn, "step": "play", "spot": 0}, "play": play},
    }
    page.evaluate("view => window.testRenderer.update(view, [])", after)
    turbo = mounted.locator('[data-card="P20"] [data-testid="card-play_card"]')
    expect(turbo).to_have_count(3)  # one per value that gains: 0, 100 and 200
    page.screenshot(path=str(artifacts / "joystick-heroes-phone-crowded-after.png"))
    assert_phone_table(page)
