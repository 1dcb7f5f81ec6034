"""The compact form of patch frames (docs/protocol.md section 15), for clients that ask for
it in hello (`{"type": "hello", "compact": 1}`).

A full patch frame repeats itself: every op spells out "op", "path" and "value", every object
spells out its keys, the seat's legal moves are resent whole on every turn, and events carry
their sentence each time ("Red plays Left Button." comes back dozens of times in a match). The
compact frame says the same with a dictionary and without key names:

- **The dictionary.** A match has a dictionary of values, numbered 0, 1, 2, ... in the order
  the server first used them (a game with hidden information: one per seat, and one for the
  spectators). A connection gets an entry's definition (`"d": {"7": value}`) in the first frame
  that uses it on that connection, with the entries it refers to, and then only its number.
- **Packed values.** Every value in a compact frame is packed: an object is
  `{"<n>": [v1, v2, ...]}`, entry n being its list of keys; an object or a string of
  `SHORTEST_WORD` characters or more inside a value is "#<n>", entry n (a literal string
  starting with "#" gets a second one); arrays and scalars stay as they are.
- **The frame** `{"type": "p", "v": version, "d": {...}, "o": [...], "l": [...], "e": [...]}`:
  `o` the view's ops (each an entry number or an inline `[key]` / `[key, value]`, key "/path"
  replace, "+/path" add, "-/path" remove), `l` the legal moves when they changed, `e` the
  events; the view's version is `v` (no op for it) and the legal moves are never in `o`.

A connection is sent only entries its own frames use (its events after `redact_event`, its
own legal moves, its own view's ops), and with hidden information a seat's dictionary holds
nothing else. A dictionary is bounded (`MAX_WORDS`): past it, new values go inline.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

MAX_WORDS = 2048
"""Entries per dictionary; later new values are sent inline each time they are used."""
SHORTEST_WORD = 8
"""Strings this long or longer are numbered (shorter ones cost less than their number)."""


_serials = itertools.count()


class Words:
    """One dictionary of a match (`LiveMatch.words_of`)."""

    __slots__ = (
        "base",
        "definitions",
        "numbered",
        "numbers",
        "recent",
        "serial",
        "uses",
        "version",
    )

    def __init__(self, base: int = 0, *, numbered: bool = True) -> None:
        self.serial = next(_serials)
        """Tells dictionaries apart without holding them (`Told`)."""
        self.base = base
        """The number of the first entry: a dictionary that replaces a dropped one numbers on
        from where that one stopped, so a number a client holds is never given another value."""
        self.numbered = numbered
        """False: nothing is numbered, every value goes inline (as in a full dictionary). A
        dictionary pays for itself over many moves; started afresh for one move it made both
        more bytes and more CPU than inline values (C64 Maze, in-process: 1,179 against 818 B
        a frame, 194 against 120 us a move for both seats)."""
        self.numbers: dict[bytes, int] = {}
        """b"v" + the JSON of a value as the server holds it (b"k": of a key list) -> number."""
        self.definitions: list[orjson.Fragment] = []
        """number - base -> its definition as sent, as JSON text."""
        self.uses: list[tuple[int, ...]] = []
        """number - base -> the numbers its definition refers to."""
        self.version = -1
        self.recent: dict[int, tuple[Any, Any, tuple[int, ...]]] = {}
        """id(value) -> (value, entry(value)) for values of `version`: the viewers of a match
        share one board patch and, mostly, one list of events (each said once, not per seat)."""

    def entry(self, value: Any) -> tuple[Any, tuple[int, ...]]:
        """What stands for `value` (an op as [key] or [key, value], a legal move, an event) in
        a frame, and the numbers it refers to: its number, or (the dictionary being full) its
        packed self."""
        number = self._number(value)
        if number is not None:
            return number, (number,)
        uses: list[int] = []
        return self._definition(value, uses), tuple(uses)

    def entry_of_version(
        self, version: int, value: Any, form: Callable[[Any], Any] | None = None
    ) -> tuple[Any, tuple[int, ...]]:
        """`entry(form(value))`, answered from memory when the same object was asked at
        `version`."""
        if version != self.version:
            self.version = version
            self.recent.clear()
        seen = self.recent.get(id(value))
        if seen is not None and seen[0] is value:
            return seen[1], seen[2]
        said, uses = self.entry(value if form is None else form(value))
        self.recent[id(value)] = (value, said, uses)
        return said, uses

    def _number(self, value: Any) -> int | None:
        """`value`'s number, numbered now if it is new; None when the dictionary is full."""
        if not self.numbered:
            return None
        key = b"v" + orjson.dumps(value)
        number = self.numbers.get(key)
        if number is None and len(self.definitions) < MAX_WORDS:  # (full: not packed twice)
            uses: list[int] = []
            number = self._add(key, self._definition(value, uses), uses)
        return number

    def _add(self, key: bytes, definition: Any, uses: list[int]) -> int | None:
        if len(self.definitions) >= MAX_WORDS:
            return None
        number = self.numbers[key] = self.base + len(self.definitions)
        # Kept as its JSON text (an orjson Fragment goes into a frame as it is): less memory
        # than the lists and objects it was made of.
        text = bytes(memoryview(orjson.dumps(definition)))  # a copy: orjson's buffer is larger
        self.definitions.append(orjson.Fragment(text))
        self.uses.append(tuple(uses) if uses else ())
        return number

    def __len__(self) -> int:
        return len(self.definitions)

    @property
    def next_base(self) -> int:
        """The base of the dictionary that replaces this one."""
        return self.base + len(self.definitions)

    def _definition(self, value: Any, uses: list[int]) -> Any:
        """`value` packed, itself not numbered: an object as {"<key list>": [values]}."""
        kind = type(value)
        if kind is dict:
            keys = list(value)
            shape = None
            if self.numbered:
                key = b"k" + orjson.dumps(keys)
                shape = self.numbers.get(key)
                if shape is None:
                    shape = self._add(key, keys, [])
            values = [self.pack(v, uses) for v in value.values()]
            if shape is None:  # dictionary full: the keys go inline
                return {"": [keys, values]}
            uses.append(shape)
            return {str(shape): values}
        if kind is str:
            return "#" + value if value.startswith("#") else value  # a literal "#..." is "##..."
        return self.pack(value, uses)

    def pack(self, value: Any, uses: list[int]) -> Any:
        """`value` packed: objects and strings of `SHORTEST_WORD` characters or more become
        "#<number>"; the numbers it refers to are appended to `uses`."""
        kind = type(value)
        if kind is list:
            return [self.pack(v, uses) for v in value]
        if kind is str:
            if len(value) < SHORTEST_WORD:
                return "#" + value if value.startswith("#") else value
        elif kind is not dict:
            return value
        number = self._number(value)
        if number is None:  # dictionary full: the value goes inline
            return self._definition(value, uses)
        uses.append(number)
        return f"#{number}"


def compact_op(op: dict[str, Any]) -> list[Any]:
    """An RFC 6902 op as [key] or [key, value]: the key is its kind and path in one string,
    "/a/b" replace, "+/a/b" add, "-/a/b" remove."""
    kind = op["op"]
    if kind == "replace":
        return [op["path"], op["value"]]
    if kind == "add":
        return ["+" + op["path"], op["value"]]
    if kind == "remove":
        return ["-" + op["path"]]
    raise ValueError(f"no compact form for op {kind!r}")


def _is_legal_path(path: str) -> bool:
    return path == "/legal_moves" or path.startswith("/legal_moves/")


@dataclass(frozen=True)
class CompactPatch:
    """One viewer's compact patch of one version: what every connection of that viewer gets,
    less the definitions a connection already has."""

    words: Words
    version: int
    ops: list[Any]
    legal: list[Any] | None
    """The legal moves when they changed, else None."""
    events: list[Any]
    uses: list[int]
    """The entries the items refer to (a connection must have them, and theirs)."""

    def frame(self, known: int) -> tuple[dict[str, Any], int]:
        """The frame for a connection that has the entries whose bits are set in `known` (bit
        n: entry `words.base` + n), and the bits after this frame. A connection that has an
        entry has the entries it uses."""
        words = self.words
        base = words.base
        definitions: dict[str, Any] = {}

        def tell(number: int) -> None:
            nonlocal known
            bit = number - base
            if known >> bit & 1:
                return
            for used in words.uses[bit]:
                tell(used)
            known |= 1 << bit
            definitions[str(number)] = words.definitions[bit]

        for number in self.uses:
            tell(number)
        frame: dict[str, Any] = {"type": "p", "v": self.version}
        if definitions:
            frame["d"] = definitions
        if self.ops:
            frame["o"] = self.ops
        if self.legal is not None:
            frame["l"] = self.legal
        if self.events:
            frame["e"] = self.events
        return frame, known


class Told:
    """What one connection has been told of its viewer's dictionary."""

    __slots__ = ("known", "serial")

    def __init__(self) -> None:
        self.serial: int | None = None
        """The `Words.serial` of the dictionary the connection holds entries of: not the
        dictionary itself, which a waiting match drops (a connection that was sent full
        frames since would otherwise keep it alive)."""
        self.known = 0
        """Bit n set: the connection has entry `base` + n of that dictionary."""

    def frame(self, patch: CompactPatch) -> dict[str, Any]:
        """The connection's frame of `patch`. The first one from a dictionary that replaced
        the connection's (the match waited and its dictionary was dropped, or the match was
        loaded afresh) carries `"f": 1`: the entries the client holds are not used again."""
        serial = patch.words.serial
        renewed = serial != self.serial and self.serial is not None
        if serial != self.serial:
            self.serial, self.known = serial, 0
        frame, self.known = patch.frame(self.known)
        if renewed:
            frame["f"] = 1
        return frame


def compact_patch(
    words: Words,
    version: int,
    ops: list[dict[str, Any]],
    legal_after: list[Any],
    events: list[dict[str, Any]],
) -> CompactPatch:
    """The compact form of a full patch (`ops` between two views of one viewer, the legal
    moves of the later view, and the viewer's `events`)."""
    uses: list[int] = []

    def item(value: Any, form: Callable[[Any], Any] | None = None) -> Any:
        said, refers_to = words.entry_of_version(version, value, form)
        uses.extend(refers_to)
        return said

    compact_ops = []
    legal_changed = False
    for op in ops:
        path = op["path"]
        if _is_legal_path(path):
            legal_changed = True  # said by `l`
            continue
        if path == "/version":
            continue  # said by `v`
        compact_ops.append(item(op, compact_op))
    return CompactPatch(
        words=words,
        version=version,
        ops=compact_ops,
        legal=[item(move) for move in legal_after] if legal_changed else None,
        events=[item(event) for event in events],
        uses=uses,
    )


# --- the client's side, in Python: what static/js/compact.js does (tests, the benchmark) -------


class Reader:
    """A compact connection's client: its dictionary, and the frames expanded to the full
    form's ops and events."""

    def __init__(self) -> None:
        self.dictionary: dict[int, Any] = {}

    def unpack(self, packed: Any) -> Any:
        if isinstance(packed, str):
            if not packed.startswith("#"):
                return packed
            rest = packed[1:]
            return self.unpack(self.dictionary[int(rest)]) if rest.isdigit() else rest
        if isinstance(packed, list):
            return [self.unpack(v) for v in packed]
        if isinstance(packed, dict):
            ((shape, values),) = packed.items()
            if shape == "":
                keys, values = values
            else:
                keys = self.dictionary[int(shape)]
            return {k: self.unpack(v) for k, v in zip(keys, values, strict=True)}
        return packed

    def _entry(self, ref: Any) -> Any:
        return self.unpack(self.dictionary[ref] if _is_number(ref) else ref)

    def expand(self, frame: dict[str, Any]) -> tuple[list[dict[str, Any]], list[Any]]:
        """(RFC 6902 ops, events) of a compact frame. The ops include a /version replace and,
        when `l` is there, a /legal_moves replace: applied, they give the full form's state."""
        if frame.get("f"):
            self.dictionary.clear()  # a new dictionary: the entries held are not used again
        for number, packed in frame.get("d", {}).items():
            self.dictionary[int(number)] = packed
        ops: list[dict[str, Any]] = [{"op": "replace", "path": "/version", "value": frame["v"]}]
        for ref in frame.get("o", []):
            item = self._entry(ref)
            key = item[0]
            if key.startswith("+"):
                ops.append({"op": "add", "path": key[1:], "value": item[1]})
            elif key.startswith("-"):
                ops.append({"op": "remove", "path": key[1:]})
            else:
                ops.append({"op": "replace", "path": key, "value": item[1]})
        if "l" in frame:
            legal = [self._entry(ref) for ref in frame["l"]]
            ops.append({"op": "replace", "path": "/legal_moves", "value": legal})
        return ops, [self._entry(ref) for ref in frame.get("e", [])]


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
