"""Frantic Mode: rulebook "Escape (Frantic Mode)" and Player Turn, ruling D9."""

from __future__ import annotations

from cd_factories import GAME, act, battle, fresh, parked, put, roll_to, rolls, targets


def casino_state():
    """Red in the Casino at (2,4) with her key and Studson, two steps from the CDs."""
    state = parked(fresh())
    put(state, 0, [2, 4], backpack=["key", "studson"], opened=["casino"])
    put(state, 1, [15, 16])
    for kind in ("key", "studson"):
        state["items"].pop(f"red-{kind}")
    return state


def frantic_red(at=(10, 7), **changes):
    state = casino_state()
    del state["items"]["cds"]
    put(state, 0, list(at), backpack=["cds", "key", "studson"], **changes)
    state["frantic"] = 0
    return state


def test_landing_on_the_cds_with_the_studson_starts_frantic_mode_and_a_new_turn():
    """Rulebook: "If a CD Thief lands on the stack of CDs their current turn ends and they
    immediately begin a new turn"; "put the stack of CDs in their Backpack"; D9.1."""
    state = casino_state()
    deck = list(state["deck"])
    state, _ = roll_to(state, 0, (1, 1))
    assert (2, 2) in targets(state)
    after, events = act(state, 0, {"type": "move", "to": [2, 2]})
    assert after["frantic"] == 0
    assert "cds" in after["thieves"][0]["backpack"] and "cds" not in after["items"]
    assert after["turn"]["seat"] == 0 and after["turn"]["number"] == 2
    assert after["turn"]["phase"] == "roll"
    assert after["deck"] == deck and after["last_card"] is None  # the turn ended: no card
    assert any(e["type"] == "frantic" for e in events)


def test_stealing_needs_the_studson_and_the_casino():
    """Rulebook: "In order to steal the CDs, the CD Thief must have their Studson in their
    Backpack and be in the Casino"."""
    state = casino_state()
    put(state, 0, [2, 4], backpack=["key"])
    state, _ = roll_to(state, 0, (1, 1))
    assert (2, 2) not in targets(state)


def test_the_new_frantic_turn_starts_with_the_encounter_check():
    """D9.1: "the same player immediately takes a new turn: encounter check, CDs into
    backpack, roll 2d6 and move"."""
    state = casino_state()
    state["podcasters"]["uk_mike"] = [3, 1]
    state, _ = roll_to(state, 0, (1, 1))
    after, _ = act(state, 0, {"type": "move", "to": [2, 2]})
    assert after["turn"]["seat"] == 0 and after["turn"]["phase"] == "battle"


def test_itg_chases_after_the_frantic_move_and_catches_by_landing_on_her():
    """Rulebook: "they should then roll the 1 white movement die for Intellivision-The-Great
    who will try to apprehend them by landing on the same square"; D9.2; caught: "drop the
    CDs on the nearest square in between them and the Casino" (D9.5: first free square of the
    shortest path toward the CDs' Casino square), back to the start, Frantic Mode ends, ITG
    returns to his start square."""
    state = frantic_red(at=(2, 2))
    state["itg"] = [1, 1]
    state, _ = roll_to(state, 0, (1, 2))
    after, events = act(state, 0, {"type": "move", "to": [3, 4]}, *rolls(3))
    itg = next(e for e in events if e["type"] == "itg" and e.get("die"))
    assert itg["die"] == 3 and itg["caught"] and itg["path"][-1] == [3, 4]
    assert after["items"]["cds"] == [3, 3]  # path (3,4) (3,3) (3,2) (2,2): first free (3,3)
    assert after["thieves"][0]["pos"] == [8, 15]
    assert "cds" not in after["thieves"][0]["backpack"]
    assert after["frantic"] is None and after["itg"] == [5, 3]
    assert after["turn"]["seat"] == 1


def test_itg_moves_diagonally_through_walls_and_not_onto_others():
    """Rulebook: ITG "can move diagonally and through the walls"; D9.2: "otherwise he must not
    end on another character or an item (back up along his path as in D4)"."""
    state = frantic_red(at=(10, 7))
    state["itg"] = [5, 3]
    state, _ = roll_to(state, 0, (1, 1))
    after, events = act(state, 0, {"type": "move", "to": [12, 7]}, *rolls(4))
    itg = next(e for e in events if e["type"] == "itg")
    # (5,3) -> SE (6,4) -> SE (7,5) wall -> SE (8,6) -> SE (9,7): ends on floor.
    assert itg["path"] == [[5, 3], [6, 4], [7, 5], [8, 6], [9, 7]]
    assert after["itg"] == [9, 7] and not itg["caught"] and after["frantic"] == 0
    state = frantic_red(at=(10, 7))
    state["itg"] = [5, 3]
    state["items"]["green-key"] = [9, 7]
    state, _ = roll_to(state, 0, (1, 1))
    after, _ = act(state, 0, {"type": "move", "to": [12, 7]}, *rolls(4))
    assert after["itg"] == [8, 6]


def test_no_event_cards_during_frantic_mode():
    """Rulebook: "During Frantic Mode no Event Cards will be used during any player turns";
    D9.3: other thieves play normally, podcasters stay put."""
    state = frantic_red(at=(10, 7))
    state["itg"] = [1, 1]
    deck = list(state["deck"])
    state, _ = roll_to(state, 0, (1, 1))
    state, events = act(state, 0, {"type": "move", "to": [12, 7]}, *rolls(1))
    assert not any(e["type"] == "card" for e in events)
    podcasters = dict(state["podcasters"])
    state, _ = roll_to(state, 1, (1, 1))
    state, events = act(state, 1, {"type": "move", "to": [17, 16]})
    assert not any(e["type"] in ("card", "itg") for e in events)
    assert state["deck"] == deck and state["podcasters"] == podcasters
    assert state["turn"]["seat"] == 0


def test_itg_ignores_other_thieves():
    """Rulebook: "Intellevision-The-Great does not affect any other CD Thieves in any way,
    only the Frantic Thief"."""
    state = frantic_red(at=(10, 7))
    itg = list(state["itg"])
    state["turn"]["seat"] = 1
    put(state, 1, [10, 12])
    state, _ = roll_to(state, 1, (1, 1))
    after, _ = act(state, 1, {"type": "move", "to": [10, 10]})
    assert after["itg"] == itg and after["thieves"][1]["pos"] == [10, 10]


def test_losing_a_podcaster_battle_drops_the_cds_where_she_stands():
    """Rulebook: "If the CD Thief loses a battle with a Podcaster during Frantic Mode they
    should drop the CDs on the square that they are currently on and return to their
    starting point ... Frantic Mode ends"; D9.5."""
    state = frantic_red(at=(10, 7))
    state["podcasters"]["scott"] = [10, 6]
    state["turn"]["phase"] = "battle"
    after, _ = act(state, 0, {"type": "battle"}, *battle(1, 1))
    assert after["items"]["cds"] == [10, 7]
    assert after["thieves"][0]["pos"] == [8, 15] and after["frantic"] is None
    assert after["itg"] == [5, 3]


def test_winning_a_podcaster_battle_keeps_frantic_mode():
    """Rulebook: "If the CD Thief wins a battle with a Podcaster during Frantic Mode they
    should follow the Killing A Podcaster section and the game continues in Frantic Mode"."""
    state = frantic_red(at=(10, 7))
    state["thieves"][0]["backpack"] = ["cds", "zapper", "key", "studson"]
    state["podcasters"]["scott"] = [10, 6]
    state["turn"]["phase"] = "battle"
    after, _ = act(state, 0, {"type": "battle"}, *battle(2, 0))
    assert after["frantic"] == 0 and after["thieves"][0]["killed"] == ["scott"]


def test_reaching_the_exit_with_the_cds_wins_at_once():
    """Rulebook: "If the Frantic Thief manages to escape while holding the CD Stack in his
    backpack, then they have won the game"; D9.4: "Reaching any Hotel Exit square with the
    CDs wins at once (the move may stop there early)"."""
    state = frantic_red(at=(9, 13))
    state, _ = roll_to(state, 0, (2, 3))
    assert (9, 15) in targets(state)  # 2 steps on a roll of 5: she stops early, outside
    assert (8, 15) in targets(state)  # 3 steps through the entrance's west square (D11)
    assert (9, 16) not in targets(state)  # she is out (and has won) at (9,15) already
    after, events = act(state, 0, {"type": "move", "to": [9, 15]})
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,)
    assert events[-1]["type"] == "game_over"
    assert GAME.active_seats(after) == frozenset() and GAME.legal_moves(after, 0) == []


def test_dropped_cds_can_be_picked_up_anywhere_with_a_studson():
    """Rulebook: "gameplay returns to normal with any CD Thief being able to pick up the
    dropped CDs as long as they have the Studson Aftershave"; D9.6: "wherever they are; that
    starts a new Frantic Mode"."""
    state = parked(fresh())
    put(state, 0, [1, 16])
    put(state, 1, [10, 8], backpack=["studson"])
    state["items"]["cds"] = [10, 10]
    state["turn"]["seat"] = 1
    state, _ = roll_to(state, 1, (1, 1))
    after, _ = act(state, 1, {"type": "move", "to": [10, 10]})
    assert after["frantic"] == 1 and after["turn"]["seat"] == 1
    assert "cds" in after["thieves"][1]["backpack"]


def test_podcasters_still_battle_during_frantic_mode():
    """D9.3: "podcasters stay put but still battle adjacent thieves at the start of their
    turns" -- other thieves too."""
    state = frantic_red(at=(10, 7))
    state["itg"] = [1, 1]
    put(state, 1, [15, 8])
    state["podcasters"]["socal_mike"] = [16, 7]
    state, _ = roll_to(state, 0, (1, 1))
    after, _ = act(state, 0, {"type": "move", "to": [12, 7]}, *rolls(1))
    assert after["turn"]["seat"] == 1 and after["turn"]["phase"] == "battle"
    assert after["podcasters"]["socal_mike"] == [16, 7]


def test_frantic_thief_caught_by_itg_on_her_last_life_is_out_and_the_cds_stay():
    """D9.5 then D8 in difficult mode: caught by ITG, the CDs are dropped toward the Casino,
    she loses her last life and is out with her items (one in Carl's dustpan too), Frantic
    Mode ends with ITG back home, and the dropped CDs stay in play for the others (D9.6)."""
    state = frantic_red(at=(2, 2), lives=1)
    state["difficult"] = True
    state["thieves"][1]["lives"] = 5
    state["carl"]["dustpan"] = "red-pass"
    state["itg"] = [1, 1]
    state, _ = roll_to(state, 0, (1, 2))
    after, events = act(state, 0, {"type": "move", "to": [3, 4]}, *rolls(3))
    red = after["thieves"][0]
    assert red["out"] and red["pos"] is None and red["backpack"] == [] and red["lives"] == 0
    assert after["items"]["cds"] == [3, 3]
    assert not any(item.startswith("red-") for item in after["items"])
    assert after["carl"]["dustpan"] is None
    assert after["frantic"] is None and after["itg"] == [5, 3]
    assert after["turn"]["seat"] == 1 and GAME.outcome(after) is None
    assert [e["type"] for e in events].index("drop") < [e["type"] for e in events].index("out")
