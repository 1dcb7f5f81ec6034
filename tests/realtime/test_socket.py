"""The match WebSocket over a real socket: views, patches, acks, errors, presence, chat."""

from __future__ import annotations

import json

import httpx

from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, started_match


async def _settle(viewer: Viewer, version: int) -> None:
    while viewer.version < version:
        await viewer.recv()


async def test_two_players_and_a_spectator_each_get_only_their_own_view(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, bob.token) as b,
        Viewer(server.ws_url, match_id, None) as s,
    ):
        for viewer in (a, b, s):
            await viewer.until_type("snapshot")
        assert (a.state["you"], b.state["you"], s.state["you"]) == (0, 1, None)
        assert s.state["legal_moves"] == []

        for _round in range(12):
            mover = next(v for v in (a, b) if v.state["legal_moves"])
            acked_version = mover.version + 1
            move_id = await mover.move(mover.state["legal_moves"][0], version=mover.version)
            ack = await mover.until_type("ack")
            assert ack == {"type": "ack", "id": move_id, "version": acked_version}
            patch_index = max(i for i, f in enumerate(mover.frames) if f["type"] == "patch")
            assert mover.frames[patch_index]["version"] == acked_version, "patch before ack"
            for viewer in (a, b, s):
                await _settle(viewer, acked_version)

        # What each socket holds equals what the server says that viewer may see.
        for viewer, guest in ((a, ada), (b, bob), (s, None)):
            async with httpx.AsyncClient(base_url=server.url) as client:
                headers = guest.auth if guest else {}
                fresh = (await client.get(f"/api/matches/{match_id}", headers=headers)).json()[
                    "view"
                ]
            assert viewer.state == fresh
        # Every frame a socket received was meant for it: no other seat's legal moves.
        for viewer in (a, b, s):
            for frame in viewer.frames:
                if frame["type"] == "snapshot":
                    assert frame["state"]["you"] == viewer.state["you"]
            if viewer is s:
                assert all(
                    not (
                        f["type"] == "patch"
                        and any(
                            op["path"].startswith("/legal_moves/") and op["op"] == "add"
                            for op in f["ops"]
                        )
                    )
                    for f in s.frames
                )


async def test_bad_input_gets_an_error_and_the_socket_lives_on(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, None) as spy,
    ):
        await a.until_type("snapshot")
        await spy.until_type("snapshot")
        version = a.version

        async def error_for(viewer: Viewer, message: object) -> dict:
            await viewer.send(message if isinstance(message, str) else json.dumps(message))
            return await viewer.until_type("error")

        assert (await error_for(a, "{oops"))["code"] == "bad_request"
        assert (await error_for(a, "[1, 2]"))["code"] == "bad_request"
        unknown = await error_for(a, {"type": "dance"})
        assert unknown["code"] == "bad_request" and "dance" in unknown["message"]
        schema = await error_for(a, {"type": "move", "id": "x1", "move": {"type": "fly"}})
        assert schema["code"] == "bad_request" and schema["id"] == "x1"
        no_id = await error_for(a, {"type": "move", "move": {"type": "fly"}})
        assert no_id["code"] == "bad_request"
        huge = await error_for(a, {"type": "chat", "text": "x" * 70_000})
        assert huge["code"] == "too_large"
        spectator = await error_for(
            spy, {"type": "move", "id": "s1", "move": a.state["legal_moves"][0]}
        )
        assert spectator["code"] == "forbidden"
        again = await error_for(a, {"type": "hello"})
        assert again["code"] == "bad_request"

        # Still alive, and nothing changed.
        await a.send({"type": "sync"})
        snapshot = await a.until_type("snapshot")
        assert snapshot["version"] == version


async def test_out_of_turn_and_wrong_token(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with (
        Viewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, bob.token) as b,
    ):
        await a.until_type("snapshot")
        await b.until_type("snapshot")
        # play until exactly one seat may move, then let the other try
        while len(a.state["active_seats"]) != 1:
            mover = a if a.state["legal_moves"] else b
            await mover.move(mover.state["legal_moves"][0])
            await mover.until_type("ack")
            for v in (a, b):
                await _settle(v, mover.version)
        turn = a.state["active_seats"][0]
        mover, idle = (a, b) if turn == 0 else (b, a)
        await idle.move(mover.state["legal_moves"][0], move_id="late")
        refused = await idle.until_type("error")
        assert refused["code"] == "not_your_turn" and refused["id"] == "late"
        assert refused["message"] == "It is not your turn."

    forged = Viewer(server.ws_url, match_id, "forged-token")
    async with forged:
        error = await forged.until_type("error")
        assert error["code"] == "unauthorized"
        await forged.send({"type": "hello"})  # may retry as a spectator
        snapshot = await forged.until_type("snapshot")
        assert snapshot["state"]["you"] is None


async def test_lobby_updates_then_snapshot_on_start(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match = (await ada.post("/api/matches", {"game": "c64-maze", "seats": 2})).json()
        async with Viewer(server.ws_url, match["id"], ada.token) as a:
            first = await a.until_type("lobby")
            assert first["match"]["seats"][1]["player_id"] is None
            await bob.post(f"/api/matches/{match['id']}/join")
            update = await a.until(
                lambda f: f["type"] == "lobby" and f["match"]["seats"][1]["player_id"]
            )
            assert update["match"]["seats"][1]["name"] == "Bob"
            await ada.post(f"/api/matches/{match['id']}/start")
            snapshot = await a.until_type("snapshot")
            assert snapshot["version"] == 0 and snapshot["state"]["status"] == "active"


async def test_presence_and_chat(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with Viewer(server.ws_url, match_id, ada.token) as a:
        await a.until_type("snapshot")
        async with Viewer(server.ws_url, match_id, bob.token) as b:
            online = await a.until(lambda f: f["type"] == "presence" and f["seats"][1]["online"])
            assert online["seats"][0]["online"] is True
            await b.send({"type": "chat", "text": "  good luck!  "})
            chat = await a.until_type("chat")
            assert chat["text"] == "good luck!" and chat["name"] == "Bob" and chat["seat"] == 1
        gone = await a.until(lambda f: f["type"] == "presence" and not f["seats"][1]["online"])
        assert gone["spectators"] == 0
    # chat is kept: a player coming back gets the players' history (a watcher does not:
    # tests/realtime/test_chat_channels.py)
    async with Viewer(server.ws_url, match_id, ada.token) as again:
        history = await again.until_type("chat")
        assert history["text"] == "good luck!" and history["channel"] == "players"


async def test_sync_after_a_gap_and_idempotent_move_ids(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
        async with Viewer(server.ws_url, match_id, ada.token) as a:
            await a.until_type("snapshot")
            move = a.state["legal_moves"][0]
            await a.move(move, move_id="same")
            first = await a.until_type("ack")
            await a.move(move, move_id="same")
            second = await a.until_type("ack")
            assert first == second
            # Another seat moves over HTTP; the socket then asks for a snapshot.
            view = (await bob.get(f"/api/matches/{match_id}")).json()["view"]
            if view["legal_moves"]:
                await bob.post(f"/api/matches/{match_id}/moves", {"move": view["legal_moves"][0]})
            await a.send({"type": "sync"})
            snapshot = await a.until_type("snapshot")
            fresh = (await ada.get(f"/api/matches/{match_id}")).json()
            assert snapshot["version"] == fresh["version"]
            assert snapshot["state"] == fresh["view"]


async def test_unknown_match_is_refused(server: LiveServer) -> None:
    async with Viewer(server.ws_url, "nope", None) as v:
        error = await v.until_type("error")
        assert error["code"] == "not_found"
