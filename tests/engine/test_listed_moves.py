"""A move sent exactly as the seat's legal-move list has it skips the schema check
(MatchRuntime._listed_move); anything else takes the schema's path and gets its answer, so the
shortcut changes no outcome: same move applied, same move stored, same refusals."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from sqlalchemy import select

from app.db.migrate import upgrade_to_head
from app.db.models import Move
from app.db.session import make_engine, make_sessionmaker
from app.engine.contract import BadMove
from app.engine.dice import Dice
from app.engine.runtime import LiveMatch, MatchRuntime
from app.errors import ArcadeError
from app.games.c64.maze import Maze
from tests.helpers import started_match_in_db


async def _quiet(*_args: Any) -> None:
    return None


def _reordered(move: dict[str, Any]) -> dict[str, Any]:
    """The same move with its keys (and its cards' keys) in the opposite order."""
    out: dict[str, Any] = {}
    for key in reversed(list(move)):
        value = move[key]
        if isinstance(value, list):
            value = [
                {k: v[k] for k in reversed(list(v))} if isinstance(v, dict) else v for v in value
            ]
        out[key] = value
    return out


def _with_bool_for_one(move: dict[str, Any]) -> dict[str, Any] | None:
    """The move with a card id 1 (or 0) written as true (false): equal in Python, not in
    JSON. None when the move has no such card."""
    bent = copy.deepcopy(move)
    for card in bent.get("cards", []):
        if card["card"] in (0, 1):
            card["card"] = bool(card["card"])
            return bent
    return None


async def _started(database_url: str) -> tuple[Any, MatchRuntime, str, list[str]]:
    await asyncio.to_thread(upgrade_to_head, database_url)
    engine = make_engine(database_url)
    runtime = MatchRuntime(engine, _quiet)
    async with make_sessionmaker(engine)() as session:
        match_id, players = await started_match_in_db(session)
    return engine, runtime, match_id, players


async def _stored(engine: Any, match_id: str) -> list[dict[str, Any]]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(Move.move).where(Move.match_id == match_id).order_by(Move.seq)
        )
        return [row.move for row in rows]


def test_only_a_move_with_the_listed_json_text_is_taken_as_listed() -> None:
    live = LiveMatch.in_memory(Maze(), "5eed" * 16, 2)
    legal = live.legal(0, 0)
    sent = copy.deepcopy(legal[5])  # as it arrives: parsed from the client's text
    assert MatchRuntime._listed_move(live, 0, sent) is legal[5]
    assert MatchRuntime._listed_move(live, 0, _reordered(sent)) is None
    bent = next(b for b in map(_with_bool_for_one, legal) if b is not None)
    assert bent in legal  # equal in Python...
    assert MatchRuntime._listed_move(live, 0, bent) is None  # ...but not the listed text
    assert MatchRuntime._listed_move(live, 0, {"type": "take"}) is None
    assert MatchRuntime._listed_move(live, 0, ["not", "a", "move"]) is None


@pytest.mark.parametrize("form", ["as listed", "keys reordered", "true for 1"])
async def test_a_move_gets_the_same_answer_whatever_path_it_takes(
    database_url: str, form: str
) -> None:
    engine, runtime, match_id, players = await _started(database_url)
    try:
        live = await runtime.get(match_id)
        assert live is not None
        legal = live.legal(live.version, 0)
        if form == "as listed":
            move, raw = legal[3], copy.deepcopy(legal[3])
        elif form == "keys reordered":
            move, raw = legal[3], _reordered(legal[3])
        else:
            move = next(m for m in legal if _with_bool_for_one(m) is not None)
            raw = _with_bool_for_one(move)
        try:
            expected: dict[str, Any] | None = live.game.parse_move(raw)
        except BadMove:
            expected = None
        if expected is None:  # the schema refuses it: so does the runtime, changing nothing
            with pytest.raises(ArcadeError) as refused:
                await runtime.submit(match_id, player_id=players[0], raw_move=raw)
            assert refused.value.code == "bad_request"
            assert live.version == 0 and await _stored(engine, match_id) == []
        else:
            assert expected == move
            assert await runtime.submit(match_id, player_id=players[0], raw_move=raw) == 1
            assert await _stored(engine, match_id) == [move]
            before = live.history[0][0]
            assert live.history[1][0] == live.game.apply(before, 0, move, Dice(live.seed, 1))[0]
    finally:
        await runtime.close()
        await engine.dispose()
