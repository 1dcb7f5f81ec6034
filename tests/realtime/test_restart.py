"""A server restart mid-match loses nothing: a new app instance resumes from the database."""

from __future__ import annotations

import httpx

from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, play_turns, started_match


def _live_state(server: LiveServer, match_id: str) -> dict:
    runtime = server.server.config.app.state.context.runtime
    return runtime._live[match_id].state


async def test_restart_mid_match_resumes_identical_state(database_url: str) -> None:
    first = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=first.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob])
            async with (
                Viewer(first.ws_url, match_id, ada.token) as a,
                Viewer(first.ws_url, match_id, bob.token) as b,
            ):
                await a.until_type("snapshot")
                await b.until_type("snapshot")
                await play_turns([a, b], 9)
            before_views = {
                g.id: (await g.get(f"/api/matches/{match_id}")).json() for g in (ada, bob)
            }
        before_state = _live_state(first, match_id)
    finally:
        first.stop()

    second = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=second.url) as client:
            for guest in (ada, bob):
                guest.client = client
                after = (await guest.get(f"/api/matches/{match_id}")).json()
                assert after["version"] == 9
                assert after["view"] == before_views[guest.id]["view"]
            assert _live_state(second, match_id) == before_state
            # and play goes on
            async with (
                Viewer(second.ws_url, match_id, ada.token) as a,
                Viewer(second.ws_url, match_id, bob.token) as b,
            ):
                await a.until_type("snapshot")
                await b.until_type("snapshot")
                mover = a if a.state["legal_moves"] else b
                await mover.move(mover.state["legal_moves"][0])
                ack = await mover.until_type("ack")
                assert ack["version"] == 10
    finally:
        second.stop()
