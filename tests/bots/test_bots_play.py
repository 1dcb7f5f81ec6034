"""Issue 15 part 1, "Tests": every registered game has bots that play seeded games to the end,
at every player count it supports, choosing only legal moves, deterministically for a seed.

Small search budgets keep the suite quick; the levels' real budgets are measured in bench/.
"""

from __future__ import annotations

import copy
import random

import pytest

from app.bots import LEVELS, choose_move
from app.bots.choose import decide
from app.bots.levels import SETTINGS, Settings
from app.engine.contract import Game
from app.engine.dice import Dice
from app.engine.registry import all_games

GAMES = all_games()
SMALL = {
    "normal": Settings(iterations=4, depth=3, candidates=2, greedy=0.85, blunder=0.0),
    "easy": Settings(iterations=2, depth=2, candidates=2, greedy=0.6, blunder=0.3),
}
CAPPED_MOVES = 600
"""For games whose play may go on for ever with more than two players (Game docstring): the
checks hold over this many moves."""
MAX_MOVES = 20_000


def bot_game(game: Game, players: int, seed: int) -> tuple[dict, int]:
    """Bots of both levels (alternating by seat) play a seeded game; returns the last state
    and the number of moves. Every chosen move is checked against the legal moves."""
    state = game.setup(players, game.parse_options({}), Dice(f"bots-{seed}", 0))
    limit = MAX_MOVES if game.playouts_always_end or players <= 2 else CAPPED_MOVES
    turn_picker = random.Random(seed)
    for number in range(1, limit + 1):
        if game.outcome(state) is not None:
            return state, number - 1
        seat = turn_picker.choice(sorted(game.active_seats(state)))
        level = LEVELS[seat % len(LEVELS)]
        move = decide(game, state, seat, SMALL[level], seed * 100_000 + number)
        assert move in game.legal_moves(state, seat), f"{level} bot chose an illegal move"
        state, _events = game.apply(state, seat, move, Dice(f"bots-{seed}", number))
    return state, limit


CASES = [(g, n) for g in GAMES for n in range(g.min_players, g.max_players + 1)]


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g.id}-{n}p" for g, n in CASES])
def test_bots_play_a_seeded_game_to_the_end(game: Game, players: int) -> None:
    state, moves = bot_game(game, players, seed=1)
    if game.playouts_always_end or players <= 2:
        outcome = game.outcome(state)
        assert outcome is not None, f"no outcome after {moves} bot moves"
        assert all(0 <= w < players for w in outcome.winners)
    else:
        assert game.outcome(state) is not None or moves == CAPPED_MOVES


def midgame_states(game: Game, players: int, seed: int, count: int) -> list[tuple[dict, int]]:
    """States from a seeded random game where some seat has a real choice to make."""
    chooser = random.Random(seed)
    state = game.setup(players, game.parse_options({}), Dice(f"mid-{seed}", 0))
    found: list[tuple[dict, int]] = []
    number = 0
    while game.outcome(state) is None and len(found) < count and number < 2_000:
        seat = chooser.choice(sorted(game.active_seats(state)))
        legal = game.legal_moves(state, seat)
        if len(legal) > 1 and chooser.random() < 0.2:
            found.append((state, seat))
        number += 1
        state, _events = game.apply(state, seat, chooser.choice(legal), Dice(f"mid-{seed}", number))
    return found


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_same_seed_same_move_and_the_state_is_untouched(game: Game) -> None:
    for state, seat in midgame_states(game, game.max_players, seed=4, count=3):
        before = copy.deepcopy(state)
        for level in LEVELS:
            first = decide(game, state, seat, SMALL[level], 77)
            again = decide(game, copy.deepcopy(state), seat, SMALL[level], 77)
            assert first == again
            assert first in game.legal_moves(state, seat)
        assert state == before, "a bot must not change the state it thinks about"


def test_choose_move_plays_the_levels_by_name_deterministically() -> None:
    game = next(g for g in GAMES if g.id == "tactrics-cat-mouse")
    state, seat = midgame_states(game, 2, seed=2, count=1)[0]
    for level in LEVELS:
        move = choose_move(game.id, state, seat, level, seed=5)
        assert move == choose_move(game.id, state, seat, level, seed=5)
        assert move in game.legal_moves(state, seat)


def test_a_single_legal_move_is_played_without_search() -> None:
    game = next(g for g in GAMES if g.id == "c64-maze")
    state = game.setup(2, game.parse_options({}), Dice("single", 0))
    only = game.legal_moves(state, 0)[:1]

    class OneMove(type(game)):  # type: ignore[misc]
        def legal_moves(self, state: dict, seat: int) -> list[dict]:
            return only

        def apply(self, *args: object, **kwargs: object) -> object:
            raise AssertionError("no search for a forced move")

    assert decide(OneMove(), state, 0, SETTINGS["normal"], 1) == only[0]


def test_unknown_game_level_or_seat_without_moves_is_refused() -> None:
    game = next(g for g in GAMES if g.id == "c64-maze")
    state = game.setup(2, game.parse_options({}), Dice("refuse", 0))
    with pytest.raises(ValueError, match="no game"):
        choose_move("no-such-game", state, 0, "normal", 1)
    with pytest.raises(ValueError, match="no bot level"):
        choose_move(game.id, state, 0, "grandmaster", 1)
    with pytest.raises(ValueError, match="no legal move"):
        choose_move(game.id, state, 5, "normal", 1)
