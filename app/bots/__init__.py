"""Computer players for every game, generic over the `Game` contract (docs/bots.md).

A new game gets a bot with no change here: the search uses only `legal_moves`, `apply`,
`outcome`, `active_seats`, the game's `playout_score` (its evaluation, where it gives one) and
`sample_hidden` (what a seat may imagine of the parts hidden from it).
"""

from app.bots.choose import choose_move
from app.bots.levels import LEVELS

__all__ = ["LEVELS", "choose_move"]
