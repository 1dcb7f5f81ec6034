"""Claims of the C64 joystick-engine diagram (every C64 page) and of the Tanks, Monsters and
Maze pages (docs/rules/): each checks what its caption says, through the rules module."""

from __future__ import annotations

from typing import Any

from app.engine.contract import Event
from app.rules_pages.source import page_source
from tests.rules_pages.claims import ScenarioRun, claim

C64_GAMES = ("c64-tanks", "c64-monsters", "c64-maze", "c64-cars", "c64-trains", "c64-snakes")
RED = 0
"""Every diagram here has seat 0 as Player 1, who sits South and is red."""
BLUE = 1
"""With three players the second seat sits West and is blue."""
GREEN_OF_TWO = 1
"""With two players the second seat sits North and is green."""


def last_events(run: ScenarioRun, kind: str) -> list[Event]:
    return [event for event in run.events[-1] if event["type"] == kind]


def only_event(run: ScenarioRun, kind: str) -> Event:
    found = last_events(run, kind)
    assert len(found) == 1, f"expected one {kind!r} event in the last move, got {found}"
    return found[0]


def player(run: ScenarioRun, seat: int, index: int = -1) -> dict[str, Any]:
    return run.states[index]["players"][seat]


def red_is_player_one(run: ScenarioRun) -> None:
    state = run.final
    assert state["order"][0] == RED
    assert state["players"][RED]["side"] == "S"


# --- the joystick engine (families/c64-board.md, on every C64 page) ----------------------------
def red_takes_the_crossing_column(run: ScenarioRun) -> None:
    red_is_player_one(run)
    take, *plays = [
        (state_before, seat, events)
        for state_before, (seat, _move), events in zip(
            run.states[:-1], run.diagram.moves, run.events, strict=True
        )
        if seat == RED
    ]
    first_take = next(e for e in take[2] if e["type"] == "take")
    assert first_take["axis"] == "row"
    assert [(c["card"], c["face"]) for c in first_take["cards"]] == [(2, "up"), (5, "right")]
    middle_row = take[0]["joysticks"][RED]["grid"][1]
    assert (middle_row[0], middle_row[2]) in ((2, 5), (5, 2)), "from the two ends of the row"
    (_, _, first), (before_last, _, last) = plays
    first_play = next(e for e in first if e["type"] == "play")
    assert (first_play["face"], first_play["to"]) == ("up", [1, 2]), "Up into the right space"
    last_play = next(e for e in last if e["type"] == "play")
    assert (last_play["face"], last_play["to"]) == ("right", [1, 0]), "Right into the left"
    left_column = [row[0] for row in before_last["joysticks"][RED]["grid"]]
    joystick = run.final["joysticks"][RED]
    taken = [(a["card"], a["face"]) for a in joystick["active"]]
    assert taken == [(0, "up"), (8, "left_button")]
    assert {card for card, _ in taken} == {left_column[0], left_column[2]}
    assert joystick["tilted"] == [1, 0] and joystick["axis"] == "col"
    assert [row[0] for row in joystick["grid"]] == [None, 5, None]


for _game_id in C64_GAMES:
    # A C64 page includes the engine with its diagram; a page not yet written has none.
    if page_source(_game_id) is not None:
        claim(_game_id, "crossing-line")(red_takes_the_crossing_column)


# --- C64 Tanks -----------------------------------------------------------------------------
@claim("c64-tanks", "mirror-bounce")
def bullet_turns_at_both_mirrors_and_leaves_past_h4(run: ScenarioRun) -> None:
    red_is_player_one(run)
    bullet = only_event(run, "bullet")
    assert (bullet["seat"], bullet["from"], bullet["direction"]) == (RED, "b2", "E")
    assert bullet["path"] == ["c2", "c3", "c4", "d4", "e4", "f4", "g4", "h4"]
    turns = [(f["square"], f["in"], f["out"], f["from"], f["to"]) for f in bullet["flips"]]
    assert turns == [("c2", "E", "N", "/", "\\"), ("c4", "N", "E", "/", "\\")]
    assert (bullet["end"], bullet["heading"], bullet["hits"]) == ("exit", "E", [])
    walls = {w["square"]: w["tilt"] for w in run.view["walls"]}
    assert walls["c2"] == walls["c4"] == "\\"


@claim("c64-tanks", "missile-over-wall")
def missile_lands_on_b5_and_hits_blue_beside_it(run: ScenarioRun) -> None:
    red_is_player_one(run)
    before = run.states[-2]
    assert "b4" in before["walls"], "a mirror on the way"
    missile = only_event(run, "missile")
    assert (missile["seat"], missile["from"], missile["direction"]) == (RED, "b2", "N")
    assert (missile["landing"], missile["result"]) == ("b5", "blast")
    assert player(run, BLUE)["side"] == "W" and player(run, BLUE)["square"] == "a5"
    assert missile["hits"] == [BLUE]
    assert run.final["walls"] == before["walls"], "the missile did not touch the mirror"
    assert player(run, BLUE)["hit"] is True
    assert player(run, RED)["discs"] == [BLUE]


@claim("c64-tanks", "hit-skips")
def blue_loses_her_up_card_after_reds_first_shot(run: ScenarioRun) -> None:
    red_is_player_one(run)
    shot_move = next(
        i for i, events in enumerate(run.events) if any(e["type"] == "bullet" for e in events)
    )
    bullet = next(e for e in run.events[shot_move] if e["type"] == "bullet")
    assert (bullet["seat"], bullet["from"], bullet["direction"]) == (RED, "a1", "N")
    assert bullet["path"] == ["a2", "a3", "a4", "a5", "a6", "a7", "a8"]
    assert bullet["hits"] == [BLUE] and bullet["flips"] == []
    first_red_play = [
        i
        for i, (seat, move) in enumerate(run.diagram.moves)
        if seat == RED and move["type"] == "play"
    ][0]
    assert shot_move == first_red_play, "Red's first turn"
    play = only_event(run, "play")
    assert (play["seat"], play["face"]) == (BLUE, "up")
    assert only_event(run, "skip")["seat"] == BLUE
    assert last_events(run, "move") == []
    assert player(run, BLUE)["square"] == "a8" and player(run, BLUE)["hit"] is False
    assert player(run, RED)["discs"] == [BLUE]
    assert run.final["phase"] == "play", "a green disc is still missing"


# --- C64 Monsters --------------------------------------------------------------------------
@claim("c64-monsters", "opposite-step")
def red_goes_north_and_her_monster_south(run: ScenarioRun) -> None:
    red_is_player_one(run)
    assert only_event(run, "play")["face"] == "up"
    moves = [(e["piece"], e["from"], e["to"]) for e in last_events(run, "move")]
    assert moves == [("adventurer", "a1", "a2"), ("monster", "d4", "d3")]
    assert player(run, RED)["square"] == "a2" and player(run, RED)["monster"] == "d3"


@claim("c64-monsters", "half-blocked")
def the_edge_stops_red_but_not_her_monster(run: ScenarioRun) -> None:
    red_is_player_one(run)
    assert only_event(run, "play")["face"] == "left"
    blocked = only_event(run, "blocked")
    assert (blocked["piece"], blocked["why"], blocked["from"]) == ("adventurer", "edge", "a1")
    moved = only_event(run, "move")
    assert (moved["piece"], moved["from"], moved["to"]) == ("monster", "d4", "e4")
    assert player(run, RED)["square"] == "a1" and player(run, RED)["monster"] == "e4"


@claim("c64-monsters", "treasure-discards")
def both_monsters_go_home_and_so_does_the_treasure(run: ScenarioRun) -> None:
    red_is_player_one(run)
    before = run.states[-2]["players"]
    assert before[RED]["square"] == "e7" and before[RED]["carrying"] == GREEN_OF_TWO
    assert before[GREEN_OF_TWO]["monster"] == "e8" and before[RED]["monster"] == "f7"
    assert only_event(run, "play")["face"] == "right_button"
    used = only_event(run, "use_treasure")
    resets = [(r["piece"], r["owner"], r["from"], r["to"]) for r in used["resets"]]
    assert sorted(resets) == sorted(
        [
            ("monster", GREEN_OF_TWO, "e8", "e5"),
            ("monster", RED, "f7", "d4"),
            ("treasure", GREEN_OF_TWO, "e7", "e5"),
        ]
    )
    after = run.final["players"]
    assert after[GREEN_OF_TWO]["monster"] == "e5" and after[RED]["monster"] == "d4"
    assert after[GREEN_OF_TWO]["treasure"] == "e5" and after[RED]["carrying"] is None
    assert after[RED]["square"] == "e7"


# --- C64 Maze ------------------------------------------------------------------------------
@claim("c64-maze", "wall-push")
def the_blocked_right_card_aims_the_push(run: ScenarioRun) -> None:
    red_is_player_one(run)
    red_plays = [
        events
        for (seat, move), events in zip(run.diagram.moves, run.events, strict=True)
        if seat == RED and move["type"] == "play"
    ]
    assert len(red_plays) == 2
    turn, push_turn = red_plays
    blocked = next(e for e in turn if e["type"] == "blocked")
    assert (blocked["why"], blocked["direction"], blocked["to"]) == ("wall", "E", "b1")
    push = next(e for e in push_turn if e["type"] == "push")
    assert (push["wall_from"], push["wall_to"], push["piece_to"]) == ("b1", "c1", "a1")
    assert "b1" not in run.final["walls"] and "c1" in run.final["walls"]
    assert player(run, RED)["square"] == "a1"


@claim("c64-maze", "wall-pull")
def red_steps_back_and_the_wall_follows(run: ScenarioRun) -> None:
    red_is_player_one(run)
    before = run.states[-2]
    assert before["players"][RED]["square"] == "a6" and before["players"][RED]["latest"] == "N"
    assert "a7" in before["walls"]
    pull = only_event(run, "pull")
    assert (pull["piece_from"], pull["piece_to"]) == ("a6", "a5")
    assert (pull["wall_from"], pull["wall_to"]) == ("a7", "a6")
    assert "a7" not in run.final["walls"] and "a6" in run.final["walls"]
    assert player(run, RED)["latest"] == "N"


@claim("c64-maze", "corner-push")
def no_push_onto_the_corner(run: ScenarioRun) -> None:
    red_is_player_one(run)
    before = run.states[-2]
    assert before["players"][RED]["square"] == "a6" and before["players"][RED]["latest"] == "N"
    assert only_event(run, "play")["face"] == "left_button"
    blocked = only_event(run, "blocked")
    assert (blocked["action"], blocked["why"], blocked["wall"]) == ("push", "corner", "a7")
    assert last_events(run, "push") == []
    assert run.final["walls"] == before["walls"]
    assert player(run, RED)["square"] == "a6"
