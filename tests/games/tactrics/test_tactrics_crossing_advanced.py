"""Tactrics: Crossing Advanced. Rulebook "#2 Crossing Advanced" ("Actions" 2-4 and the
minority rotation rule on claimed towers) with rulings V6 and V7 (docs/rules/).
Two players: seat 0 red (T11 -> T53), seat 1 blue (T53 -> T11)."""

from __future__ import annotations

import pytest
from tactrics_factories import ADVANCED, CONFIRM, UNDO, act, dice, fresh, game, position, rotate

from app.engine.contract import IllegalMove
from app.games.tactrics.board import TOWER_SLOTS

G = game(ADVANCED)
T22 = TOWER_SLOTS["T22"]  # C5 C6 B5 B4 B3 C4
FAR = {"C11": "blue", "A7": "blue", "F1": "red"}  # keeps both players away from finishing


def claim(tower, slot, to=None):
    move = {"type": "claim", "tower": tower, "slot": slot}
    if to is not None:
        move["to"] = to
    return move


# --------------------------------------------------------------------- set-up (V7)
def test_setup_places_two_controllers_on_own_starting_routers() -> None:
    """V7: "each player places 2 controllers on 2 of her own starting routers (her choice)";
    placements are simultaneous and play starts when all are placed."""
    state = fresh(ADVANCED, 2)
    assert state["phase"] == "setup"
    assert G.active_seats(state) == frozenset({0, 1})
    red = {s for s, c in state["routers"].items() if c == "red"}
    assert {m["slot"] for m in G.legal_moves(state, 0)} == red
    state, _ = act(ADVANCED, state, 0, {"type": "place", "slot": "A1"})
    state, _ = act(ADVANCED, state, 0, {"type": "place", "slot": "A2"})
    assert G.active_seats(state) == frozenset({1})
    with pytest.raises(IllegalMove):
        G.apply(state, 0, {"type": "place", "slot": "A3"}, dice())
    with pytest.raises(IllegalMove, match="own starting routers"):  # not an opponent's router
        G.apply(state, 1, {"type": "place", "slot": "A3"}, dice())
    with pytest.raises(IllegalMove, match="Set-up first"):
        G.apply(state, 1, rotate("T53"), dice())
    state, _ = act(ADVANCED, state, 1, {"type": "place", "slot": "F6"})
    state, events = act(ADVANCED, state, 1, {"type": "place", "slot": "F7"})
    assert state["phase"] == "play" and G.active_seats(state) == frozenset({0})
    assert state["controllers"] == {"A1": 0, "A2": 0, "F6": 1, "F7": 1}
    assert events[-1]["type"] == "start"


# --------------------------------------------------------------------- claim (action 2)
def test_claim_needs_a_controller_and_an_absolute_majority() -> None:
    """Rulebook: "You are only allowed to claim a tower when you have a controller present on
    one of your routers surrounding the tower and an absolute majority of coloured routers
    over any of your opponents"; V7: "strictly more routers there than each other player"."""
    routers = {T22[0]: "red", T22[1]: "red", T22[2]: "blue", **FAR}
    state = position(ADVANCED, routers=routers, controllers={T22[0]: 0})
    assert claim("T22", T22[0]) in G.legal_moves(state, 0)
    state, events = act(ADVANCED, state, 0, claim("T22", T22[0]))
    assert state["claims"] == {"T22": 0}
    assert T22[0] not in state["controllers"]  # the controller went onto the tower
    assert events[0]["type"] == "claim"


def test_no_claim_on_a_tie_or_without_a_controller_there() -> None:
    """V7: a tie is not an absolute majority; the controller must stand on one of the
    tower's slots ("a controller present on one of your routers surrounding the tower")."""
    tie = position(
        ADVANCED, routers={T22[0]: "red", T22[2]: "blue", **FAR}, controllers={T22[0]: 0}
    )
    assert not [m for m in G.legal_moves(tie, 0) if m["type"] == "claim" and m["tower"] == "T22"]
    with pytest.raises(IllegalMove, match="more routers"):
        G.apply(tie, 0, claim("T22", T22[0]), dice())
    away = position(ADVANCED, routers={T22[0]: "red", T22[1]: "red", **FAR}, controllers={"F1": 0})
    assert not [m for m in G.legal_moves(away, 0) if m["type"] == "claim" and m["tower"] == "T22"]


def test_capture_puts_the_opponents_controller_on_her_router_of_the_captors_choice() -> None:
    """Rulebook: "When you (re) capture a tower from one of your opponents, their controller
    will be placed on one of their routers, of your choosing"; V7."""
    routers = {T22[0]: "red", T22[1]: "red", T22[2]: "blue", **FAR}
    state = position(ADVANCED, routers=routers, controllers={T22[0]: 0}, claims={"T22": 1})
    captures = [m for m in G.legal_moves(state, 0) if m["type"] == "claim" and m["tower"] == "T22"]
    assert {m.get("to") for m in captures} == {T22[2], "C11", "A7"}
    state, events = act(ADVANCED, state, 0, claim("T22", T22[0], to="A7"))
    assert state["claims"] == {"T22": 0}
    assert state["controllers"]["A7"] == 1
    assert "captures" in events[0]["text"]


def test_captured_controller_without_a_free_router_goes_to_the_reserve() -> None:
    """V7: "(if none exists, it goes back to the opponent's reserve)"."""
    routers = {T22[0]: "red", T22[1]: "red", T22[2]: "blue", "F1": "red"}
    state = position(
        ADVANCED, routers=routers, controllers={T22[0]: 0, T22[2]: 1}, claims={"T22": 1}
    )
    assert claim("T22", T22[0]) in G.legal_moves(state, 0)
    state, _ = act(ADVANCED, state, 0, claim("T22", T22[0]))
    assert state["reserve"] == [0, 1]


def test_claimed_tower_only_the_claimant_may_turn() -> None:
    """4(b) web manual: "claimed towers cannot be turned by opponents"; V7: "only the
    claimant may turn it with the normal V3 rule"."""
    routers = {T22[0]: "red", T22[2]: "blue", T22[3]: "blue", **FAR}
    blue = position(ADVANCED, routers=routers, claims={"T22": 0}, seat=1)
    assert rotate("T22") not in G.legal_moves(blue, 1)
    with pytest.raises(IllegalMove, match="claimed by Red"):
        G.apply(blue, 1, rotate("T22"), dice())
    red = position(
        ADVANCED, routers={T22[0]: "red", T22[2]: "blue", **FAR}, claims={"T22": 0}, seat=0
    )
    assert rotate("T22") in G.legal_moves(red, 0)


def test_claimant_still_needs_the_majority_rule() -> None:
    """V7: the claimant turns her tower "with the normal V3 rule"."""
    routers = {T22[0]: "red", T22[2]: "blue", T22[3]: "blue", **FAR}
    red = position(ADVANCED, routers=routers, claims={"T22": 0}, seat=0)
    assert rotate("T22") not in G.legal_moves(red, 0)


def test_minority_rule_turns_an_opponents_claimed_tower_for_one_controller() -> None:
    """Rulebook: "when playing Crossing Advanced you are also allowed to rotate towers claimed
    by one of your opponents ... When you are both in a minority position as well as on a
    claimed tower, it will still only cost you one controller"; V6."""
    routers = {T22[0]: "red", T22[2]: "blue", T22[3]: "blue", **FAR}
    state = position(ADVANCED, routers=routers, claims={"T22": 1}, seat=0, minority_rotation=True)
    assert rotate("T22", reserve=True) in G.legal_moves(state, 0)
    state, _ = act(ADVANCED, state, 0, rotate("T22", reserve=True))
    assert state["reserve"] == [1, 2]
    majority = position(
        ADVANCED,
        routers={T22[0]: "red", T22[1]: "red", **FAR},
        claims={"T22": 1},
        seat=0,
        minority_rotation=True,
    )
    assert rotate("T22", reserve=True) in G.legal_moves(majority, 0)
    assert rotate("T22") not in G.legal_moves(majority, 0)


def test_controllers_turn_with_their_routers() -> None:
    """V2: "Controllers standing on routers move with them"."""
    state = position(ADVANCED, routers={T22[0]: "red", **FAR}, controllers={T22[0]: 0})
    state, _ = act(ADVANCED, state, 0, rotate("T22", "cw"))
    assert state["controllers"] == {T22[1]: 0}
    state, _ = act(ADVANCED, state, 0, UNDO)
    assert state["controllers"] == {T22[0]: 0}


# --------------------------------------------------------------------- move (action 3)
def test_controller_moves_along_touching_routers_of_any_colour() -> None:
    """Rulebook: "move a controller from one router to another ... over a longer distance,
    where the routers are side by side creating a path"; V7: "along a chain of edge-adjacent
    occupied slots (routers of any colour); any length"."""
    chain = {"A1": "red", "A2": "blue", "A3": "blue", "A4": "red", "A6": "red", **FAR}
    state = position(ADVANCED, routers=chain, controllers={"A1": 0})
    moves = [m for m in G.legal_moves(state, 0) if m["type"] == "move_controller"]
    assert moves == [{"type": "move_controller", "from": "A1", "to": "A4"}]  # A5 is a gap
    state, events = act(ADVANCED, state, 0, moves[0])
    assert state["controllers"] == {"A4": 0}
    assert "along touching routers" in events[0]["text"]


def test_controller_moves_only_to_a_free_router_of_your_own() -> None:
    """V7: "to another of your routers without a controller"."""
    chain = {"A1": "red", "A2": "red", "A3": "blue", **FAR}
    state = position(ADVANCED, routers=chain, controllers={"A1": 0, "A2": 0})
    assert not [m for m in G.legal_moves(state, 0) if m["type"] == "move_controller"]
    with pytest.raises(IllegalMove, match="without a controller"):
        G.apply(state, 0, {"type": "move_controller", "from": "A1", "to": "A3"}, dice())


# --------------------------------------------------------------------- take back (action 4)
def test_take_back_uses_the_whole_turn() -> None:
    """Rulebook: "relocate a controller from a previously claimed tower onto one of your
    routers. This will, however, use up your entire turn (4 actions)"; V7: "only on a turn
    with 4 actions and before any other action"."""
    routers = {T22[0]: "red", **FAR}
    state = position(ADVANCED, routers=routers, claims={"T22": 0}, index=5)
    move = {"type": "take_back", "tower": "T22", "to": T22[0]}
    assert move in G.legal_moves(state, 0)
    state, events = act(ADVANCED, state, 0, move)
    assert state["claims"] == {} and state["controllers"] == {T22[0]: 0}
    assert [m["type"] for m in G.legal_moves(state, 0)] == ["undo", "confirm"]
    assert "whole turn" in events[0]["text"]
    state, _ = act(ADVANCED, state, 0, UNDO)
    assert state["claims"] == {"T22": 0} and state["turn"]["used"] == 0


def test_no_take_back_after_another_action_or_in_a_short_turn() -> None:
    """V7: "only on a turn with 4 actions and before any other action"."""
    routers = {T22[0]: "red", **FAR}
    state = position(ADVANCED, routers=routers, claims={"T22": 0}, index=5)
    state, _ = act(ADVANCED, state, 0, rotate("T22"))
    assert not [m for m in G.legal_moves(state, 0) if m["type"] == "take_back"]
    short = position(ADVANCED, routers=routers, claims={"T22": 0}, index=2)
    assert short["turn"]["allowed"] == 3
    assert not [m for m in G.legal_moves(short, 0) if m["type"] == "take_back"]


def test_crossing_has_no_controller_actions() -> None:
    """Rulebook: "playing Crossing this is the only possible action" (rotation)."""
    crossing = game("tactrics-crossing")
    state = position("tactrics-crossing", routers={T22[0]: "red", T22[1]: "red", **FAR})
    state["controllers"] = {T22[0]: 0}
    assert {m["type"] for m in crossing.legal_moves(state, 0)} <= {"rotate", "confirm", "undo"}
    with pytest.raises(IllegalMove, match="only action"):
        crossing.apply(state, 0, claim("T22", T22[0]), dice())
    assert CONFIRM in crossing.legal_moves(state, 0)
