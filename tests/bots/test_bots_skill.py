"""Issue 15: normal "plays to win". In C64 Tanks (aim, with bullets that bounce off turning
mirrors, then shoot) a normal bot on a small budget beats a uniformly random player."""

from __future__ import annotations

import random

from app.bots.choose import decide
from app.bots.levels import Settings
from app.engine.dice import Dice
from app.engine.registry import get_game

SMALL_NORMAL = Settings(iterations=16, depth=6, candidates=3, greedy=0.85, blunder=0.0)
GAMES = 6
MAX_MOVES = 2_000


def play_against_random(seed: int, bot_seat: int) -> tuple[int, ...] | None:
    game = get_game("c64-tanks")
    assert game is not None
    state = game.setup(2, game.parse_options({}), Dice(f"skill-{seed}", 0))
    randomly = random.Random(seed)
    for number in range(1, MAX_MOVES + 1):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome.winners
        seat = randomly.choice(sorted(game.active_seats(state)))
        legal = game.legal_moves(state, seat)
        if seat == bot_seat:
            move = decide(game, state, seat, SMALL_NORMAL, seed * 10_000 + number)
        else:
            move = randomly.choice(legal)
        state, _events = game.apply(state, seat, move, Dice(f"skill-{seed}", number))
    return None


def test_normal_beats_a_random_player_at_c64_tanks() -> None:
    results = [play_against_random(seed, bot_seat=seed % 2) for seed in range(GAMES)]
    bot_wins = sum(winners == (seed % 2,) for seed, winners in enumerate(results))
    assert bot_wins >= GAMES - 1, results
