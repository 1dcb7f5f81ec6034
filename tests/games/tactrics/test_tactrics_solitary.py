"""Tactrics: Solitary. Rulebook "#4 Solitary" with ruling V9 and our scenarios
(4(d), `data/solitary.json`)."""

from __future__ import annotations

import pytest
from tactrics_factories import SOLITARY, UNDO, act, dice, fresh, game, rotate

from app.engine.contract import IllegalMove
from app.engine.dice import Dice
from app.games.tactrics.board import NEIGHBOUR_TOWERS, TOWER_SLOTS, TOWERS
from app.games.tactrics.solitary import Solitary

G = game(SOLITARY)


def solved_but_one(state):
    """Red's target is T11 (B3 B4 A3 A2 A1 B2): red fills it except B4, and the sixth red
    router is on C4. T22 (C5 C6 B5 B4 B3 C4) anticlockwise moves C4 -> B3 -> B4 and the
    empty B4 -> B5, which brings all six home."""
    new = dict(state)
    new["targets"] = {"red": "T11"}
    new["routers"] = {slot: "red" for slot in ("B3", "A3", "A2", "A1", "B2", "C4")}
    return new


def test_one_player_and_lowest_score_is_best() -> None:
    """Rulebook: "This is a game for one player"; V9: "Score = number of rotations (lower is
    better)"; the platform keeps the best (lowest) result per player (record_order)."""
    assert (G.min_players, G.max_players) == (1, 1)
    assert Solitary.record_order == "low"


@pytest.mark.parametrize("colours", [1, 3, 6])
def test_split_setup_places_routers_randomly(colours) -> None:
    """Rulebook: "Place the routers on the dynamic board randomly"; V9: "K colours (1-6, 6
    routers each) ... all routers are placed on random distinct slots"; 4(d) split: target
    towers = the six corner towers."""
    state = fresh(SOLITARY, 1, colours=colours)
    assert len(state["routers"]) == 6 * colours
    assert len(state["targets"]) == colours
    corners = ["T11", "T31", "T51", "T53", "T35", "T13"]
    assert list(state["targets"].values()) == corners[:colours]
    for colour in state["targets"]:
        assert sum(1 for c in state["routers"].values() if c == colour) == 6
    other = G.setup(1, G.parse_options({"colours": colours}), Dice("another seed", 0))
    assert other["routers"] != state["routers"]


def test_clustered_targets_ring_the_centre() -> None:
    """4(d): "Clustered: 3 colours on alternate inner-ring towers around the centre ...
    pairwise non-adjacent; together they cover all 6 slots of the centre tower T33"."""
    state = fresh(SOLITARY, 1, scenario="clustered", colours=6)
    targets = list(state["targets"].values())
    assert len(targets) == 3  # clustered has at most 3 colours
    assert sorted(targets) == ["T22", "T34", "T42"]
    for a in targets:
        assert not set(NEIGHBOUR_TOWERS[a]) & set(targets)
    covered = set().union(*(TOWER_SLOTS[t] for t in targets))
    assert set(TOWER_SLOTS["T33"]) <= covered


def test_target_towers_share_no_slot() -> None:
    """V9: target towers "pairwise non-adjacent, so no slot is shared"."""
    for scenario, count in (("split", 6), ("clustered", 3)):
        targets = list(fresh(SOLITARY, 1, scenario=scenario, colours=count)["targets"].values())
        slots = [s for t in targets for s in TOWER_SLOTS[t]]
        assert len(slots) == len(set(slots))


def test_any_tower_may_turn() -> None:
    """Rulebook: "you can rotate any tower, as many times as you wish"; V9: "no majority
    rule"."""
    state = fresh(SOLITARY, 1)
    towers = {m["tower"] for m in G.legal_moves(state, 0) if m["type"] == "rotate"}
    assert towers == set(TOWERS)


def test_solved_when_every_router_is_around_its_tower() -> None:
    """Rulebook: "All routers are gathered around the tower matching their colour"; V9:
    "Solved when every router is on a slot of its colour's target tower"; the Outcome's
    score is the number of rotations (V9) with the scenario as record key."""
    state = solved_but_one(fresh(SOLITARY, 1, colours=1))
    state["rotations"] = 11
    state, _ = act(SOLITARY, state, 0, rotate("T33"))  # touches no red router
    assert state["phase"] == "play" and G.outcome(state) is None
    state, events = act(SOLITARY, state, 0, rotate("T22", "ccw"))
    outcome = G.outcome(state)
    assert events[-1]["type"] == "game_over"
    assert outcome.winners == (0,)
    assert outcome.scores == {0: 13}
    assert outcome.details["record_key"] == "split-1"


def test_rotations_are_counted_and_undo_does_not_count() -> None:
    """Rulebook: "with as little rotations as possible"; V9: Score = number of rotations. An
    undone rotation never happened, so it does not count."""
    state = fresh(SOLITARY, 1)
    state, _ = act(SOLITARY, state, 0, rotate("T33"), rotate("T22", "ccw"))
    assert state["rotations"] == 2
    state, events = act(SOLITARY, state, 0, UNDO)
    assert state["rotations"] == 1
    assert events[0]["type"] == "undo" and events[0]["direction"] == "cw"
    before = fresh(SOLITARY, 1)
    state, _ = act(SOLITARY, state, 0, UNDO)
    assert state["routers"] == before["routers"] and state["rotations"] == 0
    assert UNDO not in G.legal_moves(state, 0)


def test_turning_straight_back_is_spelled_undo() -> None:
    """V9 counts rotations: turning the last tower straight back is the undo move (not
    counted), so the plain reverse rotation is refused with a pointer to Undo."""
    state, _ = act(SOLITARY, fresh(SOLITARY, 1), 0, rotate("T33", "cw"))
    assert rotate("T33", "ccw") not in G.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="Undo"):
        G.apply(state, 0, rotate("T33", "ccw"), dice())


def test_view_counts_rotations_and_routers_home() -> None:
    """V9: the score (rotations) is shown; the view also says how many routers are home."""
    state = fresh(SOLITARY, 1)
    view = G.view(state, 0)
    assert view["rotations"] == 0 and view["total"] == 18
    assert 0 <= view["placed"] <= 18
    assert view["record_key"] == "split-3"


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        ({"scenario": "clustered", "colours": 6}, True),
        ({"scenario": "clustered", "colours": 2}, True),
        ({"scenario": "clustered", "colours": 3}, False),
        ({"scenario": "split", "colours": 6}, False),
        ({"scenario": "split", "colours": 1}, False),
    ],
)
def test_clustered_is_played_with_three_colours(options, refused) -> None:
    """4(d) Solitary scenarios: "Clustered: 3 colours on alternate inner-ring towers around
    the centre"; split takes "up to 6 colours". The lobby refuses a clustered start with
    another number of colours, with the reason, instead of set-up quietly changing it."""
    reason = G.check_start(1, G.parse_options(options))
    if refused:
        assert reason is not None and "3 colours" in reason
    else:
        assert reason is None
