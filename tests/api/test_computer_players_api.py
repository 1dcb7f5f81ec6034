"""Computer players at the table and absent friends, over HTTP and the WebSocket (issue 15,
parts 2 and 3): the host seats and removes computers; they move through the ordinary path
and the log says so; a rematch keeps them; an absent friend's seat is taken over by a
computer at the others' word and given back when she returns; two players may claim the win
against an absent opponent; a computer's turn survives a restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import LiveServer
from tests.helpers import Guest, Viewer, guests, update_match_row

QUICK = {"bot_think_seconds": 0.0, "bot_time_budget": 0.2, "bot_sweep_seconds": 0.5}
ABSENCE = {**QUICK, "away_after_seconds": 1, "claim_win_after_seconds": 1}


@pytest.fixture
def quick_server(database_url: str) -> Iterator[LiveServer]:
    live = LiveServer(database_url, **ABSENCE).start()
    try:
        yield live
    finally:
        live.stop()


async def _lobby(host: Guest, game: str, seats: int) -> dict[str, Any]:
    made = await host.post("/api/matches", {"game": game, "seats": seats})
    assert made.status_code == 201, made.text
    return made.json()


async def _bots(host: Guest, match_id: str, body: dict[str, Any]) -> httpx.Response:
    return await host.post(f"/api/matches/{match_id}/bots", body)


async def test_the_host_seats_and_removes_computer_players(quick_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=30) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        lobby = await _lobby(ada, "c64-maze", 3)
        match_id = lobby["id"]
        assert [s["bot"] for s in lobby["seats"]] == [None, None, None]

        refused = await _bots(bob, match_id, {"level": "easy"})
        assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
        bad = await _bots(ada, match_id, {"level": "grandmaster"})
        assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
        taken = await _bots(ada, match_id, {"level": "easy", "seat": 0})
        assert taken.status_code == 409 and "taken" in taken.json()["message"]

        added = await _bots(ada, match_id, {"level": "normal", "seat": 2})
        assert added.status_code == 200, added.text
        seat = added.json()["seats"][2]
        assert seat["bot"] == "normal" and seat["name"] == "Computer (normal)"
        first_free = (await _bots(ada, match_id, {"level": "easy"})).json()
        assert [s["bot"] for s in first_free["seats"]] == [None, "easy", "normal"]
        full = await _bots(ada, match_id, {"level": "easy"})
        assert full.status_code == 409 and full.json()["message"] == "This match is full."

        not_a_bot = await client.delete(f"/api/matches/{match_id}/bots/0", headers=ada.auth)
        assert not_a_bot.status_code == 400
        by_guest = await client.delete(f"/api/matches/{match_id}/bots/1", headers=bob.auth)
        assert by_guest.status_code == 403
        removed = await client.delete(f"/api/matches/{match_id}/bots/1", headers=ada.auth)
        assert removed.status_code == 200, removed.text
        assert [s["bot"] for s in removed.json()["seats"]] == [None, None, "normal"]
        listed = (await client.get("/api/matches", params={"status": "open"})).json()
        assert [s["bot"] for s in listed["matches"][0]["seats"]] == [None, None, "normal"]


async def test_one_person_plays_against_a_computer_whose_moves_are_logged_as_such(
    quick_server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=30) as client:
        (ada,) = await guests(client, "Ada")
        match_id = (await _lobby(ada, "tactrics-crossing", 2))["id"]
        await _bots(ada, match_id, {"level": "easy"})
        started = await ada.post(f"/api/matches/{match_id}/start")
        assert started.status_code == 200, started.text
        assert started.json()["view"]["seats"][1]["bot"] == "easy"
        chooser = random.Random(15)
        async with Viewer(quick_server.ws_url, match_id, ada.token) as me:
            await me.until_type("snapshot")
            for _ in range(12):  # a few turns each way
                while not me.state["legal_moves"] and me.state["status"] == "active":
                    await me.recv(30)
                if me.state["status"] != "active":
                    break
                forward = [m for m in me.state["legal_moves"] if m["type"] != "undo"]
                await me.move(chooser.choice(forward), version=me.version)
                await me.until_type("ack", 30)
        log = (await client.get(f"/api/matches/{match_id}/log")).json()["moves"]
    assert {m["seat"] for m in log if m["bot"]} == {1}
    assert {m["seat"] for m in log if not m["bot"]} == {0}
    assert len([m for m in log if m["bot"]]) >= 3


async def test_a_rematch_keeps_the_computer_players_and_the_turn_timer(
    quick_server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=30) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = (await _lobby(ada, "c64-maze", 3))["id"]
        await bob.post(f"/api/matches/{match_id}/join", {})
        await _bots(ada, match_id, {"level": "easy"})
        timer = await client.patch(
            f"/api/matches/{match_id}", json={"turn_timer": 45}, headers=ada.auth
        )
        assert timer.status_code == 400 and "30, 60" in timer.json()["message"]
        timer = await client.patch(
            f"/api/matches/{match_id}", json={"turn_timer": 120}, headers=ada.auth
        )
        assert timer.json()["turn_timer"] == 120
        await ada.post(f"/api/matches/{match_id}/start")
        await update_match_row(
            quick_server.database_url,
            match_id,
            status="finished",
            outcome={"winners": [0], "reason": "test", "scores": None, "details": {}},
        )
        again = (await bob.post(f"/api/matches/{match_id}/rematch")).json()
    assert [s["bot"] for s in again["seats"]].count("easy") == 1
    assert again["turn_timer"] == 120


async def _until_away(client: httpx.AsyncClient, match_id: str, seat: int) -> dict[str, Any]:
    for _ in range(200):
        summary = (await client.get(f"/api/matches/{match_id}")).json()
        if summary["seats"][seat]["away_since"]:
            return summary
        await asyncio.sleep(0.05)
    raise AssertionError("the seat never became away")


async def test_an_absent_friend_gets_a_stand_in_and_her_seat_back(
    quick_server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=30) as client:
        ada, bob, cyd = await guests(client, "Ada", "Bob", "Cyd")
        match_id = (await _lobby(ada, "c64-maze", 3))["id"]
        for guest in (bob, cyd):
            await guest.post(f"/api/matches/{match_id}/join", {})
        await ada.post(f"/api/matches/{match_id}/start")
        ws = quick_server.ws_url
        async with Viewer(ws, match_id, ada.token) as a, Viewer(ws, match_id, bob.token) as b:
            await a.until_type("snapshot")
            await b.until_type("snapshot")
            async with Viewer(ws, match_id, cyd.token) as c:
                await c.until_type("snapshot")
                here = await ada.post(f"/api/matches/{match_id}/seats/2/stand-in", {})
                assert here.status_code == 409 and here.json()["code"] == "not_away"
            # Cyd closed her tab; C64 set-up asks every seat at once, so it is her turn.
            await _until_away(client, match_id, 2)
            mine = await cyd.post(f"/api/matches/{match_id}/seats/2/stand-in", {})
            assert mine.status_code == 400
            taken = await ada.post(f"/api/matches/{match_id}/seats/2/stand-in", {})
            assert taken.status_code == 200, taken.text
            assert taken.json()["seats"][2]["stand_in"] == "normal"
            told = await b.until_type("seat_change", 10)
            assert told["change"] == "stand_in" and told["text"] == (
                "Ada let the computer play for Cyd until she is back."
            )
            # The computer makes Cyd's set-up move.
            await a.until(lambda _f: 2 not in (a.state or {}).get("active_seats", [2]), 30)
            async with Viewer(ws, match_id, cyd.token) as c:
                welcome = await c.until_type("welcome_back", 10)
                assert welcome["seat"] == 2 and welcome["moves"] >= 1
                assert "the computer made" in welcome["text"]
                back = await a.until_type("seat_change", 10)
                assert back["change"] == "returned" and "Cyd is back" in back["text"]
                summary = (await client.get(f"/api/matches/{match_id}")).json()
                assert summary["seats"][2]["stand_in"] is None
                assert summary["seats"][2]["away_since"] is None
        log = (await client.get(f"/api/matches/{match_id}/log")).json()
        assert any(m["bot"] and m["seat"] == 2 for m in log["moves"])
        assert [(c["seat"], c["change"], c["by"]) for c in log["seat_changes"]] == [
            (2, "stand_in", "Ada"),
            (2, "returned", None),
        ]


async def test_two_players_may_claim_the_win_when_the_other_stays_away(
    quick_server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=30) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = (await _lobby(ada, "c64-maze", 2))["id"]
        await bob.post(f"/api/matches/{match_id}/join", {})
        await ada.post(f"/api/matches/{match_id}/start")
        async with Viewer(quick_server.ws_url, match_id, ada.token) as a:
            await a.until_type("snapshot")
            async with Viewer(quick_server.ws_url, match_id, bob.token) as b:
                await b.until_type("snapshot")
                early = await ada.post(f"/api/matches/{match_id}/claim-win", {})
                assert early.status_code == 409 and early.json()["code"] == "not_away"
            await _until_away(client, match_id, 1)
            for _ in range(100):
                claimed = await ada.post(f"/api/matches/{match_id}/claim-win", {})
                if claimed.json().get("code") != "too_soon":
                    break
                await asyncio.sleep(0.1)
            assert claimed.status_code == 200, claimed.text
            outcome = claimed.json()["outcome"]
            assert outcome["winners"] == [0] and outcome["reason"] == "claimed"
            assert outcome["details"] == {"claimed": True, "away": 1}
            told = await a.until_type("seat_change", 10)
            assert told["change"] == "claimed"
            ended = await a.until(lambda _f: (a.state or {}).get("status") == "finished", 10)
            assert ended is not None and a.state["outcome"]["reason"] == "claimed"
        record = (await client.get(f"/api/matches/{match_id}/replay")).json()
        verdict = (await client.post("/api/replays/verify", json=record)).json()
    assert verdict["ok"] is True, verdict


async def test_a_computer_takes_its_turn_after_a_restart(database_url: str) -> None:
    slow = LiveServer(database_url, **{**QUICK, "bot_think_seconds": 3600}).start()
    try:
        async with httpx.AsyncClient(base_url=slow.url, timeout=30) as client:
            (ada,) = await guests(client, "Ada")
            match_id = (await _lobby(ada, "c64-maze", 2))["id"]
            await _bots(ada, match_id, {"level": "easy"})
            await ada.post(f"/api/matches/{match_id}/start")
    finally:
        slow.stop()
    fresh = LiveServer(database_url, **QUICK).start()
    try:
        async with httpx.AsyncClient(base_url=fresh.url, timeout=30) as client:
            for _ in range(300):
                log = (await client.get(f"/api/matches/{match_id}/log")).json()["moves"]
                if any(m["bot"] for m in log):
                    break
                await asyncio.sleep(0.1)
    finally:
        fresh.stop()
    assert [m["seat"] for m in log if m["bot"]][:1] == [1]
