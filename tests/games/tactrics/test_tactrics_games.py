"""What the four Tactrics games share: seats (V10), the options a lobby offers
(docs/rules/README.md), exact undo of any turn (V4), and the line finish (V5)."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tactrics_factories import (
    ADVANCED,
    CAT_MOUSE,
    CROSSING,
    SOLITARY,
    UNDO,
    act,
    dice,
    fresh,
    game,
    position,
    rotate,
)

from app.games.tactrics.board import EDGES


def test_player_counts() -> None:
    """V10: "Crossing and Crossing Advanced: 2-6 players ... Cat & Mouse: 2 players.
    Solitary: 1"."""
    ranges = {
        g: (game(g).min_players, game(g).max_players)
        for g in (CROSSING, ADVANCED, CAT_MOUSE, SOLITARY)
    }
    assert ranges == {CROSSING: (2, 6), ADVANCED: (2, 6), CAT_MOUSE: (2, 2), SOLITARY: (1, 1)}


def test_lobby_options() -> None:
    """docs/rules/README.md: Crossing offers "minority rotation rule, teams (4 or 6), routers per
    player (3-6, or 7 with the line start), line variant" (Advanced "as Crossing"); Cat &
    Mouse "4 or 5 cats"; Solitary "split or clustered, number of colours". Defaults are the
    rulebook's standard game: options off, 6 routers, 4 cats."""
    for g in (CROSSING, ADVANCED):
        props = game(g).options_schema()["properties"]
        assert set(props) == {"minority_rotation", "teams", "routers", "line"}
        assert (props["routers"]["minimum"], props["routers"]["maximum"]) == (3, 7)
        defaults = game(g).parse_options({}).model_dump()
        assert defaults == {"minority_rotation": False, "teams": False, "routers": 6, "line": False}
    assert set(game(CAT_MOUSE).options_schema()["properties"]) == {"cats"}
    assert game(CAT_MOUSE).parse_options({}).model_dump() == {"cats": 4}
    assert set(game(SOLITARY).options_schema()["properties"]) == {"scenario", "colours"}


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=1, max_value=4))
def test_undo_of_a_whole_turn_restores_it_exactly(seed: int, actions: int) -> None:
    """V4: actions apply one by one with undo until the player confirms; undoing them all
    gives back exactly the position the turn started from (controllers, claims, reserves
    and the action count included)."""
    chooser = random.Random(seed)
    g = game(ADVANCED)
    state = fresh(ADVANCED, 2, minority_rotation=True)
    for seat in (0, 0, 1, 1):  # the set-up: two controllers each
        state, _ = g.apply(state, seat, chooser.choice(g.legal_moves(state, seat)), dice())
    for _ in range(chooser.randrange(6)):  # a few turns in
        seat = state["turn"]["seat"]
        move = chooser.choice([m for m in g.legal_moves(state, seat) if m["type"] != "undo"])
        state, _ = g.apply(state, seat, move, dice())
        if g.outcome(state):
            return
    start = copy.deepcopy(state)
    seat = state["turn"]["seat"]
    done = 0
    for _ in range(actions):
        moves = [m for m in g.legal_moves(state, seat) if m["type"] not in ("undo", "confirm")]
        if not moves:
            break
        state, _ = g.apply(state, seat, chooser.choice(moves), dice())
        if g.outcome(state):
            return
        done += 1
    for _ in range(done):
        state, _ = g.apply(state, seat, UNDO, dice())
    assert state == start


def test_line_variant_finish_on_the_far_row() -> None:
    """V5: "Goal area = ... (line variant) the 7 slots of the target edge row"; 4(d): "goal =
    any 6 of F1-F7". Red has five routers on row F and one on E6; T52 (F4 F5 E6 E5 E4 F3)
    anticlockwise moves E6 -> F5, F5 -> F4, F4 -> F3 and the empty F3 -> E4: six on row F."""
    routers = {
        "F1": "red",
        "F2": "red",
        "F4": "red",
        "F6": "red",
        "F7": "red",
        "E6": "red",
        "A4": "blue",
    }
    state = position(CROSSING, routers=routers, line=True)
    assert state["players"][0]["goal"] == list(EDGES["N"])
    state, _ = act(CROSSING, state, 0, rotate("T52", "ccw"))
    assert sorted(s for s, c in state["routers"].items() if c == "red") == [
        "F1",
        "F2",
        "F3",
        "F5",
        "F6",
        "F7",
    ]
    assert game(CROSSING).outcome(state).winners == (0,)
