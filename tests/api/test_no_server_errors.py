"""The requests that answered 500 on 731ee50 (found by schemathesis) get real answers."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import LiveServer
from tests.helpers import guests, started_match


async def test_the_log_of_a_lobby_its_host_left_is_empty(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        (ada,) = await guests(client, "Ada")
        match_id = (await ada.post("/api/matches", {"game": "c64-maze"})).json()["id"]
        left = await ada.post(f"/api/matches/{match_id}/leave")
        assert left.status_code == 200 and left.json()["status"] == "abandoned"
        for headers in ({}, ada.auth):
            log = await client.get(f"/api/matches/{match_id}/log", headers=headers)
            assert log.status_code == 200, log.text
            assert log.json() == {"moves": [], "seat_changes": []}


@pytest.mark.parametrize("watch", ["ünïcødé", "\u2603" * 32, "%00", "a" * 500])
async def test_a_strange_watch_token_is_refused_not_crashed_on(
    server: LiveServer, watch: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
        private = await client.patch(
            f"/api/matches/{match_id}", json={"private": True}, headers=ada.auth
        )
        assert private.status_code == 200
        for path in ("log", "replay", "replay/frames"):
            refused = await client.get(f"/api/matches/{match_id}/{path}", params={"watch": watch})
            assert refused.status_code == 403, (path, refused.text)
            assert refused.json()["code"] == "forbidden"
        summary = await client.get(f"/api/matches/{match_id}", params={"watch": watch})
        assert summary.status_code == 200 and "view" not in summary.json()
