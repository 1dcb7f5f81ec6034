"""Tank Skirmish: board (K1), movement (core rules, K2, K3), activation order and turns."""

from __future__ import annotations

import pytest
from tube_factories import CORE, END, GAME, STAY, ScriptedDice, build, fire, of_type, play, step

from app.engine.contract import IllegalMove
from app.games.tube_tanks.zone import cell_name, parse_cell


def legal(state, kind):
    return [m for m in GAME.legal_moves(state, state["turn"]["seat"]) if m["type"] == kind]


def test_cells_are_named_columns_a_to_o_and_rows_1_to_15():
    """K1: 15x15 board, columns A-O (west to east), rows 1-15; green's home edge is row 1."""
    assert parse_cell("A1") == (0, 0)
    assert parse_cell("O15") == (14, 14)
    assert cell_name(4, 0) == "E1"
    for bad in ("P1", "A0", "A16", "a1", "A01"):
        with pytest.raises(ValueError):
            parse_cell(bad)


def test_orthogonal_step_costs_2_and_diagonal_step_costs_3():
    """Core rules: "Tanks spend 2 points when moving to an orthogonally adjacent empty space and
    3 points when moving to a diagonally adjacent empty space.\""""
    state = build(green=("H7", "A1", "O1"))
    state, events = play(state, step("H8"))
    assert events[0]["cost"] == 2 and state["turn"]["mp"] == 2
    state, events = play(state, step("I9"))
    assert events[0]["cost"] == 3 and state["turn"]["mp"] == 5


def test_worked_example_forward_and_diagonal_is_five_points():
    """Worked example: "The Orange tank moves 1 step forward (2 points) and 1 step diagonal
    (3 points) for a total of 5 points." With 1 point left it cannot step again."""
    state = build(seat=1, tank=1, green=("A1", "B1", "C1"), orange=("H15", "A15", "O15"))
    state, _ = play(state, step("H14"), step("G13"))
    assert state["turn"]["mp"] == 5
    assert legal(state, "step") == []
    assert {"type": "end"} in GAME.legal_moves(state, 1)


def test_at_most_six_movement_points():
    """Core rules: "You can spend up to 6 movement points"; three orthogonal steps use them."""
    state = build(green=("H5", "A1", "O1"))
    state, _ = play(state, step("H6"), step("H7"), step("H8"))
    assert state["turn"]["mp"] == 6
    assert legal(state, "step") == []
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, step("H9"), ScriptedDice())


def test_diagonal_blocked_by_a_wall_next_to_both_cells():
    """Core rules: "When moving diagonally, the two spaces orthogonally shared by the starting
    and ending spaces must be also empty" (the example of tank 1 and the wall)."""
    state = build(walls=("I8",), green=("H8", "A1", "O1"))
    targets = {m["to"] for m in legal(state, "step")}
    assert "I9" not in targets and "I7" not in targets
    assert "G9" in targets and "H9" in targets


@pytest.mark.parametrize(
    ("kind", "blocks"),
    [("walls", True), ("pools", True), ("gaps", False), ("tank", True), ("wreck", True)],
)
def test_what_blocks_a_diagonal_squeeze(kind, blocks):
    """K2 table, column "Blocks diagonal squeeze": wall, tank, wreck, pool yes; gap no."""
    extra = {}
    orange = ("A15", "B15", "C15")
    rules = None
    if kind == "tank":
        orange = ("I8", "B15", "C15")
    elif kind == "wreck":
        rules = {"wrecks": True}
        orange = ("I8", "B15", "C15")
    else:
        extra[kind] = ("I8",)
    state = build(green=("H8", "A1", "O1"), orange=orange, rules=rules, **extra)
    if kind == "wreck":
        state["tanks"][3]["destroyed"] = True
        state["tanks"][3]["hp"] = 0
    targets = {m["to"] for m in legal(state, "step")}
    assert ("I9" not in targets) is blocks


def test_board_edge_blocks_a_diagonal_squeeze_and_entry():
    """K2: off-board cannot be entered and blocks a diagonal squeeze."""
    state = build(green=("A1", "O1", "O15"), orange=("B2", "B15", "C15"))
    assert {m["to"] for m in legal(state, "step")} == {"A2", "B1"}


@pytest.mark.parametrize("kind", ["walls", "pools", "gaps"])
def test_tanks_cannot_enter_walls_pools_or_gaps(kind):
    """K2 table, column "Tank may enter": wall, pool, gap (destroyed floor) no."""
    state = build(green=("H8", "A1", "O1"), **{kind: ("H9",)})
    assert "H9" not in {m["to"] for m in legal(state, "step")}


def test_a_tank_cannot_step_onto_another_tank():
    """K2: a tank may not enter a tank's cell (only ram it with Collision)."""
    state = build(rules=CORE, green=("H8", "H9", "O1"))
    assert "H9" not in {m["to"] for m in legal(state, "step")}
    assert legal(state, "ram") == []


def test_move_fire_move():
    """Core rules: "You can also move, then fire, then move with your remaining points.\""""
    state = build(rules=CORE, green=("H5", "A1", "O1"), orange=("H9", "A15", "O15"))
    state, _ = play(state, step("H6"), fire("H9"), dice=ScriptedDice(3, 4, 5))
    assert state["turn"]["fired"] and state["turn"]["mp"] == 2
    state, _ = play(state, step("G6"))
    assert state["turn"]["mp"] == 4


def test_stay_gives_the_stationary_bonus_and_forbids_movement():
    """K3: the -2 dice bonus applies only if the tank spends 0 MP in the whole turn; once it
    fires with the bonus it may not move for the rest of the turn."""
    state = build(rules=CORE, green=("H5", "A1", "O1"), orange=("H10", "A15", "O15"))
    state, events = play(state, STAY, fire("H10"), dice=ScriptedDice(2, 2, 2))
    assert of_type(events, "fire")[0]["count"] == 5 - 2
    assert legal(state, "step") == [] and legal(state, "ram") == []


def test_firing_after_moving_gets_no_bonus_and_stay_is_only_at_the_start():
    """K3: a tank that spent movement points is moving this turn: no -2 dice."""
    state = build(rules=CORE, green=("H5", "A1", "O1"), orange=("H10", "A15", "O15"))
    state, _ = play(state, step("H6"))
    assert legal(state, "stay") == []
    state, events = play(state, fire("H10"), dice=ScriptedDice(2, 2, 2, 2))
    assert of_type(events, "fire")[0]["count"] == 4


def test_activation_order_1_2_3_per_player():
    """Core rules: "Tank order is 1,2,3,1,2,3…", players alternate turns."""
    state = build(rules=CORE)
    order = []
    for _ in range(7):
        tank = state["tanks"][state["turn"]["tank"]]
        order.append((tank["side"], tank["number"]))
        state, _ = play(state, END)
    assert order == [
        ("green", 1),
        ("orange", 1),
        ("green", 2),
        ("orange", 2),
        ("green", 3),
        ("orange", 3),
        ("green", 1),
    ]


def test_a_destroyed_tanks_slot_takes_an_empty_turn():
    """Core rules: "If your active unit has been destroyed simply move your activation disc to
    the next unit and pass the turn to your opponent.\""""
    state = build(rules=CORE, orange=("K15", None, "E15"), seat=0, tank=2)
    state["active"][1] = 1  # orange's disc is on tank 2
    state, events = play(state, END)  # green 2 ends; orange 2 is destroyed
    skips = of_type(events, "skip")
    assert len(skips) == 1 and "Orange 2" in skips[0]["text"]
    tank = state["tanks"][state["turn"]["tank"]]
    assert (tank["side"], tank["number"]) == ("green", 3)
    assert state["active"][1] == 2  # orange's disc moved on to tank 3


def test_all_actions_are_optional_end_is_always_legal():
    """Core rules: "All actions are optional.\""""
    state = build()
    assert {"type": "end"} in GAME.legal_moves(state, 0)
    assert GAME.legal_moves(state, 1) == []


def test_view_shows_reachable_cells_with_cost():
    """Client aid for the movement rule: every cell reachable with the points left."""
    state = build(rules=CORE, green=("H8", "A1", "O1"))
    reach = dict(GAME.view(state, 0)["reach"])
    assert reach["H9"] == 2 and reach["I9"] == 3 and reach["H11"] == 6
    assert reach["I10"] == 5 and reach["J10"] == 6
    assert "H12" not in reach and "K11" not in reach
    state, _ = play(state, step("H9"))
    assert dict(GAME.view(state, 0)["reach"])["H11"] == 4
