"""The match runtime: validates, applies, persists and announces moves.

A live match is cached in memory (state, version, a short history for patches); the moves
table is the truth. Accepting a move is one transaction (insert moves(seq = version + 1),
bump matches.version); the primary key lets exactly one of two racing submissions win, even
across processes, and the loser reloads and revalidates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, NoReturn

import asyncpg
import orjson
from pydantic import BaseModel
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import Match, Move, Player
from app.db.session import json_text
from app.engine.contract import BadMove, Event, Game, IllegalMove, Outcome, State
from app.engine.dice import SETUP_MOVE_NUMBER, Dice
from app.engine.fairness import dice_seed
from app.engine.registry import get_game
from app.errors import ArcadeError
from app.realtime.compact import CompactPatch, Words, compact_patch
from app.realtime.diff import make_patch
from app.timestamps import as_utc
from app.tutorials import tutorial

log = logging.getLogger(__name__)

HISTORY = 8
"""Versions kept for patches to connections that lag (further behind gets a snapshot) and for
the stale-version rules. A C64 Maze state is about 2.5 KiB of objects: with thousands of live
matches in a process, 16 of them a match were a quarter of its memory. A match idle for
IDLE_VIEWS keeps only two (`LiveMatch.forget_views`)."""
ANSWERS = 256
"""Move ids kept in memory per match for idempotent resubmission. Older ones are looked up in
the moves table (its unique index on (match_id, client_id)), only when a resent move fails:
the hot path never pays a query, and an id is answered the same for the whole match."""


def replay(
    game: Game,
    options: BaseModel,
    players: int,
    seed: str,
    moves: list[tuple[int, dict[str, Any]]],
    rules_version: str | None = None,
) -> tuple[State, list[list[Event]]]:
    """Rebuild a state from the log; move k gets the RNG (seed, k)."""
    state = game.begin(players, options, Dice(seed, SETUP_MOVE_NUMBER), rules_version)
    all_events = []
    for seq, (seat, move) in enumerate(moves, start=1):
        state, events = game.apply(state, seat, move, Dice(seed, seq))
        all_events.append(events)
    return state, all_events


def seat_state(
    game: Game,
    state: State,
    *,
    version: int,
    seats: list[dict[str, Any]],
    you: int | None,
    board: dict[str, Any],
    outcome: Outcome | None,
    legal_moves: Callable[[], list[dict[str, Any]]],
    ended: bool = False,
    deadline: int | None = None,
    turn_deadline: int | None = None,
) -> dict[str, Any]:
    """The `state` of the wire protocol: one seat's view of a position with what surrounds
    it (who moves, the seat's legal moves, the outcome). `legal_moves` is asked only when
    `you` is to move."""
    active = sorted(game.active_seats(state)) if outcome is None and not ended else []
    if you in active:
        legal = legal_moves()
    elif you is not None and active:
        legal = game.out_of_turn_moves(state, you)
    else:
        legal = []
    return {
        "game": game.id,
        "status": "finished" if outcome is not None else "abandoned" if ended else "active",
        "version": version,
        "seats": seats,
        "you": you,
        "active_seats": active,
        "legal_moves": legal,
        "board": board,
        "outcome": outcome.to_json() if outcome is not None else None,
        "deadline": deadline if active else None,
        "turn_deadline": turn_deadline if active else None,
    }


@dataclass(frozen=True)
class ScriptedMove:
    seat: int
    move: dict[str, Any]
    """In the canonical form `parse_move` gives, to compare with what a learner sent."""
    hint: str


def script_of(game: Game, tutorial_family: str | None) -> list[ScriptedMove] | None:
    if tutorial_family is None:
        return None
    script = tutorial(tutorial_family)
    if script is None or script.game != game.id:
        return None  # a tutorial since withdrawn: the match plays on as any match
    learner_hint = "Follow the lesson: do what the highlighted step says."
    return [
        ScriptedMove(
            seat=step.seat,
            move=game.parse_move(step.move),
            hint=step.hint
            or (learner_hint if step.seat == script.learner else "Wait: the computer moves now."),
        )
        for step in script.steps
    ]


@dataclass
class LiveMatch:
    id: str
    game: Game
    options: BaseModel
    seed: str
    players: list[str]  # player id per seat
    names: list[str]
    state: State
    version: int
    status: str
    outcome: Outcome | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    history: OrderedDict[int, tuple[State, list[Event]]] = field(default_factory=OrderedDict)
    answers: OrderedDict[str, int] = field(default_factory=OrderedDict)
    deadlines: dict[int, int] = field(default_factory=dict)
    """version -> epoch milliseconds when the server answers for that version's active seats."""
    bots: dict[int, str] = field(default_factory=dict)
    """seat -> level of the computer players seated in this match."""
    stand_ins: dict[int, str] = field(default_factory=dict)
    """seat -> level of the computer playing for an absent player until she returns."""
    turn_timer: int | None = None
    """Seconds a turn may take (the lobby's turn timer); None: no timer."""
    turn_deadlines: dict[int, int] = field(default_factory=dict)
    """version -> epoch milliseconds when the turn of that version's active seats runs out."""
    script: list[ScriptedMove] | None = None
    """A guided first match's moves, in order (move k+1 is script[k]); None: a match."""
    _views: dict[tuple[int, int | None], dict[str, Any]] = field(default_factory=dict)
    _patches: dict[tuple[int, int | None], list[dict[str, Any]]] = field(default_factory=dict)
    _legal: dict[tuple[int, int], list[dict[str, Any]]] = field(default_factory=dict)
    _boards: dict[tuple[int, int | None], dict[str, Any]] = field(default_factory=dict)
    _board_patches: dict[tuple[int, int | None], list[dict[str, Any]]] = field(default_factory=dict)
    _events: dict[tuple[int, int | None], list[Event]] = field(default_factory=dict)
    _compact: dict[tuple[int, int | None], CompactPatch] = field(default_factory=dict)
    words: dict[int | None, Words] = field(default_factory=dict)
    """The dictionaries of the compact form (app/realtime/compact.py, `words_of`), made when a
    compact connection first needs one, and dropped with the views when the match waits."""
    _word_bases: dict[int | None, int] = field(default_factory=dict)
    """Where the next dictionary of each viewer key numbers from (after a dropped one)."""
    numbered_from: int = 0
    """The first version whose compact frames number values again (`forget_views` sets it
    `PLAYED_ON` versions ahead): the frames before it are made with dictionaries that number
    nothing, and `"compact": 2` connections get them in full."""
    _seats: list[dict[str, Any]] | None = None
    moved_at: float = 0.0
    """time.monotonic() of the last version this process made or learnt of."""

    @classmethod
    def in_memory(cls, game: Game, seed: str, players: int) -> LiveMatch:
        """A match of `game` with its default options and placeholder players, begun from
        `seed` and held only here: how benchmarks and tests play one with no database."""
        options = game.parse_options({})
        state = game.begin(players, options, Dice(seed, SETUP_MOVE_NUMBER))
        live = cls(
            id=f"in-memory-{seed}",
            game=game,
            options=options,
            seed=seed,
            players=[f"p{i}" for i in range(players)],
            names=[f"Player {i + 1}" for i in range(players)],
            state=state,
            version=0,
            status="active",
            outcome=None,
        )
        live.remember(0, state, [])
        return live

    def scripted(self) -> ScriptedMove | None:
        """The move the tutorial's script makes next, while it lasts."""
        if self.script is None or self.version >= len(self.script):
            return None
        return self.script[self.version]

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        try:
            return self.players.index(player_id)
        except ValueError:
            return None

    def remember(self, version: int, state: State, events: list[Event]) -> None:
        self.history[version] = (state, events)
        self.moved_at = time.monotonic()
        while len(self.history) > HISTORY:
            self.history.popitem(last=False)
        for old in [v for v in self.deadlines if v < version - HISTORY]:
            del self.deadlines[old]
        for old in [v for v in self.turn_deadlines if v < version - HISTORY]:
            del self.turn_deadlines[old]
        caches = self._caches()
        # Views, patches and legal moves are kept for this version and the one before (the
        # next patch diffs against this one): older ones are rebuilt from the history if a
        # lagging connection asks. A mover's legal moves alone can be 40 KiB of objects.
        if version - 1 in self.history:
            # One version at a time (the usual case): drop just the keys of the one that
            # falls out, without scanning every cache on every move.
            stale = version - 2
            for cache in caches:
                for seat in (None, *range(len(self.players))):
                    cache.pop((stale, seat), None)
        else:
            for cache in caches:
                for key in [k for k in cache if k[0] < version - 1]:
                    del cache[key]

    def forget_version(self, version: int) -> None:
        """Takes back `remember(version)` and `reach(version)` made ahead of a commit that
        failed (another process made that version first): its views and patches show a move
        that never happened. What `remember` dropped as too old stays dropped: it is rebuilt
        from the history, or a lagging connection gets a snapshot."""
        self.history.pop(version, None)
        self.deadlines.pop(version, None)
        self.turn_deadlines.pop(version, None)
        for cache in self._caches():
            for key in [k for k in cache if k[0] == version]:
                del cache[key]

    def _caches(self) -> tuple[dict[Any, Any], ...]:
        """What is kept per (version, viewer), rebuilt from the history when dropped."""
        return (
            self._views,
            self._patches,
            self._legal,
            self._events,
            self._boards,
            self._board_patches,
            self._compact,
        )

    def forget_views(self) -> None:
        """Drops every cached view, patch, legal-move list and event text (they are rebuilt
        from the history when asked for again), and the history but for the last two
        versions. For a match waiting on a person's move: its connections have been sent the
        last version by now, and one that lags further gets a snapshot.

        The board of the last version stays (a few KiB in a C64 game): the next move's
        patches diff against it, and rebuilding it was a twentieth of the server's CPU at a
        person's pace, where nearly every move comes after its match's views were dropped.

        The compact form's dictionaries go too. A dictionary grows with nearly every move
        (most values of a move are new) up to `MAX_WORDS` entries, about 250 bytes each: kept
        for every waiting match, 5,000 matches at a person's pace took the server from 466 to
        over 1,000 MiB within 80 seconds. The frames of the next `PLAYED_ON` versions put
        their values inline (a dictionary begun for a few moves costs more bytes and CPU than
        it saves); if the match plays on that long without waiting, new dictionaries number
        its values again, on from these (`Words.base`). Each connection is told of a new
        dictionary (`Told`)."""
        current = {key: board for key, board in self._boards.items() if key[0] == self.version}
        for key, words in self.words.items():
            self._word_bases[key] = words.next_base
        self.words.clear()
        self.numbered_from = self.version + 1 + PLAYED_ON
        for cache in self._caches():
            cache.clear()
        self._boards.update(current)
        while len(self.history) > 2:
            self.history.popitem(last=False)

    def computers(self) -> dict[int, str]:
        """seat -> level of every seat a computer plays now (its own, or standing in)."""
        return {**self.stand_ins, **self.bots}

    def reach(self, version: int, at_ms: int) -> None:
        """`version` was made at `at_ms` (epoch milliseconds: its move's time in the moves
        table, or the match's start): its clocks start from then. Every process derives the
        same deadlines from the same log, so a process that takes a clock over fires it when
        its first owner would have, and every page shows the same deadline."""
        self.start_clock(version, at_ms)
        self.start_turn(version, at_ms)

    def start_clock(self, version: int, at_ms: int) -> None:
        """The decision clock of `version`'s active seats, when the game asks for one. While
        the same question is still open (the seats to answer are a subset of the previous
        version's), the first deadline stands, so answering does not buy the others more
        time."""
        if self.status != "active" or self.script is not None:
            return  # a learner in a guided match takes her time over every question
        state = self.history[version][0]
        seconds = self.game.decision_seconds(state)
        if seconds is None:
            return
        previous = self.deadlines.get(version - 1)
        if previous is not None and self.has(version - 1):
            before = self.game.active_seats(self.history[version - 1][0])
            if self.game.active_seats(state) <= before:
                self.deadlines[version] = previous
                return
        self.deadlines[version] = at_ms + int(seconds * 1000)

    def start_turn(self, version: int, now_ms: int) -> None:
        """The turn timer of `version`'s active seats: a seat still to move after a move of
        its own or of others keeps the deadline it had (a turn of several steps, a question
        answered one seat at a time), so a turn cannot be stretched one step at a time."""
        if self.turn_timer is None or self.status != "active":
            return
        deadline = now_ms + self.turn_timer * 1000
        if self.has(version - 1) and version - 1 in self.turn_deadlines:
            before = self.game.active_seats(self.history[version - 1][0])
            if self.game.active_seats(self.history[version][0]) <= before:
                deadline = self.turn_deadlines[version - 1]
        self.turn_deadlines[version] = deadline

    def turn_ran_out(self, seat: int, now_ms: int) -> bool:
        deadline = self.turn_deadlines.get(self.version)
        active = self.game.active_seats(self.state)
        return (
            self.status == "active"
            and seat in active
            and deadline is not None
            and now_ms >= deadline
        )

    def _seats_view(self) -> list[dict[str, Any]]:
        # The same object in every version's view: the diff skips it by identity.
        if self._seats is None:
            self._seats = [
                {"seat": i, "name": name, "bot": self.bots.get(i)}
                for i, name in enumerate(self.names)
            ]
        return self._seats

    def end(self) -> None:
        """Ended by a player: the last position is shown as abandoned, with no moves."""
        if self.status != "active":
            return
        self.status = "abandoned"
        self._forget_views_of_last_position()

    def claim(self, outcome: Outcome) -> None:
        """Won by a claim while the opponent was away: finished with that outcome, though the
        rules had not ended it."""
        if self.status != "active":
            return
        self.status, self.outcome = "finished", outcome
        self._forget_views_of_last_position()

    def _forget_views_of_last_position(self) -> None:
        # Views of the last position were made while it was still being played.
        for key in [k for k in self._views if k[0] == self.version]:
            del self._views[key]

    def legal(self, version: int, seat: int) -> list[dict[str, Any]]:
        """`seat`'s legal moves at `version`, computed once (validation and views share it)."""
        key = (version, seat)
        cached = self._legal.get(key)
        if cached is None:
            cached = self._legal[key] = self.game.legal_moves(self.history[version][0], seat)
        return cached

    # --- what one viewer sees --------------------------------------------------------------
    def _board_key(self, seat: int | None) -> int | None:
        # Without hidden information every seat sees the same board: build and diff it once.
        return seat if self.game.hidden_information else None

    def viewer_state(self, version: int, seat: int | None) -> dict[str, Any]:
        """The `state` of the wire protocol for `seat` at `version` (cached: shared by viewers)."""
        key = (version, seat)
        cached = self._views.get(key)
        if cached is not None:
            return cached
        board_key = (version, self._board_key(seat))
        board = self._boards.get(board_key)
        state = self.history[version][0]
        game = self.game
        if board is None:
            board = self._boards[board_key] = self._build_board(version, board_key[1], state)
        outcome = game.outcome(state)
        if outcome is None and version == self.version and self.status == "finished":
            outcome = self.outcome  # a claimed win
        view = seat_state(
            game,
            state,
            version=version,
            seats=self._seats_view(),
            you=seat,
            board=board,
            outcome=outcome,
            ended=outcome is None and self.status == "abandoned" and version == self.version,
            legal_moves=lambda: self.legal(version, seat),  # type: ignore[arg-type]
            deadline=self.deadlines.get(version),
            turn_deadline=self.turn_deadlines.get(version),
        )
        self._views[key] = view
        return view

    def _build_board(self, version: int, board_seat: int | None, state: State) -> dict[str, Any]:
        earlier = self._boards.get((version - 1, board_seat))
        if earlier is None or version - 1 not in self.history:
            return self.game.view(state, board_seat)
        return self.game.view_since(state, board_seat, self.history[version - 1][0], earlier)

    def patch(self, version: int, seat: int | None) -> list[dict[str, Any]]:
        """RFC 6902 ops from `seat`'s view at version-1 to its view at `version`."""
        key = (version, seat)
        cached = self._patches.get(key)
        if cached is None:
            before = self.viewer_state(version - 1, seat)
            after = self.viewer_state(version, seat)
            board_key = (version, self._board_key(seat))
            board_ops = self._board_patches.get(board_key)
            if board_ops is None:
                board_ops = make_patch(before["board"], after["board"], "/board")
                self._board_patches[board_key] = board_ops
            envelope = make_patch({**before, "board": None}, {**after, "board": None})
            cached = self._patches[key] = envelope + board_ops
        return cached

    def events_for(self, version: int, seat: int | None) -> list[Event]:
        key = (version, seat)
        cached = self._events.get(key)
        if cached is None:
            cached = []
            for event in self.history[version][1]:
                shown = self.game.redact_event(event, seat)
                if shown is not None:
                    cached.append(shown)
            self._events[key] = cached
        return cached

    def waited_before(self, version: int) -> bool:
        """The match waited (its views were dropped) within the `PLAYED_ON` versions before
        `version`: its compact frames number nothing."""
        return version < self.numbered_from

    def words_of(self, seat: int | None, version: int) -> Words:
        """`seat`'s dictionary of the compact form for the frame of `version`: its own in a
        game with hidden information (nothing it was not sent may be in it), else one for
        every viewer (as the board)."""
        key = self._board_key(seat)
        words = self.words.get(key)
        numbered = not self.waited_before(version)
        # Played on long enough without a wait: an inline dictionary (it holds no entries, so
        # its successor starts where it did) gives way to one that numbers values again.
        if words is None or (numbered and not words.numbered):
            base = self._word_bases.get(key, 0) if words is None else words.base
            words = self.words[key] = Words(base, numbered=numbered)
        return words

    def compact_patch(self, version: int, seat: int | None) -> CompactPatch:
        """`patch` and `events_for` in the compact form, numbered in `seat`'s dictionary."""
        key = (version, seat)
        cached = self._compact.get(key)
        if cached is None:
            words = self.words_of(seat, version)
            cached = self._compact[key] = compact_patch(
                words,
                version,
                self.patch(version, seat),
                self.viewer_state(version, seat)["legal_moves"],
                self.events_for(version, seat),
            )
        return cached

    def has(self, version: int) -> bool:
        return version in self.history


Announce = Callable[[str, int, dict[str, Any]], Awaitable[None]]
"""announce(match_id, version, accepted): `accepted` holds seat, move and client id, so other
processes can apply the move without reading it back from the database."""
AfterMove = Callable[["LiveMatch", int, State, State, "Outcome | None"], None]
"""after_move(match, seat that moved, state before the move, state after it, its outcome):
see MatchRuntime.after_move. The states are given because the match may have moved on again
by the time the callbacks run (they run after the announcement, outside the match's lock)."""


COMPUTER_MOVE_ID = "bot:"
"""Prefix of the move ids of computer players' moves (the server's alone)."""


def stand_ins_of(stored: dict[str, Any] | None) -> dict[int, str]:
    """seat -> level from the matches.stand_ins column."""
    return {int(seat): str(entry["level"]) for seat, entry in (stored or {}).items()}


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def epoch_ms(moment: datetime) -> int:
    """A stored time in epoch milliseconds (exact: no float rounding)."""
    return (as_utc(moment) - _EPOCH) // timedelta(milliseconds=1)


def from_epoch_ms(ms: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=ms)


MAX_LIVE = 1000
"""Matches kept in memory by default (the server passes its `live_matches` setting); beyond
that the least recently used idle one is dropped (it is reloaded from the database, moves
replayed, if anyone needs it again). Without a bound every match ever played since the start
stayed cached: memory grew, and so did the collector's work per move. The bound must exceed
the matches being played at once, or every move of a match that fell out reloads it."""


PLAYED_ON = 8
"""Versions a match makes without waiting before its compact frames number values again. A
dictionary begun afresh costs more than it saves for a few moves (its first frame: 1,179 B
and 194 us against 818 B and 120 us inline, C64 Maze in-process); at a person's pace (5 s on
average) 40% of moves come within the 2 to 3 s that count as waiting, so numbering again
at the first of them cost 110 us a move more than full frames at 5,000 matches."""


IDLE_VIEWS = 2.0
"""Seconds without a move after which a match's cached views and all but two versions of its
history are dropped (see MatchRuntime._sweep_idle_views); the server takes its
`idle_views_seconds` setting."""


SWEEP_SLICE = 0.002
"""Seconds the sweep of idle views works before letting other tasks run. At 5,000 matches
moving every 5 s, a thousand matches fall idle each second, and dropping their views in one
go held the event loop for 27-48 ms: every move arriving meanwhile waited, and the backlog
took several times as long again to drain."""


class MatchRuntime:
    def __init__(
        self,
        engine: AsyncEngine,
        announce: Announce,
        *,
        max_live: int = MAX_LIVE,
        idle_views: float = IDLE_VIEWS,
        on_turn: Callable[[LiveMatch], None] | None = None,
    ) -> None:
        self._engine = engine
        self._announce = announce
        self.on_turn = on_turn
        """Called with a match after this process made or loaded a version: the computer
        players' driver looks whether one of them is to move."""
        self.after_move: list[AfterMove] = []
        """Called, in order, after this process accepted a move (persisted and announced):
        with the match, the seat that moved, the states before and after it and the outcome
        it reached. Their errors are
        logged, never raised into the move's path (the push notifier is one)."""
        self.owns_clock: Callable[[str], bool] = lambda _match_id: True
        """Whether this process arms the decision clock of a match: with several processes,
        only the match's keeper (app/services/keepers.py) does; alone, this one always."""
        self.clocks_fired = 0
        """Decision clocks that ran out here and were answered (or tried to be) for the late
        seats: the keepers' tests read it to tell which process fired."""
        self._writer = MoveWriter(engine)
        self._max_live = max_live
        self._idle_views = idle_views
        self._live: OrderedDict[str, LiveMatch] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        self._clocks: dict[str, asyncio.TimerHandle] = {}
        self._late_answers: set[asyncio.Task[None]] = set()
        self._view_sweeper: asyncio.Task[None] | None = None

    async def close(self) -> None:
        for handle in self._clocks.values():
            handle.cancel()
        self._clocks.clear()
        for task in list(self._late_answers):
            task.cancel()
        if self._view_sweeper is not None:
            self._view_sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._view_sweeper
        await self._writer.close()

    # --- the decision clock ---------------------------------------------------------------
    def arm_clock(self, live: LiveMatch) -> None:
        """Arms the decision clock of the match's current version, if it has one and this
        process owns the match's clocks (its deadline was set when the version was made:
        `LiveMatch.start_clock`). Any clock armed before for the match is stopped."""
        self.disarm(live.id)
        if live.status != "active":
            return
        deadline = live.deadlines.get(live.version)
        if deadline is None or not self.owns_clock(live.id):
            return
        delay = max(0.0, deadline / 1000 - time.time())
        self._clocks[live.id] = asyncio.get_running_loop().call_later(
            delay, self._time_is_up, live.id, live.version
        )

    def disarm(self, match_id: str) -> None:
        """Stops the match's decision clock in this process (another owns it now, or it ended)."""
        handle = self._clocks.pop(match_id, None)
        if handle is not None:
            handle.cancel()

    def _time_is_up(self, match_id: str, version: int) -> None:
        task = asyncio.create_task(self._answer_for_late_seats(match_id, version))
        self._late_answers.add(task)
        task.add_done_callback(self._late_answers.discard)

    async def _answer_for_late_seats(self, match_id: str, version: int) -> None:
        """One late seat answered by the server; the version that makes arms the clock again
        for the seats still to answer."""
        live = self._live.get(match_id)
        if live is None or live.version != version or live.status != "active":
            return
        self.clocks_fired += 1
        for seat in sorted(live.game.active_seats(live.state)):
            move = live.game.timeout_move(live.state, seat)
            if move is None:
                continue
            with contextlib.suppress(ArcadeError):  # an answer that arrived just in time wins
                await self._submit_as(live, seat, move, client_id=None, version=version, exact=True)
            return

    async def end(self, match_id: str) -> None:
        """A match its players ended: no more moves here, and its clock stops. Taken under the
        match's lock, so a move being applied in this process finishes first."""
        live = self._live.get(match_id)
        if live is None:
            return
        async with live.lock:
            live.end()
        self.disarm(match_id)

    def cached_match(self, match_id: str) -> LiveMatch | None:
        """The match if this process holds it now (never loads it)."""
        return self._live.get(match_id)

    def forget(self, match_id: str) -> None:
        self._live.pop(match_id, None)

    def cached(self) -> int:
        return len(self._live)

    async def _sweep_idle_views(self) -> None:
        """Every second: the cached views of matches with no move for `idle_views` seconds go.
        At a person's pace a match waits seconds between moves, and its views (a C64 Maze
        mover's legal moves alone are 40 KiB of objects) would otherwise stay for all that
        time in every one of thousands of matches; in a fast match they are always in use."""
        while True:
            await asyncio.sleep(1.0)
            await self.forget_idle_views(idle_since=time.monotonic() - self._idle_views)

    async def forget_idle_views(
        self, *, idle_since: float, slice_seconds: float = SWEEP_SLICE
    ) -> int:
        """Drops the views of every match with no move since `idle_since` (monotonic time),
        letting other tasks run after each `slice_seconds` of it; returns how many."""
        forgotten = 0
        slice_ends = time.perf_counter() + slice_seconds
        for live in list(self._live.values()):  # the cache may change while this waits
            # Read at its turn, not before the sweep: a match that moved meanwhile is kept.
            if live.moved_at < idle_since and live._views and not live.lock.locked():
                live.forget_views()
                forgotten += 1
                if time.perf_counter() >= slice_ends:
                    await asyncio.sleep(0)
                    slice_ends = time.perf_counter() + slice_seconds
        return forgotten

    async def get(self, match_id: str) -> LiveMatch | None:
        """The live match (active or finished), loaded from the database on first use."""
        if self._view_sweeper is None:
            self._view_sweeper = asyncio.create_task(self._sweep_idle_views())
        live = self._live.get(match_id)
        if live is not None:
            self._live.move_to_end(match_id)
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        try:
            async with lock:
                live = self._live.get(match_id)
                if live is None:
                    live = await self._load(match_id)
                    if live is not None:
                        self._live[match_id] = live
                        self._evict()
        finally:
            if not lock.locked() and self._loading.get(match_id) is lock:
                del self._loading[match_id]
        return live

    def _evict(self) -> None:
        """Drop least recently used matches beyond the bound, never one that is busy (a move
        in flight) or waiting on its decision clock."""
        while len(self._live) > self._max_live:
            for match_id, live in self._live.items():
                if not live.lock.locked() and match_id not in self._clocks:
                    del self._live[match_id]
                    break
            else:
                return

    async def _load(self, match_id: str) -> LiveMatch | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(Match).where(Match.id == match_id))).first()
            if row is None or row.status == "open" or row.started_at is None:
                return None
            game = get_game(row.game)
            if game is None:
                raise ArcadeError("not_found", f"This server does not know the game {row.game!r}.")
            players = [p for p in row.seats if p is not None]
            names_rows = (
                await conn.execute(
                    select(Player.id, Player.name, Player.bot_level).where(Player.id.in_(players))
                )
            ).all()
            names_by_id = {r.id: r.name for r in names_rows}
            levels_by_id = {r.id: r.bot_level for r in names_rows if r.bot_level}
            moves = (
                await conn.execute(
                    select(Move.seq, Move.seat, Move.move, Move.client_id, Move.created_at)
                    .where(Move.match_id == match_id)
                    .order_by(Move.seq)
                )
            ).all()
        options = game.parse_options(row.options)
        seed = dice_seed(row.seed, row.nonces or [])
        state = game.begin(len(players), options, Dice(seed, SETUP_MOVE_NUMBER), row.rules_version)
        live = LiveMatch(
            id=match_id,
            game=game,
            options=options,
            seed=seed,
            players=players,
            names=[names_by_id.get(p, "?") for p in players],
            state=state,
            version=0,
            status="active",
            outcome=None,
            bots={i: levels_by_id[p] for i, p in enumerate(players) if p in levels_by_id},
            stand_ins=stand_ins_of(row.stand_ins),
            turn_timer=row.turn_timer,
            script=script_of(game, row.tutorial),
        )
        live.remember(0, state, [])
        live.reach(0, epoch_ms(row.started_at))
        for move in moves:
            self._advance(
                live,
                move.seat,
                move.move,
                client_id=move.client_id,
                at_ms=epoch_ms(move.created_at),
            )
        if row.status == "abandoned":
            live.end()
        elif row.status == "finished" and live.outcome is None and row.outcome:
            live.claim(Outcome.from_json(row.outcome))
        # The clocks began when their position was reached (or the match started), not now.
        self.arm_clock(live)
        if self.on_turn is not None:
            self.on_turn(live)
        return live

    def _advance(
        self,
        live: LiveMatch,
        seat: int,
        move: dict[str, Any],
        *,
        client_id: str | None,
        at_ms: int,
    ) -> list[Event]:
        seq = live.version + 1
        state, events = live.game.apply(live.state, seat, move, Dice(live.seed, seq))
        live.state, live.version = state, seq
        live.outcome = live.game.outcome(state)
        live.status = "finished" if live.outcome is not None else "active"
        live.remember(seq, state, events)
        live.reach(seq, at_ms)
        if client_id is not None:
            live.answers[client_id] = seq
            while len(live.answers) > ANSWERS:
                live.answers.popitem(last=False)
        return events

    async def catch_up(self, live: LiveMatch) -> None:
        """Apply moves that another process committed (multi-process deployments)."""
        async with self._engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(Move.seat, Move.move, Move.client_id, Move.created_at)
                    .where(Move.match_id == live.id, Move.seq > live.version)
                    .order_by(Move.seq)
                )
            ).all()
        for row in rows:
            self._advance(
                live,
                row.seat,
                row.move,
                client_id=row.client_id,
                at_ms=epoch_ms(row.created_at),
            )
        if rows:
            self.arm_clock(live)

    async def ensure_version(
        self, live: LiveMatch, version: int, accepted: dict[str, Any] | None = None
    ) -> None:
        """Bring a cached match up to `version`: from the notice itself when it is the next
        move, else from the database."""
        if live.version < version:
            async with live.lock:
                if live.version == version - 1 and accepted is not None and "move" in accepted:
                    at = accepted.get("at")
                    self._advance(
                        live,
                        accepted["seat"],
                        accepted["move"],
                        client_id=accepted.get("client_id"),
                        at_ms=at if isinstance(at, int) else int(time.time() * 1000),
                    )
                    self.arm_clock(live)
                elif live.version < version:
                    await self.catch_up(live)
                else:
                    return  # made here meanwhile: its maker told on_turn
            if self.on_turn is not None:
                self.on_turn(live)

    async def submit(
        self,
        match_id: str,
        *,
        player_id: str | None,
        raw_move: Any,
        client_id: str | None = None,
        version: int | None = None,
    ) -> int:
        """Validate, apply, persist and announce one move; returns the match's new version."""
        live = await self.get(match_id)
        if live is None:
            raise ArcadeError("match_not_active", "This match has not started yet.")
        seat = live.seat_of(player_id)
        if seat is None:
            raise ArcadeError("forbidden", "Only seated players can move; you are watching.")
        if client_id is not None and len(client_id) > 64:
            raise ArcadeError("bad_request", "A move id may have at most 64 characters.")
        if client_id is not None and client_id.startswith(COMPUTER_MOVE_ID):
            raise ArcadeError(
                "bad_request", f"Move ids starting {COMPUTER_MOVE_ID!r} are the server's own."
            )
        if seat in live.stand_ins:
            # She is back and moving: the computer stops at once (the socket's hello usually
            # said so first; a move over REST says it too).
            raise ArcadeError(
                "not_your_turn",
                "A computer is playing for you while you were away; reopen the match to take "
                "your seat back.",
            )
        return await self._submit_as(live, seat, raw_move, client_id=client_id, version=version)

    async def submit_for_computer(
        self, match_id: str, seat: int, move: dict[str, Any], version: int
    ) -> int | None:
        """A computer player's move for `seat`, chosen at `version`: the ordinary path, under
        an id made of the version and seat, so that two processes that both chose for the
        same position commit it once. None when the match moved on or the seat is a person's
        again (the choice is simply dropped)."""
        live = self._live.get(match_id)
        if live is None or live.version != version or seat not in live.computers():
            return None
        try:
            return await self._submit_as(
                live,
                seat,
                move,
                client_id=f"{COMPUTER_MOVE_ID}{version}:{seat}",
                version=version,
                by_computer=True,
                exact=True,
            )
        except ArcadeError:
            return None

    def set_stand_ins(self, match_id: str, stand_ins: dict[int, str]) -> None:
        live = self._live.get(match_id)
        if live is None:
            return
        live.stand_ins = dict(stand_ins)
        if self.on_turn is not None:
            self.on_turn(live)

    async def claim(self, match_id: str, outcome: Outcome) -> None:
        live = self._live.get(match_id)
        if live is None:
            return
        async with live.lock:
            live.claim(outcome)
        self.disarm(match_id)

    async def _submit_as(
        self,
        live: LiveMatch,
        seat: int,
        raw_move: Any,
        *,
        client_id: str | None,
        version: int | None,
        by_computer: bool = False,
        exact: bool = False,
    ) -> int:
        """`exact`: the move answers `version` and no other (a clock that ran out, a
        computer's choice): if another process made that version first, it is dropped."""
        match_id = live.id
        async with live.lock:
            for _attempt in range(5):
                if client_id is not None and client_id in live.answers:
                    return live.answers[client_id]
                try:
                    move, events = self._validate(live, seat, raw_move, version)
                except ArcadeError:
                    earlier = await self._forgotten_answer(live, client_id)
                    if earlier is not None:
                        return earlier
                    raise
                if exact and live.version != version:
                    raise ArcadeError("stale_version", "The match moved on since.")
                seq = live.version + 1
                before = live.state
                state, events = live.game.apply(live.state, seat, move, Dice(live.seed, seq))
                outcome = live.game.outcome(state)
                at_ms = int(time.time() * 1000)
                committed = self._writer.enqueue(
                    self._move_row(live, seq, seat, move, events, client_id, by_computer, at_ms),
                    outcome,
                )
                # While the database flushes the move to disk (most of a move's time when the
                # server is not busy) its frames are made, so that they go out as soon as it
                # is durable.
                ahead = outcome is None and await self._build_ahead(live, seq, state, events, at_ms)
                persisted = False
                try:
                    persisted = await committed
                finally:
                    # Refused, or cancelled while waiting: this process does not hold it.
                    if ahead and not persisted:
                        live.forget_version(seq)
                if not persisted:
                    # Either another process took this version, or this id was used before
                    # (a resend of a move accepted long ago that happens to be legal again).
                    earlier = await self._forgotten_answer(live, client_id)
                    if earlier is not None:
                        return earlier
                if persisted:
                    live.state, live.version, live.outcome = state, seq, outcome
                    live.status = "finished" if outcome is not None else "active"
                    if not ahead:
                        live.remember(seq, state, events)
                        live.reach(seq, at_ms)
                    if client_id is not None:
                        live.answers[client_id] = seq
                        while len(live.answers) > ANSWERS:
                            live.answers.popitem(last=False)
                    self.arm_clock(live)
                    break
                await self.catch_up(live)  # another process won this version: revalidate
            else:
                raise ArcadeError("stale_version", "The match moved on; please try again.")
        await self._announce(
            match_id, seq, {"seat": seat, "move": move, "client_id": client_id, "at": at_ms}
        )
        if self.on_turn is not None:
            self.on_turn(live)
        for callback in self.after_move:
            try:
                callback(live, seat, before, state, outcome)
            except Exception:
                log.exception("an after-move callback failed for match %s", match_id)
        return seq

    @staticmethod
    async def _build_ahead(
        live: LiveMatch, seq: int, state: State, events: list[Event], at_ms: int
    ) -> bool:
        """Remembers version `seq` and builds every seat's patch to it while its commit is in
        flight; True if it did (the caller takes it back with `forget_version` if the commit
        fails). The caller does not build a move that ends the match ahead: its status changes
        with the commit, and the views depend on it."""
        try:
            await asyncio.sleep(0)  # the writer's turn first: the statement goes out
            live.remember(seq, state, events)
            live.reach(seq, at_ms)
            for seat in range(len(live.players)):
                live.patch(seq, seat)
        except Exception:  # built after the commit instead, where it fails as it always did
            live.forget_version(seq)
            log.exception("match %s: building version %d ahead of its commit failed", live.id, seq)
            return False
        except BaseException:  # cancelled
            live.forget_version(seq)
            raise
        return True

    async def _forgotten_answer(self, live: LiveMatch, client_id: str | None) -> int | None:
        """The version a move id got earlier in this match, if it is older than the ids kept
        in memory (see ANSWERS)."""
        if client_id is None or live.version <= len(live.answers):
            return None  # every accepted id of this match is still in memory
        async with self._engine.connect() as conn:
            seq = await conn.scalar(
                select(Move.seq).where(Move.match_id == live.id, Move.client_id == client_id)
            )
        return int(seq) if seq is not None else None

    def _validate(
        self, live: LiveMatch, seat: int, raw_move: Any, version: int | None
    ) -> tuple[dict[str, Any], list[Event]]:
        game = live.game
        if live.status == "abandoned":
            raise ArcadeError(
                "match_not_active", "This match was ended by a player; no more moves."
            )
        if live.status != "active":
            raise ArcadeError("match_not_active", "This match is over; no more moves.")
        move = self._listed_move(live, seat, raw_move)
        if move is None:
            try:
                move = game.parse_move(raw_move)
            except BadMove as exc:
                raise ArcadeError("bad_request", exc.reason) from None
        scripted = live.scripted()
        if scripted is not None and (seat != scripted.seat or move != scripted.move):
            # A lesson: the step's hint says what to do instead; nothing changes.
            raise ArcadeError("off_script", scripted.hint)
        stale = version is not None and version < live.version
        if version is not None and version > live.version:
            raise ArcadeError("bad_request", "That version is in the future; send sync.")
        # A move the seat may make whoever is to move (a discard): it never waited for a
        # turn, so a stamp that others' moves made stale does not matter while it is still
        # allowed now and was then.
        out_of_turn = move in game.out_of_turn_moves(live.state, seat)
        if (
            stale
            and not self._was_active(live, seat, version)
            and not (out_of_turn and self._was_out_of_turn(live, seat, version, move))
        ):
            # The move was chosen while it was not this seat's turn (or so long ago that it
            # cannot be told): it answers a position the player never had to decide.
            raise ArcadeError(
                "stale_version",
                "That move was sent before it was your turn; look at the board and try again.",
            )
        if seat not in game.active_seats(live.state):
            if out_of_turn:
                return move, []
            if stale:
                raise ArcadeError("stale_version", "The match moved on since you last looked.")
            if not game.out_of_turn_moves(live.state, seat):
                raise ArcadeError("not_your_turn", "It is not your turn.")
            # The seat may move out of turn, only not this: the rules say why.
            self._refuse(live, seat, move)
        if move not in live.legal(live.version, seat) and not out_of_turn:
            if stale:
                raise ArcadeError("stale_version", "That move was for an earlier position.")
            self._refuse(live, seat, move)
        return move, []

    @staticmethod
    def _listed_move(live: LiveMatch, seat: int, raw_move: Any) -> dict[str, Any] | None:
        """The seat's legal move that `raw_move` is, sent exactly as listed (the same JSON
        text), else None. Such a move is what the schema check would give back unchanged:
        legal moves are in canonical form (tests/engine/test_conformance.py checks it), and
        a client picks its moves from the list it was sent. The schema check cost more than
        the rest of the validation put together."""
        if seat not in live.game.active_seats(live.state):
            return None
        legal = live.legal(live.version, seat)
        try:
            listed = legal[legal.index(raw_move)]  # == first: C, and 1 == 1.0 == True...
        except ValueError:
            return None
        # ...so the text decides: a move that only compares equal takes the schema's path.
        return listed if orjson.dumps(listed) == orjson.dumps(raw_move) else None

    @staticmethod
    def _refuse(live: LiveMatch, seat: int, move: dict[str, Any]) -> NoReturn:
        try:
            live.game.apply(live.state, seat, move, Dice(live.seed, live.version + 1))
        except IllegalMove as exc:
            raise ArcadeError("illegal_move", exc.reason) from None
        raise ArcadeError("illegal_move", "That move is not allowed now.")

    @staticmethod
    def _was_active(live: LiveMatch, seat: int, version: int | None) -> bool:
        if version is None or version < 0 or not live.has(version):
            return False
        return seat in live.game.active_seats(live.history[version][0])

    @staticmethod
    def _was_out_of_turn(
        live: LiveMatch, seat: int, version: int | None, move: dict[str, Any]
    ) -> bool:
        if version is None or version < 0 or not live.has(version):
            return False
        return move in live.game.out_of_turn_moves(live.history[version][0], seat)

    @staticmethod
    def _move_row(
        live: LiveMatch,
        seq: int,
        seat: int,
        move: dict[str, Any],
        events: list[Event],
        client_id: str | None,
        by_computer: bool,
        at_ms: int,
    ) -> dict[str, Any]:
        return {
            "match_id": live.id,
            "seq": seq,
            "seat": seat,
            "move": move,
            "events": events,
            "client_id": client_id,
            "bot": by_computer,
            # The version's time, which its clocks start from (LiveMatch.reach), to the
            # millisecond the process that made it used.
            "created_at": from_epoch_ms(at_ms),
        }


# PostgreSQL: a whole batch is one statement however many moves it holds (arrays unnested,
# the insert feeding the version bump), so it commits on its own in one round trip. Per-row
# executemany inside BEGIN/COMMIT cost more CPU than the rules and the diff together. A
# batch never holds two moves of one match, so the join below is one to one.
_PG_COMMIT_BATCH = """
WITH new_moves AS (
    INSERT INTO moves (match_id, seq, seat, move, events, client_id, bot, created_at)
    SELECT m, s, st, mv::json, ev::json, c, b, at
    FROM unnest($1::varchar[], $2::int[], $3::int[], $4::text[], $5::text[], $6::varchar[],
                $9::bool[], $10::timestamptz[])
        AS t(m, s, st, mv, ev, c, b, at)
    RETURNING match_id, seq
), outcomes AS (
    SELECT id, outcome FROM unnest($1::varchar[], $7::text[]) AS o(id, outcome)
)
UPDATE matches SET
    version = n.seq,
    status = CASE WHEN o.outcome IS NULL THEN matches.status ELSE 'finished' END,
    outcome = CASE WHEN o.outcome IS NULL THEN matches.outcome ELSE o.outcome::json END,
    finished_at = CASE WHEN o.outcome IS NULL THEN matches.finished_at ELSE $8 END
FROM new_moves AS n JOIN outcomes AS o ON o.id = n.match_id
WHERE matches.id = n.match_id
"""
_CONFLICTS = (IntegrityError, asyncpg.exceptions.IntegrityConstraintViolationError)


class MoveWriter:
    """Group commit: moves of different matches that arrive together share one transaction.

    Each match has at most one move in flight (its lock), so a batch never holds two moves of
    one match. The primary key (match_id, seq) still decides races with other processes: if
    a batch hits a conflict it is rolled back and its moves are retried one by one, so only
    the move that lost the race is refused.
    """

    MAX_BATCH = 200

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._pending: list[tuple[dict[str, Any], Outcome | None, asyncio.Future[bool]]] = []
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._pg: asyncpg.Connection | None = None
        """PostgreSQL: the writer's own connection, outside the engine's pool (checking one out
        of the pool for every batch cost more than the statement's own client CPU)."""

    def enqueue(self, row: dict[str, Any], outcome: Outcome | None) -> asyncio.Future[bool]:
        """The move goes into the next batch; the future says whether it was committed (False:
        another process made that version first). The batch is sent at the writer's next turn
        on the event loop."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append((row, outcome, future))
        self._wakeup.set()
        return future

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._drop_connection()

    async def _drop_connection(self) -> None:
        pg, self._pg = self._pg, None
        if pg is not None:
            with contextlib.suppress(Exception):
                await pg.close(timeout=5)

    async def _run(self) -> None:
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            while self._pending:
                batch = self._pending[: self.MAX_BATCH]
                del self._pending[: len(batch)]
                try:
                    await self._commit(batch)
                    results = [True] * len(batch)
                except _CONFLICTS:
                    results = [await self._commit_alone(item) for item in batch]
                except Exception as exc:  # the database is down: every waiter hears it
                    for _row, _outcome, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_row, _outcome, future), ok in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(ok)

    async def _commit_alone(self, item: tuple[dict[str, Any], Outcome | None, Any]) -> bool:
        try:
            await self._commit([item])
        except _CONFLICTS:
            return False
        return True

    async def _commit(self, batch: list[tuple[dict[str, Any], Outcome | None, Any]]) -> None:
        if self._engine.dialect.name == "postgresql":
            await self._commit_postgres(batch)
            return
        now = datetime.now(UTC)
        async with self._engine.begin() as conn:
            await conn.execute(insert(Move), [row for row, _outcome, _future in batch])
            running = [
                {"match": row["match_id"], "seq": row["seq"]}
                for row, outcome, _f in batch
                if outcome is None
            ]
            if running:
                await conn.execute(
                    update(Match)
                    .where(Match.id == bindparam("match"))
                    .values(version=bindparam("seq"))
                    .execution_options(synchronize_session=False),
                    running,
                )
            for row, outcome, _future in batch:
                if outcome is not None:
                    await conn.execute(
                        update(Match)
                        .where(Match.id == row["match_id"])
                        .values(
                            version=row["seq"],
                            status="finished",
                            outcome=outcome.to_json(),
                            finished_at=now,
                        )
                    )

    async def _commit_postgres(
        self, batch: list[tuple[dict[str, Any], Outcome | None, Any]]
    ) -> None:
        rows = [row for row, _outcome, _future in batch]
        outcomes = [None if o is None else json_text(o.to_json()) for _r, o, _f in batch]
        if self._pg is None or self._pg.is_closed():
            url = self._engine.url.set(drivername="postgresql")
            self._pg = await asyncpg.connect(url.render_as_string(hide_password=False))
        try:
            await self._pg.execute(
                _PG_COMMIT_BATCH,
                [r["match_id"] for r in rows],
                [r["seq"] for r in rows],
                [r["seat"] for r in rows],
                [json_text(r["move"]) for r in rows],
                [json_text(r["events"]) for r in rows],
                [r["client_id"] for r in rows],
                outcomes,
                datetime.now(UTC),
                [r["bot"] for r in rows],
                [r["created_at"] for r in rows],
            )
        except _CONFLICTS:
            raise  # the statement failed on its own: the connection is still good
        except BaseException:
            await self._drop_connection()  # broken or cancelled mid-statement: a new one next
            raise
