"""Tank Skirmish: the view carries the latest shot (issue 14 item 6). The "last shot" panel is
drawn from it, so a page opened after the shot, or a replay at any position, shows the shot of
that position instead of "No shot fired yet." or an older shot it happened to see."""

from __future__ import annotations

from tube_factories import CORE, END, GAME, ScriptedDice, build, fire, play, step

from app.engine.dice import Dice


def test_no_shot_yet_at_the_start():
    state = GAME.setup(2, GAME.parse_options({"setup": "A"}), Dice("start", 0))
    assert GAME.view(state, 0)["last_shot"] is None
    assert GAME.view(state, None)["last_shot"] is None


def test_the_view_carries_the_shot_and_what_it_did():
    """Core rules: "any 1 misses; otherwise damage = lowest die" (here distance 4, 4 dice 4 5 6 4:
    hit for 4). The record is the shot's own events, from `fire` on."""
    state = build(rules=CORE, green=("H5", "C1", "M1"), orange=("H9", "C15", "M15"))
    after, events = play(state, fire("H9"), dice=ScriptedDice(4, 5, 6, 4))
    shot = GAME.view(after, 1)["last_shot"]
    assert shot["number"] == state["turn"]["number"]
    assert shot["events"] == events
    assert shot["events"][0]["type"] == "fire"
    assert shot["events"][0]["dice"] == [4, 5, 6, 4]
    assert shot["events"][0]["damage"] == 4
    assert any(e["type"] == "damage" for e in shot["events"])


def test_the_shot_stays_until_the_next_one_replaces_it():
    """Moves and turns after a shot keep it; the next shot replaces it."""
    state = build(rules=CORE, green=("H5", "C1", "M1"), orange=("H9", "C15", "M15"))
    state, first = play(state, fire("H9"), step("H4"), END, dice=ScriptedDice(4, 5, 6, 4))
    # Orange 1 (H9) now moves away and ends: the green shot is still the last one.
    state, _ = play(state, step("I10"), END)
    assert GAME.view(state, 0)["last_shot"]["events"][0] == first[0]
    # Green 2 (C1) fires at Orange 2 on C15 (distance 14, 10 dice): a new last shot.
    state, second = play(state, fire("C15"), dice=ScriptedDice(*[2] * 10))
    shot = GAME.view(state, None)["last_shot"]
    assert shot["events"] == second
    assert shot["events"][0]["tank"] == 1


def test_the_shot_that_ends_the_battle_is_kept_with_the_result():
    """K8: the last shot of a battle stays in the finished state, game over included."""
    state = build(
        rules=CORE, green=("H5", None, None), orange=("H9", None, None), hp={("orange", 1): 1}
    )
    after, events = play(state, fire("H9"), dice=ScriptedDice(2, 2, 2, 2))
    assert GAME.outcome(after) is not None
    shot = GAME.view(after, 0)["last_shot"]
    assert shot["events"] == events
    assert [e["type"] for e in shot["events"]][-1] == "game_over"
