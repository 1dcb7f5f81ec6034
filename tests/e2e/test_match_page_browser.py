"""The match page around the game (QA polish): long chat messages and long names stay inside
their panels at phone and desktop width, a refused chat message keeps its text and raises one
toast however often it is refused, the lobby hint says whose acceptance the start waits for,
and the host leaving her own table asks first and leaves a way back to the lobby.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match, api_player, auth, choose_game

pytestmark = pytest.mark.browser

# One 32-character word: no hyphen, so nothing offers the browser a place to break it.
LONG_NAME = "Maximiliana_Wolkenstein_BrandtXX"
OTHER_LONG_NAME = "Bartholomew_Featherstonehaugh_XY"
PASTED_URL = "https://example.com/" + "a" * 120  # 140 characters and not a single break


def box_of(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, "the element is not rendered"
    return dict(box)


def assert_inside(inner: Any, outer: Any, what: str) -> None:
    a, b = box_of(inner), box_of(outer)
    slack = 1  # sub-pixel rounding
    assert a["x"] >= b["x"] - slack, f"{what} starts left of its panel: {a} vs {b}"
    assert a["x"] + a["width"] <= b["x"] + b["width"] + slack, (
        f"{what} sticks out right of its panel: {a} vs {b}"
    )


def assert_no_sideways_scroll(page: Any) -> None:
    scroll_width, inner_width = page.evaluate(
        "[document.scrollingElement.scrollWidth, window.innerWidth]"
    )
    assert scroll_width <= inner_width, f"the page scrolls sideways: {scroll_width} > {inner_width}"


def chat_panel(page: Any) -> Any:
    return page.locator("section.panel", has=page.get_by_test_id("chat-messages"))


def send_chat(page: Any, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")


def open_lobby(base: str, host: dict[str, str], game: str = "c64-maze", seats: int = 2) -> str:
    with httpx.Client(base_url=base) as client:
        created = client.post(
            "/api/matches",
            json={"game": game, "options": {}, "seats": seats},
            headers=auth(host),
        )
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def test_a_long_chat_message_wraps_inside_the_chat_panel(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, (ada, _bea) = api_match(live_server, "c64-maze", ("Ada", "Bea"))
    page = new_page(width=1280, height=800, player=ada)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    send_chat(page, PASTED_URL)
    message = page.get_by_test_id("chat-message").filter(has_text=PASTED_URL[-30:])
    expect(message).to_be_visible()
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        message.scroll_into_view_if_needed()
        assert_inside(message, chat_panel(page), f"the chat message at {width}")
        assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "match-page-long-chat-390.png"), full_page=True)


def test_a_long_name_fits_the_players_panel_and_the_turn_banner(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, (ada, _bea, _max) = api_match(live_server, "c64-maze", ("Ada", "Bea", LONG_NAME))
    player_page = new_page(width=1280, height=800, player=ada)
    watcher_page = new_page(width=390, height=844)  # a spectator is told who is to move
    for page, width in ((player_page, 1280), (watcher_page, 390)):
        page.goto(f"/match/{match_id}")
        rows = page.get_by_test_id("player")
        expect(rows).to_have_count(3)
        long_row = rows.filter(has_text=LONG_NAME[:12])
        # set-up: everyone is to move, the long name included
        expect(long_row.locator(".to-move")).to_be_visible()
        panel = page.locator("#players-panel")
        for i in range(3):
            row = rows.nth(i)
            assert_inside(row, panel, f"player row {i} at {width}")
            assert_inside(row.locator(".to-move"), panel, f"'to move' of row {i} at {width}")
        assert_no_sideways_scroll(page)
        # cut short with an ellipsis, the whole name on hover
        name = long_row.locator(".p-name")
        expect(name).to_have_attribute("title", re.compile(re.escape(LONG_NAME)))
        assert name.evaluate("el => getComputedStyle(el).textOverflow") == "ellipsis"
        assert name.evaluate("el => el.scrollWidth > el.clientWidth")  # it is cut indeed
    banner = watcher_page.get_by_test_id("turn-banner")
    expect(banner).to_contain_text(LONG_NAME, ignore_case=True)
    assert_inside(banner.get_by_test_id("turn-title"), banner, "the turn banner's title at 390")
    watcher_page.screenshot(path=str(artifacts / "match-page-long-name-390.png"), full_page=True)


def test_a_long_winners_name_fits_the_game_over_banner(
    new_page: Any, finish_maze_match: Any, artifacts: Path
) -> None:
    finished = finish_maze_match(names=(LONG_NAME, OTHER_LONG_NAME))
    page = new_page(width=390, height=844)  # a spectator: "<colour> (<name>) wins!"
    page.goto(f"/match/{finished['id']}")
    banner = page.get_by_test_id("game-over")
    expect(banner).to_be_visible(timeout=20_000)
    either_name = re.compile(f"{re.escape(LONG_NAME)}|{re.escape(OTHER_LONG_NAME)}")
    expect(page.get_by_test_id("winner")).to_contain_text(either_name)
    assert_inside(page.get_by_test_id("winner"), banner, "the winner line")
    assert_inside(banner, page.locator("main"), "the game-over banner")
    assert_no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "match-page-long-winner-390.png"), full_page=True)


def test_a_refused_chat_message_keeps_its_text_and_one_toast(
    new_page: Any, live_server: str
) -> None:
    match_id, (ada, _bea) = api_match(live_server, "c64-maze", ("Ada", "Bea"))
    page = new_page(player=ada)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    chat_input = page.get_by_test_id("chat-input")
    messages = page.get_by_test_id("chat-message")
    # the server takes 30 chat messages a minute from one player
    for n in range(1, 31):
        send_chat(page, f"hello {n}")
        expect(messages).to_have_count(n)
        expect(chat_input).to_have_value("")  # accepted: its echo cleared the input

    send_chat(page, "one too many")
    refusals = page.get_by_test_id("toast-error").filter(has_text="Slow down")
    expect(refusals).to_have_count(1)
    expect(chat_input).to_have_value("one too many")  # the text is still there to send again
    for _ in range(2):
        page.get_by_test_id("chat-send").click()
    expect(refusals.first).to_have_attribute("data-count", "3")
    expect(refusals).to_have_count(1)  # replaced, not stacked
    expect(page.get_by_test_id("toast-error")).to_have_count(1)
    expect(chat_input).to_have_value("one too many")
    expect(messages).to_have_count(30)


def test_the_lobby_hint_says_who_must_accept_the_options(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    with httpx.Client(base_url=live_server) as client:
        host = api_player(client, "Gina")
        guest = api_player(client, "Otto")
    gina = new_page(player=host)
    otto = new_page(width=390, height=844, player=guest)
    gina.goto("/")
    choose_game(gina, "tube-tanks")
    gina.get_by_test_id("option-setup").select_option(label="Custom zone (you draw it)")
    gina.get_by_test_id("create-match").click()
    gina.wait_for_url(re.compile(r"/match/[^/]+$"))
    otto.goto(gina.url)
    otto.get_by_test_id("take-seat-1").click()
    expect(otto.get_by_test_id("leave-seat")).to_be_visible()

    otto_hint = otto.get_by_test_id("lobby-hint")
    gina_hint = gina.get_by_test_id("lobby-hint")
    expect(otto_hint).to_contain_text("Accept the host's options below")
    expect(otto_hint).not_to_contain_text("Waiting for Gina to start")
    expect(gina_hint).to_contain_text("Waiting for Otto to accept your options")
    expect(gina.get_by_test_id("start-match")).to_be_disabled()
    otto.screenshot(path=str(artifacts / "match-page-accept-hint-390.png"), full_page=False)

    # the hint leads to the Accept button, far below on a phone
    accept = otto.get_by_test_id("accept-options")
    expect(accept).not_to_be_in_viewport()
    otto_hint.get_by_test_id("hint-accept").click()
    expect(accept).to_be_in_viewport()
    expect(accept).to_be_focused()
    otto.keyboard.press("Enter")
    expect(accept).to_have_count(0)

    expect(otto_hint).to_contain_text("Waiting for Gina to start the match")
    expect(gina_hint).not_to_contain_text("to accept")
    expect(gina.get_by_test_id("start-match")).to_be_enabled()


def test_the_host_leaving_asks_first_and_the_abandoned_table_leads_back(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    with httpx.Client(base_url=live_server) as client:
        ada = api_player(client, "Ada")
        bea = api_player(client, "Bea")
    match_id = open_lobby(live_server, ada)
    host = new_page(width=390, height=844, player=ada)
    guest = new_page(player=bea)
    host.goto(f"/match/{match_id}")
    guest.goto(f"/match/{match_id}")

    # a guest leaves without being asked: her seat is free again and the table stays
    guest.get_by_test_id("take-seat-1").click()
    expect(host.get_by_test_id("seat-list")).to_contain_text("Bea")
    guest.get_by_test_id("leave-seat").click()
    expect(guest.get_by_test_id("take-seat-1")).to_be_visible()
    expect(guest.get_by_test_id("leave-dialog")).to_have_count(0)

    # the host, alone, is asked first; staying keeps the table
    dialog = host.get_by_test_id("leave-dialog")
    host.get_by_test_id("leave-seat").click()
    expect(dialog).to_be_visible()
    assert dialog.evaluate("el => el.tagName") == "DIALOG"
    expect(dialog).to_contain_text("abandon")
    host.screenshot(path=str(artifacts / "match-page-leave-dialog-390.png"), full_page=False)
    host.get_by_test_id("leave-cancel").click()
    expect(dialog).to_have_count(0)
    expect(host.get_by_test_id("leave-seat")).to_be_visible()
    expect(host.get_by_test_id("match-status")).to_have_text("lobby")

    # Escape is "stay" too
    host.get_by_test_id("leave-seat").click()
    expect(dialog).to_be_visible()
    host.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(host.get_by_test_id("match-status")).to_have_text("lobby")

    host.get_by_test_id("leave-seat").click()
    host.get_by_test_id("leave-confirm").click()
    for page in (host, guest):
        expect(page.get_by_test_id("match-status")).to_have_text("abandoned")
        expect(page.get_by_test_id("turn-banner")).to_contain_text("abandoned", ignore_case=True)
        expect(page.get_by_test_id("back-to-lobby")).to_be_visible()
        expect(page.get_by_test_id("back-to-lobby")).to_have_attribute("href", "/")
    host.screenshot(path=str(artifacts / "match-page-abandoned-390.png"), full_page=False)
    host.get_by_test_id("back-to-lobby").click()
    host.wait_for_url(re.compile(r"/$"))


def test_the_host_leaving_a_full_table_is_told_who_takes_over(
    new_page: Any, live_server: str
) -> None:
    with httpx.Client(base_url=live_server) as client:
        ada = api_player(client, "Ada")
        bea = api_player(client, "Bea")
        match_id = open_lobby(live_server, ada)
        joined = client.post(f"/api/matches/{match_id}/join", json={}, headers=auth(bea))
        assert joined.status_code == 200, joined.text
    host = new_page(player=ada)
    guest = new_page(player=bea)
    host.goto(f"/match/{match_id}")
    guest.goto(f"/match/{match_id}")
    expect(guest.get_by_test_id("leave-seat")).to_be_visible()

    host.get_by_test_id("leave-seat").click()
    dialog = host.get_by_test_id("leave-dialog")
    expect(dialog).to_contain_text("Bea becomes the host")
    host.get_by_test_id("leave-confirm").click()
    expect(dialog).to_have_count(0)
    expect(host.get_by_test_id("take-seat-0")).to_be_visible()
    expect(guest.get_by_test_id("start-match")).to_be_visible()  # Bea hosts now
    expect(host.get_by_test_id("match-status")).to_have_text("lobby")
