"""The two decks: Games cards for the arcade (H2, H7) and Power cards for the hands (H11-H13).

State keys used here (all JSON):
- ``arcade``: one entry per spot, ``{"card": id | None, "plays": n}``; ``plays`` counts the
  play markers (tokens) on the card (H7).
- ``games_deck`` / ``games_discard``: Games card ids; the deck order is secret.
- ``power_deck`` / ``power_discard``: Power card instance ids ("P1".."P44"); deck order secret.
- ``tournaments_queued``: All-Play Tournaments waiting for the end of this Power Up (H11).
- ``pizza`` / ``pizza_claimed``: the starting player and whether On The Button took the slice
  since the last round began (then it is not passed on, H12).

Every function mutates the fresh state it is given (the caller copied it) and appends events.
"""

from __future__ import annotations

from typing import Any

from app.engine.contract import Event, State
from app.engine.dice import Dice
from app.games.joystick_heroes.content import (
    GAMES_CARDS,
    POWER_CARDS,
    RULES,
    hero,
    kind_of,
    power_name,
)


# --- Games cards ---------------------------------------------------------------------------
def _draw_top(state: State, deck: str, rng: Dice, events: list[Event]) -> Any:
    """The top card of `deck` ("games" or "power"); an empty deck is refilled by shuffling
    its discards (H7)."""
    pile, discards = f"{deck}_deck", f"{deck}_discard"
    if not state[pile] and state[discards]:
        state[pile] = rng.shuffled(state[discards])
        state[discards] = []
        events.append(
            {
                "type": "reshuffle",
                "deck": deck,
                "text": f"The {deck.capitalize()} discards are shuffled into a new deck.",
            }
        )
    if not state[pile]:
        return None
    card = state[pile][0]
    state[pile] = state[pile][1:]
    return card


def draw_games_card(state: State, rng: Dice, events: list[Event]) -> int | None:
    """The top Games card; an empty deck is refilled by shuffling the discards (H7)."""
    card: int | None = _draw_top(state, "games", rng, events)
    return card


def retire_card(state: State, spot: int, rng: Dice, events: list[Event], why: str) -> None:
    """Discard the spot's card with its play markers and refill the spot (H7). Pawns stay."""
    arcade = [dict(s) for s in state["arcade"]]
    old = arcade[spot]["card"]
    state["arcade"] = arcade
    if old is None:
        return
    # The replacement is drawn before the old card reaches the discards: a "new Game" is never
    # the one that just left, and H7's "if still empty, the spot stays empty" can happen.
    new = draw_games_card(state, rng, events)
    state["games_discard"] = [*state["games_discard"], old]
    arcade[spot] = {"card": new, "plays": 0}
    name = GAMES_CARDS[old]["name"]
    if new is None:
        text = f"{name} leaves the arcade ({why}); no Games card is left, so the spot stays empty."
    else:
        text = f"{name} leaves the arcade ({why}); {GAMES_CARDS[new]['name']} takes its place."
    events.append({"type": "retire", "spot": spot, "card": old, "new": new, "text": text})


def draw_tournament_card(state: State, rng: Dice, events: list[Event]) -> int | None:
    """Reveal Games cards until a Standard (silver) one; skipped gold cards go to the bottom
    (H11). None when no Standard card is left anywhere."""
    skipped: list[int] = []
    while True:
        card = draw_games_card(state, rng, events)
        if card is None:
            break
        if GAMES_CARDS[card]["tier"] == "standard":
            state["games_deck"] = [*state["games_deck"], *skipped]
            return card
        skipped.append(card)
        if not state["games_deck"] and not state["games_discard"]:
            break
    state["games_deck"] = [*state["games_deck"], *skipped]
    return None


# --- Power cards ---------------------------------------------------------------------------
def _take_power_card(state: State, rng: Dice, events: list[Event]) -> str | None:
    card: str | None = _draw_top(state, "power", rng, events)
    return card


def discard_power(state: State, card: str) -> None:
    state["power_discard"] = [*state["power_discard"], card]


def set_hand(state: State, seat: int, hand: list[str]) -> None:
    players = list(state["players"])
    players[seat] = {**players[seat], "hand": hand}
    state["players"] = players


def draw_power_card(
    state: State, seat: int, rng: Dice, events: list[Event], *, at_setup: bool = False
) -> None:
    """Draw one Power card for `seat`, resolving Instant cards (H11, H12) until a card stays in
    her hand or both the deck and discards are empty."""
    name = hero(seat)
    for _attempt in range(200):  # only Instant cards loop; the deck holds few of them
        card = _take_power_card(state, rng, events)
        if card is None:
            events.append(
                {"type": "no_card", "seat": seat, "text": f"{name} finds no Power card to draw."}
            )
            return
        kind = kind_of(card)
        if kind == "all_play_tournament" and at_setup:
            # Setup: "insert it randomly back into the deck and draw again".
            deck = list(state["power_deck"])
            deck.insert(rng.below(len(deck) + 1), card)
            state["power_deck"] = deck
            events.append(
                {
                    "type": "instant",
                    "seat": seat,
                    "kind": kind,
                    "text": f"{name} draws an All-Play Tournament at set-up, shuffles it "
                    "back into the deck and draws again.",
                }
            )
            if all(kind_of(c) == "all_play_tournament" for c in deck):
                return
            continue
        if kind == "all_play_tournament":
            discard_power(state, card)
            if state["options"]["skip_tournaments"]:
                text = (
                    f"{name} draws an All-Play Tournament; tournaments are skipped at this "
                    "table, so it is discarded and replaced."
                )
            else:
                state["tournaments_queued"] += 1
                text = (
                    f"{name} draws an All-Play Tournament! A tournament follows this Power "
                    "Up phase."
                )
            events.append({"type": "instant", "seat": seat, "kind": kind, "text": text})
            continue
        if kind == "on_the_button":
            discard_power(state, card)
            state["pizza"] = seat
            state["pizza_claimed"] = True
            events.append(
                {
                    "type": "instant",
                    "seat": seat,
                    "kind": kind,
                    "text": f"{name} draws On The "
                    f"Button and takes the pizza slice: {name} starts the next round.",
                }
            )
            continue
        set_hand(state, seat, [*state["players"][seat]["hand"], card])
        events.append({"type": "draw", "seat": seat, "text": f"{name} draws a Power card."})
        events.append(
            {
                "type": "draw_secret",
                "seat": seat,
                "only": [seat],
                "card": card,
                "kind": kind,
                "text": f"You draw {power_name(card)}.",
            }
        )
        return


def build_power_deck(solo: bool) -> list[str]:
    removed = set(RULES["solo_removed_kinds"]) if solo else set()
    return [card for card, kind in POWER_CARDS.items() if kind not in removed]
