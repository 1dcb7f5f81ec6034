"""Two friends play the first round of Joystick Heroes in two browsers, end to end against the
real server: genres, moves to Games cards, the dice rolling on both screens, the POWER UP
done by both, then round 2. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.c64_browser import version
from tests.e2e.lobby_flow import api_match, auth, fits_width

pytestmark = pytest.mark.browser

GAME = "joystick-heroes"


def started_match(base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    match_id, (host, guest) = api_match(base, GAME, ("Ada", "Bea"))
    return match_id, host, guest


# What a player clicks, in order of preference: decline questions, go to a card, roll,
# collect, finish shopping, skip when stuck.
ACTIONS = [
    '[data-testid="answer-no"]',
    '[data-testid="arcade-spot"][data-legal="true"]',
    '[data-testid="roll"]',
    '[data-testid="collect"]',
    '[data-testid="powerup-done"]',
    '[data-testid="skip-turn"]',
]


def act(page: Any) -> str | None:
    """The page's player makes one move if she has one; returns what she clicked."""
    if page.get_by_test_id("turn-banner").get_attribute("data-mine") != "true":
        return None
    for selector in ACTIONS:
        target = page.locator(selector).first
        if target.count() and target.is_visible():
            before = version(page)
            target.click()
            expect(page.get_by_test_id("game-root")).not_to_have_attribute(
                "data-version", str(before)
            )
            return selector
    return None


def test_two_friends_play_a_round(new_page: Any, live_server: str, artifacts: Path) -> None:
    match_id, host, guest = started_match(live_server)
    ada = new_page(player=host)
    bea = new_page(player=guest)
    for page in (ada, bea):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("arcade-spot")).to_have_count(5)  # H2: players + 3
        expect(page.get_by_test_id("hero-board")).to_have_count(2)

    # Set-up, both at once: each picks her two genres.
    for page in (ada, bea):
        expect(page.get_by_test_id("genre-choice")).to_have_count(6)
        page.get_by_test_id("genre-choice").first.click()
    for page in (ada, bea):
        expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "play")
        # Hands are private: 3 cards of your own, the other's only as a count.
        expect(page.get_by_test_id("power-card")).to_have_count(3)
        expect(page.get_by_test_id("hand-count").first).to_contain_text("3")

    clicks: list[str] = []
    rolled_seen = False
    shopped = 0
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if ada.get_by_test_id("phase").get_attribute("data-phase") == "play" and shopped >= 2:
            break
        moved = False
        for page, other in ((ada, bea), (bea, ada)):
            clicked = act(page)
            if clicked is None:
                continue
            moved = True
            clicks.append(clicked)
            if clicked == '[data-testid="roll"]':
                # The roll shows on both screens: the same dice and the same Game die face.
                tray = page.get_by_test_id("dice-tray")
                expect(tray.get_by_test_id("game-die")).not_to_have_attribute("data-face", "")
                face = tray.get_by_test_id("game-die").get_attribute("data-face")
                expect(other.get_by_test_id("game-die")).to_have_attribute("data-face", face or "")
                dice = tray.get_by_test_id("scoring-die").count()
                expect(other.get_by_test_id("scoring-die")).to_have_count(dice)
                if not rolled_seen:
                    # The other player holds cards, so she is asked about Tilt! whether she
                    # holds one or not (the question gives nobody away); without one her page
                    # passes for her after a short pause.
                    expect(other.get_by_test_id("question-text")).to_have_attribute(
                        "data-kind", "tilt"
                    )
                    other.screenshot(
                        path=str(artifacts / "joystick-heroes-reaction.png"), full_page=True
                    )
                    page.screenshot(
                        path=str(artifacts / "joystick-heroes-roll.png"), full_page=True
                    )
                rolled_seen = True
            if clicked == '[data-testid="powerup-done"]':
                shopped += 1
                if shopped == 1:
                    expect(page.get_by_test_id("powerup-waiting")).to_be_visible()
                    page.screenshot(
                        path=str(artifacts / "joystick-heroes-powerup.png"), full_page=True
                    )
        if not moved:
            ada.wait_for_timeout(150)
    assert rolled_seen, f"nobody rolled: {clicks}"
    assert shopped == 2, f"both must finish the POWER UP: {clicks}"
    for page in (ada, bea):
        expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "play")
        expect(page.get_by_test_id("jh-status")).to_contain_text("Round 2")
    # The log tells the story in words on both screens.
    expect(ada.locator('[data-testid="log-entry"]').filter(has_text="rolls").first).to_be_visible()
    power_up_line = bea.locator('[data-testid="log-entry"]').filter(has_text="POWER UP")
    expect(power_up_line.first).to_be_visible()
    ada.screenshot(path=str(artifacts / "joystick-heroes-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "joystick-heroes-bea.png"), full_page=True)


def test_phone_width_shows_the_arcade_without_scrolling_sideways(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    width = 390
    match_id, host, _guest = started_match(live_server)
    page = new_page(width=width, height=844, player=host)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("arcade")).to_be_visible()
    page.get_by_test_id("genre-choice").first.click()
    expect(page.get_by_test_id("power-card")).to_have_count(3)
    assert fits_width(page, width)
    page.screenshot(path=str(artifacts / "joystick-heroes-phone.png"), full_page=True)


def quick_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A fast, simple player for driving a match over HTTP: says no, goes to the first free
    card, rolls, collects, buys Prizes."""
    for wanted in ({"type": "answer", "accept": False}, {"type": "buy", "item": "prize"}):
        if wanted in legal:
            return wanted
    for kind in ("choose_genres", "move_to", "roll", "reroll", "done"):
        for move in legal:
            if move["type"] == kind:
                return move
    return legal[0]


def test_a_finished_game_shows_the_prizes_per_round_chart(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, host, guest = started_match(live_server)
    players = [host, guest]
    with httpx.Client(base_url=live_server) as client:
        for number in range(2000):
            views = [
                client.get(f"/api/matches/{match_id}", headers=auth(p)).json() for p in players
            ]
            if views[0]["status"] == "finished":
                break
            # The seat to move: during PLAY every seat also has its discards (H13a).
            seat = next(
                i
                for i, v in enumerate(views)
                if i in v["view"]["active_seats"] and v["view"]["legal_moves"]
            )
            move = quick_move(views[seat]["view"]["legal_moves"])
            answer = client.post(
                f"/api/matches/{match_id}/moves",
                json={"move": move, "id": f"m{number}"},
                headers=auth(players[seat]),
            )
            assert answer.status_code == 200, answer.text
    assert views[0]["status"] == "finished"
    page = new_page(player=host)
    page.goto(f"/match/{match_id}")
    chart = page.get_by_test_id("prize-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(2)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "over")
    chart.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "joystick-heroes-end.png"), full_page=True)

    # The replay's move list shows each roll's Scoring dice as numbers (200, 300): every die
    # chip keeps its number on one line instead of breaking it inside the shared 22px chip.
    page.goto(f"/replay/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    dice = page.locator('[data-testid="replay-move"] [data-testid="die"]')
    expect(dice.first).to_be_attached()
    sizes = dice.evaluate_all(
        "els => els.map(e => [e.textContent, e.scrollWidth, e.clientWidth, e.scrollHeight,"
        " e.clientHeight])"
    )
    cramped = [s for s in sizes if s[1] > s[2] or s[3] > s[4]]
    assert not cramped, f"die chips too narrow for their numbers: {cramped[:5]}"


def first_legal_move(base: str, match_id: str, player: dict[str, str], number: int) -> None:
    """`player` makes her first legal move over the REST API."""
    with httpx.Client(base_url=base) as client:
        view = client.get(f"/api/matches/{match_id}", headers=auth(player)).json()["view"]
        move = view["legal_moves"][0]
        sent = client.post(
            f"/api/matches/{match_id}/moves",
            json={"move": move, "id": f"first-{number}"},
            headers=auth(player),
        )
        assert sent.status_code == 200, sent.text


def test_a_button_pressed_while_another_seat_moves_still_clicks(
    new_page: Any, live_server: str
) -> None:
    """QA: every state update rebuilt the prompt, so a button pressed just as another seat's
    move arrived was swapped under the pointer (pressed on the old node, released on its
    copy) and the click was lost. A button the update leaves alone stays the same element."""
    match_id, host, guest = started_match(live_server)
    ada = new_page(player=host)
    ada.goto(f"/match/{match_id}")
    choices = ada.get_by_test_id("genre-choice")
    expect(choices).to_have_count(6)
    pressed = choices.nth(2)
    button = pressed.element_handle()
    genres = json.loads(pressed.get_attribute("data-move") or "{}")["genres"]
    box = pressed.bounding_box()
    assert box is not None
    ada.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ada.mouse.down()
    before = version(ada)
    first_legal_move(live_server, match_id, guest, 1)  # Bea picks her genres meanwhile
    expect(ada.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))
    # Checked while still pressed: once released, Ada's own move ends the set-up and the
    # genre buttons go, as they should.
    assert button.evaluate("e => e.isConnected"), "the pressed button was replaced"
    ada.mouse.up()
    expect(ada.get_by_test_id("phase")).to_have_attribute("data-phase", "play")
    with httpx.Client(base_url=live_server) as client:
        board = client.get(f"/api/matches/{match_id}", headers=auth(host)).json()["view"]["board"]
    assert board["players"][0]["genres"] == genres


# A second Joystick Heroes renderer on the match page, fed views by the test: who holds a
# reaction card is dealt at random, so the server cannot be steered into asking Ada about the
# Tilt! she holds. Its moves are recorded in window.sentMoves instead of being sent.
MOUNT_RENDERER = """async (view) => {
  const { createRenderer } = await import("/static/js/games/joystick-heroes.js");
  const root = document.createElement("div");
  root.dataset.testid = "test-renderer";
  document.body.append(root);
  window.sentMoves = [];
  window.testRenderer = createRenderer(root, {
    you: view.you, submit: async (move) => { window.sentMoves.push(move); },
  });
  window.testRenderer.update(view, []);
}"""


def test_a_reaction_button_stays_put_while_the_others_answer(
    new_page: Any, live_server: str
) -> None:
    """Bea rolled; Ada holds Tilt! and is asked with Cid. Cid's answer is private, so for Ada
    it is an update that changes nothing: her Play/Pass buttons must stay the very elements
    under her pointer, and a click on them counts. When her own answer changes the prompt,
    the button that still sends the same move stays too."""
    match_id, players = api_match(live_server, GAME, ("Ada", "Bea", "Cid"))
    for number, player in enumerate(players):
        first_legal_move(live_server, match_id, player, number)
    ada = new_page(player=players[0])
    ada.goto(f"/match/{match_id}")
    expect(ada.get_by_test_id("phase")).to_have_attribute("data-phase", "play")
    view = ada.evaluate("structuredClone(window.arcade.state)")
    yes, no = {"type": "answer", "accept": True}, {"type": "answer", "accept": False}
    asked = {
        **view,
        "active_seats": [0, 2],
        "legal_moves": [yes, no],
        "board": {
            **view["board"],
            "question": {
                "kind": "tilt",
                "asker": 1,
                "seats": [2, 0],
                "holding": True,
                "answer": None,
            },
        },
    }
    ada.evaluate(MOUNT_RENDERER, asked)
    mine = ada.get_by_test_id("test-renderer")
    expect(mine.get_by_test_id("question-text")).to_have_attribute("data-kind", "tilt")
    play_tilt = mine.get_by_test_id("answer-yes").element_handle()
    pass_button = mine.get_by_test_id("answer-no").element_handle()

    cid_answered = {**asked, "version": view["version"] + 1}
    ada.evaluate("view => window.testRenderer.update(view, [])", cid_answered)
    assert play_tilt.evaluate("e => e.isConnected"), "Play Tilt! was rebuilt for nothing"
    assert pass_button.evaluate("e => e.isConnected"), "Pass was rebuilt for nothing"
    pass_button.click()
    assert ada.evaluate("window.sentMoves") == [no]

    # Ada passed: the prompt says so and offers Tilt! after all, on the same button.
    ada_passed = {
        **cid_answered,
        "version": view["version"] + 2,
        "board": {
            **asked["board"],
            "question": {**asked["board"]["question"], "answer": False},
        },
    }
    ada.evaluate("view => window.testRenderer.update(view, [])", ada_passed)
    expect(mine.get_by_test_id("reaction-answer")).to_contain_text("pass")
    expect(mine.get_by_test_id("answer-yes")).to_have_text("Play Tilt! instead")
    assert play_tilt.evaluate("e => e.isConnected"), "Play Tilt! was rebuilt"
    assert not pass_button.evaluate("e => e.isConnected"), "Pass is no longer offered"


def test_hand_dice_and_arcade_controls_stay_put_and_send_their_own_move(
    new_page: Any, live_server: str
) -> None:
    """The hand, the scoring dice and the arcade spots were rebuilt on every update like the
    prompt was, so a press that spanned another seat's update was lost there too. A control
    stays the same element while it sends the same move; once its move changes or goes, the
    element that is left never sends the old one."""
    match_id, host, guest = started_match(live_server)
    for number, player in enumerate((host, guest)):
        first_legal_move(live_server, match_id, player, number)
    ada = new_page(player=host)
    ada.goto(f"/match/{match_id}")
    expect(ada.get_by_test_id("power-card")).to_have_count(3)
    view = ada.evaluate("structuredClone(window.arcade.state)")
    board = view["board"]
    first, second, third = (c["id"] for c in board["hand"])
    spots = [e["spot"] for e in board["arcade"]]
    play = {
        "seat": 0,
        "card": board["arcade"][0]["card"],
        "context": "arcade",
        "step": "marking",
        "level": 1,
        "dice": [100, 200, 300],
        "face": "+100",
        "face_mod": None,
        "continued": None,
        "coop": None,
        "marked": [1],
        "premium": False,
        "level_target": None,
        "high_score_target": 900,
        "dice_count": 3,
        "score": 700,
    }

    def marking(
        version_step: int, hand: list[str], dice: list[int], spots_free: list[int], tokens: int
    ) -> dict[str, Any]:
        """Ada marks dice for a Do-Over; her hand may be discarded and (not a real state,
        but the renderer draws what it gets) she may move to free spots."""
        legal = [{"type": "mark_die", "die": d} for d in dice]
        legal += [{"type": "discard", "card": c} for c in hand]
        legal += [{"type": "move_to", "spot": s} for s in spots_free]
        players = [dict(p) for p in board["players"]]
        players[1]["tokens"] = tokens  # the other seat's update
        return {
            **view,
            "version": view["version"] + version_step,
            "active_seats": [0],
            "legal_moves": legal,
            "board": {
                **board,
                "play": play,
                "turn": None,
                "players": players,
                "hand": [c for c in board["hand"] if c["id"] in hand],
            },
        }

    ada.evaluate(MOUNT_RENDERER, marking(1, [first, second, third], [0, 2], spots[1:3], 5))
    mine = ada.get_by_test_id("test-renderer")

    def discard(card: str) -> Any:
        return mine.locator(
            f'[data-testid="power-card"][data-card="{card}"] [data-testid="card-discard"]'
        )

    def die(index: int) -> Any:
        return mine.get_by_test_id("scoring-die").nth(index)

    def spot(index: int) -> Any:
        return mine.locator(f'[data-testid="arcade-spot"][data-spot="{spots[index]}"]')

    expect(discard(second)).to_have_count(1)
    controls = {
        "discard": discard(second).element_handle(),
        "die 0": die(0).element_handle(),
        "die 2": die(2).element_handle(),
        "spot 1": spot(1).element_handle(),
        "spot 2": spot(2).element_handle(),
    }

    # Another seat's update: Ada presses the discard button as it arrives; the press counts.
    button = discard(second)
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None
    ada.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ada.mouse.down()
    ada.evaluate(
        "view => window.testRenderer.update(view, [])",
        marking(2, [first, second, third], [0, 2], spots[1:3], 4),
    )
    replaced = [name for name, node in controls.items() if not node.evaluate("e => e.isConnected")]
    assert not replaced, f"rebuilt for nothing: {replaced}"
    ada.mouse.up()
    assert ada.evaluate("window.sentMoves") == [{"type": "discard", "card": second}]

    # Ada's own moves change her controls: the first card leaves her hand, die 0 is no longer
    # hers to mark and spot 1 is no longer free. What still sends the same move stays.
    ada.evaluate(
        "view => window.testRenderer.update(view, [])",
        marking(3, [second, third], [2], spots[2:3], 4),
    )
    expect(discard(first)).to_have_count(0)
    assert controls["discard"].evaluate("e => e.isConnected"), "the second card's button moved"
    assert controls["die 2"].evaluate("e => e.isConnected"), "die 2 was rebuilt"
    assert controls["spot 2"].evaluate("e => e.isConnected"), "spot 2 was rebuilt"
    expect(die(0)).to_be_disabled()
    expect(spot(1)).to_have_attribute("data-legal", "false")
    ada.evaluate("window.sentMoves = []")
    spot(1).click()
    die(2).click()
    spot(2).click()
    controls["discard"].click()
    assert ada.evaluate("window.sentMoves") == [
        {"type": "mark_die", "die": 2},
        {"type": "move_to", "spot": spots[2]},
        {"type": "discard", "card": second},
    ]


def test_a_player_discards_while_the_other_one_plays(new_page: Any, live_server: str) -> None:
    """Ruling H13a: during a PLAY phase every player may discard on anyone's turn. The page
    offers it to the player who is not to move, the server takes it, and the banner keeps
    naming the hero to move (the table never waits for a discard)."""
    match_id, host, guest = started_match(live_server)
    for number, player in enumerate((host, guest)):
        first_legal_move(live_server, match_id, player, number)
    pages = [new_page(player=host), new_page(player=guest)]
    for page in pages:
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("power-card")).to_have_count(3)
    mover = pages[0].evaluate("window.arcade.state.active_seats")[0]
    idle = pages[1 - mover]
    expect(idle.get_by_test_id("turn-banner")).to_have_attribute("data-mine", "false")
    expect(idle.get_by_test_id("card-discard")).to_have_count(3)
    card = idle.get_by_test_id("power-card").first.get_attribute("data-card")
    before = version(idle)
    idle.get_by_test_id("card-discard").first.click()
    expect(idle.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))
    expect(idle.locator(f'[data-testid="power-card"][data-card="{card}"]')).to_have_count(0)
    expect(idle.get_by_test_id("move-error")).to_be_hidden()
    expect(idle.locator('[data-testid="log-entry"]').filter(has_text="discards")).to_have_count(1)
    for page in pages:
        expect(page.get_by_test_id("turn-title")).to_contain_text(
            "Your turn" if page is pages[mover] else "Waiting for"
        )
    expect(pages[mover].get_by_test_id("hand-count").nth(1 - mover)).to_contain_text("2")
