"""Play at your own pace with two server processes behind one database and Redis (issue 18:
"all of it holds ... with several server processes"). Each request goes to whichever process
a load balancer would pick: the VAPID key is the same on both, a move accepted by one is
pushed once and counted in "your turn" on the other, a device link made on one is claimed on
the other, and an invitation made on one is found (and pushed) on the other."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.test_push_api import (  # noqa: F401  (push_endpoint and _no_proxy: fixtures)
    Browser,
    PushEndpoint,
    _no_proxy,
    push_endpoint,
    pushed,
    subscribe,
    wait_for,
)
from tests.conftest import LiveServer
from tests.fixture_games import QuestionGame, register_fixture_game
from tests.helpers import guests, move_until_not_her_turn, started_match
from tests.realtime.test_redis_hub import redis_url  # noqa: F401  (the fixture)

TURNS = "/api/players/me/turns"


class UntimedQuestionGame(QuestionGame):
    """The question without its 0.4 s answer clock. Between Ada's question and the checks
    that it is still Bob's turn, this test waits for pushes and claims a device link: on a
    loaded machine that took longer than the clock, the server answered for Bob, and it was
    Ada's turn again (CI failed once so)."""

    def decision_seconds(self, state: dict[str, Any]) -> float | None:
        return None


async def test_turns_pushes_device_links_and_invitations_across_two_processes(
    database_url: str,
    redis_url: str,  # noqa: F811
    push_endpoint: PushEndpoint,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    register_fixture_game(monkeypatch, UntimedQuestionGame())
    first = LiveServer(database_url, redis_url=redis_url, push_allow_local_endpoints=True).start()
    second = LiveServer(
        database_url, redis_url=redis_url, push_allow_local_endpoints=True, migrate_on_start=False
    ).start()
    try:
        async with (
            httpx.AsyncClient(base_url=first.url) as one,
            httpx.AsyncClient(base_url=second.url) as two,
        ):
            key = (await one.get("/api/push/key")).json()["key"]
            assert (await two.get("/api/push/key")).json()["key"] == key
            ada, bob, cid = await guests(one, "Ada", "Bob", "Cid")
            bob.client = cid.client = two  # Bob and Cid are served by the second process
            bob_browser = Browser(f"{push_endpoint.base}/push/bob")
            await subscribe(bob, bob_browser)

            match_id = await started_match(one, [ada, bob], game="test-question")
            await move_until_not_her_turn(ada, match_id)  # accepted by the first process
            waiting = (await bob.get(TURNS)).json()
            assert [turn["match_id"] for turn in waiting["turns"]] == [match_id]
            assert (await ada.get(TURNS)).json()["count"] == 0
            wait_for(lambda: len(push_endpoint.to("/push/bob")) == 2)
            titles = [bob_browser.read(r)["title"] for r in push_endpoint.to("/push/bob")]
            assert titles == ["Your match started", "Your turn in Question (test) with Ada"]

            # A link made on the first process makes a phone served by the second Ada.
            link = (await ada.post("/api/players/me/device-link")).json()
            token = link["url"].split("#device=", 1)[1]
            async with httpx.AsyncClient(base_url=second.url) as phone:
                claimed = await phone.post("/api/players/device-link/claim", json={"token": token})
                assert claimed.status_code == 200, claimed.text
                assert (await phone.get("/api/players/me")).json()["id"] == ada.id
                assert (await phone.get(TURNS)).json()["count"] == 0

            # Ada invites Bob on the first process; the second shows it, and Bob's phone rings.
            lobby = await ada.post(
                "/api/matches", {"game": "test-question", "seats": 2, "invite": [bob.id]}
            )
            assert lobby.status_code == 201, lobby.text
            invitations = (await bob.get("/api/players/me/invitations")).json()["invitations"]
            assert [i["match_id"] for i in invitations] == [lobby.json()["id"]]
            assert (await cid.get("/api/players/me/invitations")).json()["invitations"] == []
            assert pushed(push_endpoint, bob_browser, 3)["title"] == "Ada invited you"
            # Each notice went out once, from the process that accepted what caused it.
            assert len(push_endpoint.received) == 3
    finally:
        second.stop()
        first.stop()
