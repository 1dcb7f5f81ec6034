"""The OpenAPI document as the server really behaves.

FastAPI lists a 422 "Validation Error" on every operation with parameters, but this server
answers such requests 400 with {code, message} (app.main). And a read that takes a token
only when one is sent must say so: its security alternatives include none (`{}`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from app.api.deps import get_bearer_player, get_current_player

TOKEN_REQUIRED = (get_current_player, get_bearer_player)
FASTAPI_VALIDATION_ERROR = "#/components/schemas/HTTPValidationError"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def install(app: FastAPI) -> None:
    """Replace app.openapi with one that corrects FastAPI's document (built once, cached)."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = corrected(build(), app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def corrected(document: dict[str, Any], app: FastAPI) -> dict[str, Any]:
    optional = {
        (method.lower(), route.path_format)
        for route in _api_routes(app.routes)
        if not _requires_token(route.dependant)
        for method in route.methods or ()
    }
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            responses = operation.get("responses", {})
            if _is_fastapi_validation_error(responses.get("422")):
                del responses["422"]
            if operation.get("security") and (method, path) in optional:
                operation["security"] = [*operation["security"], {}]
    schemas = document.get("components", {}).get("schemas", {})
    if FASTAPI_VALIDATION_ERROR not in str(document.get("paths")):
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)
    return document


def _is_fastapi_validation_error(response: dict[str, Any] | None) -> bool:
    if response is None:
        return False
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    return bool(schema.get("$ref") == FASTAPI_VALIDATION_ERROR)


def _api_routes(routes: Iterable[Any]) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):  # FastAPI >= 0.120 keeps included routers
            yield from _api_routes(route.original_router.routes)


def _requires_token(dependant: Dependant) -> bool:
    return any(d.call in TOKEN_REQUIRED for d in _walk(dependant))


def _walk(dependant: Dependant) -> Iterator[Dependant]:
    for sub in dependant.dependencies:
        yield sub
        yield from _walk(sub)
