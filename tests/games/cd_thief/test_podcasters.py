"""Podcaster movement and the Event cards: rulebook "Podcaster Movement", "Event Deck",
"Killing a Podcaster" with rulings D4 and D10 and the card effects of 3(d)."""

from __future__ import annotations

from cd_factories import act, fresh, parked, put, roll_to

from app.games.cd_thief.podcasters import closest_thief, king_walk, resolve_effect


def name(seat):
    return ["Red", "Green", "Yellow", "Blue"][seat]


def outside_state(players=2):
    """Every thief outside (bottom row), podcasters at their start squares."""
    state = parked(fresh(players))
    for seat in range(players):
        put(state, seat, [1 + seat, 16])
    state["podcasters"] = {"scott": [10, 4], "socal_mike": [17, 11], "uk_mike": [3, 8]}
    return state


def effect(state, kind, who, drawer=0, **more):
    return resolve_effect(state, {"kind": kind, "who": who, **more}, drawer, name)


def path_of(events, who):
    return [tuple(p) for e in events if e["podcaster"] == who for p in e["path"]]


def test_straight_steps_prefer_the_larger_manhattan_gain():
    """D4: each step reduces the Chebyshev distance; "ties are broken by the larger Manhattan
    reduction". Card 25 Door Duty: Scott from (10,4) toward the Lobby (10,12), 5 steps,
    goes straight south (S gains 1 Manhattan, SE and SW gain 0)."""
    state = outside_state()
    events = effect(state, "patrol", "scott", place="lobby", steps=5)
    assert path_of(events, "scott") == [(10, 4), (10, 5), (10, 6), (10, 7), (10, 8), (10, 9)]
    assert state["podcasters"]["scott"] == [10, 9]


def test_podcasters_move_diagonally_through_walls_and_back_up_off_them():
    """Rulebook: "Podcasters CAN move diagonally" and "through walls"; D4: "If its last
    allowed step ends on a forbidden square, it goes back along its path to the last allowed
    square". Card 11-style patrol: UK Mike (3,8) toward the Museum door (16,6), 4 steps:
    NE (4,7), NE (5,6) wall, E (6,6) wall, E (7,6) wall -> back to (4,7)."""
    state = outside_state()
    assert king_walk((3, 8), {(16, 6)}, 4, lambda s: False, lambda s: True) == [
        (3, 8),
        (4, 7),
        (5, 6),
        (6, 6),
        (7, 6),
    ]
    events = effect(state, "patrol", "uk_mike", place="museum_door", steps=4)
    assert path_of(events, "uk_mike") == [(3, 8), (4, 7)]


def test_podcasters_never_end_on_a_door():
    """D4: a podcaster "may not end on a wall, door, item, the CDs or any character". Card 17
    Velvet Rope: UK Mike next to the VIP door steps onto it and backs off again."""
    state = outside_state()
    events = effect(state, "patrol", "uk_mike", place="vip_door", steps=4)
    assert path_of(events, "uk_mike") == [(3, 8)]


def test_podcasters_never_end_on_an_item_or_a_character():
    """D4 / rulebook: "No two characters or items can occupy the same space". Scott's path
    south ends on an item: he backs up one square."""
    state = outside_state()
    state["items"]["red-pass"] = [10, 9]
    effect(state, "patrol", "scott", place="lobby", steps=5)
    assert state["podcasters"]["scott"] == [10, 8]
    state = outside_state()
    state["carl"]["pos"] = [10, 9]
    effect(state, "patrol", "scott", place="lobby", steps=5)
    assert state["podcasters"]["scott"] == [10, 8]


def test_podcasters_never_enter_the_hotel_exit():
    """D4: a podcaster "may not enter the Hotel Exit area": at the entrance no step toward the
    outside is allowed."""
    assert king_walk((9, 13), {(9, 16)}, 3, lambda s: False, lambda s: s != (9, 14)) == [(9, 13)]


def test_a_podcaster_stops_next_to_a_thief_who_has_not_killed_him():
    """Rulebook: "If during the Podcaster(s) movement, they enter a square adjacent to a CD
    Thief AND that CD Thief has not already killed that particular Podcaster, they must
    stop"; D4: "After every step: if it is now adjacent (8 neighbours) to any inside thief
    that has not killed it, it stops"."""
    state = outside_state()
    put(state, 1, [11, 8])
    events = effect(state, "patrol", "scott", place="lobby", steps=5)
    assert path_of(events, "scott")[-1] == (10, 7)


def test_a_killed_podcaster_walks_past_his_killer():
    """Rulebook, Killing a Podcaster: "They should still follow any movement instructions on
    Event Cards for that Podcaster but they do not need to do battle again"."""
    state = outside_state()
    put(state, 1, [11, 8], killed=["scott"])
    effect(state, "patrol", "scott", place="lobby", steps=5)
    assert state["podcasters"]["scott"] == [10, 9]


def test_chase_goes_to_a_square_next_to_the_closest_thief():
    """D4: "A goal of 'thief X' means 'any square adjacent to X'"; CHASE = toward the
    closest eligible thief (card 31 Espresso Rush, Scott 6)."""
    state = outside_state()
    put(state, 0, [10, 12])  # the Lobby, 8 rows below Scott
    events = effect(state, "chase", "scott", steps=6)
    assert path_of(events, "scott") == [
        (10, 4),
        (10, 5),
        (10, 6),
        (10, 7),
        (10, 8),
        (10, 9),
        (10, 10),
    ]
    state = outside_state()
    put(state, 0, [10, 12])
    effect(state, "chase", "scott", steps=12)
    assert state["podcasters"]["scott"] == [10, 11]  # stops next to her, never on her


def test_closest_thief_ties_go_to_the_current_player_then_clockwise():
    """D4: "Closest thief = smallest Chebyshev distance among eligible thieves ...; ties go to
    the current player, then clockwise"."""
    state = outside_state(4)
    put(state, 0, [7, 7])
    put(state, 2, [13, 7])  # both 3 from Scott at (10,4)
    assert closest_thief(state, "scott", drawer=0) == 0
    assert closest_thief(state, "scott", drawer=2) == 2
    assert closest_thief(state, "scott", drawer=1) == 2  # clockwise from green: yellow first
    assert closest_thief(state, "scott", drawer=3) == 0


def test_killers_are_invisible_to_their_victim():
    """Rulebook: "they are considered invisible and the closest CD Thief will be that who has
    not yet killed that Podcaster"; D4 eligibility."""
    state = outside_state()
    put(state, 0, [10, 7], killed=["scott"])
    put(state, 1, [15, 12])
    assert closest_thief(state, "scott", drawer=0) == 1


def test_thieves_outside_are_not_chased_and_nobody_eligible_means_no_move():
    """D4: eligible thieves are "inside the hotel"; "No eligible thief: the podcaster does
    not move"."""
    state = outside_state()
    events = effect(state, "chase", "scott", steps=4)
    assert path_of(events, "scott") == [(10, 4)]
    assert state["podcasters"]["scott"] == [10, 4]


def test_hunt_targets_the_drawer_or_acts_as_chase():
    """3(d): "HUNT who n = toward the thief who drew the card (if she is not eligible, act as
    CHASE)"."""
    state = outside_state()
    put(state, 0, [10, 12])
    put(state, 1, [12, 7])
    effect(state, "hunt", "scott", drawer=0, steps=3)
    assert state["podcasters"]["scott"] == [10, 7]  # toward red, not the nearer green
    state = outside_state()
    put(state, 0, [10, 12], killed=["scott"])
    put(state, 1, [14, 7])
    effect(state, "hunt", "scott", drawer=0, steps=3)
    # Red is invisible to Scott: he chases green instead: SE (11,5), SE (12,6), E (13,6)
    # next to her -- a wall, so he backs up to (12,6).
    assert state["podcasters"]["scott"] == [12, 6]


def test_home_sends_a_podcaster_to_his_start_or_the_nearest_free_square():
    """3(d): "HOME who = back to its start square (nearest free square if taken)"."""
    state = outside_state()
    state["podcasters"]["scott"] = [15, 8]
    effect(state, "home", "scott")
    assert state["podcasters"]["scott"] == [10, 4]
    state["podcasters"]["scott"] = [15, 8]
    put(state, 0, [10, 4])
    effect(state, "home", "scott")
    assert state["podcasters"]["scott"] == [10, 3]  # N of the taken start square


def test_swap_exchanges_two_podcasters():
    """3(d): "SWAP a b = exchange squares" (card 28 Wrong Room)."""
    state = outside_state()
    effect(state, "swap", "scott", **{"with": "socal_mike"})
    assert state["podcasters"]["scott"] == [17, 11]
    assert state["podcasters"]["socal_mike"] == [10, 4]


def test_patrol_toward_the_cd_stack_uses_the_casino_square_while_carried():
    """3(d): "CD stack = the CDs' current square (their Casino square if carried)"."""
    state = outside_state()
    state["items"]["cds"] = [12, 12]
    effect(state, "patrol", "socal_mike", place="cd_stack", steps=4)
    assert state["podcasters"]["socal_mike"] == [13, 12]  # SW, W, W, W
    state = outside_state()
    del state["items"]["cds"]
    effect(state, "patrol", "uk_mike", place="cd_stack", steps=2)
    # Toward (2,2): NW (2,7), N (2,6) is the Casino wall, so he backs up to (2,7).
    assert state["podcasters"]["uk_mike"] == [2, 7]


def test_card_moves_podcasters_first_then_carl():
    """Rulebook Event Deck: "you must complete the Podcaster movement first and then activate
    the Carl icon"; card 1 Mic Check: CHASE Scott 2, Carl."""
    state = outside_state()
    put(state, 0, [10, 9])
    state["deck"] = [1] + [c for c in state["deck"] if c != 1]
    state, _ = roll_to(state, 0, (1, 1))
    after, events = act(state, 0, {"type": "move", "to": [10, 11]}, 0, 0)  # Carl: 0+0 hits
    kinds = [e["type"] for e in events]
    assert kinds.index("podcaster") < kinds.index("carl") < kinds.index("battle")
    assert after["podcasters"]["scott"] == [10, 6]


def test_several_podcasters_move_in_the_order_listed():
    """3(d): "Several podcasters on one card move in the order listed" (card 22 Breaking
    News: Scott, SoCal Mike, UK Mike)."""
    state = outside_state()
    put(state, 0, [10, 8])
    state["deck"] = [22] + [c for c in state["deck"] if c != 22]
    state, _ = roll_to(state, 0, (1, 1))
    _after, events = act(state, 0, {"type": "move", "to": [10, 10]})
    assert [e["podcaster"] for e in events if e["type"] == "podcaster"] == [
        "scott",
        "socal_mike",
        "uk_mike",
    ]
