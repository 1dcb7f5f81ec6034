"""Hidden information (issue item 6): a Power card hand is seen only by its owner; others and
spectators see how many cards each player holds; the deck order is never sent."""

from __future__ import annotations

import json
import random

import pytest
from jh_factories import GAME, give, table

from app.engine.dice import Dice


def playout(players: int, seed: int):
    """Seeded random play to the end: yields (state, events) after every move."""
    chooser = random.Random(seed)
    state = GAME.setup(players, GAME.parse_options({}), Dice(f"hidden-{seed}", 0))
    yield state, []
    for number in range(1, 20_000):
        if GAME.outcome(state) is not None:
            return
        seat = chooser.choice(sorted(GAME.active_seats(state)))
        move = chooser.choice(GAME.legal_moves(state, seat))
        state, events = GAME.apply(state, seat, move, Dice(f"hidden-{seed}", number))
        yield state, events


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_no_seat_or_spectator_ever_sees_another_hand(players, seed):
    """Every view and every (redacted) event of every seat during a seeded game: no other
    seat's card id appears; the owner does see hers."""
    steps = 0
    for state, events in playout(players, seed):
        steps += 1
        for owner in range(players):
            secrets = [json.dumps(c) for c in state["players"][owner]["hand"]]
            for viewer in [None, *range(players)]:
                seen = json.dumps(GAME.view(state, viewer))
                seen += json.dumps([GAME.redact_event(e, viewer) for e in events])
                if viewer == owner:
                    assert all(s in seen for s in secrets)
                else:
                    assert not [s for s in secrets if s in seen]
    assert steps > 50


def test_others_see_only_hand_counts():
    state = table(3)
    give(state, 1, "turbo", "coupon")
    view = GAME.view(state, 0)
    assert view["hand"] == []
    assert [p["hand_count"] for p in view["players"]] == [0, 2, 0]
    assert GAME.view(state, None)["hand"] is None
    assert [c["kind"] for c in GAME.view(state, 1)["hand"]] == ["turbo", "coupon"]


def test_the_deck_order_is_never_in_a_view():
    """Only the decks' sizes are shown; the reveal view for replays shows every hand."""
    state = table(2)
    give(state, 0, "turbo")
    view = GAME.view(state, 0)
    assert view["decks"]["power"] == len(state["power_deck"])
    text = json.dumps(view)
    assert not any(json.dumps(card) in text for card in state["power_deck"])
    assert json.dumps(state["games_deck"][:3])[1:-1] not in text
    revealed = GAME.reveal_view(state)
    assert revealed["hands"][0][0]["kind"] == "turbo"


def test_a_drawn_card_is_named_only_to_its_drawer():
    from jh_factories import card_of

    from app.games.joystick_heroes.decks import draw_power_card

    state = table(2)
    state["power_deck"] = [card_of("turbo")]
    events = []
    draw_power_card(state, 0, Dice("h", 1), events)
    assert [GAME.redact_event(e, 1) for e in events if GAME.redact_event(e, 1)] == [
        {"type": "draw", "seat": 0, "text": "Red draws a Power card."}
    ]
    assert any(
        e.get("card") == card_of("turbo") for e in events if GAME.redact_event(e, 0) is not None
    )


def test_the_game_declares_its_secrets():
    state = table(2)
    (card,) = give(state, 1, "tilt")
    assert GAME.hidden_information is True
    assert GAME.secret_values(state, 1) == [card]
