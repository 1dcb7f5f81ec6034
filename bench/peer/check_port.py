"""Checks the boardgame.io port of C64 Maze (bench/peer/boardgameio/rules.js) against our rules
module: the same seeded games, the same random picks of mover and move, through both; every
step's active seats, legal moves of every seat, view (board, joysticks, walls, squares) and
event texts must be equal, and so must the final state. check.js also plays each game through
boardgame.io itself (its Client with game.js) and checks at every step that its G is the rules'
state and that it lets exactly the rules' active seats move.

    .venv/bin/python bench/peer/check_port.py --games 200 --moves 400

Needs node and `npm ci` in bench/peer/boardgameio. Exits 1 on the first difference, printing it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from app.engine.dice import Dice
from app.games.c64.maze import Maze

HERE = Path(__file__).resolve().parent / "boardgameio"


def play_python(seed: str, players: int, picks: list[list[int]]) -> dict[str, Any]:
    game = Maze()
    options = game.Options()
    state = game.setup(players, options, Dice(seed, 0))
    setup_view = game.view(state, None)
    steps = []
    for number, (seat_pick, move_pick) in enumerate(picks, start=1):
        active = sorted(game.active_seats(state))
        if not active:
            break
        seat = active[seat_pick % len(active)]
        legal = game.legal_moves(state, seat)
        move = legal[move_pick % len(legal)]
        state, events = game.apply(state, seat, move, Dice(seed, number))
        steps.append(
            {
                "active": active,
                "seat": seat,
                "move": move,
                "choices": len(legal),
                "legal": [game.legal_moves(state, s) for s in range(players)],
                "view": game.view(state, seat),
                "events": events,
            }
        )
    return {"setup": setup_view, "steps": steps, "state": state}


def first_difference(a: Any, b: Any, where: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{where}/{key}: only in {'python' if key in a else 'node'}"
            found = first_difference(a[key], b[key], f"{where}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items in python, {len(b)} in node"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{where}/{i}")
            if found:
                return found
        return None
    if a != b or type(a) is not type(b):
        return f"{where}: python {a!r}, node {b!r}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=400, help="at most this many per game")
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = [
        {
            "seed": f"check-{args.seed}-{i}",
            "players": 2 if i % 4 else rng.choice((2, 3, 4)),
            "picks": [[rng.randrange(1 << 30), rng.randrange(1 << 30)] for _ in range(args.moves)],
        }
        for i in range(args.games)
    ]
    node = subprocess.run(
        ["node", "check.js"],
        cwd=HERE,
        env={**os.environ, "NODE_ENV": "production"},
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=False,
    )
    if node.returncode != 0:  # check.js stops at boardgame.io's first disagreement
        print(f"DIFFERENT in boardgame.io's flow:\n{node.stderr.strip()}")
        sys.exit(1)
    results = json.loads(node.stdout)
    moves = legal_total = finished = 0
    for case, theirs in zip(cases, results, strict=True):
        ours = json.loads(json.dumps(play_python(case["seed"], case["players"], case["picks"])))
        found = first_difference(ours, theirs)
        if found:
            print(f"DIFFERENT in game {case['seed']} ({case['players']} players): {found}")
            sys.exit(1)
        moves += len(ours["steps"])
        legal_total += sum(step["choices"] for step in ours["steps"])
        finished += ours["state"]["phase"] == "over"
    print(
        f"{len(cases)} games, {moves} moves, {legal_total} legal moves offered, {finished} "
        "won: python and node agree on every step (active seats, every seat's legal moves, "
        "view, events) and on the final states, and boardgame.io's own flow kept the same "
        "state and let the same seats move"
    )


if __name__ == "__main__":
    main()
