"""The board of ruling V1 and the rotation of ruling V2
(docs/rules/families/tactrics-rulings.md)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from app.games.tactrics import board
from app.games.tactrics.board import (
    EDGES,
    NEIGHBOUR_TOWERS,
    SLOT_NEIGHBOURS,
    SLOT_TOWERS,
    SLOTS,
    TOWER_SLOTS,
    TOWERS,
    rotate_contents,
)

RULINGS_TABLE = json.loads((Path(board.DATA) / "board.json").read_text())


def test_nineteen_towers_and_fifty_four_slots() -> None:
    """V1: "towers sit on the 19 lattice points of a hexagon of side 2 ... That gives 54 router
    slots in 6 rows of 7, 9, 11, 11, 9, 7"."""
    assert len(TOWERS) == 19
    assert len(SLOTS) == 54
    rows = Counter(slot[0] for slot in SLOTS)
    assert [rows[band] for band in "ABCDEF"] == [7, 9, 11, 11, 9, 7]
    assert Counter(t[1] for t in TOWERS) == {"1": 3, "2": 4, "3": 5, "4": 4, "5": 3}


def test_every_tower_has_six_slots() -> None:
    """V1 / 4(b): "each a round part with room for six routers"."""
    assert all(len(set(TOWER_SLOTS[t])) == 6 for t in TOWERS)


def test_slots_belong_to_one_two_or_three_towers() -> None:
    """V1: "Each slot belongs to 1, 2 or 3 towers (18, 12 and 24 slots)"."""
    assert Counter(len(SLOT_TOWERS[s]) for s in SLOTS) == {1: 18, 2: 12, 3: 24}


def test_lattice_gives_exactly_the_rulings_table() -> None:
    """4(d): "Tower -> slots, clockwise starting from the slot straight above the tower" and
    the neighbouring towers, for all 19 towers (data/board.json copies the table)."""
    table = RULINGS_TABLE["towers"]
    assert set(table) == set(TOWERS)
    for tower in TOWERS:
        assert list(TOWER_SLOTS[tower]) == table[tower]["slots"], tower
        assert sorted(NEIGHBOUR_TOWERS[tower]) == sorted(table[tower]["neighbours"]), tower


def test_neighbouring_towers_share_exactly_two_slots() -> None:
    """4(d) check values: "neighbouring towers share exactly 2 slots; non-neighbours share
    none" (4(b): "neighbouring towers share 2 plates")."""
    for a, b in itertools.combinations(TOWERS, 2):
        shared = set(TOWER_SLOTS[a]) & set(TOWER_SLOTS[b])
        if b in NEIGHBOUR_TOWERS[a]:
            assert len(shared) == 2, (a, b)
        else:
            assert not shared, (a, b)


def test_turning_the_centre_tower_affects_the_six_around_it() -> None:
    """4(b): "turning the centre tower affects the 6 around it"."""
    touched = {t for t in TOWERS if t != "T33" and set(TOWER_SLOTS[t]) & set(TOWER_SLOTS["T33"])}
    assert touched == set(NEIGHBOUR_TOWERS["T33"])
    assert len(touched) == 6


def test_each_side_has_an_outer_row_of_seven_slots() -> None:
    """V1: "Each of the six board sides has an outer row of exactly 7 slots"; 4(d) lists the
    six edge rows. An edge slot has a side on the rim: it belongs to at most 2 towers."""
    assert set(EDGES) == {"S", "N", "SW", "NW", "SE", "NE"}
    for side, slots in EDGES.items():
        assert len(set(slots)) == 7, side
        assert all(len(SLOT_TOWERS[s]) <= 2 for s in slots), side
    assert EDGES["S"] == tuple(f"A{i}" for i in range(1, 8))
    assert EDGES["N"] == tuple(f"F{i}" for i in range(1, 8))


def test_slot_orientation_alternates_as_drawn() -> None:
    """4(d): "in rows A-C slots alternate pointing down/up starting with down (A1 points
    down); in rows D-F they alternate starting with up"."""
    for slot in SLOTS:
        band, number = slot[0], int(slot[1:])
        first_up = band in "DEF"
        assert board.slot_points_up(slot) == (first_up == (number % 2 == 1)), slot


def test_slot_adjacency_examples_from_the_rulings() -> None:
    """4(d): "two slots are adjacent when their triangles share a side ... Examples: A1-A2,
    A1-B2, C6-B5, C6-C5, C6-C7, D6-D5, D6-D7, D6-E5"."""
    for a, b in [
        ("A1", "A2"),
        ("A1", "B2"),
        ("C6", "B5"),
        ("C6", "C5"),
        ("C6", "C7"),
        ("D6", "D5"),
        ("D6", "D7"),
        ("D6", "E5"),
    ]:
        assert b in SLOT_NEIGHBOURS[a] and a in SLOT_NEIGHBOURS[b]
    assert set(SLOT_NEIGHBOURS["A1"]) == {"A2", "B2"}
    assert set(SLOT_NEIGHBOURS["C6"]) == {"B5", "C5", "C7"}
    assert all(1 <= len(SLOT_NEIGHBOURS[s]) <= 3 for s in SLOTS)


def test_consecutive_slots_of_a_tower_touch() -> None:
    """V2: a turn moves each router to the next slot around the tower, which shares a side
    with it (so a turn moves a router one adjacency step)."""
    for tower in TOWERS:
        ring = TOWER_SLOTS[tower]
        for k in range(6):
            assert ring[(k + 1) % 6] in SLOT_NEIGHBOURS[ring[k]]


def test_clockwise_turn_moves_position_k_to_k_plus_one() -> None:
    """4(d): "A clockwise turn moves the content of list position k to position k+1 (mod 6);
    anticlockwise the reverse"; V2: empty slots move too."""
    ring = TOWER_SLOTS["T11"]  # B3 B4 A3 A2 A1 B2
    contents = {ring[0]: "red", ring[2]: "blue", "C1": "green"}
    turned = rotate_contents(contents, "T11", "cw")
    assert turned == {ring[1]: "red", ring[3]: "blue", "C1": "green"}
    back = rotate_contents(contents, "T11", "ccw")
    assert back == {ring[5]: "red", ring[1]: "blue", "C1": "green"}


def test_turning_moves_only_the_towers_own_six_slots() -> None:
    """V2: a turn permutes the 6 slot contents of that tower; the rest of the board stays."""
    full = {slot: slot for slot in SLOTS}
    for tower in TOWERS:
        turned = rotate_contents(full, tower, "cw")
        changed = {s for s in SLOTS if turned[s] != s}
        assert changed == set(TOWER_SLOTS[tower])


@given(
    st.dictionaries(st.sampled_from(SLOTS), st.sampled_from(["red", "blue", "black"])),
    st.sampled_from(TOWERS),
    st.sampled_from(["cw", "ccw"]),
)
def test_a_turn_is_undone_by_the_opposite_turn(contents, tower, direction) -> None:
    """V2: a turn is a cyclic permutation; the opposite turn restores every router, and six
    turns the same way are a full circle."""
    opposite = {"cw": "ccw", "ccw": "cw"}[direction]
    assert rotate_contents(rotate_contents(contents, tower, direction), tower, opposite) == contents
    turned = contents
    for _ in range(6):
        turned = rotate_contents(turned, tower, direction)
    assert turned == contents


def test_client_geometry_file_is_generated_from_the_board() -> None:
    """The client draws the board from static/js/tactrics/geometry.js: it must be exactly
    what board.py generates (no second copy of V1 to drift)."""
    path = Path(__file__).resolve().parents[3] / "static/js/tactrics/geometry.js"
    assert path.read_text() == board.geometry_module()
