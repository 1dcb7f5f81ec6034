"""POWER UP (rulebook; H13, H14), All-Play Tournaments (H11), game end and tie-breaks (H15),
"Continue?" (H16) and Solo mode (H17)."""

from __future__ import annotations

import pytest
from jh_factories import GAME, Scripted, act, card_of, give, roll, table, texts

from app.engine.contract import IllegalMove
from app.engine.dice import Dice
from app.games.joystick_heroes.content import kind_of
from app.games.joystick_heroes.flow import end_play_phase, finish_game

DONE = {"type": "done"}


def powerup(players=2, last_game=1, tickets=10):
    state = table(players)
    for p in state["players"]:
        p["last_game"] = last_game
        p["tickets"] = tickets
        p["played"] = True
    state["turn"] = None
    end_play_phase(state, Dice("p", 1), [])
    return state


def test_power_up_is_simultaneous():
    """POWER UP: "it's time for all players to simultaneously POWER UP" (H14)."""
    state = powerup(3)
    assert GAME.active_seats(state) == {0, 1, 2}


def test_cubes_only_in_the_last_games_columns_at_3_and_2_tickets():
    """POWER UP: cubes "for any of the skillz or the genre from your most recent game ...
    skillz costs 3 tickets ... genre costs 2 tickets"; Prizes cost 5 (H14)."""
    state = powerup(tickets=10)  # last game Highway Hop: Joystick, Driving, Classic
    buys = [m["item"] for m in GAME.legal_moves(state, 0) if m["type"] == "buy"]
    assert buys == ["joystick", "driving", "classic", "prize"]
    state, _ = act(state, 0, {"type": "buy", "item": "joystick"})
    state, _ = act(state, 0, {"type": "buy", "item": "classic"})
    cart = GAME.view(state, 0)["cart"]
    assert (cart["spent"], cart["left"]) == (5, 5)
    state, _ = act(state, 0, {"type": "buy", "item": "prize"})
    assert GAME.view(state, 0)["cart"]["left"] == 0
    assert [m["type"] for m in GAME.legal_moves(state, 0)] == ["undo", "done"]


def test_no_cubes_before_a_first_game():
    """H14: only in the 3 columns of the player's most recent game."""
    state = powerup(last_game=None)
    assert [m["item"] for m in GAME.legal_moves(state, 0) if m["type"] == "buy"] == ["prize"]


def test_a_column_holds_at_most_five_cubes():
    """H3: "Each column holds at most 5 cubes"."""
    state = powerup(tickets=30)
    state["players"][0]["cubes"]["classic"] = 4
    state, _ = act(state, 0, {"type": "buy", "item": "classic"})
    assert {"type": "buy", "item": "classic"} not in GAME.legal_moves(state, 0)


def test_purchases_stay_hidden_until_everyone_is_done_then_apply_together():
    """H14: "every player submits a shopping list and the server applies them together"."""
    state = powerup()
    state, _ = act(state, 0, {"type": "buy", "item": "prize"})
    assert GAME.view(state, 1)["cart"]["actions"] == []
    assert '"buy"' not in __import__("json").dumps(GAME.view(state, 1))
    assert GAME.view(state, 0)["cart"]["prizes"] == 1
    state, events = act(state, 0, DONE)
    assert state["players"][0]["prizes"] == 0 and GAME.active_seats(state) == {1}
    assert GAME.view(state, 1)["players"][0]["done"] is True
    state, events = act(state, 1, {"type": "buy", "item": "driving"})
    state, events = act(state, 1, DONE, Dice("q", 1))
    assert (state["players"][0]["prizes"], state["players"][0]["tickets"]) == (1, 5)
    assert (state["players"][1]["cubes"]["driving"], state["players"][1]["tickets"]) == (2, 7)
    assert "Red buys 1 Prize for 5 tickets." in texts(events)
    assert "Blue buys 1 Driving cube for 3 tickets." in texts(events)


def test_undo_takes_back_the_last_purchase():
    state = powerup()
    state, _ = act(state, 0, {"type": "buy", "item": "prize"})
    state, _ = act(state, 0, {"type": "undo"})
    assert GAME.view(state, 0)["cart"]["spent"] == 0


def test_coupon_makes_the_next_purchase_one_ticket_cheaper():
    """Coupon (Power Up, Key 100): your next cube or Prize this phase costs 1 ticket less."""
    state = powerup(tickets=4)
    (coupon,) = give(state, 0, "coupon")
    assert {"type": "buy", "item": "prize"} not in GAME.legal_moves(state, 0)
    state, _ = act(state, 0, {"type": "use_coupon", "card": coupon})
    state, _ = act(state, 0, {"type": "buy", "item": "prize"})
    assert GAME.view(state, 0)["cart"]["spent"] == 4
    state, _ = act(state, 0, DONE)
    state, events = act(state, 1, DONE, Dice("c", 1))
    assert state["players"][0]["prizes"] == 1 and coupon in state["power_discard"]
    assert coupon not in state["players"][0]["hand"]


def test_draw_one_free_card_when_holding_fewer_than_three():
    """POWER UP: "If you have less than 3 Power cards, draw 1 for free" (H13)."""
    state = powerup()
    give(state, 1, "turbo", "turbo", "coupon")
    state["power_deck"] = [card_of("do_over"), card_of("do_over", 1)]
    state, _ = act(state, 0, DONE)
    state, events = act(state, 1, DONE, Dice("d", 1))
    assert len(state["players"][0]["hand"]) == 1 and len(state["players"][1]["hand"]) == 3
    draw = [e for e in events if e["type"] == "draw_secret"]
    assert draw and draw[0]["only"] == [0]


def test_the_next_round_passes_the_pizza_clockwise():
    """POWER UP: "if players still have tokens, pass the pizza slice clockwise"."""
    state = powerup()
    state, _ = act(state, 0, DONE)
    state, events = act(state, 1, DONE, Dice("r", 1))
    assert state["round"] == 2 and state["pizza"] == 1 and GAME.active_seats(state) == {1}
    assert "Round 2: Blue has the pizza slice and plays first." in texts(events)


def test_prizes_are_recorded_per_round_for_the_end_chart():
    state = powerup()
    state, _ = act(state, 0, {"type": "buy", "item": "prize"})
    state, _ = act(state, 0, DONE)
    state, _ = act(state, 1, DONE, Dice("r", 1))
    assert state["history"] == [{"round": 1, "prizes": [1, 0]}]


# --- tournaments --------------------------------------------------------------------------------
def tournament_table(players=2, **options):
    state = table(players, options=options)
    for p in state["players"]:
        p["played"] = True
    state["turn"] = None
    end_play_phase(state, Dice("p", 1), [])
    state["tournaments_queued"] = 1
    state["games_deck"] = [3, 6, 1, 2]  # two gold cards, then Highway Hop
    state["power_deck"] = []  # no Power card draws in the way of the scripted dice
    return state


def test_a_queued_tournament_plays_the_next_silver_card_for_free():
    """H11: "reveal deck cards until a Standard (silver) card appears (skipped gold cards go to
    the bottom); every player plays it free in turn order from the pizza slice"."""
    state = tournament_table()
    state, _ = act(state, 0, DONE)
    state, events = act(state, 1, DONE, Scripted())
    assert state["phase"] == "tournament" and state["tournament"]["card"] == 1
    assert state["games_deck"] == [2, 3, 6]
    assert state["play"]["seat"] == 0 and state["play"]["context"] == "tournament"
    assert "All-Play Tournament on Highway Hop" in texts(events)
    assert state["players"][0]["tokens"] == 10


def test_the_tournament_winner_takes_a_bonus_prize_and_winnings():
    """Rulebook: "Everybody plays it for free in turn order and gets their winnings, and the
    top scorer wins 1 bonus Prize"; H7: tournament plays add no markers."""
    state = tournament_table()
    state, _ = act(state, 0, DONE)
    state, _ = act(state, 1, DONE, Scripted())
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 300, 0))  # 700: 3T
    state, _ = act(state, 0, DONE)
    state, _ = act(state, 1, {"type": "roll"}, roll(0, 100, 0))  # 200
    state, events = act(state, 1, DONE, Scripted())
    assert (state["players"][0]["prizes"], state["players"][0]["tickets"]) == (1, 3)
    assert "Red wins the tournament with 700 and takes 1 bonus Prize." in texts(events)
    assert state["games_discard"][-1] == 1 and state["phase"] == "play"
    assert all(spot["plays"] == 0 for spot in state["arcade"])


def test_a_tournament_tie_is_replayed_among_the_tied():
    """Rulebook: "In case of a tie, the top scorers replay to decide the winner" (H11)."""
    state = tournament_table(3)
    for seat in range(3):
        state, _ = act(state, seat, DONE, Scripted())
    for seat, dice in ((0, (300, 0, 0)), (1, (300, 0, 0)), (2, (0, 0, 0))):
        state, _ = act(state, seat, {"type": "roll"}, roll(*dice))
        state, events = act(state, seat, DONE)
    assert "Red and Blue tie at 400 and replay." in texts(events)
    assert state["tournament"]["entrants"] == [0, 1] and state["play"]["context"] == "tiebreak"
    tickets = state["players"][0]["tickets"]
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0))
    state, _ = act(state, 0, DONE)
    state, _ = act(state, 1, {"type": "roll"}, roll(100, 0, 0))
    state, events = act(state, 1, DONE, Scripted())
    assert state["players"][1]["prizes"] == 1
    assert state["players"][0]["tickets"] == tickets  # replays decide, they pay nothing


def test_skip_tournaments_option_just_replaces_the_card():
    """H11: "Lobby option: skip tournaments (rulebook allows it): the card is just replaced"."""
    from app.games.joystick_heroes.decks import draw_power_card

    state = table(2, options={"skip_tournaments": True})
    state["power_deck"] = [card_of("all_play_tournament"), card_of("turbo")]
    events = []
    draw_power_card(state, 0, Dice("s", 1), events)
    assert state["tournaments_queued"] == 0 and len(state["players"][0]["hand"]) == 1
    assert "tournaments are skipped at this table" in texts(events)


def test_options_default_to_the_standard_game():
    """Lobby options: "Continue?" and skip tournaments, both off by default."""
    options = GAME.parse_options({})
    assert options.model_dump() == {"continue_rule": False, "skip_tournaments": False}
    schema = GAME.options_schema()
    assert set(schema["properties"]) == {"continue_rule", "skip_tournaments"}


# --- the end --------------------------------------------------------------------------------------
def test_when_all_are_out_of_tokens_the_final_power_up_draws_no_cards():
    """Game Over: "Do the final POWER UP phase without drawing new Power cards" (H15)."""
    state = table(2)
    for p in state["players"]:
        p["tokens"] = 0
        p["played"] = True
    state["turn"] = None
    events = []
    end_play_phase(state, Dice("e", 1), events)
    assert state["powerup"]["final"] is True
    assert "the arcade closes" in texts(events)
    state["players"][0]["prizes"] = 3
    state, _ = act(state, 0, DONE)
    state, events = act(state, 1, DONE)
    assert not any(e["type"] == "draw" for e in events)
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.scores == {0: 3, 1: 0}
    assert "Red is the new Joystick Hero" in outcome.reason


def test_the_game_ends_only_after_a_play_phase_where_everyone_is_out():
    """H15: "After a PLAY phase in which every player has 0 tokens"."""
    state = table(2)
    state["players"][1]["tokens"] = 1
    state["turn"] = None
    end_play_phase(state, Dice("e", 1), [])
    assert state["powerup"]["final"] is False


def test_a_prize_tie_goes_to_the_most_tickets():
    """Game Over: "If there's a tie, the tied player with the most tickets wins"."""
    state = table(3)
    for seat, (prizes, tickets) in enumerate([(4, 1), (4, 3), (2, 9)]):
        state["players"][seat]["prizes"] = prizes
        state["players"][seat]["tickets"] = tickets
    finish_game(state, Dice("f", 1), [])
    assert GAME.outcome(state).winners == (1,)


def test_the_fewest_prizes_make_the_joystick_zero():
    """Game Over: "The player with the most is the new Joystick Hero! The player with the least
    is the Joystick Zero. Everyone else... just played." """
    state = table(3)
    for seat, prizes in enumerate([5, 1, 3]):
        state["players"][seat]["prizes"] = prizes
    events: list = []
    finish_game(state, Dice("f", 1), events)
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.details["joystick_zero"] == [1]
    assert (
        outcome.reason == "Red is the new Joystick Hero, with the most Prizes! Blue is the "
        "Joystick Zero."
    )


def test_a_full_tie_is_settled_by_a_sudden_death_tournament():
    """Game Over: "those players draw the next Standard (silver) Games card and compete in one
    final, after-hours, winner-take-all tournament" (H15)."""
    state = table(3)
    for seat, (prizes, tickets) in enumerate([(4, 3), (1, 0), (4, 3)]):
        state["players"][seat]["prizes"] = prizes
        state["players"][seat]["tickets"] = tickets
    state["turn"] = None
    state["games_deck"] = [1, 2]
    finish_game(state, Scripted(), [])
    assert state["phase"] == "tournament" and state["tournament"]["kind"] == "sudden_death"
    assert state["tournament"]["entrants"] == [0, 2]
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0))
    state, _ = act(state, 0, DONE)
    state, _ = act(state, 2, {"type": "roll"}, roll(300, 0, 0))
    state, events = act(state, 2, DONE)
    outcome = GAME.outcome(state)
    assert outcome.winners == (2,) and state["players"][2]["prizes"] == 4
    assert "Green wins the after-hours tournament with 400!" in texts(events)


def test_a_tie_with_no_silver_card_left_is_shared():
    """General ruling: no tie-break left means a shared win."""
    state = table(2)
    state["games_deck"], state["games_discard"] = [3], []
    state["arcade"] = [{"card": 6, "plays": 0}]
    finish_game(state, Scripted(), [])
    assert GAME.outcome(state).winners == (0, 1)


# --- Continue? ---------------------------------------------------------------------------------
def test_continue_is_offered_only_with_the_option():
    """Continue? (optional): "players may mutually agree to use" it (H16)."""
    state = table(2)
    state["players"][0]["tickets"] = 5
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0))
    assert {"type": "continue_game"} not in GAME.legal_moves(state, 0)


def test_continue_costs_two_tickets_and_adds_one_die_and_the_game_die_once():
    """Continue?: "discard 2 tickets ... roll 1 Scoring die plus the Game die and add the
    results to your game or Level 3 score"; H16: once per play."""
    state = table(2, options={"continue_rule": True})
    state["players"][0]["tickets"] = 5
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 300, 200, game_face="+100"))  # 900
    state, events = act(state, 0, {"type": "continue_game"}, roll(300, game_face="+100"))
    assert state["players"][0]["tickets"] == 3
    assert GAME.view(state, 0)["play"]["score"] == 1300
    assert {"type": "continue_game"} not in GAME.legal_moves(state, 0)
    state, events = act(state, 0, DONE)
    assert "HIGH SCORE!" in texts(events)


def test_continue_on_a_premium_game_only_for_level_three():
    """H16: "(Premium: only to the Level 3 score)"."""
    state = table(2, options={"continue_rule": True})
    state["players"][0]["tickets"] = 5
    state, _ = act(state, 0, {"type": "move_to", "spot": 3})
    state, _ = act(state, 0, {"type": "roll"}, roll(300, 300, 0))
    assert {"type": "continue_game"} not in GAME.legal_moves(state, 0)
    state, _ = act(state, 0, DONE, roll(300, 300, 0))
    state, _ = act(state, 0, DONE, roll(300, 0, 0))
    assert state["play"]["level"] == 3
    assert {"type": "continue_game"} in GAME.legal_moves(state, 0)


def test_continue_needs_two_tickets():
    state = table(2, options={"continue_rule": True})
    state["players"][0]["tickets"] = 1
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    state, _ = act(state, 0, {"type": "roll"}, roll(0, 0, 0))
    with pytest.raises(IllegalMove):
        act(state, 0, {"type": "continue_game"})


# --- Solo -------------------------------------------------------------------------------------
def test_solo_has_a_four_card_arcade_and_no_other_player_cards():
    """Solo Mode: "create a 4-Game arcade ... remove the Ticket Thief, All-Play Tournament, and
    On The Button Power cards"; H17 also removes Out of Order and Tilt!."""
    state = GAME.setup(1, GAME.parse_options({}), Dice("solo", 0))
    assert len(state["arcade"]) == 4
    cards = [*state["power_deck"], *state["players"][0]["hand"]]
    kinds = {kind_of(c) for c in cards}
    removed = {"ticket_thief", "all_play_tournament", "on_the_button", "out_of_order", "tilt"}
    assert not kinds & removed
    assert len(cards) == 44 - 2 - 3 - 2 - 2 - 2


def test_solo_score_is_the_prizes_collected():
    """H17: "Score = Prizes collected"."""
    state = table(1)
    state["players"][0]["prizes"] = 7
    finish_game(state, Dice("f", 1), [])
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.scores == {0: 7}
    assert "7 Prizes" in outcome.reason


def test_solo_never_asks_for_versus_or_coop():
    state = table(1, arcade=[5, 3, 1, 2])
    state, _ = act(state, 0, {"type": "move_to", "spot": 0})
    assert state["question"] is None and state["play"]["seat"] == 0
    assert not any(m["type"] == "ask_coop" for m in GAME.legal_moves(state, 0))


def test_two_tournaments_drawn_mean_two_tournaments_and_empty_pockets_still_play():
    """H11: "(two drawn = two tournaments)"; "If a player has no tokens left she still plays
    (it is free)"."""
    state = tournament_table()
    state["tournaments_queued"] = 2
    state["players"][1]["tokens"] = 0
    state["games_deck"] = [1, 2]
    state, _ = act(state, 0, DONE)
    state, _ = act(state, 1, DONE, Scripted())
    for card, first_dice in ((1, (300, 0, 0)), (2, (300, 300, 0))):
        assert state["tournament"]["card"] == card
        state, _ = act(state, 0, {"type": "roll"}, roll(*first_dice))
        state, _ = act(state, 0, DONE)
        assert state["play"]["seat"] == 1  # no tokens, still plays
        state, _ = act(state, 1, {"type": "roll"}, roll(0, 0, 0))
        state, _ = act(state, 1, DONE, Scripted())
    assert state["players"][0]["prizes"] == 2 and state["phase"] == "play"


def test_on_the_button_at_setup_is_followed_and_replaced():
    """Setup 3: "If you get an On The Button card, follow the instructions and draw again";
    H12: "that player starts round 1 (if two players draw it at setup, the later one keeps the
    slice)"."""
    from app.games.joystick_heroes.decks import draw_power_card

    state = table(3)
    state["power_deck"] = [
        card_of("on_the_button"),
        card_of("turbo"),
        card_of("on_the_button", 1),
        card_of("coupon"),
    ]
    draw_power_card(state, 1, Scripted(), [], at_setup=True)
    draw_power_card(state, 2, Scripted(), [], at_setup=True)
    assert state["pizza"] == 2
    assert [len(p["hand"]) for p in state["players"]] == [0, 1, 1]


def test_an_empty_power_deck_is_reshuffled_from_the_discards():
    """H13: "Deck empty: reshuffle discards"."""
    from app.games.joystick_heroes.decks import draw_power_card

    state = table(2)
    state["power_deck"], state["power_discard"] = [], [card_of("turbo")]
    events = []
    draw_power_card(state, 0, Scripted(), events)
    assert state["players"][0]["hand"] == [card_of("turbo")] and state["power_discard"] == []
    assert "The Power discards are shuffled into a new deck." in texts(events)


def test_a_full_hand_draws_nothing():
    """Rulebook: 3 cards is "the max you can have at a given time" (H13)."""
    state = powerup()
    give(state, 0, "turbo", "coupon", "do_over")
    state, _ = act(state, 0, DONE)
    state, _ = act(state, 1, DONE, Dice("f", 1))
    assert len(state["players"][0]["hand"]) == 3
