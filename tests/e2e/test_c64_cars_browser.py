"""Two friends play C64 Cars in two browsers, end to end against the real server.

Asserted on what a person sees (data-testid hooks on visible elements): the joystick, the
event log, the cars on the board and the dashboard (gear, facing, flipped/off-board,
checkpoints); and the drive animation: a car runs along its path square by square.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import (
    api_player,
    log_texts,
    play_or_return,
    take_two_cards,
    version,
    wait_for_mover,
)

pytestmark = pytest.mark.browser

EAST_FACE = {"S": "right", "W": "up", "N": "left", "E": "down"}  # ruling C2


# ------------------------------------------------------------------ helpers


def dashboard(page: Any) -> list[tuple[str, ...]]:
    rows = page.get_by_test_id("cars-row")
    keys = ("data-seat", "data-gear", "data-facing", "data-flipped", "data-off", "data-checkpoints")
    return [tuple(rows.nth(i).get_attribute(k) or "" for k in keys) for i in range(rows.count())]


def started_match(base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """A C64 Cars match for two, started through the REST API: (id, host, guest)."""
    with httpx.Client(base_url=base) as client:
        host = api_player(client, "Hosty")
        guest = api_player(client, "Guesty")
        auth = {"Authorization": f"Bearer {host['token']}"}
        created = client.post(
            "/api/matches", json={"game": "c64-cars", "options": {}, "seats": 2}, headers=auth
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


class Driver:
    """Plays chosen faces for both seats through the REST API (what a player would click)."""

    def __init__(self, base: str, match_id: str, players: list[dict[str, str]]) -> None:
        self.client = httpx.Client(base_url=base)
        self.match_id = match_id
        self.players = players
        self.sent = 0

    def state(self, who: int) -> dict[str, Any]:
        token = self.players[who]["token"]
        response = self.client.get(
            f"/api/matches/{self.match_id}", headers={"Authorization": f"Bearer {token}"}
        )
        return dict(response.json()["view"])

    def send(self, who: int, move: dict[str, Any]) -> None:
        self.sent += 1
        response = self.client.post(
            f"/api/matches/{self.match_id}/moves",
            json={"move": move, "id": f"drv-{self.sent}"},
            headers={"Authorization": f"Bearer {self.players[who]['token']}"},
        )
        assert response.status_code == 200, response.text

    def take(self, who: int, faces: set[str]) -> None:
        legal = self.state(who)["legal_moves"]
        move = next(m for m in legal if {c["face"] for c in m["cards"]} == faces)
        self.send(who, move)

    def play(self, who: int, face: str) -> None:
        view = self.state(who)
        seat = view["you"]
        active = {a["id"]: a["face"] for a in view["board"]["joysticks"][seat]["active"]}
        move = next(m for m in view["legal_moves"] if active.get(m["card"]) == face)
        self.send(who, move)

    def close(self) -> None:
        self.client.close()


# ------------------------------------------------------------------ tests
def test_two_friends_set_up_and_race(new_page: Any, live_server: str, artifacts: Path) -> None:
    ada = new_page()
    bea = new_page()

    ada.goto("/")
    expect(ada.get_by_test_id("name-dialog")).to_be_visible()
    ada.get_by_test_id("name-input").fill("Ada")
    ada.get_by_test_id("name-submit").click()
    # (force: the card lifts on hover and Playwright sees its label and radio covering each
    # other; a person's click selects it either way.)
    ada.locator('label[for="game-c64-cars"]').click(force=True)
    expect(ada.get_by_test_id("game-card-c64-cars")).to_be_checked()
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
        expect(page.get_by_test_id("cars-dashboard")).to_be_visible()
        # The start grid: both cars on their start squares, gear 0, facing east.
        expect(page.locator('[data-testid="marker-start"]')).to_have_count(2)
        expect(page.locator('[data-segment="cars-goal"]')).to_have_count(1)
        expect(page.locator('[data-testid="marker-cars-zone"]')).to_have_count(24)
    assert sorted(r[1:4] for r in dashboard(ada)) == [("0", "E", "false")] * 2

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
        assert mover_lines, "the mover's log shows the move"
        # The other browser saw it: same log lines, same cars, same dashboard.
        expect(other.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        assert log_texts(other, seq) == mover_lines
        for car in (0, 1):
            piece = f'[data-piece="car-{car}"]'
            square = mover.locator(piece).get_attribute("data-square") or ""
            expect(other.locator(piece)).to_have_attribute("data-square", square)
        expect(other.get_by_test_id("cars-row")).to_have_count(2)
        assert dashboard(other) == dashboard(mover)
        if kind == "play":
            played.add(seat)
        if played == {0, 1}:
            break
    assert played == {0, 1}, "each seat played a card that the other browser saw"

    mover = wait_for_mover([ada, bea])
    other = bea if mover is ada else ada
    expect(mover.get_by_test_id("turn-title")).to_have_text("Your turn")
    expect(other.get_by_test_id("turn-title")).to_contain_text("Waiting for")

    ada.screenshot(path=str(artifacts / "c64-cars-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "c64-cars-bea.png"), full_page=True)


def test_a_drive_runs_square_by_square(new_page: Any, live_server: str, artifacts: Path) -> None:
    """Player 1 shifts into gear 1 and drives east: her car glides along its path (an
    animation runs on the piece) and ends on the next square for both browsers' dashboards."""
    match_id, host, guest = started_match(live_server)
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
        page.wait_for_timeout(600)  # let the drive finish before the picture
        page.screenshot(path=str(artifacts / "c64-cars-drive.png"), full_page=True)
    finally:
        driver.close()
