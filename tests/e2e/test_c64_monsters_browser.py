"""Two friends play C64 Monsters in two browsers, end to end against the real server.

Asserted on what a person sees (data-testid hooks on visible elements): the joystick, the
event log, adventurers, monsters and treasures on the board and the treasure panel; and the
order of a move: the adventurer steps, then her monster steps the opposite way.
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


# ------------------------------------------------------------------ helpers


def panel(page: Any) -> list[tuple[str, ...]]:
    rows = page.get_by_test_id("monsters-row")
    keys = ("data-seat", "data-carrying")
    return [tuple(rows.nth(i).get_attribute(k) or "" for k in keys) for i in range(rows.count())]


def started_match(base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """A C64 Monsters match for two, started through the REST API: (id, host, guest)."""
    with httpx.Client(base_url=base) as client:
        host = api_player(client, "Hosty")
        guest = api_player(client, "Guesty")
        auth = {"Authorization": f"Bearer {host['token']}"}
        created = client.post(
            "/api/matches", json={"game": "c64-monsters", "options": {}, "seats": 2}, headers=auth
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
def test_two_friends_set_up_and_hunt(new_page: Any, live_server: str, artifacts: Path) -> None:
    ada = new_page()
    bea = new_page()

    ada.goto("/")
    expect(ada.get_by_test_id("name-dialog")).to_be_visible()
    ada.get_by_test_id("name-input").fill("Ada")
    ada.get_by_test_id("name-submit").click()
    # (force: the card lifts on hover and Playwright sees its label and radio covering each
    # other; a person's click selects it either way.)
    ada.locator('label[for="game-c64-monsters"]').click(force=True)
    expect(ada.get_by_test_id("game-card-c64-monsters")).to_be_checked()
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
        expect(page.get_by_test_id("monsters-panel")).to_be_visible()
        # Two adventurers, two monsters, two treasure discs, homes and lairs marked.
        expect(page.locator('[data-piece^="adventurer-"]')).to_have_count(2)
        expect(page.locator('[data-piece^="monster-"]')).to_have_count(2)
        expect(page.locator('[data-point^="treasure-"]')).to_have_count(2)
        expect(page.locator('[data-testid="marker-goal"]')).to_have_count(2)

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
        # The other browser saw it: same log lines, same pieces, same treasure panel.
        expect(other.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
        assert log_texts(other, seq) == mover_lines
        for who in (0, 1):
            for piece in (f'[data-piece="adventurer-{who}"]', f'[data-piece="monster-{who}"]'):
                square = mover.locator(piece).get_attribute("data-square") or ""
                expect(other.locator(piece)).to_have_attribute("data-square", square)
        assert panel(other) == panel(mover)
        if kind == "play":
            played.add(seat)
        if played == {0, 1}:
            break
    assert played == {0, 1}, "each seat played a card that the other browser saw"

    mover = wait_for_mover([ada, bea])
    other = bea if mover is ada else ada
    expect(mover.get_by_test_id("turn-title")).to_have_text("Your turn")
    expect(other.get_by_test_id("turn-title")).to_contain_text("Waiting for")

    ada.screenshot(path=str(artifacts / "c64-monsters-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "c64-monsters-bea.png"), full_page=True)


def test_adventurer_steps_then_her_monster(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Player 1 (South, a1) plays Up: her adventurer steps north to a2 first, then her
    monster leaves the fort south to d3; both pieces run an animation, the monster's later."""
    match_id, host, guest = started_match(live_server)
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
        page.wait_for_timeout(800)  # let the move finish before the picture
        page.screenshot(path=str(artifacts / "c64-monsters-move.png"), full_page=True)
    finally:
        driver.close()
