"""Tank Skirmish: invariants of every reachable state (hypothesis drives seeded random games
with random rule sets), and a golden playthrough whose log must not change silently."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tube_factories import GAME

from app.engine.dice import Dice
from app.games.tube_tanks.options import RULE_FLAGS
from app.games.tube_tanks.zone import parse_cell

GOLDEN = Path(__file__).parent / "golden" / "setup-b-all-rules.json"


def check(state):
    """K2 and the damage track: tanks stand only on floor, one per cell, 0-6 hit points."""
    terrain = {*state["walls"], *state["pools"], *state["gaps"]}
    cells = [t["cell"] for t in state["tanks"] if t["cell"] is not None]
    assert len(cells) == len(set(cells)), "two units on one cell"
    assert not terrain & set(cells), "a unit on a wall, pool or gap"
    assert len(terrain) == len(state["walls"]) + len(state["pools"]) + len(state["gaps"])
    for tank in state["tanks"]:
        assert 0 <= tank["hp"] <= 6
        assert tank["destroyed"] == (tank["hp"] == 0)
        if tank["destroyed"] and not state["rules"]["wrecks"]:
            assert tank["cell"] is None
        if tank["cell"] is not None:
            parse_cell(tank["cell"])
    assert 0 <= state["turn"]["mp"] <= 6


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fixed_dictionaries({flag: st.booleans() for flag in RULE_FLAGS}),
    st.sampled_from(["A", "B"]),
    st.integers(0, 10_000),
)
def test_random_play_keeps_the_invariants(rules, setup, seed):
    """Random legal play under any rule set never breaks the board's invariants."""
    chooser = random.Random(seed)
    state = GAME.setup(2, GAME.parse_options({"setup": setup, **rules}), Dice(str(seed), 0))
    check(state)
    for number in range(1, 120):
        if GAME.outcome(state) is not None:
            break
        seat = next(iter(GAME.active_seats(state)))
        moves = GAME.legal_moves(state, seat)
        assert moves and {"type": "end"} in moves
        state, _events = GAME.apply(state, seat, chooser.choice(moves), Dice(str(seed), number))
        check(state)


def golden_log() -> list[list[str]]:
    chooser = random.Random(7)
    options = GAME.parse_options({"setup": "B"})
    state = GAME.setup(2, options, Dice("golden", 0))
    log = []
    for number in range(1, 61):
        seat = next(iter(GAME.active_seats(state)))
        moves = GAME.legal_moves(state, seat)
        fights = [m for m in moves if m["type"] in ("fire", "step", "ram", "end")]
        state, events = GAME.apply(state, seat, chooser.choice(fights), Dice("golden", number))
        log.append([event["text"] for event in events])
        if GAME.outcome(state) is not None:
            break
    return log


def test_golden_playthrough_is_unchanged():
    """A seeded game on setup B with every rule: a rules change shows here as a diff (to
    accept one, delete the golden file and run this test once)."""
    log = golden_log()
    if not GOLDEN.exists():
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(log, indent=1) + "\n")
    assert log == json.loads(GOLDEN.read_text())
