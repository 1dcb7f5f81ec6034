"""Bytes per player per move of the match socket's patch frames, full form and compact form.

Plays long seeded random matches (two players, each move a random legal move of a random seat
to move) through the server's own frame code: LiveMatch.patch / events_for (the full `patch`
frame that app/realtime/socket.py sends) and LiveMatch.compact_patch + CompactPatch.frame (the
compact `p` frame, one simulated connection per seat, from the first move to the last). Each
frame is measured as the uncompressed JSON the socket sends (orjson), and split by part. Every
compact frame is also expanded the way the browser does and checked against the full frame.

    .venv/bin/python bench/frames.py                      # C64 Maze, 5 matches
    .venv/bin/python bench/frames.py --game tube-tanks --matches 3
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import jsonpatch
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.dice import Dice  # noqa: E402
from app.engine.registry import get_game  # noqa: E402
from app.engine.runtime import LiveMatch  # noqa: E402
from app.realtime.compact import Reader  # noqa: E402


def size(value: Any) -> int:
    return len(orjson.dumps(value))


def new_match(game_id: str, seed: str, players: int) -> LiveMatch:
    game = get_game(game_id)
    assert game is not None, f"no game {game_id!r}"
    return LiveMatch.in_memory(game, seed, players)


def play_one(live: LiveMatch, rng: random.Random) -> bool:
    """One random legal move (as MatchRuntime._advance makes it); False when the match is over."""
    game = live.game
    active = sorted(game.active_seats(live.state))
    if live.outcome is not None or not active:
        return False
    seat = rng.choice(active)
    move = rng.choice(live.legal(live.version, seat))
    version = live.version + 1
    state, events = game.apply(live.state, seat, move, Dice(live.seed, version))
    live.state, live.version = state, version
    live.outcome = game.outcome(state)
    live.status = "finished" if live.outcome is not None else "active"
    live.remember(version, state, events)
    return True


def full_parts(frame: dict[str, Any]) -> Counter[str]:
    parts: Counter[str] = Counter()
    parts["total"] = size(frame)
    for op in frame["ops"]:
        path = op["path"]
        part = (
            "ops: board"
            if path.startswith("/board")
            else "ops: legal_moves"
            if path.startswith("/legal_moves")
            else "ops: version"
            if path == "/version"
            else "ops: rest of the view"
        )
        parts[part] += size(op) + 1
    for event in frame["events"]:
        parts["events (text)"] += size(event.get("text", "")) + len('"text":,')
        parts["events (data)"] += size(event) + 1 - size(event.get("text", "")) - len('"text":,')
    parts["envelope"] = parts["total"] - sum(v for k, v in parts.items() if k != "total")
    return parts


def compact_parts(frame: dict[str, Any]) -> Counter[str]:
    parts: Counter[str] = Counter()
    parts["total"] = size(frame)
    used_by = {
        ref: name
        for name, key in (("ops", "o"), ("legal moves", "l"), ("events", "e"))
        for ref in frame.get(key, [])
        if isinstance(ref, int)
    }
    for number, value in frame.get("d", {}).items():
        kind = used_by.get(int(number)) or (
            "strings (sentences, paths...)"
            if isinstance(value, str)
            else "nested objects"
            if isinstance(value, dict)
            else "key lists"
        )
        parts[f"definitions: {kind}"] += size(number) + size(value) + 2
    for name, key in (("ops", "o"), ("legal moves", "l"), ("events", "e")):
        if key in frame:
            parts[f"{name} (numbers or inline)"] += size(frame[key]) + len('"o":,')
    parts["envelope"] = parts["total"] - sum(v for k, v in parts.items() if k != "total")
    return parts


def run(game_id: str, matches: int, players: int, max_moves: int, check: bool) -> None:
    full: Counter[str] = Counter()
    compact: Counter[str] = Counter()
    frames = moves = 0
    cpu_full = cpu_compact = 0.0
    each: list[tuple[int, float, float]] = []  # per match: moves, full and compact B/player/move
    started = time.perf_counter()
    for m in range(matches):
        live = new_match(game_id, f"frames-{m}", players)
        rng = random.Random(m)
        seats = list(range(players))
        known = dict.fromkeys(seats, 0)
        readers = {seat: Reader() for seat in seats}
        states = {seat: live.viewer_state(0, seat) for seat in seats}
        before = (frames, full["total"], compact["total"])
        while live.version < max_moves and play_one(live, rng):
            moves += 1
            v = live.version
            for seat in seats:
                t0 = time.perf_counter()
                full_frame = {
                    "type": "patch",
                    "version": v,
                    "ops": live.patch(v, seat),
                    "events": live.events_for(v, seat),
                }
                full_text = orjson.dumps(full_frame)
                t1 = time.perf_counter()
                compact_frame, known[seat] = live.compact_patch(v, seat).frame(known[seat])
                compact_text = orjson.dumps(compact_frame)
                t2 = time.perf_counter()
                cpu_full += t1 - t0
                cpu_compact += t2 - t1
                frames += 1
                full += full_parts(orjson.loads(full_text))
                wire = orjson.loads(compact_text)  # as the client reads it
                compact += compact_parts(wire)
                ops, events = readers[seat].expand(wire)
                if check:
                    states[seat] = jsonpatch.apply_patch(states[seat], ops)
                    assert states[seat] == live.viewer_state(v, seat), (game_id, v, seat)
                    assert events == full_frame["events"], (game_id, v, seat)
        n = max(frames - before[0], 1)
        each.append(
            (live.version, (full["total"] - before[1]) / n, (compact["total"] - before[2]) / n)
        )
    elapsed = time.perf_counter() - started
    per = frames or 1
    print(
        f"{game_id}: {matches} matches, {moves} moves, {players} players; "
        f"cpus {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}; {elapsed:.1f} s"
    )
    for title, parts in (("full form (type patch)", full), ("compact form (type p)", compact)):
        print(f"  {title}: {parts['total'] / per:7.1f} B per player per move")
        for name, total in sorted(parts.items(), key=lambda item: -item[1]):
            if name != "total":
                print(f"      {name:<42} {total / per:7.1f}")
    print(f"  compact / full: {compact['total'] / max(full['total'], 1):.3f}")
    full_us, compact_us = (cpu / max(moves, 1) * 1e6 for cpu in (cpu_full, cpu_compact))
    print(
        f"  CPU per move, all seats: full frames {full_us:.0f} us (views, JSON Patch, events, "
        f"dumps); compact on top {compact_us:.0f} us (packing, numbering, frame, dumps)"
    )
    print("  each match (moves: full -> compact B/player/move):")
    print("    " + "; ".join(f"{n}: {f:.0f} -> {c:.0f}" for n, f, c in each))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="c64-maze")
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--max-moves", type=int, default=5000, help="per match")
    parser.add_argument(
        "--no-check", action="store_true", help="skip checking each compact frame against the full"
    )
    args = parser.parse_args()
    run(args.game, args.matches, args.players, args.max_moves, not args.no_check)


if __name__ == "__main__":
    main()
