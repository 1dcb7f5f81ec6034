"""Battles: rulebook "Podcaster Encounter", "Caught Stealing", "Killing a Podcaster",
"Activating Carl", "Carl's Inventory" with rulings D5-D8."""

from __future__ import annotations

from itertools import product

import pytest
from cd_factories import GAME, act, battle, fresh, parked, put, roll_to

from app.engine.contract import IllegalMove
from app.games.cd_thief.battles import BATTLE_DIE, thief_wins


def encounter_state(**red):
    """Red in the corridor at (10,7) with Scott next to her at (10,6) (the hall's mouth)."""
    state = parked(fresh())
    put(state, 0, [10, 7], **red)
    put(state, 1, [1, 16])
    state["podcasters"]["scott"] = [10, 6]
    state["turn"]["phase"] = "battle"
    return state


def test_battle_die_faces_and_odds():
    """D6 [PROPOSAL]: each Battle die shows 0, 1, 1, 2, 2, 2; "total >= 2 ... 31/36";
    "total = 4 ... 9/36"."""
    assert BATTLE_DIE == (0, 1, 1, 2, 2, 2)
    totals = [a + b for a, b in product(BATTLE_DIE, BATTLE_DIE)]
    assert sum(t >= 2 for t in totals) == 31 and sum(t == 4 for t in totals) == 9
    assert thief_wins(2, zapper=True) and not thief_wins(1, zapper=True)
    assert thief_wins(4, zapper=False) and not thief_wins(3, zapper=False)


def test_an_adjacent_podcaster_must_be_battled_before_the_roll():
    """Rulebook: "If at the start of a CD Thief's turn there is a Podcaster on an adjacent
    square, then they must do battle before the player resumes their normal dice throw"."""
    state = parked(fresh())
    put(state, 0, [15, 8])
    put(state, 1, [10, 8])
    state["podcasters"]["scott"] = [11, 7]  # diagonal to green
    state, _ = roll_to(state, 0, (1, 1))
    state["deck"] = [48] + [c for c in state["deck"] if c != 48]
    after, _ = act(state, 0, {"type": "move", "to": [17, 8]})
    assert after["turn"]["seat"] == 1 and after["turn"]["phase"] == "battle"
    assert GAME.legal_moves(after, 1) == [{"type": "battle"}]
    with pytest.raises(IllegalMove):
        act(after, 1, {"type": "roll"})


def test_zapper_and_two_hits_kill_the_podcaster_for_that_thief():
    """Rulebook: "If the CD Thief has the Zapper and rolls 2 or more hit points, the Podcaster
    is considered dead for that CD Thief for the rest of the game" (a counter on her
    backpack)."""
    state = encounter_state(backpack=["zapper"])
    after, events = act(state, 0, {"type": "battle"}, *battle(2, 0))
    assert after["thieves"][0]["killed"] == ["scott"]
    assert events[0]["result"] == "killed" and events[0]["dice"] == [2, 0]
    assert after["turn"]["phase"] == "roll"
    assert after["podcasters"]["scott"] == [10, 6]  # he stays; she is immune to him


def test_killed_podcaster_is_never_battled_again():
    """Rulebook: "immune to that Podcaster for the rest of the game"."""
    state = encounter_state(killed=["scott"])
    state["turn"]["phase"] = "roll"
    state["turn"]["seat"] = 1
    put(state, 1, [1, 16])
    state, _ = roll_to(state, 1, (1, 1))
    state["deck"] = [48] + [c for c in state["deck"] if c != 48]
    after, _ = act(state, 1, {"type": "move", "to": [3, 16]})
    assert after["turn"]["seat"] == 0 and after["turn"]["phase"] == "roll"


def test_four_hits_without_zapper_escapes_and_sends_the_podcaster_home():
    """Rulebook: "If the CD Thief does not have the Zapper and rolls four hit points, he
    escapes and can place the Podcaster back on their starting position"."""
    state = encounter_state()
    after, events = act(state, 0, {"type": "battle"}, *battle(2, 2))
    assert after["podcasters"]["scott"] == [10, 4]
    assert after["thieves"][0]["pos"] == [10, 7] and after["thieves"][0]["killed"] == []
    assert events[0]["result"] == "escaped"


def test_less_than_four_without_zapper_is_caught():
    """Rulebook: "If the CD Thief does not have the zapper and rolls less than 4 hit points,
    he is caught stealing"; Caught Stealing: "Go back to his starting position outside the
    Hotel"; D5: she then rolls and moves from the Hotel Exit."""
    state = encounter_state(backpack=["key", "pass"], opened=["casino"])
    after, events = act(state, 0, {"type": "battle"}, *battle(2, 1))
    assert after["thieves"][0]["pos"] == [8, 15]
    assert after["thieves"][0]["backpack"] == ["key", "pass"]  # "He may keep his other items"
    assert after["thieves"][0]["opened"] == ["casino"]  # D8: opened doors stay
    assert after["turn"]["phase"] == "roll" and after["turn"]["seat"] == 0
    assert [e["type"] for e in events] == ["battle", "caught"]


def test_less_than_two_with_zapper_is_caught_and_the_zapper_goes_home():
    """Rulebook: "If the CD Thief has the zapper and rolls less than 2 hit points, he is
    caught stealing"; Caught Stealing: "If he has the Zapper, he should return it to its
    starting position"."""
    state = encounter_state(backpack=["zapper", "studson"])
    del state["items"]["red-zapper"]
    after, _ = act(state, 0, {"type": "battle"}, *battle(1, 0))
    assert after["thieves"][0]["backpack"] == ["studson"]
    assert after["items"]["red-zapper"] == [14, 5]
    assert after["thieves"][0]["pos"] == [8, 15]


def test_caught_thief_goes_to_her_own_start_square_whoever_stands_there():
    """Ruling D11 (amended 2026-11-24): "A thief sent back outside (D8) goes to her own start
    square, whoever stands there" (before: the nearest free Hotel Exit square)."""
    state = encounter_state()
    put(state, 1, [8, 15])
    after, _ = act(state, 0, {"type": "battle"}, *battle(0, 0))
    assert after["thieves"][0]["pos"] == [8, 15] == after["thieves"][1]["pos"]


def test_several_adjacent_podcasters_battle_in_order_until_caught():
    """D5: "every eligible podcaster adjacent to her battles her, one at a time in the order
    Scott, SoCal Mike, UK Mike, stopping if she is caught"."""
    state = encounter_state(backpack=["zapper"])
    state["podcasters"]["uk_mike"] = [9, 8]
    state["podcasters"]["socal_mike"] = [11, 8]
    after, events = act(state, 0, {"type": "battle"}, *battle(2, 2))
    assert events[0]["opponent"] == "scott" and after["turn"]["phase"] == "battle"
    after, events = act(after, 0, {"type": "battle"}, *battle(1, 1))
    assert events[0]["opponent"] == "socal_mike" and after["turn"]["phase"] == "battle"
    after, events = act(after, 0, {"type": "battle"}, *battle(0, 1))
    assert events[0]["opponent"] == "uk_mike" and events[0]["result"] == "caught"
    assert after["thieves"][0]["killed"] == ["scott", "socal_mike"]
    assert after["turn"]["phase"] == "roll"
    state = encounter_state()
    state["podcasters"]["uk_mike"] = [9, 8]
    after, events = act(state, 0, {"type": "battle"}, *battle(0, 0))
    assert after["turn"]["phase"] == "roll"  # caught by Scott: no battle with UK Mike


def test_an_escaped_podcaster_is_not_battled_twice_in_one_turn():
    """D5: each adjacent podcaster battles her once at the start of her turn."""
    state = encounter_state()
    state["podcasters"]["scott"] = [10, 5]
    put(state, 0, [10, 4])  # standing on Scott's start: he goes home next to her
    state["podcasters"]["scott"] = [11, 4]
    after, _ = act(state, 0, {"type": "battle"}, *battle(2, 2))
    assert after["podcasters"]["scott"] == [10, 3]  # adjacent again
    assert after["turn"]["phase"] == "roll"


# --- Carl ---------------------------------------------------------------------------------
def carl_state(backpack, dustpan=None, pos=(10, 10)):
    """Red in the lobby about to draw card 43 (Coffee Break with the Carl icon)."""
    state = parked(fresh())
    put(state, 0, [pos[0], pos[1] - 2], backpack=backpack)
    put(state, 1, [1, 16])
    state["carl"]["dustpan"] = dustpan
    for kind in backpack:
        state["items"].pop(f"red-{kind}", None)
    if dustpan is not None:
        state["items"].pop(dustpan, None)
    state["deck"] = [43] + [c for c in state["deck"] if c != 43]
    state, _ = roll_to(state, 0, (1, 1))
    return state, list(pos)


def draw_carl(state, to, *dice):
    return act(state, 0, {"type": "move", "to": to}, *dice)


def test_carl_is_placed_next_to_the_drawing_thief():
    """D7: "Carl is placed on a free floor square adjacent to her" (rulebook: "place him on a
    square next to the CD Thief"); N is tried first."""
    state, to = carl_state([])
    after, events = draw_carl(state, to, *battle(2, 2))
    assert after["carl"]["pos"] == [10, 9]
    assert [e["type"] for e in events][:3] == ["move", "card", "carl"]


def test_carl_steals_in_priority_order():
    """Rulebook: "CD Stack - Zapper - Key - VIP Pass - Studson"; without the Zapper and less
    than four hit points Carl steals."""
    state, to = carl_state(["key", "pass", "studson"])
    after, events = draw_carl(state, to, *battle(2, 1))
    assert after["carl"]["dustpan"] == "red-key"
    assert after["thieves"][0]["backpack"] == ["pass", "studson"]
    state, to = carl_state(["zapper", "pass"])
    after, _ = draw_carl(state, to, *battle(1, 0))  # with the Zapper, less than 2
    assert after["carl"]["dustpan"] == "red-zapper"
    assert after["thieves"][0]["backpack"] == ["pass"]


def test_four_hits_without_zapper_escape_carl():
    """Rulebook: "If you do not have the Zapper and you roll 4 hit points, you escape from
    Carl and nothing happens"."""
    state, to = carl_state(["key"])
    after, _ = draw_carl(state, to, *battle(2, 2))
    assert after["thieves"][0]["backpack"] == ["key"] and after["carl"]["dustpan"] is None


def test_carls_dustpan_holds_one_item_the_old_one_goes_home():
    """Rulebook: "Carl's Dustpan is only able to carry 1 item at a time, so whenever he steals
    an item, he must drop the one he is currently holding and it is returned to its starting
    position"."""
    state, to = carl_state(["pass"], dustpan="green-key")
    after, _ = draw_carl(state, to, *battle(0, 0))
    assert after["carl"]["dustpan"] == "red-pass"
    assert after["items"]["green-key"] == [19, 7]


def test_a_returned_item_goes_next_to_a_taken_start_square():
    """Rulebook: "(If that space is occupied, it is placed on an adjacent space)"; D7: "if
    occupied: the nearest free square"."""
    state, to = carl_state(["pass"], dustpan="green-key")
    state["podcasters"]["socal_mike"] = [19, 7]
    after, _ = draw_carl(state, to, *battle(0, 0))
    assert after["items"]["green-key"] == [19, 8]  # N is the wall, E the edge: S next


def test_shooting_carl_returns_her_own_item_to_her():
    """Rulebook: "If the CD Thief shoots Carl, they may take the item that he is carrying if
    it matches their color"; with the Zapper 2+ hit points shoots him."""
    state, to = carl_state(["zapper"], dustpan="red-key")
    after, events = draw_carl(state, to, *battle(1, 1))
    assert after["carl"]["dustpan"] is None
    assert after["thieves"][0]["backpack"] == ["zapper", "key"]
    assert any(e.get("result") == "shot" for e in events)


def test_shooting_carl_sends_another_colour_home_and_cds_to_the_casino():
    """Rulebook: "Otherwise it is returned to its starting position"; D7: "the CDs always go
    back to their Casino square"."""
    state, to = carl_state(["zapper"], dustpan="green-pass")
    after, _ = draw_carl(state, to, *battle(2, 0))
    assert after["items"]["green-pass"] == [19, 13] and after["carl"]["dustpan"] is None
    state, to = carl_state(["zapper"], dustpan="cds")
    after, _ = draw_carl(state, to, *battle(2, 0))
    assert after["items"]["cds"] == [2, 2]


def test_carl_with_nothing_to_steal_takes_nothing():
    """Carl's Inventory: he steals "(Providing the CD Thief has them)"."""
    state, to = carl_state([])
    after, events = draw_carl(state, to, *battle(0, 0))
    assert after["carl"]["dustpan"] is None
    assert any(e.get("result") == "stolen" and "item" not in e for e in events)


def test_carl_ignores_a_thief_outside_and_stays_put():
    """D7: Carl acts "When a drawn card shows the Carl icon and the drawing thief is inside
    the hotel"; "Carl then stays where he is until the next Carl icon"."""
    state = parked(fresh())
    put(state, 0, [1, 16], backpack=["key"])
    put(state, 1, [19, 16])
    state["deck"] = [43] + [c for c in state["deck"] if c != 43]
    state, _ = roll_to(state, 0, (1, 1))
    after, _ = act(state, 0, {"type": "move", "to": [3, 16]})
    assert after["carl"]["pos"] == [18, 4]
    assert after["thieves"][0]["backpack"] == ["key"]


def test_carl_is_not_placed_in_front_of_a_door_when_another_square_is_free():
    """D7 leaves open which adjacent square Carl takes; ours avoids a square in front of a
    door (he stays there until the next Carl icon and would seal the room). Red on the Casino
    door (4,6): N (4,5) and S (4,7) are in front of it, so Carl takes NE (5,5)."""
    state = parked(fresh())
    put(state, 0, [4, 8], backpack=["key"])
    put(state, 1, [19, 16])
    state["deck"] = [43] + [c for c in state["deck"] if c != 43]
    state, _ = roll_to(state, 0, (1, 1))
    after, _ = act(state, 0, {"type": "move", "to": [4, 6]}, *battle(2, 2))  # onto the door
    assert after["carl"]["pos"] == [5, 5]
    for kind, square in zip(
        ("key", "pass", "zapper", "studson"), ([5, 5], [3, 5], [3, 7], [5, 7]), strict=True
    ):
        state["items"][f"green-{kind}"] = square
    after, _ = act(state, 0, {"type": "move", "to": [4, 6]}, *battle(2, 2))
    assert after["carl"]["pos"] == [4, 5]  # no other adjacent square is free: N first


def test_carl_does_not_box_a_thief_in_when_he_can_help_it():
    """D7 leaves open which adjacent square Carl takes; ours leaves her a way to walk off:
    in the lounge's corner (19,13) the only way out is (18,13), so Carl takes (18,12)."""
    state = parked(fresh())
    put(state, 0, [17, 13])
    put(state, 1, [1, 16])
    state["items"].pop("green-pass")
    state["deck"] = [43] + [c for c in state["deck"] if c != 43]
    state, _ = roll_to(state, 0, (1, 1))
    after, _ = act(state, 0, {"type": "move", "to": [19, 13]}, *battle(2, 2))
    assert after["carl"]["pos"] == [18, 12]


def test_carl_behind_one_entrance_square_no_longer_bars_the_way_in():
    """Ruling D11 (amended 2026-11-24): the main entrance is three squares wide, (8,14),
    (9,14) and (10,14). Carl left on (9,13), behind the middle one, used to bar the way in
    until a thief drew a Carl icon on the entrance itself; now the hotel stays open beside
    him."""
    state = parked(fresh())
    state["carl"]["pos"] = [9, 13]
    put(state, 0, [9, 15])
    put(state, 1, [15, 16])
    state, _ = roll_to(state, 0, (1, 2))
    ends = {tuple(t) for t in state["turn"]["targets"]}
    assert (10, 13) in ends  # (9,15) -> (10,15) -> (10,14) -> (10,13)
    assert (9, 14) in ends  # and the middle square is still reachable (3 = 1 + 2)
    assert (9, 13) not in ends
