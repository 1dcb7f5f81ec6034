"""Tactrics: Cat & Mouse. Rulebook "#3 Cat & Mouse" with ruling V8, the set-up we
first proposed (4(d), rules version 1) and the cats' squares of issue 15 (version 2). Seat 0
is the mouse (red), seat 1 the cats (black)."""

from __future__ import annotations

import pytest
from tactrics_factories import CAT_MOUSE, CONFIRM, UNDO, act, dice, fresh, game, position, rotate

from app.engine.contract import IllegalMove
from app.games.tactrics.board import EDGES, SLOT_TOWERS, TOWERS
from app.games.tactrics.cat_mouse import cats_on

G = game(CAT_MOUSE)


def rotations(state, seat):
    return [m for m in G.legal_moves(state, seat) if m["type"] == "rotate"]


def test_four_cats_setup() -> None:
    """Issue 15 part 4: with the cats on the [PROPOSAL] squares of 4(d) the mouse won 83% of
    matches between equal normal bots, so rules version 2 starts them on every other slot of
    row E (data/cat_mouse.json): T51, T52 and T53, the only towers of the cupboard row, each
    start with two cats. The mouse stays on A4 (4(d)) and moves first."""
    state = fresh(CAT_MOUSE, 2)
    assert G.rules_version == "2" and state["setup"] == "2"
    assert state["routers"] == {
        "A4": "red",
        "E2": "black",
        "E4": "black",
        "E6": "black",
        "E8": "black",
    }
    assert [t for t in TOWERS if cats_on(state, t) >= 2] == ["T51", "T52", "T53"]
    assert G.active_seats(state) == frozenset({0})


def test_five_cats_setup() -> None:
    """Rulebook: "After inviting the cat from next door"; 4(d) adds it on E5, and so does rules
    version 2 (then T42 and T43 hold two cats as well)."""
    state = fresh(CAT_MOUSE, 2, cats=5)
    assert state["routers"]["E5"] == "black"
    assert sorted(t for t in TOWERS if cats_on(state, t) >= 2) == [
        "T42",
        "T43",
        "T51",
        "T52",
        "T53",
    ]


@pytest.mark.parametrize("cats", [4, 5])
def test_a_match_of_rules_1_keeps_the_squares_of_4d(cats: int) -> None:
    """A match begun under rules version 1 sets up as it was played (docs/replays.md), with no
    set-up key in its state: 4(d) "4-cat scenario D3, D9, E4, E6 (only T52 starts with two
    cats)", "5-cat scenario adds E5"."""
    state = G.begin(2, G.parse_options({"cats": cats}), dice(0), "1")
    fives = {"E5": "black"} if cats == 5 else {}
    assert state["routers"] == {
        "A4": "red",
        "D3": "black",
        "D9": "black",
        "E4": "black",
        "E6": "black",
        **fives,
    }
    assert "setup" not in state
    assert G.begin(2, G.parse_options({"cats": cats}), dice(0), "2") == fresh(
        CAT_MOUSE, 2, cats=cats
    )


@pytest.mark.parametrize("rules_version", ["1", "2"])
@pytest.mark.parametrize("cats", [4, 5])
def test_every_set_up_lets_the_mouse_move_first(rules_version: str, cats: int) -> None:
    """Rulebook: the mouse moves first; a set-up with two cats on its only tower (A4 lies on
    T12 alone) would leave it no legal move at all."""
    state = G.begin(2, G.parse_options({"cats": cats}), dice(0), rules_version)
    assert state["routers"]["A4"] == "red"
    assert rotations(state, 0)


def test_cupboard_is_the_north_row_of_seven() -> None:
    """Rulebook: "one of 7 positions behind the grey controllers"; 4(d): "the N edge row
    F1-F7"."""
    assert G.view(fresh(CAT_MOUSE, 2), None)["cupboard"] == list(EDGES["N"])


def test_mouse_turns_only_towers_around_it() -> None:
    """V8: "any number of rotations ... of towers that contain the mouse's slot"."""
    state = fresh(CAT_MOUSE, 2)
    assert {m["tower"] for m in rotations(state, 0)} == set(SLOT_TOWERS["A4"]) == {"T12"}
    with pytest.raises(IllegalMove, match="stands on"):
        G.apply(state, 0, rotate("T11"), dice())


def test_mouse_may_rotate_several_times() -> None:
    """Rulebook: "The mouse can move all over the board"; V8: any number of rotations."""
    state = fresh(CAT_MOUSE, 2)
    state, _ = act(CAT_MOUSE, state, 0, rotate("T12", "ccw"), rotate("T12", "ccw"))
    assert state["routers"]["B6"] == "red"  # T12 is B5 B6 A5 A4 A3 B4: A4 -> A5 -> B6
    assert {m["tower"] for m in rotations(state, 0)} == {"T12", "T13", "T23"}


def test_tower_with_two_cats_is_closed_to_the_mouse() -> None:
    """Rulebook: "The mouse is only able to rotate one cat over one position. If there are
    more cats around the tower, the mouse has to find another way out"; V8."""
    state = position(CAT_MOUSE, routers={"E5": "red", "E4": "black", "E6": "black"})
    towers = {m["tower"] for m in rotations(state, 0)}
    assert "T52" not in towers and towers == {"T42", "T43"}
    with pytest.raises(IllegalMove, match="two cats"):
        G.apply(state, 0, rotate("T52"), dice())


def test_turning_a_cat_ends_the_mouses_rotations() -> None:
    """Rulebook: "The turn of the mouse ends as soon as one of the cats is also rotated"; V8:
    "Turning a tower with exactly 1 cat is allowed, moves that cat too, and ends the mouse's
    turn"."""
    state = position(CAT_MOUSE, routers={"E5": "red", "E4": "black", "E6": "black"})
    state, events = act(CAT_MOUSE, state, 0, rotate("T42", "cw"))  # E4 E5 D6 D5 D4 E3
    assert state["routers"]["E5"] == "black" and state["routers"]["D6"] == "red"
    assert rotations(state, 0) == []
    assert G.legal_moves(state, 0) == [UNDO, CONFIRM]
    assert "ends its rotations" in events[0]["text"]
    state, events = act(CAT_MOUSE, state, 0, UNDO)  # undo gives the rotations back
    assert rotations(state, 0)
    state, _ = act(CAT_MOUSE, state, 0, rotate("T42", "cw"))
    state, events = act(CAT_MOUSE, state, 0, CONFIRM)
    assert events[0]["text"] == "The mouse ends the turn after 1 action."


def test_mouse_must_rotate_at_least_once() -> None:
    """V8: "The mouse must make at least one rotation"."""
    state = fresh(CAT_MOUSE, 2)
    assert CONFIRM not in G.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="at least one"):
        G.apply(state, 0, CONFIRM, dice())


def test_mouse_turn_is_capped_at_thirty_rotations() -> None:
    """V8: "safety cap 30 rotations per turn"."""
    state = fresh(CAT_MOUSE, 2)
    state, _ = act(CAT_MOUSE, state, 0, *[rotate("T12", "cw"), rotate("T12", "ccw")] * 15)
    assert rotations(state, 0) == []
    assert CONFIRM in G.legal_moves(state, 0)


def test_cats_make_exactly_one_rotation_of_a_tower_with_a_cat() -> None:
    """Rulebook: "The cats can only rotate one tower over one position"; V8: "exactly one
    rotation of one position of a tower containing at least one cat"."""
    state = fresh(CAT_MOUSE, 2)
    state, _ = act(CAT_MOUSE, state, 0, rotate("T12"), CONFIRM)
    assert G.active_seats(state) == frozenset({1})
    assert CONFIRM not in G.legal_moves(state, 1)
    towers = {m["tower"] for m in rotations(state, 1)}
    assert towers == {t for t in TOWERS if cats_on(state, t) >= 1}
    with pytest.raises(IllegalMove, match="cat on it"):
        G.apply(state, 1, rotate("T12"), dice())
    state, _ = act(CAT_MOUSE, state, 1, rotate("T41"))
    assert rotations(state, 1) == [] and CONFIRM in G.legal_moves(state, 1)
    state, _ = act(CAT_MOUSE, state, 1, CONFIRM)
    assert G.active_seats(state) == frozenset({0})


def test_cats_may_not_reverse_the_mouses_last_rotation() -> None:
    """Rulebook: "The last rotation of the mouse cannot be undone"; V8: "except the exact
    reverse (same tower, opposite direction) of the mouse's last rotation"."""
    state = position(CAT_MOUSE, routers={"E5": "red", "E4": "black", "E6": "black"})
    state, _ = act(CAT_MOUSE, state, 0, rotate("T43", "cw"), CONFIRM)  # moves the cat on E6
    assert state["mouse_last"] == ["T43", "cw"]
    assert rotate("T43", "ccw") not in G.legal_moves(state, 1)
    assert rotate("T43", "cw") in G.legal_moves(state, 1)
    with pytest.raises(IllegalMove, match="undo the mouse"):
        G.apply(state, 1, rotate("T43", "ccw"), dice())


def test_mouse_wins_in_the_cupboard() -> None:
    """Rulebook: "The mouse either reaches the cupboard meaning one of 7 positions behind the
    grey controllers, and wins"; V8: "the moment it stands on one of the 7 cupboard slots"."""
    state = position(CAT_MOUSE, routers={"E2": "red", "D9": "black"})
    state, events = act(CAT_MOUSE, state, 0, rotate("T51", "cw"))  # F2 F3 E4 E3 E2 F1
    assert state["routers"]["F1"] == "red"
    assert G.outcome(state).winners == (0,)
    assert events[-1]["type"] == "game_over"


def test_mouse_wins_even_when_the_cats_push_it_in() -> None:
    """V8: "Mouse wins the moment it stands on one of the 7 cupboard slots (whoever moved
    it)"."""
    state = position(CAT_MOUSE, routers={"E2": "red", "F2": "black"}, seat=1)
    state, _ = act(CAT_MOUSE, state, 1, rotate("T51", "cw"))
    assert G.outcome(state).winners == (0,)


def test_cats_win_when_the_mouse_is_cornered() -> None:
    """Rulebook: "The mouse is captured when fully enclosed by the cats, there is no tower
    left for the mouse to rotate because all the adjacent towers are occupied by two (or
    more) cats"; V8: checked at the start of a mouse turn."""
    routers = {"E5": "red", "E4": "black", "E6": "black", "D4": "black", "D8": "black"}
    state = position(CAT_MOUSE, routers=routers, seat=1)
    state, _ = act(CAT_MOUSE, state, 1, rotate("T32", "cw"))  # D4 -> D5: T42 gets 2 cats
    assert state["phase"] == "play"  # the cats may still undo
    state, events = act(CAT_MOUSE, state, 1, CONFIRM)
    outcome = G.outcome(state)
    assert outcome.winners == (1,)
    assert "cornered" in outcome.reason and events[-1]["type"] == "game_over"


def test_the_last_rotation_is_the_one_standing_at_the_confirm() -> None:
    """Rulebook: "The last rotation of the mouse cannot be undone"; V8: the cats may not make
    "the exact reverse ... of the mouse's last rotation": the last one the mouse kept, not
    one it took back with undo before confirming."""
    state = fresh(CAT_MOUSE, 2)
    state, _ = act(CAT_MOUSE, state, 0, rotate("T12", "ccw"), rotate("T13", "cw"), UNDO, CONFIRM)
    assert state["mouse_last"] == ["T12", "ccw"]
    assert G.view(state, 1)["mouse_last"] == ["T12", "ccw"]
