"""Replays, export and verification, fair dice, private matches and rematch (issue 4)."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest

from app.engine.fairness import dice_seed
from app.services.replays import verify_record
from tests.conftest import LiveServer, drop_postgres_database, fresh_postgres_database
from tests.helpers import ROOMY_VERIFY, Viewer, finished_match_in_db, guests, started_match


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def finished(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """One match played to its end, shared by the read-only tests of this module (a random
    C64 Maze game takes a couple of thousand moves)."""
    name = None
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('replays') / 'arcade.db'}"
    else:
        url, name = fresh_postgres_database()
    done = asyncio.run(finished_match_in_db(url))
    server = LiveServer(url, **ROOMY_VERIFY).start()
    try:
        yield {**done, "url": server.url, "ws_url": server.ws_url}
    finally:
        server.stop()
        if name:
            drop_postgres_database(name)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_finished_match_replays_move_by_move_and_verifies(finished: dict[str, Any]) -> None:
    done = finished
    async with httpx.AsyncClient(base_url=done["url"]) as client:
        frames = (await client.get(f"/api/matches/{done['id']}/replay/frames")).json()
        record = (await client.get(f"/api/matches/{done['id']}/replay")).json()
        summary = (await client.get(f"/api/matches/{done['id']}")).json()
        verdict = (await client.post("/api/replays/verify", json=record)).json()
        page = await client.get(f"/replay/{done['id']}")
    assert page.status_code == 200
    assert frames["status"] == "finished" and len(frames["frames"]) == done["version"]
    state = frames["initial"]
    assert state["version"] == 0 and state["you"] is None
    for frame in frames["frames"]:
        state = jsonpatch.apply_patch(state, frame["ops"])
        assert state["version"] == frame["seq"]
    assert state["board"] == summary["view"]["board"]
    assert state["outcome"] == summary["outcome"]
    assert verdict == {
        "ok": True,
        "checked_moves": done["version"],
        "problem": None,
        "hosted": True,
    }
    # The dice came from the server seed and both nonces together.
    assert record["nonces"] == ["a1" * 32, "b2" * 32]
    assert hashlib.sha256(record["server_seed"].encode()).hexdigest() == record["seed_commitment"]
    assert dice_seed(record["server_seed"], record["nonces"]) != dice_seed(
        record["server_seed"], []
    )


async def test_a_private_finished_match_exports_only_to_players_and_invited(
    finished: dict[str, Any],
) -> None:
    host = _auth(finished["tokens"][0])
    url = f"/api/matches/{finished['id']}"
    async with httpx.AsyncClient(base_url=finished["url"]) as client:
        made_private = (await client.patch(url, json={"private": True}, headers=host)).json()
        try:
            token = made_private["watch_token"]
            stranger = await client.get(f"{url}/replay")
            assert stranger.status_code == 403
            assert stranger.json()["code"] == "forbidden"
            assert "moves" not in stranger.json() and "server_seed" not in stranger.json()
            guest = await client.get(f"{url}/replay", headers=_auth(finished["tokens"][1]))
            assert guest.status_code == 200 and guest.json()["moves"]
            invited = await client.get(f"{url}/replay", params={"watch": token})
            assert invited.status_code == 200 and verify_record(invited.json()).ok
        finally:
            await client.patch(url, json={"private": False}, headers=host)


async def test_tampering_with_a_record_is_detected(finished: dict[str, Any]) -> None:
    async with httpx.AsyncClient(base_url=finished["url"]) as client:
        record = (await client.get(f"/api/matches/{finished['id']}/replay")).json()
    assert verify_record(record).ok

    changed_event = copy.deepcopy(record)
    changed_event["moves"][5]["events"][0]["text"] = "Red wins."
    verdict = verify_record(changed_event)
    assert not verdict.ok and verdict.checked_moves == 5 and "Move 6" in verdict.problem

    changed_nonce = copy.deepcopy(record)  # a different die source: the shuffled grids differ
    changed_nonce["nonces"][1] = "c3" * 32
    verdict = verify_record(changed_nonce)
    assert not verdict.ok and verdict.checked_moves == 0

    changed_seed = copy.deepcopy(record)
    changed_seed["server_seed"] = "0" * 64
    assert "commitment" in verify_record(changed_seed).problem

    changed_outcome = copy.deepcopy(record)
    changed_outcome["outcome"]["winners"] = [1 - record["outcome"]["winners"][0]]
    assert "outcome" in verify_record(changed_outcome).problem

    dropped = copy.deepcopy(record)
    del dropped["moves"][3]
    assert "Move 4" in verify_record(dropped).problem


async def test_arcade_verify_command(finished: dict[str, Any], tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=finished["url"]) as client:
        record = (await client.get(f"/api/matches/{finished['id']}/replay")).json()
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    record["moves"][0]["state_hash"] = "0" * 64
    bad.write_text(json.dumps(record))
    ok = subprocess.run(
        [sys.executable, "-m", "app.cli", "verify", str(good)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and ok.stdout.startswith("ok:"), ok.stdout + ok.stderr
    failed = subprocess.run(
        [sys.executable, "-m", "app.cli", "verify", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 1 and "Move 1: the state after it differs" in failed.stdout


async def test_commitment_is_public_from_the_lobby_and_nonces_are_checked(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        bad = await ada.post("/api/matches", {"game": "c64-maze", "nonce": "not hex"})
        assert bad.status_code == 400 and "nonce" in bad.json()["message"]
        lobby = (await ada.post("/api/matches", {"game": "c64-maze", "nonce": "ab" * 32})).json()
        assert len(lobby["seed_commitment"]) == 64 and lobby["seed"] is None
        assert lobby["nonces"] == [True, False]
        joined = (await bob.post(f"/api/matches/{lobby['id']}/join", {"nonce": "cd" * 32})).json()
        assert joined["nonces"] == [True, True]
        again = (
            await bob.post(f"/api/matches/{lobby['id']}/join", {"seat": 1, "nonce": "ef" * 32})
        ).json()
        assert again["nonces"] == [True, True] and again["seats"][1]["name"] == "Bob"


async def test_private_match_is_only_for_players_and_invited_spectators(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, eve = await guests(client, "Ada", "Bob", "Eve")
        match_id = await started_match(client, [ada, bob])
        refused = await bob.client.patch(
            f"/api/matches/{match_id}", json={"private": True}, headers=bob.auth
        )
        assert refused.status_code == 403
        made_private = await ada.client.patch(
            f"/api/matches/{match_id}", json={"private": True}, headers=ada.auth
        )
        assert made_private.json()["private"] is True
        token = made_private.json()["watch_token"]

        stranger = (await eve.get(f"/api/matches/{match_id}")).json()
        assert "view" not in stranger and "watch_token" not in stranger
        assert (await eve.get(f"/api/matches/{match_id}/log")).status_code == 403
        assert (await eve.get(f"/api/matches/{match_id}/replay/frames")).status_code == 403
        listed = (await client.get("/api/matches", params={"status": "active"})).json()
        assert match_id not in [m["id"] for m in listed["matches"]]
        invited = (await eve.get(f"/api/matches/{match_id}?watch={token}")).json()
        assert invited["view"]["you"] is None
        frames = (await eve.get(f"/api/matches/{match_id}/replay/frames?watch={token}")).json()
        assert frames["status"] == "active" and frames["initial"]["legal_moves"] == []

    async with Viewer(server.ws_url, match_id, None) as outsider:
        error = await outsider.until_type("error")
        assert error["code"] == "forbidden"
    watcher = Viewer(server.ws_url, match_id, None)
    async with watcher:
        await watcher.until_type("error")
        await watcher.send({"type": "hello", "watch": token})
        snapshot = await watcher.until_type("snapshot")
        assert snapshot["state"]["you"] is None
        presence = await watcher.until_type("presence")
        assert presence["spectators"] == 1


async def test_rematch_rotates_seats_and_tells_the_old_match(finished: dict[str, Any]) -> None:
    done = finished
    async with httpx.AsyncClient(base_url=done["url"]) as client:
        async with Viewer(done["ws_url"], done["id"], done["tokens"][1]) as bob_socket:
            await bob_socket.until_type("snapshot")
            new = (
                await client.post(
                    f"/api/matches/{done['id']}/rematch", headers=_auth(done["tokens"][0])
                )
            ).json()
            told = await bob_socket.until_type("rematch")
        assert told["match"]["id"] == new["id"]
        assert new["status"] == "open" and new["game"] == "c64-maze"
        assert [s["player_id"] for s in new["seats"]] == list(reversed(done["players"]))
        same = (
            await client.post(
                f"/api/matches/{done['id']}/rematch", headers=_auth(done["tokens"][1])
            )
        ).json()
        assert same["id"] == new["id"]
        old = (await client.get(f"/api/matches/{done['id']}")).json()
        assert old["rematch"] == new["id"]
        (stranger,) = await guests(client, "Eve")
        nope = await stranger.post(f"/api/matches/{done['id']}/rematch")
        assert nope.status_code == 403


async def test_history_lists_finished_matches_and_mine(finished: dict[str, Any]) -> None:
    done = finished
    async with httpx.AsyncClient(base_url=done["url"]) as client:
        finished = (await client.get("/api/matches", params={"status": "finished"})).json()
        mine = (
            await client.get(
                "/api/matches",
                params={"status": "finished", "mine": True},
                headers=_auth(done["tokens"][0]),
            )
        ).json()
        (eve,) = await guests(client, "Eve")
        not_mine = (await eve.get("/api/matches?status=finished&mine=true")).json()
        other_game = (await client.get("/api/matches?status=finished&game=c64-tanks")).json()
        page = await client.get("/history")
    assert [m["id"] for m in finished["matches"]] == [done["id"]]
    entry = finished["matches"][0]
    assert entry["length"] == done["version"] and entry["outcome"]["winners"]
    assert entry["finished_at"] and entry["seed"]
    assert mine["count"] == 1 and not_mine["count"] == 0 and other_game["count"] == 0
    assert page.status_code == 200
