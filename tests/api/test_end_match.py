"""A player may end a match being played, for everyone: it is marked abandoned, keeps its moves,
takes no more, leaves the lists of games in progress, and stays ended after a restart."""

from __future__ import annotations

import httpx

from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, started_match


async def test_a_player_ends_the_match_for_everyone(database_url: str) -> None:
    first = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=first.url) as client:
            ada, bob, eve = await guests(client, "Ada", "Bob", "Eve")
            match_id = await started_match(client, [ada, bob])
            url = f"/api/matches/{match_id}"
            async with Viewer(first.ws_url, match_id, bob.token) as b:
                await b.until_type("snapshot")
                mover = ada if (await ada.get(url)).json()["view"]["legal_moves"] else bob
                move = (await mover.get(url)).json()["view"]["legal_moves"][0]

                stranger = await eve.post(f"{url}/end")
                assert stranger.status_code == 403 and stranger.json()["code"] == "forbidden"

                ended = await ada.post(f"{url}/end")
                assert ended.status_code == 200 and ended.json()["status"] == "abandoned"
                told = await b.until(lambda m: m["type"] == "lobby")
                assert told["ended_by"] == "Ada" and told["match"]["status"] == "abandoned"

                refused = await mover.post(f"{url}/moves", {"move": move})
                assert refused.status_code == 409
                assert refused.json()["code"] == "match_not_active"
                assert "ended" in refused.json()["message"]
                await b.send({"type": "move", "id": "late", "move": move})
                error = await b.until_type("error")
                assert error["code"] in {"match_not_active", "forbidden", "not_your_turn"}

            again = await bob.post(f"{url}/end")
            assert again.status_code == 409
            mine = (await ada.get("/api/matches?status=active&mine=true")).json()["matches"]
            assert match_id not in [m["id"] for m in mine]
            summary = (await bob.get(url)).json()
            assert summary["status"] == "abandoned" and summary["finished_at"] is not None
            assert summary["ended_by"] == "Ada"
            assert summary["view"]["status"] == "abandoned"
            assert summary["view"]["legal_moves"] == [] and summary["view"]["active_seats"] == []

            # Someone opening the page later sees the last position and why play stopped.
            async with Viewer(first.ws_url, match_id, ada.token) as a:
                snapshot = await a.until_type("snapshot")
                assert snapshot["state"]["status"] == "abandoned"
                lobby = await a.until_type("lobby")
                assert lobby["match"]["status"] == "abandoned"
    finally:
        first.stop()

    second = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=second.url) as client:
            mover.client = client
            after = await mover.post(f"{url}/moves", {"move": move})
            assert after.status_code == 409 and after.json()["code"] == "match_not_active"
    finally:
        second.stop()


async def test_an_open_lobby_is_left_not_ended(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        (ada,) = await guests(client, "Ada")
        lobby = (await ada.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
        refused = await ada.post(f"/api/matches/{lobby['id']}/end")
        assert refused.status_code == 409
        assert "leave" in refused.json()["message"]

        left = await ada.post(f"/api/matches/{lobby['id']}/leave")
        assert left.json()["status"] == "abandoned"
        # A lobby abandoned before it started has no game to load: its page gets the summary.
        async with Viewer(server.ws_url, lobby["id"], ada.token) as a:
            told = await a.until_type("lobby")
            assert told["match"]["status"] == "abandoned"
            await a.send({"type": "sync"})
            again = await a.until_type("lobby")
            assert again["match"]["status"] == "abandoned"


async def test_another_process_holding_the_match_refuses_moves_after_the_end(
    database_url: str,
) -> None:
    """Two app processes on one database and no shared hub: the second one cached the match
    before the first ended it, and must not take a move for it over HTTP."""
    first, second = LiveServer(database_url).start(), LiveServer(database_url).start()
    try:
        async with (
            httpx.AsyncClient(base_url=first.url) as one,
            httpx.AsyncClient(base_url=second.url) as two,
        ):
            ada, bob = await guests(one, "Ada", "Bob")
            match_id = await started_match(one, [ada, bob])
            url = f"/api/matches/{match_id}"
            for guest in (ada, bob):
                guest.client = two
            views = {g.id: (await g.get(url)).json()["view"] for g in (ada, bob)}  # cached there
            mover = ada if views[ada.id]["legal_moves"] else bob
            for guest in (ada, bob):
                guest.client = one
            assert (await ada.post(f"{url}/end")).status_code == 200
            mover.client = two
            refused = await mover.post(f"{url}/moves", {"move": views[mover.id]["legal_moves"][0]})
            assert refused.status_code == 409 and refused.json()["code"] == "match_not_active"
    finally:
        first.stop()
        second.stop()
