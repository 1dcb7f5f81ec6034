"""Two friends play Tank Skirmish (setup A) in two browsers against the real server: each moves
her active tank and fires; the other browser sees the dice and the log line. Then the lobby's
custom-zone editor: the host draws, the guest sees it live and must accept.

Everything is asserted on what a person sees (data-testid hooks on visible elements).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.engine.dice import Dice
from app.engine.registry import get_game
from app.games.tube_tanks.game import new_state
from app.games.tube_tanks.options import Options
from tests.e2e.c64_browser import log_texts
from tests.e2e.lobby_flow import api_match, api_player, auth, choose_game, fits_width

pytestmark = pytest.mark.browser


GINA_AND_OTTO = ("Gina", "Otto")


def mover_of(pages: list[Any]) -> Any:
    for _ in range(100):
        for page in pages:
            if page.get_by_test_id("tt-end").count() and page.get_by_test_id("tt-end").is_visible():
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody has a turn to play")


def take_turn(mover: Any, other: Any, artifacts: Path, name: str, steady: bool = False) -> None:
    """Step the active tank one cell forward, fire at the nearest enemy tank, end the turn;
    or, `steady`, stay put and fire with 2 dice fewer (K3) straight from the target panel."""
    active = mover.get_by_test_id("tt-active-name").inner_text()  # "Green 1 on E1"
    side, cell = active.split()[0].lower(), active.split()[-1]
    if not steady:
        forward = f"{cell[0]}{int(cell[1:]) + (1 if side == 'green' else -1)}"
        mover.get_by_test_id(f"tt-reach-{forward}").click()
        expect(mover.get_by_test_id("tt-active-name")).to_have_text(active.replace(cell, forward))
        # the other browser sees the tank on its new cell
        number = active.split()[1]
        moved = other.locator(f'[data-testid="tt-tank-{side}-{number}"][data-at="{forward}"]')
        expect(moved).to_be_visible()

    mover.get_by_test_id("tt-mode-fire").click()
    if steady:
        # Target Anything: the empty floor 5 cells ahead (free in setup A for every tank)
        target_cell = f"{cell[0]}{int(cell[1:]) + (5 if side == 'green' else -5)}"
    else:
        target = mover.locator('[data-testid^="tt-target-"]').first
        target_cell = (target.get_attribute("data-testid") or "").removeprefix("tt-target-")
    mover.get_by_test_id(f"tt-cell-{target_cell}").click(force=True)
    expect(mover.get_by_test_id("tt-odds-tank")).to_contain_text("to hit")
    if steady:
        # both shots are offered before the tank moves: the steady one has 2 dice fewer (K3)
        expect(mover.get_by_test_id("tt-odds-tank")).to_contain_text("5 dice")
        expect(mover.get_by_test_id("tt-odds-tank-steady")).to_contain_text("3 dice")
    mover.screenshot(path=str(artifacts / f"tube-tanks-{name}-aiming.png"), full_page=True)
    mover.get_by_test_id("tt-fire-tank-steady" if steady else "tt-fire-tank").click()
    if steady:
        expect(mover.get_by_test_id("tt-turn-status")).to_contain_text("staying put")
        # K3: no movement after staying put, so no "6 of 6 movement points left" either
        expect(mover.get_by_test_id("tt-turn-status")).not_to_contain_text("movement points")
        expect(mover.get_by_test_id("turn-banner")).not_to_contain_text("movement points")
        # QA: the hint used to keep saying "click a target" with nothing left to click
        expect(mover.get_by_test_id("tt-hint")).to_have_text(
            "This tank has nothing left to do: press End turn."
        )

    # the dice and the log line, in both browsers
    shooter = " ".join(active.split()[:2])  # "Green 1"
    for page in (mover, other):
        expect(page.get_by_test_id("tt-shot-text")).to_contain_text(f"{shooter} fires at")
        expect(page.get_by_test_id("tt-dice").get_by_test_id("tt-die").first).to_be_visible()
    entry = mover.locator('[data-testid="log-entry"]').filter(has_text=f"{shooter} fires at").last
    seq = int(entry.get_attribute("data-seq") or -1)
    expect(other.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first).to_be_visible()
    lines = log_texts(mover, seq)
    assert any("fires at" in line and "dice" in line for line in lines), lines
    assert log_texts(other, seq) == lines
    dice = mover.get_by_test_id("tt-dice").get_by_test_id("tt-die")
    faces = [dice.nth(i).get_attribute("data-face") for i in range(dice.count())]
    shot_line = next(line for line in lines if "fires at" in line)
    assert " ".join(faces or []) in shot_line
    other.screenshot(path=str(artifacts / f"tube-tanks-{name}-seen.png"), full_page=True)

    if mover.get_by_test_id("tt-end").count():
        before = mover.get_by_test_id("tt-active-name").inner_text()
        mover.get_by_test_id("tt-end").click()
        # the next activation is always another tank: wait for it, so the next turn's
        # `mover_of` does not see this End button before the server's answer removes it
        expect(mover.get_by_test_id("tt-active-name")).not_to_have_text(before)


def test_two_players_move_and_fire(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, (host, guest) = api_match(live_server, "tube-tanks", GINA_AND_OTTO, {"setup": "A"})
    gina = new_page(player=host)
    otto = new_page(player=guest)
    for page in (gina, otto):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("tt-board")).to_be_visible()
        expect(page.get_by_test_id("tt-compass")).to_be_visible()

    played: set[str] = set()
    for turn in range(6):  # a stunned tank skips its turn, so one side may play twice
        mover = mover_of([gina, otto])
        other = otto if mover is gina else gina
        expect(mover.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "true")
        expect(other.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "false")
        take_turn(mover, other, artifacts, f"turn{turn}", steady=bool(played))
        played.add("gina" if mover is gina else "otto")
        if played == {"gina", "otto"}:
            break
    assert played == {"gina", "otto"}
    gina.screenshot(path=str(artifacts / "tube-tanks-gina.png"), full_page=True)
    otto.screenshot(path=str(artifacts / "tube-tanks-otto.png"), full_page=True)


def test_phone_width_fits(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, players = api_match(live_server, "tube-tanks", GINA_AND_OTTO)
    pages = [new_page(width=390, height=800, player=player) for player in players]
    for page in pages:
        page.goto(f"/match/{match_id}")
        board = page.get_by_test_id("tt-board")
        expect(board).to_be_visible()
        assert fits_width(page, 390)
        assert board.bounding_box()["width"] >= 300
    pages[0].screenshot(path=str(artifacts / "tube-tanks-phone.png"), full_page=True)
    # the player to move sees her reachable cells with their cost, and the target panel fits
    mover = mover_of(pages)
    active = mover.get_by_test_id("tt-active-name").inner_text()  # "Green 1 on E1"
    side, cell = active.split()[0].lower(), active.split()[-1]
    forward = f"{cell[0]}{int(cell[1:]) + (1 if side == 'green' else -1)}"
    expect(mover.get_by_test_id(f"tt-reach-{forward}")).to_be_visible()
    mover.get_by_test_id("tt-mode-fire").click()
    target = mover.locator('[data-testid^="tt-target-"]').first
    target_cell = (target.get_attribute("data-testid") or "").removeprefix("tt-target-")
    mover.get_by_test_id(f"tt-cell-{target_cell}").click(force=True)
    expect(mover.get_by_test_id("tt-odds-tank")).to_contain_text("to hit")
    assert fits_width(mover, 390)
    mover.screenshot(path=str(artifacts / "tube-tanks-phone-aiming.png"), full_page=True)


def test_custom_zone_is_drawn_live_and_accepted(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    with httpx.Client(base_url=live_server) as client:
        host = api_player(client, "Gina")
        guest = api_player(client, "Otto")
    gina = new_page(player=host)
    otto = new_page(player=guest)
    # Gina picks the custom zone in the lobby's generic form: it starts from setup A.
    gina.goto("/")
    choose_game(gina, "tube-tanks")
    gina.get_by_test_id("option-setup").select_option(label="Custom zone (you draw it)")
    gina.get_by_test_id("create-match").click()
    gina.wait_for_url(re.compile(r"/match/[^/]+$"))
    match_id = gina.url.rstrip("/").rsplit("/", 1)[-1]
    otto.goto(f"/match/{match_id}")
    otto.get_by_test_id("take-seat-1").click()
    expect(otto.get_by_test_id("leave-seat")).to_be_visible()
    for page in (gina, otto):
        expect(page.get_by_test_id("tt-zone-editor")).to_be_visible()
        expect(page.get_by_test_id("tt-editor-board").get_by_test_id("tt-wall-B8")).to_be_visible()
    expect(otto.get_by_test_id("tt-tool-wall")).to_have_count(0)  # the guest only watches

    otto.get_by_test_id("accept-options").click()
    expect(otto.get_by_test_id("accept-options")).to_have_count(0)
    gina.get_by_test_id("tt-tool-wall").click()
    gina.get_by_test_id("tt-editor-board").locator('[data-testid="tt-cell-H8"]').click()
    # live in the guest's lobby, and the change withdrew the acceptance
    expect(otto.get_by_test_id("tt-editor-board").get_by_test_id("tt-wall-H8")).to_be_visible()
    expect(otto.get_by_test_id("accept-options")).to_be_visible()
    gina.get_by_test_id("tt-tool-green-1").click()
    gina.get_by_test_id("tt-editor-board").locator('[data-testid="tt-cell-C3"]').click()
    green_1_on_c3 = '[data-testid="tt-tank-green-1"][data-at="C3"]'
    expect(otto.get_by_test_id("tt-editor-board").locator(green_1_on_c3)).to_be_visible()
    otto.screenshot(path=str(artifacts / "tube-tanks-zone-guest.png"), full_page=True)
    otto.get_by_test_id("accept-options").click()
    expect(otto.get_by_test_id("accept-options")).to_have_count(0)
    gina.get_by_test_id("start-match").click()
    for page in (gina, otto):
        expect(page.get_by_test_id("tt-board").get_by_test_id("tt-wall-H8")).to_be_visible()
        expect(page.get_by_test_id("tt-board").locator(green_1_on_c3)).to_be_visible()
    gina.screenshot(path=str(artifacts / "tube-tanks-zone-started.png"), full_page=True)


def test_renderer_draws_a_finished_battle(new_page: Any, live_server: str, artifacts: Path) -> None:
    """The renderer on its own: the last shot of a battle (auto-hit, blast, destruction) and
    the game-over state it leaves, straight from the rules module's view."""
    game = get_game("tube-tanks")
    state = new_state(Options(wrecks=True), 0)
    for tank in state["tanks"]:
        tank["cell"], tank["hp"], tank["destroyed"] = None, 0, True
    state["tanks"][0].update(cell="H8", hp=6, destroyed=False)
    state["tanks"][3].update(cell="H9", hp=2, destroyed=False)
    state["tanks"][4].update(cell="G10", hp=1, destroyed=False)
    state["turn"]["steady"] = True
    after, events = game.apply(
        state, 0, {"type": "fire", "target": "H9", "aim": "tank"}, Dice("probe", 1)
    )
    outcome = game.outcome(after)
    assert outcome is not None and outcome.winners == (0,)
    wire = {
        "game": "tube-tanks",
        "status": "finished",
        "version": 1,
        "seats": [{"seat": 0, "name": "Gina"}, {"seat": 1, "name": "Otto"}],
        "you": 0,
        "active_seats": [],
        "legal_moves": [],
        "board": game.view(after, 0),
        "outcome": outcome.to_json(),
    }
    with httpx.Client(base_url=live_server) as client:
        page = new_page(player=api_player(client, "Gina"))
    page.goto("/")
    hint = page.evaluate(
        """async ({wire, events}) => {
          const m = await import('/static/js/games/tube-tanks.js');
          const root = document.createElement('div');
          document.querySelector('main').prepend(root);
          const r = m.createRenderer(root, {you: 0, submit: () => Promise.reject(new Error('x'))});
          r.update(wire, events);
          return document.querySelector('[data-testid=tt-hint]').textContent;
        }""",
        {"wire": wire, "events": events},
    )
    assert hint == outcome.reason
    expect(page.get_by_test_id("tt-shot-result")).to_have_text("hit for 6")
    expect(page.get_by_test_id("tt-card-orange-1")).to_have_attribute("data-hp", "0")
    expect(page.get_by_test_id("tt-tank-orange-2")).to_have_class(re.compile("tt-wreck"))
    page.screenshot(path=str(artifacts / "tube-tanks-finished.png"), full_page=True)


def test_a_ram_from_the_board(new_page: Any, live_server: str, artifacts: Path) -> None:
    """Rulings K12: "each tank takes floor(MP spent / 2) damage; the rammer's movement ends".
    Tanks 1 face each other on H7/H8 (a custom zone, accepted by the guest); the first player
    clicks the enemy tank, reads the ram panel, rams. QA found the status still offering
    "4 of 6 movement points left" after the ram ended the movement."""
    zone = {
        "walls": ["B8"],
        "pools": ["C6"],
        "gaps": [],
        "green": ["H7", "C5", "M2"],
        "orange": ["H8", "D7", "M14"],
    }
    with httpx.Client(base_url=live_server) as client:
        host, guest = api_player(client, "Gina"), api_player(client, "Otto")
        created = client.post(
            "/api/matches",
            headers=auth(host),
            json={"game": "tube-tanks", "options": {"setup": "custom", "zone": zone}, "seats": 2},
        )
        assert created.status_code == 201, created.text
        match_id, options = created.json()["id"], created.json()["options"]
        for path, body, who in (
            ("join", {}, guest),
            ("accept", {"options": options}, guest),
            ("start", {}, host),
        ):
            answer = client.post(f"/api/matches/{match_id}/{path}", json=body, headers=auth(who))
            assert answer.status_code == 200, answer.text
    pages = [new_page(player=host), new_page(width=390, height=844, player=guest)]
    for page in pages:
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("tt-board")).to_be_visible()
    mover = mover_of(pages)
    other = pages[1] if mover is pages[0] else pages[0]
    active = mover.get_by_test_id("tt-active-name").inner_text()  # "Orange 1 on H8"
    victim = "H7" if active.endswith("H8") else "H8"
    victim_side = "green" if victim == "H7" else "orange"
    mover.get_by_test_id(f"tt-ram-{victim}").click(force=True)
    expect(mover.get_by_test_id("tt-selection")).to_contain_text("both tanks take 1 damage")
    mover.get_by_test_id("tt-ram").click()
    status = mover.get_by_test_id("tt-turn-status")
    expect(status).to_contain_text("rammed: movement over")
    expect(status).not_to_contain_text("movement points left")
    for page in (mover, other):  # 2 points spent, so 1 damage each (K12)
        expect(page.get_by_test_id(f"tt-card-{victim_side}-1")).to_have_attribute("data-hp", "5")
    mover.screenshot(path=str(artifacts / "tube-tanks-rammed.png"), full_page=True)
