"""The match's random numbers: a hash-based stream we own, derived from (match seed, move number).

`random.Random` is not used on purpose: its `shuffle`/`randrange` may change between Python
versions, which would silently break every stored replay. HMAC-SHA256 in counter mode is
stable forever and lets anyone re-derive every die of a finished match from its revealed seed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

SETUP_MOVE_NUMBER = 0  # the RNG that `Game.setup` receives; move k (1-based) gets number k


class Dice:
    """A deterministic byte stream: block i = HMAC-SHA256(seed, "<move>:<i>")."""

    __slots__ = ("_key", "_move", "_block", "_buffer", "draws")

    def __init__(self, seed: bytes | str, move_number: int) -> None:
        self._key = seed.encode() if isinstance(seed, str) else seed
        self._move = move_number
        self._block = 0
        self._buffer = b""
        self.draws = 0  # how many values were drawn; lets tests see that a move used chance

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            message = f"{self._move}:{self._block}".encode()
            self._buffer += hmac.new(self._key, message, hashlib.sha256).digest()
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling so no value is favoured."""
        if n <= 0:
            raise ValueError("n must be positive")
        self.draws += 1
        if n == 1:
            return 0
        nbytes = (n.bit_length() + 7) // 8
        limit = (256**nbytes // n) * n
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big")
            if value < limit:
                return value % n

    def roll(self, sides: int = 6) -> int:
        """One die: 1..sides."""
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place, on a list the caller owns (never the rules' input state)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out


def seed_commitment(seed: str) -> str:
    """What a match publishes when it starts: sha256 of the seed, revealed when it ends."""
    return hashlib.sha256(seed.encode()).hexdigest()
