"""The guest credential in an HttpOnly cookie, over a real server: how it is set, that it
alone signs a request in, how old Bearer guests move into it, and the Origin lock on changes."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from starlette.requests import Request

from app.api.guest_cookie import is_foreign_origin
from tests.conftest import LiveServer

COOKIE = "arcade_guest"


def _set_cookie(response: httpx.Response) -> str:
    headers = [v for v in response.headers.get_list("set-cookie") if v.startswith(f"{COOKIE}=")]
    assert len(headers) == 1, response.headers
    return headers[0]


def _attributes(set_cookie: str) -> dict[str, str]:
    parts = [p.strip() for p in set_cookie.split(";")]
    return {k.lower(): v for k, _, v in (p.partition("=") for p in parts[1:])}


async def test_creating_a_guest_sets_an_httponly_strict_cookie(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post("/api/players", json={"name": "Ada"})
        assert created.status_code == 201
        body = created.json()
        assert body["token"], "API clients still get the token in the body"
        header = _set_cookie(created)
        assert header.startswith(f"{COOKIE}={body['token']};")
        attributes = _attributes(header)
        assert "httponly" in attributes
        assert attributes["samesite"].lower() == "strict"
        assert attributes["path"] == "/"
        assert "secure" not in attributes, "plain http: a Secure cookie would never come back"
        assert int(attributes["max-age"]) > 30 * 24 * 3600


async def test_the_cookie_is_secure_when_the_visitor_came_over_https(server: LiveServer) -> None:
    # uvicorn trusts X-Forwarded-Proto from 127.0.0.1 (a TLS proxy in front of it).
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post(
            "/api/players", json={"name": "Ada"}, headers={"X-Forwarded-Proto": "https"}
        )
    assert "secure" in _attributes(_set_cookie(created))


async def test_the_cookie_alone_acts_as_the_player(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada = (await client.post("/api/players", json={"name": "Ada"})).json()
        me = await client.get("/api/players/me")  # no Authorization: the cookie jar
        assert me.status_code == 200 and me.json() == {"id": ada["id"], "name": "Ada"}
        lobby = await client.post("/api/matches", json={"game": "c64-maze"})
        assert lobby.status_code == 201, lobby.text
        assert lobby.json()["host"] == ada["id"]
        renamed = await client.patch(
            "/api/players/me", json={"name": "Ada L"}, headers={"Origin": server.url}
        )
        assert renamed.status_code == 200 and renamed.json()["name"] == "Ada L"


async def test_bearer_comes_first_and_an_unknown_cookie_is_a_visitor(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada = (await client.post("/api/players", json={"name": "Ada"})).json()
        bob = (await client.post("/api/players", json={"name": "Bob"})).json()  # cookie: Bob
        me = await client.get(
            "/api/players/me", headers={"Authorization": f"Bearer {ada['token']}"}
        )
        assert me.json()["id"] == ada["id"]
        assert (await client.get("/api/players/me")).json()["id"] == bob["id"]

        client.cookies.set(COOKIE, "forgotten-by-a-reset-database")
        listed = await client.get("/api/matches")
        assert listed.status_code == 200, "pages keep working for a forgotten guest"
        me = await client.get("/api/players/me")
        assert me.status_code == 401 and me.json()["code"] == "unauthorized"


async def test_an_old_bearer_guest_moves_into_the_cookie(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as maker:
        ada = (await maker.post("/api/players", json={"name": "Ada"})).json()
    async with httpx.AsyncClient(base_url=server.url) as browser:
        moved = await browser.post(
            "/api/players/me/cookie", headers={"Authorization": f"Bearer {ada['token']}"}
        )
        assert moved.status_code == 200 and moved.json() == {"id": ada["id"], "name": "Ada"}
        assert "httponly" in _attributes(_set_cookie(moved))
        assert (await browser.get("/api/players/me")).json()["id"] == ada["id"]

        elsewhere = await browser.delete(
            "/api/players/me/cookie", headers={"Origin": "https://evil.example"}
        )
        assert elsewhere.status_code == 403 and "set-cookie" not in elsewhere.headers
        forgot = await browser.delete("/api/players/me/cookie")
        assert forgot.status_code == 204
        assert _attributes(_set_cookie(forgot))["max-age"] == "0"
        assert (await browser.get("/api/players/me")).status_code == 401

        unknown = await browser.post(
            "/api/players/me/cookie", headers={"Authorization": "Bearer not-a-guest"}
        )
        assert unknown.status_code == 401 and unknown.json()["code"] == "unauthorized"
        missing = await browser.post("/api/players/me/cookie")
        assert missing.status_code == 401 and missing.json()["message"]
        assert COOKIE not in browser.cookies


async def test_a_change_signed_by_the_cookie_from_another_site_is_refused(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        await client.post("/api/players", json={"name": "Ada"})
        host = server.url.removeprefix("http://")
        for origin in ("https://evil.example", f"http://{host}.evil.example", "null"):
            refused = await client.post(
                "/api/matches", json={"game": "c64-maze"}, headers={"Origin": origin}
            )
            assert refused.status_code == 403, origin
            assert (
                refused.json()["code"] == "forbidden"
                and "another site" in refused.json()["message"]
            )
        assert (await client.get("/api/matches?mine=true")).json()["count"] == 0

        # Reads are not changes; the site's own pages may change things.
        read = await client.get("/api/players/me", headers={"Origin": "https://evil.example"})
        assert read.status_code == 200
        own = await client.post(
            "/api/matches", json={"game": "c64-maze"}, headers={"Origin": server.url}
        )
        assert own.status_code == 201, own.text


async def test_a_bearer_client_is_not_held_to_the_origin_check(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada = (await client.post("/api/players", json={"name": "Ada"})).json()
        client.cookies.clear()
        # A script elsewhere holding the token could send it anyway; the lock is for the
        # credential a browser adds by itself.
        created = await client.post(
            "/api/matches",
            json={"game": "c64-maze"},
            headers={"Authorization": f"Bearer {ada['token']}", "Origin": "https://tool.example"},
        )
        assert created.status_code == 201


async def test_a_proxy_that_rewrites_host_names_the_public_origin(database_url: str) -> None:
    server = LiveServer(database_url, public_origins="https://arcade.example/, https://b.example")
    server.start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            await client.post("/api/players", json={"name": "Ada"})
            for origin, status in (
                ("https://arcade.example", 201),
                ("https://B.example", 201),
                ("https://evil.example", 403),
            ):
                created = await client.post(
                    "/api/matches", json={"game": "c64-maze"}, headers={"Origin": origin}
                )
                assert created.status_code == status, origin
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("origin", "host", "foreign"),
    [
        ("http://arcade.example", "arcade.example", False),
        ("http://arcade.example", "arcade.example:80", False),
        ("https://arcade.example", "arcade.example:443", False),
        ("https://arcade.example:8443", "arcade.example:8443", False),
        ("http://[::1]:8000", "[::1]:8000", False),
        ("http://arcade.example:8001", "arcade.example:8000", True),
        ("http://arcade.example.evil", "arcade.example", True),
        ("http://arcade.example", None, True),
        ("http://arcade.example", "arcade.example:port", True),
        ("null", "arcade.example", True),
        ("arcade.example", "arcade.example", True),
    ],
)
def test_what_counts_as_another_site(origin: str, host: str | None, foreign: bool) -> None:
    headers = [(b"origin", origin.encode())]
    if host is not None:
        headers.append((b"host", host.encode()))
    request = Request({"type": "http", "method": "POST", "headers": headers, "app": FastAPI()})
    assert is_foreign_origin(request) is foreign
