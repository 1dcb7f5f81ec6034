"""Replays: frames to step through, the export record, and its verification.

A replay re-runs the logged moves through the rules. Finished matches are shown with every
seat's secrets ("reveal all"); a match still being played only as a spectator sees it.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import orjson

from app.engine.contract import Event, Game, IllegalMove, State
from app.engine.dice import SETUP_MOVE_NUMBER, Dice
from app.engine.fairness import dice_seed, seed_commitment, state_hash
from app.engine.registry import get_game
from app.realtime.diff import make_patch

RECORD_FORMAT = "arcade-night-replay/1"


def _envelope(
    game: Game, state: State, version: int, names: list[str], reveal: bool
) -> dict[str, Any]:
    """A live snapshot's `state` as a spectator sees it (or, revealed, as everyone would)."""
    outcome = game.outcome(state)
    return {
        "game": game.id,
        "status": "finished" if outcome is not None else "active",
        "version": version,
        "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
        "you": None,
        "active_seats": sorted(game.active_seats(state)) if outcome is None else [],
        "legal_moves": [],
        "board": game.reveal_view(state) if reveal else game.view(state, None),
        "outcome": outcome.to_json() if outcome is not None else None,
    }


def replay_frames(
    game: Game,
    *,
    match_id: str,
    options: dict[str, Any],
    names: list[str],
    seed: str,
    moves: list[dict[str, Any]],
    reveal: bool,
    rules_version: str | None = None,
) -> dict[str, Any]:
    """The state at move 0 and one patch (with its events) per move after it."""
    state = game.begin(
        len(names), game.parse_options(options), Dice(seed, SETUP_MOVE_NUMBER), rules_version
    )
    before = _envelope(game, state, 0, names, reveal)
    initial, frames = before, []
    for seq, entry in enumerate(moves, start=1):
        state, events = game.apply(state, entry["seat"], entry["move"], Dice(seed, seq))
        after = _envelope(game, state, seq, names, reveal)
        shown: list[Event] = (
            events
            if reveal
            else [e for e in (game.redact_event(e, None) for e in events) if e is not None]
        )
        frames.append(
            {"seq": seq, "seat": entry["seat"], "ops": make_patch(before, after), "events": shown}
        )
        before = after
    return {
        "id": match_id,
        "game": game.id,
        "status": before["status"],
        "version": len(moves),
        "seats": initial["seats"],
        "initial": initial,
        "frames": frames,
        "outcome": before["outcome"],
    }


def export_record(
    game: Game,
    *,
    match_id: str,
    rules_version: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    server_seed: str,
    commitment: str,
    nonces: list[str | None],
    moves: list[dict[str, Any]],
    outcome: dict[str, Any] | None,
) -> dict[str, Any]:
    """Everything needed to check a finished match on another machine."""
    seed = dice_seed(server_seed, nonces)
    state = game.begin(
        len(seats), game.parse_options(options), Dice(seed, SETUP_MOVE_NUMBER), rules_version
    )
    out_moves = []
    for seq, entry in enumerate(moves, start=1):
        state, _events = game.apply(state, entry["seat"], entry["move"], Dice(seed, seq))
        out_moves.append(
            {
                "seq": seq,
                "seat": entry["seat"],
                "move": entry["move"],
                "events": entry["events"],
                "state_hash": state_hash(state),
            }
        )
    return {
        "format": RECORD_FORMAT,
        "id": match_id,
        "game": game.id,
        "rules_version": rules_version,
        "options": options,
        "seats": seats,
        "server_seed": server_seed,
        "seed_commitment": commitment,
        "nonces": nonces,
        "moves": out_moves,
        "outcome": outcome,
    }


CLAIMED = "claimed"


def is_claimed_win(outcome: Any) -> bool:
    """An outcome a player claimed when her opponent stayed away (not one the rules gave)."""
    return (
        isinstance(outcome, dict)
        and outcome.get("reason") == CLAIMED
        and isinstance(outcome.get("details"), dict)
        and outcome["details"].get("claimed") is True
    )


@dataclass(frozen=True)
class Verdict:
    ok: bool
    checked_moves: int
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "checked_moves": self.checked_moves, "problem": self.problem}


class OutOfTime(Exception):
    """verify_record ran past its deadline; `checked` moves were fine until then."""

    def __init__(self, checked: int) -> None:
        super().__init__(checked)
        self.checked = checked


def verify_record(record: Any, *, deadline: float | None = None) -> Verdict:
    """Re-run a record through the rules; the first difference found is the verdict.

    `deadline` (a time.monotonic() value) bounds the work: past it, OutOfTime is raised
    between two moves (one move of any game takes milliseconds)."""
    checked = 0
    try:
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            return Verdict(False, 0, f"This is not an Arcade Night replay ({RECORD_FORMAT}).")
        game = get_game(str(record["game"]))
        if game is None:
            return Verdict(False, 0, f"This server does not know the game {record['game']!r}.")
        if not game.knows_rules(str(record["rules_version"])):
            return Verdict(
                False,
                0,
                f"The match used rules version {record['rules_version']}; "
                f"this server has {game.rules_version}.",
            )
        if seed_commitment(record["server_seed"]) != record["seed_commitment"]:
            return Verdict(
                False,
                0,
                "The revealed seed does not match the commitment the "
                "server published when the lobby opened.",
            )
        seed = dice_seed(record["server_seed"], list(record["nonces"]))
        state = game.begin(
            len(record["seats"]),
            game.parse_options(record["options"]),
            Dice(seed, SETUP_MOVE_NUMBER),
            str(record["rules_version"]),
        )
        for seq, entry in enumerate(record["moves"], start=1):
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime(checked)
            if entry["seq"] != seq:
                return Verdict(False, checked, f"Move {seq} is missing or out of order.")
            try:
                move = game.parse_move(entry["move"])
                if move not in game.legal_moves(state, entry["seat"]):
                    raise IllegalMove("it was not one of the legal moves at that point")
                state, events = game.apply(state, entry["seat"], move, Dice(seed, seq))
            except Exception as exc:  # whatever the rules reject here is the verdict
                reason = exc.reason if isinstance(exc, IllegalMove) else str(exc)
                return Verdict(
                    False, checked, f"Move {seq} by seat {entry['seat']} is illegal: {reason}"
                )
            if events != entry["events"]:
                return Verdict(
                    False,
                    checked,
                    f"Move {seq}: the rules give different events "
                    f"({_first_difference(events, entry['events'])}).",
                )
            if "state_hash" in entry and state_hash(state) != entry["state_hash"]:
                return Verdict(
                    False, checked, f"Move {seq}: the state after it differs from the record."
                )
            checked = seq
        outcome = game.outcome(state)
        produced = outcome.to_json() if outcome is not None else None
        if produced is None and is_claimed_win(record["outcome"]):
            # Won by a claim while the opponent was away: the rules had not ended the match,
            # and the log up to the claim is what can be checked.
            return Verdict(True, checked)
        if produced != record["outcome"]:
            return Verdict(False, checked, "The rules give a different outcome than the record.")
    except (KeyError, TypeError, ValueError) as exc:
        return Verdict(False, checked, f"The record is incomplete or malformed ({exc}).")
    return Verdict(True, checked)


def _first_difference(produced: list[Event], recorded: list[Any]) -> str:
    for i, (a, b) in enumerate(zip(produced, recorded, strict=False)):
        if a != b:
            said = a.get("text") if isinstance(a, dict) else a
            return f"event {i + 1} should read {said!r}"
    return f"{len(produced)} events instead of {len(recorded)}"


def moves_digest(moves: list[Any]) -> str:
    """A fingerprint of who played what, in order: a record and this server's own log of the
    same match agree on it exactly when they hold the same moves."""
    played = [[m.get("seat"), m.get("move")] if isinstance(m, dict) else m for m in moves]
    return hashlib.sha256(orjson.dumps(played, option=orjson.OPT_SORT_KEYS)).hexdigest()
