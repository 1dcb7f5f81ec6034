"""One conformance suite for every registered game (OpenSpiel's random-simulation test).

Seeded random playouts to the end; determinism; no mutation of the input state; JSON views;
every legal move is canonical and applies; the log replays to the same state; an illegal
move changes nothing.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

import jsonpatch
import pytest

from app.engine.contract import Game, IllegalMove, Outcome
from app.engine.dice import Dice
from app.engine.registry import all_games
from app.engine.runtime import replay
from app.realtime.diff import make_patch
from app.services.replays import replay_frames
from tests.helpers import guided_move

GAMES = all_games()
SEEDS = range(3)
MAX_MOVES = 50_000  # a safety net; every playout below must end far sooner


@dataclass
class Playout:
    states: list[dict[str, Any]] = field(default_factory=list)
    log: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)


def seed_name(seed: int) -> str:
    return f"conformance-{seed}"


CAPPED_MOVES = 3_000  # playout length for games whose playouts may not end (see Game)


def play(game: Game, players: int, seed: int, *, checks: bool = True) -> Playout:
    chooser = random.Random(seed)
    options = game.parse_options({})
    state = game.setup(players, options, Dice(seed_name(seed), 0))
    out = Playout(states=[state])
    limit = MAX_MOVES if game.playouts_always_end or players <= 2 else CAPPED_MOVES
    for number in range(1, limit + 1):
        if game.outcome(state) is not None:
            return out
        active = sorted(game.active_seats(state))
        assert active, "a running game must have a seat to act"
        seat = chooser.choice(active)
        legal = game.legal_moves(state, seat)
        assert legal, f"active seat {seat} has no legal move"
        move = _playout_move(game, state, seat, legal, chooser, Dice(seed_name(seed), number))
        if checks:
            assert game.parse_move(move) == move, "legal moves must be in canonical form"
            for other in range(players):
                if other not in active:
                    # Only what it may do out of turn (a Joystick Heroes discard), or nothing.
                    assert game.legal_moves(state, other) == game.out_of_turn_moves(state, other)
        before = copy.deepcopy(state)
        new_state, events = game.apply(state, seat, move, Dice(seed_name(seed), number))
        assert state == before, "apply must not mutate its input"
        if checks:
            for viewer in [None, *range(players)]:
                before_view, after_view = game.view(state, viewer), game.view(new_state, viewer)
                patched = jsonpatch.apply_patch(before_view, make_patch(before_view, after_view))
                assert json.dumps(patched) == json.dumps(after_view), "patch must be exact"
                since = game.view_since(new_state, viewer, state, before_view)
                assert json.dumps(since) == json.dumps(after_view), "view_since must be view"
                assert json.dumps(before_view) == json.dumps(game.view(state, viewer))
            json.dumps(new_state)
            for event in events:
                assert isinstance(event.get("type"), str) and isinstance(event.get("text"), str)
                json.dumps(event)
        out.log.append((seat, move))
        out.events.append(events)
        out.states.append(new_state)
        state = new_state
    if limit == CAPPED_MOVES:
        return out
    pytest.fail(f"{game.id} did not finish within {MAX_MOVES} random moves")


def _playout_move(
    game: Game,
    state: dict[str, Any],
    seat: int,
    legal: list[dict[str, Any]],
    chooser: random.Random,
    dice: Dice,
) -> dict[str, Any]:
    """Nine moves in ten by one-step lookahead where the game gives a playout score."""
    return guided_move(game, state, seat, legal, chooser, dice, random_share=0.1)


def player_counts(game: Game) -> list[int]:
    return sorted({game.min_players, game.max_players})


CASES = [(g, n, s) for g in GAMES for n in player_counts(g) for s in SEEDS]


@pytest.mark.parametrize(
    ("game", "players", "seed"), CASES, ids=[f"{g.id}-{n}p-seed{s}" for g, n, s in CASES]
)
def test_random_playout_reaches_an_outcome(game: Game, players: int, seed: int) -> None:
    out = play(game, players, seed)
    outcome = game.outcome(out.states[-1])
    if outcome is None and not game.playouts_always_end and players > 2:
        assert len(out.log) == CAPPED_MOVES  # every check above held over the whole playout
        return
    assert outcome is not None
    assert all(0 <= w < players for w in outcome.winners)
    # What the matches table keeps reads back as the same outcome (a claim, a reload).
    assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_playouts_are_deterministic(game: Game) -> None:
    a = play(game, game.max_players, 11, checks=False)
    b = play(game, game.max_players, 11, checks=False)
    assert a.log == b.log
    assert a.states[-1] == b.states[-1]


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_replaying_the_log_reproduces_every_state(game: Game) -> None:
    out = play(game, game.min_players, 5, checks=False)
    final, events = replay(game, game.parse_options({}), game.min_players, seed_name(5), out.log)
    assert final == out.states[-1]
    assert events == out.events
    state = game.setup(game.min_players, game.parse_options({}), Dice(seed_name(5), 0))
    assert state == out.states[0]
    for number, (seat, move) in enumerate(out.log, start=1):
        state, _events = game.apply(state, seat, move, Dice(seed_name(5), number))
        assert state == out.states[number], f"state after move {number} differs"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_replay_frames_rebuild_every_revealed_view(game: Game) -> None:
    """The replay page's frames: patches from move 0 give every state's reveal-all view."""
    out = play(game, game.min_players, 6, checks=False)
    names = [f"P{i}" for i in range(game.min_players)]
    moves = [{"seat": seat, "move": move} for seat, move in out.log]
    frames = replay_frames(
        game, match_id="m", options={}, names=names, seed=seed_name(6), moves=moves, reveal=True
    )
    view = frames["initial"]
    assert view["board"] == game.reveal_view(out.states[0])
    for frame, state in zip(frames["frames"], out.states[1:], strict=True):
        view = jsonpatch.apply_patch(view, frame["ops"])
        assert view["board"] == game.reveal_view(state)
    assert frames["outcome"] == game.outcome(out.states[-1]).to_json()


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_no_seat_or_spectator_sees_another_seats_secrets(game: Game) -> None:
    if game.hidden_information:
        assert type(game).secret_values is not Game.secret_values, (
            "games with hidden information must say what is secret (secret_values)"
        )
    players = game.max_players
    out = play(game, players, 8, checks=False)
    for state, events in zip(out.states[1:], out.events, strict=True):
        for owner in range(players):
            secrets = [json.dumps(v) for v in game.secret_values(state, owner)]
            if not secrets:
                continue
            for viewer in [None, *range(players)]:
                if viewer == owner:
                    continue
                seen = json.dumps(game.view(state, viewer))
                seen += json.dumps([game.redact_event(e, viewer) for e in events])
                leaked = [s for s in secrets if s in seen]
                assert not leaked, f"seat {viewer} sees seat {owner}'s secret {leaked[0]}"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_illegal_moves_change_nothing(game: Game) -> None:
    """Moves that were legal somewhere in the game, tried where they are not."""
    out = play(game, game.max_players, 3, checks=False)
    pool = list({json.dumps(m, sort_keys=True): m for _seat, m in out.log}.values())
    chooser = random.Random(3)
    rng = Dice("illegal", 1)
    probed = 0
    for state in out.states[:: max(1, len(out.states) // 40)]:
        if game.outcome(state) is not None:
            continue
        active = game.active_seats(state)
        seat = sorted(active)[0]
        legal = game.legal_moves(state, seat)
        before = copy.deepcopy(state)
        idle = [s for s in range(game.max_players) if s not in active]
        if idle:  # a legal move, made by a seat that may not act now
            with pytest.raises(IllegalMove):
                game.apply(state, idle[0], legal[0], rng)
            assert state == before
        for move in chooser.sample(pool, min(8, len(pool))):
            if move in legal:
                continue
            with pytest.raises(IllegalMove):
                game.apply(state, seat, move, rng)
            assert state == before
            probed += 1
    assert probed > 0, "no illegal move was probed"


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_metadata_is_complete(game: Game) -> None:
    assert game.id and game.title and game.rules_version and game.goal
    assert 1 <= game.min_players <= game.max_players
    json.dumps(game.options_schema())
    json.dumps(game.move_schema())
