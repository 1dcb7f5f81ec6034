"""Claims of the C64 Cars, Trains and Snakes rules pages (docs/rules/c64-cars.md,
c64-trains.md, c64-snakes.md): each checks what its diagram's caption says, through the
rules module."""

from __future__ import annotations

from typing import Any

from app.engine.contract import Event, State
from app.games.c64.geometry import COLOR
from app.games.c64.trains import connections
from tests.rules_pages.claims import ScenarioRun, claim


def seat_of(state: State, colour: str) -> int:
    """The seat playing `colour` ("red", "blue", ...): seats get colours by turn order."""
    for player in state["players"]:
        if COLOR[player["side"]] == colour:
            return int(player["seat"])
    raise AssertionError(f"nobody plays {colour}")


def last_events(run: ScenarioRun, event_type: str) -> list[Event]:
    return [e for e in run.events[-1] if e["type"] == event_type]


def last_play(run: ScenarioRun) -> Event:
    (play,) = last_events(run, "play")
    return play


def before_last(run: ScenarioRun) -> State:
    return run.states[-2]


def player(state: State, seat: int) -> dict[str, Any]:
    return state["players"][seat]


# --- C64 Cars ---------------------------------------------------------------------------------
@claim("c64-cars", "finish-after-a-lap")
def red_crosses_from_d1_into_e1_after_the_lap_and_wins(run: ScenarioRun) -> None:
    red = seat_of(run.final, "red")
    car = player(before_last(run), red)
    assert car["checkpoints"] == {"East": True, "North": True, "West": True}
    assert (car["square"], car["facing"], car["gear"]) == ("c1", "E", 2)
    assert last_play(run)["seat"] == red and last_play(run)["direction"] == "E"
    (drive,) = last_events(run, "drive")
    assert drive["path"] == ["c1", "d1", "e1"]
    assert run.final["phase"] == "over"
    assert run.final["outcome"]["winners"] == [red]


@claim("c64-cars", "too-fast-to-turn")
def red_in_gear_2_drives_on_east_to_g1_and_flips_facing_north(run: ScenarioRun) -> None:
    red = seat_of(run.final, "red")
    car = player(before_last(run), red)
    assert (car["square"], car["facing"], car["gear"], car["flipped"]) == ("e1", "E", 2, False)
    play = last_play(run)
    assert (play["seat"], play["face"], play["direction"]) == (red, "up", "N")
    (drive,) = last_events(run, "drive")
    assert drive["path"] == ["e1", "f1", "g1"] and drive["direction"] == "E"
    after = player(run.final, red)
    assert (after["square"], after["facing"], after["flipped"]) == ("g1", "N", True)


@claim("c64-cars", "bounce-off-a-wall")
def green_turns_north_into_the_e3_wall_and_bounces_to_e1_in_gear_0(run: ScenarioRun) -> None:
    green = seat_of(run.final, "green")
    car = player(before_last(run), green)
    assert player(run.final, green)["side"] == "N"
    assert (car["square"], car["gear"]) == ("e2", 1)
    assert "e3" in run.final["walls"]
    assert "e1" not in [p["square"] for p in before_last(run)["players"]]
    play = last_play(run)
    assert (play["seat"], play["face"], play["direction"]) == (green, "down", "N")
    (rebound,) = last_events(run, "rebound")
    assert rebound["wall"] == "e3" and not rebound["stopped"]
    after = player(run.final, green)
    assert (after["square"], after["gear"]) == ("e1", 0)


@claim("c64-cars", "shove-a-car")
def red_shoves_green_from_f1_to_g1_and_rolls_into_f1(run: ScenarioRun) -> None:
    red, green = seat_of(run.final, "red"), seat_of(run.final, "green")
    before = before_last(run)
    assert (player(before, red)["square"], player(before, red)["gear"]) == ("e1", 2)
    assert player(before, red)["facing"] == "E"
    assert player(before, green)["square"] == "f1"
    play = last_play(run)
    assert (play["seat"], play["direction"]) == (red, "E")
    (push,) = last_events(run, "push")
    assert (push["car"], push["from"], push["to"]) == (green, "f1", "g1")
    assert player(run.final, red)["square"] == "f1"
    assert player(run.final, green)["square"] == "g1"


# --- C64 Trains -------------------------------------------------------------------------------
@claim("c64-trains", "rails-on-grid-points")
def red_lays_two_rails_and_driving_back_over_her_own_lays_none(run: ScenarioRun) -> None:
    red = seat_of(run.final, "red")
    points = [player(run.states[0], red)["point"]]
    for state, events in zip(run.states[1:], run.events, strict=True):
        if any(e["type"] == "play" and e["seat"] == red for e in events):
            points.append(player(state, red)["point"])
    assert points == [[0, 0], [0, 1], [1, 1], [0, 1]]
    assert player(run.final, red)["rails"] == [[0, 0, 0, 1], [0, 1, 1, 1]]
    (move,) = last_events(run, "move")
    assert move["seat"] == red and move["rail"] is None and move["why"] == "own_rail"
    view = run.game.view(run.final, None)["players"][red]
    assert (view["rails_laid"], view["rails_left"]) == (2, 14)


@claim("c64-trains", "rail-meets-station")
def blue_drives_through_reds_station_and_both_score_two(run: ScenarioRun) -> None:
    red, blue = seat_of(run.final, "red"), seat_of(run.final, "blue")
    assert connections(run.states[0]) == []
    blue_moves = [e for ev in run.events for e in ev if e["type"] == "move" and e["seat"] == blue]
    assert [(m["from"], m["to"], m["direction"]) for m in blue_moves] == [
        ([3, 4], [3, 3], "S"),
        ([3, 3], [2, 3], "W"),
    ]
    assert [3, 3] in player(run.final, red)["stations"]
    pairs = connections(run.final)
    assert pairs == [
        {"station": red, "point": [3, 3], "rail": blue, "segment": [3, 3, 3, 4]},
        {"station": red, "point": [3, 3], "rail": blue, "segment": [2, 3, 3, 3]},
    ]
    vp = {p["seat"]: p["vp"] for p in run.game.view(run.final, None)["players"]}
    assert vp[red] == 2 and vp[blue] == 2 and sum(vp.values()) == 4
    own = [r for r in player(run.final, red)["rails"] if [3, 3] in (r[:2], r[2:])]
    assert len(own) == 2, "Red's own rails end at her station and score nothing"


@claim("c64-trains", "last-rail")
def after_reds_16th_rail_blue_and_green_play_once_and_red_wins_the_tie(run: ScenarioRun) -> None:
    red, blue, green = (seat_of(run.final, c) for c in ("red", "blue", "green"))
    plays = [(i, e["seat"]) for i, ev in enumerate(run.events) for e in ev if e["type"] == "play"]
    assert [seat for _, seat in plays] == [red, blue, green]
    first = plays[0][0]
    (move,) = [e for e in run.events[first] if e["type"] == "move"]
    assert (move["from"], move["to"], move["rail"]) == ([7, 4], [6, 4], [6, 4, 7, 4])
    assert any(e["type"] == "last_rail" for e in run.events[first])
    assert len(player(run.states[first + 1], red)["rails"]) == 16
    assert run.states[-2]["phase"] == "play" and run.final["phase"] == "over"
    blue_move = [e for e in run.events[plays[1][0]] if e["type"] == "move"]
    assert blue_move and blue_move[0]["to"] == [3, 3]
    assert any(e["type"] == "station" for e in run.events[plays[2][0]])
    outcome = run.final["outcome"]
    assert outcome["scores"] == {str(red): 1, str(blue): 1, str(green): 0}
    laid = {p["seat"]: p["rails_laid"] for p in outcome["details"]["players"]}
    assert (laid[red], laid[blue]) == (16, 8)
    assert outcome["winners"] == [red]


# --- C64 Snakes -------------------------------------------------------------------------------
@claim("c64-snakes", "own-body-blocks")
def reds_head_cannot_go_back_onto_its_own_body_at_0_0(run: ScenarioRun) -> None:
    red = seat_of(run.final, "red")
    assert player(before_last(run), red)["snake"] == [[1, 0], [1, 1], [0, 1], [0, 0]]
    heads = [player(run.states[0], red)["snake"][0]]
    for state, events in zip(run.states[1:], run.events, strict=True):
        if any(e["type"] == "play" and e["seat"] == red for e in events):
            heads.append(player(state, red)["snake"][0])
    assert heads == [[0, 0], [0, 1], [1, 1], [1, 0], [1, 0]]
    play = last_play(run)
    assert (play["seat"], play["face"], play["direction"]) == (red, "left", "W")
    (blocked,) = last_events(run, "blocked")
    assert (blocked["why"], blocked["owner"], blocked["to"]) == ("body", red, [0, 0])
    assert player(run.final, red)["snake"] == player(before_last(run), red)["snake"]
    assert run.final["joysticks"][red]["tilted"] == play["to"], "the card was played all the same"


@claim("c64-snakes", "bite-a-tail")
def red_bites_greens_tail_at_3_4_and_captures_a_segment(run: ScenarioRun) -> None:
    red, green = seat_of(run.final, "red"), seat_of(run.final, "green")
    before = before_last(run)
    assert player(before, red)["snake"][0] == [3, 3]
    assert player(before, green)["snake"][-2:] == [[4, 4], [3, 4]]
    (move,) = last_events(run, "move")
    assert (move["seat"], move["direction"], move["to"]) == (red, "N", [3, 4])
    assert (move["capture"], move["victim"], move["taken"]) == ("tail", green, [4, 4, 3, 4])
    assert player(run.final, red)["captured"] == 1
    assert player(run.final, red)["snake"][0] == [3, 4]
    assert len(player(run.final, red)["snake"]) - 1 == 7
    assert len(player(run.final, green)["snake"]) - 1 == 3
    assert player(run.final, green)["supply"] == player(before, green)["supply"]


@claim("c64-snakes", "catch-a-head")
def red_catches_greens_head_at_6_5_and_wins_at_once(run: ScenarioRun) -> None:
    red, green = seat_of(run.final, "red"), seat_of(run.final, "green")
    before = before_last(run)
    assert player(before, red)["snake"][0] == [6, 4]
    assert player(before, green)["snake"][0] == [6, 5]
    assert player(before, green)["supply"] > 0
    (move,) = last_events(run, "move")
    assert (move["seat"], move["direction"], move["capture"]) == (red, "N", "head")
    assert run.final["phase"] == "over"
    assert run.final["outcome"]["winners"] == [red]
    assert run.final["outcome"]["details"]["capture"] == green


@claim("c64-snakes", "last-stick")
def reds_last_stick_ends_the_game_and_greens_longer_snake_wins(run: ScenarioRun) -> None:
    red, green = seat_of(run.final, "red"), seat_of(run.final, "green")
    before = before_last(run)
    assert player(before, red)["supply"] == 1 and player(before, green)["supply"] > 0
    assert player(before, green)["captured"] == 2
    (move,) = last_events(run, "move")
    assert (move["seat"], move["direction"], move["from"], move["to"]) == (red, "N", [5, 3], [5, 4])
    assert player(run.final, red)["supply"] == 0
    assert run.final["phase"] == "over"
    outcome = run.final["outcome"]
    assert outcome["scores"] == {str(red): 14, str(green): 15}
    assert outcome["winners"] == [green]
