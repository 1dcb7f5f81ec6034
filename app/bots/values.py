"""What a playout is worth to the searching seat, as a number in [0, 1].

An ended game is judged by its outcome (a win 1, shared with the other winners; a loss 0).
A playout cut before the end is judged by the seats' `playout_score`: by the seat's rank among
the seats seen so far (scale-free) and by its margin over the best other seat (its own score
in a one-player game), the margin normalised by the smallest and largest margins this search
has met, so no game's scale leaks into the search. A cut is worth 0.1-0.9: never a win, never
a loss.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from app.engine.contract import Outcome

WIN_DISCOUNT_PER_MOVE = 0.002
"""A win sooner is worth a little more (Solitary counts rotations; any game ends sooner)."""
CUT_BASE, CUT_RANK, CUT_MARGIN = 0.1, 0.4, 0.4


def outcome_value(outcome: Outcome, seat: int, seats: Collection[int], moves: int) -> float:
    winners = outcome.winners
    if seat in winners:
        return max(0.5, 1.0 - WIN_DISCOUNT_PER_MOVE * moves) / len(winners)
    if not winners and len(seats) > 1:
        return 1.0 / len(seats)  # nobody wins: a draw for all
    return 0.0


def rank_share(scores: dict[int, float], seat: int) -> float:
    """1 when `seat` leads every other seat, 0 when it trails them all, ties count half."""
    others = [s for s in scores if s != seat]
    if not others:
        return 0.5
    mine = scores[seat]
    beaten = sum(1.0 if mine > scores[s] else 0.5 if mine == scores[s] else 0.0 for s in others)
    return beaten / len(others)


def margin(scores: dict[int, float], seat: int) -> float:
    others = [v for s, v in scores.items() if s != seat]
    return scores[seat] - max(others) if others else scores[seat]


@dataclass
class Arm:
    """The statistics of one root move. Cut margins are summed raw so their normalisation
    can change as the search meets new extremes (the mean is linear in them)."""

    index: int
    visits: int = 0
    fixed: float = 0.0
    cuts: int = 0
    cut_margins: float = 0.0

    def add_outcome(self, value: float) -> None:
        self.visits += 1
        self.fixed += value

    def add_cut(self, rank: float, raw_margin: float) -> None:
        self.visits += 1
        self.cuts += 1
        self.fixed += CUT_BASE + CUT_RANK * rank
        self.cut_margins += raw_margin

    def mean(self, scale: MarginScale) -> float:
        if not self.visits:
            return 0.0
        spread = scale.high - scale.low
        if spread > 0:
            normalised = (self.cut_margins - self.cuts * scale.low) / spread
        else:
            normalised = 0.5 * self.cuts
        return (self.fixed + CUT_MARGIN * normalised) / self.visits


@dataclass
class MarginScale:
    low: float = 0.0
    high: float = 0.0
    seen: bool = False

    def include(self, value: float) -> None:
        if not self.seen:
            self.low = self.high = value
            self.seen = True
        else:
            self.low = min(self.low, value)
            self.high = max(self.high, value)
