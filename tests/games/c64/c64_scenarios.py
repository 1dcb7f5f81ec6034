"""Scenario steps the C64 rules tests share, whatever the game: a card played from a built
position, the checks that no seat can act after the end, the view that is the same for every
seat, random legal play (for the contract and determinism properties) and its replay.

(Named c64_scenarios, not scenarios, because tests have no __init__ files and pytest's
rootdir imports need helper module names that are unique across the whole tests tree.)
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from c64_factories import dice, holding, play_move
from hypothesis import strategies as st

from app.engine.contract import BadMove, Event, IllegalMove, State
from app.engine.registry import get_game
from app.games.c64.base import C64Game
from app.games.c64.geometry import FACES

Log = list[tuple[int, dict[str, Any]]]


def registered(game_id: str, title: str, seats: tuple[int, int]) -> C64Game:
    """The game registered as `game_id`: a C64 game with its `title` and (min, max) `seats`,
    rules version 1 (Monsters 2, which still plays 1: its log's words changed), chance (the
    shuffle and the first-player draw) and nothing hidden, no lobby options; its set-up
    refuses one player too few or too many."""
    game = get_game(game_id)
    assert isinstance(game, C64Game)
    assert (game.title, game.min_players, game.max_players) == (title, *seats)
    assert game.knows_rules("1")
    assert game.has_chance is True and game.hidden_information is False
    assert game.parse_options({}).model_dump() == game.parse_options(None).model_dump() == {}
    for players in (seats[0] - 1, seats[1] + 1):
        with pytest.raises(ValueError):
            game.setup(players, game.parse_options(None), dice())
    return game


def act_with(game: C64Game, state: State, seat: int, face: str) -> tuple[State, list[Event]]:
    """`seat` plays a card showing `face` (given to it for the purpose, and the turn with it);
    the position it is played from is not changed by the move."""
    state = copy.deepcopy(state)
    state["joysticks"][seat] = holding(face)
    state["turn"] = seat
    before = copy.deepcopy(state)
    new, events = game.apply(state, seat, play_move(game, state, seat, face), dice())
    assert state == before
    return new, events


def nobody_moves_after_the_end(
    game: C64Game, state: State, seats: Iterable[int], refused: int = 1
) -> None:
    """The game is over: no seat may act, none of `seats` has a legal move, and a play by
    seat `refused` is refused."""
    assert game.active_seats(state) == frozenset()
    assert all(game.legal_moves(state, s) == [] for s in seats)
    with pytest.raises(IllegalMove):
        game.apply(state, refused, {"type": "play", "card": 0, "to": [0, 0]}, dice())


def public_view(game: C64Game, state: State, other_seat: int) -> dict[str, Any]:
    """Seat 0's view, which is JSON and the same for a watcher and for `other_seat` (C64
    games hide nothing)."""
    view = game.view(state, 0)
    assert view == game.view(state, None) == game.view(state, other_seat)
    assert json.loads(json.dumps(view)) == view
    return dict(view)


# --- random legal play --------------------------------------------------------------------------
def random_moves(
    game: C64Game, start: State, steps: int, pick: Callable[[int], int]
) -> Iterator[tuple[State, list[Event]]]:
    """Up to `steps` random legal moves from `start`, until the game is over (seat and move
    chosen by `pick(n)`, dice of move number 0): yields (state, events) after each."""
    state = start
    for _ in range(steps):
        if state["phase"] == "over":
            break
        seats = sorted(game.active_seats(state))
        seat = seats[pick(len(seats))]
        moves = game.legal_moves(state, seat)
        state, events = game.apply(state, seat, moves[pick(len(moves))], dice())
        yield state, events


def random_state(game: C64Game, start: State, steps: int, pick: Callable[[int], int]) -> State:
    """The state after random_moves(game, start, steps, pick)."""
    state = start
    for after, _ in random_moves(game, start, steps, pick):
        state = after
    return state


_card = st.fixed_dictionaries({"card": st.integers(-1, 9), "face": st.sampled_from(FACES)})
_cell = st.lists(st.integers(-1, 3), min_size=2, max_size=2)
MOVE_CANDIDATES = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("take"), "cards": st.lists(_card, min_size=1, max_size=3)}
    ),
    st.fixed_dictionaries({"type": st.just("return"), "card": st.integers(-1, 9), "to": _cell}),
    st.fixed_dictionaries(
        {"type": st.just("play"), "card": st.integers(0, 8), "to": _cell},
        optional={"next": st.lists(_card, min_size=2, max_size=2)},
    ),
)
"""Moves of every C64 kind, legal or not (cards and cells out of range included)."""


def check_apply_contract(game: C64Game, start: State, label: str, steps: int, data: Any) -> None:
    """Contract: apply raises IllegalMove for anything not legal and leaves the state
    unchanged (compared to a deep copy); a legal move changes the state, has events and never
    changes its input either. The state: random_state after up to `steps` moves from `start`
    (picked with dice(label)); the seat and the move (a legal one or a MOVE_CANDIDATES one)
    are drawn from `data`."""
    rng = dice(label)
    state = random_state(game, start, steps, rng.below)
    seat = data.draw(st.integers(0, len(start["players"]) - 1), label="seat")
    legal = game.legal_moves(state, seat)
    if legal and data.draw(st.booleans(), label="pick a legal move"):
        raw = copy.deepcopy(data.draw(st.sampled_from(legal), label="legal"))
    else:
        raw = data.draw(MOVE_CANDIDATES, label="candidate")
    try:
        canonical = game.parse_move(raw)
    except BadMove:
        canonical = None
    before = copy.deepcopy(state)
    if canonical is not None and canonical in legal:
        new, events = game.apply(state, seat, raw, dice())
        assert new != state
        assert events
    else:
        with pytest.raises(IllegalMove):
            game.apply(state, seat, raw, dice())
    assert state == before


def random_playout(game: C64Game, start: State, label: str, cap: int) -> tuple[State, Log]:
    """Seeded (`label`) random legal play from `start` until the game is over or `cap` moves
    are made: (the last state, the log of (seat, move)). Move k is applied with the dice of
    move number k, as the server does."""
    rng = dice(label)
    state, log = start, []
    while state["phase"] != "over" and len(log) < cap:
        seats = sorted(game.active_seats(state))
        seat = seats[rng.below(len(seats))]
        moves = game.legal_moves(state, seat)
        move = moves[rng.below(len(moves))]
        log.append((seat, move))
        state, _ = game.apply(state, seat, move, dice(move_number=len(log)))
    return state, log


def replayed(game: C64Game, start: State, log: Log) -> State:
    """The state after the moves of `log` from `start`, each with its move number's dice."""
    state = start
    for k, (seat, move) in enumerate(log, 1):
        state, _ = game.apply(state, seat, move, dice(move_number=k))
    return state
