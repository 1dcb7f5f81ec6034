"""Lobbies: open a match, take and give up seats, start it. Never commits: callers do.

Every lobby change is a compare-and-swap on the row's `lobby_version`: read the match, decide,
write only if nobody changed it in between, else read again and decide again. That holds on
SQLite (where FOR UPDATE locks nothing) as on PostgreSQL, and across processes.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import ValidationError
from sqlalchemy import delete, func, insert, or_, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from app.db.models import Match, MatchSeat, Move, Player
from app.engine.contract import Game
from app.engine.fairness import seed_commitment, valid_nonce
from app.engine.registry import get_game
from app.errors import ArcadeError
from app.services.option_errors import option_fault
from app.timestamps import as_utc, iso_utc

STATUSES = ("open", "active", "finished", "abandoned")
MATCH_ID_LENGTH = 12  # hex digits
# Why a match was abandoned (its `abandoned_reason`).
EVERYONE_LEFT, ENDED, EXPIRED = "left", "ended", "expired"
# A change that lost the race this many times in a row gives up with a conflict (each loss
# means somebody else's change went through, so this only happens under a storm of writes).
LOBBY_ATTEMPTS = 20


def _rules_today(old: Match) -> str:
    """A rematch is a new match: it is played by today's rules, whatever the old one used."""
    game = get_game(old.game)
    return game.rules_version if game is not None else old.rules_version


def _now() -> datetime:
    return datetime.now(UTC)


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


async def game_of(session: AsyncSession, *, match_id: str) -> str | None:
    """The game a match plays, or None when there is no such match."""
    if len(match_id) > MATCH_ID_LENGTH:
        return None  # no such id was ever made: no query for it
    return await session.scalar(select(Match.game).where(Match.id == match_id))


async def change_lobby(
    session: AsyncSession,
    match_id: str,
    decide: Callable[[Match], dict[str, Any] | None],
) -> Match:
    """Reads the match; `decide` refuses (raises), or names the columns to change (None: no
    change). They are written only if the row's lobby version and status are still the ones
    read; otherwise the match is read again and `decide` runs again on what is there now.
    Every change written is lobby activity: it keeps an open lobby from expiring."""
    for _attempt in range(LOBBY_ATTEMPTS):
        # FOR UPDATE spares PostgreSQL most retries; the compare-and-swap is what guarantees.
        match = await session.scalar(
            select(Match)
            .where(Match.id == match_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        if match is None:
            raise ArcadeError("not_found", "There is no such match.")
        changes = decide(match)
        if not changes:
            return match
        seen = match.lobby_version
        written_values = {**changes, "lobby_version": seen + 1, "last_activity_at": _now()}
        written = await session.execute(
            update(Match)
            .where(Match.id == match_id, Match.lobby_version == seen, Match.status == match.status)
            .values(**written_values)
            .execution_options(synchronize_session=False)
        )
        if written.rowcount == 1:  # type: ignore[attr-defined]
            for column, value in written_values.items():
                set_committed_value(match, column, value)
            if "seats" in changes:
                await _write_seat_rows(session, match_id, changes["seats"], replace=True)
            return match
    raise ArcadeError("conflict", "Many players changed this table at once; please try again.")


async def _write_seat_rows(
    session: AsyncSession, match_id: str, seats: list[str | None], *, replace: bool
) -> None:
    """match_seats follows the match's seats, in the same transaction."""
    if replace:
        # Locked in player order before the delete, which takes them in the table's order: a
        # heartbeat or a batch of sightings (services.computers.mark_seen) may be writing the
        # same seats right now, in player order, and two orders can deadlock.
        await session.execute(
            select(MatchSeat.player_id)
            .where(MatchSeat.match_id == match_id)
            .order_by(MatchSeat.player_id)
            .with_for_update()
        )
        await session.execute(delete(MatchSeat).where(MatchSeat.match_id == match_id))
    players = sorted({p for p in seats if p is not None})
    if players:
        await session.execute(
            insert(MatchSeat), [{"player_id": p, "match_id": match_id} for p in players]
        )


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
    player_id = player.id

    def decide(match: Match) -> dict[str, Any]:
        if match.status != "open":
            raise ArcadeError(
                "match_not_active", "The options are fixed once the match has started."
            )
        if match.host_id != player_id:
            raise ArcadeError("forbidden", "Only the host can change the options.")
        return {"options": _validated_options(_game_or_404(match.game), options), "accepted": []}

    return await change_lobby(session, match_id, decide)


async def accept_options(
    session: AsyncSession, *, match_id: str, player: Player, options: dict[str, Any]
) -> Match:
    """A seated player accepts the options she was shown (sent back, so an acceptance can
    never apply to options the host changed in the meantime)."""
    player_id = player.id

    def decide(match: Match) -> dict[str, Any] | None:
        if match.status != "open":
            raise ArcadeError("match_not_active", "The match has already started.")
        if player_id not in match.seats:
            raise ArcadeError("forbidden", "Only seated players accept the options.")
        if _validated_options(_game_or_404(match.game), options) != match.options:
            raise ArcadeError(
                "conflict",
                "The host changed the options since you looked; check them and accept again.",
            )
        if player_id in (match.accepted or []):
            return None
        return {"accepted": [*(match.accepted or []), player_id]}

    return await change_lobby(session, match_id, decide)


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
    max_open: int | None = None,
) -> Match:
    game = _game_or_404(game_id)
    parsed = _validated_options(game, options)
    if max_open is not None and await count_open_hosted(session, host_id=host.id) >= max_open:
        raise ArcadeError(
            "conflict",
            f"You already host {max_open} open tables: start one or leave one before "
            "opening another.",
        )
    count = seats if seats is not None else game.min_players
    if not game.min_players <= count <= game.max_players:
        raise ArcadeError(
            "bad_request",
            f"{game.title} is for {game.min_players} to {game.max_players} players, not {count}.",
        )
    seed = secrets.token_hex(32)
    match = Match(
        id=secrets.token_hex(MATCH_ID_LENGTH // 2),
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
        last_activity_at=_now(),
    )
    session.add(match)
    await session.flush()
    await _write_seat_rows(session, match.id, match.seats, replace=False)
    return match


def _nonces(match: Match) -> list[str | None]:
    """The nonce list aligned with the seats (older rows may have fewer entries)."""
    nonces = list(match.nonces or [])
    return nonces + [None] * (len(match.seats) - len(nonces))


def seat_to_take(seats: list[str | None], wanted: int | None, player_id: str) -> int:
    """The seat `player_id` may take: `wanted`, or the first free one; refused when it does
    not exist, is someone else's, or none is free."""
    if wanted is None:
        free = [i for i, p in enumerate(seats) if p is None]
        if not free:
            raise ArcadeError("conflict", "This match is full.")
        wanted = free[0]
    if not 0 <= wanted < len(seats):
        raise ArcadeError("bad_request", f"Seat {wanted} does not exist in this match.")
    if seats[wanted] not in (None, player_id):
        raise ArcadeError("conflict", f"Seat {wanted + 1} is taken.")
    return wanted


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
    player_id = player.id

    def decide(match: Match) -> dict[str, Any] | None:
        if match.status != "open":
            raise ArcadeError(
                "match_not_active", "This match has already started; you can watch it."
            )
        seats, nonces = list(match.seats), _nonces(match)
        wanted = seat
        if wanted is None and player_id in seats:
            wanted = seats.index(player_id)
        wanted = seat_to_take(seats, wanted, player_id)
        if player_id in seats and seats[wanted] != player_id:  # moving to another seat
            old = seats.index(player_id)
            seats[old], nonces[old] = None, None
        if seats[wanted] == player_id and nonce is None:
            return None
        seats[wanted] = player_id
        nonces[wanted] = nonce
        return {"seats": seats, "nonces": nonces}

    return await change_lobby(session, match_id, decide)


async def leave_match(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    player_id = player.id

    def decide(match: Match) -> dict[str, Any]:
        if match.status != "open":
            raise ArcadeError("match_not_active", "You can only leave a match before it starts.")
        if player_id not in match.seats:
            raise ArcadeError("bad_request", "You are not seated in this match.")
        index = match.seats.index(player_id)
        seats, nonces = list(match.seats), _nonces(match)
        seats[index], nonces[index] = None, None
        changes: dict[str, Any] = {
            "seats": seats,
            "nonces": nonces,
            "accepted": [p for p in (match.accepted or []) if p != player_id],
        }
        if match.host_id == player_id:
            remaining = [p for p in seats if p is not None]
            if remaining:
                changes["host_id"] = remaining[0]
            else:
                changes["status"] = "abandoned"
                changes["abandoned_reason"] = EVERYONE_LEFT
        return changes

    return await change_lobby(session, match_id, decide)


async def end_match(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    """A seated player ends a match being played, for everyone: it is marked abandoned (no
    winner), its moves stay in the log, and it leaves the lists of games in progress. Friends
    who stop playing should not leave a table open forever."""
    player_id = player.id

    def decide(match: Match) -> dict[str, Any]:
        if player_id not in match.seats:
            raise ArcadeError("forbidden", "Only the players of this match can end it.")
        if match.status == "open":
            raise ArcadeError(
                "match_not_active", "This match has not started; leave the lobby instead."
            )
        if match.status != "active":
            raise ArcadeError("match_not_active", "This match is already over.")
        return {
            "status": "abandoned",
            "ended_by": player_id,
            "abandoned_reason": ENDED,
            "finished_at": _now(),
        }

    return await change_lobby(session, match_id, decide)


async def keep_open(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    """The host says she is still there: the lobby's activity is now, so it stays open
    another `open_lobby_ttl_minutes`. A deliberate tap, unlike an open page or a chat line."""
    player_id = player.id

    def decide(match: Match) -> dict[str, Any]:
        if match.status != "open":
            raise ArcadeError("match_not_active", "This table is no longer open.")
        if match.host_id != player_id:
            raise ArcadeError("forbidden", "Only the host can keep the table open.")
        return {"last_activity_at": _now()}

    return await change_lobby(session, match_id, decide)


async def expire_lobbies(session: AsyncSession, *, now: datetime, ttl: timedelta) -> list[str]:
    """Closes every open lobby untouched since `now - ttl` (abandoned, reason "expired") and
    returns their ids. One conditional UPDATE: with several processes sweeping at once (or a
    player joining at that moment) each lobby is closed once, by whoever gets its row first,
    and a lobby touched in between no longer matches. Like a lobby everyone left, an expired
    one keeps its seats and nonces as they were; finished_at says when it closed."""
    closed = await session.execute(
        update(Match)
        .where(Match.status == "open", Match.last_activity_at < now - ttl)
        .values(
            status="abandoned",
            abandoned_reason=EXPIRED,
            finished_at=now,
            lobby_version=Match.lobby_version + 1,
        )
        .returning(Match.id)
        .execution_options(synchronize_session=False)
    )
    return sorted(closed.scalars().all())


async def start_match(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    player_id = player.id

    def decide(match: Match) -> dict[str, Any]:
        if match.status != "open":
            raise ArcadeError("match_not_active", "This match has already started.")
        if match.host_id != player_id:
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
        return {
            "seats": [p for p, _n in taken],
            "nonces": [n for _p, n in taken],
            "status": "active",
            "started_at": datetime.now(UTC),
        }

    match = await change_lobby(session, match_id, decide)
    # Everyone counts as just seen at the start: who never opens the match is away only
    # once the grace period has passed.
    await session.execute(
        update(MatchSeat).where(MatchSeat.match_id == match_id).values(seen_at=match.started_at)
    )
    return match


async def set_private(
    session: AsyncSession, *, match_id: str, player: Player, private: bool
) -> Match:
    player_id = player.id

    def decide(match: Match) -> dict[str, Any] | None:
        if match.host_id != player_id:
            raise ArcadeError("forbidden", "Only the host can change who may watch.")
        return None if match.private == private else {"private": private}

    return await change_lobby(session, match_id, decide)


async def rematch(session: AsyncSession, *, match_id: str, player: Player) -> Match:
    """A new lobby: same game, options and privacy, the same players with seats rotated by one.
    Players asking at once get the same new lobby: the first to claim the old match's
    rematch_id creates it."""
    player_id = player.id
    new_id = secrets.token_hex(MATCH_ID_LENGTH // 2)

    def decide(old: Match) -> dict[str, Any] | None:
        if old.status != "finished":
            raise ArcadeError("match_not_active", "A rematch can follow only a finished match.")
        if player_id not in old.seats:
            raise ArcadeError("forbidden", "Only the players of this match can ask for a rematch.")
        return None if old.rematch_id is not None else {"rematch_id": new_id}

    old = await change_lobby(session, match_id, decide)
    if old.rematch_id != new_id:
        return await get_match(session, match_id=str(old.rematch_id))
    seed = secrets.token_hex(32)
    rotated = old.seats[-1:] + old.seats[:-1]  # seat i's player moves to seat i + 1
    match = Match(
        id=new_id,
        game=old.game,
        rules_version=_rules_today(old),
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
        last_activity_at=_now(),
        # The computer players seated in the old match sit in the new one too.
        turn_timer=old.turn_timer,
        has_computer=bool(await _computer_ids(session, rotated)),
    )
    session.add(match)
    await session.flush()
    await _write_seat_rows(session, match.id, match.seats, replace=False)
    return match


async def _computer_ids(session: AsyncSession, ids: list[str | None]) -> set[str]:
    wanted = sorted({p for p in ids if p is not None})
    rows = await session.scalars(
        select(Player.id).where(Player.id.in_(wanted), Player.bot_level.is_not(None))
    )
    return set(rows)


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
    offset: int = 0,
    after: str | None = None,
    count_cap: int = 1000,
    touched_since: datetime | None = None,
) -> tuple[list[Match], int, str | None]:
    """One page of matches, newest first, its total counted up to `count_cap`, and the cursor
    of the next page (None on the last). Newest means the last created, except for finished
    matches: the last to end (the history). Public pages are read by an index on (status,
    private, created_at or finished_at, id), so a page of open lobbies costs the same among 3
    or 3,000 of them; a player's own through match_seats, so they cost what her own matches
    do. `after` is the id of the last match of the previous page (keyset pagination).
    Open lobbies untouched since `touched_since` are left out: they have expired, whether or
    not the sweeper has closed them yet."""
    query = select(Match)
    if status is not None:
        query = query.where(Match.status == status)
    else:
        query = query.where(Match.status != "abandoned")
    if touched_since is not None and status in (None, "open"):
        fresh = Match.last_activity_at >= touched_since
        query = query.where(fresh if status == "open" else or_(Match.status != "open", fresh))
    if game is not None:
        query = query.where(Match.game == game)
    if player_id is None:
        query = query.where(Match.private.is_(False))
    else:
        query = query.join(MatchSeat, MatchSeat.match_id == Match.id).where(
            MatchSeat.player_id == player_id
        )
    # Finished matches all have an end time (runtime; migration 0006 for older rows).
    moment = Match.finished_at if status == "finished" else Match.created_at
    newest_first = (moment.desc(), Match.id.desc())
    counted = await session.scalar(
        select(func.count()).select_from(
            query.with_only_columns(Match.id).limit(count_cap).subquery()
        )
    )
    if after is not None:
        if await session.scalar(select(Match.id).where(Match.id == after)) is None:
            raise ArcadeError("bad_request", "That page of matches is gone; start again.")
        # Compared with the stored value itself: SQLite keeps times as text, and a bound
        # Python datetime is written differently from what CURRENT_TIMESTAMP stored.
        last_moment = select(moment).where(Match.id == after).scalar_subquery()
        # A row-value comparison: both databases seek the index to it rather than filter.
        # The id breaks ties, so matches that ended in the same second are neither skipped
        # nor shown twice across pages.
        query = query.where(tuple_(moment, Match.id) < tuple_(last_moment, after))
    rows = list(
        (await session.scalars(query.order_by(*newest_first).offset(offset).limit(limit + 1))).all()
    )
    page = rows[:limit]
    return page, int(counted or 0), page[-1].id if len(rows) > limit else None


async def count_open_hosted(session: AsyncSession, *, host_id: str) -> int:
    return (
        await session.scalar(
            select(func.count())
            .select_from(Match)
            .where(Match.host_id == host_id, Match.status == "open")
        )
        or 0
    )


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


async def activity(
    session: AsyncSession,
    matches: list[Match],
    *,
    now: datetime,
    lobby_ttl: timedelta,
    idle_after: timedelta,
) -> dict[str, dict[str, Any]]:
    """Per match id, the summary's activity fields: `last_activity_at` (an open lobby's last
    change, also once it expired; a match in progress's last move, or its start; a match
    over: its end),
    `expires_at` (open lobbies: when they close if nothing happens) and `idle` (a match in
    progress without a move for `idle_after`). The last moves are read in one statement,
    each by the end of its match's primary key, however long the matches are."""
    playing = [m.id for m in matches if m.status == "active"]
    last_moves: dict[str, datetime | None] = {}
    if playing:
        last_move = (
            select(Move.created_at)
            .where(Move.match_id == Match.id)
            .order_by(Move.seq.desc())
            .limit(1)
            .correlate(Match)
            .scalar_subquery()
        )
        rows = await session.execute(select(Match.id, last_move).where(Match.id.in_(playing)))
        last_moves = {row[0]: row[1] for row in rows}
    found: dict[str, dict[str, Any]] = {}
    for match in matches:
        if match.status == "active":
            last = last_moves.get(match.id) or match.started_at
        elif match.status == "open" or abandoned_reason(match) == EXPIRED:
            last = match.last_activity_at  # closing a table nobody touched is no activity
        else:
            last = match.finished_at
        last = as_utc(last or match.last_activity_at or match.created_at)
        expires = last + lobby_ttl if match.status == "open" and last is not None else None
        found[match.id] = {
            "last_activity_at": iso_utc(last),
            "expires_at": iso_utc(expires),
            "idle": match.status == "active" and last is not None and now - last >= idle_after,
        }
    return found


def abandoned_reason(match: Match) -> str | None:
    """Rows older than migration 0006 did not store it: told apart as they were then."""
    if match.status != "abandoned":
        return None
    if match.abandoned_reason:
        return match.abandoned_reason
    return ENDED if match.ended_by else EVERYONE_LEFT


def summary(
    match: Match,
    *,
    names: dict[str, str],
    online: set[str],
    view: dict[str, Any] | None = None,
    viewer: str | None = None,
    activity: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A match as the API shows it. `activity` (from activity()) adds last_activity_at,
    expires_at and idle: answers over HTTP have them, lobby messages on a socket need not."""
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
        "abandoned_reason": abandoned_reason(match),
        "outcome": match.outcome,
        # The seed is revealed once nothing more can be rolled with it.
        "seed": match.seed if match.status == "finished" else None,
        "created_at": iso_utc(match.created_at),
        "started_at": iso_utc(match.started_at),
        "finished_at": iso_utc(match.finished_at),
        # A guided first match: the family of its lesson (GET /api/tutorials/{family}).
        "tutorial": match.tutorial,
    }
    if viewer is not None and viewer in match.seats:
        data["watch_token"] = match.watch_token
    if view is not None:
        data["view"] = view
    if activity is not None:
        data.update(activity)
    return data


async def move_log(session: AsyncSession, *, match_id: str) -> list[dict[str, Any]]:
    """Every accepted move of a match in order, unredacted: callers decide who sees what."""
    rows = await session.execute(
        select(Move.seq, Move.seat, Move.move, Move.events, Move.created_at, Move.bot)
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
            "bot": bool(r.bot),
        }
        for r in rows
    ]
