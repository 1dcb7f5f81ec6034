"""Two chat channels per match (issue 14, item 8): the players talk among themselves in the
players' channel and read the watchers' one; watchers write and read only theirs, under a
name of their own. The server enforces it whatever a client sends."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, started_match


def chats(viewer: Viewer) -> list[dict[str, Any]]:
    return [f for f in viewer.frames if f["type"] == "chat"]


async def said(viewer: Viewer, text: str) -> dict[str, Any]:
    return await viewer.until(lambda f: f["type"] == "chat" and f["text"] == text)


async def test_players_read_both_channels_and_watchers_only_theirs(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, wes = await guests(client, "Ada", "Bob", "Wes")
        match_id = await started_match(client, [ada, bob])
    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, bob.token) as b,
        Viewer(server.ws_url, match_id, wes.token) as w,
    ):
        for viewer in (a, b, w):
            await viewer.until_type("snapshot")
        # an old client sends no channel: a player's message goes to the players
        await a.send({"type": "chat", "text": "their bishop is loose"})
        table = await said(b, "their bishop is loose")
        assert table["channel"] == "players" and table["name"] == "Ada" and table["seat"] == 0

        await w.send({"type": "chat", "text": "nice opening", "channel": "watchers"})
        for viewer in (a, b, w):
            heard = await said(viewer, "nice opening")
            assert heard["channel"] == "watchers" and heard["name"] == "Wes"
            assert heard["seat"] is None
        # Wes's own echo came after Ada's message went out: he would have it by now.
        assert all(f["channel"] == "watchers" for f in chats(w)), chats(w)

    # the history a socket gets on connecting is the channels it may read
    async with Viewer(server.ws_url, match_id, wes.token) as w2:
        await said(w2, "nice opening")
        await w2.send({"type": "chat", "text": "back again"})
        await said(w2, "back again")
        assert [f["text"] for f in chats(w2)] == ["nice opening", "back again"]
    async with Viewer(server.ws_url, match_id, bob.token) as b2:
        await said(b2, "back again")
        assert [(f["channel"], f["text"]) for f in chats(b2)] == [
            ("players", "their bishop is loose"),
            ("watchers", "nice opening"),
            ("watchers", "back again"),
        ]


async def test_a_watcher_cannot_write_in_the_players_channel(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, wes = await guests(client, "Ada", "Bob", "Wes")
        match_id = await started_match(client, [ada, bob])
    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, wes.token) as w,
    ):
        await a.until_type("snapshot")
        await w.until_type("snapshot")
        await w.send(
            {"type": "chat", "text": "psst, move the rook", "channel": "players", "id": "c1"}
        )
        refused = await w.until_type("error")
        assert refused["code"] == "forbidden" and refused["id"] == "c1"
        assert "players' channel" in refused["message"]
        # a player may read the watchers' channel but not write in it
        await a.send({"type": "chat", "text": "hi watchers", "channel": "watchers", "id": "c2"})
        refused = await a.until_type("error")
        assert refused["code"] == "forbidden" and refused["id"] == "c2"
        await a.send({"type": "chat", "text": "x", "channel": "everyone", "id": "c3"})
        assert (await a.until_type("error"))["code"] == "bad_request"
        # neither message went anywhere: the next one Ada reads is Wes's own
        await w.send({"type": "chat", "text": "fine, I'll watch"})
        await said(a, "fine, I'll watch")
        assert [f["text"] for f in chats(a)] == ["fine, I'll watch"]


async def test_a_watcher_without_a_name_is_asked_for_one(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with (
        Viewer(server.ws_url, match_id, None) as s,
        Viewer(server.ws_url, match_id, ada.token) as a,
    ):
        await s.until_type("snapshot")
        await a.until_type("snapshot")
        for message in (
            {"type": "chat", "text": "hello from nobody", "id": "n1"},
            {"type": "chat", "text": "hello from nobody", "id": "n2", "channel": "watchers"},
        ):
            await s.send(message)
            refused = await s.until_type("error")
            assert refused["code"] == "name_required" and refused["id"] == message["id"]
            assert refused["message"] == "Choose a name before you chat with the other watchers."
        await a.send({"type": "chat", "text": "only named guests"})
        await said(a, "only named guests")
        assert not any("nobody" in f["text"] for f in chats(a))
        assert not any(f["name"] == "Spectator" for f in chats(a))


async def test_a_watcher_who_takes_a_seat_reads_the_players_channel(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match = (await ada.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
        async with (
            Viewer(server.ws_url, match["id"], ada.token) as a,
            Viewer(server.ws_url, match["id"], bob.token) as b,
        ):
            await a.until_type("lobby")
            await b.until_type("lobby")
            await a.send({"type": "chat", "text": "waiting for a second player"})
            await said(a, "waiting for a second player")
            await b.send({"type": "chat", "text": "can I join?"})
            assert (await said(b, "can I join?"))["channel"] == "watchers"
            assert [f["text"] for f in chats(b)] == ["can I join?"]

            await bob.post(f"/api/matches/{match['id']}/join", {})
            # seated now: the players' recent talk, then the players' channel as it goes
            joined = await said(b, "waiting for a second player")
            assert joined["channel"] == "players"
            await b.send({"type": "chat", "text": "I'm in"})
            assert (await said(a, "I'm in"))["channel"] == "players"
