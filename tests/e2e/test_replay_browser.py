"""Replays and the history page, end to end: a C64 Maze match is played to its end through the
real server, then a visitor without any guest pass steps through it in the browser.

Assertions are on what a person sees: the board (pieces, walls, joystick cards), the
highlighted line of the move list, the outcome banner and the verification banner.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match, auth

pytestmark = pytest.mark.browser

# A long match (thousands of moves) takes a few seconds to load and to verify.
SLOW_MS = 30_000

# Everything the renderer draws that a move can change, as one comparable string.
BOARD_SIGNATURE = """() => {
  const root = document.querySelector('[data-testid="game-root"]');
  const pieces = [...root.querySelectorAll('[data-piece]')]
    .map((p) => `${p.dataset.piece}@${p.dataset.square}:${p.dataset.dir || ''}`).sort();
  const walls = [...root.querySelectorAll('.wall')].map((w) => w.dataset.square).sort();
  const cards = [...root.querySelectorAll('[data-card]')].map((c) =>
    [c.dataset.testid, c.dataset.card, c.dataset.row, c.dataset.col, c.dataset.face].join(':'));
  return JSON.stringify([pieces, walls, cards]);
}"""


@pytest.fixture(scope="module")
def finished(finish_maze_match: Any) -> dict[str, Any]:
    return dict(finish_maze_match(names=("Ada", "Bob")))


def board(page: Any) -> str:
    return str(page.evaluate(BOARD_SIGNATURE))


def at(page: Any, index: int) -> None:
    """The replay shows move `index`, and the move list highlights that move's line."""
    expect(page.get_by_test_id("transport")).to_have_attribute("data-index", str(index))
    current = page.locator('[data-testid="replay-move"].current')
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-index", str(index))
    expect(current).to_have_attribute("aria-current", "step")


def test_step_through_a_finished_match(
    new_page: Any, live_server: str, finished: dict[str, Any], artifacts: Path
) -> None:
    last = finished["moves"]
    page = new_page()  # a visitor with no guest pass: a finished replay needs no token
    page.goto(f"/replay/{finished['id']}")
    expect(page.get_by_test_id("board")).to_be_visible(timeout=SLOW_MS)
    expect(page.get_by_test_id("transport")).to_have_attribute("data-last", str(last))
    expect(page.get_by_test_id("replay-status")).to_have_text("finished")
    expect(page.get_by_test_id("live-banner")).to_be_hidden()
    at(page, 0)
    expect(page.get_by_test_id("replay-move")).to_have_count(last + 1)
    expect(page.get_by_test_id("replay-outcome")).to_be_hidden()
    start = board(page)
    page.screenshot(path=str(artifacts / "replay-start.png"), full_page=True)

    # Forward with the button, then with the keyboard: the board and the highlight follow.
    page.get_by_test_id("next").click()
    at(page, 1)
    after_one = board(page)
    assert after_one != start, "move 1 changed nothing on the board"
    page.keyboard.press("ArrowRight")
    at(page, 2)
    page.keyboard.press("ArrowRight")
    at(page, 3)
    after_three = board(page)
    assert after_three != after_one

    # Backwards is exact: the same board as on the way forward.
    page.keyboard.press("ArrowLeft")
    at(page, 2)
    page.get_by_test_id("prev").click()
    at(page, 1)
    assert board(page) == after_one
    page.get_by_test_id("prev").click()
    at(page, 0)
    assert board(page) == start

    # Jump by the scrubber and by a line of the move list.
    middle = last // 2
    page.get_by_test_id("scrubber").fill(str(middle))
    at(page, middle)
    middle_board = board(page)
    assert middle_board != start
    line = page.locator(f'[data-testid="replay-move"][data-index="{min(10, last)}"] button')
    line.click()
    at(page, min(10, last))
    expect(page.get_by_test_id("now-playing")).to_contain_text(f"Move {min(10, last)}")

    # End: the outcome, and the board the server reports for the finished match.
    page.keyboard.press("End")
    at(page, last)
    outcome = page.get_by_test_id("replay-outcome")
    expect(outcome).to_be_visible()
    summary = finished["summary"]
    winner_seat = summary["outcome"]["winners"][0]
    winner_name = next(s["name"] for s in summary["seats"] if s["seat"] == winner_seat)
    expect(page.get_by_test_id("replay-winner")).to_contain_text(f"({winner_name}) wins")
    expect(outcome).to_contain_text(summary["outcome"]["reason"])
    final = summary["view"]["board"]
    for player in final["players"]:
        piece = page.locator(f'[data-piece="adventurer-{player["seat"]}"]')
        expect(piece).to_have_attribute("data-square", player["square"])
    expect(page.get_by_test_id("next")).to_be_disabled()
    page.screenshot(path=str(artifacts / "replay-end.png"), full_page=True)

    # Home: back to the start, instantly and exactly.
    page.keyboard.press("Home")
    at(page, 0)
    expect(outcome).to_be_hidden()
    assert board(page) == start
    page.keyboard.press("End")
    at(page, last)
    page.get_by_test_id("scrubber").fill(str(middle))
    at(page, middle)
    assert board(page) == middle_board

    # Space plays and pauses.
    page.keyboard.press("Home")
    page.get_by_test_id("speed").select_option("40")
    page.locator("body").focus()
    page.keyboard.press("Space")
    expect(page.get_by_test_id("play")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("transport")).not_to_have_attribute("data-index", "0")
    page.keyboard.press("Space")
    expect(page.get_by_test_id("play")).to_have_attribute("aria-pressed", "false")
    paused_at = page.get_by_test_id("transport").get_attribute("data-index")
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("transport")).to_have_attribute("data-index", paused_at or "")

    # Verify: the server re-runs the exported record.
    page.get_by_test_id("verify").click()
    result = page.get_by_test_id("verify-result")
    expect(result).to_have_attribute("data-ok", "true", timeout=SLOW_MS)
    expect(result).to_contain_text("Verified")
    expect(result).to_contain_text(f"All {last} moves")

    # The fair-dice panel shows the commitment and the revealed seed.
    expect(page.get_by_test_id("seed-commitment")).to_have_attribute(
        "data-full", summary["seed_commitment"]
    )
    expect(page.get_by_test_id("seed")).to_have_attribute("data-full", summary["seed"])
    page.get_by_test_id("dice-help-button").click()
    expect(page.get_by_test_id("dice-help")).to_be_visible()
    page.screenshot(path=str(artifacts / "replay-verified.png"), full_page=False)
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("dice-help")).to_be_hidden()


def test_export_downloads_the_replay_record(
    new_page: Any, live_server: str, finished: dict[str, Any], tmp_path: Path
) -> None:
    page = new_page()
    page.goto(f"/replay/{finished['id']}")
    expect(page.get_by_test_id("export")).to_be_enabled(timeout=SLOW_MS)
    with page.expect_download() as download_info:
        page.get_by_test_id("export").click()
    download = download_info.value
    assert download.suggested_filename == f"arcade-night-c64-maze-{finished['id']}.json"
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    record = json.loads(target.read_text())
    assert record["format"] == "arcade-night-replay/1"
    assert record["id"] == finished["id"]
    assert len(record["moves"]) == finished["moves"]


def test_verify_reports_a_tampered_record_in_words(
    new_page: Any, live_server: str, finished: dict[str, Any], artifacts: Path
) -> None:
    """The record is altered on its way to the page (an event's words changed after the
    fact); the server's first difference is shown as it is."""
    page = new_page()

    def tampered(route: Any) -> None:
        answer = route.fetch()
        record = answer.json()
        record["moves"][4]["events"][0]["text"] = "Something else happened."
        route.fulfill(response=answer, json=record)

    page.route(re.compile(r"/api/matches/[^/]+/replay$"), tampered)
    page.goto(f"/replay/{finished['id']}")
    expect(page.get_by_test_id("verify")).to_be_enabled(timeout=SLOW_MS)
    page.get_by_test_id("verify").click()
    result = page.get_by_test_id("verify-result")
    expect(result).to_have_attribute("data-ok", "false", timeout=SLOW_MS)
    expect(page.get_by_test_id("verify-title")).to_have_text("✗ Does not check out")
    expect(page.get_by_test_id("verify-detail")).to_contain_text("Move 5")
    result.screenshot(path=str(artifacts / "replay-verify-failed.png"))


def test_history_lists_the_match_with_its_winner(
    new_page: Any, live_server: str, finished: dict[str, Any], artifacts: Path
) -> None:
    winner_seat = finished["summary"]["outcome"]["winners"][0]
    winner = finished["players"][winner_seat]
    page = new_page(player=winner)
    page.goto("/")
    page.get_by_test_id("nav-history").click()
    page.wait_for_url("**/history")
    row = page.locator(f'[data-testid="history-row"][data-match-id="{finished["id"]}"]')
    expect(row).to_be_visible()
    expect(row).to_contain_text("C64 Maze")
    expect(row.get_by_test_id("history-winner")).to_contain_text(winner["name"])
    expect(row.get_by_test_id("history-result")).to_have_text(f"{winner['name']} won")
    expect(row).to_contain_text(f"{finished['moves']} moves")
    assert row.locator("time").get_attribute("title"), "the full date shows on hover"

    # Mine: this browser's guest played it; a fresh guest has no matches.
    page.get_by_test_id("tab-mine").click()
    expect(page.get_by_test_id("tab-mine")).to_have_attribute("aria-selected", "true")
    expect(row).to_be_visible()
    assert "mine=true" in page.url
    page.get_by_test_id("game-filter").select_option("c64-cars")
    expect(page.get_by_test_id("history-empty")).to_be_visible()
    page.get_by_test_id("game-filter").select_option("c64-maze")
    expect(row).to_be_visible()
    page.screenshot(path=str(artifacts / "replay-history.png"), full_page=True)

    with httpx.Client(base_url=live_server) as client:
        stranger = client.post("/api/players", json={"name": "Nobody"}).json()
    other = new_page(player=stranger)
    other.goto("/history?mine=true")
    expect(other.get_by_test_id("history-empty")).to_be_visible()
    other.get_by_test_id("tab-all").click()
    expect(
        other.locator(f'[data-testid="history-row"][data-match-id="{finished["id"]}"]')
    ).to_be_visible()

    # The row leads to the replay.
    row.get_by_test_id("history-link").click()
    page.wait_for_url(f"**/replay/{finished['id']}")
    expect(page.get_by_test_id("board")).to_be_visible(timeout=SLOW_MS)


def test_phone_width_replay_and_history(
    new_page: Any, live_server: str, finished: dict[str, Any], artifacts: Path
) -> None:
    width = 375
    page = new_page(width=width, height=740)
    page.goto(f"/replay/{finished['id']}")
    expect(page.get_by_test_id("board")).to_be_visible(timeout=SLOW_MS)
    at(page, 0)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "no sideways scrolling"
    for testid in ("board", "transport", "next", "scrubber"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, testid
    page.get_by_test_id("next").click()
    at(page, 1)
    page.screenshot(path=str(artifacts / "replay-phone.png"), full_page=True)

    page.goto("/history")
    expect(page.get_by_test_id("history-row").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(artifacts / "replay-history-phone.png"), full_page=True)


def test_a_match_still_being_played_shows_a_live_banner(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, (cy, _di) = api_match(live_server, "c64-maze", ("Cy", "Di"))
    with httpx.Client(base_url=live_server, headers=auth(cy)) as client:
        legal = client.get(f"/api/matches/{match_id}").json()["view"]["legal_moves"]
        moved = client.post(f"/api/matches/{match_id}/moves", json={"move": legal[0]})
        assert moved.status_code == 200, moved.text

    page = new_page()
    page.goto(f"/replay/{match_id}")
    expect(page.get_by_test_id("live-banner")).to_be_visible()
    expect(page.get_by_test_id("live-banner")).to_contain_text("Still being played")
    expect(page.get_by_test_id("watch-live")).to_have_attribute("href", f"/match/{match_id}")
    at(page, 1)  # a live replay opens at the latest move
    expect(page.get_by_test_id("export")).to_be_disabled()
    expect(page.get_by_test_id("verify")).to_be_disabled()
    expect(page.get_by_test_id("replay-outcome")).to_be_hidden()
    page.screenshot(path=str(artifacts / "replay-live.png"), full_page=False)


def test_dice_in_events_show_as_die_faces(
    new_page: Any, live_server: str, finished: dict[str, Any], artifacts: Path
) -> None:
    """C64 games roll no dice yet; later games report them in events as `dice` or `rolls`.
    The frames are altered on the way in to carry some."""
    page = new_page()

    def with_dice(route: Any) -> None:
        answer = route.fetch()
        data = answer.json()
        data["frames"][0]["events"][0]["dice"] = [3, 5]
        data["frames"][1]["events"][0]["rolls"] = [[6], {"face": 2}, 12]
        route.fulfill(response=answer, json=data)

    page.route(re.compile(r"/api/matches/[^/]+/replay/frames"), with_dice)
    page.goto(f"/replay/{finished['id']}")
    expect(page.get_by_test_id("board")).to_be_visible(timeout=SLOW_MS)
    first = page.locator('[data-testid="replay-move"][data-index="1"] [data-testid="die"]')
    expect(first).to_have_count(2)
    assert [first.nth(i).get_attribute("data-face") for i in range(2)] == ["3", "5"]
    second = page.locator('[data-testid="replay-move"][data-index="2"] [data-testid="die"]')
    assert [second.nth(i).get_attribute("data-face") for i in range(3)] == ["6", "2", "12"]
    expect(first.first).to_have_attribute("aria-label", "die showing 3")
    page.get_by_test_id("next").click()
    expect(page.get_by_test_id("now-playing").get_by_test_id("die")).to_have_count(2)
    page.get_by_test_id("replay-log").screenshot(path=str(artifacts / "replay-dice.png"))


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_phone_controls_never_cover_the_board(
    new_page: Any, live_server: str, finished: dict[str, Any], artifacts: Path
) -> None:
    """QA: on a phone the sticky step controls covered the board's lower rows whenever a banner
    pushed the board down (the winner at the last move, then Verify's result), hiding the piece
    being watched. At the scroll positions a person uses to look at the board, the controls are
    on screen and clear of the board; the keys, the buttons, the share link and Export work."""
    width, height = 390, 844
    last = finished["moves"]
    page = new_page(width=width, height=height)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"/replay/{finished['id']}")
    board_svg = page.get_by_test_id("board")
    controls = page.get_by_test_id("transport")
    expect(board_svg).to_be_visible(timeout=SLOW_MS)
    at(page, 0)

    scroll_to: dict[str, Callable[[], object]] = {
        "top of the page": lambda: page.evaluate("window.scrollTo(0, 0)"),
        "board scrolled into view": board_svg.scroll_into_view_if_needed,
        "board centred": lambda: board_svg.evaluate(
            "(board) => board.scrollIntoView({block: 'center'})"
        ),
    }

    def board_stays_clear(moment: str) -> None:
        for position, scroll in scroll_to.items():
            scroll()
            board_box = board_svg.bounding_box()
            controls_box = controls.bounding_box()
            assert board_box is not None and controls_box is not None
            where = f"{moment}, {position}: controls {controls_box}, board {board_box}"
            assert not overlaps(controls_box, board_box), f"the controls cover the board ({where})"
            on_screen = 0 <= controls_box["y"] <= height - controls_box["height"]
            assert on_screen, f"the controls are off screen ({where})"

    board_stays_clear("at the start")
    page.keyboard.press("End")
    at(page, last)
    expect(page.get_by_test_id("replay-outcome")).to_be_visible()
    board_stays_clear("at the last move")
    page.get_by_test_id("verify").click()
    verified = page.get_by_test_id("verify-result")
    expect(verified).to_have_attribute("data-ok", "true", timeout=SLOW_MS)
    board_stays_clear("with the verification shown")
    scroll_to["top of the page"]()
    page.screenshot(path=str(artifacts / "replay-phone-controls-top.png"))
    scroll_to["board scrolled into view"]()
    page.screenshot(path=str(artifacts / "replay-phone-controls-board.png"))

    # The keys and the buttons still step; the share link carries the move shown.
    page.locator("body").focus()
    page.keyboard.press("Home")
    at(page, 0)
    page.keyboard.press("ArrowRight")
    at(page, 1)
    page.get_by_test_id("next").click()
    at(page, 2)
    page.get_by_test_id("copy-link").click()
    expect(page.get_by_test_id("copy-link")).to_have_text("Copied!")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{live_server}/replay/{finished['id']}#move=2"
    with page.expect_download() as download_info:
        page.get_by_test_id("export").click()
    assert download_info.value.suggested_filename == f"arcade-night-c64-maze-{finished['id']}.json"


# The move list builds its lines in chunks of 100; a jump far down the list needs several.
LONG_MATCH_MOVES = 300

# The highlighted move lies wholly inside the move list's scroll box (half a pixel of rounding).
CURRENT_MOVE_IN_LIST = """() => {
  const list = document.querySelector('[data-testid="replay-log"]').getBoundingClientRect();
  const move = document.querySelector('[data-testid="replay-move"].current');
  const box = move?.getBoundingClientRect();
  return Boolean(box) && box.height > 0
    && box.top >= list.top - 0.5 && box.bottom <= list.bottom + 0.5;
}"""


@pytest.fixture(scope="module")
def long_finished(finished: dict[str, Any], finish_maze_match: Any) -> dict[str, Any]:
    """A finished match long enough for the move list to hold many chunks: nearly always the
    module's match (random C64 Maze matches run to hundreds or thousands of moves)."""
    match = finished
    for seed in range(5, 10):
        if match["moves"] >= LONG_MATCH_MOVES:
            return match
        match = dict(finish_maze_match(names=("Eve", "Fay"), seed=seed))
    assert match["moves"] >= LONG_MATCH_MOVES, f"no match of {LONG_MATCH_MOVES} moves"
    return match


def shows_current_move_in_list(page: Any, index: int) -> None:
    """Move `index` is the one shown, and its line is in sight inside the move list."""
    at(page, index)
    try:
        page.wait_for_function(CURRENT_MOVE_IN_LIST, timeout=5_000)
    except PlaywrightTimeoutError:
        move = page.locator('[data-testid="replay-move"].current').bounding_box()
        log = page.get_by_test_id("replay-log").bounding_box()
        scrolled = page.get_by_test_id("replay-log").evaluate("(list) => list.scrollTop")
        raise AssertionError(
            f"move {index} is out of sight: its line at {move}, the list at {log} "
            f"(scrolled to {scrolled}px)"
        ) from None


def test_the_move_list_follows_far_jumps(
    new_page: Any, live_server: str, long_finished: dict[str, Any], artifacts: Path
) -> None:
    """Review: after End on a match of ~1,200 moves the move list scrolled to about 1,900px
    while the highlighted move sat near 94,000px. After every kind of jump the highlighted
    line is inside the list's scroll box, and only the list scrolls, never the page."""
    last = long_finished["moves"]
    middle = last // 2 + 37  # well inside a chunk that is neither the first nor the last
    page = new_page(width=1280, height=800)
    page.goto(f"/replay/{long_finished['id']}#move={middle}")
    expect(page.get_by_test_id("board")).to_be_visible(timeout=SLOW_MS)
    shows_current_move_in_list(page, middle)
    page_scroll = page.evaluate("window.scrollY")

    def jump(act: Callable[[], object], index: int) -> None:
        act()
        shows_current_move_in_list(page, index)
        assert page.evaluate("window.scrollY") == page_scroll, "the page scrolled away"

    jump(lambda: page.keyboard.press("End"), last)
    page.get_by_test_id("replay-log").screenshot(path=str(artifacts / "replay-log-end.png"))
    jump(lambda: page.keyboard.press("Home"), 0)
    jump(lambda: page.get_by_test_id("scrubber").fill(str(last - 150)), last - 150)
    jump(lambda: page.get_by_test_id("scrubber").fill(str(120)), 120)
    jump(lambda: page.get_by_test_id("last").click(), last)
    for step in range(1, 4):
        jump(lambda: page.keyboard.press("ArrowLeft"), last - step)
    jump(lambda: page.get_by_test_id("first").click(), 0)
    for step in range(1, 16):  # stepping past the bottom of the list's box keeps it in sight
        jump(lambda: page.keyboard.press("ArrowRight"), step)
