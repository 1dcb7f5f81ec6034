"""Players named with HTML and script run nothing in anyone's page (issue 13, finding 1).

A player named <img src onerror=import('//127.1:8979')> ran a module in her opponent's C64
page: the table put "Waiting for <colour> (<name>)." into innerHTML. Here a player with a
payload for a name plays a turn of every game with a second player (C64 Trains needs a
third); the lobby page, the match page of both players and a spectator, the replay page and
(for finished matches) the history page are opened, and a payload is sent as chat. Every
page records each Content-Security-Policy violation (conftest `watched_page`); the payloads
would set window.__pwned. Each page must show the payload as text, leave the flag unset and
raise no violation. Payloads are cycled over the games (the C64 games get those that run
when parsed as HTML); moves are made over the REST API, as clicking is not the point here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_lobby, auth

pytestmark = pytest.mark.browser

# Each at most 40 characters (the longest name the server takes), no control characters.
PAYLOADS = (
    "<img src=x onerror=window.__pwned=1>",
    "<svg onload=window.__pwned=1>",
    "</title><img src=x onerror=__pwned=1>",
    "<img src onerror=window.__pwned=1>",
    "<details open ontoggle=__pwned=1>",
    "<IMG SRC=/ OnError=__pwned=1>",
    '"><script>window.__pwned=1</script>',
    "' onmouseover='window.__pwned=1",
    "javascript:window.__pwned=1",
    "<a href=javascript:__pwned=1>x</a>",
    "{{7*7}}<b>${__pwned=1}</b>",
)

# game: seats. The six C64 games first, so that they get the payloads that run when parsed.
GAMES = {
    "c64-maze": 2,
    "c64-cars": 2,
    "c64-monsters": 2,
    "c64-snakes": 2,
    "c64-tanks": 2,
    "c64-trains": 3,
    "tube-tanks": 2,
    "joystick-heroes": 2,
    "cd-thief": 2,
    "tactrics-crossing": 2,
    "tactrics-crossing-advanced": 2,
    "tactrics-cat-mouse": 2,
    "tactrics-solitary": 1,
}

# A visible element with the payload in one of its own text nodes: rendered as text.
SHOWS_AS_TEXT = """(payload) => [...document.querySelectorAll("body *")].some((el) =>
  el.checkVisibility()
  && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.includes(payload)))"""

PAGE_TIMEOUT_MS = 30_000  # a loaded CI machine renders slowly; each wait ends on an event


def assert_shown_harmlessly(page: Any, payloads: tuple[str, ...], where: str) -> None:
    """Each payload is on the page as text, and nothing ran: no flag, no violation."""
    for payload in payloads:
        try:
            page.wait_for_function(SHOWS_AS_TEXT, arg=payload, timeout=PAGE_TIMEOUT_MS)
        except Exception as error:  # the flag says more than a timeout when a payload ran
            pwned = page.evaluate("() => window.__pwned")
            raise AssertionError(
                f"{where}: {payload!r} not shown as text (__pwned={pwned})"
            ) from error
    # Whatever a parsed payload would have loaded (an image, a frame) has been tried by now.
    page.wait_for_load_state("networkidle")
    pwned, violations = page.evaluate("() => [window.__pwned, window.__cspViolations]")
    assert pwned is None, f"{where}: a payload ran (window.__pwned = {pwned!r})"
    assert violations == [], f"{where}: Content-Security-Policy violations: {violations}"


def pick(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A move that ends the turn where the game has one (Tactrics: confirm), never an undo."""
    ending = [m for m in legal if m.get("type") in ("confirm", "end")]
    doing = [m for m in legal if m.get("type") != "undo"]
    return (ending or doing or legal)[0]


def play_a_turn_each(base: str, match_id: str, players: list[dict[str, str]]) -> None:
    """Start, then move until every seat has moved, the set-up is over and it is the first
    player's turn: the others' pages then say whom they wait for, by her name."""
    moved: set[int] = set()
    with httpx.Client(base_url=base) as client:
        started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth(players[0]))
        assert started.status_code == 200, started.text
        for number in range(60):
            views = [
                client.get(f"/api/matches/{match_id}", headers=auth(p)).json()["view"]
                for p in players
            ]
            board = views[0]["board"] if isinstance(views[0]["board"], dict) else {}
            if (
                len(moved) == len(players)
                and board.get("phase") in (None, "play")
                and 0 in views[0]["active_seats"]
            ) or views[0]["status"] != "active":
                return
            seat = next(i for i, view in enumerate(views) if view["legal_moves"])
            answer = client.post(
                f"/api/matches/{match_id}/moves",
                json={"move": pick(views[seat]["legal_moves"]), "id": f"m{number}"},
                headers=auth(players[seat]),
            )
            assert answer.status_code == 200, answer.text
            moved.add(seat)
    raise AssertionError(f"no turn each within 60 moves: moved {sorted(moved)}")


def test_the_games_listed_are_the_servers(live_server: str) -> None:
    """A new game must join GAMES, with a number of seats it allows."""
    games = httpx.get(f"{live_server}/api/games").json()
    assert {g["id"] for g in games} == set(GAMES)
    assert all(g["min_players"] <= GAMES[g["id"]] <= g["max_players"] for g in games)


@pytest.mark.parametrize("game", GAMES)
def test_hostile_names_run_nothing_in_any_page_of_a_match(
    game: str, live_server: str, watched_page: Callable[..., Any]
) -> None:
    index = list(GAMES).index(game)
    hostile = PAYLOADS[index % len(PAYLOADS)]
    others = [PAYLOADS[(index + k) % len(PAYLOADS)] for k in range(1, GAMES[game])]
    said = PAYLOADS[(index + 5) % len(PAYLOADS)]
    match_id, players = api_lobby(live_server, game, [hostile, *others])
    names = (hostile, *others)

    # The lobby lists the open table with its host's name.
    second = watched_page(player=players[1] if len(players) > 1 else None)
    second.goto("/")
    assert_shown_harmlessly(second, (hostile,), f"{game}: lobby")

    play_a_turn_each(live_server, match_id, players)

    mine = watched_page(player=players[0])
    spectator = watched_page()
    pages = {"the hostile player": mine, "a spectator": spectator}
    if len(players) > 1:
        pages["the second player"] = second
    for who, page in pages.items():
        page.goto(f"/match/{match_id}")
        assert_shown_harmlessly(page, names, f"{game}: match page of {who}")
    if game.startswith("c64-"):
        # The sink of issue 13: the opponent's note names the player whose turn it is.
        note = second.get_by_test_id("joy-note")
        expect(note).to_contain_text(f"({hostile}).", timeout=PAGE_TIMEOUT_MS)

    mine.get_by_test_id("chat-input").fill(said)
    mine.get_by_test_id("chat-send").click()
    for who, page in pages.items():
        if page is spectator:
            continue  # the players' channel is theirs alone (issue 14, item 8)
        expect(page.get_by_test_id("chat-messages")).to_contain_text(said, timeout=PAGE_TIMEOUT_MS)
        assert_shown_harmlessly(page, (said,), f"{game}: chat on the match page of {who}")

    spectator.goto(f"/replay/{match_id}")
    assert_shown_harmlessly(spectator, names, f"{game}: replay page")


def test_hostile_names_run_nothing_in_the_history_and_a_finished_replay(
    finish_maze_match: Callable[..., dict[str, Any]], watched_page: Callable[..., Any]
) -> None:
    names = (PAYLOADS[0], PAYLOADS[6])
    finished = finish_maze_match(names=names)
    page = watched_page(player=finished["players"][1])
    page.goto("/history")
    assert_shown_harmlessly(page, names, "history page")
    page.goto(f"/replay/{finished['id']}")
    assert_shown_harmlessly(page, names, "replay of a finished match")
    page.goto(f"/match/{finished['id']}")
    assert_shown_harmlessly(page, names, "match page of a finished match")
