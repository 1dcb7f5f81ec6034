"""Issue 14 item 5, phone first: every one of the 13 games opens on a 390x844 phone with its
board and the controls for the first decision on screen together, no sideways scrolling and
tap targets of at least 40 px (tests/e2e/phone.py). Each game's own browser tests check its
later decisions the same way; this one makes sure no game is left out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lobby_flow import api_match
from phone import PHONE, assert_phone_table
from playwright.sync_api import expect

# Players per match of each game (all at once in a set-up, or the first player, decide first).
GAMES = {
    "c64-cars": 2,
    "c64-maze": 4,
    "c64-monsters": 2,
    "c64-snakes": 2,
    "c64-tanks": 2,
    "c64-trains": 3,
    "cd-thief": 2,
    "joystick-heroes": 2,
    "tactrics-cat-mouse": 2,
    "tactrics-crossing": 2,
    "tactrics-crossing-advanced": 2,
    "tactrics-solitary": 1,
    "tube-tanks": 2,
}


def test_every_game_is_listed() -> None:
    from app.engine.registry import all_games

    assert set(GAMES) == {game.id for game in all_games()}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_board_and_first_decision_share_a_phone_screen(
    game: str, new_page: Any, live_server: str, artifacts: Path
) -> None:
    names = ("Ada", "Bea", "Cid", "Dee")[: GAMES[game]]
    match_id, players = api_match(live_server, game, names)
    for player in players:  # the first player is drawn in some games: find her
        page = new_page(**PHONE, player=player)
        page.goto(f"/match/{match_id}")
        expect(page.locator('[data-phone="board"]').first).to_be_visible()
        expect(page.get_by_test_id("turn-banner")).to_be_visible()
        if page.get_by_test_id("turn-banner").get_attribute("data-mine") == "true":
            break
    else:
        raise AssertionError("nobody has a decision to make")
    assert_phone_table(page)
    page.screenshot(path=str(artifacts / f"phone-{game}.png"))
