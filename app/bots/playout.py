"""Guided playouts: the rules play on from a state for a few moves, every seat moving by a
cheap policy (epsilon-greedy one-step lookahead on the game's `playout_score`, as the
conformance suite's playouts do, or uniformly at random when the game gives no score).

All chance comes from the bot's own `Dice(f"bot-{seed}-{iteration}", n)`, never the match's
seed, so a bot cannot foresee the match's dice and a decision is reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from app.engine.contract import Game, Move, Outcome, State
from app.engine.dice import Dice


@dataclass
class Playout:
    state: State
    outcome: Outcome | None
    moves: int
    movers: set[int] = field(default_factory=set)


def bot_dice(seed: int, iteration: int, move_number: int) -> Dice:
    return Dice(f"bot-{seed}-{iteration}", move_number)


def lookahead_move(
    game: Game,
    state: State,
    seat: int,
    legal: list[Move],
    candidates: int,
    rng: random.Random,
    dice: tuple[int, int, int],
) -> tuple[Move, State]:
    """The best of `candidates` legal moves sampled at random, by `seat`'s playout score one
    move later (ties at random); returns the move and the state it leads to."""
    tried = legal if len(legal) <= candidates else rng.sample(legal, candidates)
    best: tuple[float, float, Move, State] | None = None
    for move in tried:
        after, _events = game.apply(state, seat, move, bot_dice(*dice))
        score = game.playout_score(after, seat)
        key = (score if score is not None else 0.0, rng.random())
        if best is None or key > best[:2]:
            best = (key[0], key[1], move, after)
    assert best is not None
    return best[2], best[3]


def play_out(
    game: Game,
    state: State,
    *,
    depth: int,
    guided: bool,
    candidates: int,
    greedy: float,
    rng: random.Random,
    seed: int,
    iteration: int,
) -> Playout:
    """Plays up to `depth` moves from `state` (which is never changed) or to the end."""
    result = Playout(state=state, outcome=game.outcome(state), moves=0)
    while result.outcome is None and result.moves < depth:
        active = sorted(game.active_seats(result.state))
        if not active:
            break
        mover = rng.choice(active)
        legal = game.legal_moves(result.state, mover)
        if not legal:
            break
        number = result.moves + 1
        if guided and rng.random() < greedy:
            _move, after = lookahead_move(
                game, result.state, mover, legal, candidates, rng, (seed, iteration, number)
            )
        else:
            move = rng.choice(legal)
            dice = bot_dice(seed, iteration, number)
            after, _events = game.apply(result.state, mover, move, dice)
        result.movers.add(mover)
        result.state = after
        result.moves = number
        result.outcome = game.outcome(after)
    return result
