"""Option errors as sentences a host can act on, named the way the lobby's form names them."""

from __future__ import annotations

import re
from typing import Any

from app.engine.contract import Game

# Pydantic's error types the lobby words as a sentence; the others keep pydantic's message.
_OPTION_FAULTS: dict[str, str] = {
    "less_than_equal": "must be at most {le}",
    "greater_than_equal": "must be at least {ge}",
    "less_than": "must be less than {lt}",
    "greater_than": "must be more than {gt}",
    "literal_error": "must be {expected}",
    "enum": "must be {expected}",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "bool_type": "must be on or off (true or false)",
    "bool_parsing": "must be on or off (true or false)",
    "string_type": "must be text",
    "string_too_short": "must be at least {min_length} characters",
    "string_too_long": "must be at most {max_length} characters",
    "list_type": "must be a list",
    "too_short": "needs at least {min_length} items",
    "too_long": "takes at most {max_length} items",
    "missing": "needs a value",
}


def _schema_node(node: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """A property's own schema: its $ref followed, Optional[X] read as X."""
    for _ in range(8):  # refs nest a few levels at most; a loop guard, not a limit that bites
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: Any = schema
            for key in ref[2:].split("/"):
                target = target.get(key, {}) if isinstance(target, dict) else {}
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            continue
        choices = [c for c in node.get("anyOf", []) if c.get("type") != "null"]
        if len(choices) == 1:
            node = {**choices[0], **{k: v for k, v in node.items() if k != "anyOf"}}
            continue
        return node
    return node


def _walk(schema: dict[str, Any], loc: tuple[int | str, ...]) -> tuple[str, dict[str, Any]]:
    """The faulty option as the lobby's form labels it (its schema title, "Routers"; nested
    parts after it in lower case, "Zone walls"; list entries counted from 1) and its schema."""
    words: list[str] = []
    node = _schema_node(schema, schema)
    for part in loc:
        if isinstance(part, int):
            words.append(f"item {part + 1}")
            node = _schema_node(node.get("items", {}), schema)
            continue
        raw = node.get("properties", {}).get(part, {})
        title = raw.get("title") or str(part).replace("_", " ").capitalize()
        words.append(title if not words else title.lower())
        node = _schema_node(raw, schema)
    return " ".join(words), node


def option_fault(game: Game, error: Any) -> str:
    """One pydantic error as a sentence a host can act on: "Routers: must be at most 7.",
    or the game's own sentence for a rule across options ("7 routers need the line start")."""
    kind, loc, context = error["type"], tuple(error["loc"]), error.get("ctx") or {}
    if kind == "extra_forbidden":
        return f"There is no option called {loc[-1]!r}." if loc else "Unknown option."
    name, node = _walk(game.options_schema(), loc)
    if kind in ("value_error", "assertion_error") and "error" in context:
        fault = str(context["error"])  # the game's own sentence, without "Value error, "
    elif kind in ("literal_error", "enum") and (choices := _choice_words(node)):
        fault = f"must be {choices}"
    elif kind in _OPTION_FAULTS:
        fault = _OPTION_FAULTS[kind].format(**context)
    else:
        message = str(error["msg"])  # pydantic's "Input should be ..." continues the name
        fault = message[:1].lower() + message[1:]
    fault = f"{name}: {fault}" if name else fault[:1].upper() + fault[1:]
    return fault if fault.endswith((".", "!", "?", "…")) else f"{fault}."


def _choice_words(node: dict[str, Any]) -> str | None:
    """An option's choices as its form shows them ("Split or Clustered": the schema's
    x-labels, else the values in words), or None when the schema does not list them."""
    values = node.get("enum")
    if not values:
        return None
    labels = node.get("x-labels") or {}
    words = [str(labels.get(str(v)) or _humanized(v)) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _humanized(value: Any) -> str:
    """A choice's words as static/js/schema-form.js shows them when no label is given."""
    if not isinstance(value, str):
        return str(value)
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", value.replace("_", " ")).lower()
    return words[:1].upper() + words[1:]
