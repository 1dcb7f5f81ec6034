"""POST /api/replays/verify takes records from anyone (issue 13, finding 4): the body, the
moves and the checking time are bounded, refusals say why, and the answer says whether the
record is of a match this server hosted."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import LiveServer
from tests.helpers import ROOMY_VERIFY, finished_match_in_db


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The exported record of one finished C64 Maze match."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('verify') / 'arcade.db'}"
    done = asyncio.run(finished_match_in_db(url))
    server = LiveServer(url).start()
    try:
        exported = httpx.get(f"{server.url}/api/matches/{done['id']}/replay").json()
    finally:
        server.stop()
    yield exported


def _server(tmp_path: Path, **settings: Any) -> LiveServer:
    settings = {**ROOMY_VERIFY, **settings}
    return LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'other.db'}", **settings).start()


async def test_a_body_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    server = _server(tmp_path, verify_max_bytes=1024 * 1024)
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            declared = await client.post(
                "/api/replays/verify",
                content=b'{"moves": [' + b"0," * (3 * 1024 * 1024) + b"0]}",
                headers={"Content-Type": "application/json"},
            )

            async def streamed() -> AsyncIterator[bytes]:  # no Content-Length: chunked
                for _ in range(64):
                    yield b" " * (64 * 1024)

            chunked = await client.post(
                "/api/replays/verify",
                content=streamed(),
                headers={"Content-Type": "application/json"},
            )
    finally:
        server.stop()
    for answer in (declared, chunked):
        assert answer.status_code == 413, answer.text
        assert answer.json()["code"] == "too_large"
        assert "1 MiB" in answer.json()["message"]


async def test_too_many_moves_or_too_long_a_check_is_refused_with_a_reason(
    record: dict[str, Any], tmp_path: Path
) -> None:
    moves = len(record["moves"])
    server = _server(tmp_path, verify_max_moves=moves - 1)
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            too_long = await client.post("/api/replays/verify", json=record)
    finally:
        server.stop()
    assert too_long.status_code == 422, too_long.text
    assert too_long.json()["code"] == "unprocessable"
    assert f"{moves:,} moves" in too_long.json()["message"]

    server = _server(tmp_path, verify_seconds=0.000001)
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            slow = await client.post("/api/replays/verify", json=record)
            not_json = await client.post(
                "/api/replays/verify",
                content=b"{not json",
                headers={"Content-Type": "application/json"},
            )
    finally:
        server.stop()
    assert slow.status_code == 422 and "could not be checked within" in slow.json()["message"]
    assert not_json.status_code == 400 and not_json.json()["code"] == "bad_request"


async def test_the_answer_says_whether_this_server_hosted_the_match(
    record: dict[str, Any], tmp_path: Path
) -> None:
    server = _server(tmp_path)  # another server: it never hosted this match
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            elsewhere = (await client.post("/api/replays/verify", json=record)).json()
    finally:
        server.stop()
    assert elsewhere["ok"] is True and elsewhere["hosted"] is False


async def test_a_forged_copy_of_a_hosted_match_is_not_called_hosted(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}"
    done = await finished_match_in_db(url)
    server = LiveServer(url, **ROOMY_VERIFY).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            real = (await client.get(f"/api/matches/{done['id']}/replay")).json()
            shortened = copy.deepcopy(real)
            del shortened["moves"][-1]  # the same match, seed and id; not the same moves
            verdicts = [
                (await client.post("/api/replays/verify", json=r)).json() for r in (real, shortened)
            ]
    finally:
        server.stop()
    assert verdicts[0]["ok"] is True and verdicts[0]["hosted"] is True
    assert verdicts[1]["ok"] is False and verdicts[1]["hosted"] is False
