"""Moves a seat may make although it is not to move (`Game.out_of_turn_moves`): Joystick
Heroes' discards at any time of a PLAY phase, ruling H13a (amended 2026-11-24). The runtime
accepts them from any seat and offers them in that seat's view, while the table goes on
waiting only for the seat to move: `active_seats` and the clock do not change."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.db.migrate import upgrade_to_head
from app.db.session import make_engine, make_sessionmaker
from app.engine.registry import all_games
from app.engine.runtime import LiveMatch, MatchRuntime
from app.errors import ArcadeError
from app.games.joystick_heroes.content import kind_of
from tests.helpers import started_match_in_db


async def _quiet(*_args: Any) -> None:
    return None


async def _joystick_heroes(database_url: str) -> tuple[MatchRuntime, LiveMatch, list[str]]:
    """A two-seat Joystick Heroes match whose heroes have picked their genres: PLAY phase."""
    await asyncio.to_thread(upgrade_to_head, database_url)
    runtime = MatchRuntime(make_engine(database_url), _quiet)
    async with make_sessionmaker(runtime._engine)() as session:
        match_id, players = await started_match_in_db(session, "joystick-heroes")
    live = await runtime.get(match_id)
    assert live is not None
    for seat, player in enumerate(players):
        move = {"type": "choose_genres", "genres": ["classic", "scifi"]}
        await runtime.submit(match_id, player_id=player, raw_move=move)
        assert live.version == seat + 1
    assert live.state["phase"] == "play"
    return runtime, live, players


async def _close(runtime: MatchRuntime) -> None:
    await runtime.close()
    await runtime._engine.dispose()


async def test_a_seat_not_to_move_discards_and_the_table_does_not_wait_for_it(
    database_url: str,
) -> None:
    runtime, live, players = await _joystick_heroes(database_url)
    try:
        (mover,) = live.game.active_seats(live.state)
        idle = 1 - mover
        hand = list(live.state["players"][idle]["hand"])
        assert hand, "every hero starts with 3 Power cards"
        view = live.viewer_state(live.version, idle)
        # Offered in her view, but only the hero to move is named as moving.
        assert view["legal_moves"] == [{"type": "discard", "card": c} for c in hand]
        assert view["active_seats"] == [mover] and view["deadline"] is None

        before = live.version
        await runtime.submit(
            live.id,
            player_id=players[idle],
            raw_move={"type": "discard", "card": hand[0]},
            client_id="idle-discard",
        )
        assert live.version == before + 1
        assert live.state["players"][idle]["hand"] == hand[1:]
        assert hand[0] in live.state["power_discard"]
        after = live.viewer_state(live.version, mover)
        assert after["active_seats"] == [mover] and after["deadline"] is None
        assert live.id not in runtime._clocks  # no clock started for a discard
        assert live.state["turn"]["seat"] == mover and live.state["turn"]["step"] == "start"

        # The hero to move moves on; a discard stamped with the version before it still counts.
        stamp = live.version
        spot = live.game.legal_moves(live.state, mover)[0]
        assert spot["type"] == "move_to"
        await runtime.submit(live.id, player_id=players[mover], raw_move=spot)
        await runtime.submit(
            live.id,
            player_id=players[idle],
            raw_move={"type": "discard", "card": hand[1]},
            version=stamp,
        )
        assert live.state["players"][idle]["hand"] == hand[2:]
    finally:
        await _close(runtime)


async def test_an_illegal_discard_out_of_turn_changes_nothing(database_url: str) -> None:
    runtime, live, players = await _joystick_heroes(database_url)
    try:
        (mover,) = live.game.active_seats(live.state)
        idle = 1 - mover
        before, state = live.version, live.game.copy_state(live.state)
        not_hers = live.state["players"][mover]["hand"][0]
        with pytest.raises(ArcadeError) as refused:
            await runtime.submit(
                live.id, player_id=players[idle], raw_move={"type": "discard", "card": not_hers}
            )
        assert refused.value.code == "illegal_move"
        assert "not in your hand" in str(refused.value)
        # Any other move is still the mover's alone.
        spot = live.game.legal_moves(live.state, mover)[0]
        with pytest.raises(ArcadeError) as early:
            await runtime.submit(live.id, player_id=players[idle], raw_move=spot)
        assert early.value.code == "illegal_move"
        assert live.version == before and live.state == state
    finally:
        await _close(runtime)


async def test_no_discard_outside_a_play_phase(database_url: str) -> None:
    """Set-up is no PLAY phase: a hero still picking genres cannot discard (H13a)."""
    await asyncio.to_thread(upgrade_to_head, database_url)
    runtime = MatchRuntime(make_engine(database_url), _quiet)
    try:
        async with make_sessionmaker(runtime._engine)() as session:
            match_id, players = await started_match_in_db(session, "joystick-heroes")
        live = await runtime.get(match_id)
        assert live is not None
        card = live.state["players"][1]["hand"][0]
        assert live.viewer_state(0, 1)["legal_moves"][0]["type"] == "choose_genres"
        await runtime.submit(
            match_id,
            player_id=players[0],
            raw_move={"type": "choose_genres", "genres": ["classic", "scifi"]},
        )
        assert live.viewer_state(1, 0)["legal_moves"] == []  # done choosing, nothing offered
        with pytest.raises(ArcadeError) as refused:
            await runtime.submit(
                match_id, player_id=players[1], raw_move={"type": "discard", "card": card}
            )
        assert refused.value.code == "illegal_move"
        assert live.version == 1 and card in live.state["players"][1]["hand"]
    finally:
        await _close(runtime)


def test_no_other_game_has_out_of_turn_moves_at_the_start() -> None:
    """The hook's default keeps every other game as it was: nothing out of turn."""
    from app.engine.dice import Dice

    for game in all_games():
        if game.id == "joystick-heroes":
            continue
        state = game.setup(game.max_players, game.parse_options({}), Dice("x", 0))
        for seat in range(game.max_players):
            assert game.out_of_turn_moves(state, seat) == []


async def test_a_discard_while_a_question_waits_keeps_its_deadline(database_url: str) -> None:
    """The roller discards while the other hero is asked about Tilt!: the question, the
    seats it waits for and its deadline stay as they were (H13a: discards never make the
    table wait, nor buy anyone time)."""
    runtime, live, players = await _joystick_heroes(database_url)
    try:
        (mover,) = live.game.active_seats(live.state)
        other = 1 - mover
        spot = live.game.legal_moves(live.state, mover)[0]
        await runtime.submit(live.id, player_id=players[mover], raw_move=spot)
        if live.state["question"] is not None:  # a Versus card: the other hero says no
            no = {"type": "answer", "accept": False}
            await runtime.submit(live.id, player_id=players[other], raw_move=no)
        # Keep one card to discard later; the others go now, but never a Tilt! (with both
        # copies discarded nobody could be asked).
        hand = live.state["players"][mover]["hand"]
        for card in [c for c in hand if kind_of(c) != "tilt"][: len(hand) - 1]:
            await runtime.submit(
                live.id, player_id=players[mover], raw_move={"type": "discard", "card": card}
            )
        await runtime.submit(live.id, player_id=players[mover], raw_move={"type": "roll"})
        assert live.state["question"]["kind"] == "tilt"  # the other hero holds cards
        asked = live.viewer_state(live.version, mover)
        assert asked["active_seats"] == [other] and asked["deadline"] is not None
        card = live.state["players"][mover]["hand"][0]
        await runtime.submit(
            live.id, player_id=players[mover], raw_move={"type": "discard", "card": card}
        )
        after = live.viewer_state(live.version, mover)
        assert after["active_seats"] == [other]
        assert after["deadline"] == asked["deadline"]
        assert live.state["question"]["kind"] == "tilt"
    finally:
        await _close(runtime)
