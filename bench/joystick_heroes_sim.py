"""Joystick Heroes simulation: many seeded games, to see how the charts (data/*.json) play out.

Each seat is a simple, sensible bot (not random): it goes to the free card where it rolls the
most dice, plays its Before cards, takes every extra life, spends Keys, accepts Co-op loans
and reactions, challenges Versus games it is strong at, and in POWER UP buys Prizes first and
then cubes. The figures per player count: game length in rounds, the winners' Prizes, every
player's Prizes, tournaments played and High Scores beaten.

    .venv/bin/python bench/joystick_heroes_sim.py [--games 200] [--players 2 4 6]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.dice import Dice  # noqa: E402
from app.engine.registry import get_game  # noqa: E402
from app.games.joystick_heroes.content import GAMES_CARDS, card_columns, kind_of  # noqa: E402

GAME = get_game("joystick-heroes")
assert GAME is not None


def dice_for(state: dict[str, Any], seat: int, card: int | None) -> int:
    if card is None:
        return -1
    cubes = state["players"][seat]["cubes"]
    return sum(cubes[c] for c in card_columns(card))


def choose(
    state: dict[str, Any], seat: int, legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    kinds = {m["type"] for m in legal}
    question = state["question"]
    if question is not None:
        # A reaction is asked of every seat that could hold the card; only holders may accept.
        accept = (
            question["kind"] in ("coop", "tilt", "thief")
            and {"type": "answer", "accept": True} in legal
        )
        if question["kind"] == "versus":
            card = state["arcade"][question["spot"]]["card"]
            accept = dice_for(state, seat, card) >= dice_for(state, question["asker"], card)
        return {"type": "answer", "accept": accept}
    if "choose_genres" in kinds:
        return rng.choice(legal)
    if state["phase"] == "powerup":
        for item in ("prize",):
            if {"type": "buy", "item": item} in legal:
                return {"type": "buy", "item": item}
        coupons = [m for m in legal if m["type"] == "use_coupon"]
        if coupons and state["powerup"]["carts"][seat] == []:
            return coupons[0]
        cubes = [m for m in legal if m["type"] == "buy"]
        if cubes:
            return rng.choice(cubes)
        return {"type": "done"}
    if "move_to" in kinds:
        best = max(
            dice_for(state, seat, state["arcade"][m["spot"]]["card"])
            for m in legal
            if m["type"] == "move_to"
        )
        options = [
            m
            for m in legal
            if m["type"] == "move_to"
            and dice_for(state, seat, state["arcade"][m["spot"]]["card"]) == best
        ]
        free = [m for m in legal if m["type"] == "play_card" and kind_of(m["card"]) == "free_play"]
        return free[0] if free else rng.choice(options)
    play = state["play"]
    if play is not None and play["step"] == "before":
        useful = [
            m
            for m in legal
            if m["type"] in ("play_card", "ask_coop")
            and (m["type"] == "ask_coop" or kind_of(m["card"]) != "high_score_hunter")
        ]
        return useful[0] if useful else {"type": "roll"}
    if play is not None and play["step"] == "marking":
        low = [m for m in legal if m["type"] == "mark_die" and play["dice"][m["die"]] < 150]
        return low[0] if low else {"type": "reroll"}
    for kind in ("take_life",):
        if {"type": kind} in legal:
            return {"type": kind}
    keys = [m for m in legal if m["type"] == "use_key"]
    if keys:
        return keys[0]
    after = [
        m
        for m in legal
        if m["type"] == "play_card"
        and kind_of(m["card"]) in ("lucky_charm", "combo_breaker", "second_wind", "ticket_bonanza")
    ]
    if after:
        return after[0]
    if {"type": "done"} in legal:
        return {"type": "done"}
    return rng.choice(legal)


def simulate(players: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    name = f"sim-{players}-{seed}"
    state = GAME.setup(players, GAME.parse_options({}), Dice(name, 0))
    tournaments = high_scores = reactions = 0
    for number in range(1, 100_000):
        if GAME.outcome(state) is not None:
            break
        active = GAME.active_seats(state)
        question = state["question"]
        if question is not None and "answers" in question:
            # Answered seats stay on a reaction question until all are in: ask the others.
            active = frozenset(s for s in active if str(s) not in question["answers"])
        seat = min(active)
        move = choose(state, seat, GAME.legal_moves(state, seat), rng)
        state, events = GAME.apply(state, seat, move, Dice(name, number))
        opened = state["question"]
        if opened is not None and "answers" in opened and not opened["answers"]:
            reactions += 1  # a Tilt!/Ticket Thief question everyone who could hold it answers
        tournaments += sum(1 for e in events if e["type"] == "tournament_win")
        high_scores += sum(1 for e in events if e["type"] == "collect" and e["high_score"])
    outcome = GAME.outcome(state)
    assert outcome is not None, "a simulated game did not end"
    prizes = [p["prizes"] for p in state["players"]]
    return {
        "rounds": state["round"],
        "moves": number,
        "winner_prizes": max(prizes),
        "prizes": prizes,
        "shared": len(outcome.winners) > 1,
        "tournaments": tournaments,
        "high_scores": high_scores,
        "reactions": reactions,
    }


def summary(values: list[float]) -> str:
    return (
        f"mean {statistics.mean(values):5.1f}  median {statistics.median(values):4.1f}  "
        f"min {min(values):3.0f}  max {max(values):3.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    args = parser.parse_args()
    print(
        f"Joystick Heroes: {args.games} seeded games per player count, "
        f"{len(GAMES_CARDS)} Games cards"
    )
    for players in args.players:
        started = time.perf_counter()
        games = [simulate(players, seed) for seed in range(args.games)]
        took = time.perf_counter() - started
        print(f"\n{players} players ({took:.1f} s, {sum(g['moves'] for g in games)} moves)")
        print(f"  rounds per game      {summary([g['rounds'] for g in games])}")
        print(f"  winner's Prizes      {summary([g['winner_prizes'] for g in games])}")
        print(f"  every player's Prizes {summary([p for g in games for p in g['prizes']])}")
        print(
            f"  tournaments per game {statistics.mean(g['tournaments'] for g in games):.2f}   "
            f"High Scores per game {statistics.mean(g['high_scores'] for g in games):.2f}   "
            f"shared wins {sum(g['shared'] for g in games)}"
        )
        plays = [g["rounds"] * players for g in games]
        print(
            f"  reaction questions   {summary([g['reactions'] for g in games])}  "
            f"(about {sum(g['reactions'] for g in games) / sum(plays):.1f} per turn)"
        )
        spread: dict[int, int] = {}
        for g in games:
            spread[g["winner_prizes"]] = spread.get(g["winner_prizes"], 0) + 1
        print(
            "  winner's Prizes histogram: " + "  ".join(f"{k}:{spread[k]}" for k in sorted(spread))
        )


if __name__ == "__main__":
    main()
