"""Static files and pages, compressed and cached (app/static_files.py; issue 17, item 5).

The pages name every file under /static/<version>/ (the static tree's content hash), cached for
a year; /static/<path> keeps working for old links with revalidation. Text goes out brotli- or
gzip-compressed as the browser accepts it; pages carry an ETag and answer a revalidation with
304. These run against the app in process: nothing here needs the database.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import brotli
import httpx
import pytest

from app.config import Settings
from app.main import STATIC, create_app
from app.static_files import accepted_encoding, load_static_tree
from tests.api.test_security_headers import assert_secured
from tests.conftest import LiveServer
from tests.helpers import guests

VERSIONED = re.compile(r"^/static/[0-9a-f]{12}/")
BROWSER = {"Accept": "text/html,*/*;q=0.8", "Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    database = tmp_path_factory.mktemp("static") / "db"
    return create_app(Settings(database_url=f"sqlite+aiosqlite:///{database}", redis_url=""))


@pytest.fixture
async def client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    # The app's lifespan too: a match page asks the database which game it shows.
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://arcade.test") as client,
    ):
        yield client


async def raw_get(
    client: httpx.AsyncClient, url: str, **headers: str
) -> tuple[httpx.Response, bytes]:
    async with client.stream("GET", url, headers=headers) as response:
        raw = b"".join([chunk async for chunk in response.aiter_raw()])
    return response, raw


def undo(encoding: str | None, raw: bytes) -> bytes:
    if encoding == "br":
        return bytes(brotli.decompress(raw))
    if encoding == "gzip":
        return gzip.decompress(raw)
    assert encoding is None, encoding
    return raw


def page_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', html)


@pytest.mark.parametrize("path", ["js/match.js", "css/arcade.css", "favicon.svg", "js/ui.js"])
@pytest.mark.parametrize(
    ("accept", "encoding"),
    [
        ("br", "br"),
        ("gzip", "gzip"),
        ("gzip, deflate, br", "br"),
        ("br;q=0, gzip", "gzip"),
        ("identity", None),
        ("", None),
    ],
)
async def test_compressed_answers_decompress_to_the_file(
    client: httpx.AsyncClient, path: str, accept: str, encoding: str | None
) -> None:
    version = load_static_tree(STATIC).version
    response, raw = await raw_get(
        client, f"/static/{version}/{path}", **{"Accept-Encoding": accept}
    )
    assert response.status_code == 200
    assert response.headers.get("content-encoding") == encoding
    assert response.headers["vary"] == "Accept-Encoding"
    assert undo(encoding, raw) == (STATIC / path).read_bytes()
    if encoding is not None:
        assert len(raw) < (STATIC / path).stat().st_size
    assert_secured(response.headers, path)


async def test_pages_are_compressed_and_revalidated_with_a_304(
    client: httpx.AsyncClient,
) -> None:
    for path in ("/", "/match/some-match", "/games/c64-maze/rules", "/learn/c64", "/history"):
        first, raw = await raw_get(client, path, **BROWSER)
        assert first.status_code == 200, path
        assert first.headers["content-encoding"] == "br", path
        assert first.headers["cache-control"] == "no-cache", path
        assert b"<!doctype html>" in undo("br", raw)
        etag = first.headers["etag"]
        again, body = await raw_get(client, path, **BROWSER, **{"If-None-Match": etag})
        assert again.status_code == 304, path
        assert body == b""
        assert again.headers["etag"] == etag
        assert_secured(again.headers, f"304 {path}")
        stale, _ = await raw_get(client, path, **BROWSER, **{"If-None-Match": '"stale"'})
        assert stale.status_code == 200, path


async def test_an_embedded_rules_page_keeps_its_framing_headers_on_a_304(
    client: httpx.AsyncClient,
) -> None:
    first, _ = await raw_get(client, "/games/c64-maze/rules?embed=1", **BROWSER)
    again, _ = await raw_get(
        client,
        "/games/c64-maze/rules?embed=1",
        **BROWSER,
        **{"If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304
    assert again.headers["x-frame-options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in again.headers["content-security-policy"]


async def test_only_versioned_urls_are_cached_for_good(client: httpx.AsyncClient) -> None:
    page = (await client.get("/match/some-match", headers=BROWSER)).text
    urls = page_urls(page)
    assert any(url.endswith("/js/match.js") for url in urls)
    assert any(url.endswith("/css/arcade.css") for url in urls)
    for url in urls:
        assert VERSIONED.match(url), url
        response = await client.get(url, headers=BROWSER)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable", url
        assert_secured(response.headers, url)
        plain = await client.get(VERSIONED.sub("/static/", url), headers=BROWSER)
        assert plain.status_code == 200
        assert "immutable" not in plain.headers["cache-control"], url
        assert plain.content == response.content
    # a version from before a restart: today's file, but not for a year
    old = await client.get("/static/0123456789ab/js/ui.js")
    assert old.status_code == 200
    assert "immutable" not in old.headers["cache-control"]
    # an unversioned file revalidates with its ETag
    plain = await client.get("/static/js/ui.js", headers=BROWSER)
    again = await client.get(
        "/static/js/ui.js", headers={**BROWSER, "If-None-Match": plain.headers["etag"]}
    )
    assert again.status_code == 304
    assert_secured(again.headers, "304 /static/js/ui.js")


async def test_missing_files_are_not_found_and_large_api_json_is_gzipped(
    client: httpx.AsyncClient,
) -> None:
    for url in (
        "/static/js/nonexistent.js",
        "/static/0123456789ab/nope.css",
        "/static/../app/main.py",
        "/static/js/",
    ):
        response = await client.get(url)
        assert response.status_code == 404, url
        assert response.json()["code"] == "not_found"
    api = await client.get("/api/games", headers=BROWSER)
    assert api.status_code == 200
    assert "cache-control" not in api.headers
    assert "etag" not in api.headers
    # The API's JSON over a kilobyte is gzipped (httpx decodes it); a small answer is not.
    assert api.headers["content-encoding"] == "gzip" and api.json()
    small = await client.get("/healthz", headers=BROWSER)
    assert "content-encoding" not in small.headers and small.json() == {"status": "ok"}
    plain = await client.get("/api/games", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == api.json()


def preloaded(page: str) -> set[str]:
    return {
        VERSIONED.sub("", url)
        for url in re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    }


async def test_a_match_page_preloads_its_own_renderer_and_every_module_it_imports(
    server: LiveServer,
) -> None:
    """Issue 17, item 5: the page of a Tank Skirmish match fetches its renderer's whole module
    graph at once and nothing only another game draws with (the C64 table); a C64 match's page
    preloads the table; a match that does not exist gets the page with no renderer."""
    tree = load_static_tree(STATIC)
    async with httpx.AsyncClient(base_url=server.url) as client:
        (ada,) = await guests(client, "Ada")
        pages = {}
        for game in ("tube-tanks", "c64-maze"):
            match_id = (await ada.post("/api/matches", {"game": game})).json()["id"]
            pages[game] = preloaded((await client.get(f"/match/{match_id}", headers=BROWSER)).text)
        unknown = preloaded((await client.get("/match/some-match", headers=BROWSER)).text)
    for preloads in (*pages.values(), unknown):
        assert {"js/match.js", "js/socket.js", "js/patch.js"} <= preloads
        assert set(tree.module_imports("js/match.js")) <= preloads
        assert "vendor/fast-json-patch/module/core.mjs" in preloads  # two levels below patch.js
    tanks = {"js/games/tube-tanks.js", *tree.module_imports("js/games/tube-tanks.js")}
    assert tanks <= pages["tube-tanks"]
    assert "js/c64/table.js" not in pages["tube-tanks"]
    assert {"js/games/c64-maze.js", "js/c64/table.js", "js/c64/grid.js"} <= pages["c64-maze"]
    assert not any(module.startswith("js/games/") for module in unknown)


def test_a_changed_file_changes_the_version(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for tree in (one, two):
        (tree / "js").mkdir(parents=True)
        (tree / "js" / "a.js").write_text('import { b } from "./b.js";\n')
        (tree / "js" / "b.js").write_text("export const b = 1;\n")
    (two / "js" / "b.js").write_text("export const b = 2;\n")
    first, second = load_static_tree(one), load_static_tree(two)
    assert first.url("js/a.js") != second.url("js/a.js")
    assert first.url("js/a.js").startswith(f"/static/{first.version}/")
    assert first.module_imports("js/a.js") == ["js/b.js"]
    (two / "js" / "b.js").write_text("export const b = 1;\n")  # the same contents again
    load_static_tree.cache_clear()
    assert load_static_tree(two).version == load_static_tree(one).version


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip, deflate, br, zstd", "br"),
        ("gzip", "gzip"),
        ("br;q=0", None),
        ("*", "br"),
        ("*;q=0, gzip;q=0.5", "gzip"),
        ("deflate", None),
        ("", None),
        ("BR", "br"),
    ],
)
def test_accept_encoding_is_read_with_its_weights(header: str, expected: str | None) -> None:
    assert accepted_encoding(header) == expected
