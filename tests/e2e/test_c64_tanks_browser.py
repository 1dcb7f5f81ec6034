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
    api_player,
    log_texts,
    play_or_return,
    take_two_cards,
    version,
    wait_for_mover,
)

pytestmark = pytest.mark.browser

TANKS = Tanks()


# ------------------------------------------------------------------ helpers


def scores(page: Any) -> list[tuple[str, str, str]]:
    rows = page.get_by_test_id("tanks-score")
    return [
        (
            rows.nth(i).get_attribute("data-seat") or "",
            rows.nth(i).get_attribute("data-discs") or "",
            rows.nth(i).get_attribute("data-hit") or "",
        )
        for i in range(rows.count())
    ]


def started_match(base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """A C64 Tanks match for two, started through the REST API: (id, host, guest)."""
    with httpx.Client(base_url=base) as client:
        host = api_player(client, "Hosty")
        guest = api_player(client, "Guesty")
        auth = {"Authorization": f"Bearer {host['token']}"}
        created = client.post(
            "/api/matches", json={"game": "c64-tanks", "options": {}, "seats": 2}, headers=auth
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        joined = client.post(
            f"/api/matches/{match_id}/join",
            json={},
            headers={"Authorization": f"Bearer {guest['token']}"},
        )
        assert joined.status_code == 200, joined.text
        started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth)
        assert started.status_code == 200, started.text
    return match_id, host, guest


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
    ada = new_page()
    bea = new_page()

    ada.goto("/")
    expect(ada.get_by_test_id("name-dialog")).to_be_visible()
    ada.get_by_test_id("name-input").fill("Ada")
    ada.get_by_test_id("name-submit").click()
    # The game's card in the lobby. (force: the card lifts on hover, and Playwright then sees
    # its label and its radio cover each other; a person's click selects it either way.)
    ada.locator('label[for="game-c64-tanks"]').click(force=True)
    expect(ada.get_by_test_id("game-card-c64-tanks")).to_be_checked()
    ada.get_by_test_id("seats-2").check()
    ada.get_by_test_id("create-match").click()
    ada.wait_for_url(re.compile(r"/match/[^/]+$"))
    expect(ada.get_by_test_id("invite-link")).to_have_value(ada.url)
    invite = ada.get_by_test_id("invite-link").input_value()

    bea.goto(invite)
    bea.get_by_test_id("take-seat-1").click()
    expect(bea.get_by_test_id("name-dialog")).to_be_visible()
    bea.get_by_test_id("name-input").fill("Bea")
    bea.get_by_test_id("name-submit").click()
    expect(ada.get_by_test_id("seat-list")).to_contain_text("Bea")

    ada.get_by_test_id("start-match").click()
    for page in (ada, bea):
        expect(page.get_by_test_id("board")).to_be_visible()
        # Map T: 12 mirror walls on the board, 2 tanks, and the disc panel.
        expect(page.locator(".wall")).to_have_count(12)
        expect(page.locator('[data-piece^="tank-"]')).to_have_count(2)
        expect(page.get_by_test_id("tanks-score")).to_have_count(2)
        expect(page.get_by_test_id("tanks-disc")).to_have_count(2)

    take_two_cards(ada)
    take_two_cards(bea)
    seat_of = {
        id(ada): int(ada.get_by_test_id("game-root").get_attribute("data-you") or -1),
        id(bea): int(bea.get_by_test_id("game-root").get_attribute("data-you") or -1),
    }
    assert sorted(seat_of.values()) == [0, 1]

    played: set[int] = set()
    for _ in range(10):
        mover = wait_for_mover([ada, bea])
        other = bea if mover is ada else ada
        seat = seat_of[id(mover)]
        before = version(mover)
        kind = play_or_return(mover)
        expect(mover.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))
        seq = version(mover)
        expect(mover.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        mover_lines = log_texts(mover, seq)
        assert mover_lines
        expect(other.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        assert log_texts(other, seq) == mover_lines
        for s in (0, 1):
            piece = f'[data-piece="tank-{s}"]'
            square = mover.locator(piece).get_attribute("data-square") or ""
            expect(other.locator(piece)).to_have_attribute("data-square", square)
        assert scores(other) == scores(mover)
        if kind == "play":
            played.add(seat)
        if (
            played == {0, 1}
            or ada.get_by_test_id("game-root").get_attribute("data-phase") == "over"
        ):
            break
    assert played == {0, 1}, "each seat played a card that the other browser saw"

    ada.wait_for_timeout(400)  # let a last shot finish on screen
    ada.screenshot(path=str(artifacts / "c64-tanks-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "c64-tanks-bea.png"), full_page=True)


def test_bullet_runs_along_its_path_and_mirrors_turn_in_turn(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, host, guest = started_match(live_server)
    tokens = {0: host["token"], 1: guest["token"]}
    with httpx.Client(base_url=live_server) as client:
        board = client.get(
            f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {host['token']}"}
        ).json()["view"]["board"]
        state = state_from_board(board)
        assert TANKS.view(state, None) == board, "the view holds the whole state"
        prefix, (shooter, shot), bullet, after = plan_a_bouncing_shot(state)
        for k, (seat, move) in enumerate(prefix):
            sent = client.post(
                f"/api/matches/{match_id}/moves",
                json={"move": move, "id": f"prefix-{k}"},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
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
    watcher.wait_for_timeout(300)  # the quarter turn itself
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
        expect(page.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        assert any("bounces off" in line for line in log_texts(page, seq))
    shooter_page.screenshot(path=str(artifacts / "c64-tanks-after-shot.png"), full_page=True)
