"""Tank Skirmish: setups A and B (1(d), K1), options and the custom zone, missions (K14)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from tube_factories import CORE, END, GAME, ScriptedDice, build, fire, play, step
from tube_factories import tank_entry as tank

from app.engine.dice import Dice
from app.games.tube_tanks.zone import SETUPS, cell_name, parse_cell

# Copied from our setups' ASCII maps (docs/rules/tube-tanks.md), row 15 first.
MAP_A = """
. . . . c . . b . . a . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . # . . . . . . .
. . . # . . . . . . . # . . .
. . . . . . . . . . . . E . .
. . . . . . . . . . . . . . .
. # . . . # . . . # . . . # .
. . . . . . . . . . . . . . .
. . E . . . . . . . . . . . .
. . . # . . . . . . . # . . .
. . . . . . . # . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . 1 . . 2 . . 3 . . . .
"""
MAP_B = """
. . . . c . . b . . a . . . .
. . . . . . . . . . . . . . .
. . . . . . . E . . . . . . .
. . . . . . . . . . . . # . .
. . . . # . . . . . . . . . .
. # . . . . . . . # . . . . .
. . . . . . . # . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . # . . . . . . .
. . . . . # . . . . . . . # .
. . . . . . . . . . # . . . .
. . # . . . . . . . . . . . .
. . . . . . . E . . . . . . .
. . . . . . . . . . . . . . .
. . . . 1 . . 2 . . 3 . . . .
"""


def parse_map(text):
    rows = [line.split() for line in text.strip().splitlines()]
    cells = {}
    for r, row in enumerate(rows):
        for x, symbol in enumerate(row):
            if symbol != ".":
                cells[cell_name(x, 14 - r)] = symbol
    return cells


@pytest.mark.parametrize(("letter", "drawing"), [("A", MAP_A), ("B", MAP_B)])
def test_setups_match_the_rulings_maps(letter, drawing):
    """1(d): setups A "Arena" and B "Crossfire", walls, pools and tanks as drawn."""
    cells = parse_map(drawing)
    zone = SETUPS[letter]
    assert sorted(zone.walls) == sorted(c for c, s in cells.items() if s == "#")
    assert sorted(zone.pools) == sorted(c for c, s in cells.items() if s == "E")
    assert zone.green == [next(c for c, s in cells.items() if s == n) for n in "123"]
    assert zone.orange == [next(c for c, s in cells.items() if s == n) for n in "abc"]
    assert len(zone.walls) == 10 and len(zone.pools) == 2 and zone.gaps == []


@pytest.mark.parametrize("letter", ["A", "B"])
def test_setups_are_180_degree_symmetric(letter):
    """K1: "Every setup is 180-degree symmetric"."""
    zone = SETUPS[letter]

    def turned(cells):
        return sorted(cell_name(14 - x, 14 - y) for x, y in map(parse_cell, cells))

    assert turned(zone.walls) == sorted(zone.walls)
    assert turned(zone.pools) == sorted(zone.pools)
    assert turned(zone.green) == sorted(zone.orange)


@pytest.mark.parametrize("letter", ["A", "B"])
def test_setup_loads_and_is_playable(letter):
    """1(d): both setups load into a legal start: six tanks with 6 hit points, tank 1 of the
    first player active, legal moves exist."""
    options = GAME.parse_options({"setup": letter})
    state = GAME.setup(2, options, Dice("setup", 0))
    assert [t["hp"] for t in state["tanks"]] == [6] * 6
    seat = state["first"]
    assert state["turn"]["seat"] == seat and state["turn"]["tank"] == seat * 3
    assert len(GAME.legal_moves(state, seat)) > 1


def test_default_options_are_setup_a_with_every_advanced_rule():
    """Rulebook: "I recommend applying all these rules at once" (lobby default); K13 default
    removed (no wrecks); missions off."""
    options = GAME.parse_options({})
    rules = options.rules()
    assert options.setup == "A" and not GAME.options_need_agreement(options)
    assert all(rules[f] for f in CORE)
    assert not rules["wrecks"] and not any(rules[f"mission_{n}"] for n in (1, 2, 3))
    assert GAME.options_schema()["properties"]["blast"]["description"]


def custom(**changes):
    zone = SETUPS["A"].model_dump()
    zone.update(changes)
    return {"setup": "custom", "zone": zone}


def test_custom_zone_needs_agreement_and_sets_up_from_the_zone():
    """Rulebook setup: "The distribution of the terrain tiles, walls, and tanks must be agreed
    upon by both players" (custom zone, accepted by the other player in the lobby)."""
    options = GAME.parse_options(
        custom(walls=["A5"], pools=["B5"], gaps=["C5"], green=["A1", "B1", "C1"])
    )
    assert GAME.options_need_agreement(options)
    state = GAME.setup(2, options, Dice("custom", 0))
    assert state["walls"] == ["A5"] and state["pools"] == ["B5"] and state["gaps"] == ["C5"]
    assert [t["cell"] for t in state["tanks"][:3]] == ["A1", "B1", "C1"]


@pytest.mark.parametrize(
    "changes",
    [
        {"walls": ["Q1"]},
        {"walls": ["A5", "A5"]},
        {"walls": ["E1"]},
        {"pools": ["A5"], "gaps": ["A5"]},
        {"green": ["A1", "B1"]},
        {"orange": ["A1", "B1", "C1"], "green": ["A1", "D1", "E1"]},
    ],
)
def test_custom_zone_is_validated(changes):
    """K1: cells A1-O15; nothing overlaps; three tanks a side."""
    with pytest.raises(ValidationError):
        GAME.parse_options(custom(**changes))


def test_custom_without_zone_starts_from_setup_a_and_a_preset_drops_the_zone():
    """Custom needs a zone: the lobby's form switching to "custom" gets setup A to edit; back
    on a preset, the drawn zone is dropped (the preset is what is played)."""
    options = GAME.parse_options({"setup": "custom"})
    assert options.zone == SETUPS["A"]
    options = GAME.parse_options({"setup": "B", "zone": SETUPS["A"].model_dump()})
    assert options.zone is None and options.layout() == SETUPS["B"]


def test_mission_1_adds_a_pool_on_h8_and_needs_it_free():
    """K14: "Mission 1 adds a third Energy Pool on H8 (free in both setups below)"."""
    for letter in ("A", "B"):
        state = GAME.setup(
            2, GAME.parse_options({"setup": letter, "mission_1": True}), Dice("m1", 0)
        )
        assert "H8" in state["pools"] and len(state["pools"]) == 3
    with pytest.raises(ValidationError):
        GAME.parse_options({**custom(walls=["H8"]), "mission_1": True})


def test_mission_1_three_repairs_in_a_row_at_the_centre_wins():
    """K14: "one unit repairs at that pool in 3 consecutive activations of that unit";
    rulebook: "(It's OK if no damage is being repaired)"."""
    state = build(rules={**CORE, "mission_1": True}, pools=("H8",), green=("H7", "A1", "B1"))
    for turn in range(3):
        state, _ = play(state, {"type": "repair"})
        if turn < 2:
            assert GAME.outcome(state) is None
            for _ in range(5):  # orange 1, green 2, orange 2, green 3, orange 3
                state, _ = play(state, END)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_mission_1_streak_breaks_when_the_unit_does_something_else():
    """K14: "3 turns in a row": an activation without the repair starts the count again."""
    state = build(rules={**CORE, "mission_1": True}, pools=("H8",), green=("H7", "A1", "B1"))
    tank(state, "green", 1)["streak"] = 2
    state, _ = play(state, END)
    assert tank(state, "green", 1)["streak"] == 0 and GAME.outcome(state) is None


def test_mission_2_reaching_the_enemy_home_row_wins():
    """K14 / Mission 2: "any unit of yours ends a move on the enemy home row" (K1: orange's
    home is row 15)."""
    state = build(
        rules={**CORE, "mission_2": True}, green=("H13", "A1", "B1"), orange=("A15", "B15", "C15")
    )
    state, _ = play(state, step("H14"))
    assert GAME.outcome(state) is None
    state, _ = play(state, step("H15"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_mission_3_five_destroyed_walls_win():
    """K14: "the first player to have destroyed 5 walls wins"."""
    rules = {**CORE, "mission_3": True, "wall_destruction": True, "target_anything": True}
    state = build(rules=rules, walls=("H10",), green=("H8", "A1", "B1"))
    state["walls_destroyed"] = [4, 0]
    state, _ = play(state, fire("H10"), dice=ScriptedDice(3, 3))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and "5 walls" in outcome.reason


def test_missions_combine_with_the_normal_victory():
    """K14: "any one achieved wins, in addition to the normal victory"."""
    rules = {**CORE, "mission_2": True, "mission_3": True}
    state = build(
        rules=rules, green=("H5", "A1", "B1"), orange=("H9", None, None), hp={("orange", 1): 1}
    )
    state, _ = play(state, fire("H9"), dice=ScriptedDice(2, 2, 2, 2))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_first_player_is_drawn_by_the_dice():
    """1(d): "The first player is drawn at random" (from the match's seeded dice)."""
    firsts = {GAME.setup(2, GAME.parse_options({}), Dice(f"s{i}", 0))["first"] for i in range(20)}
    assert firsts == {0, 1}


def test_mission_1_without_repair_rule_repairs_only_at_the_centre_pool():
    """K14 / Repair: "If you wish to use this rule" - with Repair off, Mission 1 still needs its
    repairs at the centre pool (H8), but the setup's other pools stay inert."""
    rules = {**CORE, "mission_1": True}
    state = build(rules=rules, pools=("C6", "H8"), green=("C5", "A1", "B1"), hp={("green", 1): 3})
    assert {"type": "repair"} not in GAME.legal_moves(state, 0)
    state = build(rules=rules, pools=("C6", "H8"), green=("H7", "A1", "B1"), hp={("green", 1): 3})
    state, _ = play(state, {"type": "repair"})
    assert tank(state, "green", 1)["hp"] == 5 and tank(state, "green", 1)["streak"] == 1
    state = build(rules={**rules, "repair": True}, pools=("C6", "H8"), green=("C5", "A1", "B1"))
    assert {"type": "repair"} in GAME.legal_moves(state, 0)


@pytest.mark.parametrize(
    ("flags", "refused"),
    [
        ({}, None),
        ({"wall_destruction": False}, "Wall Destruction"),
        (
            {"target_anything": False, "collateral_damage": False, "energy_bolts": False},
            "a way to hit walls",
        ),
        ({"target_anything": False, "collateral_damage": False}, None),  # bolts hit walls
    ],
)
def test_mission_3_needs_wall_destruction_and_a_way_to_hit_walls(flags, refused):
    """K14: Mission 3 "needs Wall Destruction, and Target Anything or collateral hits": the
    lobby refuses to start a match whose mission could never be achieved, with the reason."""
    options = GAME.parse_options({"mission_3": True, **flags})
    reason = GAME.check_start(2, options)
    if refused is None:
        assert reason is None
    else:
        assert reason is not None and refused in reason
    assert GAME.check_start(2, GAME.parse_options({"wall_destruction": False})) is None
