"""Pace (issue 18, item 1): a lobby is live or turn-based, with a time per move of an hour to a
week. A turn-based player is never away for having closed her tab; once her time runs out the
other player may let a computer move for her or claim the win. The pace holds over a restart
(it is the match's turn timer, in the database)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import update

from app.db.models import Move
from app.db.session import make_engine
from tests.conftest import LiveServer
from tests.helpers import Guest, guests, move_until_not_her_turn, update_match_row

HOUR = 3600


async def _lobby(host: Guest) -> str:
    created = await host.post("/api/matches", {"game": "c64-maze", "seats": 2})
    assert created.status_code == 201, created.text
    match_id: str = created.json()["id"]
    return match_id


async def _patch(host: Guest, match_id: str, body: dict[str, object]) -> httpx.Response:
    return await host.client.patch(f"/api/matches/{match_id}", json=body, headers=host.auth)


async def _start(host: Guest, guest: Guest, match_id: str) -> None:
    assert (await guest.post(f"/api/matches/{match_id}/join", {})).status_code == 200
    assert (await host.post(f"/api/matches/{match_id}/start")).status_code == 200


async def test_the_pace_is_chosen_in_the_lobby_and_checked(database_url: str) -> None:
    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            (ada,) = await guests(client, "Ada")
            match_id = await _lobby(ada)
            fresh = (await ada.get(f"/api/matches/{match_id}")).json()
            assert fresh["pace"] == "live" and fresh["turn_timer"] is None

            chosen = await _patch(ada, match_id, {"pace": "turn-based"})
            assert chosen.status_code == 200, chosen.text
            assert chosen.json()["pace"] == "turn-based" and chosen.json()["turn_timer"] == 86400
            week = await _patch(ada, match_id, {"turn_timer": 7 * 24 * HOUR})
            assert week.json()["pace"] == "turn-based" and week.json()["turn_timer"] == 604800

            for body in (
                {"pace": "turn-based", "turn_timer": 60},
                {"pace": "live", "turn_timer": HOUR},
                {"turn_timer": 2 * HOUR},
            ):
                refused = await _patch(ada, match_id, body)
                assert refused.status_code == 400, (body, refused.text)
                assert refused.json()["code"] == "bad_request"
            odd = await _patch(ada, match_id, {"pace": "slow"})
            assert odd.status_code == 400 and odd.json()["code"] == "bad_request"
            unchanged = (await ada.get(f"/api/matches/{match_id}")).json()
            assert unchanged["turn_timer"] == 604800

            back = await _patch(ada, match_id, {"pace": "live"})
            assert back.json()["pace"] == "live" and back.json()["turn_timer"] is None
            timed = await _patch(ada, match_id, {"pace": "live", "turn_timer": 120})
            assert timed.json()["pace"] == "live" and timed.json()["turn_timer"] == 120
    finally:
        server.stop()


async def _away(guest: Guest, match_id: str) -> list[object]:
    summary = (await guest.get(f"/api/matches/{match_id}")).json()
    return [seat["away_since"] for seat in summary["seats"]]


async def test_turn_based_players_are_not_away_and_running_out_lets_the_other_claim(
    database_url: str,
) -> None:
    first = LiveServer(database_url, away_after_seconds=1, claim_win_after_seconds=1).start()
    try:
        async with httpx.AsyncClient(base_url=first.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            live_id, slow_id = await _lobby(ada), await _lobby(ada)
            assert (
                await _patch(ada, slow_id, {"pace": "turn-based", "turn_timer": HOUR})
            ).status_code == 200
            for match_id in (live_id, slow_id):
                await _start(ada, bob, match_id)
            # Nobody has a socket open: in the live match both are away after a second.
            for _ in range(200):
                if all(await _away(ada, live_id)):
                    break
                await asyncio.sleep(0.05)
            assert all(await _away(ada, live_id))
            assert await _away(ada, slow_id) == [None, None]

            await move_until_not_her_turn(ada, slow_id)
            early = await ada.post(f"/api/matches/{slow_id}/claim-win")
            assert early.status_code == 409 and early.json()["code"] == "too_soon"
            assert "time per move" in early.json()["message"]
            stand_in = await ada.post(f"/api/matches/{slow_id}/seats/1/stand-in", {})
            assert stand_in.status_code == 409, stand_in.text
    finally:
        first.stop()

    # Bob's hour passes: the moves (and the start) happened two hours ago. A server started
    # afresh starts each turn clock at its last move.
    two_hours_ago = datetime.now(UTC) - timedelta(hours=2)
    await update_match_row(database_url, slow_id, started_at=two_hours_ago)
    engine = make_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                update(Move).where(Move.match_id == slow_id).values(created_at=two_hours_ago)
            )
    finally:
        await engine.dispose()
    again = LiveServer(database_url, away_after_seconds=1, claim_win_after_seconds=1).start()
    try:
        async with httpx.AsyncClient(base_url=again.url) as client:
            ada.client = bob.client = client
            summary = (await ada.get(f"/api/matches/{slow_id}")).json()
            assert summary["pace"] == "turn-based" and summary["turn_timer"] == HOUR
            assert summary["view"]["turn_deadline"] < datetime.now(UTC).timestamp() * 1000
            claimed = await ada.post(f"/api/matches/{slow_id}/claim-win")
            assert claimed.status_code == 200, claimed.text
            outcome = claimed.json()["outcome"]
            assert outcome["winners"] == [0] and outcome["details"]["claimed"] is True
            log = (await ada.get(f"/api/matches/{slow_id}/log")).json()
            assert (
                log["seat_changes"][-1]["text"]
                == "Ada claimed the win: the other player ran out of time."
            )
    finally:
        again.stop()
