"""The pages as served: each with the one site header (static/partials/site-header.html) in it,
the friendly "Page not found", and the API documentation at /docs, which must work on a LAN
without internet (no CDN)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx
import pytest

from app.main import STATIC
from app.pages import assemble_pages
from tests.conftest import LiveServer

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


async def test_an_unknown_address_shows_a_page_to_a_browser(server: LiveServer) -> None:
    """QA: /nonexistent showed a browser raw JSON {"code":"not_found",...}."""
    async with httpx.AsyncClient(base_url=server.url) as client:
        page = await client.get("/nonexistent", headers={"Accept": BROWSER_ACCEPT})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "Page not found" in page.text
    assert re.search(r'<a [^>]*href="/"[^>]*>Go to the lobby</a>', page.text)
    # the stylesheet under the static tree's version (app/static_files.py)
    stylesheet = r'<link rel="stylesheet" href="/static/[0-9a-f]{12}/css/arcade.css">'
    assert re.search(stylesheet, page.text)


async def test_api_paths_and_scripts_still_get_json_for_an_unknown_address(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        api = await client.get("/api/nonexistent", headers={"Accept": BROWSER_ACCEPT})
        script = await client.get("/nonexistent")  # httpx sends Accept: */*
        json_client = await client.get("/nonexistent", headers={"Accept": "application/json"})
        missing_file = await client.get("/static/js/nonexistent.js")
    for response in (api, script, json_client, missing_file):
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


async def test_docs_load_swagger_ui_from_this_server_only(server: LiveServer) -> None:
    """/docs loaded Swagger UI from cdn.jsdelivr.net: a blank page on a LAN-only game night."""
    async with httpx.AsyncClient(base_url=server.url) as client:
        docs = await client.get("/docs")
        assert docs.status_code == 200
        urls = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
        assert urls, docs.text
        assert all(url.startswith("/") and not url.startswith("//") for url in urls), urls
        assert "http" not in docs.text.replace("http-equiv", "")
        for url in urls:
            asset = await client.get(url)
            assert asset.status_code == 200, url
        script = await client.get("/static/vendor/swagger-ui/swagger-ui-bundle.js")
        assert "SwaggerUIBundle" in script.text
        assert "javascript" in script.headers["content-type"]
        redoc = await client.get("/redoc")
    assert redoc.status_code == 404  # dropped rather than loaded from a CDN


# path: (status, href of the nav link marked as the current page, header ids the page's JS needs)
PAGE_HEADERS = {
    "/": (200, "/", {"brand-logo", "player-name", "edit-name"}),
    "/history": (200, "/history", {"brand-logo", "player-name"}),
    "/match/some-match": (200, None, {"brand-logo", "player-name", "spectator-tag"}),
    "/replay/some-match": (200, None, {"brand-logo", "player-name"}),
    "/nonexistent": (404, None, {"brand-logo"}),
    "/learn": (200, "/learn", {"brand-logo"}),
    "/learn/cd-thief": (200, "/learn", {"brand-logo"}),
    "/games/cd-thief/rules": (200, None, {"brand-logo"}),
}


async def test_every_page_is_served_with_the_one_site_header(server: LiveServer) -> None:
    """The header is written once (a macro in static/partials/site-header.html) and rendered
    into each page by the server, so it is in the HTML before any JS runs."""
    async with httpx.AsyncClient(base_url=server.url) as client:
        for path, (status, current_href, header_ids) in PAGE_HEADERS.items():
            page = await client.get(path, headers={"Accept": BROWSER_ACCEPT})
            assert page.status_code == status, path
            assert page.headers["content-type"] == "text/html; charset=utf-8", path
            html = page.text
            assert html.count('<header class="site-header">') == 1, path
            assert html.count('class="skip-link"') == 1, path
            assert "site-header -->" not in html and "you-chip -->" not in html, path
            assert "{{" not in html and "{%" not in html, path
            header = html[html.index('<header class="site-header">') : html.index("</header>")]
            assert html.index("</header>") < html.index('<main id="main">'), path
            nav = re.search(r'<nav class="site-nav"[^>]*>(.*?)</nav>', header, re.S)
            assert nav, path
            assert re.findall(r'<a href="([^"]+)"', nav[1]) == ["/", "/learn", "/history"], path
            marked = re.findall(r'<a href="([^"]+)"[^>]*aria-current="page"', nav[1])
            assert marked == ([current_href] if current_href else []), path
            assert 'data-testid="nav-history"' in nav[1], path
            ids = set(re.findall(r'\bid="([^"]+)"', header))
            assert ids == header_ids, path
            for header_id in header_ids:
                assert len(re.findall(rf'\bid="{header_id}"', html)) == 1, (path, header_id)
            assert ('data-testid="you-chip"' in header) == ("player-name" in header_ids), path


async def test_the_match_page_brand_link_says_it_leads_back_to_the_lobby(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        match = await client.get("/match/some-match")
        lobby = await client.get("/")
    assert 'class="brand" href="/" aria-label="Arcade Night, back to the lobby"' in match.text
    assert 'class="brand" href="/" aria-label="Arcade Night, home"' in lobby.text


def test_a_page_that_calls_the_header_wrongly_stops_the_app_from_starting(
    tmp_path: Path,
) -> None:
    """Pages are rendered when the app is created: a mistake fails the start, never a page."""
    shutil.copytree(STATIC, tmp_path / "static")
    page = tmp_path / "static" / "history.html"
    page.write_text(page.read_text().replace('current="history"', 'curent="history"'))
    with pytest.raises(TypeError, match="curent"):
        assemble_pages(tmp_path / "static")
    pages = {name for name in assemble_pages(STATIC) if not name.startswith("match:")}
    assert pages == {"index", "match", "replay", "history", "404", "docs"}
