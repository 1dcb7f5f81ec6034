"""Who is connected to which match, in this process (counted per player; None = spectator)."""

from __future__ import annotations

from collections import Counter, defaultdict


class Presence:
    def __init__(self) -> None:
        self._by_match: defaultdict[str, Counter[str | None]] = defaultdict(Counter)

    def connect(self, match_id: str, player_id: str | None) -> None:
        self._by_match[match_id][player_id] += 1

    def disconnect(self, match_id: str, player_id: str | None) -> None:
        counter = self._by_match.get(match_id)
        if counter is None:
            return
        counter[player_id] -= 1
        if counter[player_id] <= 0:
            del counter[player_id]
        if not counter:
            del self._by_match[match_id]

    def online(self, match_id: str) -> set[str]:
        counter = self._by_match.get(match_id)
        return {p for p in counter if p is not None} if counter else set()

    def spectators(self, match_id: str) -> int:
        counter = self._by_match.get(match_id)
        return counter.get(None, 0) if counter else 0
