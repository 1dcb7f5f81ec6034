"""The host puts a lobby's options right on the match page: a Crossing table for three with
teams (which only 4 or 6 play) is refused at the start with the reason under the Start button;
she unticks Teams in the lobby's options form, her friends see it live, and the match starts.
A change the server refuses says why next to the form and changes nothing for the others.
Games with their own options editor (Tank Skirmish's custom zone) keep it beside the form, and
a change made in the form withdraws the acceptances like one made in the editor."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.games.tube_tanks.zone import SETUP_NAMES
from tests.e2e.lobby_flow import (
    FRIENDS,
    api_player,
    auth,
    choose_game,
    fits_width,
    give_name,
    take_seat,
)

pytestmark = pytest.mark.browser

TEAMS_REFUSAL = "Teams are played by 4 or 6 players, not 3; turn teams off or wait."


def open_crossing_with_teams(page: Any) -> str:
    """Ada opens a Crossing table for three with Teams ticked; returns the invite link."""
    page.goto("/")
    give_name(page, FRIENDS[0])
    choose_game(page, "tactrics-crossing")
    page.get_by_test_id("seats-3").check()
    page.get_by_test_id("option-teams").check()
    page.get_by_test_id("create-match").click()
    page.wait_for_url(re.compile(r"/match/[^/]+$"))
    expect(page.get_by_test_id("invite-link")).to_have_value(page.url)
    return page.url


def set_routers(page: Any, count: int) -> None:
    field = page.get_by_test_id("option-routers")
    field.fill(str(count))
    field.blur()  # a number field is saved when the host is done with it, not per keystroke


def test_the_host_turns_teams_off_in_the_lobby_and_starts(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    ada, bea, cid = new_page(width=390, height=844), new_page(), new_page()
    invite = open_crossing_with_teams(ada)
    take_seat(bea, invite, FRIENDS[1], 1, ada)
    take_seat(cid, invite, FRIENDS[2], 2, ada)

    # The host's form holds the options she chose; the others see them and cannot change them.
    expect(ada.get_by_test_id("option-teams")).to_be_checked()
    expect(ada.get_by_test_id("option-teams")).to_be_enabled()
    for friend in (bea, cid):
        expect(friend.get_by_test_id("option-teams")).to_be_checked()
        expect(friend.get_by_test_id("option-teams")).to_be_disabled()
        expect(friend.get_by_test_id("options-summary")).to_contain_text("teams on")

    ada.get_by_test_id("start-match").click()
    refusal = ada.get_by_test_id("start-refusal")
    expect(refusal).to_have_text(TEAMS_REFUSAL)
    expect(ada.get_by_test_id("lobby-view")).to_be_visible()
    assert fits_width(ada, 390)
    ada.screenshot(path=str(artifacts / "lobby-options-start-refused.png"), full_page=True)

    # A change the server refuses says why, keeps the host's edit and reaches nobody else.
    set_routers(ada, 7)
    status = ada.get_by_test_id("options-status")
    expect(status).to_have_text(
        "Not saved: 7 routers need the line start (red, yellow and blue have 7)."
    )
    expect(ada.get_by_test_id("option-routers")).to_have_value("7")
    expect(bea.get_by_test_id("option-routers")).to_have_value("6")
    expect(refusal).to_have_text(TEAMS_REFUSAL)  # nothing changed, so the reason still holds
    set_routers(ada, 5)
    expect(status).to_have_text("Saved.")
    for friend in (bea, cid):
        expect(friend.get_by_test_id("option-routers")).to_have_value("5")

    ada.get_by_test_id("option-teams").uncheck()
    expect(ada.get_by_test_id("options-summary")).to_contain_text("teams off")
    expect(status).to_have_text("Saved.")
    expect(refusal).to_be_hidden()  # the options changed: the old reason may no longer hold
    for friend in (bea, cid):
        expect(friend.get_by_test_id("option-teams")).not_to_be_checked()
        expect(friend.get_by_test_id("options-summary")).to_contain_text("teams off")
    bea.screenshot(path=str(artifacts / "lobby-options-guest.png"), full_page=True)

    ada.get_by_test_id("start-match").click()
    for page in (ada, bea, cid):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.locator('[data-testid="router"]')).to_have_count(15)  # 5 each, 3 colours


def test_a_rule_changed_in_the_form_withdraws_the_acceptance_of_a_custom_zone(
    new_page: Any, live_server: str
) -> None:
    with httpx.Client(base_url=live_server) as client:
        gina, otto = api_player(client, "Gina"), api_player(client, "Otto")
        created = client.post(
            "/api/matches",
            json={"game": "tube-tanks", "options": {"setup": "custom"}, "seats": 2},
            headers=auth(gina),
        )
        assert created.status_code == 201, created.text
        match_id, options = created.json()["id"], created.json()["options"]
        for path, body in (("join", {}), ("accept", {"options": options})):
            done = client.post(f"/api/matches/{match_id}/{path}", json=body, headers=auth(otto))
            assert done.status_code == 200, done.text
    host, guest = new_page(player=gina), new_page(player=otto)
    for page in (host, guest):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("tt-zone-editor")).to_be_visible()  # the game's own editor
        expect(page.get_by_test_id("option-blast")).to_be_checked()
    expect(guest.get_by_test_id("accept-options")).to_have_count(0)

    host.get_by_test_id("option-blast").uncheck()
    expect(host.get_by_test_id("options-status")).to_have_text("Saved.")
    expect(guest.get_by_test_id("option-blast")).not_to_be_checked()
    expect(guest.get_by_test_id("accept-options")).to_be_visible()  # asked again
    expect(guest.get_by_test_id("tt-editor-title")).to_have_text("Custom zone drawn by the host.")
    expect(host.get_by_test_id("start-match")).to_be_disabled()  # until Otto accepts again

    # A preset zone needs nobody's agreement: the form's setup choice reaches the zone editor.
    host.get_by_test_id("option-setup").select_option(label=f"B: {SETUP_NAMES['B']}")
    expect(host.get_by_test_id("tt-editor-title")).to_contain_text("Setup B")
    expect(host.get_by_test_id("options-status")).to_have_text("Saved.")
    expect(guest.get_by_test_id("tt-editor-title")).to_contain_text("Setup B")
    expect(guest.get_by_test_id("accept-options")).to_have_count(0)
    expect(guest.get_by_test_id("option-blast")).not_to_be_checked()
    host.get_by_test_id("start-match").click()
    for page in (host, guest):
        expect(page.get_by_test_id("tt-board")).to_be_visible()
