"""Computer players at the table: seats they fill from the lobby, and absent friends.

A computer player is a player record of its own (`bot_level` set), seated like anyone, so
seats, names, rematches and logs need nothing new. An absent friend is a seated person none
of whose sockets has been open for the grace period (match_seats.seen_at, shared by every
process); the others may then let a computer stand in for her (matches.stand_ins) until she
comes back, or, with two players, claim the win. Never commits: callers do.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, MatchSeat, Move, Player
from app.engine.runtime import LiveMatch
from app.errors import ArcadeError
from app.services.matches import change_lobby, get_match, seat_to_take
from app.services.players import hash_token
from app.services.replays import CLAIMED
from app.timestamps import as_utc, iso_utc

LEVELS = ("easy", "normal")
STAND_IN_LEVEL = "normal"
LIVE_TURN_TIMERS = (30, 60, 120, 300, 600)
"""The turn timers of a live match, in seconds (None: off): everyone is at the table."""
TURN_BASED_TIMERS = (3600, 8 * 3600, 86400, 3 * 86400, 7 * 86400)
"""The time per move of a turn-based match: an hour to a week. Nobody needs to be online; a
closed tab is not an absence, and only running out of time lets the others act."""
TURN_TIMERS = LIVE_TURN_TIMERS + TURN_BASED_TIMERS
"""Every turn timer a lobby may choose; the pace follows from it (`pace_of`)."""
PACES = ("live", "turn-based")


def pace_of(match: Match) -> str:
    """The pace: "turn-based" when the time per move is one of TURN_BASED_TIMERS, else "live"."""
    return "turn-based" if match.turn_timer in TURN_BASED_TIMERS else "live"


SEAT_CHANGES_KEPT = 100


def _logged(match: Match, change: dict[str, Any]) -> list[dict[str, Any]]:
    """The match's seat changes with `change` added (the oldest dropped beyond the bound)."""
    return [*(match.seat_changes or []), change][-SEAT_CHANGES_KEPT:]


def seat_change(
    seat: int, change: str, by: str | None, text: str, at: datetime, version: int
) -> dict[str, Any]:
    """A `seat_change` as it is logged and sent (protocol, section 4.3); `version` is the
    match's version when it happened."""
    return {
        "type": "seat_change",
        "seat": seat,
        "change": change,
        "by": by,
        "text": text,
        "at": iso_utc(at),
        "version": version,
    }


def computer_name(level: str) -> str:
    return f"Computer ({level})"


def _now() -> datetime:
    return datetime.now(UTC)


def _stand_ins(match: Match) -> dict[str, Any]:
    return dict(match.stand_ins or {})


def _has_computer(seats: list[str | None], levels: dict[str, str], stand_ins: dict) -> bool:
    return bool(stand_ins) or any(p in levels for p in seats if p is not None)


async def computer_levels(session: AsyncSession, matches: list[Match]) -> dict[str, str]:
    """player id -> level, for the computer players seated in `matches`."""
    ids = {p for m in matches for p in m.seats if p is not None}
    if not ids:
        return {}
    rows = await session.execute(
        select(Player.id, Player.bot_level).where(
            Player.id.in_(sorted(ids)), Player.bot_level.is_not(None)
        )
    )
    return {row.id: row.bot_level for row in rows}


# --- the lobby ----------------------------------------------------------------------------
async def add_computer(
    session: AsyncSession, *, match_id: str, player: Player, level: str, seat: int | None
) -> Match:
    if level not in LEVELS:
        raise ArcadeError("bad_request", "A computer player is 'easy' or 'normal'.")
    token = secrets.token_urlsafe(32)  # nobody holds it: a computer never signs in
    computer = Player(
        id=uuid.uuid4().hex,
        name=computer_name(level),
        token_hash=hash_token(token),
        bot_level=level,
    )
    session.add(computer)
    await session.flush()
    host_id = player.id

    def decide(match: Match) -> dict[str, Any]:
        if match.status != "open":
            raise ArcadeError("match_not_active", "Computer players join before the start.")
        if match.host_id != host_id:
            raise ArcadeError("forbidden", "Only the host can seat a computer player.")
        seats = list(match.seats)
        seats[seat_to_take(seats, seat, computer.id)] = computer.id
        return {"seats": seats, "has_computer": True}

    return await change_lobby(session, match_id, decide)


async def remove_computer(
    session: AsyncSession, *, match_id: str, player: Player, seat: int
) -> Match:
    match = await get_match(session, match_id=match_id)
    levels = await computer_levels(session, [match])
    host_id = player.id

    def decide(match: Match) -> dict[str, Any]:
        if match.status != "open":
            raise ArcadeError("match_not_active", "The match has started; its seats stay.")
        if match.host_id != host_id:
            raise ArcadeError("forbidden", "Only the host can remove a computer player.")
        if not 0 <= seat < len(match.seats):
            raise ArcadeError("bad_request", f"Seat {seat} does not exist in this match.")
        if match.seats[seat] not in levels:
            raise ArcadeError("bad_request", f"Seat {seat + 1} is not a computer player's.")
        seats = list(match.seats)
        seats[seat] = None
        return {"seats": seats, "has_computer": _has_computer(seats, levels, {})}

    return await change_lobby(session, match_id, decide)


def turn_timer_for(pace: str | None, seconds: int | None, current: int | None) -> int | None:
    """The turn timer a lobby change asks for: `seconds` (checked against the pace, when one
    is named), or the pace's default when only the pace is named."""
    if pace is not None and pace not in PACES:
        raise ArcadeError("bad_request", 'The pace is "live" or "turn-based".')
    if pace == "turn-based":
        if seconds is None:
            return current if current in TURN_BASED_TIMERS else 86400
        if seconds not in TURN_BASED_TIMERS:
            choices = ", ".join(str(s) for s in TURN_BASED_TIMERS)
            raise ArcadeError(
                "bad_request", f"A turn-based match has a time per move of {choices} seconds."
            )
        return seconds
    if pace == "live" and seconds in TURN_BASED_TIMERS:
        choices = ", ".join(str(s) for s in LIVE_TURN_TIMERS)
        raise ArcadeError(
            "bad_request", f"A live match's turn timer is off (null) or one of {choices} seconds."
        )
    if pace == "live" and seconds is None:
        return None if current in TURN_BASED_TIMERS else current
    if seconds is not None and seconds not in TURN_TIMERS:
        live = ", ".join(str(s) for s in LIVE_TURN_TIMERS)
        turn_based = ", ".join(str(s) for s in TURN_BASED_TIMERS)
        raise ArcadeError(
            "bad_request",
            f"A turn timer is off (null), one of {live} seconds (live) or one of {turn_based} "
            "seconds (turn-based).",
        )
    return seconds


async def set_turn_timer(
    session: AsyncSession, *, match_id: str, player: Player, seconds: int | None
) -> Match:
    seconds = turn_timer_for(None, seconds, None)  # refuses a value no pace has
    host_id = player.id

    def decide(match: Match) -> dict[str, Any] | None:
        if match.host_id != host_id:
            raise ArcadeError("forbidden", "Only the host can set the turn timer.")
        if match.status != "open":
            raise ArcadeError("match_not_active", "The turn timer is set before the start.")
        return None if match.turn_timer == seconds else {"turn_timer": seconds}

    return await change_lobby(session, match_id, decide)


# --- presence that outlives a socket ----------------------------------------------------------
SEEN_BATCH = 500
"""Pairs `mark_seen` writes in one statement run."""


async def mark_seen(session: AsyncSession, pairs: list[tuple[str, str]], now: datetime) -> None:
    """(match id, player id) pairs with a socket open now, or closing now."""
    if not pairs:
        return
    # Every writer locks the rows in (match, player) order, whatever order it was given: the
    # heartbeat and a batch of sightings update thousands of the same seats at once (a storm
    # of sockets closing while the heartbeat writes), and in two orders they deadlocked and
    # PostgreSQL threw one transaction's sightings away.
    pairs = sorted(pairs)
    # One statement run for every pair (the driver's executemany), not a statement each: the
    # heartbeat names every seated player with a socket open here, thousands on a busy
    # process, and a statement each cost more CPU than the moves in between. In runs of
    # SEEN_BATCH, so that encoding them never holds the event loop for long.
    seats = cast(Table, MatchSeat.__table__)
    statement = (
        update(seats)
        .where(seats.c.match_id == bindparam("m"), seats.c.player_id == bindparam("p"))
        .values(seen_at=now)
    )
    for start in range(0, len(pairs), SEEN_BATCH):
        batch = pairs[start : start + SEEN_BATCH]
        await session.execute(statement, [{"m": match, "p": player} for match, player in batch])


async def seen_times(session: AsyncSession, match: Match) -> dict[str, datetime]:
    """player id -> when she last had a socket open on `match` (the start for someone who
    never opened one)."""
    rows = await session.execute(
        select(MatchSeat.player_id, MatchSeat.seen_at).where(MatchSeat.match_id == match.id)
    )
    seen: dict[str, datetime] = {}
    for row in rows:
        moment = row.seen_at if row.seen_at is not None else match.started_at
        if moment is not None:
            seen[row.player_id] = as_utc(moment)
    return seen


@dataclass(frozen=True)
class SeatFacts:
    """What a summary says about seats beyond names: computers, stand-ins and absences."""

    levels: dict[str, str]
    away: dict[int, datetime]
    away_after: int
    claim_after: int


async def seat_facts(
    session: AsyncSession,
    match: Match,
    *,
    online: set[str],
    away_after: int,
    claim_after: int,
    now: datetime | None = None,
) -> SeatFacts:
    levels = await computer_levels(session, [match])
    away: dict[int, datetime] = {}
    # Turn-based: nobody has to be at the table, so a closed tab is never an absence.
    if match.status == "active" and pace_of(match) == "live":
        now = now or _now()
        seen = await seen_times(session, match)
        for seat, player_id in enumerate(match.seats):
            if player_id is None or player_id in levels or player_id in online:
                continue
            since = seen.get(player_id)
            if since is not None and now - since >= timedelta(seconds=away_after):
                away[seat] = since
    return SeatFacts(levels, away, away_after, claim_after)


def describe_seats(summary: dict[str, Any], match: Match, facts: SeatFacts | None) -> None:
    """Adds to a match summary: per seat `bot`, `stand_in` and `away_since`; the match's
    `turn_timer` and `absence` settings (protocol, section 3)."""
    stand_ins = _stand_ins(match)
    for seat, entry in enumerate(summary["seats"]):
        player_id = match.seats[seat]
        standing = stand_ins.get(str(seat))
        entry["bot"] = facts.levels.get(player_id) if facts and player_id else None
        entry["stand_in"] = standing["level"] if standing else None
        entry["away_since"] = iso_utc(facts.away[seat]) if facts and seat in facts.away else None
    summary["turn_timer"] = match.turn_timer
    summary["pace"] = pace_of(match)
    summary["absence"] = (
        None
        if facts is None
        else {
            "away_after": facts.away_after,
            "claim_after": facts.claim_after,
        }
    )


# --- absent friends -------------------------------------------------------------------------
def _seat_of(match: Match, player_id: str) -> int:
    if player_id not in match.seats:
        raise ArcadeError("forbidden", "Only the players of this match can do that.")
    return match.seats.index(player_id)


async def stand_in(
    session: AsyncSession,
    *,
    match_id: str,
    player: Player,
    seat: int,
    live: LiveMatch,
    facts: SeatFacts,
) -> tuple[Match, dict[str, Any]]:
    """Another seated person lets a computer play for `seat`: she is away and it is her turn,
    or her turn timer ran out. Returns the match and the logged change."""
    now = _now()
    player_id = player.id
    absent = live.names[seat] if 0 <= seat < len(live.names) else "a player"
    told = seat_change(
        seat,
        "stand_in",
        player.name,
        f"{player.name} let the computer play for {absent} until she is back.",
        now,
        live.version,
    )

    def decide(match: Match) -> dict[str, Any] | None:
        if match.status != "active":
            raise ArcadeError("match_not_active", "This match is not being played.")
        mine = _seat_of(match, player_id)
        if facts.levels.get(player_id):
            raise ArcadeError("forbidden", "Only the players of this match can do that.")
        if not 0 <= seat < len(match.seats):
            raise ArcadeError("bad_request", f"Seat {seat} does not exist in this match.")
        if seat == mine:
            raise ArcadeError("bad_request", "You are here: you can play your own turn.")
        if match.seats[seat] in facts.levels:
            raise ArcadeError("bad_request", "A computer already plays that seat.")
        stand_ins = _stand_ins(match)
        if str(seat) in stand_ins:
            return None  # somebody else clicked first: the same thing is asked
        her_turn = seat in live.game.active_seats(live.state)
        ran_out = live.turn_ran_out(seat, int(now.timestamp() * 1000))
        if not ran_out and seat not in facts.away:
            raise ArcadeError(
                "not_away",
                f"{live.names[seat]} is still here; a computer may play for her once she has "
                f"been away {facts.away_after} seconds on her turn, or her turn timer has run out.",
            )
        if not ran_out and not her_turn:
            raise ArcadeError(
                "not_allowed",
                f"It is not {live.names[seat]}'s turn: a computer may take over when it is.",
            )
        stand_ins[str(seat)] = {
            "level": STAND_IN_LEVEL,
            "by": player_id,
            "since": iso_utc(now),
            "version": live.version,
        }
        return {
            "stand_ins": stand_ins,
            "has_computer": True,
            "seat_changes": _logged(match, told),
        }

    return await change_lobby(session, match_id, decide), told


@dataclass(frozen=True)
class Return:
    seat: int
    moves: int
    told: dict[str, Any]


async def come_back(
    session: AsyncSession, *, match_id: str, player_id: str, name: str
) -> Return | None:
    """She is back: the computer playing for her stops. None when none was."""
    levels = await computer_levels(session, [await get_match(session, match_id=match_id)])
    found: dict[str, Any] = {}

    def decide(match: Match) -> dict[str, Any] | None:
        if player_id not in match.seats:
            return None
        seat = match.seats.index(player_id)
        stand_ins = _stand_ins(match)
        entry = stand_ins.pop(str(seat), None)
        if entry is None:
            return None
        told = seat_change(
            seat,
            "returned",
            None,
            f"{name} is back and plays her own seat again.",
            _now(),
            match.version,
        )
        found.update(seat=seat, entry=entry, told=told)
        return {
            "stand_ins": stand_ins or None,
            "has_computer": _has_computer(list(match.seats), levels, stand_ins),
            "seat_changes": _logged(match, told),
        }

    await change_lobby(session, match_id, decide)
    if not found:
        return None
    seat, entry = found["seat"], found["entry"]
    moves = await session.scalar(
        select(func.count())
        .select_from(Move)
        .where(
            Move.match_id == match_id,
            Move.seat == seat,
            Move.bot.is_(True),
            Move.seq > int(entry.get("version", 0)),
        )
    )
    return Return(seat=seat, moves=int(moves or 0), told=found["told"])


async def claim_win(
    session: AsyncSession,
    *,
    match_id: str,
    player: Player,
    facts: SeatFacts,
    now: datetime,
    live: LiveMatch | None = None,
) -> tuple[Match, dict[str, Any]]:
    """The one other player of a two-player match whose opponent stayed away (live) or let
    her time per move run out (turn-based) claims the win (recorded as such in the outcome)."""
    player_id = player.id
    claimed: dict[str, Any] = {}

    def decide(match: Match) -> dict[str, Any]:
        if match.status != "active":
            raise ArcadeError("match_not_active", "This match is not being played.")
        mine = _seat_of(match, player_id)
        if len(match.seats) != 2:
            raise ArcadeError("bad_request", "A win can be claimed only in a two-player match.")
        other = 1 - mine
        if match.seats[other] in facts.levels:
            raise ArcadeError("bad_request", "Your opponent is a computer player: play on.")
        since: datetime | None
        if pace_of(match) == "turn-based":
            if live is None or not live.turn_ran_out(other, int(now.timestamp() * 1000)):
                raise ArcadeError(
                    "too_soon",
                    "Your opponent still has time for her move: you can claim the win once "
                    "her time per move has run out.",
                )
            since = now - timedelta(seconds=facts.claim_after)
        else:
            since = facts.away.get(other)
        if since is None:
            raise ArcadeError("not_away", "Your opponent is here; play on.")
        if now - since < timedelta(seconds=facts.claim_after):
            wait = int(facts.claim_after - (now - since).total_seconds()) + 1
            raise ArcadeError(
                "too_soon",
                f"Your opponent may still come back: you can claim the win in {wait} seconds.",
            )
        outcome = {
            "winners": [mine],
            "reason": CLAIMED,
            "scores": None,
            "details": {"claimed": True, "away": other},
        }
        claimed.update(outcome)
        told = seat_change(
            other,
            "claimed",
            player.name,
            f"{player.name} claimed the win: the other player "
            + ("ran out of time." if pace_of(match) == "turn-based" else "stayed away."),
            now,
            match.version,
        )
        return {
            "status": "finished",
            "outcome": outcome,
            "finished_at": now,
            "seat_changes": _logged(match, told),
        }

    match = await change_lobby(session, match_id, decide)
    return match, claimed
