"""Tank Skirmish, issue 14: the last shot comes from the match (item 6), each player sees the
Zone from her own side (item 4), a phone shows a board with cells big enough to tap beside
the controls of the decision at hand (item 5), and the sides differ by shape (item 10).

Matches are played over REST where the test only needs their result; what a person sees is
asserted in the browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.games.tube_tanks.ballistics import distance
from app.games.tube_tanks.options import RULE_FLAGS
from app.games.tube_tanks.zone import parse_cell
from tests.e2e.lobby_flow import api_player, auth
from tests.e2e.phone import MIN_TAP_PX, assert_phone_table

pytestmark = pytest.mark.browser

# The optional rules off (wrecks and the missions keep their defaults).
CORE_RULES = {flag: False for flag in RULE_FLAGS if flag != "wrecks" and "mission" not in flag}
# Every tank faces an enemy on the next row: staying put and firing at distance 1 rolls no
# dice at all, an automatic hit for 6 (K4), so a duel ends in a few turns.
DUEL_ZONE = {
    "walls": ["B8"],
    "pools": ["C6"],
    "gaps": [],
    "green": ["C7", "H7", "M7"],
    "orange": ["C8", "H8", "M8"],
}


def open_match(base: str, options: dict[str, Any]) -> tuple[str, list[dict[str, str]]]:
    """A started two-player match with these options (accepted by the guest): (id, players by
    seat)."""
    with httpx.Client(base_url=base) as client:
        host, guest = api_player(client, "Gina"), api_player(client, "Otto")
        created = client.post(
            "/api/matches",
            headers=auth(host),
            json={"game": "tube-tanks", "options": options, "seats": 2},
        )
        assert created.status_code == 201, created.text
        match_id, parsed = created.json()["id"], created.json()["options"]
        steps = [("join", {}, guest)]
        if options.get("setup") == "custom":
            steps.append(("accept", {"options": parsed}, guest))
        steps.append(("start", {}, host))
        for path, body, who in steps:
            answer = client.post(f"/api/matches/{match_id}/{path}", json=body, headers=auth(who))
            assert answer.status_code == 200, answer.text
        summary = client.get(f"/api/matches/{match_id}").json()
    seat_of = {s["player_id"]: s["seat"] for s in summary["seats"]}
    return match_id, sorted([host, guest], key=lambda p: seat_of[p["id"]])


def four_row_target(view: dict[str, Any]) -> str | None:
    """A target for which the active tank, not moved yet, is offered four different shots:
    from the tank and from its targeting token, each also staying put (K3, K10). It must be
    close enough that staying put changes the dice from both (K4: at the 10-dice cap both
    shots would be the same). None when there is no such target."""
    legal = view["legal_moves"]
    if not any(m["type"] == "fire" and m["aim"] == "token" for m in legal):
        return None
    board = view["board"]
    tank = board["tanks"][board["turn"]["tank"]]
    here, token = parse_cell(tank["cell"]), tuple(tank["token"])
    return next(
        (
            m["target"]
            for m in legal
            if m["type"] == "fire"
            and m["aim"] == "tank"
            and 2 <= distance(here, parse_cell(m["target"])) <= 11
            and 1 <= distance(token, parse_cell(m["target"])) <= 9
        ),
        None,
    )


def duel_turn(base: str, match_id: str, people: list[dict[str, str]]) -> dict[str, Any] | None:
    """The active tank stays put, fires at the nearest enemy and ends its turn. Returns the
    shot's `fire` event and the match version after it (None once the battle is over)."""
    with httpx.Client(base_url=base) as client:
        view = client.get(f"/api/matches/{match_id}", headers=auth(people[0])).json()["view"]
        if view["status"] == "finished":
            return None
        seat = view["active_seats"][0]
        mine = client.get(f"/api/matches/{match_id}", headers=auth(people[seat])).json()["view"]
        legal = mine["legal_moves"]
        shots = [m for m in legal if m["type"] == "fire"]
        fired = None
        for move in ([{"type": "stay"}, shots[0]] if shots else []) + [{"type": "end"}]:
            sent = client.post(
                f"/api/matches/{match_id}/moves",
                headers=auth(people[seat]),
                json={"move": move, "id": f"duel-{mine['version']}-{move['type']}"},
            )
            assert sent.status_code == 200, sent.text
            if move["type"] == "fire":
                fired = sent.json()["version"]
            now = client.get(f"/api/matches/{match_id}", headers=auth(people[seat])).json()
            if now["view"]["status"] == "finished":
                break
        if fired is None:
            return {"text": None, "version": None}
        log = client.get(f"/api/matches/{match_id}/log", headers=auth(people[0])).json()
    entry = next(e for e in log["moves"] if e["seq"] == fired)
    shot = next(e for e in entry["events"] if e["type"] == "fire")
    return {"text": shot["text"], "version": fired}


def test_a_reloaded_match_and_its_replay_show_the_shot_of_their_position(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue 14 item 6: the panel showed "No shot fired yet." on a reloaded match and on a
    replay's End, and an older shot while stepping back. It is the match's last shot now."""
    match_id, people = open_match(live_server, {"setup": "custom", "zone": DUEL_ZONE, **CORE_RULES})
    first = duel_turn(live_server, match_id, people)
    assert first is not None and first["text"]
    page = new_page(player=people[0])
    page.goto(f"/match/{match_id}")  # opened after the shot: it never saw it happen
    expect(page.get_by_test_id("tt-shot-text")).to_have_text(first["text"])

    shots = [first]
    while (turn := duel_turn(live_server, match_id, people)) is not None:
        if turn["text"]:
            shots.append(turn)
    assert len(shots) >= 3
    page.reload()
    expect(page.get_by_test_id("game-over")).to_be_visible()
    expect(page.get_by_test_id("tt-shot-text")).to_have_text(shots[-1]["text"])
    expect(page.get_by_test_id("tt-dice-empty")).to_have_count(0)
    page.screenshot(path=str(artifacts / "tube-tanks-reloaded-finished.png"), full_page=True)

    replay = new_page()
    replay.goto(f"/replay/{match_id}")
    expect(replay.get_by_test_id("tt-board")).to_be_visible()
    expect(replay.get_by_test_id("tt-dice-empty")).to_be_visible()  # move 0: no shot yet
    replay.get_by_test_id("last").click()
    last = replay.get_by_test_id("transport").get_attribute("data-last")
    expect(replay.get_by_test_id("transport")).to_have_attribute("data-index", last or "")
    expect(replay.get_by_test_id("tt-shot-text")).to_have_text(shots[-1]["text"])
    # Step back to the move before the last shot: the shot before it shows.
    target = shots[-1]["version"] - 1
    while int(replay.get_by_test_id("transport").get_attribute("data-index") or 0) > target:
        index = int(replay.get_by_test_id("transport").get_attribute("data-index") or 0)
        replay.get_by_test_id("prev").click()
        expect(replay.get_by_test_id("transport")).to_have_attribute("data-index", str(index - 1))
    expect(replay.get_by_test_id("tt-shot-text")).to_have_text(shots[-2]["text"])
    # And forward onto the last shot again, one step: its dice.
    replay.get_by_test_id("next").click()
    expect(replay.get_by_test_id("tt-shot-text")).to_have_text(shots[-1]["text"])
    # Jump to the first shot with the scrubber: that shot, not the last one seen.
    replay.get_by_test_id("scrubber").fill(str(shots[0]["version"]))
    expect(replay.get_by_test_id("transport")).to_have_attribute(
        "data-index", str(shots[0]["version"])
    )
    expect(replay.get_by_test_id("tt-shot-text")).to_have_text(shots[0]["text"])
    replay.get_by_test_id("first").click()
    expect(replay.get_by_test_id("tt-dice-empty")).to_be_visible()
    replay.screenshot(path=str(artifacts / "tube-tanks-replay-start.png"), full_page=True)


def tank_y(page: Any, cell: str) -> float:
    box = page.get_by_test_id(f"tt-cell-{cell}").bounding_box()
    assert box is not None
    return float(box["y"])


def test_each_player_sees_her_own_side_and_the_sides_differ_by_shape(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue 14 item 4: her own home edge at the bottom by default (green row 1, orange row
    15, K1), spectators the standard view (north up); the compass says where north is on the
    board she sees. Item 10: green and orange tanks differ by shape, not only by colour."""
    match_id, people = open_match(live_server, {"setup": "A"})
    green, orange, watcher = new_page(player=people[0]), new_page(player=people[1]), new_page()
    for page in (green, orange, watcher):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("tt-board")).to_be_visible()
    assert tank_y(green, "H1") > tank_y(green, "H15")
    assert tank_y(watcher, "H1") > tank_y(watcher, "H15")
    assert tank_y(orange, "H15") > tank_y(orange, "H1")
    expect(green.get_by_test_id("tt-compass-text")).to_contain_text("North (row 15) is at the top")
    expect(orange.get_by_test_id("tt-compass-text")).to_contain_text(
        "North (row 15) is at the bottom"
    )
    expect(watcher.get_by_test_id("tt-compass-text")).to_contain_text(
        "North (row 15) is at the top"
    )
    orange.get_by_test_id("tt-flip").click()  # she may still turn it
    expect(orange.get_by_test_id("tt-compass-text")).to_contain_text("is at the top")
    assert tank_y(orange, "H1") > tank_y(orange, "H15")

    for page in (green, watcher):
        greens = page.locator('[data-testid^="tt-tank-green-"]')
        oranges = page.locator('[data-testid^="tt-tank-orange-"]')
        expect(greens).to_have_count(3)
        expect(oranges).to_have_count(3)
        for i in range(3):
            expect(greens.nth(i)).to_have_attribute("data-shape", "round")
            expect(oranges.nth(i)).to_have_attribute("data-shape", "diamond")
        assert (
            page.locator('[data-testid="tt-tank-green-1"] .tt-turret').evaluate("e => e.tagName")
            == "circle"
        )
        assert (
            page.locator('[data-testid="tt-tank-orange-1"] .tt-turret').evaluate("e => e.tagName")
            == "polygon"
        )
    watcher.screenshot(path=str(artifacts / "tube-tanks-shapes.png"), full_page=True)


def cell_px(page: Any) -> float:
    box = page.get_by_test_id("tt-cell-H8").bounding_box()
    assert box is not None
    return float(min(box["width"], box["height"]))


def wait_for_big_cells(page: Any) -> None:
    """The game's stylesheet arrives after the board is drawn: wait for the zoomed cells."""
    page.wait_for_function(
        """(minTap) => {
          const cell = document.querySelector('[data-testid="tt-cell-H8"]');
          const r = cell ? cell.getBoundingClientRect() : { width: 0, height: 0 };
          return Math.min(r.width, r.height) >= minTap;
        }""",
        arg=MIN_TAP_PX,
    )


def expect_in_view(page: Any, testid: str) -> None:
    """The element comes to lie inside the board's viewport, panned there by the page (the
    test never scrolls it)."""
    page.wait_for_function(
        """(id) => {
          const el = document.querySelector(`[data-testid="${id}"]`);
          const viewport = document.querySelector('[data-testid="tt-viewport"]');
          const port = viewport.getBoundingClientRect();
          const r = el ? el.getBoundingClientRect() : null;
          return Boolean(r) && r.left >= port.left - 1 && r.right <= port.right + 1
            && r.top >= port.top - 1 && r.bottom <= port.bottom + 1;
        }""",
        arg=testid,
    )


def test_a_phone_plays_a_move_and_a_shot(new_page: Any, live_server: str, artifacts: Path) -> None:
    """Issue 14 item 5 at 390x844: the board pans at >= 40 px a cell, centred on the active
    tank (and its targets when firing), with the controls on screen; "Whole board" shows all
    of it. Tank Skirmish has no set-up decision in the match (the zone is chosen in the lobby):
    the first move, a shot and the waiting player's view are checked."""
    match_id, people = open_match(live_server, {"setup": "A"})
    with httpx.Client(base_url=live_server) as client:
        seat = client.get(f"/api/matches/{match_id}").json()["view"]["active_seats"][0]
    pages = [new_page(width=390, height=844, player=p) for p in people]
    for page in pages:
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("tt-board")).to_be_visible()
        wait_for_big_cells(page)
    mover = pages[seat]
    waiting = pages[1] if mover is pages[0] else pages[0]
    expect(mover.get_by_test_id("tt-end")).to_be_visible()
    active = mover.get_by_test_id("tt-active-name").inner_text()  # "Green 1 on E1"
    side, number, cell = active.split()[0].lower(), active.split()[1], active.split()[-1]
    forward = f"{cell[0]}{int(cell[1:]) + (1 if side == 'green' else -1)}"

    # A move: big cells, the active tank and its next cells in sight, controls on screen.
    expect(mover.get_by_test_id(f"tt-reach-{forward}")).to_be_visible()
    assert cell_px(mover) >= MIN_TAP_PX
    expect_in_view(mover, f"tt-tank-{side}-{number}")
    expect_in_view(mover, f"tt-reach-{forward}")
    assert_phone_table(mover)
    assert_phone_table(waiting, controls=False)
    assert cell_px(waiting) >= MIN_TAP_PX
    mover.screenshot(path=str(artifacts / "tube-tanks-phone-move.png"))
    mover.get_by_test_id(f"tt-reach-{forward}").click()
    expect(mover.get_by_test_id("tt-active-name")).to_have_text(active.replace(cell, forward))
    expect_in_view(mover, f"tt-tank-{side}-{number}")
    assert_phone_table(mover)

    # A shot: fire mode pans to the targets; pick the nearest, the odds and Fire on screen.
    mover.get_by_test_id("tt-mode-fire").click()
    target = mover.locator('[data-testid^="tt-target-"]').first
    expect(target).to_be_attached()
    target_id = target.get_attribute("data-testid") or ""
    target_cell = target_id.removeprefix("tt-target-")
    expect_in_view(mover, f"tt-tank-{side}-{number}")
    assert_phone_table(mover)
    mover.get_by_test_id(f"tt-cell-{target_cell}").click(force=True)
    expect(mover.get_by_test_id("tt-odds-tank")).to_contain_text("to hit")
    expect_in_view(mover, f"tt-cell-{target_cell}")
    assert_phone_table(mover)
    mover.screenshot(path=str(artifacts / "tube-tanks-phone-aiming.png"))
    mover.get_by_test_id("tt-fire-tank").click()
    expect(mover.get_by_test_id("tt-shot-text")).to_contain_text("fires at")
    expect(waiting.get_by_test_id("tt-shot-text")).to_contain_text("fires at")
    assert_phone_table(mover)

    # The whole board on request: every cell inside the viewport, smaller.
    mover.get_by_test_id("tt-zoom").click()
    expect(mover.get_by_test_id("tt-zoom")).to_have_attribute("aria-pressed", "false")
    for corner in ("A1", "O1", "A15", "O15"):
        expect_in_view(mover, f"tt-cell-{corner}")
    assert_phone_table(mover)
    mover.screenshot(path=str(artifacts / "tube-tanks-phone-whole.png"))
    mover.get_by_test_id("tt-zoom").click()
    expect(mover.get_by_test_id("tt-zoom")).to_have_attribute("aria-pressed", "true")
    assert cell_px(mover) >= MIN_TAP_PX


def test_the_zone_editor_on_a_phone(new_page: Any, live_server: str, artifacts: Path) -> None:
    """Issue 14 item 5, the set-up decision (a custom zone is drawn in the lobby): on a phone
    the editor's cells and palette are big enough to tap and nothing scrolls sideways."""
    with httpx.Client(base_url=live_server) as client:
        host = api_player(client, "Gina")
        created = client.post(
            "/api/matches",
            headers=auth(host),
            json={"game": "tube-tanks", "options": {"setup": "custom"}, "seats": 2},
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
    page = new_page(width=390, height=844, player=host)
    page.goto(f"/match/{match_id}")
    editor = page.get_by_test_id("tt-editor-board")
    expect(editor).to_be_visible()
    wait_for_big_cells(page)
    cell = editor.locator('[data-testid="tt-cell-H8"]')
    box = cell.bounding_box()
    assert box is not None and min(box["width"], box["height"]) >= MIN_TAP_PX, box
    problems = page.evaluate(
        """(minTap) => {
          const out = [];
          if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push("sideways");
          for (const b of document.querySelectorAll('[data-testid="tt-zone-editor"] button')) {
            const r = b.getBoundingClientRect();
            if (r.width + 0.5 < minTap || r.height + 0.5 < minTap) out.push(b.textContent);
          }
          return out;
        }""",
        MIN_TAP_PX,
    )
    assert problems == []
    page.get_by_test_id("tt-tool-wall").click()
    cell.click()
    expect(editor.get_by_test_id("tt-wall-H8")).to_be_visible()
    page.screenshot(path=str(artifacts / "tube-tanks-phone-editor.png"))
    page.get_by_test_id("tt-editor-zoom").click()
    expect(page.get_by_test_id("tt-editor-zoom")).to_have_attribute("aria-pressed", "false")
    corner = editor.locator('[data-testid="tt-cell-O1"]').bounding_box()
    assert corner is not None and corner["x"] + corner["width"] <= 390


def test_the_largest_shot_panel_fits_a_phone(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """The fullest decision: a tank with a targeting token (Triangulation, K10) that has not
    moved yet is offered four shots (from the tank or the token, each also staying put, K3);
    with the board, they and End turn fit the phone's screen."""
    match_id, people = open_match(live_server, {"setup": "A"})
    # Where a missed shot lands (and so the token) is up to the dice: every tank fires once a
    # turn until one starts its turn with a token and a target near enough to both.
    with httpx.Client(base_url=live_server) as client:
        for number in range(24):
            view = client.get(f"/api/matches/{match_id}").json()["view"]
            seat = view["active_seats"][0]
            mine = client.get(f"/api/matches/{match_id}", headers=auth(people[seat])).json()
            target = four_row_target(mine["view"])
            if target is not None:
                break
            legal = mine["view"]["legal_moves"]
            shots = [m for m in legal if m["type"] == "fire" and m["aim"] == "tank"]
            for move in shots[:1] + [{"type": "end"}]:
                sent = client.post(
                    f"/api/matches/{match_id}/moves",
                    headers=auth(people[seat]),
                    json={"move": move, "id": f"setup-{number}-{move['type']}"},
                )
                assert sent.status_code == 200, sent.text
        else:
            raise AssertionError("no tank ever had a token and a target near both")
    page = new_page(width=390, height=844, player=people[seat])
    page.goto(f"/match/{match_id}")
    wait_for_big_cells(page)
    page.get_by_test_id("tt-mode-fire").click()
    page.get_by_test_id(f"tt-cell-{target}").click(force=True)
    for testid in ("tt-fire-tank", "tt-fire-tank-steady", "tt-fire-token", "tt-fire-token-steady"):
        expect(page.get_by_test_id(testid)).to_be_in_viewport(ratio=1)
    expect(page.get_by_test_id("tt-end")).to_be_in_viewport(ratio=1)
    assert_phone_table(page)
    page.screenshot(path=str(artifacts / "tube-tanks-phone-four-shots.png"))
