"""Computer players and absent friends in the browser (issue 15, items 2, 3 and 5).

- One friend opens a C64 Tanks table, puts a normal computer player in the other seat, sets a
  turn timer, starts and plays the whole match against it through the page, to its outcome.
- Three friends play C64 Maze; one closes her tab and becomes away; the others see it, let
  the computer play for her with one click and watch it move for her; she opens the invite
  link again, gets her seat back and is told what the computer did meanwhile.
- Two friends: one goes away; once she has been away long enough the other claims the win.
- At phone size (390x844) the host's new lobby controls fit and are big enough to tap.

These tests run their own server: computer players answer at once (bot_think_seconds=0) with
a small search budget, and a seat without a socket is away after one second. Every wait is
for something on the page, never for a time.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.conftest import LiveServer
from tests.e2e.browser_pages import page_maker
from tests.e2e.c64_browser import MINE, mode, take_two_cards, version
from tests.e2e.lobby_flow import api_match, auth, choose_game, fits_width, give_name
from tests.e2e.phone import MIN_TAP_PX, PHONE, assert_phone_table

pytestmark = pytest.mark.browser

# A computer's move (or a seat turning away) on a loaded two-core machine: generous, since
# the first decision also starts the server's worker process.
SLOW_MS = 60_000


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    database = tmp_path_factory.mktemp("computer-players") / "arcade.db"
    server = LiveServer(
        f"sqlite+aiosqlite:///{database}",
        bot_think_seconds=0,
        bot_time_budget=0.05,
        bot_workers=1,
        away_after_seconds=1,
        claim_win_after_seconds=2,
    ).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def open_page(browser: Any, bot_server: LiveServer) -> Iterator[Callable[..., Any]]:
    """Like conftest's new_page, on this module's server."""
    with page_maker(browser, bot_server.url) as make:
        yield make


# ------------------------------------------------------------------ helpers
_MY_MOVE_OR_THE_END = """() => {
  const over = document.querySelector('[data-testid="game-over"]');
  if (over && !over.hidden) return true;
  const mode = document.querySelector('[data-testid="my-joystick"]')?.dataset.mode;
  return mode === "take" || mode === "return" || mode === "play";
}"""


def game_over(page: Any) -> bool:
    return bool(page.get_by_test_id("game-over").is_visible())


def wait_for_my_move_or_the_end(page: Any) -> None:
    page.wait_for_function(_MY_MOVE_OR_THE_END, timeout=SLOW_MS)


def play_a_random_card(page: Any, rng: random.Random) -> None:
    """A set-up return or a turn through the joystick, like a player trying things: a legal
    active card and a legal empty space chosen at random (seeded), the chooser's faces kept."""
    cards = page.locator(f'{MINE} [data-testid="active-card"][data-legal="true"]')
    expect(cards.first).to_be_visible()
    card = cards.nth(rng.randrange(cards.count()))
    if card.get_attribute("data-selected") != "true":  # a single card comes preselected
        card.click()
    spaces = page.locator(f'{MINE} [data-testid="joy-space"][data-legal="true"]')
    expect(spaces.first).to_be_visible()
    spaces.nth(rng.randrange(spaces.count())).click()
    if page.get_by_test_id("face-chooser").is_visible():  # her last card: the next faces
        page.get_by_test_id("confirm-move").click()


def open_the_table(page: Any, name: str, game: str, seats: int) -> None:
    """A friend arrives in the lobby, gives her name and opens a table (lobby_flow's
    open_table, minus its invite check: this module's server has its own address)."""
    page.goto("/")
    give_name(page, name)
    expect(page.get_by_test_id("player-name")).to_have_text(name)
    # The home page says you can play alone, against the computer.
    expect(page.get_by_test_id("play-alone")).to_contain_text("computer")
    choose_game(page, game)
    page.get_by_test_id(f"seats-{seats}").check()
    page.get_by_test_id("create-match").click()
    page.wait_for_url(re.compile(r"/match/[^/]+$"))
    expect(page.get_by_test_id("lobby-view")).to_be_visible()


def player_row(page: Any, seat: int) -> Any:
    return page.locator(f'[data-testid="player"][data-seat="{seat}"]')


# ------------------------------------------------------------------ tests
def test_one_friend_plays_a_whole_tanks_match_against_the_computer(
    open_page: Callable[..., Any], bot_server: LiveServer, artifacts: Path
) -> None:
    ada = open_page()
    open_the_table(ada, "Ada", "c64-tanks", 2)

    # Alone at her table, the host is told how to play alone, and adds a normal computer.
    expect(ada.get_by_test_id("lobby-hint")).to_contain_text("Add a computer player to play alone")
    expect(ada.get_by_test_id("start-match")).to_be_disabled()
    expect(ada.get_by_test_id("bot-level-1")).to_have_value("normal")
    ada.get_by_test_id("add-bot-1").click()
    bot_seat = ada.locator('[data-testid="seat"][data-seat="1"]')
    expect(bot_seat).to_have_attribute("data-bot", "normal")
    expect(bot_seat.get_by_test_id("computer-badge")).to_be_visible()
    expect(bot_seat).to_contain_text("Computer (normal)")
    expect(ada.get_by_test_id("add-bot-1")).to_have_count(0)
    expect(ada.get_by_test_id("remove-bot-1")).to_be_visible()

    # The host sets a turn timer; the match page then counts each turn down.
    ada.get_by_test_id("turn-timer").select_option(label="5 min")
    expect(ada.get_by_test_id("turn-timer")).to_have_value("300")
    expect(ada.get_by_test_id("start-match")).to_be_enabled()
    ada.screenshot(path=str(artifacts / "computer-players-lobby.png"), full_page=True)
    ada.get_by_test_id("start-match").click()

    expect(ada.get_by_test_id("board")).to_be_visible()
    expect(player_row(ada, 1)).to_have_attribute("data-bot", "normal")
    expect(player_row(ada, 1)).to_contain_text("Computer (normal)")
    expect(ada.get_by_test_id("turn-countdown")).to_have_text(re.compile(r"^\d+:\d\d$"))

    # Ada plays her moves through the joystick until the match ends; the computer answers.
    rng = random.Random(15)
    moves = 0
    while True:
        wait_for_my_move_or_the_end(ada)
        if game_over(ada):
            break
        assert moves < 400, "the match against the computer did not end"
        before = version(ada)
        if mode(ada) == "take":
            take_two_cards(ada)
        else:
            play_a_random_card(ada, rng)
        expect(ada.get_by_test_id("game-root")).not_to_have_attribute(
            "data-version", str(before), timeout=SLOW_MS
        )
        moves += 1

    expect(ada.get_by_test_id("winner")).to_have_text(re.compile(r"^(You win!|.+ wins!)$"))
    # The log marks the computer's moves; the REST log says the same.
    expect(ada.locator('[data-testid="log-entry"][data-bot="true"]').first).to_be_attached()
    match_id = ada.url.rstrip("/").split("/")[-1]
    with httpx.Client(base_url=bot_server.url) as client:
        log = client.get(f"/api/matches/{match_id}/log").json()["moves"]
        summary = client.get(f"/api/matches/{match_id}").json()
    assert summary["status"] == "finished"
    assert any(move.get("bot") for move in log), "the log says which moves the computer made"
    assert not all(move.get("bot") for move in log), "Ada's own moves are hers"
    ada.screenshot(path=str(artifacts / "computer-players-tanks-over.png"), full_page=True)
    # Its replay names the computer's seat as one too.
    ada.goto(f"/replay/{match_id}")
    expect(ada.get_by_test_id("replay-sub").get_by_test_id("bot-name")).to_have_text(
        "Computer (normal)"
    )


def test_the_others_let_the_computer_play_for_an_absent_friend_until_she_returns(
    open_page: Callable[..., Any], bot_server: LiveServer, artifacts: Path
) -> None:
    match_id, (ada_p, bea_p, cid_p) = api_match(bot_server.url, "c64-maze", ("Ada", "Bea", "Cid"))
    # Cid plays on a phone: the banner about Bea must leave his board and controls in sight.
    ada, bea = open_page(player=ada_p), open_page(player=bea_p)
    cid = open_page(width=PHONE["width"], height=PHONE["height"], player=cid_p)
    for page in (ada, bea, cid):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    # Ada and Cid take their set-up cards; Bea is the one left to move.
    take_two_cards(ada)
    take_two_cards(cid)
    for page in (ada, cid):
        expect(player_row(page, 1).locator(".to-move")).to_be_visible()
        expect(player_row(page, 1)).to_have_attribute("data-away", "false")

    # Bea closes her tab: after the grace period the others see her away, with how long.
    bea_context = bea.context
    bea.close()
    for page in (ada, cid):
        expect(player_row(page, 1)).to_have_attribute("data-away", "true", timeout=SLOW_MS)
        expect(player_row(page, 1).get_by_test_id("away")).to_have_text(
            re.compile(r"^away \d+ (s|min)$")
        )
        expect(page.get_by_test_id("absent-text")).to_contain_text("Bea has been away for")
        expect(page.get_by_test_id("stand-in-1")).to_have_text("Let the computer play for Bea")
    assert_phone_table(cid, controls=mode(cid) != "idle")
    ada.screenshot(path=str(artifacts / "computer-players-away.png"), full_page=True)
    cid.screenshot(path=str(artifacts / "computer-players-away-phone.png"))

    # One click by Ada; everyone is told, and the computer plays Bea's set-up.
    before = version(cid)
    ada.get_by_test_id("stand-in-1").click()
    for page in (ada, cid):
        expect(
            page.get_by_test_id("log-notice").filter(has_text="let the computer play for Bea")
        ).to_be_visible()
        expect(page.get_by_test_id("stand-in-1")).to_have_count(0)
        expect(page.get_by_test_id("stand-in-note")).to_have_text("computer playing for Bea")
        expect(page.locator('[data-testid="log-entry"][data-bot="true"]').first).to_be_attached(
            timeout=SLOW_MS
        )
    assert version(cid) > before
    with httpx.Client(base_url=bot_server.url) as client:
        log = client.get(f"/api/matches/{match_id}/log", headers=auth(ada_p)).json()["moves"]
    bot_moves = [move for move in log if move.get("bot")]
    assert bot_moves, "the computer moved for Bea"
    cid.screenshot(path=str(artifacts / "computer-players-stand-in.png"), full_page=True)

    # Bea opens the invite link again: her seat is hers at once, and she reads what happened.
    errors: list[str] = []
    back = bea_context.new_page()
    back.on("pageerror", lambda error: errors.append(str(error)))
    back.goto(f"/match/{match_id}")
    expect(back.get_by_test_id("welcome-back")).to_be_visible()
    expect(back.get_by_test_id("welcome-back-text")).to_contain_text(
        "While you were away the computer made"
    )
    expect(back.get_by_test_id("game-root")).to_have_attribute("data-you", "1")
    for page in (ada, cid):
        expect(page.get_by_test_id("log-notice").last).to_have_attribute(
            "data-type", "seat_change:returned"
        )
        expect(page.get_by_test_id("stand-in-note")).to_have_count(0)
        expect(player_row(page, 1)).to_have_attribute("data-away", "false")
        expect(player_row(page, 1)).to_have_attribute("data-stand-in", "false")
    # Her log tells it too, from the server's record: once each, however it arrived.
    notices = back.get_by_test_id("log-notice")
    expect(notices).to_have_count(2)
    expect(notices.first).to_contain_text("Ada let the computer play for Bea")
    expect(notices.last).to_have_attribute("data-type", "seat_change:returned")
    back.screenshot(path=str(artifacts / "computer-players-welcome-back.png"), full_page=True)
    back.get_by_test_id("welcome-back-dismiss").click()
    expect(back.get_by_test_id("welcome-back")).to_be_hidden()
    assert not errors, errors


def test_the_other_player_claims_the_win_once_her_opponent_has_been_away_a_while(
    open_page: Callable[..., Any], bot_server: LiveServer
) -> None:
    match_id, (ada_p, bea_p) = api_match(bot_server.url, "c64-maze", ("Ada", "Bea"))
    ada, bea = open_page(player=ada_p), open_page(player=bea_p)
    for page in (ada, bea):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    bea.close()
    expect(player_row(ada, 1)).to_have_attribute("data-away", "true", timeout=SLOW_MS)
    claim = ada.get_by_test_id("claim-win")
    expect(claim).to_be_visible(timeout=SLOW_MS)
    expect(ada.get_by_test_id("end-match")).to_be_visible()  # "End match" stays

    # A second thought is the default; then she claims it.
    claim.click()
    expect(ada.get_by_test_id("claim-dialog")).to_be_visible()
    ada.get_by_test_id("claim-cancel").click()
    expect(ada.get_by_test_id("game-over")).to_be_hidden()
    claim.click()
    ada.get_by_test_id("claim-confirm").click()
    expect(ada.get_by_test_id("winner")).to_have_text("You win!")
    expect(ada.get_by_test_id("game-over")).to_contain_text("claimed the win")
    with httpx.Client(base_url=bot_server.url) as client:
        outcome = client.get(f"/api/matches/{match_id}").json()["view"]["outcome"]
    assert outcome["reason"] == "claimed"
    assert outcome["winners"] == [0]


_LOBBY_CONTROLS = """(minTap) => {
  window.scrollTo(0, 0);
  const problems = [];
  const vw = window.innerWidth;
  const targets = document.querySelectorAll(
    '#seat-list button, #seat-list select, #turn-timer, #start-match');
  for (const el of targets) {
    if (!el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const id = el.dataset.testid || el.id;
    if (r.left < -1 || r.right > vw + 1) problems.push(`${id} sticks out: ${r.left}..${r.right}`);
    if (r.width + 0.5 < minTap || r.height + 0.5 < minTap) {
      problems.push(`${id} is ${Math.round(r.width)}x${Math.round(r.height)} px`);
    }
  }
  for (const seat of document.querySelectorAll('#seat-list [data-testid="seat"]')) {
    const box = seat.getBoundingClientRect();
    for (const el of seat.querySelectorAll("button, select")) {
      const r = el.getBoundingClientRect();
      if (r.right > box.right + 1) problems.push(`${el.dataset.testid} leaves its seat's row`);
    }
  }
  return problems;
}"""


def test_the_new_lobby_controls_fit_a_phone(open_page: Callable[..., Any], artifacts: Path) -> None:
    host = open_page(width=PHONE["width"], height=PHONE["height"])
    open_the_table(host, "Ada", "c64-tanks", 4)
    host.get_by_test_id("bot-level-1").select_option("easy")
    host.get_by_test_id("add-bot-1").click()
    expect(host.locator('[data-testid="seat"][data-seat="1"]')).to_have_attribute(
        "data-bot", "easy"
    )
    expect(host.locator('[data-testid="seat"][data-seat="1"]')).to_contain_text("Computer (easy)")
    # Two empty seats still offer a computer; the computer's seat offers Remove.
    expect(host.get_by_test_id("add-bot-2")).to_be_visible()
    expect(host.get_by_test_id("add-bot-3")).to_be_visible()
    expect(host.get_by_test_id("remove-bot-1")).to_be_visible()
    expect(host.get_by_test_id("turn-timer")).to_be_visible()
    assert fits_width(host, PHONE["width"])
    problems = host.evaluate(_LOBBY_CONTROLS, MIN_TAP_PX)
    assert problems == [], problems
    host.get_by_test_id("seat-list").screenshot(
        path=str(artifacts / "computer-players-lobby-phone.png")
    )

    # A friend who joins sees the computer's seat and the timer, but none of the host's controls.
    # In the home page's open lobbies the table says it has a computer player.
    guest = open_page(width=PHONE["width"], height=PHONE["height"])
    guest.goto("/")
    give_name(guest, "Bea")
    expect(guest.get_by_test_id("player-name")).to_have_text("Bea")  # her guest pass is made
    match_id = host.url.rstrip("/").split("/")[-1]
    row = guest.locator(f'[data-testid="open-matches"] [data-match-id="{match_id}"]')
    expect(row.get_by_test_id("bot-count")).to_have_text("1 computer")
    assert fits_width(guest, PHONE["width"])
    guest.goto(host.url)
    guest.get_by_test_id("take-seat-2").click()
    expect(guest.get_by_test_id("leave-seat")).to_be_visible()
    guest_bot_seat = guest.locator('[data-testid="seat"][data-seat="1"]')
    expect(guest_bot_seat.get_by_test_id("computer-badge")).to_be_visible()
    expect(guest.get_by_test_id("turn-timer-text")).to_have_text("Live, no turn timer.")
    expect(guest.get_by_test_id("turn-timer")).to_be_hidden()
    expect(guest.get_by_test_id("add-bot-3")).to_have_count(0)
    expect(guest.get_by_test_id("remove-bot-1")).to_have_count(0)

    # Removing the computer frees its seat again, for everyone.
    host.get_by_test_id("remove-bot-1").click()
    for page in (host, guest):
        expect(page.locator('[data-testid="seat"][data-seat="1"]')).to_have_attribute(
            "data-bot", ""
        )
    expect(host.get_by_test_id("add-bot-1")).to_be_visible()
