"""Personal records: each player's best outcome score in games that keep one (Game.record_order).

Computed from the finished matches themselves, so a record can never disagree with the match
that set it (and every record links to its replay).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, Player
from app.engine.contract import Game
from app.timestamps import iso_utc


def _better(order: str, score: int, than: int) -> bool:
    return score < than if order == "low" else score > than


async def records(
    session: AsyncSession, game: Game, *, player_id: str | None, limit: int = 10
) -> dict[str, Any]:
    """The best score per player (and per scenario, `Outcome.details["record_key"]`): the top
    `limit` of each scenario, and the caller's own bests."""
    order = game.record_order
    if order is None:
        return {"order": None, "best": [], "mine": []}
    rows = await session.execute(
        select(Match.id, Match.seats, Match.outcome, Match.finished_at).where(
            Match.game == game.id, Match.status == "finished", Match.outcome.is_not(None)
        )
    )
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for match_id, seats, outcome, finished_at in rows:
        scores = (outcome or {}).get("scores") or {}
        key = str(((outcome or {}).get("details") or {}).get("record_key", ""))
        for seat, score in scores.items():
            index = int(seat)
            if not 0 <= index < len(seats) or seats[index] is None:
                continue
            entry = {
                "player_id": seats[index],
                "key": key,
                "score": int(score),
                "match_id": match_id,
                "finished_at": iso_utc(finished_at),
            }
            held = best.get((seats[index], key))
            if held is None or _better(order, entry["score"], held["score"]):
                best[(seats[index], key)] = entry
    ids = {player for player, _key in best}
    names: dict[str, str] = {}
    if ids:
        name_rows = await session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
        names = {row[0]: row[1] for row in name_rows}
    for entry in best.values():
        entry["name"] = names.get(entry["player_id"], "?")
    sign = 1 if order == "low" else -1
    ranked = sorted(
        best.values(), key=lambda e: (e["key"], sign * e["score"], e["finished_at"] or "")
    )
    top: list[dict[str, Any]] = []
    per_key: dict[str, int] = {}
    for entry in ranked:
        if per_key.get(entry["key"], 0) < limit:
            per_key[entry["key"]] = per_key.get(entry["key"], 0) + 1
            top.append(entry)
    mine = [e for e in ranked if player_id is not None and e["player_id"] == player_id]
    return {"order": order, "best": top, "mine": mine}
