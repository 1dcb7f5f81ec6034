"""Tank Skirmish: firing (core rules, K3-K5), destruction (K13) and the win check (K8)."""

from __future__ import annotations

import pytest
from tube_factories import (
    CORE,
    END,
    GAME,
    STAY,
    ScriptedDice,
    build,
    fire,
    of_type,
    play,
    step,
    tank_entry,
)

from app.engine.contract import IllegalMove
from app.games.tube_tanks.ballistics import dice_count, distance


def test_worked_example_distance_8_by_4_is_10():
    """Rulebook: "The active green tank is 8 spaces away from the target horizontally, and 4
    spaces vertically. The distance is 10 = 8 + 2.\""""
    assert distance((0, 0), (8, 4)) == 10
    assert distance((8, 4), (0, 0)) == 10
    assert distance((0, 0), (4, 8)) == 10


def test_distance_rounds_half_the_lower_offset_down():
    """Core rules / K4: "sum up the highest of the two plus half the lowest rounding down\""""
    assert distance((0, 0), (3, 3)) == 4
    assert distance((0, 0), (5, 1)) == 5
    assert distance((0, 0), (0, 0)) == 0


def test_worked_example_in_play_rolls_10_dice():
    """K4: the 8/4 example fired by a moving tank rolls 10 dice."""
    state = build(rules=CORE, green=("A1", "B1", "C1"), orange=("I5", "O15", "N15"))
    state, events = play(state, fire("I5"), dice=ScriptedDice(*[5] * 10))
    assert of_type(events, "fire")[0]["distance"] == 10
    assert of_type(events, "fire")[0]["count"] == 10


def test_at_most_10_dice():
    """Core rules: "rolling as many dice as the result of the calculation (with a maximum of
    10 dice)\""""
    assert dice_count(14, stationary=False, triangulating=False) == 10
    state = build(rules=CORE, green=("A1", "B1", "C1"), orange=("O15", "N15", "M15"))
    state, events = play(state, fire("O15"), dice=ScriptedDice(*[4] * 10))
    assert of_type(events, "fire")[0]["distance"] == 14 + 7
    assert len(of_type(events, "fire")[0]["dice"]) == 10


def test_below_one_die_is_an_automatic_hit_for_6():
    """Core rules: "If the number of dice goes below 1 then you automatically hit, dealing 6
    points of damage." Adjacent and stationary: 1 - 2 = -1 dice, nothing is rolled."""
    state = build(rules=CORE, green=("H7", "A1", "B1"), orange=("H8", "O15", "N15"))
    dice = ScriptedDice()
    state, events = play(state, STAY, fire("H8"), dice=dice)
    shot = of_type(events, "fire")[0]
    assert shot["count"] == -1 and shot["dice"] == [] and shot["result"] == "auto"
    assert dice.draws == 0
    assert tank_entry(state, "orange", 1)["destroyed"]


def test_one_die_is_rolled_when_the_count_is_exactly_1():
    """K4: only fewer than 1 die is automatic; 1 die is rolled."""
    state = build(rules=CORE, green=("H7", "A1", "B1"), orange=("H10", "O15", "N15"))
    state, events = play(state, STAY, fire("H10"), dice=ScriptedDice(4))
    assert of_type(events, "fire")[0]["dice"] == [4]


def test_a_1_misses():
    """Core rules: "If at least one of the dice shows a '1' then you've missed the target.\""""
    state = build(rules=CORE, green=("H5", "A1", "B1"), orange=("H10", "O15", "N15"))
    state, events = play(state, fire("H10"), dice=ScriptedDice(6, 6, 1, 6, 6))
    assert of_type(events, "fire")[0]["result"] == "miss"
    assert tank_entry(state, "orange", 1)["hp"] == 6


def test_damage_is_the_lowest_die_and_the_log_says_so():
    """Core rules: "Otherwise the target is hit for as many damage points as the lowest die
    value." The issue's log line: "Green 2 fires at Orange 1: 6 dice 3 4 2 5 4 3 - hit for 2"."""
    state = build(rules=CORE, green=("A1", "H4", "B1"), orange=("H10", "O15", "N15"), tank=2)
    state, events = play(state, fire("H10"), dice=ScriptedDice(3, 4, 2, 5, 4, 3))
    shot = of_type(events, "fire")[0]
    assert shot["text"] == "Green 2 fires at Orange 1: 6 dice 3 4 2 5 4 3 - hit for 2."
    assert shot["dice"] == [3, 4, 2, 5, 4, 3]
    assert tank_entry(state, "orange", 1)["hp"] == 4


def test_only_one_shot_per_turn():
    """Core rules: "You can only fire the cannon once per turn\""""
    state = build(rules=CORE, green=("H5", "A1", "B1"), orange=("H10", "O15", "N15"))
    state, _ = play(state, fire("H10"), dice=ScriptedDice(1, 1, 1, 1, 1))
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "fire"]
    with pytest.raises(IllegalMove, match="once per turn"):
        GAME.apply(state, 0, fire("H10"), ScriptedDice(5, 5, 5, 5, 5))


def test_firing_costs_no_movement_points():
    """Core rules: "it does not cost any of your movement points to fire\""""
    state = build(rules=CORE, green=("H5", "A1", "B1"), orange=("H10", "O15", "N15"))
    state, _ = play(state, fire("H10"), dice=ScriptedDice(1, 1, 1, 1, 1))
    assert state["turn"]["mp"] == 0
    state, _ = play(state, step("H6"), step("H7"), step("H8"))
    assert state["turn"]["mp"] == 6


def test_core_targets_are_enemy_units_only():
    """K5: core rules: an enemy unit; never your own unit."""
    state = build(rules=CORE)
    targets = {m["target"] for m in GAME.legal_moves(state, 0) if m["type"] == "fire"}
    assert targets == {"K15", "H15", "E15"}


def test_target_anything_adds_empty_floor_and_walls_but_not_pools_gaps_or_own_units():
    """K5 with Target Anything: "also any board cell (empty floor or wall)"."""
    state = build(
        rules={**CORE, "target_anything": True}, walls=("D5",), pools=("C6",), gaps=("F9",)
    )
    targets = {m["target"] for m in GAME.legal_moves(state, 0) if m["type"] == "fire"}
    assert {"K15", "D5", "A2", "O14"} <= targets
    assert not {"C6", "F9", "E1", "H1", "K1"} & targets
    assert len(targets) == 225 - 1 - 1 - 3  # every cell but the pool, the gap, green's tanks


def test_hit_below_1_hit_point_destroys_and_removes_the_tank():
    """Core rules: "If the damage disc goes below 1 the unit is destroyed and removed from the
    game"; K13 default: removed."""
    state = build(
        rules=CORE, green=("H5", "A1", "B1"), orange=("H10", "O15", "N15"), hp={("orange", 1): 2}
    )
    state, events = play(state, fire("H10"), dice=ScriptedDice(3, 3, 3, 3, 3))
    orange1 = tank_entry(state, "orange", 1)
    assert orange1["destroyed"] and orange1["cell"] is None
    assert of_type(events, "destroyed")


def test_wrecks_option_keeps_the_destroyed_tank_as_an_obstacle():
    """K13: option "wrecks": destroyed units stay as obstacles (K2: not enterable)."""
    state = build(
        rules={**CORE, "wrecks": True},
        green=("H8", "A1", "B1"),
        orange=("H10", "O15", "N15"),
        hp={("orange", 1): 1},
    )
    state, _ = play(state, fire("H10"), dice=ScriptedDice(2, 2))
    assert tank_entry(state, "orange", 1)["cell"] == "H10"
    state, _ = play(state, step("H9"))
    assert "H10" not in {m.get("to") for m in GAME.legal_moves(state, 0)}
    targets = {m.get("target") for m in GAME.legal_moves(state, 0)}
    assert "H10" not in targets


def test_destroying_the_last_enemy_wins():
    """Core rules: "If, at the end of your turn, all enemy units have been destroyed then
    you've won the battle"; K8: nothing can change in between, so it ends at once."""
    state = build(
        rules=CORE, green=("H5", "A1", "B1"), orange=("H10", None, None), hp={("orange", 1): 1}
    )
    state, events = play(state, fire("H10"), dice=ScriptedDice(2, 2, 2, 2, 2))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert GAME.legal_moves(state, 0) == [] and GAME.active_seats(state) == frozenset()
    assert of_type(events, "game_over")


def test_turn_passes_after_end():
    """Core rules: "After taking your actions, move your activation disc to the next unit"."""
    state = build(rules=CORE)
    state, _ = play(state, END)
    assert state["turn"]["seat"] == 1 and state["active"][0] == 1
