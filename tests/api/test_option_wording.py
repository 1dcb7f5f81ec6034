"""Refused options read as sentences a host can act on: the field by the title the lobby's form
shows, pydantic's phrasing and its "Value error, " prefix left out; the code stays bad_request."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import LiveServer
from tests.helpers import guests


@pytest.mark.parametrize(
    ("game", "options", "sentence"),
    [
        ("tactrics-crossing", {"routers": 9}, "Routers: must be at most 7."),
        ("tactrics-crossing", {"routers": 2}, "Routers: must be at least 3."),
        ("tactrics-crossing", {"routers": 4.5}, "Routers: must be a whole number."),
        (
            "tactrics-crossing",
            {"routers": 7},
            "7 routers need the line start (red, yellow and blue have 7).",
        ),
        (
            "tactrics-crossing",
            {"minority_rotation": "maybe"},
            "Minority Rotation: must be on or off (true or false).",
        ),
        ("tactrics-crossing", {"colours": 3}, "There is no option called 'colours'."),
        ("tactrics-cat-mouse", {"cats": 6}, "Cats: must be 4 or 5."),
        ("tactrics-solitary", {"scenario": "ring"}, "Scenario: must be Split or Clustered."),
        (
            "tube-tanks",
            {"setup": "Z"},
            "Setup: must be A: Arena, B: Crossfire or Custom zone (you draw it).",
        ),
        (
            "tube-tanks",
            {"setup": "custom", "zone": {"walls": ["Z99"], "green": [], "orange": []}},
            "Zone walls: 'Z99' is not a cell (A1..O15).",
        ),
    ],
)
async def test_a_new_match_with_bad_options_is_refused_in_words(
    server: LiveServer, game: str, options: dict[str, Any], sentence: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        (ada,) = await guests(client, "Ada")
        refused = await ada.post("/api/matches", {"game": game, "options": options})
    assert refused.status_code == 400
    assert refused.json() == {"code": "bad_request", "message": sentence}


async def test_a_lobby_change_to_bad_options_is_refused_in_words_and_changes_nothing(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        (ada,) = await guests(client, "Ada")
        created = await ada.post(
            "/api/matches", {"game": "tactrics-crossing", "options": {"teams": True}, "seats": 3}
        )
        assert created.status_code == 201, created.text
        match_id, before = created.json()["id"], created.json()["options"]
        for options, sentence in (
            ({"routers": 7}, "7 routers need the line start (red, yellow and blue have 7)."),
            ({"routers": 8, "line": True}, "Routers: must be at most 7."),
        ):
            refused = await client.put(
                f"/api/matches/{match_id}/options", json={"options": options}, headers=ada.auth
            )
            assert refused.status_code == 400
            assert refused.json() == {"code": "bad_request", "message": sentence}
        assert (await ada.get(f"/api/matches/{match_id}")).json()["options"] == before
        # The fix the start refusal asks for ("turn teams off") is made in the lobby.
        fixed = await client.put(
            f"/api/matches/{match_id}/options",
            json={"options": {**before, "teams": False}},
            headers=ada.auth,
        )
        assert fixed.status_code == 200, fixed.text
        assert fixed.json()["options"]["teams"] is False
