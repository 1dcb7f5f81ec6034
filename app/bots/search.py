"""Determinized flat Monte Carlo with UCB1 over the root's legal moves.

Each iteration draws a determinization (`Game.sample_hidden`: the hidden parts redrawn as the
bot's seat might imagine them), plays the root move UCB1 picks in it, then a guided playout
(`playout.py`) that `values.py` turns into a number in [0, 1]. The most visited root move is
played. Root moves that are many (C64 card picks, Tube Tanks' cells) are opened gradually,
best first by one-step lookahead (progressive widening), so the budget is not spread thin.
"""

from __future__ import annotations

import math
import random
import time

from app.bots.levels import Settings
from app.bots.playout import bot_dice, play_out
from app.bots.values import Arm, MarginScale, margin, outcome_value, rank_share
from app.engine.contract import Game, IllegalMove, Move, State

OPEN_AT_FIRST = 10
WIDENING = 2.0
"""Root moves open: OPEN_AT_FIRST, then WIDENING * sqrt(iterations) once that is more."""


class Determinizer:
    """Samples of what the hidden parts of `state` might be, as `seat` sees them."""

    def __init__(self, game: Game, state: State, seat: int, rng: random.Random) -> None:
        self.game, self.state, self.seat, self.rng = game, state, seat, rng
        # A game that hides nothing from anyone: states are immutable values (apply never
        # changes its input), so the real state can be searched without a copy per iteration.
        self.identity = type(game).sample_hidden is Game.sample_hidden

    def sample(self) -> State:
        if self.identity:
            return self.state
        return self.game.sample_hidden(self.state, self.seat, self.rng)


class Search:
    def __init__(
        self,
        game: Game,
        state: State,
        seat: int,
        legal: list[Move],
        settings: Settings,
        seed: int,
        deadline: float | None,
    ) -> None:
        self.game, self.seat, self.legal, self.settings = game, seat, legal, settings
        self.seed, self.deadline = seed, deadline
        self.rng = random.Random(f"bot-{seed}-search")
        self.samples = Determinizer(game, state, seat, random.Random(f"bot-{seed}-hidden"))
        self.scale = MarginScale()
        self.seats: set[int] = {seat}
        self.iterations = 0
        self.started = time.perf_counter()
        self.guided = False
        self.arms: list[Arm] = []

    def out_of_time(self) -> bool:
        """Past the deadline, or so near it that one more iteration of average length would
        overrun it (a budget is a promise to the table, not a hint)."""
        if self.deadline is None:
            return False
        now = time.perf_counter()
        average = (now - self.started) / self.iterations if self.iterations else 0.0
        return now + average >= self.deadline

    def run(self) -> Move:
        first = self.samples.sample()
        self.seats |= self.game.active_seats(first)
        self.guided = self.game.playout_score(first, self.seat) is not None
        self.arms = [Arm(i) for i in self.prior_order(first)]
        sample: State | None = first
        while self.iterations < self.settings.iterations and not self.out_of_time():
            self.iterate(sample if sample is not None else self.samples.sample())
            sample = None
        best = max(self.arms, key=lambda a: (a.visits, a.mean(self.scale), -self.arms.index(a)))
        return self.legal[best.index]

    def prior_order(self, sample: State) -> list[int]:
        """Root moves best first by one-step lookahead when there are more than open at
        first (random order otherwise, so the list's order biases nothing)."""
        order = list(range(len(self.legal)))
        self.rng.shuffle(order)
        if len(order) <= OPEN_AT_FIRST or not self.guided:
            return order
        scored = []
        for index in order:
            if self.out_of_time():
                break
            after, _events = self.game.apply(
                sample, self.seat, self.legal[index], bot_dice(self.seed, -1, 0)
            )
            scored.append((self.game.playout_score(after, self.seat) or 0.0, index))
        ranked = [index for _score, index in sorted(scored, key=lambda s: -s[0])]
        return ranked + [i for i in order if i not in set(ranked)]

    def open_arms(self) -> list[Arm]:
        count = max(OPEN_AT_FIRST, int(WIDENING * math.sqrt(self.iterations + 1)))
        return self.arms[:count]

    def select(self) -> Arm:
        arms = self.open_arms()
        for arm in arms:
            if arm.visits == 0:
                return arm
        log_total = math.log(sum(a.visits for a in arms))
        c = self.settings.exploration
        return max(arms, key=lambda a: a.mean(self.scale) + c * math.sqrt(log_total / a.visits))

    def iterate(self, sample: State) -> None:
        arm = self.select()
        self.iterations += 1
        try:
            after, _events = self.game.apply(
                sample, self.seat, self.legal[arm.index], bot_dice(self.seed, self.iterations, 0)
            )
        except IllegalMove:
            # A sample the bot's seat could tell from the real state (a game's sample_hidden
            # that breaks its promise): no knowledge gained, the move is not favoured.
            arm.add_outcome(0.0)
            return
        s = self.settings
        result = play_out(
            self.game,
            after,
            depth=s.depth,
            guided=self.guided,
            candidates=s.candidates,
            greedy=s.greedy,
            rng=self.rng,
            seed=self.seed,
            iteration=self.iterations,
        )
        self.seats |= result.movers
        moves = result.moves + 1
        # Alone at the table, every end is a "win": the game's score says how good it was.
        solo_scored = self.guided and len(self.seats) == 1
        if result.outcome is not None and not solo_scored:
            arm.add_outcome(outcome_value(result.outcome, self.seat, self.seats, moves))
            return
        if not self.guided:
            arm.add_outcome(0.5)  # no opinion on an unfinished game
            return
        scores = {
            s: value
            for s in sorted(self.seats)
            if (value := self.game.playout_score(result.state, s)) is not None
        }
        if self.seat not in scores:
            arm.add_outcome(0.5)
            return
        raw = margin(scores, self.seat)
        self.scale.include(raw)
        arm.add_cut(rank_share(scores, self.seat), raw)


def search_move(
    game: Game,
    state: State,
    seat: int,
    legal: list[Move],
    settings: Settings,
    seed: int,
    deadline: float | None,
) -> Move:
    return Search(game, state, seat, legal, settings, seed, deadline).run()
