"""Everything one app instance holds: settings, database, hub, runtime, presence."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.config import Settings
from app.engine.runtime import MatchRuntime
from app.realtime.hub import Hub
from app.realtime.presence import Presence


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

    async def notify(self, match_id: str, kind: str, **data: object) -> None:
        await self.hub.publish(match_channel(match_id), {"kind": kind, **data})
