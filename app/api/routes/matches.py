from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, status
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import ContextDep, CurrentPlayer, OptionalPlayer, SessionDep
from app.api.responses import COMMON, LISTING, MATCH_CHANGE, MATCH_READ
from app.api.schemas import (
    ComputerAdd,
    JoinRequest,
    MatchCreate,
    MatchesPublic,
    MatchLog,
    MatchUpdate,
    MoveAccepted,
    MoveSubmit,
    OptionsAccept,
    OptionsChange,
)
from app.context import AppContext
from app.db.models import Match
from app.engine.contract import Game, Outcome
from app.engine.registry import get_game
from app.engine.runtime import stand_ins_of
from app.errors import ArcadeError
from app.services import computers, friends, push, replays
from app.services import matches as lobby
from app.services.rate_limits import (
    HttpMoveLimit,
    ListReadLimit,
    LobbyCreationLimit,
    LobbyWriteLimit,
    RecordReadLimit,
)

router = APIRouter(prefix="/api/matches", tags=["matches"], responses=COMMON)


def _lobby_ttl(context: AppContext) -> timedelta:
    return timedelta(minutes=context.settings.open_lobby_ttl_minutes)


async def _activity(
    context: AppContext, session: AsyncSession, matches: list[Match]
) -> dict[str, dict[str, Any]]:
    return await lobby.activity(
        session,
        matches,
        now=datetime.now(UTC),
        lobby_ttl=_lobby_ttl(context),
        idle_after=timedelta(minutes=context.settings.idle_match_minutes),
    )


async def summary_for(
    context: AppContext,
    session: AsyncSession,
    match: Match,
    player_id: str | None,
    *,
    watch: str | None = None,
) -> dict[str, Any]:
    names = await lobby.player_names(session, [match])
    view = None
    may_watch = lobby.may_watch(match, player_id=player_id, watch=watch)
    played = match.status in ("active", "finished") or (
        match.status == "abandoned" and match.started_at is not None
    )
    if may_watch and played:
        live = await context.runtime.get(match.id)
        if live is not None:
            view = live.viewer_state(live.version, live.seat_of(player_id))
            match.version, match.status = live.version, live.status
    online = (await context.presence.look(match.id)).online  # on every process
    data = lobby.summary(
        match,
        names=names,
        online=set(online),
        view=view,
        viewer=player_id,
        activity=(await _activity(context, session, [match]))[match.id],
    )
    computers.describe_seats(data, match, await context.seat_facts(session, match, online=online))
    return data


async def _lobby_changed(
    context: AppContext, session: AsyncSession, match: Match, player_id: str, kind: str
) -> dict[str, Any]:
    """Commit a lobby change, tell the match's sockets, answer with the new summary."""
    await session.commit()
    await context.notify(match.id, kind)
    return await summary_for(context, session, match, player_id)


@router.post("", status_code=status.HTTP_201_CREATED, responses=MATCH_CHANGE)
async def create_match(
    body: MatchCreate,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyCreationLimit,
) -> dict[str, Any]:
    """Open a lobby; you are its host and sit in seat 0. A player hosts a few open lobbies at
    most (`max_open_lobbies_per_player`)."""
    match = await lobby.create_match(
        session,
        host=player,
        game_id=body.game,
        options=body.options,
        seats=body.seats,
        private=body.private,
        nonce=body.nonce,
        max_open=context.settings.max_open_lobbies_per_player,
    )
    await friends.invite(session, match, player, body.invite)
    await session.commit()
    if body.invite and context.push is not None:
        game = get_game(match.game)
        context.push.invited(match.id, game.title if game else match.game, player.name, body.invite)
    return await summary_for(context, session, match, player.id)


@router.get("", response_model=MatchesPublic, responses=LISTING)
async def list_matches(
    session: SessionDep,
    context: ContextDep,
    player: OptionalPlayer,
    _: ListReadLimit,
    status_: Annotated[
        str | None, Query(alias="status", pattern="^(open|active|finished|abandoned)$")
    ] = None,
    game: str | None = None,
    mine: bool = False,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    offset: Annotated[int, Query(ge=0, le=10_000)] = 0,
    after: Annotated[str | None, Query(min_length=1, max_length=32)] = None,
) -> MatchesPublic:
    """Match summaries, newest first (finished ones: the last to end first); filter by status,
    game, or your own (`mine=true`). Page on with `after=<next>` (the `next` of the previous
    page); `count` is exact up to a cap (`count_capped` says when there are at least that
    many). Open lobbies that have expired are not listed; each summary says when its table
    last saw activity (`last_activity_at`), when an open lobby closes (`expires_at`) and
    whether a match in progress is `idle`."""
    if mine and player is None:
        raise ArcadeError("unauthorized", "Sign in to list your own matches.")
    cap = context.settings.list_count_cap
    found, count, following = await lobby.list_matches(
        session,
        status=status_,
        game=game,
        player_id=player.id if mine and player else None,
        limit=limit,
        offset=offset,
        after=after,
        count_cap=cap,
        touched_since=datetime.now(UTC) - _lobby_ttl(context),
    )
    names = await lobby.player_names(session, found)
    activity = await _activity(context, session, found)
    facts = computers.SeatFacts(
        levels=await computers.computer_levels(session, found),
        away={},  # absences are told on the match's own summary, not in lists
        away_after=context.settings.away_after_seconds,
        claim_after=context.settings.claim_win_after_seconds,
    )
    seen = await context.presence.look_many(m.id for m in found)  # one round trip
    summaries = []
    for m in found:
        one = lobby.summary(m, names=names, online=set(seen[m.id].online), activity=activity[m.id])
        computers.describe_seats(one, m, facts)
        summaries.append(one)
    return MatchesPublic(
        matches=summaries,
        count=count,
        count_capped=count >= cap,
        next=following,
    )


@router.get("/{match_id}", responses=MATCH_READ)
async def read_match(
    match_id: str,
    session: SessionDep,
    context: ContextDep,
    player: OptionalPlayer,
    watch: str | None = None,
) -> dict[str, Any]:
    """The match summary, with your view of the game once it has started (private matches:
    only for their players and holders of the watch token)."""
    match = await lobby.get_match(session, match_id=match_id)
    return await summary_for(context, session, match, player.id if player else None, watch=watch)


@router.patch("/{match_id}", responses=MATCH_CHANGE)
async def update_match(
    match_id: str,
    body: MatchUpdate,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """The host makes the match private (only players and invited spectators watch) or
    public, or sets the pace and the turn timer while the lobby is open (`pace`: live or
    turn-based; `turn_timer`: seconds or null)."""
    if not body.model_fields_set:
        raise ArcadeError("bad_request", "Say what to change: private, pace or turn_timer.")
    match = await lobby.get_match(session, match_id=match_id)
    if "private" in body.model_fields_set:
        if body.private is None:
            raise ArcadeError("bad_request", "private is true or false.")
        match = await lobby.set_private(
            session, match_id=match_id, player=player, private=body.private
        )
    if {"turn_timer", "pace"} & body.model_fields_set:
        seconds = computers.turn_timer_for(
            body.pace if "pace" in body.model_fields_set else None,
            body.turn_timer,
            match.turn_timer,
        )
        match = await computers.set_turn_timer(
            session, match_id=match_id, player=player, seconds=seconds
        )
    return await _lobby_changed(context, session, match, player.id, "lobby")


@router.post("/{match_id}/bots", responses=MATCH_CHANGE)
async def add_computer(
    match_id: str,
    body: ComputerAdd,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """The host seats a computer player (easy or normal) in an empty seat while the lobby is
    open; it plays like anyone and follows the players into a rematch."""
    match = await computers.add_computer(
        session, match_id=match_id, player=player, level=body.level, seat=body.seat
    )
    return await _lobby_changed(context, session, match, player.id, "lobby")


@router.delete("/{match_id}/bots/{seat}", responses=MATCH_CHANGE)
async def remove_computer(
    match_id: str,
    seat: Annotated[int, Path(ge=0, le=63)],
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """The host takes a computer player out of its seat while the lobby is open."""
    match = await computers.remove_computer(session, match_id=match_id, player=player, seat=seat)
    return await _lobby_changed(context, session, match, player.id, "lobby")


@router.post("/{match_id}/seats/{seat}/stand-in", responses=MATCH_CHANGE)
async def stand_in(
    match_id: str,
    seat: Annotated[int, Path(ge=0, le=63)],
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """Another player of the match lets a computer play for `seat` while she is away: she is
    away on her turn, or her turn timer ran out. She gets her seat back when she returns."""
    match = await lobby.get_match(session, match_id=match_id)
    live = await context.runtime.get(match_id)
    if live is None or match.status != "active":
        raise ArcadeError("match_not_active", "This match is not being played.")
    facts = await context.seat_facts(session, match)
    match, told = await computers.stand_in(
        session, match_id=match_id, player=player, seat=seat, live=live, facts=facts
    )
    await session.commit()
    context.runtime.set_stand_ins(match_id, stand_ins_of(match.stand_ins))
    await context.notify(match_id, "seats", frame=told)
    return await summary_for(context, session, match, player.id)


@router.post("/{match_id}/claim-win", responses=MATCH_CHANGE)
async def claim_win(
    match_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """In a two-player match whose other player has been away long enough (`absence`
    `claim_after`), or, turn-based, let her time per move run out, the player who stayed
    claims the win; the outcome says it was claimed."""
    match = await lobby.get_match(session, match_id=match_id)
    facts = await context.seat_facts(session, match)
    live = await context.runtime.get(match_id)  # a turn-based claim needs the turn clock
    match, outcome = await computers.claim_win(
        session, match_id=match_id, player=player, facts=facts, now=datetime.now(UTC), live=live
    )
    await session.commit()
    await context.runtime.claim(match_id, Outcome.from_json(outcome))
    told = (match.seat_changes or [])[-1]
    await context.notify(match_id, "seats", claimed=True, frame=told)
    if live is not None and context.push is not None:
        context.push.tell(push.notices_when_stopped(live, player.id, told["text"]))
    return await summary_for(context, session, match, player.id)


@router.put("/{match_id}/options", responses=MATCH_CHANGE)
async def change_options(
    match_id: str,
    body: OptionsChange,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """The host changes the options while the lobby is open (everyone sees it live); for games
    whose options need everyone's agreement, every acceptance is withdrawn."""
    match = await lobby.change_options(
        session, match_id=match_id, player=player, options=body.options
    )
    return await _lobby_changed(context, session, match, player.id, "lobby")


@router.post("/{match_id}/accept", responses=MATCH_CHANGE)
async def accept_options(
    match_id: str,
    body: OptionsAccept,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """A seated player accepts the host's options (a custom zone, say) as she saw them."""
    match = await lobby.accept_options(
        session, match_id=match_id, player=player, options=body.options
    )
    return await _lobby_changed(context, session, match, player.id, "lobby")


@router.post("/{match_id}/rematch", responses=MATCH_CHANGE)
async def rematch(
    match_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """Play again: a new lobby with the same game, options and players, seats rotated."""
    match = await lobby.rematch(session, match_id=match_id, player=player)
    await session.commit()
    await context.notify(match_id, "rematch", rematch_id=match.id)
    return await summary_for(context, session, match, player.id)


@router.post("/{match_id}/keep-open", responses=MATCH_CHANGE)
async def keep_open(
    match_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """The host keeps her open lobby from expiring: it counts as lobby activity, so the
    lobby's `expires_at` moves on by `open_lobby_ttl_minutes`."""
    match = await lobby.keep_open(session, match_id=match_id, player=player)
    return await _lobby_changed(context, session, match, player.id, "lobby")


@router.post("/{match_id}/join", responses=MATCH_CHANGE)
async def join_match(
    match_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
    body: JoinRequest | None = None,
) -> dict[str, Any]:
    """Take a seat (a given one, or the first free) while the lobby is open."""
    match = await lobby.join_match(
        session,
        match_id=match_id,
        player=player,
        seat=body.seat if body else None,
        nonce=body.nonce if body else None,
    )
    return await _lobby_changed(context, session, match, player.id, "lobby")


@router.post("/{match_id}/leave", responses=MATCH_CHANGE)
async def leave_match(
    match_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """Give up your seat while the lobby is open."""
    match = await lobby.leave_match(session, match_id=match_id, player=player)
    return await _lobby_changed(context, session, match, player.id, "lobby")


@router.post("/{match_id}/end", responses=MATCH_CHANGE)
async def end_match(
    match_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """A player ends a match being played, for everyone (status `abandoned`, no winner)."""
    match = await lobby.end_match(session, match_id=match_id, player=player)
    await session.commit()
    live = await context.runtime.get(match_id)
    await context.runtime.end(match_id)
    await context.notify(match.id, "ended")
    if live is not None and context.push is not None:
        ended = f"{player.name} ended it."
        context.push.tell(push.notices_when_stopped(live, player.id, ended))
    return await summary_for(context, session, match, player.id)


@router.post("/{match_id}/start", responses=MATCH_CHANGE)
async def start_match(
    match_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    context: ContextDep,
    _: LobbyWriteLimit,
) -> dict[str, Any]:
    """The host starts the match once enough players are seated."""
    match = await lobby.start_match(session, match_id=match_id, player=player)
    answer = await _lobby_changed(context, session, match, player.id, "started")
    if context.push is not None and (live := await context.runtime.get(match_id)) is not None:
        context.push.tell(push.notices_at_start(live, player.id))
    return answer


@router.post("/{match_id}/moves", response_model=MoveAccepted, responses=MATCH_CHANGE)
async def submit_move(
    match_id: str,
    body: MoveSubmit,
    player: CurrentPlayer,
    context: ContextDep,
    session: SessionDep,
    _: HttpMoveLimit,
) -> MoveAccepted:
    """Submit a move over HTTP: the same rules as over the WebSocket."""
    match = await lobby.get_match(session, match_id=match_id)
    if match.status == "abandoned":
        # This process may hold the match from before another process ended it.
        await context.runtime.end(match_id)
    await session.close()  # the runtime opens its own transaction
    version = await context.runtime.submit(
        match_id, player_id=player.id, raw_move=body.move, client_id=body.id, version=body.version
    )
    return MoveAccepted(version=version)


@router.get("/{match_id}/log", response_model=MatchLog, responses=MATCH_READ)
async def read_log(
    match_id: str,
    session: SessionDep,
    context: ContextDep,
    player: OptionalPlayer,
    _: RecordReadLimit,
    watch: str | None = None,
) -> MatchLog:
    """The moves so far with their events, as you may see them (`bot`: a computer made
    it), and what happened to seats (`seat_changes`: a computer stood in, a player came
    back, a win was claimed)."""
    match = await lobby.get_match(session, match_id=match_id)
    if not lobby.may_watch(match, player_id=player.id if player else None, watch=watch):
        raise ArcadeError("forbidden", "This match is private.")
    live = await context.runtime.get(match_id)
    if live is None:  # a lobby, or one that closed before it started: nothing was played
        return MatchLog(moves=[])
    seat = live.seat_of(player.id if player else None)
    game = live.game
    being_played = live.status == "active"
    entries = []
    for entry in await lobby.move_log(session, match_id=match_id):
        theirs = seat != entry["seat"]
        if theirs and being_played and game.hides_mover(entry["move"], entry["events"]):
            entry["seat"] = entry["at"] = None  # as on the live stream: nobody named
            entry["bot"] = False
        entry["events"] = [
            shown for e in entry["events"] if (shown := game.redact_event(e, seat)) is not None
        ]
        if game.hidden_information and theirs:
            entry["move"] = {"type": entry["move"].get("type")}
        entries.append(entry)
    return MatchLog.model_validate(
        {"moves": entries, "seat_changes": list(match.seat_changes or [])}
    )


@router.get("/{match_id}/replay", responses=MATCH_CHANGE)
async def read_replay(
    match_id: str,
    session: SessionDep,
    player: OptionalPlayer,
    _: RecordReadLimit,
    watch: str | None = None,
) -> dict[str, Any]:
    """A finished match's full record (server seed, nonces, moves, state hashes) for export
    and verification with `arcade verify` or POST /api/replays/verify. A private match's
    record is for its players and holders of its watch link, like its log and frames."""
    match = await lobby.get_match(session, match_id=match_id)
    if not lobby.may_watch(match, player_id=player.id if player else None, watch=watch):
        raise ArcadeError("forbidden", "This match is private.")
    if match.status != "finished":
        raise ArcadeError("match_not_active", "Only finished matches can be exported.")
    game = _known_game(match.game)
    names = await lobby.player_names(session, [match])
    return await asyncio.to_thread(
        replays.export_record,
        game,
        match_id=match.id,
        rules_version=match.rules_version,
        options=match.options,
        seats=[
            {"seat": i, "player_id": p, "name": names.get(p or "")}
            for i, p in enumerate(match.seats)
        ],
        server_seed=match.seed,
        commitment=match.seed_commitment,
        nonces=list(match.nonces or []),
        moves=await lobby.move_log(session, match_id=match_id),
        outcome=match.outcome,
    )


@router.get("/{match_id}/replay/frames", responses=MATCH_CHANGE)
async def read_replay_frames(
    match_id: str,
    session: SessionDep,
    context: ContextDep,
    player: OptionalPlayer,
    _: RecordReadLimit,
    watch: str | None = None,
) -> dict[str, Any]:
    """The match move by move for the replay page: every secret once it is finished, a
    spectator's view while it is still being played."""
    match = await lobby.get_match(session, match_id=match_id)
    if match.status not in ("active", "finished"):
        raise ArcadeError("match_not_active", "This match has not started yet.")
    if not lobby.may_watch(match, player_id=player.id if player else None, watch=watch):
        raise ArcadeError("forbidden", "This match is private.")
    finished = match.status == "finished"
    cached = context.replay_cache.get(match_id) if finished else None
    if cached is not None:
        return cached
    live = await context.runtime.get(match_id)
    if live is None:
        raise ArcadeError("not_found", "There is no such match.")
    frames = await asyncio.to_thread(
        replays.replay_frames,
        live.game,
        match_id=match_id,
        options=match.options,
        names=live.names,
        seed=live.seed,
        moves=await lobby.move_log(session, match_id=match_id),
        reveal=finished and live.status == "finished",
        rules_version=match.rules_version,
    )
    if frames["status"] == "finished":
        context.remember_replay(match_id, frames)
    return frames


def _known_game(game_id: str) -> Game:
    game = get_game(game_id)
    if game is None:
        raise ArcadeError("not_found", f"This server does not know the game {game_id!r}.")
    return game
