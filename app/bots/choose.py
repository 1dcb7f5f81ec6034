"""`choose_move`: a computer player's decision for one seat, at one level."""

from __future__ import annotations

import random
import time

from app.bots.levels import Settings, settings_for
from app.bots.search import search_move
from app.engine.contract import Game, Move, State
from app.engine.registry import get_game


def choose_move(
    game_id: str,
    state: State,
    seat: int,
    level: str,
    seed: int,
    time_budget: float | None = None,
) -> Move:
    """One of `seat`'s legal moves, chosen at `level` ("easy" or "normal").

    Pure and synchronous (the server runs it in a worker process). The bot sees the state only
    through `legal_moves` and `Game.sample_hidden`, so it never peeks at hidden parts. Same
    arguments with `time_budget=None` give the same move; a time budget (seconds) stops the
    search early, when its result depends on the machine's speed."""
    game = get_game(game_id)
    if game is None:
        raise ValueError(f"There is no game {game_id!r}.")
    return decide(game, state, seat, settings_for(level), seed, time_budget)


def decide(
    game: Game,
    state: State,
    seat: int,
    settings: Settings,
    seed: int,
    time_budget: float | None = None,
) -> Move:
    """`choose_move` for a game object and explicit settings (tests use small budgets)."""
    started = time.perf_counter()
    legal = game.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"Seat {seat} has no legal move now.")
    if len(legal) == 1:
        return legal[0]
    if settings.blunder and random.Random(f"bot-{seed}-blunder").random() < settings.blunder:
        return random.Random(f"bot-{seed}-pick").choice(legal)
    deadline = None if time_budget is None else started + time_budget
    return search_move(game, state, seat, legal, settings, seed, deadline)
