"""What the served OpenAPI document says about refusals and tokens."""

from __future__ import annotations

import httpx

from tests.conftest import LiveServer

METHODS = ("get", "put", "post", "delete", "patch")


async def test_the_document_lists_refusals_and_optional_tokens(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        document = (await client.get("/openapi.json")).json()
    schemes = document["components"]["securitySchemes"]
    assert schemes["HTTPBearer"]["scheme"] == "bearer"
    assert schemes["APIKeyCookie"] == {
        "type": "apiKey",
        "in": "cookie",
        "name": "arcade_guest",
        "description": schemes["APIKeyCookie"]["description"],
    }
    operations = {
        (method, path): operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }
    for (method, path), operation in operations.items():
        responses = operation["responses"]
        # Bad input is 400 here; FastAPI's own 422 (validation) must not be listed. Only
        # the record check answers 422, for a record it will not work through.
        if (method, path) == ("post", "/api/replays/verify"):
            assert "unprocessable" in responses["422"]["description"]
        else:
            assert "422" not in responses, f"{method} {path}: bad input answers 400, not 422"
        assert "429" in responses, f"{method} {path}"
        for status, response in responses.items():
            if status.startswith("4"):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Problem"}, (method, path, status)

    def security(method: str, path: str) -> list[dict[str, list[str]]]:
        return list(operations[(method, path)].get("security", []))

    optional = [{"HTTPBearer": []}, {"APIKeyCookie": []}, {}]
    required = [{"HTTPBearer": []}, {"APIKeyCookie": []}]
    assert security("get", "/api/matches") == optional
    assert security("get", "/api/matches/{match_id}/log") == optional
    assert security("get", "/api/games/{game_id}/records") == optional
    assert security("post", "/api/matches") == required
    assert security("get", "/api/players/me") == required
    assert security("post", "/api/players/me/cookie") == [{"HTTPBearer": []}]
    assert security("get", "/api/games") == []
    for path in ("/api/matches/{match_id}/join", "/api/matches/{match_id}/moves"):
        assert {"401", "403", "404", "409"} <= set(operations[("post", path)]["responses"])
