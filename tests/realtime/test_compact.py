"""Compact patch frames (app/realtime/compact.py): a compact connection rebuilds, version by
version, exactly the state and events (sentences included) of the full form, in Python and in
the browser's static/js/compact.js; no seat's dictionary holds what another seat may not see;
clients that do not ask keep the full frames."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import orjson
import pytest

from app.engine.dice import Dice
from app.engine.registry import all_games, get_game
from app.engine.runtime import PLAYED_ON, LiveMatch
from app.realtime import compact
from app.realtime.compact import Reader, Told
from app.realtime.diff import make_patch
from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, started_match

ROOT = Path(__file__).resolve().parents[2]
C64 = [g.id for g in all_games() if g.id.startswith("c64-")]
GAMES = [*C64, "tube-tanks", "cd-thief", "joystick-heroes"]


def _match(game_id: str, seed: int, players: int) -> LiveMatch:
    game = get_game(game_id)
    assert game is not None
    return LiveMatch.in_memory(game, str(seed), players)


def _move(live: LiveMatch, rng: random.Random) -> bool:
    game = live.game
    active = sorted(game.active_seats(live.state))
    if live.outcome is not None or not active:
        return False
    seat = rng.choice(active)
    move = rng.choice(live.legal(live.version, seat))
    version = live.version + 1
    state, events = game.apply(live.state, seat, move, Dice(live.seed, version))
    live.state, live.version, live.outcome = state, version, game.outcome(state)
    live.status = "finished" if live.outcome is not None else "active"
    live.remember(version, state, events)
    return True


def _wire(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value))


class Connection:
    """One simulated socket of `seat` from version `start`: a snapshot, then frames."""

    def __init__(self, live: LiveMatch, seat: int | None) -> None:
        self.seat = seat
        self.told = Told()
        self.reader = Reader()
        self.state = _wire(live.viewer_state(live.version, seat))
        self.frames: list[dict[str, Any]] = []

    def receive(self, live: LiveMatch, version: int) -> None:
        frame = _wire(self.told.frame(live.compact_patch(version, self.seat)))
        self.frames.append(frame)
        ops, events = self.reader.expand(frame)
        if frame.get("f"):  # a new dictionary: the reader holds only what this frame defined
            assert set(self.reader.dictionary) == {int(n) for n in frame.get("d", {})}
        self.state = jsonpatch.apply_patch(self.state, ops)
        assert self.state == _wire(live.viewer_state(version, self.seat)), (version, self.seat)
        assert events == _wire(live.events_for(version, self.seat)), (version, self.seat)
        # The same document, key order included, as a full-form client holds.
        full = jsonpatch.apply_patch(
            _wire(live.viewer_state(version - 1, self.seat)), _wire(live.patch(version, self.seat))
        )
        assert json.dumps(self.state) == json.dumps(full)
        assert [json.dumps(e) for e in events] == [
            json.dumps(e) for e in _wire(live.events_for(version, self.seat))
        ]


def _play(
    game_id: str, seed: int, players: int, moves: int, *, waits_every: int | None = None
) -> tuple[LiveMatch, list[Connection]]:
    """A random match with a compact connection per seat and a spectator from the start, and
    one of each that joins later (the dictionary is numbered already: it must be told). With
    `waits_every`, the match waits after every that many moves long enough for the idle sweep
    to drop its views and dictionaries."""
    live = _match(game_id, seed, players)
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(players), None]
    connections = [Connection(live, seat) for seat in viewers]
    while live.version < moves and _move(live, rng):
        for connection in connections:
            connection.receive(live, live.version)
        if live.version == moves // 3:
            connections += [Connection(live, seat) for seat in viewers]
        if waits_every and live.version % waits_every == 0:
            live.forget_views()
            assert not live.words
    return live, connections


@pytest.mark.parametrize("game_id", GAMES)
def test_compact_frames_rebuild_the_full_form_exactly(game_id: str) -> None:
    for seed in range(2):
        live, connections = _play(game_id, seed, 2 if game_id != "c64-trains" else 3, 160)
        assert live.version > 20, "a match long enough to say something"
        assert any("d" in f for c in connections for f in c.frames)


def _strings(value: Any, into: set[str], *, keys: bool = True) -> set[str]:
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, list):
        for v in value:
            _strings(v, into, keys=keys)
    elif isinstance(value, dict):
        for k, v in value.items():
            if keys:
                into.add(k)
            _strings(v, into, keys=keys)
    return into


def test_no_seat_is_told_what_it_may_not_see() -> None:
    """Joystick Heroes hides hands: every string a seat's compact frames carry (keys, values,
    sentences, op paths) is one its full frames carry too."""
    viewers = (0, 1, 2, None)
    for seed in range(3):
        live = _match("joystick-heroes", seed, 3)
        rng = random.Random(seed)
        told: dict[int | None, set[str]] = {s: set() for s in viewers}
        full = {s: _strings(live.viewer_state(0, s), set()) for s in viewers}
        connections = {s: Connection(live, s) for s in viewers}
        while live.version < 200 and _move(live, rng):
            for seat, connection in connections.items():
                connection.receive(live, live.version)
                frame = connection.frames[-1]
                # A packed value's only object keys are dictionary numbers: values alone.
                for part in ("d", "o", "l", "e"):
                    _strings(frame.get(part), told[seat], keys=False)
                ops = live.patch(live.version, seat)
                _strings([op["value"] for op in ops if "value" in op], full[seat])
                _strings(live.events_for(live.version, seat), full[seat])
                full[seat] |= {op["path"] for op in ops}
        assert len({id(live.words_of(seat, live.version)) for seat in viewers}) == len(viewers), (
            "a game with hidden information gives each seat a dictionary of its own"
        )
        for seat in viewers:
            said = {
                s[1:] if s[:1] in "+-#" and s[1:2] in "/#" else s  # op kinds, escaped "#"
                for s in told[seat]
                if not (s[:1] == "#" and s[1:].isdigit())  # numbers of entries
            }
            assert said - full[seat] == set(), seat


TRICKY = [
    "#",
    "#1",
    "##",
    "#12 and more",
    "plain",
    "a/b~c",
    "",
    "0",
    "x" * 9,
    "é ✓ \u2028",
]


def _tricky_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 2 or roll < 0.4:
        # No booleans beside 0 and 1: views keep each field's JSON type (app/realtime/diff.py).
        return rng.choice([*TRICKY, 0, 1, -3, 2.5, None])
    if roll < 0.7:
        return [_tricky_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(TRICKY): _tricky_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _tricky_views(seed: int, count: int) -> list[dict[str, Any]]:
    """Views of odd content (keys and strings starting with "#", empty keys, a key "0")."""
    rng = random.Random(seed)
    views, board = [], {}
    for version in range(count):
        board = dict(board)
        for _ in range(rng.randrange(1, 4)):
            board[rng.choice(TRICKY)] = _tricky_value(rng)
        legal = [{"type": "x", "to": _tricky_value(rng)} for _ in range(rng.randrange(3))]
        views.append({"version": version, "legal_moves": legal, "board": board})
    return views


def _tricky_frames(seed: int, count: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(compact frame, full frame) of each version after the first of `_tricky_views`, for one
    connection; events are odd values too."""
    views, words, known, out = _tricky_views(seed, count), compact.Words(), 0, []
    rng = random.Random(seed)
    for before, after in itertools.pairwise(views):
        ops = make_patch(before, after)
        # "__proto__" only in events: fast-json-patch refuses it in a path, either form.
        events = [{"type": "e", "text": rng.choice(TRICKY), "x": _tricky_value(rng)}]
        events.append({"__proto__": {"__proto__": _tricky_value(rng)}, "constructor": 1})
        patch = compact.compact_patch(words, after["version"], ops, after["legal_moves"], events)
        frame, known = patch.frame(known)
        out.append((_wire(frame), _wire({"ops": ops, "events": events})))
    return out


def test_odd_keys_and_strings_come_through() -> None:
    for seed in range(20):
        reader = Reader()
        state = _wire(_tricky_views(seed, 1)[0])
        for frame, full in _tricky_frames(seed, 30):
            ops, events = reader.expand(frame)
            want = jsonpatch.apply_patch(state, full["ops"])
            state = jsonpatch.apply_patch(state, ops)
            # Keys sorted: the full form's patches append a new key to an object, where the
            # compact form's `l` brings the legal moves as the server holds them.
            assert json.dumps(state, sort_keys=True) == json.dumps(want, sort_keys=True)
            assert json.dumps(events) == json.dumps(full["events"])


@pytest.mark.parametrize("game_id", ["c64-maze", "joystick-heroes"])
def test_a_waiting_match_drops_its_dictionaries_and_numbers_on(game_id: str) -> None:
    """A match that waits loses its dictionaries (kept for thousands of waiting matches they
    outgrew the server's memory); the next frames start new ones, numbered on from the old, so
    a number a client was given never comes back with another value."""
    live, connections = _play(game_id, 5, 2, 90, waits_every=PLAYED_ON + 5)
    for connection in connections:
        defined = [int(n) for f in connection.frames for n in f.get("d", {})]
        assert len(defined) == len(set(defined)), "a number was defined twice"
        renewed = [i for i, f in enumerate(connection.frames) if f.get("f")]
        assert len(renewed) >= 90 // (PLAYED_ON + 5) - 2, connection.seat
        for i in renewed:
            before = [int(n) for f in connection.frames[:i] for n in f.get("d", {})]
            after = [int(n) for f in connection.frames[i:] for n in f.get("d", {})]
            assert not before or not after or min(after) > max(before)
        # The frames of PLAYED_ON versions after a wait number nothing (their values inline);
        # then numbering starts again.
        waits = [i for i in renewed if "d" not in connection.frames[i]]
        assert waits
        for i in waits:
            inline = connection.frames[i : i + PLAYED_ON]
            assert all("d" not in f for f in inline)
            assert all(isinstance(ref, list) for f in inline for ref in f.get("o", []))
        assert any("d" in connection.frames[i] for i in renewed), "numbering never resumed"


def test_a_full_dictionary_sends_values_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compact, "MAX_WORDS", 40)
    live, connections = _play("c64-maze", 3, 2, 120)
    assert all(len(words) <= 40 for words in live.words.values())
    assert any(
        isinstance(ref, dict | list) for f in connections[0].frames for ref in f.get("o", [])
    )


NODE_CHECK = """
import { CompactReader } from "%(compact)s";
import { applyPatch } from "%(patch)s";
import { readFileSync } from "node:fs";
const lines = readFileSync(process.argv[2], "utf8").trim().split("\\n").map((l) => JSON.parse(l));
const readers = new Map(), compact = new Map(), full = new Map();
const apply = (doc, ops) => applyPatch(doc, ops, true, false).newDocument;
const sorted = (v) => Array.isArray(v) ? v.map(sorted) : v !== null && typeof v === "object"
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v;
const canonical = (v) => JSON.stringify(sorted(v));
let checked = 0;
for (const [id, kind, body] of lines) {
  if (kind === "snapshot") {
    readers.set(id, new CompactReader());
    compact.set(id, body);
    full.set(id, structuredClone(body));
    continue;
  }
  const [frame, fullFrame] = body;
  const reader = readers.get(id);
  const { ops, events } = reader.expand(frame);
  if (frame.f && reader.dictionary.size !== Object.keys(frame.d || {}).length) {
    console.log(`${id} v${frame.v}: the dictionary was not renewed`); process.exit(1);
  }
  compact.set(id, apply(compact.get(id), ops));
  full.set(id, apply(full.get(id), fullFrame.ops));
  // As JSON text: key order included (for the odd documents, keys sorted: see the test).
  const text = id.startsWith("odd/") ? canonical : JSON.stringify;
  const a = text([compact.get(id), events]);
  const b = text([full.get(id), fullFrame.events]);
  if (a !== b) { console.log(`${id} v${frame.v}: ${a}\\n  != ${b}`); process.exit(1); }
  checked += 1;
}
console.log(`ok ${checked}`);
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the browser's module")
def test_the_browser_module_rebuilds_the_same(tmp_path: Path) -> None:
    """static/js/compact.js with the vendored fast-json-patch, as socket.js uses them, beside the
    full form as socket.js applies it: the same documents (as JSON text: key order included) and
    events, sentences included, for every C64 game and more."""
    lines = []
    for number, game_id in enumerate(GAMES):
        live = _match(game_id, number, 2 if game_id != "c64-trains" else 3)
        rng = random.Random(number)
        viewers = [0, 1, None]
        told = {seat: Told() for seat in viewers}
        for seat in viewers:
            lines.append([f"{game_id}/{seat}", "snapshot", live.viewer_state(0, seat)])
        while live.version < 120 and _move(live, rng):
            v = live.version
            for seat in viewers:
                frame = told[seat].frame(live.compact_patch(v, seat))
                full = {"ops": live.patch(v, seat), "events": live.events_for(v, seat)}
                lines.append([f"{game_id}/{seat}", "p", [frame, full]])
            if number % 2 and v % 9 == 0:  # the match waits: new dictionaries (`f`)
                live.forget_views()
    for seed in range(10):
        lines.append([f"odd/{seed}", "snapshot", _tricky_views(seed, 1)[0]])
        lines += [[f"odd/{seed}", "p", list(pair)] for pair in _tricky_frames(seed, 30)]
    frames = tmp_path / "frames.jsonl"
    frames.write_bytes(b"\n".join(orjson.dumps(line) for line in lines))
    script = tmp_path / "check.mjs"
    script.write_text(
        NODE_CHECK
        % {
            "compact": (ROOT / "static/js/compact.js").as_uri(),
            "patch": (ROOT / "static/vendor/fast-json-patch/index.mjs").as_uri(),
        }
    )
    result = subprocess.run(
        ["node", str(script), str(frames)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    expected = sum(1 for line in lines if line[1] == "p")
    assert result.stdout.strip() == f"ok {expected}"


# --- over a real socket ------------------------------------------------------------------


class CompactViewer(Viewer):
    """A Viewer that asks for compact frames and expands them as the browser does."""

    def __init__(self, ws_url: str, match_id: str, token: str | None, form: int = 1) -> None:
        super().__init__(ws_url, match_id, token)
        self.form = form

    async def __aenter__(self) -> CompactViewer:
        import websockets

        self.ws = await websockets.connect(self.url, max_size=2**22)
        self.reader = Reader()
        self.events: dict[int, list[Any]] = {}
        hello: dict[str, Any] = {"type": "hello", "compact": self.form}
        if self.token:
            hello["token"] = self.token
        await self.send(hello)
        return self

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        frame = await super().recv(timeout)
        if frame["type"] == "p":
            assert frame["v"] == self.version + 1, "versions must be gapless"
            ops, events = self.reader.expand(frame)
            self.state = jsonpatch.apply_patch(self.state, ops)
            self.version = frame["v"]
            self.events[frame["v"]] = events
        return frame


async def test_compact_and_full_clients_side_by_side(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ada, bob = await guests(client, "Ada", "Bob")
        match_id = await started_match(client, [ada, bob])
    async with (
        CompactViewer(server.ws_url, match_id, ada.token) as a,
        Viewer(server.ws_url, match_id, bob.token) as b,
        CompactViewer(server.ws_url, match_id, None) as watcher,
        Viewer(server.ws_url, match_id, None) as old,
    ):
        for viewer in (a, b, watcher, old):
            await viewer.until_type("snapshot")
        for _round in range(16):
            mover = next(v for v in (a, b) if v.state["legal_moves"])
            await mover.move(mover.state["legal_moves"][-1], version=mover.version)
            await mover.until_type("ack")
            for viewer in (a, b, watcher, old):
                while viewer.version < mover.version:
                    await viewer.recv()
        assert {f["type"] for f in old.frames} >= {"snapshot", "patch"}
        assert not any(f["type"] == "p" for f in (*old.frames, *b.frames))
        assert not any(f["type"] == "patch" for f in (*a.frames, *watcher.frames))
        assert watcher.state == old.state
        full_events = {f["version"]: f["events"] for f in old.frames if f["type"] == "patch"}
        assert watcher.events == full_events
        async with httpx.AsyncClient(base_url=server.url) as client:
            fresh = (await client.get(f"/api/matches/{match_id}", headers=ada.auth)).json()["view"]
        assert a.state == fresh


def _frame_of(viewer: Viewer, version: int) -> dict[str, Any]:
    return next(
        f
        for f in viewer.frames
        if f["type"] in ("p", "patch") and f.get("v", f.get("version")) == version
    )


async def test_after_a_wait_compact_two_gets_the_full_frame(tmp_path: Path) -> None:
    """`"compact": 2` (the match page's): the version after the match waited comes as a full
    `patch` (a dictionary begun for one move costs more than it saves), and the compact frame
    after it starts a new dictionary (`f`); `"compact": 1` gets that version as a `p`, its
    values inline, starting a new dictionary."""
    server = LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'arcade.db'}", idle_views_seconds=0.2)
    server.start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            ada, bob = await guests(client, "Ada", "Bob")
            match_id = await started_match(client, [ada, bob])
        async with (
            CompactViewer(server.ws_url, match_id, ada.token, form=2) as page,
            CompactViewer(server.ws_url, match_id, bob.token, form=1) as older,
        ):
            for viewer in (page, older):
                await viewer.until_type("snapshot")

            async def move() -> int:
                mover = next(v for v in (page, older) if v.state["legal_moves"])
                await mover.move(mover.state["legal_moves"][-1], version=mover.version)
                await mover.until_type("ack")
                for viewer in (page, older):
                    while viewer.version < mover.version:
                        await viewer.recv()
                return mover.version

            await move()
            # The sweep of waiting matches runs every second: wait for one to find this match.
            for _attempt in range(40):
                await asyncio.sleep(0.5)
                after_wait = await move()
                if _frame_of(page, after_wait)["type"] == "patch":
                    break
            else:
                raise AssertionError("no move came after a wait")
            told = _frame_of(older, after_wait)
            assert told["type"] == "p" and told.get("f") == 1 and "d" not in told
            # Played on: compact frames again, the first from a new dictionary.
            for _move in range(PLAYED_ON + 6):
                version = await move()
                frame = _frame_of(page, version)
                if frame["type"] == "p":
                    assert frame.get("f") == 1
                    break
            else:
                raise AssertionError("no compact frame after the full one")
            async with httpx.AsyncClient(base_url=server.url) as client:
                for viewer, guest in ((page, ada), (older, bob)):
                    fresh = await client.get(f"/api/matches/{match_id}", headers=guest.auth)
                    assert viewer.state == fresh.json()["view"]
    finally:
        server.stop()
