"""Claims of the Tactrics rules pages' diagrams (docs/rules/tactrics-*.md), checked through
the rules modules: each caption's routers, towers, counts and turns are asserted here."""

from __future__ import annotations

from app.games.tactrics.board import SLOT_NEIGHBOURS, SLOT_TOWERS, TOWER_SLOTS, distances_to
from app.games.tactrics.cat_mouse import cats_on, mouse_slot, mouse_towers
from app.games.tactrics.solitary import placed_right
from app.games.tactrics.turns import colour_counts
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


# --- Crossing Advanced ------------------------------------------------------------------------
@claim("tactrics-crossing-advanced", "controller-rides")
def a_controller_rides_on_its_router(run: ScenarioRun) -> None:
    before = run.states[-2]
    assert before["controllers"] == {"A1": 0, "A3": 0, "F7": 1, "E6": 1}
    assert rotations(run) == [("T12", "cw")]
    after = run.final
    assert after["routers"].get("B4") == "red" and after["controllers"].get("B4") == 0
    assert after["controllers"].get("A1") == 0 and "A3" not in after["controllers"]
    assert "A1" not in TOWER_SLOTS["T12"]


@claim("tactrics-crossing-advanced", "controller-walk")
def a_controller_walks_along_touching_routers(run: ScenarioRun) -> None:
    before, after = run.states[-2], run.final
    assert run.final["turn"]["used"] == 1
    assert before["controllers"].get("A1") == 0 and before["controllers"].get("B4") == 0
    assert "A1" not in after["controllers"] and after["controllers"].get("B5") == 0
    path = ["A1", "B2", "B3", "B4", "B5"]
    assert all(before["routers"].get(slot) == "red" for slot in path)
    assert all(b in SLOT_NEIGHBOURS[a] for a, b in zip(path, path[1:], strict=False))
    assert after["controllers"].get("B4") == 0  # the other controller is still there


@claim("tactrics-crossing-advanced", "claim")
def a_claimed_tower_turns_only_for_its_claimant(run: ScenarioRun) -> None:
    before, after = run.states[-2], run.final
    assert colour_counts(before, "T23") == {"red": 1} and before["controllers"].get("B5") == 0
    assert after["claims"] == {"T23": 0} and "B5" not in after["controllers"]
    # Blue with more routers on T23 than red still may not turn it: red claimed it.
    crowded = {**after, "routers": {**after["routers"], "C7": "blue", "C8": "blue"}}
    assert colour_counts(crowded, "T23") == {"red": 1, "blue": 2}
    assert run.game.rotation_kind(crowded, 1, "T23") is None
    assert run.game.rotation_kind({**crowded, "claims": {}}, 1, "T23") == "normal"


# --- Cat & Mouse ------------------------------------------------------------------------------
def mouse_trail(run: ScenarioRun) -> list[str]:
    trail: list[str] = []
    for state in run.states:
        if not trail or trail[-1] != mouse_slot(state):
            trail.append(mouse_slot(state))
    return trail


def cats(state: dict) -> set[str]:
    return {slot for slot, colour in state["routers"].items() if colour == "black"}


MOUSE_RUN = [("T12", "cw")] * 3 + [("T22", "ccw"), ("T23", "cw"), ("T33", "ccw"), ("T43", "cw")]


@claim("tactrics-cat-mouse", "mouse-pushes-a-cat")
def turning_a_tower_with_one_cat_ends_the_mouse_run(run: ScenarioRun) -> None:
    assert rotations(run) == MOUSE_RUN
    assert mouse_trail(run) == ["A4", "A3", "B4", "B5", "C6", "C7", "D7", "D6"]
    assert all(state["turn"]["seat"] == 0 for state in run.states)  # one turn
    assert cats_on(run.states[-2], "T43") == 1
    assert cats(run.states[-2]) - cats(run.final) == {"E6"}
    assert cats(run.final) - cats(run.states[-2]) == {"E7"}
    assert run.final["turn"]["locked"]
    left = run.game.legal_moves(run.final, 0)
    assert not [move for move in left if move["type"] == "rotate"]


@claim("tactrics-cat-mouse", "no-turning-back")
def the_cats_may_not_reverse_the_mouse(run: ScenarioRun) -> None:
    cats_turn = run.states[-2]
    assert cats_turn["turn"]["seat"] == 1 and cats_turn["mouse_last"] == ["T43", "cw"]
    offered = {
        (m["tower"], m["direction"])
        for m in run.game.legal_moves(cats_turn, 1)
        if m["type"] == "rotate"
    }
    assert ("T43", "ccw") not in offered and ("T43", "cw") in offered
    assert rotations(run)[-1] == ("T52", "ccw")
    assert cats(cats_turn) - cats(run.final) == {"E4"}
    assert cats(run.final) - cats(cats_turn) == {"E5"}
    assert cats_on(run.final, "T43") == 2 and {"E5", "E7"} <= cats(run.final)
    assert "T43" not in mouse_towers(run.final)


@claim("tactrics-cat-mouse", "cornered")
def two_cats_on_the_mouse_only_tower_win(run: ScenarioRun) -> None:
    start = run.states[0]
    assert mouse_slot(start) == "A4" and SLOT_TOWERS["A4"] == ("T12",)
    assert cats_on(start, "T12") == 1 and "B6" in cats(start)
    assert rotations(run) == [("T23", "cw")]
    assert {"B5", "B6"} <= cats(run.final) and "B7" not in cats(run.final)
    assert cats_on(run.final, "T12") == 2
    outcome = run.game.outcome(run.final)
    assert outcome is not None and outcome.winners == (1,)


# --- Solitary ---------------------------------------------------------------------------------
@claim("tactrics-solitary", "targets")
def one_rotation_brings_a_red_router_home(run: ScenarioRun) -> None:
    start, after = run.states[0], run.final
    assert start["targets"] == {"red": "T11", "yellow": "T31", "blue": "T51"}
    assert len(start["routers"]) == 18
    home = [(s, c) for s, c in start["routers"].items() if s in TOWER_SLOTS[start["targets"][c]]]
    assert sorted(home) == [("C3", "yellow"), ("E3", "blue")]
    assert rotations(run) == [("T12", "ccw")]
    assert start["routers"].get("B5") == "red" and after["routers"].get("B4") == "red"
    assert "B4" in TOWER_SLOTS["T11"]
    assert placed_right(after) == 3 and after["rotations"] == 1


@claim("tactrics-solitary", "solved")
def the_last_router_home_solves_the_puzzle(run: ScenarioRun) -> None:
    start, after = run.states[0], run.final
    assert start["targets"] == {"red": "T11"} and start["rotations"] == 23
    reds = {s for s, c in start["routers"].items() if c == "red"}
    assert len(reds) == 6 and reds - set(TOWER_SLOTS["T11"]) == {"B1"}
    assert rotations(run) == [("T21", "ccw")]
    assert {s for s in after["routers"]} == set(TOWER_SLOTS["T11"])
    outcome = run.game.outcome(after)
    assert outcome is not None and outcome.scores == {0: 24}
    assert start["phase"] == "play" and after["phase"] == "over"


@claim("tactrics-crossing-advanced", "capture")
def a_capture_sends_the_claim_back_where_the_captor_chooses(run: ScenarioRun) -> None:
    before, after = run.states[0], run.final
    assert before["claims"] == {"T33": 1}
    assert colour_counts(before, "T33") == {"red": 3, "blue": 1}
    assert on(run, "T33", "red", 0) == ["D6", "C6", "C5"] and on(run, "T33", "blue", 0) == ["D7"]
    assert before["controllers"].get("C5") == 0
    assert after["claims"] == {"T33": 0}
    assert "C5" not in after["controllers"]
    assert after["controllers"].get("F6") == 1 and after["routers"].get("F6") == "blue"
    choices = {
        move["to"]
        for move in run.game.legal_moves(before, 0)
        if move["type"] == "claim" and move["tower"] == "T33"
    }
    assert "F6" in choices and len(choices) > 1  # red had a choice


@claim("tactrics-solitary", "clustered")
def the_clustered_homes_cover_the_centre(run: ScenarioRun) -> None:
    start = run.states[0]
    assert start["targets"] == {"red": "T22", "yellow": "T34", "blue": "T42"}
    homes = [set(TOWER_SLOTS[tower]) for tower in start["targets"].values()]
    assert sum(len(home) for home in homes) == 18 and len(set().union(*homes)) == 18
    assert set(TOWER_SLOTS["T33"]) <= set().union(*homes)
    assert all(home & set(TOWER_SLOTS["T33"]) for home in homes)
    assert rotations(run) == [("T33", "cw")]
    assert start["routers"].get("D6") == "yellow" and start["routers"].get("C5") == "blue"
    after = run.final
    assert after["routers"].get("D7") == "yellow" and "D7" in TOWER_SLOTS["T34"]
    assert after["routers"].get("D5") == "blue" and "D5" in TOWER_SLOTS["T42"]
    assert placed_right(start) == 3 and placed_right(after) == 5
