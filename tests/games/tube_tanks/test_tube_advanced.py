"""Tank Skirmish advanced rules: Collateral Damage (K6), Floor and Wall Destruction, Blast
(K8), Stun (K9), Triangulation (K10), Energy Bolts (K7), Repair (K11), Collision (K12)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tube_factories import CORE, END, GAME, STAY, ScriptedDice, build, fire, of_type, play, step
from tube_factories import tank_entry as tank

from app.engine.contract import IllegalMove
from app.games.tube_tanks.ballistics import bolt_path, collateral, collateral_landing
from app.games.tube_tanks.zone import COMPASS, parse_cell

COLLATERAL = {**CORE, "collateral_damage": True}


def with_rules(**flags):
    return {**CORE, **flags}


# --- Collateral Damage (K6) ----------------------------------------------------------------
def test_collateral_drops_1s_and_6s_and_cancels_pairs_adding_to_7():
    """K6: "drop all 1s and 6s; remove pairs 2+5 (min(#2, #5) of each) and 3+4\""""
    assert collateral([1, 6, 3, 4, 2, 5, 3, 3, 2, 1]) == {2: 1, 3: 2}
    assert collateral([1, 2, 5, 3, 4]) == {}
    assert collateral([1, 5, 5, 2]) == {5: 1}


def test_compass_opposite_values_sum_to_7():
    """K6 compass: 2 = north, 5 = south, 3 = west, 4 = east; pairs adding to 7 cancel."""
    assert COMPASS == {2: (0, 1), 5: (0, -1), 3: (-1, 0), 4: (1, 0)}


def test_worked_example_two_3s_and_a_2_land_two_left_one_up():
    """Rulebook: "there are two 3s and one 2 remaining ... the rocket lands two spaces to the
    left (because of the two 3s) and one space up (because of the 2)". The shot at green on
    E5 lands on C6, where another green tank takes 1 damage."""
    assert collateral_landing((4, 4), {2: 1, 3: 2}) == (2, 5)
    state = build(
        rules=COLLATERAL, seat=1, tank=1, green=("E5", "C6", "A1"), orange=("O15", "N15", "M15")
    )
    faces = (1, 6, 3, 4, 2, 5, 3, 3, 2, 1)
    state, events = play(state, fire("E5"), dice=ScriptedDice(*faces))
    assert of_type(events, "fire")[0]["count"] == 10
    assert of_type(events, "collateral")[0]["landing"] == [2, 5]
    assert tank(state, "green", 2)["hp"] == 5
    assert tank(state, "green", 1)["hp"] == 6


def test_glancing_blow_when_every_die_cancels():
    """K6: "if nothing is left the declared target takes 1 damage\""""
    state = build(rules=COLLATERAL, green=("H5", "A1", "B1"), orange=("H9", "O15", "N15"))
    state, events = play(state, fire("H9"), dice=ScriptedDice(1, 2, 5, 6))
    assert of_type(events, "collateral")[0]["remaining"] == {}
    assert tank(state, "orange", 1)["hp"] == 5


def test_glancing_blow_on_a_targeted_cell_does_nothing():
    """K6: "(a targeted cell gets nothing)\""""
    rules = with_rules(collateral_damage=True, target_anything=True, floor_destruction=True)
    state = build(rules=rules, green=("H5", "A1", "B1"))
    state, _ = play(state, fire("H9"), dice=ScriptedDice(1, 3, 4, 6))
    assert state["gaps"] == []


def test_collateral_can_hit_your_own_unit():
    """K6: "a unit takes 1 damage (either side)"; rulebook: "(even if it is yours!)"."""
    state = build(rules=COLLATERAL, green=("H5", "H10", "B1"), orange=("H9", "O15", "N15"))
    state, _ = play(state, fire("H9"), dice=ScriptedDice(1, 2, 6, 6))  # one 2: one north
    assert tank(state, "green", 2)["hp"] == 5


def test_collateral_landing_on_empty_floor_makes_a_gap():
    """K6 + Floor Destruction: "If, during play, a rocket hits an empty space, then place a
    Destroyed Floor card on it"."""
    state = build(
        rules=with_rules(collateral_damage=True, floor_destruction=True),
        green=("H5", "A1", "B1"),
        orange=("H9", "O15", "N15"),
    )
    state, _ = play(state, fire("H9"), dice=ScriptedDice(1, 4, 4, 6))  # two east: J9
    assert state["gaps"] == ["J9"]
    state, _ = play(state, END)
    assert "J9" not in {m.get("to") for m in GAME.legal_moves(state, 1)}


def test_collateral_landing_on_a_wall_removes_it():
    """K6 + Wall Destruction: "If the rocket hits a wall, remove the wall.\""""
    state = build(
        rules=with_rules(collateral_damage=True, wall_destruction=True),
        walls=("G9",),
        green=("H5", "A1", "B1"),
        orange=("H9", "O15", "N15"),
    )
    state, events = play(state, fire("H9"), dice=ScriptedDice(1, 3, 6, 6))
    assert state["walls"] == [] and state["walls_destroyed"] == [1, 0]
    assert of_type(events, "wall_destroyed")


@pytest.mark.parametrize("where", ["pool", "gap", "off"])
def test_collateral_on_pool_gap_or_off_board_does_nothing(where):
    """K6: "an Energy Pool, a gap or off-board: nothing"; "Energy pools can't be destroyed"."""
    rules = with_rules(
        collateral_damage=True, floor_destruction=True, wall_destruction=True, blast=True
    )
    extra = {"pool": {"pools": ("I15",)}, "gap": {"gaps": ("I15",)}, "off": {}}[where]
    orange = ("O14", "N14", "M14") if where == "off" else ("H15", "N14", "M14")
    target = "O14" if where == "off" else "H15"
    state = build(rules=rules, green=("H5", "A1", "B1"), orange=orange, **extra)
    before = {k: state[k] for k in ("walls", "pools", "gaps")}
    faces = (1, 4, 4, 2) if where == "off" else (1, 4, 6, 6)
    state, _ = play(state, fire(target), dice=ScriptedDice(*faces, *[6] * 6))
    assert {k: state[k] for k in ("walls", "pools", "gaps")} == before
    assert all(t["hp"] == 6 for t in state["tanks"])


def test_without_collateral_a_miss_does_nothing():
    """Core rules: a miss is a miss (Collateral Damage off)."""
    state = build(rules=CORE, green=("H5", "A1", "B1"), orange=("H9", "O15", "N15"))
    state, events = play(state, fire("H9"), dice=ScriptedDice(1, 2, 5, 6))
    assert all(t["hp"] == 6 for t in state["tanks"]) and of_type(events, "missed")


# --- Blast (K8) ------------------------------------------------------------------------------
def test_blast_after_a_6_damage_hit_damages_all_8_neighbours():
    """K8 / Blast: "Whenever a unit is hit with 6 points of damage ... all orthogonally and
    diagonally adjacent units receive 1 point of damage." (including your own)."""
    state = build(
        rules=with_rules(blast=True), green=("H3", "G9", "I10"), orange=("H9", "H10", "O15")
    )
    state, events = play(state, fire("H9"), dice=ScriptedDice(*[6] * 6))
    assert tank(state, "orange", 1)["destroyed"]
    assert tank(state, "orange", 2)["hp"] == 5
    assert tank(state, "green", 2)["hp"] == 5 and tank(state, "green", 3)["hp"] == 5
    assert tank(state, "green", 1)["hp"] == 6 and tank(state, "orange", 3)["hp"] == 6
    assert len(of_type(events, "blast")) == 1


def test_automatic_hit_counts_as_6_damage_for_blast():
    """K4: the automatic hit "counts as 'hit with 6 points' for Blast"."""
    state = build(
        rules=with_rules(blast=True), green=("H8", "A1", "B1"), orange=("H9", "I10", "O15")
    )
    state, _ = play(state, STAY, fire("H9"))
    assert tank(state, "orange", 2)["hp"] == 5 and tank(state, "green", 1)["hp"] == 5


def test_a_hit_for_less_than_6_does_not_blast():
    """K8: only a 6-damage hit (or a destroyed floor or wall) sets off a Blast."""
    state = build(
        rules=with_rules(blast=True), green=("H3", "A1", "B1"), orange=("H9", "H10", "O15")
    )
    state, events = play(state, fire("H9"), dice=ScriptedDice(5, 6, 6, 6, 6, 6))
    assert not of_type(events, "blast") and tank(state, "orange", 2)["hp"] == 6


def test_destroyed_floor_and_wall_blast():
    """K8: a floor cell or wall destroyed sets off a Blast on its neighbours."""
    rules = with_rules(
        blast=True, target_anything=True, floor_destruction=True, wall_destruction=True
    )
    state = build(
        rules=rules, walls=("D10",), green=("H3", "A1", "B1"), orange=("H10", "E11", "O15")
    )
    state, _ = play(state, fire("H9"), dice=ScriptedDice(*[3] * 6))
    assert state["gaps"] == ["H9"] and tank(state, "orange", 1)["hp"] == 5
    state["turn"]["fired"] = False
    state, _ = play(state, fire("D10"), dice=ScriptedDice(*[3] * 10))
    assert state["walls"] == [] and tank(state, "orange", 2)["hp"] == 5


def test_blast_damage_never_sets_off_another_blast():
    """K8: "Blast damage never triggers another Blast"."""
    state = build(
        rules=with_rules(blast=True),
        green=("H3", "A1", "B1"),
        orange=("H9", "H10", "O15"),
        hp={("orange", 2): 1},
    )
    state, events = play(state, fire("H9"), dice=ScriptedDice(*[6] * 6))
    assert tank(state, "orange", 2)["destroyed"]
    assert len(of_type(events, "blast")) == 1


def test_everything_destroyed_by_a_blast_is_a_tie():
    """Blast: "If all the remaining units are destroyed as a result of this blast, the game
    ends in a tie." (K8)."""
    state = build(
        rules=with_rules(blast=True),
        green=("H8", None, None),
        orange=("H9", None, None),
        hp={("green", 1): 1},
    )
    state, _ = play(state, STAY, fire("H9"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1)
    assert "tie" in outcome.reason


# --- Stun (K9) -------------------------------------------------------------------------------
def test_hit_for_more_than_3_stuns_and_the_next_activation_only_recovers():
    """Stun / K9: "Whenever a unit is hit with more than 3 points of damage ... it is stunned";
    it "spends its next activation only recovering: no move, no shot, no repair"."""
    state = build(
        rules=with_rules(stun=True), green=("H3", "A1", "B1"), orange=("H9", "O15", "N15")
    )
    state, events = play(state, fire("H9"), dice=ScriptedDice(4, 5, 4, 6, 4, 5))
    assert tank(state, "orange", 1)["stunned"] and of_type(events, "stunned")
    state, events = play(state, END)  # orange 1 would be next: it recovers instead
    assert of_type(events, "recover")
    assert not tank(state, "orange", 1)["stunned"]
    current = state["tanks"][state["turn"]["tank"]]
    assert (current["side"], current["number"]) == ("green", 2)


def test_hit_for_3_does_not_stun():
    """Stun: "more than 3 points"."""
    state = build(
        rules=with_rules(stun=True), green=("H3", "A1", "B1"), orange=("H9", "O15", "N15")
    )
    state, _ = play(state, fire("H9"), dice=ScriptedDice(3, 5, 4, 6, 4, 5))
    assert not tank(state, "orange", 1)["stunned"]


def test_blast_damage_stuns():
    """Stun: "or receives damage due to an adjacent blast, it is stunned"."""
    state = build(
        rules=with_rules(stun=True, blast=True),
        green=("H3", "A1", "B1"),
        orange=("H9", "H10", "O15"),
    )
    state, _ = play(state, fire("H9"), dice=ScriptedDice(*[6] * 6))
    assert tank(state, "orange", 2)["stunned"]


def test_ramming_never_stuns():
    """K9: "Ramming damage is capped at 3 so it never stuns"."""
    state = build(
        rules=with_rules(stun=True, collision=True),
        green=("H5", "A1", "B1"),
        orange=("H8", "O15", "N15"),
    )
    state, events = play(state, step("H6"), step("H7"), {"type": "ram", "at": "H8"})
    assert of_type(events, "ram")[0]["damage"] == 3
    assert not tank(state, "orange", 1)["stunned"] and not tank(state, "green", 1)["stunned"]


# --- Triangulation (K10) -------------------------------------------------------------------------
def test_first_shot_places_the_token_and_no_triangulation_before():
    """K10: "First shot of a unit: no token yet"; the token goes on the final impact cell."""
    state = build(
        rules=with_rules(triangulation=True), green=("A1", "B1", "C1"), orange=("H9", "O15", "N15")
    )
    assert {m["aim"] for m in GAME.legal_moves(state, 0) if m["type"] == "fire"} == {"tank"}
    state, events = play(state, fire("H9"), dice=ScriptedDice(*[1] * 10))
    assert tank(state, "green", 1)["token"] == list(parse_cell("H9"))
    assert of_type(events, "token")


def test_worked_example_triangulation_rolls_4_dice_instead_of_10():
    """Rulebook: "The aiming token is at a distance of [2 + 1/2] = 2, so the green player rolls
    2 (distance) + 2 (additional dice for using the aiming token) = 4 dice instead of 10.\""""
    state = build(
        rules=with_rules(triangulation=True),
        seat=1,
        tank=1,
        green=("A1", "B1", "C3"),
        orange=("O15", "N15", "M15"),
    )
    tank(state, "orange", 1)["token"] = list(parse_cell("E4"))  # 2 across, 1 up from C3
    moves = [m for m in GAME.legal_moves(state, 1) if m["type"] == "fire" and m["target"] == "C3"]
    assert {m["aim"] for m in moves} == {"tank", "token"}
    _, events = play(state, fire("C3", "token"), dice=ScriptedDice(2, 3, 4, 5))
    assert of_type(events, "fire")[0]["count"] == 4
    _, events = play(state, fire("C3", "tank"), dice=ScriptedDice(*[2] * 10))
    assert of_type(events, "fire")[0]["count"] == 10


def test_token_moves_to_the_collateral_landing_cell():
    """K10: the token goes to the "landing cell" of the shot."""
    state = build(
        rules=with_rules(triangulation=True, collateral_damage=True),
        green=("H5", "A1", "B1"),
        orange=("H9", "O15", "N15"),
    )
    state, _ = play(state, fire("H9"), dice=ScriptedDice(1, 4, 6, 6))
    assert tank(state, "green", 1)["token"] == list(parse_cell("I9"))


# --- Energy Bolts (K7) ---------------------------------------------------------------------------
def test_bolt_path_walks_every_cell_the_segment_crosses():
    """K7: walk the cells the segment passes through, in order, skipping the shooter's cell."""
    assert bolt_path((0, 0), (3, 1)) == [(1, 0), (2, 1), (3, 1)]
    assert bolt_path((0, 0), (0, 3)) == [(0, 1), (0, 2), (0, 3)]
    assert bolt_path((2, 2), (0, 1)) == [(1, 2), (1, 1), (0, 1)]


def test_bolt_slips_between_corner_touching_cells():
    """K7: "A cell touched only at a corner point does not count"."""
    assert bolt_path((0, 0), (2, 2)) == [(1, 1), (2, 2)]
    state = build(
        rules=with_rules(energy_bolts=True),
        walls=("I8", "H9"),
        green=("H8", "A1", "B1"),
        orange=("J10", "O15", "N15"),
    )
    state, events = play(state, fire("J10"), dice=ScriptedDice(5, 5, 5))
    assert not of_type(events, "intercepted") and tank(state, "orange", 1)["hp"] == 1


def test_worked_example_wall_in_the_trajectory_takes_the_shot():
    """Rulebook: "Orange tank 1 shoots accurately at Green tank 3, but a wall is in the shot's
    trajectory, so it hits the wall instead" (with Wall Destruction, the wall goes)."""
    state = build(
        rules=with_rules(energy_bolts=True, wall_destruction=True),
        seat=1,
        tank=1,
        walls=("H6",),
        green=("A1", "B1", "H3"),
        orange=("H9", "O15", "N15"),
    )
    state, events = play(state, fire("H3"), dice=ScriptedDice(*[4] * 6))
    assert of_type(events, "intercepted")[0]["cell"] == "H6"
    assert tank(state, "green", 3)["hp"] == 6 and state["walls"] == []


def test_wall_absorbs_the_bolt_without_wall_destruction():
    """K7: wall -> "Wall Destruction if in use, otherwise absorbed"."""
    state = build(
        rules=with_rules(energy_bolts=True),
        walls=("H6",),
        seat=1,
        tank=1,
        green=("A1", "B1", "H3"),
        orange=("H9", "O15", "N15"),
    )
    state, _ = play(state, fire("H3"), dice=ScriptedDice(*[4] * 6))
    assert state["walls"] == ["H6"] and tank(state, "green", 3)["hp"] == 6


def test_tank_in_the_line_takes_1_damage_and_stops_the_bolt():
    """K7: "The first object in that line ... can be a unit - it receives 1 damage point"."""
    state = build(
        rules=with_rules(energy_bolts=True), green=("H3", "H6", "B1"), orange=("H9", "O15", "N15")
    )
    state, _ = play(state, fire("H9"), dice=ScriptedDice(*[5] * 6))
    assert tank(state, "green", 2)["hp"] == 5 and tank(state, "orange", 1)["hp"] == 6


def test_pools_and_gaps_do_not_stop_a_bolt_but_a_wreck_absorbs_it():
    """K2 table: "Stops an energy bolt": pool no, gap no, wreck yes (absorbs, no effect)."""
    rules = with_rules(energy_bolts=True, wrecks=True)
    state = build(
        rules=rules,
        pools=("H5",),
        gaps=("H6",),
        green=("H3", "A1", "B1"),
        orange=("H9", "H7", "N15"),
    )
    tank(state, "orange", 2).update(destroyed=True, hp=0)
    state, events = play(state, fire("H9"), dice=ScriptedDice(*[5] * 6))
    assert of_type(events, "intercepted")[0]["cell"] == "H7"
    assert tank(state, "orange", 1)["hp"] == 6
    state = build(
        rules=rules,
        pools=("H5",),
        gaps=("H6",),
        green=("H3", "A1", "B1"),
        orange=("H9", "O14", "N15"),
    )
    state, _ = play(state, fire("H9"), dice=ScriptedDice(*[5] * 6))
    assert tank(state, "orange", 1)["hp"] == 1


def test_bolt_to_an_off_board_landing_ignores_the_off_board_part():
    """K7: the landing cell "may be off-board"; "Off-board parts of the segment are ignored",
    the on-board part still meets what stands on it."""
    rules = with_rules(
        energy_bolts=True,
        collateral_damage=True,
        target_anything=True,
        floor_destruction=True,
        triangulation=True,
    )
    # a miss leaving two 2s: two north of H14 is H16, off the board; the line crosses H14
    state = build(rules=rules, green=("H10", "A1", "B1"), orange=("H14", "O15", "N15"))
    state, events = play(state, fire("H14"), dice=ScriptedDice(1, 2, 2, 6))
    assert of_type(events, "collateral")[0]["landing"] == [7, 15]
    assert of_type(events, "intercepted")[0]["cell"] == "H14"
    assert tank(state, "orange", 1)["hp"] == 5
    # nothing on the on-board part of the line: the shot vanishes off the Zone
    state = build(rules=rules, green=("H10", "A1", "B1"), orange=("A14", "O15", "N15"))
    state, events = play(state, fire("H14"), dice=ScriptedDice(1, 2, 2, 6))
    assert not of_type(events, "intercepted") and state["gaps"] == []
    assert tank(state, "green", 1)["token"] == [7, 15]  # K10: the token marks the landing


# --- Repair (K11) ---------------------------------------------------------------------------------
def test_repair_next_to_a_pool_restores_2_up_to_6_and_ends_the_turn():
    """K11: adjacent to an Energy Pool at the start of its activation, a unit "gains 2 hit
    points (max 6) and does nothing else that turn"."""
    state = build(
        rules=with_rules(repair=True), pools=("I2",), green=("H1", "A1", "B1"), hp={("green", 1): 3}
    )
    state, events = play(state, {"type": "repair"})
    assert tank(state, "green", 1)["hp"] == 5 and state["turn"]["seat"] == 1
    state = build(
        rules=with_rules(repair=True), pools=("I2",), green=("H1", "A1", "B1"), hp={("green", 1): 5}
    )
    state, _ = play(state, {"type": "repair"})
    assert tank(state, "green", 1)["hp"] == 6


def test_repair_only_adjacent_and_only_before_doing_anything():
    """K11: "at the start of its activation ... does nothing else"; Repair: "staying on an
    orthogonally or diagonally adjacent space for its entire turn"."""
    state = build(rules=with_rules(repair=True), pools=("J3",), green=("H1", "A1", "B1"))
    assert {"type": "repair"} not in GAME.legal_moves(state, 0)
    state = build(rules=with_rules(repair=True), pools=("I2",), green=("H1", "A1", "B1"))
    assert {"type": "repair"} in GAME.legal_moves(state, 0)
    moved, _ = play(state, step("G1"))
    assert {"type": "repair"} not in GAME.legal_moves(moved, 0)
    with pytest.raises(IllegalMove):
        GAME.apply(moved, 0, {"type": "repair"}, ScriptedDice())


def test_repair_is_off_without_the_rule():
    """Repair: "If you wish to use this rule"."""
    state = build(rules=CORE, pools=("I2",), green=("H1", "A1", "B1"))
    assert {"type": "repair"} not in GAME.legal_moves(state, 0)


# --- Collision (K12) --------------------------------------------------------------------------
def test_worked_example_ram_after_5_points_deals_2_to_each():
    """Rulebook: "Green moves one space orthogonally, then one space diagonally to the space
    Orange occupies. Green does not actually move into Orange's space ... Both tanks take 2
    damage." (K12: floor(5 / 2) = 2.)"""
    state = build(
        rules=with_rules(collision=True), green=("H5", "A1", "B1"), orange=("I7", "O15", "N15")
    )
    state, events = play(state, step("H6"), {"type": "ram", "at": "I7"})
    assert state["turn"]["mp"] == 5
    assert tank(state, "green", 1)["cell"] == "H6" and tank(state, "orange", 1)["cell"] == "I7"
    assert tank(state, "green", 1)["hp"] == 4 and tank(state, "orange", 1)["hp"] == 4
    assert of_type(events, "ram")[0]["damage"] == 2


def test_ram_ends_movement_but_the_tank_may_still_fire():
    """K12: "the rammer's movement ends"."""
    state = build(
        rules=with_rules(collision=True), green=("H5", "A1", "B1"), orange=("H6", "O15", "N15")
    )
    state, _ = play(state, {"type": "ram", "at": "H6"})
    moves = GAME.legal_moves(state, 0)
    assert not [m for m in moves if m["type"] in ("step", "ram")]
    assert [m for m in moves if m["type"] == "fire"]


def test_diagonal_ram_needs_squeeze_clearance_and_wrecks_cannot_be_rammed():
    """K12: "A diagonal ram needs the normal squeeze clearance. Ramming a wreck is not
    allowed.\""""
    state = build(
        rules=with_rules(collision=True),
        walls=("I5",),
        green=("H5", "A1", "B1"),
        orange=("I6", "O15", "N15"),
    )
    assert {"type": "ram", "at": "I6"} not in GAME.legal_moves(state, 0)
    state = build(
        rules=with_rules(collision=True, wrecks=True),
        green=("H5", "A1", "B1"),
        orange=("H6", "O15", "N15"),
    )
    tank(state, "orange", 1).update(destroyed=True, hp=0)
    assert {"type": "ram", "at": "H6"} not in GAME.legal_moves(state, 0)


def test_ramming_your_own_tank_is_a_collision_too():
    """Collision: "Tanks can ram other tanks" (K12: a cell occupied by a tank, either side)."""
    state = build(rules=with_rules(collision=True), green=("H5", "H6", "B1"))
    state, _ = play(state, {"type": "ram", "at": "H6"})
    assert tank(state, "green", 1)["hp"] == 5 and tank(state, "green", 2)["hp"] == 5


@given(
    st.tuples(st.integers(-3, 17), st.integers(-3, 17)),
    st.tuples(st.integers(-3, 17), st.integers(-3, 17)),
)
def test_bolt_path_is_a_connected_walk_to_the_landing_cell(start, end):
    """K7: the walk visits cells in order from the shooter to the landing cell, one
    (orthogonal or corner-diagonal) neighbour at a time, never revisiting a cell."""
    path = bolt_path(start, end)
    if start == end:
        assert path == []
        return
    assert path[-1] == end and start not in path and len(set(path)) == len(path)
    for a, b in zip([start, *path], path, strict=False):
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def test_targeting_tokens_block_nothing():
    """Triangulation: "Targeting tokens don't block the movement of units or rockets. There
    can be several aiming tokens on the same space, and can also be on a space occupied by a
    unit.\""""
    rules = with_rules(triangulation=True, energy_bolts=True)
    state = build(rules=rules, green=("H5", "A1", "B1"), orange=("H9", "O15", "N15"))
    tank(state, "green", 2)["token"] = list(parse_cell("H6"))
    tank(state, "green", 3)["token"] = list(parse_cell("H6"))
    tank(state, "orange", 2)["token"] = list(parse_cell("H9"))
    assert {"type": "step", "to": "H6"} in GAME.legal_moves(state, 0)
    state, events = play(state, fire("H9"), dice=ScriptedDice(5, 5, 5, 5))
    assert not of_type(events, "intercepted") and tank(state, "orange", 1)["hp"] == 1


def test_a_ram_destroying_both_last_tanks_is_a_tie_and_losing_your_last_loses():
    """K8: "if no units remain on either side the game is a tie; if one side has none the
    other side wins" (after a ram too)."""
    state = build(
        rules=with_rules(collision=True),
        green=("H5", None, None),
        orange=("H6", None, None),
        hp={("green", 1): 1, ("orange", 1): 1},
    )
    state, _ = play(state, {"type": "ram", "at": "H6"})
    assert GAME.outcome(state).winners == (0, 1)
    state = build(
        rules=with_rules(collision=True),
        green=("H5", None, None),
        orange=("H6", "A15", None),
        hp={("green", 1): 1},
    )
    state, _ = play(state, {"type": "ram", "at": "H6"})
    assert GAME.outcome(state).winners == (1,)


def test_stationary_and_triangulation_modifiers_stack():
    """K4: "dice = dist - 2 (if stationary) + 2 (if triangulating ...)" [both stack]."""
    state = build(
        rules=with_rules(triangulation=True), green=("A1", "B1", "C1"), orange=("H9", "O15", "N15")
    )
    tank(state, "green", 1)["token"] = list(parse_cell("H4"))
    _, events = play(state, STAY, fire("H9", "token"), dice=ScriptedDice(*[3] * 5))
    assert of_type(events, "fire")[0]["count"] == 5 - 2 + 2


def test_token_marks_the_object_that_stopped_the_bolt():
    """K10: the token goes on "the cell of the object that stopped a bolt"."""
    rules = with_rules(energy_bolts=True, triangulation=True)
    state = build(rules=rules, walls=("H6",), green=("H3", "A1", "B1"), orange=("H9", "O15", "N15"))
    state, _ = play(state, fire("H9"), dice=ScriptedDice(*[4] * 6))
    assert tank(state, "green", 1)["token"] == list(parse_cell("H6"))


def test_stunned_twice_still_costs_one_activation():
    """K9: "Being stunned again before recovering still costs only one activation"."""
    state = build(
        rules=with_rules(stun=True), green=("H3", "A1", "B1"), orange=("H9", "O15", "N15")
    )
    tank(state, "orange", 1)["stunned"] = True
    state, events = play(state, fire("H9"), dice=ScriptedDice(4, 5, 4, 6, 4, 5))
    assert not of_type(events, "stunned")  # already stunned
    state, events = play(state, END)
    assert len(of_type(events, "recover")) == 1
    state, _ = play(state, END, END)  # green 2, then orange 2 ... orange 1 acts next round
    assert not tank(state, "orange", 1)["stunned"]


def test_without_floor_destruction_a_hit_on_empty_floor_leaves_it_and_says_so():
    """Floor Destruction is an option: without it the empty space a shot hits stays floor
    (K6 "empty floor becomes a gap (Floor Destruction)"), and the log says what happened."""
    state = build(
        rules=with_rules(target_anything=True, blast=True),
        green=("H5", "A1", "B1"),
        orange=("I10", "O15", "N15"),
    )
    state, events = play(state, fire("H9"), dice=ScriptedDice(3, 3, 3, 3))
    assert state["gaps"] == [] and not of_type(events, "blast")
    assert tank(state, "orange", 1)["hp"] == 6
    assert [e["cell"] for e in of_type(events, "absorbed")] == ["H9"]


def test_a_6_damage_hit_blasts_even_when_the_target_had_fewer_hit_points():
    """Blast: "Whenever a unit is hit with 6 points of damage" - the hit's size counts, not the
    hit points the target had left (a 6 on every die against a 2-point tank)."""
    state = build(
        rules=with_rules(blast=True),
        green=("H3", "A1", "B1"),
        orange=("H9", "H10", "O15"),
        hp={("orange", 1): 2},
    )
    state, events = play(state, fire("H9"), dice=ScriptedDice(*[6] * 6))
    assert tank(state, "orange", 1)["destroyed"] and len(of_type(events, "blast")) == 1
    assert tank(state, "orange", 2)["hp"] == 5
