"""Friends you play with in the browser (issue 18, item 5): after a match together, each finds
the other under "Played with recently"; "Play again" opens a table of the game they last played
and invites the friend, who finds it under "Invitations" and joins it, or declines it. A
hostile name is shown as text. At phone size."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match, fits_width
from tests.e2e.phone import MIN_TAP_PX, PHONE

pytestmark = pytest.mark.browser

HOSTILE = '<img src=x onerror="document.title=1">'


def test_play_again_with_a_friend_who_joins_from_her_invitations(
    new_page: Any, live_server: str
) -> None:
    _match_id, (ada, bea) = api_match(live_server, "c64-maze", names=("Ada", HOSTILE))
    ada_page = new_page(width=PHONE["width"], height=PHONE["height"], player=ada)
    ada_page.goto("/")
    friend = ada_page.get_by_test_id("friends").get_by_test_id("friend")
    expect(friend).to_have_count(1)
    expect(friend.locator(".m-title")).to_have_text(HOSTILE)  # as text, not markup
    expect(ada_page.locator("#friends-list img")).to_have_count(0)
    again = friend.get_by_test_id("play-again")
    box = again.bounding_box()
    assert box is not None and box["height"] >= MIN_TAP_PX - 0.5, box
    assert fits_width(ada_page, PHONE["width"])
    again.click()
    ada_page.wait_for_url(re.compile(r"/match/[^/]+$"))
    table_id = ada_page.url.rstrip("/").split("/")[-1]

    bea_page = new_page(width=PHONE["width"], height=PHONE["height"], player=bea)
    bea_page.goto("/")
    invitation = bea_page.get_by_test_id("invitations").get_by_test_id("invitation")
    expect(invitation).to_have_count(1)
    expect(invitation).to_have_attribute("data-match-id", table_id)
    expect(invitation.locator(".m-meta")).to_contain_text("Ada invited you")
    for testid in ("invitation-open", "invitation-decline"):
        tap = invitation.get_by_test_id(testid).bounding_box()
        assert tap is not None and tap["height"] >= MIN_TAP_PX - 0.5, (testid, tap)
    assert fits_width(bea_page, PHONE["width"])
    invitation.get_by_test_id("invitation-open").click()
    bea_page.wait_for_url(re.compile(rf"/match/{table_id}$"))
    bea_page.get_by_test_id("take-seat-1").click()
    expect(bea_page.get_by_test_id("leave-seat")).to_be_visible()
    expect(ada_page.get_by_test_id("seat-list")).to_contain_text(HOSTILE)

    # Invited again, she says not now: the invitation leaves her list.
    ada_page.goto("/")
    ada_page.get_by_test_id("friends").get_by_test_id("play-again").click()
    ada_page.wait_for_url(re.compile(r"/match/[^/]+$"))
    bea_page.goto("/")
    expect(invitation).to_have_count(1)
    invitation.get_by_test_id("invitation-decline").click()
    expect(bea_page.get_by_test_id("invitations")).to_be_hidden()


def test_play_again_with_several_friends_at_one_table(new_page: Any, live_server: str) -> None:
    """The button "Play again with them" (issue 18, item 5): Ada ticks both friends of a
    three-player match and opens one table for the three of them; each friend finds the
    invitation. The pick is a tap target, and the choice survives the list's refresh."""
    _match_id, (ada, bea, cid) = api_match(live_server, "c64-maze", names=("Ada", "Bea", "Cid"))
    page = new_page(width=PHONE["width"], height=PHONE["height"], player=ada)
    page.goto("/")
    friends = page.get_by_test_id("friends").get_by_test_id("friend")
    expect(friends).to_have_count(2)
    # On a phone what is hers comes first: her friends and her match in progress are above
    # the list of games to start, this device's settings below it. The matches in progress
    # come from a request of their own: wait for them before measuring.
    expect(page.locator("#live-panel")).to_be_visible()
    top = {
        name: page.get_by_test_id(name).bounding_box()
        for name in ("friends", "new-match-form", "identity")
    }
    live = page.locator("#live-panel").bounding_box()
    assert all(top.values()) and live is not None, top
    assert top["friends"]["y"] < top["new-match-form"]["y"] < top["identity"]["y"]
    assert live["y"] < top["new-match-form"]["y"]
    together = page.get_by_test_id("play-together")
    expect(together).to_be_hidden()
    picks = page.get_by_test_id("friends").locator(".friend-pick")
    for row in range(2):
        box = picks.nth(row).bounding_box()
        assert box is not None and box["height"] >= MIN_TAP_PX - 0.5, box
        picks.nth(row).click()
    expect(together).to_have_text("Play C64 Maze with 2 friends")
    page.evaluate("window.dispatchEvent(new Event('arcade:player'))")  # a refresh of the list
    expect(page.get_by_test_id("friend-pick").nth(0)).to_be_checked()
    expect(together).to_be_visible()
    assert fits_width(page, PHONE["width"])
    together.click()
    page.wait_for_url(re.compile(r"/match/[^/]+$"))
    table_id = page.url.rstrip("/").split("/")[-1]
    expect(page.get_by_test_id("seat-list").locator("li")).to_have_count(3)

    for friend in (bea, cid):
        friend_page = new_page(width=PHONE["width"], height=PHONE["height"], player=friend)
        friend_page.goto("/")
        invitation = friend_page.get_by_test_id("invitations").get_by_test_id("invitation")
        expect(invitation).to_have_attribute("data-match-id", table_id)
        expect(invitation.locator(".m-meta")).to_contain_text("Ada invited you")
