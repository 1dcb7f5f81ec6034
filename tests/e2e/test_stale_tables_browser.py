"""Stale tables in the browser (issue 14, item 11): the host of an open table reads when it
closes if nothing happens, sees that time move on when a friend joins, and once the table
has stood untouched for the whole time, reads that it closed and why, while the lobby's
list no longer offers it. The lists say when each table last saw activity and fold matches
nobody moves in away from the others. The history lists the last match to end first.

These tests run their own server (its sweeper looks for expired lobbies five times a second)
and age tables by moving their times back in its database: nothing waits for the clock.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.conftest import LiveServer
from tests.e2e.browser_pages import page_maker
from tests.e2e.lobby_flow import api_match, api_player, auth

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def stale_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Path]]:
    database = tmp_path_factory.mktemp("stale-tables") / "arcade.db"
    server = LiveServer(f"sqlite+aiosqlite:///{database}", lobby_sweep_seconds=0.2).start()
    try:
        yield server, database
    finally:
        server.stop()


@pytest.fixture
def open_page(browser: Any, stale_server: tuple[LiveServer, Path]) -> Iterator[Callable[..., Any]]:
    """Like conftest's new_page (phone-sized), on this module's server."""
    with page_maker(browser, stale_server[0].url, (390, 844)) as make:
        yield make


def _set_time(database: Path, match_id: str, column: str, ago: timedelta) -> None:
    """Moves one of a match's times back, as SQLAlchemy stores times in SQLite (UTC text)."""
    moment = (datetime.now(UTC) - ago).replace(tzinfo=None).isoformat(sep=" ")
    with sqlite3.connect(database) as db:
        db.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (moment, match_id))  # noqa: S608


def _summary(base: str, match_id: str) -> dict[str, Any]:
    with httpx.Client(base_url=base) as client:
        return dict(client.get(f"/api/matches/{match_id}").json())


def _clock(page: Any, iso: str) -> str:
    """The time as the page shows it (the browser's own locale and zone)."""
    return str(
        page.evaluate(
            "iso => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })",
            iso,
        )
    )


def test_the_host_reads_when_an_idle_table_closes_and_then_why_it_closed(
    open_page: Callable[..., Any], stale_server: tuple[LiveServer, Path], artifacts: Path
) -> None:
    server, database = stale_server
    with httpx.Client(base_url=server.url) as client:
        host, friend = api_player(client, "Hal"), api_player(client, "Gus")
        made = client.post(
            "/api/matches", json={"game": "c64-maze", "seats": 3}, headers=auth(host)
        )
        assert made.status_code == 201, made.text
    match_id = made.json()["id"]
    _set_time(database, match_id, "last_activity_at", timedelta(minutes=20))
    closes = _summary(server.url, match_id)["expires_at"]

    page = open_page(player=host)
    page.goto(f"/match/{match_id}")
    notice = page.get_by_test_id("lobby-expiry")
    expect(notice).to_contain_text(
        f"This table closes at {_clock(page, closes)} if nobody joins or starts it."
    )
    expect(notice).to_contain_text("keeps it open 30 more minutes")
    expect(notice).to_be_visible()  # text arrives before layout on a busy machine
    assert notice.bounding_box() is not None

    # A friend joining is activity: the closing time moves on, on the host's page too.
    with httpx.Client(base_url=server.url) as client:
        joined = client.post(f"/api/matches/{match_id}/join", json={}, headers=auth(friend))
        assert joined.status_code == 200, joined.text
    later = joined.json()["expires_at"]
    assert later > closes
    expect(notice).to_contain_text(f"This table closes at {_clock(page, later)}")
    expect(page.get_by_test_id("keep-open")).to_be_visible()
    page.screenshot(path=str(artifacts / "stale-table-notice.png"))

    # Her friends are late: twenty quiet minutes on, she keeps the table open herself.
    _set_time(database, match_id, "last_activity_at", timedelta(minutes=20))
    page.reload()
    quiet = _summary(server.url, match_id)["expires_at"]
    expect(notice).to_contain_text(f"This table closes at {_clock(page, quiet)}")
    keep = page.get_by_test_id("keep-open")
    expect(keep).to_be_visible()
    box = keep.bounding_box()
    assert box is not None and box["height"] >= 40
    keep.click()
    kept = _summary(server.url, match_id)["expires_at"]
    assert kept > quiet
    expect(notice).to_contain_text(f"This table closes at {_clock(page, kept)}")

    # Then nothing happens for the whole time: the server closes it, the page says why.
    _set_time(database, match_id, "last_activity_at", timedelta(minutes=31))
    closed = page.get_by_test_id("lobby-expired")
    expect(closed).to_be_visible()
    expect(closed).to_contain_text(re.compile(r"This table closed at \d{1,2}:\d{2}"))
    expect(closed).to_contain_text("Nobody joined, left, changed or started it for 31 minutes")
    expect(page.get_by_test_id("lobby-view")).to_be_hidden()
    expect(page.get_by_test_id("match-status")).to_have_text("abandoned")
    # match.js's "everyone left" explanation does not contradict it.
    expect(page.locator("#turn .b-detail")).to_be_hidden()
    page.screenshot(path=str(artifacts / "stale-table-closed.png"))

    home = open_page(player=friend)
    home.goto("/")
    expect(home.get_by_test_id("open-matches")).to_have_attribute("aria-busy", "false")
    expect(home.locator(f'[data-match-id="{match_id}"]')).to_have_count(0)

    page.reload()  # a reload tells the same story
    expect(page.get_by_test_id("lobby-expired")).to_contain_text("This table closed at")


def test_the_lists_show_last_activity_and_fold_idle_matches_away(
    open_page: Callable[..., Any], stale_server: tuple[LiveServer, Path], artifacts: Path
) -> None:
    server, database = stale_server
    busy, (ivy, _jo) = api_match(server.url, "c64-maze", ("Ivy", "Jo"))
    idle, _idle_players = api_match(server.url, "c64-maze", ("Kit", "Lu"))
    with httpx.Client(base_url=server.url) as client:
        view = client.get(f"/api/matches/{busy}", headers=auth(ivy)).json()["view"]
        moved = client.post(
            f"/api/matches/{busy}/moves",
            json={"move": view["legal_moves"][0], "id": "first-move"},
            headers=auth(ivy),
        )
        assert moved.status_code == 200, moved.text
        lobby = client.post(
            "/api/matches", json={"game": "c64-maze", "seats": 2}, headers=auth(ivy)
        ).json()["id"]
    # Kit and Lu started two hours ago and never moved.
    _set_time(database, idle, "started_at", timedelta(hours=2))

    page = open_page(player=ivy)
    page.goto("/")
    live = page.get_by_test_id("live-matches")
    expect(live).to_have_attribute("aria-busy", "false")
    busy_row = live.locator(f'[data-match-id="{busy}"]')
    expect(busy_row.get_by_test_id("match-activity")).to_have_text(
        re.compile(r"^last move (just now|\d+ min ago)$")
    )
    expect(live.locator(f'[data-match-id="{idle}"]')).to_have_count(0)

    toggle = page.get_by_test_id("idle-toggle")
    expect(toggle).to_have_text("Idle (1): no move for a while")
    idle_row = page.get_by_test_id("idle-matches").locator(f'[data-match-id="{idle}"]')
    expect(idle_row).to_be_hidden()  # folded away until asked for
    toggle.click()
    expect(idle_row).to_be_visible()
    expect(idle_row.get_by_test_id("match-started")).to_have_text("started 2 h ago")
    expect(idle_row.get_by_test_id("watch-match")).to_be_visible()
    toggle_box = toggle.bounding_box()
    assert toggle_box is not None and toggle_box["height"] >= 40

    open_row = page.get_by_test_id("open-matches").locator(f'[data-match-id="{lobby}"]')
    expect(open_row.get_by_test_id("match-activity")).to_have_text("active just now")
    closes = _summary(server.url, lobby)["expires_at"]
    expect(open_row.get_by_test_id("match-closes")).to_have_text(
        f"closes {_clock(page, closes)} if idle"
    )
    idle_row.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "stale-tables-lists.png"), full_page=True)


def test_the_history_lists_the_last_to_end_first_across_pages(
    open_page: Callable[..., Any], stale_server: tuple[LiveServer, Path]
) -> None:
    """Issue 14, item 12: the history says "the last to end first" and means it, past its
    first page of 20 (matches that ended in the same second page by id, none twice)."""
    server, database = stale_server
    made = [api_match(server.url, "c64-maze", ("Max", "Noa"))[0] for _ in range(23)]
    ended: dict[str, timedelta] = {}
    now = datetime.now(UTC).replace(tzinfo=None)
    with sqlite3.connect(database) as db:
        for n, match_id in enumerate(made):
            # The first made ended last; every third pair ended together.
            ago = timedelta(minutes=n - n % 3)
            ended[match_id] = ago
            moment = (now - ago).isoformat(sep=" ")
            db.execute(
                "UPDATE matches SET status = 'finished', finished_at = ? WHERE id = ?",
                (moment, match_id),
            )
    expected = sorted(made, key=lambda m: (ended[m], _desc(m)))
    with httpx.Client(base_url=server.url) as client:
        finished = client.get("/api/matches", params={"status": "finished", "limit": 1}).json()

    page = open_page()
    page.goto("/history")
    rows = page.get_by_test_id("history-row")
    expect(rows).to_have_count(20)
    page.get_by_test_id("load-more").click()
    expect(rows).to_have_count(finished["count"])
    shown = rows.evaluate_all("rows => rows.map((row) => row.dataset.matchId)")
    ours = [match_id for match_id in shown if match_id in ended]
    assert ours == expected
    assert len(shown) == len(set(shown))
    expect(page.get_by_test_id("load-more")).to_be_hidden()


def _desc(text: str) -> list[int]:
    """Sorts ids the other way round (ties: the larger id first, as the server pages)."""
    return [-ord(ch) for ch in text]
