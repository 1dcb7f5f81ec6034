"""CD Thief movement: rulebook "CD Thief Movement" with rulings D2 (access) and D3 (exact
movement); the 2d6 roll and the legal end squares."""

from __future__ import annotations

import pytest
from cd_factories import GAME, act, fresh, parked, put, quiet_deck, roll_to, rolls, targets

from app.engine.contract import IllegalMove
from app.games.cd_thief.board import is_exit, terrain
from app.games.cd_thief.movement import Walker


def walker_targets(state, seat, steps):
    return set(Walker(state, seat).targets(steps))


def corridor_state():
    """Red alone in the corridor at (10,7); green parked outside."""
    state = parked(fresh())
    put(state, 0, [10, 7])
    put(state, 1, [1, 16])
    return state


def test_roll_is_two_dice_and_lists_the_end_squares():
    """Rulebook Player Turn: "Roll the 2 Movement Dice and move"; D3: N = 2d6; the legal end
    squares become the seat's move list (the client highlights them)."""
    state = corridor_state()
    after, events = roll_to(state, 0, (3, 4))
    assert events[0]["type"] == "roll" and events[0]["dice"] == [3, 4]
    assert events[0]["total"] == 7
    assert after["turn"]["phase"] == "move" and after["turn"]["dice"] == [3, 4]
    assert GAME.legal_moves(after, 0) == [
        {"type": "move", "to": t} for t in after["turn"]["targets"]
    ]
    assert targets(after) == walker_targets(state, 0, 7)


def test_end_squares_are_at_distance_with_the_parity_of_the_roll():
    """D3: "the legal end squares are the squares at path distance d <= N with N - d even"
    (exact N orthogonal steps, back and forth allowed)."""
    state = corridor_state()
    ends = walker_targets(state, 0, 2)
    assert ends == {(10, 7), (8, 7), (12, 7), (9, 8), (11, 8), (10, 9), (10, 5), (9, 6), (11, 6)}
    odd = walker_targets(state, 0, 3)
    assert (10, 7) not in odd and (13, 7) in odd and (10, 8) in odd


def test_thieves_move_orthogonally_only():
    """Rulebook: "The CD Thief may not move diagonally." One step reaches only the four
    orthogonal neighbours."""
    state = corridor_state()
    assert walker_targets(state, 0, 1) == {(10, 6), (11, 7), (10, 8), (9, 7)}


def test_thieves_do_not_pass_walls():
    """Rulebook: "may not move through walls (thick bars)"; D1: walls are squares."""
    state = corridor_state()
    put(state, 0, [2, 7])
    assert walker_targets(state, 0, 1) == {(3, 7), (2, 8), (1, 7)}  # (2,6) is the wall


def test_characters_block_passage():
    """D3: "Other characters (thieves, podcasters, Carl, ITG) block passage"; rulebook: no two
    characters on one square."""
    state = corridor_state()
    put(state, 0, [10, 10])  # the lobby's top row
    state["podcasters"]["scott"] = [10, 9]
    put(state, 1, [9, 10])
    state["carl"]["pos"] = [11, 10]
    ends = walker_targets(state, 0, 2)
    assert (10, 8) not in ends and (10, 9) not in ends and (9, 10) not in ends
    assert (10, 12) in ends and (10, 10) in ends


def test_other_items_can_be_passed_over_but_not_landed_on():
    """D3: "Items of other colours may be passed over but not landed on"; rulebook: "may only
    collect items matching his own color"."""
    state = corridor_state()
    put(state, 0, [3, 7])
    state["items"]["green-key"] = [2, 7]
    assert (2, 7) not in walker_targets(state, 0, 1)
    assert (1, 7) in walker_targets(state, 0, 2)  # her own key, reached over the green one


def test_landing_on_own_item_picks_it_up_without_a_step():
    """Rulebook: "Collecting an item ... does not require a movement point, it is simply picked
    up by landing on it"; D3."""
    state = corridor_state()
    put(state, 0, [4, 7])
    quiet_deck(state)
    state, _ = roll_to(state, 0, (1, 2))
    assert (1, 7) in targets(state)
    after, events = act(state, 0, {"type": "move", "to": [1, 7]})
    assert after["thieves"][0]["backpack"] == ["key"]
    assert "red-key" not in after["items"]
    assert after["thieves"][0]["pos"] == [1, 7]
    assert any(e["type"] == "pickup" and e["item"] == "red-key" for e in events)


def test_cds_without_studson_count_as_someone_elses_item():
    """D3: "the CDs without a Studson count the same" (passable, not a landing square)."""
    state = corridor_state()
    put(state, 0, [3, 2], backpack=["key"])
    assert (2, 2) not in walker_targets(state, 0, 1)
    put(state, 0, [3, 2], backpack=["key", "studson"])
    assert (2, 2) in walker_targets(state, 0, 1)


def test_fewer_steps_when_no_square_is_reachable_exactly():
    """Rulebook: "does not have to take their full movement, if doing so would mean that they
    would occupy the same space as another character or item"; D3: if no legal end square
    exists she may stop on any free square reachable in fewer steps."""
    state = corridor_state()
    # Red boxed in at (1,8): a green item at (1,7) (passable), then (2,7) free; UK Mike at
    # (2,8) and green at (3,7) close the pocket. Every odd walk ends on the green item.
    put(state, 0, [1, 8])
    put(state, 1, [3, 7])
    state["podcasters"]["uk_mike"] = [2, 8]
    state["items"]["green-key"] = [1, 7]
    state["items"].pop("red-key")
    assert walker_targets(state, 0, 3) == {(1, 8), (2, 7)}
    assert walker_targets(state, 0, 4) == {(1, 8), (2, 7)}  # even: exact squares exist
    # Completely boxed in: she stays where she is.
    put(state, 1, [1, 7])
    state["items"].pop("green-key")
    assert walker_targets(state, 0, 5) == {(1, 8)}


def test_exact_roll_is_required_when_possible():
    """D3: "The thief must make exactly N orthogonal steps"; a nearer square of the wrong
    parity is refused."""
    state = corridor_state()
    state, _ = roll_to(state, 0, (1, 2))
    assert (11, 7) in targets(state)  # 1 step plus a step back and forth
    assert (12, 7) not in targets(state)
    with pytest.raises(IllegalMove):
        act(state, 0, {"type": "move", "to": [12, 7]})


def test_rooms_need_the_key_or_the_opened_counter():
    """D2: Casino/Museum squares and doors need the Key or the room's opened counter; VIP
    squares need the VIP Pass or the VIP counter; "Without access those squares act as
    walls"."""
    state = corridor_state()
    put(state, 0, [4, 7])
    assert (4, 6) not in walker_targets(state, 0, 1)
    put(state, 0, [4, 7], backpack=["key"])
    assert (4, 6) in walker_targets(state, 0, 1)
    put(state, 0, [4, 7], backpack=[], opened=["casino"])
    assert (4, 6) in walker_targets(state, 0, 1)
    assert (4, 8) in walker_targets(state, 0, 1)
    put(state, 0, [4, 8], backpack=[], opened=[])
    assert (4, 9) not in walker_targets(state, 0, 1)
    put(state, 0, [4, 8], backpack=["pass"])
    assert (4, 9) in walker_targets(state, 0, 1)
    put(state, 0, [16, 7], backpack=[], opened=["casino"])
    assert (16, 6) not in walker_targets(state, 0, 1)  # the Casino counter opens no Museum


def test_passing_a_door_with_the_item_opens_it_for_good():
    """D2: "A thief holding the item who enters (or passes through) the door square gets the
    counter permanently (losing the item later does not close it)"."""
    state = corridor_state()
    put(state, 0, [4, 8], backpack=["key"])
    quiet_deck(state)
    state, _ = roll_to(state, 0, (1, 2))
    after, events = act(state, 0, {"type": "move", "to": [4, 5]})
    assert after["thieves"][0]["opened"] == ["casino"]
    assert any(e["type"] == "door" and e["room"] == "casino" for e in events)
    after["thieves"][0]["backpack"] = []
    put(after, 0, [4, 7])
    assert (4, 6) in walker_targets(after, 0, 1)


def test_standing_on_a_door_without_the_item_opens_nothing():
    """D2: only a thief holding the item gets the counter (entering with the counter alone
    gives nothing new)."""
    state = corridor_state()
    put(state, 0, [4, 8], opened=["vip"])
    quiet_deck(state)
    state, _ = roll_to(state, 0, (1, 1))
    after, events = act(state, 0, {"type": "move", "to": [4, 10]})
    assert after["thieves"][0]["opened"] == ["vip"]
    assert not any(e["type"] == "door" for e in events)


def test_the_main_entrance_is_three_squares_wide_and_open_to_all():
    """3(d) legend: "E main entrance (open to all)"; ruling D11 (amended 2026-11-24): "The
    main entrance is three squares wide: (8,14), (9,14) and (10,14) are all E"."""
    assert [x for x in range(21) if terrain((x, 14)) == "E"] == [8, 9, 10]
    state = fresh(4)
    for seat, x in enumerate((8, 9, 10)):  # Red, Green, Yellow start below one each
        assert state["thieves"][seat]["pos"] == [x, 15]
        assert (x, 14) in walker_targets(state, seat, 1)


def test_the_old_blockade_a_thief_parked_on_9_15_keeps_nobody_out_or_in():
    """Ruling D11 (amended 2026-11-24): one thief on her start square (9,15) "kept every other
    thief out of the hotel, and every thief carrying the CDs from escaping". Green parks on
    (9,15) for good; Red, right behind her at (9,16), gets in through her square, and later,
    running with the CDs from the Lobby, gets out onto it and wins ("any number of thieves may
    stand on, pass through and end on the same Hotel Exit square")."""
    state = parked(fresh())
    put(state, 1, [9, 15])
    put(state, 0, [9, 16])
    state["deck"] = [48, 49] + [c for c in state["deck"] if c not in (48, 49)]
    # Getting in: 2 steps, (9,16) -> (9,15) past Green -> (9,14), the entrance.
    state, _ = roll_to(state, 0, (1, 1))
    assert (9, 14) in targets(state)
    state, _ = act(state, 0, {"type": "move", "to": [9, 14]})
    assert state["thieves"][0]["pos"] == [9, 14]
    # Green stays parked: 2 steps out and back to (9,15).
    state, _ = roll_to(state, 1, (1, 1))
    assert (9, 15) in targets(state)
    state, _ = act(state, 1, {"type": "move", "to": [9, 15]})
    assert state["thieves"][1]["pos"] == [9, 15] and state["turn"]["seat"] == 0
    # Getting out: Red arrives in the Lobby with the CDs (Frantic Mode) and rolls 3:
    # (9,12) -> (9,13) -> (9,14) -> (9,15), Green's square, the only Hotel Exit square
    # within 3 steps.
    put(state, 0, [9, 12], backpack=["cds", "key", "studson"], opened=["casino"])
    del state["items"]["cds"]
    state["frantic"] = 0
    state, _ = roll_to(state, 0, (1, 2))
    assert [t for t in targets(state) if is_exit(t)] == [(9, 15)]
    after, events = act(state, 0, {"type": "move", "to": [9, 15]})
    assert after["thieves"][0]["pos"] == after["thieves"][1]["pos"] == [9, 15]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,)
    assert events[-1]["type"] == "game_over"


def test_nobody_blocks_outside_the_hotel():
    """Ruling D11 (amended 2026-11-24): "Outside the hotel nobody blocks: any number of
    thieves may stand on, pass through and end on the same Hotel Exit square (x, the start
    squares included)". Red in the Hotel Exit's corner (1,15), walled in by Green (2,15) and
    Yellow (1,16): she walks through both of them and may end on either."""
    state = parked(fresh(3))
    put(state, 0, [1, 15])
    put(state, 1, [2, 15])
    put(state, 2, [1, 16])
    assert walker_targets(state, 0, 1) == {(2, 15), (1, 16)}
    assert {(3, 15), (2, 16), (1, 15)} <= walker_targets(state, 0, 2)
    state = fresh(4)  # every start square taken: each thief may still step onto another's
    assert (9, 15) in walker_targets(state, 0, 1) and (10, 15) in walker_targets(state, 0, 2)


def test_inside_the_hotel_thieves_still_block_the_entrance_squares():
    """Ruling D11 (amended 2026-11-24): "Inside the hotel D3's blocking stands"; the entrance
    squares are inside. Green on (9,14) blocks it for Red on (9,13), who goes round by (8,14)
    or (10,14)."""
    state = parked(fresh())
    put(state, 0, [9, 13])
    put(state, 1, [9, 14])
    assert (9, 14) not in walker_targets(state, 0, 1)
    assert (9, 15) not in walker_targets(state, 0, 2)  # 2 steps only through Green
    assert (9, 15) in walker_targets(state, 0, 4)  # (10,13) (10,14) (10,15) (9,15)


def test_a_match_begun_under_rules_1_keeps_its_single_entrance_and_blocking_outside():
    """Amendments do not rewrite matches already played: a match begun under rules version 1
    (before D11) keeps one entrance square, (9,14), and a thief outside still blocks."""
    state = GAME.keep_older_rules(parked(fresh(4)), "1")
    # Red on (8,15): (8,14) is a wall again and Green's (9,15) blocks.
    assert walker_targets(state, 0, 1) == {(7, 15), (8, 16)}
    assert {(8, 14), (9, 15)} <= walker_targets(fresh(4), 0, 1)
    assert (9, 14) in walker_targets(state, 1, 1)
    assert GAME.view(state, None)["map"][14] == "#########E###########"
    assert GAME.view(fresh(4), None)["map"][14] == "########EEE##########"


def test_moving_then_the_event_card_is_drawn():
    """Rulebook Player Turn: after moving, "Take the top card from the Event Deck"."""
    state = corridor_state()
    quiet_deck(state, 48)
    state, _ = roll_to(state, 0, (1, 1))
    after, events = act(state, 0, {"type": "move", "to": [12, 7]})
    card = [e for e in events if e["type"] == "card"]
    assert card and card[0]["card"]["number"] == 48
    assert after["last_card"] == 48 and after["discard"] == [48]
    assert after["turn"]["seat"] == 1 and after["turn"]["phase"] == "roll"


def test_roll_dice_are_the_move_dice():
    """House rule: every die comes from the move's Dice and is shown in an event."""
    state = corridor_state()
    _after, events = act(state, 0, {"type": "roll"}, *rolls(6, 6))
    assert events[0]["dice"] == [6, 6] and events[0]["total"] == 12


def test_the_move_is_told_by_the_place_not_by_coordinates():
    """QA: "Green moves 12 steps to 17,15." in the dice panel and log, on a map that shows no
    coordinates. The move event names the room or area the thief reaches instead."""
    state = corridor_state()
    quiet_deck(state, 48)
    state, _ = roll_to(state, 0, (1, 1))
    _after, events = act(state, 0, {"type": "move", "to": [12, 7]})
    move = next(e for e in events if e["type"] == "move")
    assert move["text"] == "Red moves 2 steps to the middle of the corridor."
    assert not any(char.isdigit() for char in move["text"].replace("2 steps", ""))


def test_every_offered_end_square_has_a_place_name_in_the_view():
    """The client labels each highlighted square with `turn.target_places` (parallel to
    `turn.targets`), since the map it draws has no coordinates."""
    state = corridor_state()
    rolled, _ = roll_to(state, 0, (6, 6))
    turn = GAME.view(rolled, 0)["turn"]
    assert len(turn["target_places"]) == len(turn["targets"]) > 0
    assert all(
        isinstance(place, str) and place.startswith("the ") for place in turn["target_places"]
    )
    assert GAME.view(state, 0)["turn"]["target_places"] == []
