"""Two friends play C64 Maze in two browsers, end to end against the real server.

Everything is asserted on what a person sees (data-testid hooks on visible elements): the
lobby, the seat list, the joystick, the event log and the pieces on the board.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import (
    MINE,
    c64_match,
    phone_first_through_set_up_and_play,
    play_until_each_seat_played,
    same_squares,
    screenshots,
    set_up_in_every_browser,
    turn_titles_agree,
    version,
)
from tests.e2e.lobby_flow import auth, fits_width, friends_start_a_match
from tests.e2e.phone import PHONE, assert_phone_table

pytestmark = pytest.mark.browser


# ------------------------------------------------------------------ tests
def test_two_friends_set_up_and_play(new_page: Any, live_server: str, artifacts: Path) -> None:
    # Ada arrives, is asked for a name and opens a table for two; Bea opens the invite link,
    # takes the free seat and picks a name on the way; her seat shows live, without a reload.
    (ada, bea), _invite = friends_start_a_match(new_page, "c64-maze")
    for page in (ada, bea):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("turn-banner")).to_have_attribute(
            "data-mine", "true"
        )  # simultaneous set-up

    # Set-up, both at once; then Player 2 returns a card; then turns.
    seat_of = set_up_in_every_browser([ada, bea])

    def same_piece(mover: Any, other: Any, seat: int) -> None:
        # The other browser saw it: same piece position.
        same_squares(mover, other, [f'[data-piece="adventurer-{seat}"]'])

    play_until_each_seat_played([ada, bea], seat_of, 8, same_piece)
    # Both turn banners agree on whose turn it is now.
    turn_titles_agree([ada, bea])
    screenshots([ada, bea], artifacts, "c64-maze")


def test_refused_move_shows_its_reason(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, host, _guest = c64_match(live_server, "c64-maze")
    bad_move = {"type": "play", "card": 0, "to": [0, 0]}  # no card is played during set-up
    with httpx.Client(base_url=live_server) as client:
        refused = client.post(
            f"/api/matches/{match_id}/moves",
            json={"move": bad_move, "id": f"probe-{uuid.uuid4().hex[:8]}"},
            headers=auth(host),
        )
    assert 400 <= refused.status_code < 500, refused.text
    reason = refused.json()["message"]

    page = new_page(player=host)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    page.evaluate("move => window.arcade.submit(move).catch(() => null)", bad_move)
    expect(page.get_by_test_id("move-error")).to_be_visible()
    expect(page.get_by_test_id("move-error-text")).to_have_text(reason)
    expect(page.get_by_test_id("toast-error")).to_have_count(0)  # said once (issue 14, item 7)
    # Nothing changed: still the set-up, still version 0.
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-version", "0")
    page.screenshot(path=str(artifacts / "c64-maze-refused.png"), full_page=True)


def test_reconnects_after_a_dropped_connection(new_page: Any, live_server: str) -> None:
    match_id, host, guest = c64_match(live_server, "c64-maze")
    page = new_page(player=host)
    sockets: list[Any] = []

    def through(route: Any) -> None:  # a transparent proxy we can cut
        route.connect_to_server()
        sockets.append(route)

    page.route_web_socket(re.compile(r"/api/matches/[^/]+/ws$"), through)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")

    sockets[0].close(code=1001, reason="network hiccup")
    expect(page.get_by_test_id("reconnecting")).to_be_visible()
    # While the page is away the friend moves; the page must catch up on its own.
    with httpx.Client(base_url=live_server, headers=auth(guest)) as client:
        legal = client.get(f"/api/matches/{match_id}").json()["view"]["legal_moves"]
        moved = client.post(
            f"/api/matches/{match_id}/moves", json={"move": legal[0], "id": "guest-take"}
        )
        assert moved.status_code == 200, moved.text

    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    expect(page.get_by_test_id("reconnecting")).to_be_hidden()
    expect(page.get_by_test_id("game-root")).to_have_attribute("data-version", "1")
    expect(page.locator('[data-testid="log-entry"][data-seq="1"]').first).to_be_visible()
    assert len(sockets) >= 2


def test_phone_width_shows_board_and_joystick(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    width, height = 375, 740
    match_id, host, _guest = c64_match(live_server, "c64-maze")
    page = new_page(width=width, height=height, player=host)

    page.goto("/")
    expect(page.get_by_test_id("create-match")).to_be_enabled()
    assert fits_width(page, width)

    page.goto(f"/match/{match_id}")
    board = page.get_by_test_id("board")
    joystick = page.get_by_test_id("my-joystick")
    expect(board).to_be_visible()
    expect(joystick).to_be_visible()
    assert fits_width(page, width), "no horizontal scrolling"
    for element in (board, joystick, page.get_by_test_id("joy-card").last):
        box = element.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    assert board.bounding_box()["width"] >= 300, "the board uses the phone's width"
    joystick.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "c64-maze-phone.png"), full_page=True)


def _press(page: Any, target: Any) -> Any:
    """Holds the mouse button down on `target`; returns the element pressed."""
    pressed = target.element_handle()
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    return pressed


def _the_other_player_takes(page: Any, live_server: str, match_id: str, other: Any) -> None:
    """`other` takes her set-up cards over the REST API, and `page` shows her take."""
    before = version(page)
    with httpx.Client(base_url=live_server, headers=auth(other)) as client:
        legal = client.get(f"/api/matches/{match_id}").json()["view"]["legal_moves"]
        taken = client.post(
            f"/api/matches/{match_id}/moves", json={"move": legal[0], "id": "other-take"}
        )
        assert taken.status_code == 200, taken.text
    expect(page.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))


def _active_faces(live_server: str, match_id: str, player: Any) -> dict[int, str]:
    with httpx.Client(base_url=live_server, headers=auth(player)) as client:
        view = client.get(f"/api/matches/{match_id}").json()["view"]
    return {c["id"]: c["face"] for c in view["board"]["joysticks"][view["you"]]["active"]}


def test_a_card_pressed_while_the_other_player_takes_still_clicks(
    new_page: Any, live_server: str
) -> None:
    """QA: every update rebuilt the joystick grid, and in the set-up both players take cards at
    once, so a card pressed just as the other player's take arrived was swapped under the
    pointer (pressed on the old button, released on its copy) and the click was lost."""
    match_id, host, guest = c64_match(live_server, "c64-maze")
    ada = new_page(player=host)
    ada.goto(f"/match/{match_id}")
    expect(ada.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    card = ada.locator(f'{MINE} [data-testid="joy-card"][data-legal="true"]').first
    card_id = card.get_attribute("data-card")
    pressed = _press(ada, card)
    _the_other_player_takes(ada, live_server, match_id, guest)  # Bea takes hers
    assert pressed.evaluate("e => e.isConnected"), "the pressed card was replaced"
    ada.mouse.up()
    same_card = ada.locator(f'{MINE} [data-testid="joy-card"][data-card="{card_id}"]')
    expect(same_card).to_have_attribute("data-selected", "true")

    # The click counted: the second card and the faces, and the take is Ada's with that card.
    ada.locator(
        f'{MINE} [data-testid="joy-card"][data-legal="true"][data-selected="false"]'
    ).first.click()
    ada.get_by_test_id("confirm-move").click()
    expect(ada.get_by_test_id("my-joystick")).not_to_have_attribute("data-mode", "take")
    assert int(card_id or -1) in _active_faces(live_server, match_id, host)


def _chosen_faces(page: Any) -> dict[int, str]:
    """The faces the chooser shows pressed, by card."""
    pressed = page.locator('[data-testid="face-option"][aria-pressed="true"]')
    options = [pressed.nth(i) for i in range(pressed.count())]
    return {int(o.get_attribute("data-card") or -1): o.get_attribute("data-face") for o in options}


@pytest.mark.parametrize("pressed_control", ["face-option", "confirm-move"])
def test_the_face_chooser_pressed_while_the_other_player_takes_still_clicks(
    new_page: Any, live_server: str, pressed_control: str
) -> None:
    """QA: the face chooser was rebuilt on every update too, so a face (or "Take cards")
    pressed just as the other player's take arrived lost its click the same way."""
    match_id, host, guest = c64_match(live_server, "c64-maze")
    ada = new_page(player=host)
    ada.goto(f"/match/{match_id}")
    expect(ada.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    ada.locator(f'{MINE} [data-testid="joy-card"][data-legal="true"]').first.click()
    ada.locator(
        f'{MINE} [data-testid="joy-card"][data-legal="true"][data-selected="false"]'
    ).first.click()
    expect(ada.get_by_test_id("face-chooser")).to_be_visible()
    # Ada turns a card to its other face, so the take differs from the chooser's first offer.
    unpressed = ada.locator('[data-testid="face-option"][aria-pressed="false"]').first
    card, face = unpressed.get_attribute("data-card"), unpressed.get_attribute("data-face")
    flip = ada.locator(f'[data-testid="face-option"][data-card="{card}"][data-face="{face}"]')
    confirm = ada.get_by_test_id("confirm-move")
    if pressed_control == "face-option":
        pressed = _press(ada, flip)
    else:
        flip.click()
        expect(flip).to_have_attribute("aria-pressed", "true")
        chosen = _chosen_faces(ada)
        pressed = _press(ada, confirm)

    _the_other_player_takes(ada, live_server, match_id, guest)  # Bea takes hers meanwhile
    assert pressed.evaluate("e => e.isConnected"), f"the pressed {pressed_control} was replaced"
    ada.mouse.up()

    if pressed_control == "face-option":
        expect(flip).to_have_attribute("aria-pressed", "true")
        chosen = _chosen_faces(ada)
        confirm.click()
    expect(ada.get_by_test_id("my-joystick")).not_to_have_attribute("data-mode", "take")
    assert chosen[int(card or -1)] == face
    assert _active_faces(live_server, match_id, host) == chosen, "the take has Ada's faces"


def test_phone_first_board_and_joystick_share_the_screen(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue 14 item 5: at 390x844 the board and the controls of each decision (set-up cards
    and faces, a card, its space, the next faces) are on screen together, taps >= 40px."""
    phone_first_through_set_up_and_play(new_page, live_server, "c64-maze", 2, artifacts)


def test_phone_first_for_a_spectator(new_page: Any, live_server: str) -> None:
    """Issue 14 items 4 and 5: a spectator's phone shows the whole board North up in the
    room under the banners (she has no decision to make: no joystick of her own)."""
    match_id, _host, _guest = c64_match(live_server, "c64-maze")
    page = new_page(width=PHONE["width"], height=PHONE["height"])
    page.goto(f"/match/{match_id}")
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("data-view", "S")
    expect(page.get_by_test_id("my-joystick")).to_have_count(0)
    assert_phone_table(page, controls=False)
    box = board.bounding_box()
    assert box is not None and box["width"] >= 350, box
