"""Claims of the Tactrics rules pages' diagrams (docs/rules/tactrics-*.md), checked through
the rules modules: each caption's routers, towers, counts and turns are asserted here."""

from __future__ import annotations

from app.games.tactrics.board import TOWER_SLOTS, distances_to
from tests.rules_pages.claims import ScenarioRun, claim


def rotations(run: ScenarioRun) -> list[tuple[str, str]]:
    return [
        (event["tower"], event["direction"])
        for events in run.events
        for event in events
        if event["type"] == "rotate"
    ]


def on(run: ScenarioRun, tower: str, colour: str, index: int = -1) -> list[str]:
    """The slots of `tower` holding a router of `colour` after move `index`."""
    routers = run.states[index]["routers"]
    return [slot for slot in TOWER_SLOTS[tower] if routers.get(slot) == colour]


def turnable(run: ScenarioRun, seat: int, index: int = -1) -> set[str]:
    state = run.states[index]
    return {
        move["tower"]
        for move in run.game.legal_moves(state, seat)
        if move["type"] == "rotate" and not move.get("reserve")
    }


# --- Crossing ---------------------------------------------------------------------------------
@claim("tactrics-crossing", "tower-turning")
def one_step_of_t12_moves_its_six_slots(run: ScenarioRun) -> None:
    assert rotations(run) == [("T12", "cw")]
    before, after = run.states[0]["routers"], run.final["routers"]
    assert before.get("A3") == before.get("B4") == "red" and "B5" not in before
    assert after.get("B4") == after.get("B5") == "red" and "A3" not in after
    assert len(on(run, "T11", "red")) == 5
    # Nothing off T12 moved.
    off = {s: c for s, c in before.items() if s not in TOWER_SLOTS["T12"]}
    assert {s: c for s, c in after.items() if s not in TOWER_SLOTS["T12"]} == off


@claim("tactrics-crossing", "outnumbered")
def red_may_turn_the_tie_but_not_the_outnumbered_tower(run: ScenarioRun) -> None:
    assert on(run, "T33", "blue", 0) == ["D6", "D7"] and on(run, "T33", "red", 0) == ["C5"]
    assert on(run, "T32", "blue", 0) == ["D4"] and on(run, "T32", "red", 0) == ["C5"]
    assert "T33" not in turnable(run, 0, 0) and "T32" in turnable(run, 0, 0)
    assert rotations(run) == [("T32", "cw")]
    after = run.final["routers"]
    assert after.get("C4") == "red" and after.get("D5") == "blue"
    assert "C5" not in after and "D4" not in after


@claim("tactrics-crossing", "crossing-path")
def three_actions_hand_one_router_across_three_towers(run: ScenarioRun) -> None:
    third_turn = run.states[5]["turn"]
    assert third_turn["seat"] == 0 and third_turn["index"] == 2 and third_turn["allowed"] == 3
    assert rotations(run)[-3:] == [("T23", "cw"), ("T33", "ccw"), ("T34", "cw")]
    trail = ["B5", "C6", "C7", "D7"]
    for index, slot in enumerate(trail, start=5):
        assert run.states[index]["routers"].get(slot) == "red", (index, slot)
    for slot in trail[:-1]:
        assert slot not in run.final["routers"]
    assert run.final["turn"]["used"] == 3
    assert distances_to(TOWER_SLOTS["T53"])["D7"] == 2


@claim("tactrics-crossing", "finish")
def the_last_router_home_ends_the_game_at_once(run: ScenarioRun) -> None:
    start = run.states[0]
    assert len(on(run, "T53", "red", 0)) == 5 and start["routers"].get("E5") == "red"
    assert start["turn"]["allowed"] == 4 and start["turn"]["used"] == 0
    assert rotations(run) == [("T43", "cw")]
    assert len(on(run, "T53", "red")) == 6
    outcome = run.game.outcome(run.final)
    assert outcome is not None and outcome.winners == (0,)
    assert run.final["phase"] == "over"
