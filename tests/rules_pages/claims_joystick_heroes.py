"""Claims of the Joystick Heroes rules page (docs/rules/joystick-heroes.md), checked through
the rules module: the dice count, the chart line won, a Premium card's Levels and H9a."""

from __future__ import annotations

from typing import Any

from app.engine.dice import Dice
from app.games.joystick_heroes.content import GAMES_CARDS
from tests.rules_pages.claims import ScenarioRun, claim

GAME = "joystick-heroes"


def _events(run: ScenarioRun, kind: str) -> list[dict[str, Any]]:
    return [event for move in run.events for event in move if event["type"] == kind]


def _the_card(run: ScenarioRun, name: str) -> dict[str, Any]:
    played = {event["card"] for event in _events(run, "play")}
    assert len(played) == 1, played
    card = GAMES_CARDS[played.pop()]
    assert card["name"] == name
    return card


def _hidden_hands_stay_hidden(run: ScenarioRun) -> None:
    viewer = run.diagram.viewer
    assert viewer is not None
    own = [card["id"] for card in run.view["hand"]]
    assert own == run.final["players"][viewer]["hand"]
    assert "hands" not in run.view


@claim(GAME, "standard-chart")
def three_cubes_three_dice_and_only_the_650_line_pays(run: ScenarioRun) -> None:
    card = _the_card(run, "Defender of Zed")
    assert card["tier"] == "standard"
    assert card["genre"] == "scifi" and sorted(card["skills"]) == ["driving", "shooting"]
    red = run.final["players"][0]
    assert red["genres"] == ["adventure", "scifi"]
    cubes_in_columns = sum(red["cubes"][c] for c in ["driving", "shooting", "scifi"])
    (roll,) = _events(run, "roll")
    assert len(roll["dice"]) == cubes_in_columns == 3
    assert roll["dice"] == [200, 200, 200] and roll["face"] == "+200" and roll["score"] == 800
    lines = {line["score"]: line["tickets"] for line in card["chart"]}
    reached = [score for score in lines if score <= 800]
    assert max(reached) == 650 and 400 in reached
    # The diagram stops at the roll, dice in sight; collecting is the next move.
    done = {"type": "done"}
    assert done in run.game.legal_moves(run.final, 0)
    number = len(run.diagram.moves) + 1
    after, events = run.game.apply(run.final, 0, done, Dice(run.diagram.seed, number))
    (collect,) = [event for event in events if event["type"] == "collect"]
    assert collect["score"] == 800 and not collect["high_score"]
    assert collect["tickets"] == lines[650] == 2 and collect["prizes"] == 0
    assert lines[400] + lines[650] != collect["tickets"]  # the lines are not added up
    assert after["players"][0]["tickets"] == 2
    _hidden_hands_stay_hidden(run)


@claim(GAME, "premium-levels")
def levels_one_and_two_passed_so_level_two_pays(run: ScenarioRun) -> None:
    card = _the_card(run, "Tank Commander")
    assert card["tier"] == "premium"
    targets = [level["score"] for level in card["chart"]]
    assert targets == [350, 600, 850]
    rolls = _events(run, "roll")
    assert [(r["level"], r["score"]) for r in rolls] == [(1, 600), (2, 900), (3, 300)]
    levels = _events(run, "level")
    assert [(e["level"], e["passed"]) for e in levels] == [(1, True), (2, True), (3, False)]
    (collect,) = _events(run, "collect")
    level_two = card["chart"][1]
    assert collect["tickets"] == level_two["tickets"] == 4 and collect["prizes"] == 0
    assert not collect["high_score"]
    assert card["chart"][0]["tickets"] + level_two["tickets"] != collect["tickets"]
    assert run.final["last_result"]["levels"] == 2
    assert run.final["players"][0]["tickets"] == 4
    _hidden_hands_stay_hidden(run)


@claim(GAME, "versus-premium-levels")
def more_levels_beat_a_higher_last_roll(run: ScenarioRun) -> None:
    card = _the_card(run, "Table Tennis Pro")
    assert card["tier"] == "premium" and card["mode"] == "versus"
    assert [level["score"] for level in card["chart"]][:2] == [450, 750]
    (challenge,) = _events(run, "challenge")
    assert challenge["seat"] == 1 and challenge["target"] == 0
    levels = [(e["seat"], e["level"], e["passed"]) for e in _events(run, "level")]
    assert levels == [(0, 1, False), (1, 1, True), (1, 2, False)]
    rolls = [(r["seat"], r["level"], r["score"]) for r in _events(run, "roll")]
    assert rolls == [(0, 1, 400), (1, 1, 600), (1, 2, 200)]
    red_last, blue_last = rolls[0][2], rolls[-1][2]
    assert blue_last < red_last
    (versus,) = _events(run, "versus")
    assert versus["seat"] == 1 and versus["tickets"] == 2
    blue_won = [e["tickets"] for e in _events(run, "collect") if e["seat"] == 1]
    assert blue_won == [card["chart"][0]["tickets"]]
    red, blue = run.final["players"]
    assert red["tickets"] == 0 and blue["tickets"] == blue_won[0] + 2
    _hidden_hands_stay_hidden(run)
