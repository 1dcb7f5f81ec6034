"""Options the players must agree on (a custom zone) and personal records, over the real API."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import LiveServer
from tests.fixture_games import AgreementGame, RecordGame, register_fixture_game
from tests.helpers import Viewer, guests


@pytest.fixture
def fixture_games(monkeypatch: pytest.MonkeyPatch) -> None:
    register_fixture_game(monkeypatch, AgreementGame())
    register_fixture_game(monkeypatch, RecordGame())


async def _lobby(client: httpx.AsyncClient, options: dict[str, object]):  # type: ignore[no-untyped-def]
    ada, bob = await guests(client, "Ada", "Bob")
    created = await ada.post(
        "/api/matches", {"game": AgreementGame.id, "options": options, "seats": 2}
    )
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    assert (await bob.post(f"/api/matches/{match_id}/join", {})).status_code == 200
    return ada, bob, match_id


async def test_a_custom_zone_needs_the_other_players_acceptance_before_the_start(
    server: LiveServer, fixture_games: None
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, match_id = await _lobby(client, {"custom": True, "walls": [4]})
        summary = (await bob.get(f"/api/matches/{match_id}")).json()
        assert summary["agreement"] == {"required": True, "accepted": [], "waiting": [1]}

        refused = await ada.post(f"/api/matches/{match_id}/start")
        assert refused.status_code == 409
        assert "accept" in refused.json()["message"]

        accepted = await bob.post(
            f"/api/matches/{match_id}/accept", {"options": {"custom": True, "walls": [4]}}
        )
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["agreement"]["waiting"] == []
        started = await ada.post(f"/api/matches/{match_id}/start")
        assert started.status_code == 200, started.text
        view = (await ada.get(f"/api/matches/{match_id}")).json()["view"]
        assert view["board"]["walls"] == [4], "the agreed zone is the one played"


async def test_any_change_withdraws_the_acceptance_and_everyone_sees_it_live(
    server: LiveServer, fixture_games: None
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, match_id = await _lobby(client, {"custom": True, "walls": [4]})
        zone = {"custom": True, "walls": [4]}
        accepted = await bob.post(f"/api/matches/{match_id}/accept", {"options": zone})
        assert accepted.status_code == 200
        async with Viewer(server.ws_url, match_id, bob.token) as watcher:
            await watcher.until_type("lobby")
            changed = await client.put(
                f"/api/matches/{match_id}/options",
                json={"options": {"custom": True, "walls": [4, 5]}},
                headers=ada.auth,
            )
            assert changed.status_code == 200, changed.text
            frame = await watcher.until(
                lambda f: f["type"] == "lobby" and f["match"]["options"]["walls"] == [4, 5]
            )
        assert frame["match"]["agreement"]["waiting"] == [1]
        assert (await ada.post(f"/api/matches/{match_id}/start")).status_code == 409
        # Accepting what one saw before the change is refused: it is not what will be played.
        stale = await bob.post(f"/api/matches/{match_id}/accept", {"options": zone})
        assert stale.status_code == 409
        assert "changed" in stale.json()["message"]


async def test_only_the_host_changes_options_and_they_are_validated(
    server: LiveServer, fixture_games: None
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob, match_id = await _lobby(client, {})
        by_guest = await client.put(
            f"/api/matches/{match_id}/options", json={"options": {"custom": True}}, headers=bob.auth
        )
        assert by_guest.status_code == 403
        bad = await client.put(
            f"/api/matches/{match_id}/options", json={"options": {"walls": "all"}}, headers=ada.auth
        )
        assert bad.status_code == 400
        assert bad.json() == {"code": "bad_request", "message": "Walls: must be a list."}
        summary = (await ada.get(f"/api/matches/{match_id}")).json()
        assert summary["options"] == {"custom": False, "walls": []}, "a refusal changes nothing"
        assert summary["agreement"]["required"] is False
        # Ordinary options need no acceptance: the host starts at once.
        assert (await ada.post(f"/api/matches/{match_id}/start")).status_code == 200


async def test_records_keep_each_players_best_score(
    server: LiveServer, fixture_games: None
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        for guest, points in ((ada, 4), (ada, 2), (ada, 3), (bob, 5)):
            created = await guest.post("/api/matches", {"game": RecordGame.id, "seats": 1})
            match_id = created.json()["id"]
            assert (await guest.post(f"/api/matches/{match_id}/start")).status_code == 200
            moved = await guest.post(
                f"/api/matches/{match_id}/moves", {"move": {"type": "score", "points": points}}
            )
            assert moved.status_code == 200, moved.text
        games = (await client.get("/api/games")).json()
        assert next(g for g in games if g["id"] == RecordGame.id)["record_order"] == "low"
        records = (await ada.get(f"/api/games/{RecordGame.id}/records")).json()
    assert [(r["name"], r["score"]) for r in records["best"]] == [("Ada", 2), ("Bob", 5)]
    assert [r["score"] for r in records["mine"]] == [2]
    assert records["order"] == "low"


async def test_the_start_is_refused_when_the_options_do_not_fit_the_players(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        created = await ada.post(
            "/api/matches", {"game": "tactrics-crossing", "options": {"teams": True}, "seats": 2}
        )
        match_id = created.json()["id"]
        assert (await bob.post(f"/api/matches/{match_id}/join", {})).status_code == 200
        refused = await ada.post(f"/api/matches/{match_id}/start")
        assert refused.status_code == 409
        assert "4 or 6 players" in refused.json()["message"]
        assert (await ada.get(f"/api/matches/{match_id}")).json()["status"] == "open"
