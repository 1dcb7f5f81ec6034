"""The lobby steps every browser test takes, whatever the game: a player over the REST API, a
match created, joined and started over the REST API, and the same in the lobby UI (a friend
opens a table, the others follow the invite link and take a seat, the host starts).

(Named lobby_flow, not lobby, because tests have no __init__ files and pytest's rootdir
imports need helper module names that are unique across the whole tests tree.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import httpx
from playwright.sync_api import expect

FRIENDS = ("Ada", "Bea", "Cid", "Dee")


def auth(player: dict[str, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def api_player(client: httpx.Client, name: str) -> dict[str, str]:
    response = client.post("/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    return dict(response.json())


def api_match(
    base: str,
    game: str,
    names: Sequence[str] = ("Hosty", "Guesty"),
    options: dict[str, Any] | None = None,
) -> tuple[str, list[dict[str, str]]]:
    """A match of `game` for len(names) players created by the first, joined by the others
    and started, all through the REST API: (id, players by seat)."""
    match_id, players = api_lobby(base, game, names, options)
    with httpx.Client(base_url=base) as client:
        started = client.post(f"/api/matches/{match_id}/start", json={}, headers=auth(players[0]))
        assert started.status_code == 200, started.text
    return match_id, players


def legal_moves(base: str, match_id: str, player: dict[str, str]) -> list[dict[str, Any]]:
    """The player's legal moves now, as the REST API gives them."""
    with httpx.Client(base_url=base) as client:
        summary = client.get(f"/api/matches/{match_id}", headers=auth(player))
    assert summary.status_code == 200, summary.text
    return list(summary.json()["view"]["legal_moves"])


def play_first_legal_moves(
    base: str,
    match_id: str,
    people: Sequence[dict[str, str]],
    *,
    until: Callable[[dict[str, Any]], bool],
    movers: Sequence[int] | None = None,
    limit: int = 40,
) -> None:
    """Seats to move (of `movers`, default any) make their first legal move over REST, one at
    a time, until `until(view)` holds for the view of `people[0]`; fails after `limit`."""
    url = f"/api/matches/{match_id}"
    with httpx.Client(base_url=base) as client:
        for _ in range(limit):
            view = client.get(url, headers=auth(people[0])).json()["view"]
            if until(view):
                return
            seat = next(s for s in view["active_seats"] if movers is None or s in movers)
            mine = client.get(url, headers=auth(people[seat])).json()["view"]
            sent = client.post(
                f"{url}/moves",
                headers=auth(people[seat]),
                json={"move": mine["legal_moves"][0]},
            )
            assert sent.status_code == 200, sent.text
    raise AssertionError(f"not there after {limit} moves")


def api_lobby(
    base: str,
    game: str,
    names: Sequence[str] = ("Hosty", "Guesty"),
    options: dict[str, Any] | None = None,
) -> tuple[str, list[dict[str, str]]]:
    """A lobby of `game` opened by the first player and joined by the others, not started."""
    with httpx.Client(base_url=base) as client:
        players = [api_player(client, name) for name in names]
        created = client.post(
            "/api/matches",
            json={"game": game, "options": options or {}, "seats": len(players)},
            headers=auth(players[0]),
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        for guest in players[1:]:
            joined = client.post(f"/api/matches/{match_id}/join", json={}, headers=auth(guest))
            assert joined.status_code == 200, joined.text
    return match_id, players


def choose_game(page: Any, game: str) -> None:
    """Picks a game card in the lobby with the keyboard (focus, Space). A mouse click can
    miss: the card lifts on hover and its label then covers the radio input."""
    card = page.get_by_test_id(f"game-card-{game}")
    card.focus()
    page.keyboard.press("Space")
    expect(card).to_be_checked()


def give_name(page: Any, name: str) -> None:
    """The page asks for a name (a dialog) and gets one."""
    expect(page.get_by_test_id("name-dialog")).to_be_visible()
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("name-submit").click()


def open_table(page: Any, name: str, game: str, seats: int) -> str:
    """A friend arrives in the lobby, is asked for a name and opens a table of `game` for
    `seats`; she lands on the match page with its invite link. Returns the invite."""
    page.goto("/")
    give_name(page, name)
    expect(page.get_by_test_id("player-name")).to_have_text(name)
    choose_game(page, game)
    page.get_by_test_id(f"seats-{seats}").check()
    page.get_by_test_id("create-match").click()
    page.wait_for_url(re.compile(r"/match/[^/]+$"))
    expect(page.get_by_test_id("invite-link")).to_have_value(page.url)
    return str(page.get_by_test_id("invite-link").input_value())


def take_seat(page: Any, invite: str, name: str, seat: int, host: Any) -> None:
    """A friend opens the invite link, takes `seat` and picks a name on the way; the host's
    seat list shows her live, without a reload."""
    page.goto(invite)
    page.get_by_test_id(f"take-seat-{seat}").click()
    give_name(page, name)
    expect(page.get_by_test_id("leave-seat")).to_be_visible()
    expect(host.get_by_test_id("seat-list")).to_contain_text(name)


def friends_start_a_match(
    new_page: Callable[..., Any], game: str, seats: int = 2
) -> tuple[list[Any], str]:
    """`seats` friends in their own browsers (Ada, Bea, ...): Ada opens a table in the lobby,
    the others join by the invite link, Ada starts. Returns (pages by seat, invite)."""
    pages = [new_page() for _ in range(seats)]
    host = pages[0]
    invite = open_table(host, FRIENDS[0], game, seats)
    for seat in range(1, seats):
        take_seat(pages[seat], invite, FRIENDS[seat], seat, host)
    host.get_by_test_id("start-match").click()
    return pages, invite


def fits_width(page: Any, width: int) -> bool:
    """No horizontal scrolling at `width`."""
    return bool(page.evaluate("document.documentElement.scrollWidth") <= width)
