"""What a seat may believe about the parts of the table it cannot see: `Game.sample_hidden`
for Joystick Heroes, so computer players search without peeking (issue 15, part 1).

A sample keeps everything `view(state, seat)` shows and draws afresh everything it leaves out:

- the Power cards the seat does not hold: the other hands (their sizes kept, never an Instant
  card, which is resolved as soon as it is drawn), the Power deck and its discards;
- the Games cards not on the arcade nor in a tournament: the Games deck and its discards;
- the other seats' secret answers to a reaction question (Tilt!, Ticket Thief): nobody else
  has answered yet, so a search lets them answer again;
- the other seats' Power Up shopping lists: a seat still shopping has an empty list, one that
  is done spent its tickets on items drawn at random.

Everything it draws is read from the view's side of the state only, so two states a seat
cannot tell apart give the same sample for the same `rng`. The few keys the view leaves out
although the whole table saw them happen (the turn order, whose Versus play is next, the
pizza slice claimed, the rules version) are kept as they are.
"""

from __future__ import annotations

import copy
import random

from app.engine.contract import State
from app.games.joystick_heroes.content import GAMES_CARDS, kind_of
from app.games.joystick_heroes.decks import build_power_deck
from app.games.joystick_heroes.flow import apply_powerup_move, powerup_moves
from app.games.joystick_heroes.plays import REACTION_KINDS

INSTANT_KINDS = frozenset({"all_play_tournament", "on_the_button"})
"""Resolved when drawn (H11, H12): never in a hand."""


def sample_hidden(state: State, seat: int, rng: random.Random) -> State:
    sample = copy.deepcopy(state)
    _deal_power_cards(sample, seat, rng)
    _deal_games_cards(sample, rng)
    _forget_reaction_answers(sample, seat)
    _guess_shopping_lists(sample, seat, rng)
    return sample


def _power_number(card: str) -> int:
    return int(card[1:])


def _deal_power_cards(sample: State, seat: int, rng: random.Random) -> None:
    players = sample["players"]
    own = set(players[seat]["hand"])
    unseen = sorted(
        (c for c in build_power_deck(len(players) == 1) if c not in own), key=_power_number
    )
    rng.shuffle(unseen)
    holdable = iter([c for c in unseen if kind_of(c) not in INSTANT_KINDS])
    dealt: set[str] = set()
    for other in range(len(players)):
        if other == seat:
            continue
        hand = [next(holdable) for _ in players[other]["hand"]]
        dealt.update(hand)
        players[other] = {**players[other], "hand": hand}
    rest = [c for c in unseen if c not in dealt]
    in_deck = len(sample["power_deck"])
    sample["power_deck"] = rest[:in_deck]
    sample["power_discard"] = rest[in_deck:]


def _deal_games_cards(sample: State, rng: random.Random) -> None:
    """Every Games card is on the arcade, in a tournament, in the deck or in the discards."""
    in_sight = {entry["card"] for entry in sample["arcade"] if entry["card"] is not None}
    if sample["tournament"] is not None:
        in_sight.add(sample["tournament"]["card"])
    unseen = [card for card in sorted(GAMES_CARDS) if card not in in_sight]
    rng.shuffle(unseen)
    in_deck = len(sample["games_deck"])
    sample["games_deck"] = unseen[:in_deck]
    sample["games_discard"] = unseen[in_deck:]


def _forget_reaction_answers(sample: State, seat: int) -> None:
    question = sample["question"]
    if question is None or question["kind"] not in REACTION_KINDS:
        return
    own = question["answers"].get(str(seat))
    sample["question"] = {**question, "answers": {} if own is None else {str(seat): own}}


def _guess_shopping_lists(sample: State, seat: int, rng: random.Random) -> None:
    powerup = sample["powerup"]
    if powerup is None:
        return
    done = list(powerup["done"])
    carts = [cart if other == seat else [] for other, cart in enumerate(powerup["carts"])]
    sample["powerup"] = {**powerup, "carts": carts}
    for other, finished in enumerate(done):
        if other != seat and finished:
            _spend_at_random(sample, other, rng)


def _spend_at_random(sample: State, other: int, rng: random.Random) -> None:
    """Buys (with Coupons) at random until nothing more is affordable: most players leave the
    prize counter with their pockets nearly empty. `powerup_moves` offers nothing to a seat
    that is done, so she is let back in while her list is drawn."""
    done = list(sample["powerup"]["done"])
    sample["powerup"] = {**sample["powerup"], "done": [*done[:other], False, *done[other + 1 :]]}
    while True:
        options = [m for m in powerup_moves(sample, other) if m["type"] in ("buy", "use_coupon")]
        if not options:
            break
        # A move other than "done" draws no dice, so no match Dice is needed here.
        apply_powerup_move(sample, other, rng.choice(options), None, [])  # type: ignore[arg-type]
    sample["powerup"] = {**sample["powerup"], "done": done}
