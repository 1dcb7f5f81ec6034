"""The compact form of patch frames (docs/protocol.md, "Compact frames"), for clients that ask
for it in hello (`{"type": "hello", "compact": 1}`).

A full patch frame repeats itself: every op spells out "op", "path" and "value", every object
spells out its keys, the seat's legal moves are resent whole on every turn, and events carry
their sentence each time ("Red plays Left Button." comes back dozens of times in a match). The
compact frame says the same with a dictionary and without key names:

- **Packed values.** Every value in a compact frame is *packed*: an object becomes
  `{"<n>": [v1, v2, ...]}`, where dictionary entry n is its list of keys and v1... its packed
  values in that order; arrays and scalars stay as they are. (A packed value never holds a
  plain object, so an object always means "keys from entry n".)
- **The dictionary.** Each viewer of a match (a seat, or the spectators) has a dictionary of
  packed values, numbered 0, 1, 2, ... in the order the server first used them: key lists,
  ops, legal moves, events and event sentences. A connection gets an entry's definition
  (`"d": {"7": value}`) in the first frame that uses it on that connection (with the entries
  it refers to), and afterwards only its number.
- **The frame** `{"type": "p", "v": version, "d": {...}, "o": [...], "l": [...], "e": [...]}`:
  `o` the view's ops (each an entry number, or inline `[key]` / `[key, value]`, key "/path"
  replace, "+/path" add, "-/path" remove), `l` the legal moves when they changed, `e` the
  events (each an entry number or an inline packed object). The view's version is `v` (no op
  for it); the legal moves are never in `o`. An event's "text" is the number of the entry
  holding its sentence.

The dictionary holds only what that viewer was sent (its events after `redact_event`, its own
legal moves, its own view's ops): nothing hidden from a seat is ever in its dictionary. It is
bounded (`MAX_WORDS`): past it, new values go inline, in full, wherever they are used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

MAX_WORDS = 4096
"""Entries per viewer and match; later new values are sent inline each time they are used."""


class Words:
    """One viewer's dictionary in one match."""

    __slots__ = ("entries", "numbers")

    def __init__(self) -> None:
        self.numbers: dict[bytes, int] = {}
        self.entries: list[tuple[Any, tuple[int, ...]]] = []
        """number -> (packed definition, the numbers it refers to)."""

    def number(self, packed: Any, uses: tuple[int, ...], told: dict[int, Any]) -> int | None:
        """The number of the packed value (numbered now if new; None when the dictionary is
        full), recorded in `told` with every entry it refers to."""
        key = orjson.dumps(packed)
        number = self.numbers.get(key)
        if number is None:
            if len(self.entries) >= MAX_WORDS:
                return None
            number = self.numbers[key] = len(self.entries)
            self.entries.append((packed, uses))
        self._tell(number, told)
        return number

    def _tell(self, number: int, told: dict[int, Any]) -> None:
        if number in told:
            return
        packed, uses = self.entries[number]
        for used in uses:
            self._tell(used, told)
        told[number] = packed

    # --- packing -----------------------------------------------------------------------------
    def pack(self, value: Any, told: dict[int, Any], uses: list[int]) -> Any:
        """`value` packed (objects as {"<key list number>": [values]}); the key lists it
        refers to are appended to `uses`."""
        kind = type(value)
        if kind is dict:
            keys = list(value)
            shape = self.number(keys, (), told)
            values = [self.pack(v, told, uses) for v in value.values()]
            if shape is None:  # dictionary full: the keys go inline, as a one-key object
                return {"": [keys, values]}
            uses.append(shape)
            return {str(shape): values}
        if kind is list:
            return [self.pack(v, told, uses) for v in value]
        return value

    def entry(self, value: Any, told: dict[int, Any], *, text: bool = False) -> Any:
        """The number standing for `value` in a frame (an op, a legal move or an event), or
        its packed self when the dictionary is full. With `text`, an event's sentence is
        numbered on its own (sentences repeat more often than events)."""
        uses: list[int] = []
        if text and isinstance(value.get("text"), str):
            sentence = self.number(value["text"], (), told)
            if sentence is not None:
                value = {**value, "text": sentence}
                uses.append(sentence)
        packed = self.pack(value, told, uses)
        number = self.number(packed, tuple(uses), told)
        return packed if number is None else number


def op_key(op: dict[str, Any]) -> str:
    """An op's kind and path in one string: "/a/b" replace, "+/a/b" add, "-/a/b" remove."""
    kind = op["op"]
    if kind == "replace":
        return op["path"]
    if kind == "add":
        return "+" + op["path"]
    if kind == "remove":
        return "-" + op["path"]
    raise ValueError(f"no compact form for op {kind!r}")


def _is_legal_path(path: str) -> bool:
    return path == "/legal_moves" or path.startswith("/legal_moves/")


@dataclass(frozen=True)
class CompactPatch:
    """One viewer's compact patch of one version: what every connection of that viewer gets,
    less the definitions a connection already has."""

    version: int
    ops: list[Any]
    legal: list[Any] | None
    """The legal moves when they changed, else None."""
    events: list[Any]
    told: dict[int, Any]
    """Every entry this patch refers to (and the entries they refer to) -> its definition, in
    an order where an entry comes after those it refers to."""

    def frame(self, known: int) -> tuple[dict[str, Any], int]:
        """The frame for a connection that knows the entries whose bits are set in `known`,
        and the bits it knows after this frame."""
        frame: dict[str, Any] = {"type": "p", "v": self.version}
        definitions = {}
        for number, packed in self.told.items():
            bit = 1 << number
            if not known & bit:
                definitions[str(number)] = packed
                known |= bit
        if definitions:
            frame["d"] = definitions
        if self.ops:
            frame["o"] = self.ops
        if self.legal is not None:
            frame["l"] = self.legal
        if self.events:
            frame["e"] = self.events
        return frame, known


def compact_patch(
    words: Words,
    version: int,
    ops: list[dict[str, Any]],
    legal_before: list[Any],
    legal_after: list[Any],
    events: list[dict[str, Any]],
) -> CompactPatch:
    """The compact form of a full patch (`ops` between two views of one viewer, the legal
    moves in those views, and the viewer's `events`)."""
    told: dict[int, Any] = {}
    compact_ops = []
    for op in ops:
        path = op["path"]
        if path == "/version" or _is_legal_path(path):
            continue  # said by `v` and `l`
        key = op_key(op)
        compact_ops.append(words.entry([key] if op["op"] == "remove" else [key, op["value"]], told))
    legal = None
    if legal_after != legal_before:
        legal = [words.entry(move, told) for move in legal_after]
    return CompactPatch(
        version=version,
        ops=compact_ops,
        legal=legal,
        events=[words.entry(event, told, text=True) for event in events],
        told=told,
    )


# --- the client's side, in Python: what static/js/compact.js does (tests, the benchmark) -------


class Reader:
    """A compact connection's client: its dictionary, and the frames expanded to the full
    form's ops and events."""

    def __init__(self) -> None:
        self.dictionary: dict[int, Any] = {}

    def unpack(self, packed: Any) -> Any:
        if isinstance(packed, list):
            return [self.unpack(v) for v in packed]
        if isinstance(packed, dict):
            ((shape, values),) = packed.items()
            keys = values[0] if shape == "" else self.dictionary[int(shape)]
            values = values[1] if shape == "" else values
            return {k: self.unpack(v) for k, v in zip(keys, values, strict=True)}
        return packed

    def _entry(self, ref: Any) -> Any:
        return self.dictionary[ref] if _is_number(ref) else ref

    def expand(self, frame: dict[str, Any]) -> tuple[list[dict[str, Any]], list[Any]]:
        """(RFC 6902 ops, events) of a compact frame. The ops include a /version replace and,
        when `l` is there, a /legal_moves replace: applied, they give the full form's state."""
        for number, packed in frame.get("d", {}).items():
            self.dictionary[int(number)] = packed
        ops: list[dict[str, Any]] = [{"op": "replace", "path": "/version", "value": frame["v"]}]
        for ref in frame.get("o", []):
            item = self._entry(ref)
            key = item[0]
            if key.startswith("+"):
                ops.append({"op": "add", "path": key[1:], "value": self.unpack(item[1])})
            elif key.startswith("-"):
                ops.append({"op": "remove", "path": key[1:]})
            else:
                ops.append({"op": "replace", "path": key, "value": self.unpack(item[1])})
        if "l" in frame:
            legal = [self.unpack(self._entry(ref)) for ref in frame["l"]]
            ops.append({"op": "replace", "path": "/legal_moves", "value": legal})
        events = []
        for ref in frame.get("e", []):
            event = self.unpack(self._entry(ref))
            if _is_number(event.get("text")):
                event["text"] = self.dictionary[event["text"]]
            events.append(event)
        return ops, events


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
