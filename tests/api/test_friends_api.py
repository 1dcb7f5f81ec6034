"""Friends you play with (issue 18, item 5): the people you shared a table with recently,
computers and lessons left out; "Play again with them" opens a lobby with them invited, which
they find among their invitations until they join or decline. Nobody else can be invited."""

from __future__ import annotations

import httpx

from tests.conftest import LiveServer
from tests.helpers import Guest, guests, started_match


async def _friends(guest: Guest) -> list[str]:
    answer = await guest.get("/api/players/me/friends")
    assert answer.status_code == 200, answer.text
    return [f["name"] for f in answer.json()["friends"]]


async def _invited(guest: Guest) -> list[tuple[str, str]]:
    answer = await guest.get("/api/players/me/invitations")
    assert answer.status_code == 200, answer.text
    return [(i["match_id"], i["host"]) for i in answer.json()["invitations"]]


async def _open_lobbies(guest: Guest) -> int:
    listed = await guest.get("/api/matches?mine=true&status=open")
    count: int = listed.json()["count"]
    return count


async def test_play_again_with_the_friends_you_played_with(database_url: str) -> None:
    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob, cy, dee = await guests(client, "Ada", "Bob", "Cy", "Dee")
            await started_match(client, [ada, bob])
            await started_match(client, [cy, ada])
            alone = (await ada.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
            bot = await ada.post(f"/api/matches/{alone['id']}/bots", {"level": "easy"})
            assert bot.status_code == 200, bot.text
            assert (await ada.post(f"/api/matches/{alone['id']}/start")).status_code == 200

            assert await _friends(ada) == ["Cy", "Bob"]  # the latest table first; no computer
            listed = (await ada.get("/api/players/me/friends")).json()["friends"]
            assert listed[0]["last_game_name"] == "C64 Maze" and listed[0]["matches"] == 1
            assert await _friends(dee) == []

            before = await _open_lobbies(ada)
            stranger = await ada.post(
                "/api/matches", {"game": "c64-maze", "seats": 3, "invite": [bob.id, dee.id]}
            )
            assert stranger.status_code == 400 and stranger.json()["code"] == "bad_request"
            assert "played with" in stranger.json()["message"]
            too_many = await ada.post(
                "/api/matches", {"game": "c64-maze", "seats": 2, "invite": [bob.id] * 8}
            )
            assert too_many.status_code == 400
            assert await _open_lobbies(ada) == before, "a refused invitation opens no lobby"

            again = await ada.post(
                "/api/matches", {"game": "c64-maze", "seats": 3, "invite": [bob.id, cy.id]}
            )
            assert again.status_code == 201, again.text
            lobby_id = again.json()["id"]
            assert await _invited(bob) == [(lobby_id, "Ada")]
            assert await _invited(cy) == [(lobby_id, "Ada")]
            assert await _invited(dee) == []

            assert (await bob.post(f"/api/matches/{lobby_id}/join", {})).status_code == 200
            assert await _invited(bob) == []  # she is at the table now
            declined = await cy.client.delete(
                f"/api/players/me/invitations/{lobby_id}", headers=cy.auth
            )
            assert declined.status_code == 204
            assert await _invited(cy) == []
            assert (await client.get("/api/players/me/invitations")).status_code == 401
    finally:
        server.stop()
