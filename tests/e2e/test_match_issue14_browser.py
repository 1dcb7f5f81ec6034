"""Issue 14 on the match page around the board: a refused move is said once, in the banner
right above the board (item 7); players and watchers chat in separate channels and a watcher
picks a name before writing (item 8); the dice seal and "How are dice checked?" show only for
games that roll or shuffle, on the match page and the replay page (item 9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match, give_name

pytestmark = pytest.mark.browser


def send_chat(page: Any, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def test_a_refused_move_is_reported_once_above_the_board(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, (ada, _bea) = api_match(live_server, "c64-maze", ("Ada", "Bea"))
    page = new_page(width=390, height=844, player=ada)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    bad_move = {"type": "play", "card": 0, "to": [0, 0]}  # no card is played during set-up
    for _ in range(2):  # the same refusal again replaces the report, it does not add one
        page.evaluate("move => window.arcade.submit(move).catch(() => null)", bad_move)
        banner = page.get_by_test_id("move-error")
        expect(banner).to_be_visible()
        expect(banner).to_have_attribute("role", "alert")
        expect(page.get_by_test_id("move-error-text")).not_to_be_empty()
        expect(banner).to_be_in_viewport()  # a phone sees it without scrolling
        # the banner and the toast were raised together: no toast now means none at all
        expect(page.get_by_test_id("toast-error")).to_have_count(0)
        expect(page.locator(".toast")).to_have_count(0)
    # the banner pushes the table down; nothing lies over the board
    banner_box, root_box = banner.bounding_box(), page.get_by_test_id("game-root").bounding_box()
    assert banner_box is not None and root_box is not None
    assert banner_box["y"] + banner_box["height"] <= root_box["y"] + 1
    page.screenshot(path=str(artifacts / "match-refused-move-390.png"))


def test_players_and_watchers_chat_in_their_own_channels(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, (ada, _bea) = api_match(live_server, "c64-maze", ("Ada", "Bea"))
    player = new_page(player=ada)
    watcher = new_page(width=390, height=844)  # no name yet
    for page in (player, watcher):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")

    # the player's page is live (presence came after the chat history): news counts as unread
    expect(player.get_by_test_id("spectators")).to_have_text("1 watching")

    # the watcher sees one channel, the watchers', and is asked for a name before writing
    expect(watcher.get_by_test_id("chat-tabs")).to_be_hidden()
    expect(watcher.locator("#chat-title")).to_have_text("Watchers' chat")
    send_chat(watcher, "who is winning?")
    give_name(watcher, "Wes")
    said = watcher.get_by_test_id("chat-watchers").get_by_test_id("chat-message")
    expect(said).to_have_count(1)
    expect(said).to_contain_text("Wes:")
    expect(said).to_contain_text("who is winning?")
    expect(watcher.get_by_test_id("chat-input")).to_have_value("")

    # the player's Table tab stays quiet; the Watchers tab counts what came in and shows it
    expect(player.get_by_test_id("chat-tabs")).to_be_visible()
    expect(player.get_by_test_id("chat-unread-watchers")).to_have_text("1")
    expect(player.get_by_test_id("chat-messages").get_by_test_id("chat-message")).to_have_count(0)
    player.get_by_test_id("chat-tab-watchers").click()
    heard = player.get_by_test_id("chat-watchers").get_by_test_id("chat-message")
    expect(heard).to_contain_text("who is winning?")
    expect(heard.locator(".who")).to_have_text("Wes:")
    expect(player.get_by_test_id("chat-unread-watchers")).to_be_hidden()
    expect(player.get_by_test_id("chat-form")).to_be_hidden()  # players read, watchers write
    player.screenshot(path=str(artifacts / "match-chat-watchers-tab.png"))

    # table talk stays at the table
    player.get_by_test_id("chat-tab-players").click()
    send_chat(player, "I go left next")
    table = player.get_by_test_id("chat-messages").get_by_test_id("chat-message")
    expect(table).to_contain_text("I go left next")
    send_chat(watcher, "still watching")
    expect(said).to_have_count(2)  # the watcher's own echo came after Ada's message
    expect(watcher.get_by_test_id("chat-panel")).not_to_contain_text("I go left next")
    expect(watcher.get_by_test_id("chat-panel")).not_to_contain_text("Spectator")
    watcher.screenshot(path=str(artifacts / "match-chat-watcher-390.png"))


@pytest.mark.parametrize(("game", "has_dice"), [("tactrics-crossing", False), ("c64-maze", True)])
def test_the_dice_seal_shows_only_for_games_with_dice(
    new_page: Any, live_server: str, game: str, has_dice: bool
) -> None:
    match_id, (ada, _bea) = api_match(live_server, game, ("Ada", "Bea"))
    page = new_page(player=ada)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    seal = page.get_by_test_id("dice-seal")
    if has_dice:
        expect(seal).to_be_visible()
        expect(page.get_by_test_id("seed-commitment")).to_be_visible()
    else:
        expect(seal).to_be_hidden()
        expect(page.get_by_test_id("dice-help-button")).to_have_count(0)


@pytest.mark.parametrize(("game", "has_dice"), [("tactrics-crossing", False), ("c64-maze", True)])
def test_the_replay_shows_the_fair_dice_panel_only_for_games_with_dice(
    new_page: Any, live_server: str, game: str, has_dice: bool
) -> None:
    match_id, (ada, _bea) = api_match(live_server, game, ("Ada", "Bea"))
    page = new_page(player=ada)
    page.goto(f"/replay/{match_id}")
    expect(page.get_by_test_id("replay-sub")).to_contain_text("Ada")  # the header is drawn
    fair = page.get_by_test_id("fair-panel")
    if has_dice:
        expect(fair).to_be_visible()
        expect(page.get_by_test_id("dice-help-button")).to_be_visible()
    else:
        expect(fair).to_be_hidden()
        expect(page.get_by_test_id("dice-help-button")).to_be_hidden()
        # Verify stays: it re-runs every move under the rules, which is worth checking too
        expect(page.get_by_test_id("verify")).to_have_attribute(
            "title", "Available once the match has finished"
        )
