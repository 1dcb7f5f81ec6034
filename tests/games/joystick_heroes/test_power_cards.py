"""Every Power card kind with its timing and its Key value (docs/rules/joystick-heroes.md,
Power cards; rulebook "All About Power Cards"; rulings H5, H11-H13)."""

from __future__ import annotations

import pytest
from jh_factories import GAME, Scripted, act, die, face, give, roll, table, texts

from app.engine.contract import IllegalMove
from app.engine.dice import Dice
from app.games.joystick_heroes.decks import draw_power_card


def at_highway_hop(state=None, seat=0):
    """Seat 0 has moved to Highway Hop (spot 0: Joystick + Driving, Classic; 3 dice)."""
    state = state or table(2)
    state, _ = act(state, seat, {"type": "move_to", "spot": 0})
    return state


def rolled(state, *dice, game_face="+100"):
    state, _ = act(state, 0, {"type": "roll"}, roll(*dice, game_face=game_face))
    return state


def card_move(moves, card, **extra):
    return {"type": "play_card", "card": card, **extra} in moves


# --- Before ---------------------------------------------------------------------------------
def test_extra_quarter_adds_a_scoring_die_before_rolling():
    """Extra Quarter (Before, Key 150): +1 Scoring die for this game; 9-die cap applies."""
    state = table(2)
    (card,) = give(state, 0, "extra_quarter")
    state = at_highway_hop(state)
    state, events = act(state, 0, {"type": "play_card", "card": card})
    assert GAME.view(state, 0)["play"]["dice_count"] == 4
    assert "Red plays Extra Quarter: +1 Scoring die." in texts(events)
    state = rolled(state, 100, 100, 100, 100)
    assert len(state["play"]["dice"]) == 4
    assert not card_move(GAME.legal_moves(state, 0), card)  # Before only


def test_extra_quarter_counts_on_every_premium_level():
    """Extra Quarter: "(every Level of a Premium game)"."""
    state = table(2)
    (card,) = give(state, 0, "extra_quarter")
    state, _ = act(state, 0, {"type": "move_to", "spot": 3})  # Bug Blaster: 3 dice
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    state = rolled(state, 100, 100, 100, 100)
    state, _ = act(state, 0, {"type": "done"}, roll(0, 0, 0, 0))
    assert state["play"]["level"] == 2 and len(state["play"]["dice"]) == 4


def test_genre_fan_counts_genre_cubes_twice():
    """Genre Fan (Before, Key 150): your cubes in this game's genre count twice."""
    state = table(2)
    state["players"][0]["cubes"]["classic"] = 3
    (card,) = give(state, 0, "genre_fan")
    state = at_highway_hop(state)
    assert GAME.view(state, 0)["play"]["dice_count"] == 5
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    assert GAME.view(state, 0)["play"]["dice_count"] == 8


def test_skill_boost_counts_one_skill_twice_within_the_cap():
    """Skill Boost (Before, Key 150): pick one of this game's two skills; its cubes count twice
    (9-die cap)."""
    state = table(2)
    state["players"][0]["cubes"]["joystick"] = 5
    state["players"][0]["cubes"]["classic"] = 2
    (card,) = give(state, 0, "skill_boost")
    state = at_highway_hop(state)
    moves = GAME.legal_moves(state, 0)
    assert card_move(moves, card, skill="joystick") and card_move(moves, card, skill="driving")
    assert not card_move(moves, card, skill="buttons")
    state, _ = act(state, 0, {"type": "play_card", "card": card, "skill": "joystick"})
    assert GAME.view(state, 0)["play"]["dice_count"] == 9  # 5 + 5 + 1 + 2 = 13, capped


def test_high_score_hunter_lowers_the_high_score_by_200():
    """High Score Hunter (Before, Key 200): this game's High Score is 200 lower for you."""
    state = table(2)
    (card,) = give(state, 0, "high_score_hunter")
    state = at_highway_hop(state)
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    assert GAME.view(state, 0)["play"]["high_score_target"] == 1000
    state = rolled(state, 300, 300, 300, game_face="+100")
    state, events = act(state, 0, {"type": "done"})
    assert state["players"][0]["prizes"] == 1 and "HIGH SCORE!" in texts(events)


# --- After ----------------------------------------------------------------------------------
def test_do_over_rerolls_the_chosen_dice_once():
    """Do-Over (After, Key 100): reroll any of your Scoring dice once; the new results stand."""
    state = table(2)
    (card,) = give(state, 0, "do_over")
    state = rolled(at_highway_hop(state), 0, 300, 0)
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    assert state["play"]["step"] == "marking"
    state, _ = act(state, 0, {"type": "mark_die", "die": 0})
    state, _ = act(state, 0, {"type": "mark_die", "die": 2})
    assert {"type": "mark_die", "die": 0} not in GAME.legal_moves(state, 0)
    state, events = act(state, 0, {"type": "reroll"}, Scripted(die(200), die(0)))
    assert state["play"]["dice"] == [200, 300, 0]
    assert "Red rerolls 2 Scoring dice: 200, 300, 0" in texts(events)


def test_turbo_turns_a_die_to_300():
    """Turbo (After, Key 200): turn one of your Scoring dice to 300."""
    state = table(2)
    (card,) = give(state, 0, "turbo")
    state = rolled(at_highway_hop(state), 0, 100, 0)
    state, _ = act(state, 0, {"type": "play_card", "card": card, "die": 2})
    assert state["play"]["dice"] == [0, 100, 300]


def test_lucky_charm_ignores_a_bomb_or_minus_100():
    """Lucky Charm (After, Key 150): ignore a -100 or Bomb Game die result."""
    state = table(2)
    (card,) = give(state, 0, "lucky_charm")
    state = rolled(at_highway_hop(state), 300, 100, 0, game_face="+100")
    assert not card_move(GAME.legal_moves(state, 0), card)
    state = table(2)
    (card,) = give(state, 0, "lucky_charm")
    state = rolled(at_highway_hop(state), 300, 100, 0, game_face="bomb")
    assert GAME.view(state, 0)["play"]["score"] == 100
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    assert GAME.view(state, 0)["play"]["score"] == 400


def test_combo_breaker_doubles_a_plus_result():
    """Combo Breaker (After, Key 200): double a +100 or +200 Game die result."""
    state = table(2)
    (card,) = give(state, 0, "combo_breaker")
    state = rolled(at_highway_hop(state), 100, 100, 0, game_face="+200")
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    assert GAME.view(state, 0)["play"]["score"] == 600


def test_cheat_code_sets_the_game_die_and_a_chosen_heart_works():
    """Cheat Code (After, Key 300): turn the Game die to any face (a chosen Heart works
    normally)."""
    state = table(2)
    (card,) = give(state, 0, "cheat_code")
    state = rolled(at_highway_hop(state), 100, 100, 0, game_face="bomb")
    state, _ = act(state, 0, {"type": "play_card", "card": card, "face": "heart"})
    assert {"type": "take_life"} in GAME.legal_moves(state, 0)
    state, _ = act(state, 0, {"type": "take_life"}, Scripted(die(300), face("+200")))
    assert state["play"]["dice"] == [100, 100, 0, 300]
    assert GAME.view(state, 0)["play"]["score"] == 700


def test_second_wind_rolls_a_failed_level_again():
    """Second Wind (After, Premium, Key 100): if you fail a Level, roll that Level once more."""
    state = table(2)
    (card,) = give(state, 0, "second_wind")
    state, _ = act(state, 0, {"type": "move_to", "spot": 3})  # Bug Blaster L1 350
    state = rolled(state, 0, 0, 100, game_face="+100")
    assert card_move(GAME.legal_moves(state, 0), card)
    state, events = act(state, 0, {"type": "play_card", "card": card}, roll(300, 100, 0))
    assert state["play"]["dice"] == [300, 100, 0] and state["play"]["level"] == 1
    assert "Red plays Second Wind and rolls Level 1 again." in texts(events)


def test_two_second_winds_roll_a_failed_level_twice_more():
    """Second Wind: "If you fail a Level, roll that Level once more" (each card), and the
    rulebook: "there's no limit to the number of Power cards you can play on your turn"."""
    state = table(2)
    first, second = give(state, 0, "second_wind", "second_wind")
    state, _ = act(state, 0, {"type": "move_to", "spot": 3})  # Bug Blaster L1 350
    state = rolled(state, 0, 0, 100, game_face="+100")  # 200 < 350
    state, _ = act(state, 0, {"type": "play_card", "card": first}, roll(0, 100, 0))  # 200
    assert card_move(GAME.legal_moves(state, 0), second)
    state, events = act(state, 0, {"type": "play_card", "card": second}, roll(300, 100, 0))
    assert state["play"]["dice"] == [300, 100, 0] and state["play"]["level"] == 1
    assert state["players"][0]["hand"] == []


def test_second_wind_is_not_offered_on_a_standard_game():
    """Second Wind: "After (Premium)"."""
    state = table(2)
    (card,) = give(state, 0, "second_wind")
    state = rolled(at_highway_hop(state), 0, 0, 0)
    assert not card_move(GAME.legal_moves(state, 0), card)


def test_ticket_bonanza_adds_two_tickets_to_ticket_winnings():
    """Ticket Bonanza (After, Key 100): if your winnings include tickets, take 2 more."""
    state = table(2)
    (card,) = give(state, 0, "ticket_bonanza")
    state = rolled(at_highway_hop(state), 200, 100, 0, game_face="+100")  # 400: 1T
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    state, _ = act(state, 0, {"type": "done"})
    assert state["players"][0]["tickets"] == 3


# --- Start of turn / your turn ----------------------------------------------------------------
def test_favorite_cabinet_lets_you_stay():
    """Favorite Cabinet (Start of your turn, Key 100): stay and play the game at your spot."""
    state = table(2)
    state["players"][0]["spot"] = 0
    (card,) = give(state, 0, "favorite_cabinet")
    assert {"type": "move_to", "spot": 0} not in GAME.legal_moves(state, 0)
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    state, events = act(state, 0, {"type": "move_to", "spot": 0})
    assert state["play"]["card"] == 1 and state["players"][0]["tokens"] == 9


def test_free_play_costs_no_token_but_marks_the_card():
    """Free Play (Start of your turn, Key 100): play without paying a token (the card still
    gets a play marker)."""
    state = table(2)
    (card,) = give(state, 0, "free_play")
    state, _ = act(state, 0, {"type": "play_card", "card": card})
    state = rolled(at_highway_hop(state), 0, 0, 0)
    state, _ = act(state, 0, {"type": "done"})
    assert state["players"][0]["tokens"] == 10 and state["arcade"][0]["plays"] == 1


def test_out_of_order_blocks_a_card_until_your_next_turn():
    """Out of Order (Your turn, Key 100): place it on an unoccupied Games card: nobody may move
    there until the start of your next turn."""
    state = table(2)
    (card,) = give(state, 0, "out_of_order")
    state, events = act(state, 0, {"type": "play_card", "card": card, "spot": 4})
    assert "nobody may move there" in texts(events)
    state = rolled(at_highway_hop(state), 0, 0, 0)
    state, _ = act(state, 0, {"type": "done"})
    assert 4 not in [m["spot"] for m in GAME.legal_moves(state, 1) if m["type"] == "move_to"]
    assert GAME.view(state, 1)["arcade"][4]["blocked_by"] == 0
    state, _ = act(state, 1, {"type": "move_to", "spot": 1})
    state = dict(state)
    state, _ = act(state, 1, {"type": "roll"}, roll(0, 0, 0))
    state, _ = act(state, 1, {"type": "done"})
    # Power Up, then round 2: the pizza passes to Blue; Red's turn lifts the sign.
    for seat in (0, 1):
        state, _ = act(state, seat, {"type": "done"}, Dice("x", 9))
    assert state["blocked"] == {"4": 0}
    state, _ = act(state, 1, {"type": "move_to", "spot": 2}, Dice("y", 1))
    state, _ = act(state, 0, {"type": "answer", "accept": False}, Dice("y", 2))  # Tbob Versus
    state, _ = act(state, 1, {"type": "roll"}, Dice("y", 3))
    while state["play"] is not None or state["question"] is not None:
        seat = sorted(GAME.active_seats(state))[0]
        move = {"type": "done"} if seat == 1 else {"type": "answer", "accept": False}
        state, _ = act(state, seat, move, Dice("y", 4))
    assert state["blocked"] == {}


# --- Key ------------------------------------------------------------------------------------
def test_a_key_spends_a_card_for_its_key_value():
    """H5: "Key: you may discard one Power card from hand to add its Key value (upper-left
    number) to the score; cards without a Key value cannot be used this way"."""
    state = table(2)
    cheat, tournament = give(state, 0, "cheat_code", "all_play_tournament")
    state = rolled(at_highway_hop(state), 100, 100, 0, game_face="key")
    moves = GAME.legal_moves(state, 0)
    assert {"type": "use_key", "card": cheat} in moves
    assert {"type": "use_key", "card": tournament} not in moves
    state, events = act(state, 0, {"type": "use_key", "card": cheat})
    assert GAME.view(state, 0)["play"]["score"] == 500
    assert state["players"][0]["hand"] == [tournament]
    assert "Red spends Cheat Code on the Key for 300 points: 500." in texts(events)
    assert not any(m["type"] == "use_key" for m in GAME.legal_moves(state, 0))


def test_the_heart_is_optional_adds_a_die_beyond_the_cap_and_rerolls_the_game_die():
    """Rulebook GAME DIE Heart: "the option to roll 1 extra Scoring die ... also reroll the
    Game die"; H5: not limited by the 9-die cap; another Heart may chain."""
    state = table(2)
    for column in ("joystick", "driving", "classic"):
        state["players"][0]["cubes"][column] = 5
    state = rolled(at_highway_hop(state), *[0] * 9, game_face="heart")
    assert {"type": "done"} in GAME.legal_moves(state, 0)  # optional
    state, _ = act(state, 0, {"type": "take_life"}, Scripted(die(100), face("heart")))
    assert len(state["play"]["dice"]) == 10
    state, _ = act(state, 0, {"type": "take_life"}, Scripted(die(300), face("+100")))
    assert len(state["play"]["dice"]) == 11 and GAME.view(state, 0)["play"]["score"] == 500


def test_the_hearts_extra_die_counts_only_for_its_level():
    """Premium: the Heart "applies only to your current Level roll"."""
    state = table(2)
    state, _ = act(state, 0, {"type": "move_to", "spot": 3})
    state = rolled(state, 300, 300, 0, game_face="heart")
    state, _ = act(state, 0, {"type": "take_life"}, Scripted(die(0), face("+100")))
    assert len(state["play"]["dice"]) == 4
    state, _ = act(state, 0, {"type": "done"}, roll(0, 0, 0))
    assert len(state["play"]["dice"]) == 3


# --- Instant ----------------------------------------------------------------------------------
def _deck(state, *kinds):
    from jh_factories import card_of

    state["power_deck"] = [card_of(k) for k in kinds]


def test_all_play_tournament_is_revealed_queued_and_replaced():
    """H11: "When drawn (any time after setup) it is revealed and discarded, its drawer draws a
    replacement, and a tournament is queued"."""
    state = table(2)
    _deck(state, "all_play_tournament", "turbo")
    events = []
    draw_power_card(state, 0, Dice("t", 1), events)
    assert state["tournaments_queued"] == 1
    assert [c[0] for c in state["players"][0]["hand"]] == ["P"] and len(
        state["players"][0]["hand"]
    ) == 1
    assert "Red draws an All-Play Tournament!" in texts(events)


def test_all_play_tournament_at_setup_goes_back_into_the_deck():
    """Setup 3: "If you get an All-Play Tournament card, insert it randomly back into the deck
    and draw again"."""
    state = table(2)
    _deck(state, "all_play_tournament", "turbo")
    events = []
    draw_power_card(state, 0, Scripted(1), events, at_setup=True)
    assert state["tournaments_queued"] == 0
    assert len(state["power_deck"]) == 1 and len(state["players"][0]["hand"]) == 1


def test_on_the_button_takes_the_pizza_slice():
    """H12: "the drawer takes the pizza slice immediately (she will start the next round),
    discards the card and draws a replacement"."""
    state = table(2)
    _deck(state, "on_the_button", "turbo")
    events = []
    draw_power_card(state, 1, Dice("t", 1), events)
    assert state["pizza"] == 1 and state["pizza_claimed"] is True
    assert len(state["players"][1]["hand"]) == 1
    assert "Blue draws On The Button and takes the pizza slice" in texts(events)


def test_on_the_button_means_the_slice_is_not_passed_on():
    """H12 with the rulebook's "pass the pizza slice clockwise to begin the next round"."""
    state = table(3)
    state["pizza"], state["pizza_claimed"] = 2, True
    from app.games.joystick_heroes.flow import new_round

    new_round(state, Dice("n", 1), [])
    assert state["pizza"] == 2 and state["order"] == [2, 0, 1]
    state["pizza_claimed"] = False
    new_round(state, Dice("n", 2), [])
    assert state["pizza"] == 0


@pytest.mark.parametrize("kind", ["tilt", "ticket_thief"])
def test_reaction_cards_are_not_played_on_your_own_turn(kind):
    """Reaction cards (Ticket Thief, Tilt!) "are played on other players' turns" (H13)."""
    state = table(2)
    (card,) = give(state, 0, kind)
    state = rolled(at_highway_hop(state), 0, 0, 0)
    assert not any(
        m.get("card") == card and m["type"] == "play_card" for m in GAME.legal_moves(state, 0)
    )


def test_discard_at_will_during_play():
    """Rulebook: "If you ever wind up with a card in your hand that you don't want, simply
    discard it during a PLAY Phase"; H13."""
    state = table(2)
    (card,) = give(state, 0, "coupon")
    state, events = act(state, 0, {"type": "discard", "card": card})
    assert state["players"][0]["hand"] == [] and state["power_discard"] == [card]
    assert "Red discards Coupon." in texts(events)


def test_no_limit_to_cards_played_on_a_turn():
    """All About Power Cards: "there's no limit to the number of Power cards you can play"."""
    state = table(2)
    a, b = give(state, 0, "extra_quarter", "extra_quarter")
    state = at_highway_hop(state)
    state, _ = act(state, 0, {"type": "play_card", "card": a})
    state, _ = act(state, 0, {"type": "play_card", "card": b})
    assert GAME.view(state, 0)["play"]["dice_count"] == 5


def test_a_card_not_in_hand_cannot_be_played():
    state = table(2)
    give(state, 1, "extra_quarter")
    card = state["players"][1]["hand"][0]
    state = at_highway_hop(state)
    with pytest.raises(IllegalMove):
        act(state, 0, {"type": "play_card", "card": card})


def test_out_of_order_may_be_played_after_moving_on_the_spot_just_left():
    """Out of Order's timing is "Your turn" (Favorite Cabinet and Free Play say "Start of your
    turn"): after moving, before or after the roll, a sign may go on any unoccupied card,
    the spot just left included."""
    state = table(2)
    state["players"][0]["spot"] = 4
    state["players"][1]["spot"] = 2
    (card,) = give(state, 0, "out_of_order")
    state = at_highway_hop(state)  # Red leaves spot 4 for spot 0
    before = GAME.legal_moves(state, 0)
    assert card_move(before, card, spot=4)
    assert not card_move(before, card, spot=0) and not card_move(before, card, spot=2)
    state = rolled(state, 100, 100, 100)
    state, events = act(state, 0, {"type": "play_card", "card": card, "spot": 4})
    assert state["blocked"] == {"4": 0}
    assert "Red puts Out of Order on spot 5" in texts(events)


def test_out_of_order_is_not_played_in_a_tournament():
    """A tournament play is nobody's turn: Out of Order ("Your turn") waits."""
    from test_powerup_and_end import DONE, tournament_table

    state = tournament_table()
    (card,) = give(state, 0, "out_of_order")
    state, _ = act(state, 0, DONE)
    state, _ = act(state, 1, DONE, Scripted())
    assert state["play"]["context"] == "tournament"
    assert not any(
        m.get("card") == card for m in GAME.legal_moves(state, 0) if m["type"] == "play_card"
    )


def test_a_sign_put_up_during_a_versus_challenge_outlasts_the_challengers_slot():
    """H9: the challenge "is her turn for the round", so her sign stays "until the start of
    your next turn", not until her (skipped) slot later in the same round."""
    state = table(3)
    (card,) = give(state, 2, "out_of_order")
    state, _ = act(state, 0, {"type": "move_to", "spot": 2})  # Tbob: Versus
    state, _ = act(state, 1, {"type": "answer", "accept": False})
    state, _ = act(state, 2, {"type": "answer", "accept": True})
    state, _ = act(state, 0, {"type": "roll"}, roll(100, 100, 100))
    state, _ = act(state, 2, {"type": "answer", "accept": False})  # the Tilt! question
    state, _ = act(state, 0, {"type": "done"})
    assert state["play"]["seat"] == 2
    state, _ = act(state, 2, {"type": "play_card", "card": card, "spot": 5})
    state, _ = act(state, 2, {"type": "roll"}, roll(100, 100, 100))
    state, _ = act(state, 2, {"type": "done"})
    state, _ = act(state, 1, {"type": "move_to", "spot": 0})
    state, _ = act(state, 1, {"type": "roll"}, roll(100, 100, 100))
    state, _ = act(state, 1, {"type": "done"})
    # Green's slot came and went (she had played): the sign is still up for the Power Up.
    assert state["phase"] == "powerup" and state["blocked"] == {"5": 2}
