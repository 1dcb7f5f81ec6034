"""Everything one app instance holds: settings, database, hub, runtime, presence."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Match
from app.drain import Drain
from app.engine.runtime import MatchRuntime
from app.realtime.hub import Hub
from app.realtime.presence import Presence
from app.services import computers
from app.services.computers import SeatFacts
from app.services.record_check import RecordChecker

if TYPE_CHECKING:
    from app.services.absence import Absence
    from app.services.computer_turns import ComputerTurns
    from app.services.push import PushNotifier


def match_channel(match_id: str) -> str:
    return f"match:{match_id}"


@dataclass
class AppContext:
    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    hub: Hub
    runtime: MatchRuntime
    presence: Presence
    # Replay frames of finished matches never change: the last few are kept.
    replay_cache: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)
    replay_cache_size: int = 32
    record_checker: RecordChecker = field(default_factory=RecordChecker)
    # Set by the app's lifespan (they need the running loop): computer players' turns and
    # the absences of seated players.
    computer_turns: ComputerTurns | None = None
    absence: Absence | None = None
    push: PushNotifier | None = None
    # The way out of a stopping process (app/drain.py): `drain.draining` makes it not ready
    # and refuses new sockets; `drain.hooks` is the ordered list of async callbacks run once
    # its sockets are closed (release leases, hand work over), before the lifespan closes
    # the hub and the database.
    drain: Drain = field(default_factory=Drain)

    def remember_replay(self, match_id: str, frames: dict[str, Any]) -> None:
        self.replay_cache[match_id] = frames
        self.replay_cache.move_to_end(match_id)
        while len(self.replay_cache) > self.replay_cache_size:
            self.replay_cache.popitem(last=False)

    async def seat_facts(
        self, session: AsyncSession, match: Match, *, online: frozenset[str] | None = None
    ) -> SeatFacts:
        """Computers, stand-ins and absences of a match's seats, as summaries show them.
        `online`: who has a socket open on it on any process, when the caller has read it."""
        if online is None:
            online = (await self.presence.look(match.id)).online
        return await computers.seat_facts(
            session,
            match,
            online=set(online),
            away_after=self.settings.away_after_seconds,
            claim_after=self.settings.claim_win_after_seconds,
        )

    async def notify(self, match_id: str, kind: str, **data: object) -> None:
        await self.hub.publish(match_channel(match_id), {"kind": kind, **data})
