"""Lobbies: open a match, take and give up seats, start it. Never commits: callers do."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, Move, Player
from app.engine.contract import Game
from app.engine.fairness import seed_commitment, valid_nonce
from app.engine.registry import get_game
from app.errors import ArcadeError
from app.services.option_errors import option_fault
from app.timestamps import iso_utc

STATUSES = ("open", "active", "finished", "abandoned")


def _game_or_404(game_id: str) -> Game:
    game = get_game(game_id)
    if game is None:
        raise ArcadeError("not_found", f"There is no game called {game_id!r}.")
    return game


async def get_match(session: AsyncSession, *, match_id: str, for_update: bool = False) -> Match:
    query = select(Match).where(Match.id == match_id)
    if for_update:
        query = query.with_for_update()
    match = await session.scalar(query)
    if match is None:
        raise ArcadeError("not_found", "There is no such match.")
    return match


def _validated_options(game: Game, options: dict[str, Any] | None) -> dict[str, Any]:
    """The options in their canonical JSON form, or a bad_request naming the first fault."""
    try:
        parsed = game.parse_options(options)
    except ValidationError as exc:
        raise ArcadeError("bad_request", option_fault(game, exc.errors()[0])) from None
    dumped: dict[str, Any] = parsed.model_dump(mode="json")
    return dumped


def agreement(match: Match) -> dict[str, Any]:
    """Whether the seated players must accept the host's options before the start, who has,
    and who is still to (seat numbers; the host's own options count as accepted)."""
    game = get_game(match.game)
    required = game is not None and game.options_need_agreement(game.parse_options(match.options))
    accepted = set(match.accepted or [])
    seated = [(i, p) for i, p in enumerate(match.seats) if p is not None and p != match.host_id]
    return {
        "required": required,
        "accepted": [i for i, p in seated if p in accepted],
        "waiting": [i for i, p in seated if p not in accepted] if required else [],
    }


async def change_options(
    session: AsyncSession, *, match_id: str, player: Player, options: dict[str, Any]
) -> Match:
    """The host changes the options in the open lobby; every acceptance is withdrawn."""
    match = await get_match(session, match_id=match_id, for_update=True)
    if match.status != "open":
        raise ArcadeError("match_not_active", "The options are fixed once the match has started.")
    if match.host_id != player.id:
        raise ArcadeError("forbidden", "Only the host can change the options.")
    match.options = _validated_options(_game_or_404(match.game), options)
    match.accepted = []
    await session.flush()
    return match


async def accept_options(
    session: AsyncSession, *, match_id: str, player: Player, options: dict[str, Any]
) -> Match:
    """A seated player accepts the options she was shown (sent back, so an acceptance can
    never apply to options the host changed in the meantime)."""
    match = await get_match(session, match_id=match_id, for_update=True)
    if match.status != "open":
        raise ArcadeError("match_not_active", "The match has already started.")
    if player.id not in match.seats:
        raise ArcadeError("forbidden", "Only seated players accept the options.")
    if _validated_options(_game_or_404(match.game), options) != match.options:
        raise ArcadeError(
            "conflict",
            "The host changed the options since you looked; check them and accept again.",
        )
    if player.id not in (match.accepted or []):
        match.accepted = [*(match.accepted or []), player.id]
        await session.flush()
    return match


def _checked_nonce(nonce: str | None) -> str | None:
    if nonce is not None and not valid_nonce(nonce):
        raise ArcadeError("bad_request", "A nonce is 16 to 128 lowercase hex characters.")
    return nonce


async def create_match(
    session: AsyncSession,
    *,
    host: Player,
    game_id: str,
    options: dict[str, Any] | None,
    seats: int | None,
    private: bool = False,
    nonce: str | None = None,
) -> Match:
    game = _game_or_404(game_id)
    parsed = _validated_options(game, options)
    count = seats if seats is not None else game.min_players
    if not game.min_players <= count <= game.max_players:
        raise ArcadeError(
            "bad_request",
            f"{game.title} is for {game.min_players} to {game.max_players} players, not {count}.",
        )
    seed = secrets.token_hex(32)
    match = Match(
        id=secrets.token_hex(6),
        game=game.id,
        rules_version=game.rules_version,
        options=parsed,
        status="open",
        host_id=host.id,
        seats=[host.id] + [None] * (count - 1),
        nonces=[_checked_nonce(nonce)] + [None] * (count - 1),
        accepted=[],
        version=0,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        private=private,
        watch_token=secrets.token_urlsafe(12),
    )
    session.add(match)
    await session.flush()
    return match


def _nonces(match: Match) -> list[str | None]:
    """The nonce list aligned with the seats (older rows may have fewer entries)."""
    nonces = list(match.nonces or [])
    return nonces + [None] * (len(match.seats) - len(nonces))


async def join_match(
    session: AsyncSession,
    *,
    match_id: str,
    player: Player,
    seat: int | None,
    nonce: str | None = None,
) -> Match:
    """Take a seat; joining your own seat again only replaces your nonce."""
    _checked_nonce(nonce)
    match = await get_match(session, match_id=match_id, for_update=True)
    if match.status != "open":
        raise ArcadeError("match_not_active", "This match has already started; you can watch it.")
    seats, nonces = list(match.seats), _nonces(match)
    if seat is None:
        if player.id in seats:
            seat = seats.index(player.id)
        else:
            free = [i for i, p in enumerate(seats) if p is None]
            if not free:
                raise ArcadeError("conflict", "This match is full.")
            seat = free[0]
    if not 0 <= seat < len(seats):
        raise ArcadeError("bad_request", f"Seat {seat} does not exist in this match.")
    if seats[seat] not in (None, player.id):
        raise ArcadeError("conflict", f"Seat {seat + 1} is taken.")
    if player.id in seats and seats[seat] != player.id:  # moving to another seat
        old = seats.index(player.id)
        seats[old], nonces[old] = None, None
    newcomer = seats[seat] != player.id
    if newcomer or nonce is not None:
        seats[seat] = player.id
        nonces[seat] = nonce
        match.seats, match.nonces = seats, nonces
        await session.flush()
    return match


async def leave_match(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    match = await get_match(session, match_id=match_id, for_update=True)
    if match.status != "open":
        raise ArcadeError("match_not_active", "You can only leave a match before it starts.")
    if player.id not in match.seats:
        raise ArcadeError("bad_request", "You are not seated in this match.")
    index = match.seats.index(player.id)
    seats, nonces = list(match.seats), _nonces(match)
    seats[index], nonces[index] = None, None
    match.seats, match.nonces = seats, nonces
    match.accepted = [p for p in (match.accepted or []) if p != player.id]
    if match.host_id == player.id:
        remaining = [p for p in seats if p is not None]
        if remaining:
            match.host_id = remaining[0]
        else:
            match.status = "abandoned"
    await session.flush()
    return match


async def end_match(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    """A seated player ends a match being played, for everyone: it is marked abandoned (no
    winner), its moves stay in the log, and it leaves the lists of games in progress. Friends
    who stop playing should not leave a table open forever."""
    match = await get_match(session, match_id=match_id, for_update=True)
    if player.id not in match.seats:
        raise ArcadeError("forbidden", "Only the players of this match can end it.")
    if match.status == "open":
        raise ArcadeError(
            "match_not_active", "This match has not started; leave the lobby instead."
        )
    if match.status != "active":
        raise ArcadeError("match_not_active", "This match is already over.")
    match.status = "abandoned"
    match.ended_by = player.id
    match.finished_at = datetime.now(UTC)
    await session.flush()
    return match


async def start_match(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    match = await get_match(session, match_id=match_id, for_update=True)
    if match.status != "open":
        raise ArcadeError("match_not_active", "This match has already started.")
    if match.host_id != player.id:
        raise ArcadeError("forbidden", "Only the host can start the match.")
    game = _game_or_404(match.game)
    taken = [(p, n) for p, n in zip(match.seats, _nonces(match), strict=True) if p is not None]
    if not game.min_players <= len(taken) <= game.max_players:
        raise ArcadeError(
            "conflict",
            f"{game.title} needs {game.min_players} to {game.max_players} players; "
            f"{len(taken)} seated.",
        )
    unfit = game.check_start(len(taken), game.parse_options(match.options))
    if unfit is not None:
        raise ArcadeError("conflict", unfit)
    waiting = agreement(match)["waiting"]
    if waiting:
        seats = ", ".join(str(seat + 1) for seat in waiting)
        raise ArcadeError(
            "conflict",
            f"Every player must accept the host's options first; seat {seats} has not yet.",
        )
    # Empty seats close up; seat numbers become 0..n-1 and each nonce stays with its player.
    match.seats = [p for p, _n in taken]
    match.nonces = [n for _p, n in taken]
    match.status = "active"
    match.started_at = datetime.now(UTC)
    await session.flush()
    return match


async def set_private(
    session: AsyncSession, *, match_id: str, player: Player, private: bool
) -> Match:
    match = await get_match(session, match_id=match_id, for_update=True)
    if match.host_id != player.id:
        raise ArcadeError("forbidden", "Only the host can change who may watch.")
    match.private = private
    await session.flush()
    return match


async def rematch(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    """A new lobby: same game, options and privacy, the same players with seats rotated by one."""
    old = await get_match(session, match_id=match_id, for_update=True)
    if old.status != "finished":
        raise ArcadeError("match_not_active", "A rematch can follow only a finished match.")
    if player.id not in old.seats:
        raise ArcadeError("forbidden", "Only the players of this match can ask for a rematch.")
    if old.rematch_id is not None:
        return await get_match(session, match_id=old.rematch_id)
    seed = secrets.token_hex(32)
    rotated = old.seats[-1:] + old.seats[:-1]  # seat i's player moves to seat i + 1
    match = Match(
        id=secrets.token_hex(6),
        game=old.game,
        rules_version=old.rules_version,
        options=old.options,
        status="open",
        host_id=player.id,
        seats=rotated,
        nonces=[None] * len(rotated),
        accepted=[],
        version=0,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        private=old.private,
        watch_token=secrets.token_urlsafe(12),
    )
    session.add(match)
    old.rematch_id = match.id
    await session.flush()
    return match


def may_watch(match: Match, *, player_id: str | None, watch: str | None) -> bool:
    """Public matches: anyone with the link. Private ones: the seated and the invited."""
    if not match.private:
        return True
    return (player_id is not None and player_id in match.seats) or (
        watch is not None
        and match.watch_token is not None
        # Bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500).
        and secrets.compare_digest(watch.encode(errors="replace"), match.watch_token.encode())
    )


async def list_matches(
    session: AsyncSession,
    *,
    status: str | None,
    game: str | None,
    player_id: str | None,
    limit: int,
    offset: int,
) -> tuple[list[Match], int]:
    query = select(Match)
    if status is not None:
        query = query.where(Match.status == status)
    else:
        query = query.where(Match.status != "abandoned")
    if game is not None:
        query = query.where(Match.game == game)
    if player_id is None:
        query = query.where(Match.private.is_(False))
    matches = list((await session.scalars(query.order_by(Match.created_at.desc(), Match.id))).all())
    if (
        player_id is not None
    ):  # seats is JSON; filtering in Python keeps SQLite and PostgreSQL alike
        matches = [m for m in matches if player_id in m.seats]
    return matches[offset : offset + limit], len(matches)


async def player_names(session: AsyncSession, matches: list[Match]) -> dict[str, str]:
    ids = {p for m in matches for p in m.seats if p is not None} | {m.host_id for m in matches}
    if not ids:
        return {}
    rows = await session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
    return {row[0]: row[1] for row in rows}


async def count_open(session: AsyncSession) -> int:
    return (
        await session.scalar(select(func.count()).select_from(Match).where(Match.status == "open"))
        or 0
    )


def summary(
    match: Match,
    *,
    names: dict[str, str],
    online: set[str],
    view: dict[str, Any] | None = None,
    viewer: str | None = None,
) -> dict[str, Any]:
    game = get_game(match.game)
    data: dict[str, Any] = {
        "id": match.id,
        "game": match.game,
        "title": game.title if game else match.game,
        "options": match.options,
        "status": match.status,
        "seats": [
            {
                "seat": i,
                "player_id": p,
                "name": names.get(p) if p else None,
                "online": p in online if p else False,
            }
            for i, p in enumerate(match.seats)
        ],
        "host": match.host_id,
        "host_name": names.get(match.host_id),
        "version": match.version,
        "min_players": game.min_players if game else None,
        "max_players": game.max_players if game else None,
        # Published from the lobby on, before any nonce is known (see app/engine/fairness.py).
        "seed_commitment": match.seed_commitment,
        "nonces": [n is not None for n in _nonces(match)],
        "private": match.private,
        "agreement": agreement(match) if match.status == "open" else None,
        "length": match.version,
        "rematch": match.rematch_id,
        "ended_by": names.get(match.ended_by) if match.ended_by else None,
        "outcome": match.outcome,
        # The seed is revealed once nothing more can be rolled with it.
        "seed": match.seed if match.status == "finished" else None,
        "created_at": iso_utc(match.created_at),
        "started_at": iso_utc(match.started_at),
        "finished_at": iso_utc(match.finished_at),
    }
    if viewer is not None and viewer in match.seats:
        data["watch_token"] = match.watch_token
    if view is not None:
        data["view"] = view
    return data


async def move_log(session: AsyncSession, *, match_id: str) -> list[dict[str, Any]]:
    """Every accepted move of a match in order, unredacted: callers decide who sees what."""
    rows = await session.execute(
        select(Move.seq, Move.seat, Move.move, Move.events, Move.created_at)
        .where(Move.match_id == match_id)
        .order_by(Move.seq)
    )
    return [
        {
            "seq": r.seq,
            "seat": r.seat,
            "move": r.move,
            "events": r.events,
            "at": iso_utc(r.created_at),
        }
        for r in rows
    ]
