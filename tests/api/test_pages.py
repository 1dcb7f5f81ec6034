"""Pages a browser opens outside the game screens: the friendly "Page not found" and the API
documentation at /docs, which must work on a LAN without internet (no CDN)."""

from __future__ import annotations

import re

import httpx

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
    assert '<link rel="stylesheet" href="/static/css/arcade.css">' in page.text


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
