"""Two friends play a few turns of CD Thief in two browsers against the real server.

Asserted on what a person sees: the roll button, the highlighted end squares on the hotel
map, the thief moving there in both browsers, and the drawn Event card shown to both.
Frantic Mode, the no-winner ending of difficult mode and the order of the move and the Event
card are checked on the renderer itself, fed wire states built from the rules module.
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from app.engine.dice import Dice
from app.engine.registry import get_game
from tests.e2e.c64_browser import api_player

pytestmark = pytest.mark.browser

ROOT = '[data-testid="cd-thief"]'
GAME = get_game("cd-thief")
assert GAME is not None


def started_match(base: str) -> tuple[str, dict[str, str], dict[str, str]]:
    with httpx.Client(base_url=base) as client:
        host = api_player(client, "Ada")
        guest = api_player(client, "Bea")
        auth = {"Authorization": f"Bearer {host['token']}"}
        created = client.post(
            "/api/matches", json={"game": "cd-thief", "options": {}, "seats": 2}, headers=auth
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        joined = client.post(
            f"/api/matches/{match_id}/join",
            json={},
            headers={"Authorization": f"Bearer {guest['token']}"},
        )
        assert joined.status_code == 200, joined.text
        started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth)
        assert started.status_code == 200, started.text
    return match_id, host, guest


def settled_version(page: Any) -> int:
    root = page.locator(ROOT)
    expect(root).to_have_attribute("data-busy", "false")
    return int(root.get_attribute("data-version") or -1)


def same_settled_version(pages: list[Any], version: str) -> None:
    for page in pages:
        expect(page.locator(ROOT)).to_have_attribute("data-version", version)
        expect(page.locator(ROOT)).to_have_attribute("data-busy", "false")


def whose_turn(pages: list[Any]) -> Any:
    """The page of the seat to move; every page shows the same settled version."""
    seat = pages[0].locator(ROOT).get_attribute("data-turn-seat")
    return next(p for p in pages if p.locator(ROOT).get_attribute("data-you") == seat)


def test_two_friends_roll_move_and_see_the_event_card(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    match_id, host, guest = started_match(live_server)
    ada = new_page(player=host)
    bea = new_page(width=390, height=844, player=guest)  # phone width
    for page in (ada, bea):
        page.goto(f"/match/{match_id}")
        expect(page.get_by_test_id("cd-board")).to_be_visible()
        expect(page.get_by_test_id("cd-card")).to_contain_text("No card drawn yet")
    pages = [ada, bea]
    settled_version(ada)
    same_settled_version(pages, ada.locator(ROOT).get_attribute("data-version") or "")

    cards_seen = 0
    for _turn in range(4):
        mover = whose_turn(pages)
        other = bea if mover is ada else ada
        seat = int(mover.locator(ROOT).get_attribute("data-you") or -1)
        if mover.get_by_test_id("cd-battle").is_visible():
            version = int(mover.locator(ROOT).get_attribute("data-version") or -1)
            mover.get_by_test_id("cd-battle").click()
            same_settled_version(pages, str(version + 1))
            continue
        expect(mover.get_by_test_id("cd-roll")).to_be_visible()
        mover.get_by_test_id("cd-roll").click()
        expect(mover.get_by_test_id("cd-dice").locator(".cdt-die")).to_have_count(2)
        targets = mover.locator('[data-testid^="cd-target-"]')
        expect(targets.first).to_be_visible()
        count = targets.count()
        assert count >= 1
        # Both browsers agree on the dice and the other one sees the choices outlined.
        expect(other.get_by_test_id("cd-dice")).to_have_text(
            mover.get_by_test_id("cd-dice").text_content() or ""
        )
        if _turn == 0:
            mover.screenshot(path=str(artifacts / "cd-thief-targets.png"), full_page=True)
        target = targets.last
        testid = target.get_attribute("data-testid") or ""
        x, y = (int(v) for v in testid.split("-")[-2:])
        version = int(mover.locator(ROOT).get_attribute("data-version") or -1)
        target.click()
        # Both browsers show the move (the chosen square may be where she stood) and, in the
        # same settled state, the thief on the chosen square.
        same_settled_version(pages, str(version + 1))
        piece = f'[data-testid="cd-piece-thief-{seat}"]'
        for page in pages:
            expect(page.locator(piece)).to_have_attribute("data-x", str(x))
            expect(page.locator(piece)).to_have_attribute("data-y", str(y))
        # The drawn Event card is shown to both players.
        title = mover.get_by_test_id("cd-card-title")
        expect(title).to_be_visible()
        expect(other.get_by_test_id("cd-card-title")).to_have_text(title.text_content() or "")
        cards_seen += 1
    assert cards_seen >= 2

    ada.screenshot(path=str(artifacts / "cd-thief-ada.png"), full_page=True)
    bea.screenshot(path=str(artifacts / "cd-thief-bea-phone.png"), full_page=True)


def test_a_refused_move_shows_its_reason(new_page: Any, live_server: str) -> None:
    match_id, host, guest = started_match(live_server)
    page = new_page(player=host)
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("cd-board")).to_be_visible()
    page.evaluate(
        "move => window.arcade.submit(move).catch(() => null)", {"type": "move", "to": [9, 14]}
    )
    expect(page.get_by_test_id("move-error")).to_be_visible()


# --- Frantic Mode and the no-winner ending --------------------------------------------------
# A real match reaches these only after a hundred turns of chance, so the renderer itself is
# loaded in the browser and fed wire states built from the rules module (the same `view` the
# server sends), with the events that `apply` produced.


def wire(state: dict[str, Any], seat: int, version: int) -> dict[str, Any]:
    game = GAME
    outcome = game.outcome(state)
    return {
        "game": "cd-thief",
        "status": "finished" if outcome else "playing",
        "version": version,
        "seats": [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bea"}],
        "you": seat,
        "active_seats": sorted(game.active_seats(state)),
        "legal_moves": game.legal_moves(state, seat),
        "board": game.view(state, seat),
        "outcome": None
        if outcome is None
        else {"winners": list(outcome.winners), "reason": outcome.reason},
    }


RENDERER_PAGE = """
<!doctype html><html><head><link rel="stylesheet" href="/static/css/arcade.css"></head>
<body><main id="root"></main></body></html>
"""

MOUNT = """async () => {
  const module = await import("/static/js/games/cd-thief.js");
  window.cdRenderer = module.createRenderer(document.getElementById("root"), {
    you: 0, submit: (move) => { window.cdSubmitted = move; return Promise.resolve(); },
  });
}"""


def renderer_page(new_page: Any, width: int = 1280) -> Any:
    page = new_page(width=width, height=900)
    page.goto("/static/css/arcade.css")  # same origin as the modules, no app script running
    page.set_content(RENDERER_PAGE)
    page.evaluate(MOUNT)
    return page


def update(page: Any, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    page.evaluate("([s, e]) => window.cdRenderer.update(s, e)", [state, events])
    expect(page.locator(ROOT)).to_have_attribute("data-busy", "false", timeout=15_000)


def test_frantic_mode_banner_itg_chase_and_white_die(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Issue item 7: "a Frantic Mode banner"; item 4: ITG's chase with the white die shown."""
    game = GAME
    state = game.setup(2, game.parse_options({}), Dice("frantic-ui", 0))
    state["thieves"][0].update(pos=[10, 7], backpack=["cds", "key", "studson"], opened=["casino"])
    state["thieves"][1]["pos"] = [15, 16]
    for item in ("cds", "red-key", "red-studson"):
        del state["items"][item]
    state["frantic"] = 0
    state["itg"] = [5, 3]
    state["turn"] = {
        "seat": 0,
        "number": 9,
        "phase": "roll",
        "dice": None,
        "targets": [],
        "battled": [],
    }
    page = renderer_page(new_page, width=390)
    update(page, wire(state, 0, 1), [])
    banner = page.get_by_test_id("cd-frantic")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Frantic Mode")
    expect(banner).to_contain_text("Red has the CDs")
    expect(page.get_by_test_id("cd-pack-0")).to_contain_text("CDs")
    turn = page.evaluate("s => window.cdRenderer.describeTurn(s)", wire(state, 0, 1))
    assert turn["mine"] and turn["detail"].startswith("Frantic Mode!")

    rolled, roll_events = game.apply(state, 0, {"type": "roll"}, Dice("frantic-ui", 1))
    update(page, wire(rolled, 0, 2), roll_events)
    expect(page.locator('[data-testid^="cd-target-"]').first).to_be_visible()
    to = rolled["turn"]["targets"][0]
    page.locator(f'[data-testid="cd-target-{to[0]}-{to[1]}"]').click()
    assert page.evaluate("() => window.cdSubmitted") == {"type": "move", "to": to}
    moved, move_events = game.apply(rolled, 0, {"type": "move", "to": to}, Dice("frantic-ui", 2))
    itg = next(e for e in move_events if e["type"] == "itg")
    assert not any(e["type"] == "card" for e in move_events)  # no Event cards in Frantic Mode
    update(page, wire(moved, 0, 3), move_events)
    expect(page.get_by_test_id("cd-dice").locator(".cdt-die.white")).to_have_text(str(itg["die"]))
    piece = page.get_by_test_id("cd-piece-itg")
    expect(piece).to_have_attribute("data-x", str(moved["itg"][0]))
    expect(piece).to_have_attribute("data-y", str(moved["itg"][1]))
    page.screenshot(path=str(artifacts / "cd-thief-frantic-phone.png"), full_page=True)


def test_difficult_mode_no_winner_ending(new_page: Any, live_server: str, artifacts: Path) -> None:
    """Issue item 5: "the no-winner ending": the last thief with lives is caught, the board
    shows both thieves out, no buttons or highlighted squares, and the reason in words."""
    game = GAME
    state = game.setup(2, game.parse_options({"difficult": True}), Dice("no-winner-ui", 0))
    state["thieves"][0].update(pos=[10, 7], lives=1)
    state["thieves"][1].update(pos=None, lives=0, out=True)
    state["items"] = {k: v for k, v in state["items"].items() if not k.startswith("green-")}
    state["podcasters"]["scott"] = [10, 6]
    state["turn"] = {
        "seat": 0,
        "number": 40,
        "phase": "battle",
        "dice": None,
        "targets": [],
        "battled": [],
    }
    page = renderer_page(new_page)
    update(page, wire(state, 0, 1), [])
    expect(page.get_by_test_id("cd-battle")).to_be_visible()
    expect(page.get_by_test_id("cd-battle")).to_contain_text("Scott")
    seed = next(  # a seed whose Battle dice lose (fewer than 4 hit points without a Zapper)
        n
        for n in range(100)
        if game.outcome(game.apply(state, 0, {"type": "battle"}, Dice("no-winner-ui", n))[0])
    )
    over, events = game.apply(state, 0, {"type": "battle"}, Dice("no-winner-ui", seed))
    outcome = game.outcome(over)
    assert outcome is not None and outcome.winners == ()
    update(page, wire(over, 0, 2), events)
    expect(page.get_by_test_id("cd-say")).to_contain_text("nobody wins")
    expect(page.get_by_test_id("cd-roll")).to_be_hidden()
    expect(page.get_by_test_id("cd-battle")).to_be_hidden()
    expect(page.locator('[data-testid^="cd-target-"]')).to_have_count(0)
    for seat in (0, 1):
        expect(page.get_by_test_id(f"cd-pack-{seat}")).to_contain_text("Out of lives")
    expect(page.get_by_test_id("cd-piece-thief-0")).to_have_count(0)
    assert page.evaluate("s => window.cdRenderer.describeTurn(s)", wire(over, 0, 2)) is None
    page.screenshot(path=str(artifacts / "cd-thief-no-winner.png"), full_page=True)


def test_the_event_card_is_turned_over_after_the_thief_walks(
    new_page: Any, live_server: str
) -> None:
    """Rulebook Player Turn: the Event card is taken after the move. While the move is being
    animated the card panel still shows the previous card (read synchronously as the update
    starts, no timing involved); once the animation is over it shows the drawn card."""
    game = GAME
    state = game.setup(2, game.parse_options({}), Dice("card-ui", 0))
    state["thieves"][0]["pos"] = [10, 7]
    state["turn"] = {
        "seat": 0,
        "number": 3,
        "phase": "roll",
        "dice": None,
        "targets": [],
        "battled": [],
    }
    rolled, _ = game.apply(state, 0, {"type": "roll"}, Dice("card-ui", 1))
    page = renderer_page(new_page)
    update(page, wire(rolled, 0, 1), [])
    to = rolled["turn"]["targets"][0]
    moved, events = game.apply(rolled, 0, {"type": "move", "to": to}, Dice("card-ui", 2))
    card = next(e["card"] for e in events if e["type"] == "card")
    during = page.evaluate(
        """([s, e]) => { window.cdRenderer.update(s, e);
             return document.querySelector('[data-testid="cd-card"]').textContent; }""",
        [wire(moved, 0, 2), events],
    )
    assert "No card drawn yet" in during
    expect(page.locator(ROOT)).to_have_attribute("data-busy", "false", timeout=15_000)
    expect(page.get_by_test_id("cd-card-title")).to_have_text(f"#{card['number']} {card['title']}")
    # QA: the next seat's turn has begun, so the mover's dice are dimmed (not read as hers)
    assert any(e["type"] == "turn" for e in events)
    expect(page.get_by_test_id("cd-dice")).to_have_class(re.compile("cdt-dice-old"))
    expect(page.get_by_test_id("cd-dice").locator(".cdt-die")).to_have_count(2)


def test_the_winner_escapes_and_a_replay_jump_drops_stale_words(
    new_page: Any, live_server: str, artifacts: Path
) -> None:
    """Rulings D9.4: "Reaching any Hotel Exit square with the CDs wins at once". QA found the
    red Frantic Mode banner still shouting "runs for the exit" under the winner banner, and on
    the replay page a jump (an update without events) kept an older move's sentence under the
    new dice. After the escape the banner is gone; a jump back shows no stale sentence."""
    game = GAME
    state = game.setup(2, game.parse_options({}), Dice("escape-ui", 0))
    state["thieves"][0].update(pos=[9, 14], backpack=["cds", "key", "studson"], opened=["casino"])
    state["thieves"][1]["pos"] = [15, 16]
    for item in ("cds", "red-key", "red-studson"):
        del state["items"][item]
    state["frantic"] = 0
    state["turn"] = {
        "seat": 0,
        "number": 30,
        "phase": "roll",
        "dice": None,
        "targets": [],
        "battled": [],
    }
    rolled, roll_events = game.apply(state, 0, {"type": "roll"}, Dice("escape-ui", 1))
    exits = [t for t in rolled["turn"]["targets"] if t[1] >= 15]
    assert exits, rolled["turn"]["targets"]
    won, events = game.apply(rolled, 0, {"type": "move", "to": exits[0]}, Dice("escape-ui", 2))
    outcome = game.outcome(won)
    assert outcome is not None and outcome.winners == (0,)

    page = renderer_page(new_page, width=390)
    update(page, wire(rolled, 0, 1), roll_events)
    expect(page.get_by_test_id("cd-frantic")).to_be_visible()
    update(page, wire(won, 0, 2), events)
    expect(page.get_by_test_id("cd-say")).to_contain_text("wins")
    expect(page.get_by_test_id("cd-frantic")).to_be_hidden()
    page.screenshot(path=str(artifacts / "cd-thief-escape-phone.png"), full_page=True)

    update(page, wire(state, 0, 0), [])  # the replay's "first move" button: no events
    expect(page.get_by_test_id("cd-frantic")).to_be_visible()
    expect(page.get_by_test_id("cd-say")).not_to_contain_text("wins")


def test_the_carl_icon_is_drawn_without_an_emoji(new_page: Any, live_server: str) -> None:
    """Rulings 3(d): cards #43-47 carry the Carl icon. QA saw an empty box where the broom emoji
    should be (no emoji font); the card now shows Carl's own board token, a "C"."""
    game = GAME
    state = game.setup(2, game.parse_options({}), Dice("carl-ui", 0))
    state["last_card"] = 43
    page = renderer_page(new_page, width=390)
    update(page, wire(state, 0, 1), [])
    expect(page.get_by_test_id("cd-card-title")).to_contain_text("#43")
    carl = page.get_by_test_id("cd-card-carl")
    expect(carl).to_have_text("CCarl icon")
    expect(carl.locator(".cdt-carl-badge")).to_have_text("C")


def test_highlighted_squares_are_named_by_place_not_coordinates(
    new_page: Any, live_server: str
) -> None:
    """QA: the target squares were labelled "Move to 17,15" on a map without coordinates, and
    the dice panel said "... moves 12 steps to 17,15.". The labels (and their tooltips) name
    the room or area, and the item lying there; the sentence after the move names the place."""
    game = GAME
    state = game.setup(2, game.parse_options({}), Dice("places-ui", 0))
    state["thieves"][0]["pos"] = [10, 7]
    state["turn"] = {
        "seat": 0,
        "number": 3,
        "phase": "roll",
        "dice": None,
        "targets": [],
        "battled": [],
    }
    rolled, _ = game.apply(state, 0, {"type": "roll"}, Dice("places-ui", 1))
    page = renderer_page(new_page)
    update(page, wire(rolled, 0, 1), [])
    targets = page.locator('[data-testid^="cd-target-"]')
    expect(targets.first).to_be_visible()
    labels = [targets.nth(i).get_attribute("aria-label") or "" for i in range(targets.count())]
    assert len(labels) == len(rolled["turn"]["targets"])
    assert all(label.startswith("Move to the ") for label in labels), labels
    assert not any(re.search(r"\d", label) for label in labels), labels
    first = targets.first
    expect(first.locator("title")).to_have_text(first.get_attribute("aria-label") or "")

    # An item on a target square is named too: put Red's key on the first one.
    on_key = dict(rolled, items={**rolled["items"], "red-key": rolled["turn"]["targets"][0]})
    update(page, wire(on_key, 0, 2), [])
    x, y = rolled["turn"]["targets"][0]
    expect(page.get_by_test_id(f"cd-target-{x}-{y}")).to_have_attribute(
        "aria-label", re.compile(r"^Move to the .+, where the Red Key lies$")
    )

    to = rolled["turn"]["targets"][-1]
    moved, events = game.apply(rolled, 0, {"type": "move", "to": to}, Dice("places-ui", 2))
    update(page, wire(moved, 0, 3), [e for e in events if e["type"] == "move"])
    expect(page.get_by_test_id("cd-say")).to_have_text(re.compile(r"^Red moves \d+ steps? to the "))
    expect(page.get_by_test_id("cd-say")).not_to_have_text(re.compile(r"\d+,\d+"))
