"""C64 Trains: rulebook "C64 Trains" with rulings C2-C4 (docs/rules/families/c64-board-rulings.md)
and C9 (docs/rules/c64-trains.md).

Scenarios use `trains_state`: 3 players by default, seat 0 = Red (S, Player 1, starts at
(0,0)), seat 1 = Blue (W, (0,8)), seat 2 = Green (N, (8,8)), with 4 players seat 3 = Yellow
(E, (8,0)). `act(state, seat, face)` gives the seat a card showing `face` and plays it.
"""

from __future__ import annotations

import json

import pytest
from c64_factories import dice, joystick
from c64_scenarios import nobody_moves_after_the_end, public_view, registered
from trains_factories import TRAINS, act, fresh_trains, rails_along, take_turn, trains_state

from app.engine.contract import Outcome
from app.games.c64.geometry import ABSOLUTE, DELTA
from app.games.c64.trains import connections, scores


def fifteen_rails(start=(0, 0)):
    """15 distinct rails: a walk north x7, east x1, south x7 from `start`."""
    return rails_along(start, "NNNNNNNESSSSSSS")


def unchanged_except_turn(before, after, seat):
    """A card with no effect: train, rails and stations stay; the card is spent (C4)."""
    for key in ("point", "rails", "stations"):
        assert after["players"][seat][key] == before["players"][seat][key]
    assert after["joysticks"][seat]["tilted"] is not None
    assert after["turn"] != seat


# --- the game and its set-up ------------------------------------------------------------------
def test_trains_is_registered_with_its_metadata():
    """docs/rules/README.md: c64-trains, "C64 Trains", 3-4 seats (rulebook "C64 Trains (3-4
    players)"); chance from the shuffle and the draw, nothing hidden."""
    registered("c64-trains", "C64 Trains", (3, 4))


@pytest.mark.parametrize("players", [3, 4])
def test_setup_puts_each_train_on_its_left_corner_grid_point(players):
    """Rulebook: "Setup: Empty board, 1 train in each player's left corner grid point, 3 discs
    and 16 sticks (rails) per player." C2: left corner points S (0,0), W (0,8), N (8,8),
    E (8,0)."""
    state = fresh_trains(players)
    corner = {"S": [0, 0], "W": [0, 8], "N": [8, 8], "E": [8, 0]}
    for p in state["players"]:
        assert p["point"] == corner[p["side"]]
        assert p["rails"] == [] and p["stations"] == []
    view = TRAINS.view(state, None)
    assert view["supply"] == {"rails": 16, "stations": 3}
    assert all(e["rails_left"] == 16 and e["stations_left"] == 3 for e in view["players"])
    assert state["ender"] is None and state["final_turns"] is None
    assert state["phase"] == "setup" and state["outcome"] is None


# --- moving and laying rails ------------------------------------------------------------------
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
@pytest.mark.parametrize("face", ["up", "down", "left", "right"])
def test_move_card_moves_one_grid_point_and_lays_a_rail_behind(seat, face):
    """Rulebook: "Up/down/left/right: Move your train 1 grid point in the direction ... AND
    lay a rail behind"; C2: the direction is relative to the seat; C9: the rail lies on the
    unit segment just travelled."""
    points = {0: [0, 0], 1: [0, 8], 2: [8, 8], 3: [8, 0], seat: [4, 4]}
    state = trains_state(4, points=points)
    new, events = act(state, seat, face)
    direction = ABSOLUTE[state["players"][seat]["side"]][face]
    dx, dy = DELTA[direction]
    to = [4 + dx, 4 + dy]
    assert new["players"][seat]["point"] == to
    expected_rail = rails_along((4, 4), direction)[0]
    assert new["players"][seat]["rails"] == [expected_rail]
    assert events[1]["type"] == "move"
    assert events[1]["from"] == [4, 4] and events[1]["to"] == to
    assert events[1]["rail"] == expected_rail and events[1]["rails_left"] == 15


def test_move_text_names_the_colour_and_the_rails_left():
    """docs/c64-view.md: events carry readable text with colour names."""
    state = trains_state(3)
    _, events = act(state, 0, "up")
    assert events[1]["text"] == "Red moves north to (0,1) and lays a rail (15 left)."


def test_a_move_onto_another_train_is_blocked_and_the_card_is_spent():
    """Rulebook: "(if not occupied by another train)"; ruling G2: an action without effect still
    spends the card. C9: no rail is laid when the train does not move."""
    state = trains_state(3, points={0: [3, 3], 1: [3, 4]})
    new, events = act(state, 0, "up")
    unchanged_except_turn(state, new, 0)
    assert events[1] == {
        "type": "blocked",
        "seat": 0,
        "action": "move",
        "why": "train",
        "direction": "N",
        "from": [3, 3],
        "to": [3, 4],
        "text": "Red cannot move north to (3,4): Blue's train is there.",
    }


def test_a_move_off_the_grid_points_does_nothing():
    """C9: "not off the 9x9 grid points" - Red at (0,0) tries west."""
    state = trains_state(3)
    new, events = act(state, 0, "left")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "edge"
    assert (
        events[1]["text"] == "Red cannot move west from (0,0): the edge of the board is in the way."
    )


def test_no_rail_is_laid_where_your_colour_already_lies():
    """Rulebook: "lay a rail behind (if not already a rail of your color there)"; C9: "then no
    stick is used"."""
    state = trains_state(3, points={0: [0, 1]}, rails={0: rails_along((0, 0), "N")})
    new, events = act(state, 0, "down")
    assert new["players"][0]["point"] == [0, 0]
    assert new["players"][0]["rails"] == [[0, 0, 0, 1]]
    assert events[1]["rail"] is None and events[1]["why"] == "own_rail"
    assert events[1]["text"] == "Red moves south to (0,0) along her own rail (no rail used)."
    assert TRAINS.view(new, None)["players"][0]["rails_left"] == 15


def test_rails_of_different_colours_may_share_a_segment():
    """C9: "Rails of different colours may share a segment" - Red follows Blue's rail and
    lays her own beside it."""
    state = trains_state(3, points={0: [2, 2], 1: [6, 6]}, rails={1: [[2, 2, 2, 3]]})
    new, events = act(state, 0, "up")
    assert new["players"][0]["rails"] == [[2, 2, 2, 3]]
    assert new["players"][1]["rails"] == [[2, 2, 2, 3]]
    assert events[1]["rail"] == [2, 2, 2, 3]


def test_trains_may_cross_any_rails_and_stations():
    """C9: "trains may cross any rails" - Red drives across Blue's rail onto Blue's station
    point (only a train blocks)."""
    state = trains_state(
        3,
        points={0: [3, 2]},
        rails={1: [[2, 3, 3, 3], [3, 3, 4, 3]]},
        stations={1: [[3, 3]]},
    )
    new, _ = act(state, 0, "up")
    new, _ = act(new, 0, "up")
    assert new["players"][0]["point"] == [3, 4]
    assert new["players"][0]["rails"] == [[3, 2, 3, 3], [3, 3, 3, 4]]


def test_a_rail_is_laid_backwards_over_the_segment_too():
    """C9: a rail lies on the unit segment, whichever way it was travelled: after Red went
    north from (2,2) to (2,3), going south again uses no rail."""
    state = trains_state(3, points={0: [2, 2]})
    new, _ = act(state, 0, "up")
    new, events = act(new, 0, "down")
    assert new["players"][0]["rails"] == [[2, 2, 2, 3]]
    assert events[1]["why"] == "own_rail"


# --- stations (buttons) -----------------------------------------------------------------------
@pytest.mark.parametrize("button", ["left_button", "right_button"])
def test_any_button_places_a_station_on_the_trains_point(button):
    """Rulebook: "Any button: Place a disc (station) on the train's grid point"."""
    state = trains_state(3, points={0: [4, 5]})
    new, events = act(state, 0, button)
    assert new["players"][0]["stations"] == [[4, 5]]
    assert new["players"][0]["point"] == [4, 5] and new["players"][0]["rails"] == []
    assert events[1] == {
        "type": "station",
        "seat": 0,
        "point": [4, 5],
        "stations_left": 2,
        "text": "Red builds a station at (4,5) (2 left).",
    }


@pytest.mark.parametrize("owner", [0, 1])
def test_no_station_where_a_station_of_any_colour_stands(owner):
    """Rulebook: "(if not already a disc of any color there)" - own or opponent's."""
    state = trains_state(3, points={0: [4, 5]}, stations={owner: [[4, 5]]})
    new, events = act(state, 0, "left_button")
    unchanged_except_turn(state, new, 0)
    assert events[1]["type"] == "station_blocked" and events[1]["why"] == "occupied"
    whose = "her own" if owner == 0 else "Blue's"
    assert events[1]["text"] == (
        f"Red cannot build a station at (4,5): {whose} station is already there."
    )


def test_no_station_when_all_three_are_built():
    """Rulebook "3 discs ... per player"; C9: "if the player has a station left"."""
    state = trains_state(3, points={0: [4, 5]}, stations={0: [[1, 1], [2, 2], [3, 3]]})
    new, events = act(state, 0, "right_button")
    unchanged_except_turn(state, new, 0)
    assert events[1]["why"] == "none_left"
    assert events[1]["text"] == "Red has no station left to build."


# --- the end ----------------------------------------------------------------------------------
def test_laying_the_last_rail_gives_each_other_player_one_more_turn():
    """Rulebook: "When a player places her last rail, the other players get 1 more action
    before the game ends." C9: "each other player takes exactly one more turn in normal
    order, then the game ends"."""
    state = trains_state(3, points={0: [1, 0]}, rails={0: fifteen_rails()})
    new, events = act(state, 0, "right")
    assert len(new["players"][0]["rails"]) == 16
    assert new["ender"] == 0 and new["final_turns"] == 2
    assert new["phase"] == "play" and new["turn"] == 1
    assert events[-1] == {
        "type": "last_rail",
        "seat": 0,
        "turns_left": 2,
        "text": "Red has laid her last rail! Blue and Green each take one more turn, "
        "then the game ends.",
    }
    assert TRAINS.view(new, None)["final"] == {"ender": 0, "turns_left": 2}
    new, events = take_turn(new, 1)
    assert new["phase"] == "play" and new["turn"] == 2 and new["final_turns"] == 1
    assert events[-1]["type"] == "final_turn"
    assert events[-1]["text"] == "That was Blue's last turn; 1 more to come."
    new, events = take_turn(new, 2)
    assert new["phase"] == "over" and new["turn"] is None
    assert [e["type"] for e in events[-2:]] == ["score", "win"]
    assert TRAINS.outcome(new) is not None


def test_the_countdown_follows_turn_order_from_the_ender():
    """C9: "in normal order" - with 4 players and Green (Player 3) laying the last rail, the
    last turns are Yellow's, Red's and Blue's; Green never plays again."""
    state = trains_state(4, turn=2, points={2: [1, 0]}, rails={2: fifteen_rails()})
    new, events = act(state, 2, "left")  # Green faces south: her Left is east
    assert new["final_turns"] == 3 and new["turn"] == 3
    assert "Yellow, Red and Blue each take one more turn" in events[-1]["text"]
    for seat in (3, 0, 1):
        assert new["phase"] == "play"
        new, _ = take_turn(new, seat)
    assert new["phase"] == "over"


def test_moving_along_your_own_rail_with_fifteen_laid_does_not_end():
    """C9: the end comes when a player "lays her 16th rail"; driving on her own rail uses
    no stick."""
    rails = fifteen_rails()
    state = trains_state(3, points={0: [0, 1]}, rails={0: rails})
    new, _ = act(state, 0, "down")
    assert len(new["players"][0]["rails"]) == 15
    assert new["ender"] is None and new["final_turns"] is None


def test_a_second_last_rail_during_the_last_turns_changes_nothing():
    """C9: the countdown starts with the first 16th rail; Blue laying hers in her last turn
    does not give anybody more turns."""
    state = trains_state(
        3,
        turn=1,
        points={1: [1, 8]},
        rails={
            0: rails_along((0, 0), "N" * 8 + "E" * 8),
            1: rails_along((0, 0), "E" * 8 + "N" * 7),
        },
        ender=0,
        final_turns=2,
    )
    new, events = act(state, 1, "up")  # Blue faces east
    assert len(new["players"][1]["rails"]) == 16
    assert new["ender"] == 0 and new["final_turns"] == 1 and new["turn"] == 2
    assert "last_rail" not in [e["type"] for e in events]
    new, _ = take_turn(new, 2)
    assert new["phase"] == "over"


def test_a_station_built_in_a_last_turn_scores():
    """Rulebook: "the other players get 1 more action" - any action, and it counts: Green's
    station on Red's rail end in the last turn scores for both."""
    state = trains_state(
        3,
        turn=2,
        points={2: [0, 4]},
        rails={0: rails_along((0, 0), "N" * 8 + "E" * 8)},
        ender=0,
        final_turns=1,
    )
    new, _ = act(state, 2, "left_button")
    outcome = TRAINS.outcome(new)
    # (0,4) is the end of two of Red's rails: (0,3)-(0,4) and (0,4)-(0,5).
    assert outcome.scores == {0: 2, 1: 0, 2: 2}


# --- scoring ----------------------------------------------------------------------------------
def test_a_station_and_an_opponent_rail_touching_it_score_one_each():
    """Rulebook: "For each opponent rail connected to a station, both the station owner and
    the rail owner gets 1 VP." C9: connected = one end of the rail on the station's point."""
    state = trains_state(3, stations={0: [[3, 3]]}, rails={1: [[3, 3, 3, 4]]})
    vp, pairs = scores(state)
    assert vp == [1, 1, 0]
    assert pairs == [{"station": 0, "point": [3, 3], "rail": 1, "segment": [3, 3, 3, 4]}]


def test_own_rails_at_your_own_station_score_nothing():
    """Rulebook: "each opponent rail" - C9: "every rail of a different colour"."""
    state = trains_state(3, stations={0: [[3, 3]]}, rails={0: [[3, 3, 3, 4], [2, 3, 3, 3]]})
    assert scores(state)[0] == [0, 0, 0]


def test_only_direct_contact_counts_not_the_network():
    """C9: "direct contact only; not through a network" - Blue's rail (3,4)-(3,5) joins Blue's
    rail (3,3)-(3,4) at the station, but only the one touching (3,3) scores."""
    state = trains_state(3, stations={0: [[3, 3]]}, rails={1: [[3, 3, 3, 4], [3, 4, 3, 5]]})
    assert scores(state)[0] == [1, 1, 0]


def test_every_rail_end_at_a_station_scores_even_on_a_shared_segment():
    """C9: "For every station and every rail of a different colour connected to it" - Blue's
    and Green's rails share (3,3)-(4,3) and both touch Red's station: 2 VP for Red."""
    state = trains_state(
        3, stations={0: [[3, 3]]}, rails={1: [[3, 3, 4, 3]], 2: [[3, 3, 4, 3], [2, 3, 3, 3]]}
    )
    vp, pairs = scores(state)
    assert vp == [3, 1, 2]
    assert len(pairs) == 3


def test_a_rail_between_two_stations_scores_at_each_station():
    """C9: the count is per station: Green's rail (3,3)-(4,3) touches Red's station at (3,3)
    and Blue's at (4,3), so Green scores twice, Red and Blue once each."""
    state = trains_state(3, stations={0: [[3, 3]], 1: [[4, 3]]}, rails={2: [[3, 3, 4, 3]]})
    assert scores(state)[0] == [1, 1, 2]


def test_a_station_on_your_own_rail_still_scores_for_opponents_rails():
    """C9: only the rail's colour matters: Red's station on Red's own rail end also scores
    Blue's rail there."""
    state = trains_state(3, stations={0: [[5, 5]]}, rails={0: [[5, 5, 5, 6]], 1: [[4, 5, 5, 5]]})
    assert connections(state) == [
        {"station": 0, "point": [5, 5], "rail": 1, "segment": [4, 5, 5, 5]}
    ]


def end_state(rails, stations, players=3):
    """A position one card before the end: Red laid her last rail, Green plays the last turn
    with a button (her station at (8,8) is already built, so nothing changes)."""
    stations = {**stations, 2: stations.get(2, []) + [[8, 8]]}
    return trains_state(players, turn=2, rails=rails, stations=stations, ender=0, final_turns=1)


def test_the_final_scoring_breakdown_is_in_the_events_and_the_outcome():
    """Rulebook: "For each opponent rail connected to a station, both the station owner and
    the rail owner gets 1 VP." Red's station at (5,5) meets Blue's rail; Blue's stations at
    (3,3) and (3,4) both meet Red's rail: Red 1 + 2, Blue 1 + 2."""
    state = end_state(
        rails={0: [[3, 3, 3, 4]], 1: [[5, 5, 5, 6]]},
        stations={0: [[5, 5]], 1: [[3, 3], [3, 4]]},
    )
    new, events = act(state, 2, "left_button")
    outcome = TRAINS.outcome(new)
    assert outcome.scores == {0: 3, 1: 3, 2: 0}
    score = events[-2]
    assert score["type"] == "score"
    assert score["text"] == "Final scoring: Red 3 VP, Blue 3 VP, Green 0 VP."
    assert score["players"] == outcome.details["players"]
    assert score["players"][0] == {
        "seat": 0,
        "vp": 3,
        "rails_laid": 1,
        "stations": 1,
        "as_station": 1,
        "as_rail": 2,
    }
    assert score["connections"] == outcome.details["connections"]
    assert len(score["connections"]) == 3
    assert json.loads(json.dumps(outcome.to_json())) == outcome.to_json()


def test_a_clear_winner_by_vp():
    """Rulebook: "The player with the most VP wins." Red 2 VP, Blue 1, Green 1."""
    state = end_state(
        rails={1: [[3, 3, 3, 4]], 2: [[2, 3, 3, 3]]},
        stations={0: [[3, 3]]},
    )
    new, _ = act(state, 2, "left_button")
    outcome = TRAINS.outcome(new)
    assert outcome == Outcome(
        winners=(0,),
        reason="The last rail is laid. Red 2 VP, Blue 1 VP, Green 1 VP. Red wins.",
        scores={0: 2, 1: 1, 2: 1},
        details=outcome.details,
    )
    assert outcome.details["ender"] == 0
    assert len(outcome.details["connections"]) == 2


def test_a_vp_tie_goes_to_the_most_rails_laid():
    """C9: "tie -> most rails laid". Red and Blue 1 VP each; Blue laid 2 rails, Red 1."""
    state = end_state(
        rails={0: [[0, 0, 0, 1]], 1: [[3, 3, 3, 4], [3, 4, 3, 5]]},
        stations={0: [[3, 3]]},
    )
    new, _ = act(state, 2, "left_button")
    outcome = TRAINS.outcome(new)
    assert outcome.winners == (1,)
    assert outcome.reason == (
        "The last rail is laid. Blue 1 VP, Red 1 VP, Green 0 VP. Red and Blue tie on 1 VP; "
        "Blue laid the most rails (2). Blue wins."
    )


def test_a_tie_on_vp_and_rails_is_a_shared_win():
    """C9: "still tied -> shared win"."""
    state = end_state(
        rails={0: [[0, 0, 0, 1]], 1: [[3, 3, 3, 4]]},
        stations={0: [[3, 3]]},
    )
    new, events = act(state, 2, "left_button")
    outcome = TRAINS.outcome(new)
    assert outcome.winners == (0, 1)
    assert outcome.reason.endswith(
        "Red and Blue tie on 1 VP; Red and Blue laid 1 rail each. Red and Blue share the win."
    )
    assert events[-1]["winners"] == [0, 1]


def test_a_game_without_any_points_is_won_by_the_most_rails():
    """C9 tie-breaks with nobody scoring: everyone has 0 VP, most rails laid wins."""
    state = end_state(rails={0: [[0, 0, 0, 1]], 1: [[0, 7, 0, 8], [0, 6, 0, 7]]}, stations={})
    new, _ = act(state, 2, "left_button")
    assert TRAINS.outcome(new).winners == (1,)


def test_no_moves_after_the_end():
    """The game is over: no seat may act, and a play is refused."""
    state = end_state(rails={}, stations={})
    new, _ = act(state, 2, "left_button")
    nobody_moves_after_the_end(TRAINS, new, range(3), refused=0)


def test_the_last_card_of_a_turn_still_takes_the_next_cards_before_the_end():
    """C4.4 then the end check: the move names its next cards; the game ends after it."""
    state = end_state(rails={}, stations={})
    state["joysticks"][2] = joystick([(6, "left_button")], axis="col")
    move = {
        "type": "play",
        "card": 6,
        "to": [2, 0],
        "next": [{"card": 7, "face": "left_button"}, {"card": 8, "face": "right_button"}],
    }
    assert move in TRAINS.legal_moves(state, 2)
    new, events = TRAINS.apply(state, 2, move, dice())
    assert [e["type"] for e in events] == ["play", "station_blocked", "take", "score", "win"]
    assert new["phase"] == "over"


# --- view -------------------------------------------------------------------------------------
def test_view_shows_rails_stations_supplies_and_live_scores():
    """docs/c64-view.md plus the Trains keys (module docstring); the same for every seat."""
    state = trains_state(
        3,
        points={0: [3, 4]},
        rails={0: [[3, 3, 3, 4]], 1: [[0, 8, 1, 8]]},
        stations={1: [[3, 3]]},
    )
    view = public_view(TRAINS, state, 2)
    assert (view["family"], view["game"]) == ("c64", "trains")
    red = view["players"][0]
    assert {k: red[k] for k in ("point", "rails", "stations", "rails_laid", "rails_left")} == {
        "point": [3, 4],
        "rails": [[3, 3, 3, 4]],
        "stations": [],
        "rails_laid": 1,
        "rails_left": 15,
    }
    assert red["stations_left"] == 3 and red["vp"] == 1
    assert view["players"][1]["vp"] == 1 and view["players"][1]["stations_left"] == 2
    assert view["connections"] == [
        {"station": 1, "point": [3, 3], "rail": 0, "segment": [3, 3, 3, 4]}
    ]
    assert view["final"] is None


def test_a_built_position_never_lays_a_seventeenth_rail():
    """Rulebook "16 sticks (rails) per player": a train without rails left still moves (the
    game would have ended before such a turn; guarded for built positions) but lays none."""
    state = trains_state(3, points={0: [1, 0]}, rails={0: rails_along((0, 0), "N" * 8 + "E" * 8)})
    new, events = act(state, 0, "right")
    assert new["players"][0]["point"] == [2, 0]
    assert len(new["players"][0]["rails"]) == 16
    assert events[1]["why"] == "no_rails"
