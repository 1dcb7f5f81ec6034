"""C64 Monsters: rulebook "C64 Monsters" with rulings C1, C2
(docs/rules/families/c64-board-rulings.md), C6 (docs/rules/c64-monsters.md) and map M.

Scenarios use `monsters_state`: by default 4 players in seat order, so seat 0 = Red (S, corner
a1, centre d4), 1 = Blue (W, a8, d5), 2 = Green (N, h8, e5), 3 = Yellow (E, h1, e4), every
monster and treasure on its centre square, nobody carrying. Most scenarios clear the walls
(`walls=[]`) so that only the pieces named matter. `act(state, seat, face)` gives the seat a
card showing `face` and plays it.
"""

from __future__ import annotations

import json
from collections import deque

import pytest
from c64_factories import dice, fresh_game, holding, joystick, setup_done
from c64_scenarios import act_with, nobody_moves_after_the_end, public_view, registered, replayed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.contract import Outcome
from app.games.c64.boardmap import load_map
from app.games.c64.geometry import (
    ABSOLUTE,
    CENTRE,
    LEFT_CORNER,
    OPPOSITE,
    SIDES_BY_PLAYERS,
    SQUARES,
    STEP,
    square_xy,
    xy_square,
)
from app.games.c64.monsters import START_WALLS, Monsters, _wall_between

MONSTERS = Monsters()

# Copied from the rulings' "Walls:" line for map M.
MAP_M_WALLS = [
    "b2",
    "b4",
    "b7",
    "c3",
    "c4",
    "c6",
    "d6",
    "d7",
    "e2",
    "e3",
    "f3",
    "f5",
    "f6",
    "g2",
    "g5",
    "g7",
]
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def monsters_state(
    players: int = 4,
    *,
    order: list[int] | None = None,
    squares: dict[int, str] | None = None,
    monsters: dict[int, str] | None = None,
    treasures: dict[int, str | None] | None = None,
    carrying: dict[int, int] | None = None,
    walls: list[str] | None = None,
    turn: int | None = None,
) -> dict:
    """A Monsters state in the play phase (see the module docstring for the defaults).
    `carrying` {seat: owner} also takes that owner's treasure off the board."""
    order = list(range(players)) if order is None else order
    sides = SIDES_BY_PLAYERS[players]
    side_of = {seat: sides[i] for i, seat in enumerate(order)}
    squares, monsters = squares or {}, monsters or {}
    treasures, carrying = treasures or {}, carrying or {}
    carried = set(carrying.values())
    return {
        "game": "c64-monsters",
        "phase": "play",
        "turn": order[0] if turn is None else turn,
        "order": order,
        "players": [
            {
                "seat": s,
                "side": side_of[s],
                "latest": ABSOLUTE[side_of[s]]["up"],
                "square": squares.get(s, LEFT_CORNER[side_of[s]]),
                "monster": monsters.get(s, CENTRE[side_of[s]]),
                "treasure": None if s in carried else treasures.get(s, CENTRE[side_of[s]]),
                "carrying": carrying.get(s),
            }
            for s in range(players)
        ],
        "joysticks": [holding("up") for _ in range(players)],
        "outcome": None,
        "walls": sorted(START_WALLS if walls is None else walls),
        "wording": "lair",
    }


def act(state: dict, seat: int, face: str) -> tuple[dict, list[dict]]:
    """`seat` plays a card showing `face` (given to it for the purpose)."""
    return act_with(MONSTERS, state, seat, face)


def where(state: dict, key: str) -> dict[int, str | None]:
    return {p["seat"]: p[key] for p in state["players"]}


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def fresh(players: int, seed: str = "seed") -> dict:
    return fresh_game(MONSTERS, players, seed)


# --- the game and its set-up ------------------------------------------------------------------
def test_monsters_is_registered_with_its_metadata():
    """docs/rules/README.md: c64-monsters, "C64 Monsters", 2-4 seats, no options; chance from the
    shuffle and the first-player draw, nothing hidden."""
    game = registered("c64-monsters", "C64 Monsters", (2, 4))
    assert isinstance(game, Monsters)
    assert game.game_key == "monsters"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_places_adventurers_monsters_and_treasures(players):
    """Rulebook: "1 adventurer in each player's left corner, 1 monster and 1 disc (treasure)
    per player in the closest center square." C6/C2: corners a1 a8 h8 h1, centres d4 d5 e5
    e4 by side."""
    state = fresh(players)
    for p in state["players"]:
        assert p["square"] == LEFT_CORNER[p["side"]]
        assert p["monster"] == p["treasure"] == CENTRE[p["side"]]
        assert p["carrying"] is None
    assert state["phase"] == "setup" and state["outcome"] is None
    assert len({p["monster"] for p in state["players"]}) == players


def test_setup_walls_are_map_m():
    """C6: "Walls per map M" - the 16 wall squares listed in the rulings, read from
    maps/M.txt, with the corners marked A and the centre squares M."""
    assert fresh(2)["walls"] == sorted(MAP_M_WALLS)
    picture = load_map("M")
    assert sorted(sq for sq, sym in picture.items() if sym == "#") == sorted(MAP_M_WALLS)
    assert {sq for sq, sym in picture.items() if sym == "A"} == {"a1", "a8", "h8", "h1"}
    assert {sq for sq, sym in picture.items() if sym == "M"} == {"d4", "d5", "e5", "e4"}


def test_map_m_is_fair_and_connected():
    """Map M: "90-degree rotational symmetry", "one opening per side, each opening facing
    the seat whose monster sits behind it", "Each corner reaches its centre square in 6
    steps"; every free square is reachable."""
    walls = set(START_WALLS)
    rotated = {xy_square(square_xy(sq)[1], 7 - square_xy(sq)[0]) for sq in walls}
    assert rotated == walls
    openings = {"S": "d3", "W": "c5", "N": "e6", "E": "f4"}
    for side, centre in CENTRE.items():
        outside = [n for n in STEP[centre].values() if n not in walls and n not in CENTRE.values()]
        assert outside == [openings[side]]
        seen = {LEFT_CORNER[side]: 0}
        queue = deque(seen)
        while queue:
            sq = queue.popleft()
            for nxt in STEP[sq].values():
                if nxt is not None and nxt not in walls and nxt not in seen:
                    seen[nxt] = seen[sq] + 1
                    queue.append(nxt)
        assert seen[centre] == 6
        assert set(seen) == set(SQUARES) - walls


# --- moving: adventurer and monster, opposite ways ---------------------------------------------
@pytest.mark.parametrize("seat", [RED, BLUE, GREEN, YELLOW])
@pytest.mark.parametrize("face", ["up", "down", "left", "right"])
def test_move_card_moves_adventurer_and_monster_the_opposite_way(seat, face):
    """Rulebook: "Move your adventurer 1 square in the direction AND the monster of the same
    color in the opposite direction"; C6: the direction is seat-relative, the monster goes
    the opposite absolute way."""
    state = monsters_state(walls=[], squares={seat: "b6"}, monsters={seat: "f6"})
    new, events = act(state, seat, face)
    direction = ABSOLUTE[state["players"][seat]["side"]][face]
    me = new["players"][seat]
    assert me["square"] == STEP["b6"][direction]
    assert me["monster"] == STEP["f6"][OPPOSITE[direction]]
    assert types(events) == ["play", "move", "move"]
    assert events[1]["piece"] == "adventurer" and events[2]["piece"] == "monster"
    others = [s for s in range(4) if s != seat]
    for s in others:
        assert new["players"][s] == state["players"][s]


def test_move_events_name_colours():
    """docs/c64-view.md: events carry readable text with colour names."""
    state = monsters_state(2, walls=[], squares={0: "b2"})
    _, events = act(state, 0, "up")
    assert events[1] == {
        "type": "move",
        "seat": 0,
        "piece": "adventurer",
        "owner": 0,
        "from": "b2",
        "to": "b3",
        "text": "Red moves north to b3.",
    }
    assert events[2]["text"] == "Red's monster moves south to d3."


def test_a_blocked_adventurer_does_not_stop_her_monster():
    """C6: "Each part is checked separately ... One part may fail while the other
    succeeds." Red at a1 tries west (the edge); her monster still goes east from d4."""
    state = monsters_state(2)
    new, events = act(state, 0, "left")
    assert new["players"][0]["square"] == "a1"
    assert new["players"][0]["monster"] == "e4"
    assert types(events) == ["play", "blocked", "move"]
    assert events[1]["why"] == "edge" and events[1]["piece"] == "adventurer"
    assert events[1]["text"] == "Red cannot move west from a1: the edge of the board is in the way."


def test_a_wall_blocks_the_adventurer_but_not_her_monster():
    """C6 / C1: "an adventurer is blocked by walls" (a wall fills its square); the monster
    part is checked on its own. Map M: Red at c2 going north meets the wall at c3, while her
    monster leaves the fort south through d3."""
    state = monsters_state(2, squares={0: "c2"})
    new, events = act(state, 0, "up")
    assert new["players"][0]["square"] == "c2"
    assert new["players"][0]["monster"] == "d3"
    assert types(events) == ["play", "blocked", "move"]
    assert events[1]["why"] == "wall"
    assert events[1]["text"] == "Red cannot move north from c2: c3 is a wall."


def test_a_wall_blocks_the_monster_but_not_its_adventurer():
    """C6: "a monster [is blocked] by walls, the edge and other monsters"; the adventurer
    still moves. Map M: Red's monster at d4 cannot go west into c4."""
    state = monsters_state(2, squares={0: "b1"})
    new, events = act(state, 0, "right")  # adventurer east to c1, monster west into c4
    assert new["players"][0]["square"] == "c1"
    assert new["players"][0]["monster"] == "d4"
    assert types(events) == ["play", "move", "blocked"]
    assert events[2]["piece"] == "monster" and events[2]["why"] == "wall"


def test_adventurers_block_adventurers():
    """Rulebook: "(if not blocked by a wall or a piece of similar type)": another
    adventurer blocks an adventurer."""
    state = monsters_state(walls=[], squares={RED: "b2", BLUE: "b3"})
    new, events = act(state, RED, "up")
    assert new["players"][RED]["square"] == "b2"
    assert events[1]["why"] == "adventurer"
    assert events[1]["text"] == "Red cannot move north from b2: Blue's adventurer is on b3."
    assert events[2]["type"] == "move"  # her monster still goes south


def test_monsters_block_monsters():
    """Rulebook: "(if not blocked by ... a piece of similar type)": another monster blocks a
    monster. Red's monster at d4 going north meets Blue's at d5."""
    state = monsters_state(walls=[], squares={RED: "b3"})
    new, events = act(state, RED, "down")
    assert new["players"][RED]["square"] == "b2"
    assert new["players"][RED]["monster"] == "d4"
    assert events[2]["why"] == "monster"
    assert events[2]["text"] == "Red's monster cannot move north from d4: Blue's monster is on d5."


def test_the_edge_blocks_a_monster():
    """C6: a monster is blocked by the edge."""
    state = monsters_state(2, walls=[], squares={0: "b4"}, monsters={0: "d1"})
    new, events = act(state, 0, "up")
    assert new["players"][0]["monster"] == "d1" and events[2]["why"] == "edge"


def test_a_loose_treasure_does_not_block_an_adventurer():
    """Only pieces of the same type block; an adventurer may stand on a treasure."""
    state = monsters_state(2, walls=[], squares={0: "d3"}, monsters={0: "b7"})
    new, events = act(state, 0, "up")
    assert new["players"][0]["square"] == "d4"
    assert new["players"][0]["treasure"] == "d4"
    assert types(events) == ["play", "move", "move"]


# --- encounters ---------------------------------------------------------------------------------
def test_adventurer_moving_onto_a_monster_sends_both_home():
    """Rulebook: "If a monster moves to an adventurer or vice versa, the player restarts at
    her corner and the monster at its center square." Red steps onto Green's monster; then
    her own monster still moves (C6: checked after each sub-move)."""
    state = monsters_state(walls=[], squares={RED: "b3"}, monsters={GREEN: "c3"})
    new, events = act(state, RED, "right")
    assert new["players"][RED]["square"] == "a1"
    assert new["players"][GREEN]["monster"] == "e5"
    assert new["players"][RED]["monster"] == "c4"  # west from d4
    assert types(events) == ["play", "move", "encounter", "move"]
    assert events[2] == {
        "type": "encounter",
        "seat": RED,
        "square": "c3",
        "adventurers": [RED],
        "monsters": [GREEN],
        "resets": [
            {"piece": "adventurer", "owner": RED, "from": "c3", "to": "a1"},
            {"piece": "monster", "owner": GREEN, "from": "c3", "to": "e5"},
        ],
        "text": "Red and Green's monster meet on c3! Red goes back to a1. "
        "Green's monster goes back to e5.",
    }


def test_monster_moving_onto_an_adventurer_sends_both_home():
    """Rulebook: "If a monster moves to an adventurer ..." - Red's monster steps south onto
    Green's adventurer at d3: Green restarts at h8, the monster at d4."""
    state = monsters_state(walls=[], squares={GREEN: "d3"})
    new, events = act(state, RED, "up")
    assert new["players"][RED]["square"] == "a2"
    assert new["players"][GREEN]["square"] == "h8"
    assert new["players"][RED]["monster"] == "d4"
    assert types(events) == ["play", "move", "move", "encounter"]
    assert events[3]["adventurers"] == [GREEN] and events[3]["monsters"] == [RED]


def test_an_own_monster_is_an_encounter_too():
    """C6: "an adventurer and a monster of any colours in the same square". Red walks north
    to d3 and her own monster comes south onto her."""
    state = monsters_state(walls=[], squares={RED: "d2"})
    new, events = act(state, RED, "up")
    assert new["players"][RED]["square"] == "a1"
    assert new["players"][RED]["monster"] == "d4"
    assert types(events) == ["play", "move", "move", "encounter"]


def test_an_encounter_drops_the_carried_treasure_back_on_its_start():
    """C6: "A carried treasure is dropped back on its start square (its colour's centre
    square)." Red carries Green's treasure into Blue's monster."""
    state = monsters_state(
        walls=[], squares={RED: "b3"}, monsters={BLUE: "c3"}, carrying={RED: GREEN}
    )
    new, events = act(state, RED, "right")
    assert new["players"][RED]["carrying"] is None
    assert new["players"][GREEN]["treasure"] == "e5"
    assert {"piece": "treasure", "owner": GREEN, "from": "c3", "to": "e5"} in events[2]["resets"]
    assert "Green's treasure drops back to e5." in events[2]["text"]


def test_resets_never_trigger_encounters():
    """C6: "Resets (pieces sent home) never trigger encounters; a reset piece may share a
    square with another piece until one of them moves." Red is sent to a1 where Yellow's
    monster stands, and Green's monster is sent to e5 where Blue's adventurer stands."""
    state = monsters_state(
        walls=[],
        squares={RED: "b3", BLUE: "e5"},
        monsters={GREEN: "c3", YELLOW: "a1"},
    )
    new, events = act(state, RED, "right")
    assert [e["type"] for e in events].count("encounter") == 1
    assert new["players"][RED]["square"] == "a1" == new["players"][YELLOW]["monster"]
    assert new["players"][BLUE]["square"] == "e5" == new["players"][GREEN]["monster"]
    # Moving apart again is no encounter either.
    later, events = act(new, RED, "up")
    assert later["players"][RED]["square"] == "a2"
    assert later["players"][YELLOW]["monster"] == "a1"
    assert "encounter" not in types(events)


def test_a_monster_takes_a_loose_treasure_home():
    """Rulebook: "If a monster moves to a treasure, the monster restarts at its center square
    with the treasure." C6: the treasure is placed on the monster's centre square. Red's
    monster steps north onto Blue's treasure at d5 (Blue's monster is away)."""
    state = monsters_state(walls=[], squares={RED: "a2"}, monsters={BLUE: "a6"})
    new, events = act(state, RED, "down")
    assert new["players"][RED]["square"] == "a1"
    assert new["players"][RED]["monster"] == "d4"
    assert new["players"][BLUE]["treasure"] == "d4"
    assert types(events) == ["play", "move", "move", "loot"]
    assert events[3] == {
        "type": "loot",
        "seat": RED,
        "owner": RED,
        "square": "d5",
        "treasures": [BLUE],
        "resets": [
            {"piece": "monster", "owner": RED, "from": "d5", "to": "d4"},
            {"piece": "treasure", "owner": BLUE, "from": "d5", "to": "d4"},
        ],
        "text": "Red's monster grabs Blue's treasure on d5 and takes it home to d4.",
    }


def test_a_monster_takes_every_loose_treasure_of_the_square():
    """C6: the monster "takes that treasure with it" - with two lying there, both go."""
    state = monsters_state(
        walls=[], squares={RED: "a2"}, monsters={BLUE: "a6"}, treasures={GREEN: "d5"}
    )
    new, _ = act(state, RED, "down")
    assert new["players"][BLUE]["treasure"] == new["players"][GREEN]["treasure"] == "d4"


def test_a_monster_on_its_own_centre_keeps_the_treasure_there():
    """C6: "A monster re-entering its own centre square with its own treasure triggers this
    with no net change." """
    state = monsters_state(2, walls=[], squares={0: "a2"}, monsters={0: "d3"})
    new, events = act(state, 0, "down")
    assert new["players"][0]["monster"] == "d4" and new["players"][0]["treasure"] == "d4"
    assert types(events) == ["play", "move", "move"]


def test_a_monster_meeting_an_adventurer_on_a_treasure_does_both():
    """Both rulebook sentences apply: the monster "moves to an adventurer" (encounter) and
    "moves to a treasure" (it goes home with it). Green stands on Blue's treasure at d5."""
    state = monsters_state(walls=[], squares={RED: "a2", GREEN: "d5"}, monsters={BLUE: "a6"})
    new, events = act(state, RED, "down")
    assert new["players"][GREEN]["square"] == "h8"
    assert new["players"][RED]["monster"] == "d4"
    assert new["players"][BLUE]["treasure"] == "d4"
    assert types(events) == ["play", "move", "move", "encounter", "loot"]
    assert events[4]["resets"] == [{"piece": "treasure", "owner": BLUE, "from": "d5", "to": "d4"}]


# --- buttons -------------------------------------------------------------------------------------
def test_left_button_picks_up_a_treasure_in_the_square():
    """Rulebook: "Left button: Pick up any 1 treasure in your square." Red takes Green's."""
    state = monsters_state(walls=[], squares={RED: "e5"}, monsters={GREEN: "a6"})
    new, events = act(state, RED, "left_button")
    assert new["players"][RED]["carrying"] == GREEN
    assert new["players"][GREEN]["treasure"] is None
    assert events[1] == {
        "type": "pickup",
        "seat": RED,
        "treasure": GREEN,
        "square": "e5",
        "text": "Red picks up Green's treasure on e5.",
    }


def test_left_button_carries_only_one_treasure():
    """Rulebook: "You may only carry 1 treasure." Red already carries Blue's."""
    state = monsters_state(walls=[], squares={RED: "e5"}, carrying={RED: BLUE})
    new, events = act(state, RED, "left_button")
    assert new["players"][RED]["carrying"] == BLUE
    assert new["players"][GREEN]["treasure"] == "e5"
    assert events[1]["type"] == "blocked" and events[1]["why"] == "carrying"


def test_left_button_without_a_treasure_does_nothing():
    """Ruling G2: an action that has no effect still spends the card."""
    state = monsters_state(walls=[], squares={RED: "c2"})
    new, events = act(state, RED, "left_button")
    assert new["players"] == state["players"]
    assert events[1]["why"] == "no_treasure"
    assert events[1]["text"] == "Red finds no treasure to pick up on c2."
    assert new["turn"] == BLUE


def test_left_button_prefers_her_own_treasure_then_turn_order():
    """C6 "pick up one loose treasure (any colour)": the move names none, so we choose the
    player's own colour first, else the first in turn order."""
    state = monsters_state(walls=[], squares={RED: "d4"}, treasures={GREEN: "d4"})
    new, _ = act(state, RED, "left_button")
    assert new["players"][RED]["carrying"] == RED
    state = monsters_state(
        order=[2, 3, 0, 1], walls=[], squares={0: "c4"}, treasures={1: "c4", 3: "c4"}
    )
    new, _ = act(state, 0, "left_button")
    assert new["players"][0]["carrying"] == 3  # Yellow (seat 3) plays before Blue (seat 1)


def test_right_button_discards_orthogonally_adjacent_monsters():
    """Rulebook: "Right button: Use 1 carried treasure to discard all orthogonally adjacent
    monsters ... the treasure is lost and returned to its start square." C6: every adjacent
    monster (her own too) returns to its centre; a diagonal or farther one stays."""
    state = monsters_state(
        walls=[],
        squares={RED: "c5"},
        monsters={RED: "b5", BLUE: "c4", GREEN: "c6", YELLOW: "b6"},
        carrying={RED: GREEN},
    )
    new, events = act(state, RED, "right_button")
    assert where(new, "monster") == {RED: "d4", BLUE: "d5", GREEN: "e5", YELLOW: "b6"}
    assert new["players"][RED]["carrying"] is None
    assert new["players"][GREEN]["treasure"] == "e5"
    assert events[1]["type"] == "use_treasure"
    assert events[1]["resets"] == [
        {"piece": "monster", "owner": GREEN, "from": "c6", "to": "e5"},
        {"piece": "monster", "owner": BLUE, "from": "c4", "to": "d5"},
        {"piece": "monster", "owner": RED, "from": "b5", "to": "d4"},
        {"piece": "treasure", "owner": GREEN, "from": "c5", "to": "e5"},
    ]
    assert events[1]["text"] == (
        "Red uses Green's treasure: Green's monster, Blue's monster, her monster are sent back "
        "to their lairs. The treasure goes back to e5."
    )


def test_a_match_begun_under_rules_1_keeps_the_fort_in_its_log():
    """Rules version 1's log said "sent back to the fort"; its matches replay word for word."""
    from app.engine.registry import get_game

    game = get_game("c64-monsters")
    assert game is not None
    state = monsters_state(walls=[], squares={RED: "c5"}, monsters={BLUE: "c4"}, carrying={RED: 0})
    _new, events = act(game.keep_older_rules(state, "1"), RED, "right_button")
    assert "Blue's monster is sent back to the fort." in events[1]["text"]


def test_right_button_loses_the_treasure_even_without_monsters_near():
    """Rulebook: "Unfortunately the treasure is lost and returned to its start square." """
    state = monsters_state(2, walls=[], squares={0: "b2"}, carrying={0: 0})
    new, events = act(state, 0, "right_button")
    assert new["players"][0]["carrying"] is None and new["players"][0]["treasure"] == "d4"
    assert "no monster was next to her" in events[1]["text"]


def test_right_button_without_a_treasure_does_nothing():
    """C6: "Right Button: only if carrying"."""
    state = monsters_state(walls=[], squares={RED: "c5"}, monsters={BLUE: "c4"})
    new, events = act(state, RED, "right_button")
    assert new["players"] == state["players"]
    assert events[1]["type"] == "blocked" and events[1]["why"] == "not_carrying"


def test_the_wall_check_of_the_right_button_is_a_vacuous_no_op():
    """C1: "Monsters' 'discard all orthogonally adjacent monsters (if not blocked by a wall)'
    becomes vacuous under this ruling ... keep the check in code as a no-op." With map M's
    walls around, the neighbour is still discarded."""
    assert not any(_wall_between(a, b) for a in SQUARES for b in STEP[a].values() if b)
    state = monsters_state(squares={RED: "c5"}, monsters={GREEN: "d5", BLUE: "b5"})
    state["players"][RED]["carrying"] = RED
    state["players"][RED]["treasure"] = None
    new, _ = act(state, RED, "right_button")
    assert new["players"][GREEN]["monster"] == "e5" and new["players"][BLUE]["monster"] == "d5"


# --- goal ----------------------------------------------------------------------------------------
def test_bringing_a_treasure_to_the_own_corner_wins_before_the_monster_moves():
    """Rulebook: "The first player to return to her corner with any treasure wins." C6:
    "wins immediately" - the game ends with the adventurer's step; her monster stays."""
    state = monsters_state(2, walls=[], squares={0: "a2"}, monsters={0: "c5"}, carrying={0: 1})
    new, events = act(state, 0, "down")
    assert types(events) == ["play", "move", "win"]
    assert new["players"][0]["monster"] == "c5"
    assert new["phase"] == "over" and new["turn"] is None
    assert MONSTERS.outcome(new) == Outcome(
        winners=(0,),
        reason="Red brings Green's treasure home to a1 and wins.",
        details={"square": "a1", "treasure": 1},
    )
    nobody_moves_after_the_end(MONSTERS, new, (0, 1))


def test_the_own_treasure_counts_too():
    """Rulebook: "with any treasure"."""
    state = monsters_state(2, walls=[], squares={0: "b1"}, carrying={0: 0})
    new, _ = act(state, 0, "left")
    assert MONSTERS.outcome(new).reason == "Red brings her own treasure home to a1 and wins."


def test_no_win_without_a_treasure_or_on_another_corner():
    """Rulebook: "return to her corner with any treasure": the own corner without one, or
    another corner with one, is not a win."""
    new, _ = act(monsters_state(2, walls=[], squares={0: "a2"}), 0, "down")
    assert new["phase"] == "play" and MONSTERS.outcome(new) is None
    new, _ = act(monsters_state(2, walls=[], squares={0: "h2"}, carrying={0: 1}), 0, "down")
    assert new["players"][0]["square"] == "h1"
    assert new["phase"] == "play" and MONSTERS.outcome(new) is None


def test_a_monster_on_the_corner_spoils_the_homecoming():
    """C6: the encounter comes first - stepping home onto a monster resets the adventurer and
    drops the treasure, so there is no win."""
    state = monsters_state(
        walls=[], squares={RED: "a2"}, monsters={YELLOW: "a1"}, carrying={RED: BLUE}
    )
    new, events = act(state, RED, "down")
    assert "encounter" in types(events) and "win" not in types(events)
    assert new["players"][RED]["carrying"] is None
    assert new["players"][BLUE]["treasure"] == "d5"
    assert new["players"][YELLOW]["monster"] == "e4"


def test_a_win_with_the_last_card_still_takes_the_next_cards():
    """C4.4 then the goal: the move names its next cards; the game ends after the turn."""
    state = monsters_state(2, walls=[], squares={0: "a2"}, carrying={0: 1})
    state["joysticks"][0] = joystick([(0, "down")], axis="col")
    move = {
        "type": "play",
        "card": 0,
        "to": [0, 0],
        "next": [{"card": 1, "face": "up"}, {"card": 2, "face": "up"}],
    }
    new, events = MONSTERS.apply(state, 0, move, dice())
    assert types(events) == ["play", "move", "take", "win"]
    assert MONSTERS.outcome(new).winners == (0,)


# --- view ----------------------------------------------------------------------------------------
def test_view_follows_the_contract():
    """docs/c64-view.md plus the Monsters keys; the same for every seat (nothing hidden)."""
    state = monsters_state(3, order=[2, 0, 1], carrying={2: 1}, squares={2: "b3"})
    view = public_view(MONSTERS, state, 2)
    assert (view["family"], view["game"], view["phase"], view["turn"]) == (
        "c64",
        "monsters",
        "play",
        2,
    )
    assert view["walls"] == sorted(MAP_M_WALLS)
    assert view["players"][2] == {
        "seat": 2,
        "side": "S",
        "color": "red",
        "number": 1,
        "latest": "N",
        "ready": True,
        "square": "b3",
        "monster": "d4",
        "treasure": "d4",
        "carrying": 1,
        "corner": "a1",
        "centre": "d4",
    }
    assert view["players"][1]["treasure"] is None  # carried by Red
    view["walls"].append("x9")
    assert state["walls"] == sorted(MAP_M_WALLS)


# --- properties ----------------------------------------------------------------------------------
def _random_play(seed, players, steps):
    rng = dice(f"pick{seed}")
    state = setup_done(MONSTERS, fresh(players, str(seed)))
    log = []
    for _ in range(steps):
        if state["phase"] == "over":
            break
        seat = sorted(MONSTERS.active_seats(state))[0]
        moves = MONSTERS.legal_moves(state, seat)
        move = moves[rng.below(len(moves))]
        log.append((seat, move))
        state, events = MONSTERS.apply(state, seat, move, dice(move_number=len(log)))
        yield state, events, log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_random_play_keeps_the_pieces_sound(seed, players):
    """C6 invariants under random legal play: no piece on a wall; every treasure is either
    loose on a square or carried by exactly one adventurer; nobody carries two; every state
    and event is JSON."""
    walls = set(START_WALLS)
    for state, events, _ in _random_play(seed, players, 300):
        carried = [p["carrying"] for p in state["players"] if p["carrying"] is not None]
        assert len(carried) == len(set(carried))
        for p in state["players"]:
            assert p["square"] not in walls and p["monster"] not in walls
            assert (p["treasure"] is None) == (p["seat"] in carried)
            assert p["treasure"] is None or p["treasure"] in CENTRE.values()
        json.dumps(state)
        json.dumps(events)


def test_random_play_replays_exactly():
    """docs/architecture.md, "Dice you can check": the same moves from the same set-up give the same
    states (random play rarely ends a Monsters game, so this checks 2,000 moves)."""
    *_, (final, _, log) = _random_play(7, 4, 2000)
    assert replayed(MONSTERS, setup_done(MONSTERS, fresh(4, "7")), log) == final
