"""Schemathesis over every operation of the OpenAPI document, against a real server: no
request a hostile client can make answers 5xx, and every status is one the document lists
(with the {code, message} body it promises). Each case runs as a visitor and as a guest.

Path parameters are the generator's most of the time and, for some cases, one of a few real
matches in telling states (an open lobby, one its host left before the start, a match being
played, a private one): the 500s of 731ee50 hid in those.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from app.config import Settings
from app.main import create_app
from tests.conftest import (
    LiveServer,
    drop_postgres_database,
    fresh_postgres_database,
)

# Small on purpose: CI runs it on a loaded 2-core machine (about 25 operations, two calls each).
EXAMPLES_PER_OPERATION = 8
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]


@dataclass
class World:
    server: LiveServer
    token: str
    match_ids: list[str]


def _seed(server: LiveServer) -> World:
    with httpx.Client(base_url=server.url) as client:

        def guest(name: str) -> dict[str, str]:
            created = client.post("/api/players", json={"name": name})
            client.cookies.clear()
            return {"Authorization": f"Bearer {created.json()['token']}"}

        ada, bob = guest("Ada"), guest("Bob")

        def lobby(host: dict[str, str]) -> str:
            made = client.post("/api/matches", json={"game": "c64-maze", "seats": 2}, headers=host)
            assert made.status_code == 201, made.text
            return str(made.json()["id"])

        open_lobby, left_lobby, playing, private = (lobby(ada) for _ in range(4))
        assert client.post(f"/api/matches/{left_lobby}/leave", headers=ada).status_code == 200
        for match_id in (playing, private):
            assert client.post(f"/api/matches/{match_id}/join", headers=bob).status_code == 200
            assert client.post(f"/api/matches/{match_id}/start", headers=ada).status_code == 200
        assert (
            client.patch(f"/api/matches/{private}", json={"private": True}, headers=bob)
        ).status_code == 403
        assert (
            client.patch(f"/api/matches/{private}", json={"private": True}, headers=ada)
        ).status_code == 200
    # The fuzzed guest is Bob: seated in two matches, host of none.
    return World(
        server, bob["Authorization"].split()[1], [open_lobby, left_lobby, playing, private]
    )


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    if request.param == "sqlite":
        url, pg_name = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'a.db'}", None
    else:
        url, pg_name = fresh_postgres_database()
    server = LiveServer(url).start()
    try:
        yield _seed(server)
    finally:
        server.stop()
        if pg_name:
            drop_postgres_database(pg_name)


# The document the server serves (the same factory); loaded at collection time because
# schemathesis' fixture-based loader does not work with pytest 9.
schema = schemathesis.openapi.from_dict(create_app(Settings(migrate_on_start=False)).openapi())


def test_the_fuzzed_document_is_the_served_one(world: World) -> None:
    served = httpx.get(f"{world.server.url}/openapi.json").json()
    assert served == schema.raw_schema


def _maybe_a_real_match(case: Any, world: World) -> None:
    """Point some cases at the seeded matches; which ones is fixed by the case's own data."""
    if not case.path_parameters or "match_id" not in case.path_parameters:
        return
    digest = hashlib.sha256(
        json.dumps(
            [case.path_parameters, case.query, case.body], default=repr, sort_keys=True
        ).encode()
    ).digest()
    pick = digest[0] % (len(world.match_ids) + 1)
    if pick < len(world.match_ids):
        case.path_parameters["match_id"] = world.match_ids[pick]


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_only_what_the_document_lists(case: Any, world: World) -> None:
    _maybe_a_real_match(case, world)
    url = world.server.url
    case.call_and_validate(base_url=url, checks=CHECKS)  # a visitor
    case.call_and_validate(
        base_url=url, headers={"Authorization": f"Bearer {world.token}"}, checks=CHECKS
    )
