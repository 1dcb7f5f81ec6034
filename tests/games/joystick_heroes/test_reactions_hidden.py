"""Reaction cards without giving their holders away (issue items 4 and 6; Power cards Tilt! and
Ticket Thief, "Reaction = on another player's turn").

At a reaction moment (a Game die roll, a collection of tickets) every other seat that could
hold the card from what the table knows (a card in hand while a copy is not publicly in the
discards) is asked the same question at once; non-holders can only pass; the answers stay
private until the last one is in. So the asked seats, the clock and the views are the same
whoever holds the card.
"""

from __future__ import annotations

import copy

import pytest
from jh_factories import GAME, Scripted, act, card_of, face, give, roll, table, texts

from app.engine.contract import IllegalMove

NO = {"type": "answer", "accept": False}
YES = {"type": "answer", "accept": True}


def answers(state, seat):
    """The seat's answers to the question (discards are open to everyone besides, H13a)."""
    return [m for m in GAME.legal_moves(state, seat) if m["type"] == "answer"]


def _rolled(holder: int, players: int = 4, other_kind: str = "coupon"):
    """Seat 0 rolls on Highway Hop; `holder` holds a Tilt!, every other seat but the roller one
    other card."""
    state = table(players)
    for seat in range(1, players):
        give(state, seat, "tilt" if seat == holder else other_kind)
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, events = act(state, 0, {"type": "roll"}, roll(100, 100, 100, game_face="+200"))
    return state, events


def _public(state, seat):
    return (sorted(GAME.active_seats(state)), GAME.view(state, seat), GAME.decision_seconds(state))


def test_every_seat_that_could_hold_tilt_is_asked_alike():
    """Tilt! "When another player rolls the Game die": all other seats with a card in hand are
    asked together; only the holder may say yes."""
    state, _ = _rolled(holder=2)
    assert GAME.active_seats(state) == {1, 2, 3}
    assert answers(state, 2) == [YES, NO]
    assert answers(state, 1) == [NO] and answers(state, 3) == [NO]
    assert GAME.legal_moves(state, 0) == []  # the roller's hand is empty
    with_holding = GAME.view(state, 2)["question"]
    assert with_holding["holding"] is True and with_holding["answer"] is None
    assert GAME.view(state, 1)["question"]["holding"] is False


def test_being_asked_does_not_tell_who_holds_the_card():
    """The roller, a spectator and a non-asked seat see exactly the same whether seat 1 or seat
    3 holds the Tilt!."""
    first, _ = _rolled(holder=1)
    second, _ = _rolled(holder=3)
    for viewer in (0, None):
        assert _public(first, viewer) == _public(second, viewer)
    # Seat 2 holds a Coupon (another copy) in both tables: its own view is the same too.
    seats, mine, clock = _public(first, 2)
    hand = [{**card, "id": None} for card in mine.pop("hand")]
    other_seats, other, other_clock = _public(second, 2)
    other_hand = [{**card, "id": None} for card in other.pop("hand")]
    assert (seats, mine, clock, hand) == (other_seats, other, other_clock, other_hand)


def test_a_seat_with_an_empty_hand_is_not_asked():
    """Hand counts are public: a seat with no card cannot react, so asking it would be idle."""
    state = table(3)
    give(state, 1, "tilt")
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 100))
    assert GAME.active_seats(state) == {1}


def test_no_question_when_every_tilt_is_publicly_discarded():
    """When both Tilt! copies lie in the discards, no hand can hold one: nobody is asked."""
    state = table(3)
    give(state, 1, "coupon")
    give(state, 2, "coupon")
    tilts = [card_of("tilt", 0), card_of("tilt", 1)]
    state["power_deck"] = [c for c in state["power_deck"] if c not in tilts]
    state["power_discard"] = tilts
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 100))
    assert state["question"] is None and GAME.active_seats(state) == {0}


def test_a_non_holder_cannot_play_tilt():
    state, _ = _rolled(holder=2)
    with pytest.raises(IllegalMove, match="You hold no Tilt! to play"):
        act(state, 1, YES)


def test_answers_stay_private_until_the_last_one():
    """A pass is not announced and does not take the seat off the question: the others see the
    same table before and after it."""
    state, _ = _rolled(holder=2)
    before = {v: GAME.view(state, v) for v in (0, 2, 3, None)}
    after, events = act(state, 1, NO)
    assert GAME.active_seats(after) == {1, 2, 3}
    for viewer in (0, 2, 3, None):
        assert GAME.view(after, viewer) == before[viewer]
        assert [e for e in events if GAME.redact_event(e, viewer) is not None] == []
    assert GAME.view(after, 1)["question"]["answer"] is False
    assert GAME.timeout_move(after, 1) is None  # answered: the clock leaves it alone
    assert GAME.timeout_move(after, 2) == NO and GAME.timeout_move(after, 3) == NO


def test_the_holder_plays_tilt_when_all_have_answered():
    state, _ = _rolled(holder=2)
    state, _ = act(state, 1, NO)
    state, _ = act(state, 2, YES)
    assert state["question"] is not None  # seat 3 has not answered yet
    state, events = act(state, 3, NO, Scripted(face("bomb")))
    assert state["question"] is None and state["play"]["face"] == "bomb"
    assert "Green plays Tilt! Red must reroll the Game die" in texts(events)
    assert GAME.active_seats(state) == {0}


def test_nobody_tilting_is_announced_without_names():
    state, _ = _rolled(holder=2)
    for seat in (1, 2, 3):
        state, events = act(state, seat, NO)
    assert texts(events) == "Nobody plays Tilt!"
    assert state["question"] is None and state["play"]["face"] == "+200"


def test_a_seat_may_change_its_answer_until_all_have_answered():
    state, _ = _rolled(holder=2)
    state, _ = act(state, 2, YES)
    state, _ = act(state, 2, NO)
    state, _ = act(state, 1, NO)
    state, events = act(state, 3, NO)
    assert texts(events) == "Nobody plays Tilt!"


def test_when_two_hold_tilt_the_first_clockwise_plays_it():
    """One Tilt! per Game die roll (docs: our reading); the first taker clockwise from the
    roller plays it, the other keeps hers."""
    state = table(3)
    give(state, 1, "tilt")
    give(state, 2, "tilt")
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 100))
    state, _ = act(state, 2, YES)
    state, events = act(state, 1, YES, Scripted(face("-100")))
    assert "Blue plays Tilt!" in texts(events)
    assert state["players"][1]["hand"] == [] and len(state["players"][2]["hand"]) == 1


def test_reaction_questions_have_a_shorter_clock():
    """Issue item 4 clock: reactions are asked at every roll, so their clock is shorter than a
    Versus or Co-op question's."""
    state, _ = _rolled(holder=2)
    assert GAME.decision_seconds(state) == 12
    versus = table(3)
    versus, _ = act(versus, 0, {"type": "move_to", "spot": 2})  # Tbob, Versus
    assert GAME.decision_seconds(versus) == 30


def test_ticket_thief_is_asked_of_every_possible_holder_alike():
    """Ticket Thief "When another player collects tickets": the same question to every other
    seat with a card; the thief takes up to 2 when all have answered."""

    def collected(holder: int):
        state = table(3)
        give(state, 1, "ticket_thief" if holder == 1 else "coupon")
        give(state, 2, "ticket_thief" if holder == 2 else "coupon")
        state, _ = act(state, 0, {"type": "move_to", "spot": 0})
        state, _ = act(state, 0, {"type": "roll"}, roll(300, 300, 0, game_face="+100"))
        # Tilt! could still be in a hand: that question comes first and is answered no.
        for seat in (1, 2):
            state, _ = act(state, seat, NO)
        state, _ = act(state, 0, {"type": "done"})
        return state

    one, two = collected(1), collected(2)
    assert GAME.active_seats(one) == GAME.active_seats(two) == {1, 2}
    assert GAME.view(one, 0) == GAME.view(two, 0)
    assert answers(two, 1) == [NO] and answers(two, 2) == [YES, NO]
    state, _ = act(two, 1, NO)
    state, events = act(state, 2, YES)
    assert "Green plays Ticket Thief and takes 2 of Red's tickets." in texts(events)
    assert (state["players"][0]["tickets"], state["players"][2]["tickets"]) == (1, 2)


def test_the_hidden_question_survives_a_deep_copy():
    """The question keeps its private answers in the state only (reveal_view shows them)."""
    state, _ = _rolled(holder=2)
    state, _ = act(state, 1, NO)
    assert GAME.reveal_view(copy.deepcopy(state))["question"]["answers"] == {"1": False}


def test_silence_counts_as_pass_seat_by_seat_until_the_question_closes():
    """Issue item 4: "no answer in time counts as no". The server answers for each late seat
    (timeout_move, a legal move), skipping those who answered; the roll then stands."""
    state, _ = _rolled(holder=2)
    state, _ = act(state, 2, NO)
    late = [s for s in sorted(GAME.active_seats(state)) if GAME.timeout_move(state, s)]
    assert late == [1, 3]
    for seat in late:
        move = GAME.timeout_move(state, seat)
        assert move in GAME.legal_moves(state, seat)
        state, events = act(state, seat, move)
    assert state["question"] is None and texts(events) == "Nobody plays Tilt!"
    assert GAME.decision_seconds(state) is None
