"""The hotel map, the item table and the Event deck as data (ruling D1 and our content,
docs/rules/cd-thief.md)."""

from __future__ import annotations

from collections import Counter, deque

import pytest

from app.games.cd_thief.board import (
    CARDS,
    CARL_HOME,
    CDS_HOME,
    COLOURS,
    EXIT_SQUARES,
    HEIGHT,
    ITEM_KINDS,
    ITG_HOME,
    LANDMARKS,
    MARKERS,
    PODCASTER_HOMES,
    TERRAIN,
    WIDTH,
    item_home,
    item_id,
    orthogonal_neighbours,
    parse_board,
    place_name,
    terrain,
    thief_start,
)

# The map of 3(d), copied from the rulings, with ruling D11's three-square main entrance
# (amended 2026-11-24): row 14 was `#########E###########`.
RULINGS_MAP = """\
#####################
#cccccc#k...k#zmmmmz#
#c$cccc#.....#mmmmmm#
#ccccIc#.....#mmmJmm#
#cccccc#..1..#mmmmmm#
#cccccc#.....#zmmmmz#
####C###.....###U####
#k.................k#
#..3................#
####P####...####.####
#svvvvs#p....#.p....#
#vvvvvv#.....#...2..#
#vvvvvv#...........##
#svvvvs#p....#.....p#
########EEE##########
#xxxxxxxRGYBxxxxxxxx#
#xxxxxxxxxxxxxxxxxxx#
"""


def reachable(start, allowed):
    seen, queue = {start}, deque([start])
    while queue:
        square = queue.popleft()
        for nxt in orthogonal_neighbours(square):
            if nxt not in seen and allowed(nxt):
                seen.add(nxt)
                queue.append(nxt)
    return seen


def test_board_is_the_rulings_21_by_17_map():
    """D1: "The board is a 21 x 17 grid (map below)"; the data file is that picture."""
    terrain_map, markers = parse_board(RULINGS_MAP)
    assert (WIDTH, HEIGHT) == (21, 17)
    assert terrain_map == TERRAIN and markers == MARKERS
    assert len(TERRAIN) == 21 * 17


def test_a_malformed_map_is_refused():
    """D1: a map that is not 21 x 17 cannot be loaded (a data change must keep the grid)."""
    with pytest.raises(ValueError):
        parse_board(RULINGS_MAP.replace("#k...k#", "#k..k#"))
    with pytest.raises(ValueError):
        parse_board(RULINGS_MAP.replace("#k...k#", "#k..?k#"))


def test_doors_and_entrance_are_where_the_rulings_say():
    """3(d): Casino door (4,6), Museum door (16,6), VIP door (4,9); ruling D11 (amended
    2026-11-24): "The main entrance is three squares wide: (8,14), (9,14) and (10,14)"."""
    assert terrain((4, 6)) == "C" and terrain((16, 6)) == "U" and terrain((4, 9)) == "P"
    assert [x for x in range(WIDTH) if terrain((x, 14)) == "E"] == [8, 9, 10]
    assert LANDMARKS == {
        "casino_door": (4, 6),
        "museum_door": (16, 6),
        "vip_door": (4, 9),
        "lobby": (10, 12),
    }


def test_markers_agree_with_the_item_table():
    """3(d) item table and fixed pieces: the map's markers and items.json say the same."""
    by_symbol = Counter(MARKERS.values())
    assert by_symbol == Counter(
        {
            "k": 4,
            "p": 4,
            "z": 4,
            "s": 4,
            "$": 1,
            "I": 1,
            "J": 1,
            "1": 1,
            "2": 1,
            "3": 1,
            "R": 1,
            "G": 1,
            "Y": 1,
            "B": 1,
        }
    )
    symbol = {"key": "k", "pass": "p", "zapper": "z", "studson": "s"}
    for colour in COLOURS:
        for kind in ITEM_KINDS:
            assert MARKERS[item_home(item_id(colour, kind))] == symbol[kind]
        assert MARKERS[thief_start(colour)] == colour[0].upper()
    assert MARKERS[CDS_HOME] == "$" and CDS_HOME == (2, 2)
    assert MARKERS[ITG_HOME] == "I" and ITG_HOME == (5, 3)
    assert MARKERS[CARL_HOME] == "J" and CARL_HOME == (17, 3)
    assert PODCASTER_HOMES == {"scott": (10, 4), "socal_mike": (17, 11), "uk_mike": (3, 8)}
    assert {
        PODCASTER_HOMES[p]: s
        for p, s in zip(("scott", "socal_mike", "uk_mike"), "123", strict=True)
    } == {sq: MARKERS[sq] for sq in PODCASTER_HOMES.values()}


def test_item_table_matches_the_rulings():
    """3(d) item table, copied row by row."""
    table = {
        "red": [(1, 7), (8, 13), (14, 5), (6, 13), (8, 15)],
        "green": [(19, 7), (19, 13), (14, 1), (6, 10), (9, 15)],
        "yellow": [(8, 1), (15, 10), (19, 1), (1, 10), (10, 15)],
        "blue": [(12, 1), (8, 10), (19, 5), (1, 13), (11, 15)],
    }
    for colour, (key, vip, zapper, studson, start) in table.items():
        assert item_home(f"{colour}-key") == key
        assert item_home(f"{colour}-pass") == vip
        assert item_home(f"{colour}-zapper") == zapper
        assert item_home(f"{colour}-studson") == studson
        assert thief_start(colour) == start


def test_item_rooms_are_as_designed():
    """3(d): Zappers lie in the Museum, Studsons in the VIP room, the CDs and ITG in the
    Casino, Carl in the Museum; keys and passes in the public hotel."""
    for colour in COLOURS:
        assert terrain(item_home(f"{colour}-zapper")) == "m"
        assert terrain(item_home(f"{colour}-studson")) == "v"
        assert terrain(item_home(f"{colour}-key")) == "."
        assert terrain(item_home(f"{colour}-pass")) == "."
    assert terrain(CDS_HOME) == "c" and terrain(ITG_HOME) == "c" and terrain(CARL_HOME) == "m"


def test_every_area_is_reachable_from_the_exit_through_its_door():
    """3(d) Areas: from the Hotel Exit every hotel square is reachable through the entrance;
    the Casino, Museum and VIP room only through their own doors (D2)."""
    open_squares = {s for s, t in TERRAIN.items() if t != "#"}
    everything = reachable(EXIT_SQUARES[0], lambda s: terrain(s) != "#")
    assert everything == open_squares
    public = reachable(EXIT_SQUARES[0], lambda s: terrain(s) in ".xE")
    for room, door in (("c", "C"), ("m", "U"), ("v", "P")):
        assert not any(terrain(s) == room for s in public)
        with_door = reachable(EXIT_SQUARES[0], lambda s, d=door: terrain(s) in ".xE" + d)
        through = reachable(EXIT_SQUARES[0], lambda s, d=door, r=room: terrain(s) in ".xE" + d + r)
        assert {s for s in through if terrain(s) == room} == {
            s for s, t in TERRAIN.items() if t == room
        }
        assert len(with_door - public) == 1  # only the door itself


def test_lounge_has_two_ways_in_and_the_north_hall_is_a_dead_end():
    """3(d): the lounge is reached from the corridor at (16,9) and from the lobby at (13,12);
    the north hall (top middle) opens only on the corridor."""
    assert terrain((16, 9)) == "." and terrain((13, 12)) == "."
    assert terrain((13, 10)) == "#" and terrain((13, 11)) == "#" and terrain((13, 13)) == "#"
    hall = reachable((10, 3), lambda s: terrain(s) == "." and s[1] <= 6)
    assert max(y for _x, y in hall) == 6


def test_every_route_piece_is_reachable_for_its_colour():
    """3(d): "every colour's basic route start -> key -> pass -> Studson -> CDs -> exit is
    82-86 steps, and 100-106 with the Zapper detour". Measured on the rulings' own map and
    item squares (walls only, exit = the nearest Hotel Exit square) the routes were 84-87 and
    102-107 steps: yellow's basic route and red's Zapper route are one step longer than the
    rulings say. The squares are built exactly as written; the numbers are pinned here so a
    data change shows up, and the difference is reported to the lead. Ruling D11's wider
    entrance (amended 2026-11-24) shortens only Blue's walk in, by 2 steps (from (11,15) she
    no longer goes round to (9,15)): 82-87 and 100-107."""

    def distance(a, goal):
        seen, frontier, steps = {a}, [a], 0
        while frontier:
            if any(goal(s) for s in frontier):
                return steps
            nxt = []
            for square in frontier:
                for n in orthogonal_neighbours(square):
                    if n not in seen and terrain(n) != "#":
                        seen.add(n)
                        nxt.append(n)
            frontier, steps = nxt, steps + 1
        raise AssertionError("unreachable")

    def route_length(colour, kinds):
        stops = [thief_start(colour), *(item_home(f"{colour}-{k}") for k in kinds), CDS_HOME]
        legs = zip(stops, stops[1:], strict=False)
        walk = sum(distance(a, lambda s, b=b: s == b) for a, b in legs)
        return walk + distance(CDS_HOME, lambda s: terrain(s) == "x")

    basic = {c: route_length(c, ["key", "pass", "studson"]) for c in COLOURS}
    zapper = {c: route_length(c, ["key", "zapper", "pass", "studson"]) for c in COLOURS}
    assert basic == {"red": 85, "green": 86, "yellow": 87, "blue": 82}
    assert zapper == {"red": 107, "green": 102, "yellow": 105, "blue": 100}


def test_deck_has_fifty_cards_as_listed():
    """3(d) Event deck: 50 cards, 14 with the Carl icon (#1, 5, 7, 11, 13, 17, 19, 28, 42,
    43-47)."""
    assert sorted(CARDS) == list(range(1, 51))
    assert sorted(n for n, c in CARDS.items() if c["carl"]) == [
        1,
        5,
        7,
        11,
        13,
        17,
        19,
        28,
        42,
        43,
        44,
        45,
        46,
        47,
    ]
    titles = Counter(c["title"] for c in CARDS.values())
    assert titles == Counter(
        {
            "Mic Check": 3,
            "Autograph Hunt": 3,
            "Looking for Listeners": 3,
            "That One, in the Hat!": 3,
            "Sweeping the Tables": 1,
            "Exhibit Tour": 1,
            "Velvet Rope": 1,
            "Back to the Booth": 3,
            "Roundtable Shuffle": 3,
            "Breaking News": 3,
            "Door Duty": 3,
            "Wrong Room": 3,
            "Espresso Rush": 3,
            "Double Act": 3,
            "Listener Spotted!": 2,
            "Guarding the Stash": 3,
            "Recording Session": 1,
            "Coffee Break": 8,
        }
    )


@pytest.mark.parametrize(
    ("number", "effects"),
    [
        (1, [("chase", "scott", 2)]),
        (4, [("hunt", "scott", 3)]),
        (5, [("patrol", "scott", "casino_door", 4)]),
        (6, [("home", "scott")]),
        (11, [("patrol", "socal_mike", "museum_door", 4)]),
        (17, [("patrol", "uk_mike", "vip_door", 4)]),
        (20, [("chase", "scott", 1), ("chase", "socal_mike", 1), ("chase", "uk_mike", 1)]),
        (23, [("chase", "scott", 2), ("chase", "socal_mike", 2), ("chase", "uk_mike", 2)]),
        (27, [("patrol", "uk_mike", "lobby", 5)]),
        (28, [("swap", "scott", "socal_mike")]),
        (30, [("swap", "scott", "uk_mike")]),
        (32, [("chase", "socal_mike", 6)]),
        (36, [("chase", "scott", 3), ("chase", "uk_mike", 3)]),
        (38, [("hunt", "scott", 2), ("hunt", "socal_mike", 2), ("hunt", "uk_mike", 2)]),
        (41, [("patrol", "uk_mike", "cd_stack", 4)]),
        (42, [("home", "scott"), ("home", "socal_mike"), ("home", "uk_mike")]),
        (50, []),
    ],
)
def test_card_effects_match_the_table(number, effects):
    """3(d) Event deck table, card by card (a sample of every kind)."""

    def short(effect):
        kind = effect["kind"]
        if kind in ("chase", "hunt"):
            return (kind, effect["who"], effect["steps"])
        if kind == "patrol":
            return (kind, effect["who"], effect["place"], effect["steps"])
        if kind == "swap":
            return (kind, effect["who"], effect["with"])
        return (kind, effect["who"])

    assert [short(e) for e in CARDS[number]["effects"]] == effects


@pytest.mark.parametrize(
    ("square", "place"),
    [
        ((2, 2), "the Casino"),  # the CDs
        ((17, 3), "the Museum"),  # Carl
        ((1, 10), "the VIP room"),
        ((4, 6), "the Casino door"),
        ((16, 6), "the Museum door"),
        ((4, 9), "the VIP door"),
        ((9, 14), "the main entrance"),
        ((17, 15), "the Hotel Exit"),
        ((10, 4), "the hall between the Casino and the Museum"),  # Scott
        ((3, 8), "the corridor outside the Casino"),  # UK Mike
        ((10, 7), "the middle of the corridor"),
        ((19, 7), "the corridor outside the Museum"),
        ((10, 9), "the Lobby"),
        ((10, 12), "the Lobby"),  # the Lobby landmark
        ((13, 12), "the Lounge"),  # the lobby's opening into the lounge
        ((16, 9), "the Lounge"),
        ((17, 11), "the Lounge"),  # SoCal Mike
        ((0, 0), None),
        ((7, 3), None),
        ((30, 30), None),
    ],
)
def test_place_names_follow_the_areas_of_the_rulings_map(square, place):
    """Rulings 3(d) "Areas": Casino, north hall, Museum, main corridor (rows 7-8), VIP room,
    lobby, lounge; the map drawn for players labels the rooms, the Lobby, the Lounge and the
    Hotel Exit and shows no coordinates, so moves are told with these names."""
    assert place_name(square) == place


def test_every_square_a_thief_can_reach_has_a_place_name():
    assert all(place_name(square) for square, kind in TERRAIN.items() if kind != "#")
