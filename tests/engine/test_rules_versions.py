"""Amended rulings do not rewrite history: a match replays, verifies and ends by the rules
version it was begun under (Game.begin, older_rules_versions, keep_older_rules)."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

from app.engine.contract import Game
from app.engine.dice import SETUP_MOVE_NUMBER, Dice
from app.engine.fairness import dice_seed, seed_commitment
from app.engine.registry import get_game
from app.services.replays import export_record, verify_record

SERVER_SEED = "11" * 32
RECORDS = Path(__file__).parent / "records"


def play_randomly(
    game: Game, rules_version: str, players: int, moves: int, seed: int, options: Any = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Random legal play from the state the match begins in: (log, states after each move)."""
    rng = random.Random(seed)
    parsed = game.parse_options(options or {})
    dice_seed_ = dice_seed(SERVER_SEED, [None] * players)
    state = game.begin(players, parsed, Dice(dice_seed_, SETUP_MOVE_NUMBER), rules_version)
    log, states = [], [state]
    for seq in range(1, moves + 1):
        if game.outcome(state) is not None:
            break
        seats = sorted(game.active_seats(state))
        seat = rng.choice(seats)
        move = rng.choice(game.legal_moves(state, seat))
        state, events = game.apply(state, seat, move, Dice(dice_seed_, seq))
        raw = move.model_dump(mode="json") if hasattr(move, "model_dump") else move
        log.append({"seat": seat, "move": raw, "events": events})
        states.append(state)
    return log, states


def record_of(
    game: Game, rules_version: str, players: int, log: list[dict[str, Any]], options: Any = None
) -> dict[str, Any]:
    return export_record(
        game,
        match_id="m1",
        rules_version=rules_version,
        options=options or {},
        seats=[{"seat": s, "name": f"P{s}"} for s in range(players)],
        server_seed=SERVER_SEED,
        commitment=seed_commitment(SERVER_SEED),
        nonces=[None] * players,
        moves=log,
        outcome=None,
    )


def test_a_tank_skirmish_match_of_rules_1_keeps_its_state_shape_and_verifies() -> None:
    game = get_game("tube-tanks")
    assert game is not None and game.rules_version == "2" and game.knows_rules("1")
    log, states = play_randomly(game, "1", 2, 60, seed=3)
    assert all("last_shot" not in state for state in states), "version 1 kept no last shot"
    assert verify_record(record_of(game, "1", 2, log)).ok
    # The same moves under today's rules keep the last shot.
    _log, today = play_randomly(game, "2", 2, 60, seed=3)
    assert all("last_shot" in state for state in today)


def test_a_rules_version_the_game_never_had_is_refused_with_a_sentence() -> None:
    game = get_game("tube-tanks")
    assert game is not None
    log, _states = play_randomly(game, "2", 2, 5, seed=1)
    record = record_of(game, "2", 2, log)
    record["rules_version"] = "0"
    verdict = verify_record(record)
    assert not verdict.ok
    assert verdict.problem == "The match used rules version 0; this server has 2."


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDS.glob("*-rules-1.json.gz")))
def test_a_replay_exported_under_rules_1_still_verifies(name: str) -> None:
    """Each game whose rulings were amended on 2026-11-24 (CD Thief D11, Joystick Heroes H9a
    and H13a, Tank Skirmish's kept last shot) or later (Tactrics Cat & Mouse's set-up, issue
    15) still verifies a replay exported before: same legal moves, same events, same state
    hashes, same outcome."""
    record = json.loads(gzip.decompress((RECORDS / name).read_bytes()))
    game = get_game(record["game"])
    assert game is not None and record["rules_version"] == "1" != game.rules_version
    verdict = verify_record(record)
    assert verdict.ok, verdict.problem
    assert verdict.checked_moves == len(record["moves"]) > 200
