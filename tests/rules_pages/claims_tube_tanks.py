"""What the diagrams of docs/rules/tube-tanks.md claim, checked through the rules module."""

from __future__ import annotations

from typing import Any

from app.games.tube_tanks.ballistics import dice_count, distance
from app.games.tube_tanks.board import occupancy
from app.games.tube_tanks.movement import squeeze_clear
from app.games.tube_tanks.zone import parse_cell
from tests.rules_pages.claims import ScenarioRun, claim


def _tank(state: dict[str, Any], side: str, number: int) -> dict[str, Any]:
    return next(t for t in state["tanks"] if t["side"] == side and t["number"] == number)


def _event(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, f"expected one {kind!r} event, got {found}"
    return found[0]


@claim("tube-tanks", "pool-squeeze")
def pool_blocks_the_diagonal_but_not_the_way_round(run: ScenarioRun) -> None:
    state = run.final
    green_2 = _tank(state, "green", 2)
    assert green_2["cell"] == "H2"
    assert state["pools"] == ["H3", "H13"]
    assert state["turn"]["tank"] == 1 and state["turn"]["mp"] == 2  # Green 2 active, 4 left
    steps = {m["to"] for m in run.game.legal_moves(state, 0) if m["type"] == "step"}
    assert {"G2", "I2"} <= steps
    assert not steps & {"G3", "I3", "H3"}  # the pool forbids the squeeze and the entry
    # It is the pool that forbids them: without it both diagonals would be open.
    occ = occupancy(state)
    assert not squeeze_clear(occ, parse_cell("H2"), parse_cell("G3"))
    del occ[parse_cell("H3")]
    assert squeeze_clear(occ, parse_cell("H2"), parse_cell("G3"))
    assert squeeze_clear(occ, parse_cell("H2"), parse_cell("I3"))
    reach = dict(run.view["reach"])
    assert "H3" not in reach
    assert reach["G3"] == 4 and reach["I3"] == 4  # round by G2 / I2: 2 + 2


@claim("tube-tanks", "shot-dice")
def three_dice_from_distance_five_staying_put(run: ScenarioRun) -> None:
    before = run.states[-2]
    shooter, target = _tank(before, "green", 1), _tank(before, "orange", 1)
    assert shooter["cell"] == "G6" and target["cell"] == "I10"
    assert before["turn"]["steady"] and before["turn"]["mp"] == 0
    dx, dy = (abs(a - b) for a, b in zip(parse_cell("G6"), parse_cell("I10"), strict=True))
    assert (dx, dy) == (2, 4)
    assert distance(parse_cell("G6"), parse_cell("I10")) == 5
    assert dice_count(5, stationary=True, triangulating=False) == 3

    fire = _event(run.events[-1], "fire")
    assert fire["tank"] == 0 and fire["target"] == "I10" and fire["aim"] == "tank"
    assert fire["distance"] == 5 and fire["steady"] is True
    assert fire["count"] == 3 and len(fire["dice"]) == 3  # the dice the engine rolled
    assert 1 not in fire["dice"]
    assert fire["result"] == "hit" and fire["damage"] == min(fire["dice"]) == 2
    assert _tank(run.final, "orange", 1)["hp"] == 4


@claim("tube-tanks", "bolt-blocked")
def the_wall_on_f8_takes_the_hit(run: ScenarioRun) -> None:
    start = run.states[0]
    assert "F8" in start["walls"] and _tank(start, "green", 1)["cell"] == "E1"
    assert _tank(start, "orange", 2)["cell"] == "H15"
    events = run.events[-1]
    fire = _event(events, "fire")
    assert fire["tank"] == 0 and fire["target"] == "H15"
    assert fire["result"] == "hit" and fire["damage"] == 3 and 1 not in fire["dice"]
    assert _event(events, "intercepted")["cell"] == "F8"
    assert _event(events, "wall_destroyed")["cell"] == "F8"
    assert not any(e["type"] == "damage" for e in events)
    assert "F8" not in run.final["walls"]
    assert _tank(run.final, "orange", 2)["hp"] == 6


@claim("tube-tanks", "mission-2-breakthrough")
def stepping_onto_the_enemy_home_row_wins(run: ScenarioRun) -> None:
    assert run.states[0]["setup"] == "custom" and run.states[0]["rules"]["mission_2"]
    assert _tank(run.states[0], "green", 1)["cell"] == "C13"
    assert run.states[1]["outcome"] is None  # C14 is not the home row yet
    final = run.final
    assert _tank(final, "green", 1)["cell"] == "C15"
    assert final["outcome"]["winners"] == [0] and final["outcome"]["kind"] == "mission_2"
    assert all(t["hp"] == 6 and not t["destroyed"] for t in final["tanks"])
