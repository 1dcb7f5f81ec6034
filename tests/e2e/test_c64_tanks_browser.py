"""Two friends play C64 Tanks in two browsers, end to end against the real server.

Asserted on what a person sees (data-testid hooks on visible elements): the joystick, the
event log, the tanks on the board, the disc panel; and the bullet animation: the bullet runs
along its path and each mirror it bounces off turns when the bullet gets there.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.engine.dice import Dice
from app.games.c64.tanks import Tanks
from tests.e2e.c64_browser import (
    MINE,
    animations_done,
    c64_match,
    log_entry,
    log_texts,
    phone_first_through_set_up_and_play,
    play_until_each_seat_played,
    row_attributes,
    same_squares,
    screenshots,
    set_up_in_every_browser,
    version,
)
from tests.e2e.lobby_flow import auth, friends_start_a_match

pytestmark = pytest.mark.browser

TANKS = Tanks()


# ------------------------------------------------------------------ helpers


def scores(page: Any) -> list[tuple[str, ...]]:
    return row_attributes(page, "tanks-score", ("data-seat", "data-discs", "data-hit"))


def state_from_board(board: dict[str, Any]) -> dict[str, Any]:
    """The rules state behind a Tanks board view (C64 games hide nothing, so it is all there)."""
    return {
        "game": "c64-tanks",
        "phase": board["phase"],
        "turn": board["turn"],
        "order": board["order"],
        "players": [
            {k: p[k] for k in ("seat", "side", "latest", "square", "hit", "discs")}
            for p in board["players"]
        ],
        "joysticks": [
            {
                "grid": j["grid"],
                "active": [{"card": a["id"], "face": a["face"]} for a in j["active"]],
                "tilted": j["tilted"],
                "axis": j["axis"],
                "must_return": j["must_return"],
            }
            for j in board["joysticks"]
        ],
        "outcome": None,
        "walls": {w["square"]: w["tilt"] for w in board["walls"]},
    }


def plan_a_bouncing_shot(
    state: dict[str, Any],
) -> tuple[list[tuple[int, dict[str, Any]]], tuple[int, dict[str, Any]], dict[str, Any], Any]:
    """Random legal moves (seeded) until a seat's play fires a bullet that bounces off a
    mirror and leaves the board: (moves before it, that move, its bullet event, the state
    after it)."""
    chooser = random.Random(7)
    for _ in range(20_000):
        current, prefix = state, []
        for _ in range(16):
            seat = min(TANKS.active_seats(current))
            move = chooser.choice(TANKS.legal_moves(current, seat))
            new, events = TANKS.apply(current, seat, move, Dice("plan", 1))
            bullets = [e for e in events if e["type"] == "bullet"]
            if bullets and bullets[0]["flips"] and bullets[0]["end"] == "exit":
                return prefix, (seat, move), bullets[0], new
            if new["phase"] == "over":
                break
            prefix.append((seat, move))
            current = new
    raise AssertionError("no bouncing shot found")


# ------------------------------------------------------------------ tests
def test_two_friends_set_up_and_play_tanks(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    (ada, bea), _invite = friends_start_a_match(new_page, "c64-tanks")
    for page in (ada, bea):
        expect(page.get_by_test_id("board")).to_be_visible()
        # Map T: 12 mirror walls on the board, 2 tanks, and the disc panel.
        expect(page.locator(".wall")).to_have_count(12)
        expect(page.locator('[data-piece^="tank-"]')).to_have_count(2)
        expect(page.get_by_test_id("tanks-score")).to_have_count(2)
        expect(page.get_by_test_id("tanks-disc")).to_have_count(2)

    seat_of = set_up_in_every_browser([ada, bea])

    def same_tanks(mover: Any, other: Any, seat: int) -> None:
        same_squares(mover, other, [f'[data-piece="tank-{s}"]' for s in (0, 1)])
        assert scores(other) == scores(mover)

    def over() -> bool:
        return ada.get_by_test_id("game-root").get_attribute("data-phase") == "over"

    play_until_each_seat_played([ada, bea], seat_of, 10, same_tanks, over=over)

    animations_done(ada)  # a last shot ends on screen before the pictures
    screenshots([ada, bea], artifacts, "c64-tanks")


def test_bullet_runs_along_its_path_and_mirrors_turn_in_turn(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, host, guest = c64_match(live_server, "c64-tanks")
    players = {0: host, 1: guest}
    with httpx.Client(base_url=live_server) as client:
        board = client.get(f"/api/matches/{match_id}", headers=auth(host)).json()["view"]["board"]
        state = state_from_board(board)
        assert TANKS.view(state, None) == board, "the view holds the whole state"
        prefix, (shooter, shot), bullet, after = plan_a_bouncing_shot(state)
        for k, (seat, move) in enumerate(prefix):
            sent = client.post(
                f"/api/matches/{match_id}/moves",
                json={"move": move, "id": f"prefix-{k}"},
                headers=auth(players[seat]),
            )
            assert sent.status_code == 200, sent.text

    shooter_page = new_page(player=host if shooter == 0 else guest)
    watcher = new_page(player=guest if shooter == 0 else host)
    for page in (shooter_page, watcher):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("game-root")).to_have_attribute("data-version", str(len(prefix)))
        # Freeze every bullet at its start the moment it appears, to look at it step by step.
        page.evaluate(
            """() => new MutationObserver((records) => {
                 for (const r of records) for (const n of r.addedNodes) {
                   if (n.dataset?.testid !== "tanks-bullet") continue;
                   for (const el of [n, n.previousSibling]) {
                     for (const a of el.getAnimations()) { a.pause(); a.currentTime = 0; }
                   }
                   window.tanksBullet = n;
                 }
               }).observe(document.querySelector(".tanks-fx"), {childList: true})"""
        )
    expect(shooter_page.get_by_test_id("turn-title")).to_have_text("Your turn")

    # The shooter previews the shot: the bullet's path is highlighted on the board.
    card = shooter_page.locator(f'{MINE} [data-testid="active-card"][data-card="{shot["card"]}"]')
    if card.get_attribute("data-selected") != "true":  # a single active card is preselected
        card.click()
    highlighted = shooter_page.locator('[data-testid="board-highlight"]')
    expect(highlighted.first).to_be_visible()
    assert set(bullet["path"]) == {
        highlighted.nth(i).get_attribute("data-square") for i in range(highlighted.count())
    }
    shooter_page.locator(
        f'{MINE} [data-testid="joy-space"][data-row="{shot["to"][0]}"][data-col="{shot["to"][1]}"]'
    ).click()
    if shooter_page.get_by_test_id("face-chooser").is_visible():
        shooter_page.get_by_test_id("confirm-move").click()

    first = bullet["flips"][0]
    first_wall = f'.wall[data-square="{first["square"]}"]'
    step_ms = 95
    for page in (shooter_page, watcher):
        expect(page.get_by_test_id("tanks-bullet")).to_be_attached()
        # Before the bullet gets there the mirror still shows its old tilt (turned back)...
        expect(page.locator(first_wall)).not_to_have_class(re.compile("tanks-turning"))
        assert "rotate(-" in (
            page.locator(f"{first_wall} .wall-stick").get_attribute("style") or ""
        )
        # ... and once the bullet has reached it, it turns.
        at = (first["step"] + 1) * step_ms + step_ms // 2
        page.evaluate(
            """(t) => { const b = window.tanksBullet;
                 for (const el of [b, b.previousSibling]) for (const a of el.getAnimations())
                   a.currentTime = t; }""",
            at,
        )
        expect(page.locator(first_wall)).to_have_class(re.compile("tanks-turning"))
        later = [f for f in bullet["flips"] if f["square"] != first["square"]]
        if later:
            expect(page.locator(f'.wall[data-square="{later[0]["square"]}"]')).not_to_have_class(
                re.compile("tanks-turning")
            )
    animations_done(watcher)  # the quarter turn itself
    watcher.screenshot(path=str(artifacts / "c64-tanks-bullet.png"), full_page=False)

    # Let the flights finish: every mirror ends with the tilt the server says.
    final = after["walls"]
    assert any(final[f["square"]] != state["walls"][f["square"]] for f in bullet["flips"])
    for page in (shooter_page, watcher):
        page.evaluate(
            """() => { const b = window.tanksBullet;
                 for (const el of [b, b.previousSibling]) for (const a of el.getAnimations())
                   a.play(); }"""
        )
        expect(page.get_by_test_id("tanks-bullet")).to_have_count(0)
        for square, tilt in final.items():
            wall = page.locator(f'.wall[data-square="{square}"]')
            expect(wall).to_have_attribute("data-tilt", tilt)
        seq = version(page)
        expect(log_entry(page, seq)).to_be_visible()
        assert any("bounces off" in line for line in log_texts(page, seq))
    shooter_page.screenshot(path=str(artifacts / "c64-tanks-after-shot.png"), full_page=True)


def test_phone_first_board_and_joystick_share_the_screen(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue 14 item 5: at 390x844 the board and the controls of each decision (set-up cards
    and faces, a card, its space, the next faces) are on screen together, taps >= 40px."""
    phone_first_through_set_up_and_play(new_page, live_server, "c64-tanks", 2, artifacts)
