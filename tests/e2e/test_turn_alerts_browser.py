"""A tab in the background tells its player when a match newly waits for her (issue 18,
item 3): with notifications allowed, the hidden page keeps asking for her turns and shows a
browser notification (with a short sound) for a turn that was not waiting before; a page she
is looking at, or one without her permission, shows none.

The notifications are Chromium's own; the page's Notification is wrapped only to record what
was shown, and the page is put in the background the way a browser does (document.hidden and
a visibilitychange event)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match, play_first_legal_moves

pytestmark = pytest.mark.browser

RECORD_SHOWN = """
window.shownNotifications = [];
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) {
    super(title, options);
    this.addEventListener("show", () => window.shownNotifications.push(title));
  }
};
"""
HIDE = """() => {
  Object.defineProperty(document, "hidden", { value: true, configurable: true });
  Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  Object.defineProperty(document, "hidden", { value: false, configurable: true });
  Object.defineProperty(document, "visibilityState", { value: "visible", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
TURNS = "**/api/players/me/turns"
ASK_NOW = "() => window.dispatchEvent(new Event('arcade:turns-stale'))"


def test_a_hidden_tab_shows_a_notification_for_a_new_turn(new_page: Any, live_server: str) -> None:
    match_id, people = api_match(live_server, "c64-maze", names=("Ada", "Bob"))
    play_first_legal_moves(
        live_server, match_id, people, movers=[0], until=lambda view: 0 not in view["active_seats"]
    )  # now she waits for Bob
    page = new_page(player=people[0])
    page.context.grant_permissions(["notifications"])
    page.add_init_script(RECORD_SHOWN)
    with page.expect_response(TURNS):  # her turns as the page opened: none
        page.goto("/history")
    expect(page.get_by_test_id("player-name")).to_have_text("Ada")
    page.evaluate(HIDE)
    with page.expect_response(TURNS):  # asked while hidden: nothing new yet
        page.evaluate(ASK_NOW)
    assert not page.title().startswith("(")

    play_first_legal_moves(
        live_server, match_id, people, until=lambda view: 0 in view["active_seats"]
    )
    with page.expect_response(TURNS):
        page.evaluate(ASK_NOW)
    page.wait_for_function("() => window.shownNotifications.length === 1")
    assert page.evaluate("window.shownNotifications") == ["Your turn in C64 Maze with Bob"]
    assert page.title().startswith("(1) ")
    with page.expect_response(TURNS):  # still her turn: no second notification
        page.evaluate(ASK_NOW)
    assert page.evaluate("window.shownNotifications.length") == 1


def test_no_notification_without_her_permission(new_page: Any, live_server: str) -> None:
    match_id, people = api_match(live_server, "c64-maze", names=("Cy", "Dee"))
    play_first_legal_moves(
        live_server, match_id, people, movers=[0], until=lambda view: 0 not in view["active_seats"]
    )
    page = new_page(player=people[0])
    page.add_init_script(RECORD_SHOWN)
    with page.expect_response(TURNS):
        page.goto("/history")
    expect(page.get_by_test_id("player-name")).to_have_text("Cy")
    page.evaluate(HIDE)
    play_first_legal_moves(
        live_server, match_id, people, until=lambda view: 0 in view["active_seats"]
    )
    page.evaluate(ASK_NOW)  # hidden and not allowed: nothing is asked
    page.evaluate(SHOW)  # back in front: asked at once, and she sees the count
    expect(page.get_by_test_id("turns-count")).to_have_text("1")
    assert page.evaluate("window.shownNotifications") == []
