"""Tactrics: Crossing. Rulebook "#1 Crossing" with rulings V2-V6 and V10 and our start
layouts (4(d), `data/crossing.json`). Seat 0 plays first (turn 0)."""

from __future__ import annotations

import pytest
from tactrics_factories import (
    CONFIRM,
    CROSSING,
    UNDO,
    act,
    dice,
    fresh,
    game,
    position,
    rotate,
    towers_in,
)

from app.engine.contract import IllegalMove
from app.games.tactrics.board import EDGES, TOWER_SLOTS

G = game(CROSSING)
T11 = TOWER_SLOTS["T11"]  # B3 B4 A3 A2 A1 B2
T53 = TOWER_SLOTS["T53"]


def colours(state):
    return [p["colour"] for p in state["players"]]


# --------------------------------------------------------------------- set-up (4(d), V10)
@pytest.mark.parametrize(
    ("players", "layout"),
    [
        (2, [("T11", "T53"), ("T53", "T11")]),
        (3, [("T11", "T53"), ("T51", "T13"), ("T35", "T31")]),
        (4, [("T11", "T53"), ("T31", "T35"), ("T53", "T11"), ("T35", "T31")]),
        (5, [("T11", "T53"), ("T31", "T35"), ("T51", "T13"), ("T53", "T11"), ("T35", "T31")]),
        (
            6,
            [
                ("T11", "T53"),
                ("T31", "T35"),
                ("T51", "T13"),
                ("T53", "T11"),
                ("T35", "T31"),
                ("T13", "T51"),
            ],
        ),
    ],
)
def test_start_and_goal_layouts(players, layout) -> None:
    """4(d) "Crossing start layouts": start = all 6 slots of the start tower, goal = the
    opposite corner tower, in turn order; V10: each player 6 routers."""
    state = fresh(CROSSING, players)
    for seat, (start, goal) in enumerate(layout):
        player = state["players"][seat]
        assert player["start"] == start and player["goal_tower"] == goal
        assert player["goal"] == list(TOWER_SLOTS[goal])
        mine = {s for s, c in state["routers"].items() if c == player["colour"]}
        assert mine == set(TOWER_SLOTS[start])
    assert len(set(colours(state))) == players


def test_teams_for_four_and_six_players() -> None:
    """4(d): teams (T11, T31) vs (T53, T35) for 4, (T11, T31), (T51, T53), (T35, T13) for 6;
    4(a)/V10: team pairs of matching colours green-blue, orange-yellow, grey-black."""
    four = fresh(CROSSING, 4, teams=True)
    assert [p["team"] for p in four["players"]] == [0, 0, 1, 1]
    assert colours(four) == ["green", "blue", "orange", "yellow"]
    six = fresh(CROSSING, 6, teams=True)
    assert [p["team"] for p in six["players"]] == [0, 0, 1, 1, 2, 2]
    assert colours(six) == ["green", "blue", "orange", "yellow", "grey", "black"]
    pairs = {tuple(colours(six)[i : i + 2]) for i in (0, 2, 4)}
    assert pairs == {("green", "blue"), ("orange", "yellow"), ("grey", "black")}


def test_teams_only_for_four_or_six_players() -> None:
    """Rulebook: "if you have four or six players it is advised to team up"; V10: "5 works
    without teams". With 5 players the option falls back to solo play."""
    five = fresh(CROSSING, 5, teams=True)
    assert all(p["team"] is None for p in five["players"])
    assert five["options"]["teams"] is False


@pytest.mark.parametrize(
    ("players", "options", "refused"),
    [
        (5, {"teams": True}, "4 or 6 players"),
        (2, {"teams": True}, "4 or 6 players"),
        (3, {"line": True}, "2 players"),
        (4, {"teams": True}, None),
        (2, {"line": True}, None),
    ],
)
def test_the_lobby_refuses_options_that_do_not_fit_the_player_count(
    players, options, refused
) -> None:
    """V10: teams are for 4 or 6 players, the line start for 2; the lobby says so at the
    start instead of silently dropping the option."""
    crossing = game(CROSSING)
    reason = crossing.check_start(players, crossing.parse_options(options))
    if refused is None:
        assert reason is None
    else:
        assert reason is not None and refused in reason


@pytest.mark.parametrize("count", [3, 4, 5])
def test_smaller_number_of_routers(count) -> None:
    """Rulebook: "alternative finishes, like with a smaller number of routers"; V10: lobby
    option 3-5 routers, "goal = any that many slots of the target tower"."""
    state = fresh(CROSSING, 2, routers=count)
    for seat in range(2):
        mine = [s for s, c in state["routers"].items() if c == colours(state)[seat]]
        assert len(mine) == count
        assert len(state["players"][seat]["goal"]) == 6


def test_line_variant_start_and_goal() -> None:
    """4(d) line variant: player 1 on A1 A2 A3 A5 A6 A7 (A4 empty), goal any 6 of F1-F7;
    player 2 mirrored on row F, goal row A."""
    state = fresh(CROSSING, 2, line=True)
    red, blue = colours(state)
    assert sorted(s for s, c in state["routers"].items() if c == red) == [
        "A1",
        "A2",
        "A3",
        "A5",
        "A6",
        "A7",
    ]
    assert sorted(s for s, c in state["routers"].items() if c == blue) == [
        "F1",
        "F2",
        "F3",
        "F5",
        "F6",
        "F7",
    ]
    assert state["players"][0]["goal"] == list(EDGES["N"])
    assert state["players"][1]["goal"] == list(EDGES["S"])


def test_seven_routers_only_with_the_line_and_red_yellow_blue() -> None:
    """Rulebook: "If you want to play with more than six routers you have to use red, yellow
    or blue"; V10: "for red, yellow or blue only, 7 routers with the line start and line
    goal"."""
    with pytest.raises(ValueError):
        G.parse_options({"routers": 7})
    state = fresh(CROSSING, 2, line=True, routers=7)
    assert set(colours(state)) <= {"red", "yellow", "blue"}
    assert sum(1 for c in state["routers"].values() if c == "red") == 7
    assert {s for s, c in state["routers"].items() if c == "red"} == set(EDGES["S"])


# --------------------------------------------------------------------- turns (V4)
def test_turns_have_one_two_three_then_four_actions() -> None:
    """V4 / 4(b): "the first player gets 1 action, the next 2, the next 3, and from then on
    every turn has up to 4 actions"; turn t has min(t + 1, 4) actions."""
    state = fresh(CROSSING, 2)
    seen = []
    for _ in range(7):
        turn = state["turn"]
        seen.append(turn["allowed"])
        seat = turn["seat"]
        moves = []
        for _ in range(turn["allowed"]):
            legal = [m for m in G.legal_moves(state, seat) if m["type"] == "rotate"]
            moves.append(legal[0])
            state, _ = act(CROSSING, state, seat, legal[0])
            if G.outcome(state):
                break
        assert all(m["type"] != "rotate" for m in G.legal_moves(state, seat))
        state, _ = act(CROSSING, state, seat, CONFIRM)
    assert seen == [1, 2, 3, 4, 4, 4, 4]


def test_turn_order_is_clockwise_by_seat() -> None:
    """4(b): "Play is clockwise"; 4(d): clockwise seat order T11, T31, T51, T53, T35, T13."""
    state = fresh(CROSSING, 3)
    order = []
    for _ in range(4):
        seat = state["turn"]["seat"]
        order.append(seat)
        state, _ = act(CROSSING, state, seat, CONFIRM)
    assert order == [0, 1, 2, 0]


def test_a_player_may_stop_early() -> None:
    """V4: "A player may stop early (actions are 'up to')"."""
    state = position(CROSSING, index=5)
    state, _ = act(CROSSING, state, 0, rotate("T11"), CONFIRM)
    assert state["turn"]["seat"] == 1 and state["turn"]["used"] == 0


def test_undo_restores_the_position_exactly() -> None:
    """V4: "actions apply one by one with undo inside the turn until the player confirms"."""
    start = position(CROSSING, index=5)
    state, _ = act(CROSSING, start, 0, rotate("T11"), rotate("T11"), rotate("T21", "ccw"))
    state, events = act(CROSSING, state, 0, UNDO)
    assert events[0]["type"] == "undo" and events[0]["direction"] == "cw"
    state, _ = act(CROSSING, state, 0, UNDO, UNDO)
    assert state["routers"] == start["routers"]
    assert state["turn"]["used"] == 0
    assert UNDO not in G.legal_moves(state, 0)


def test_undo_gives_the_action_back() -> None:
    """V4: an undone action no longer counts against the turn's actions."""
    state = position(CROSSING, index=0)  # the very first turn: 1 action
    state, _ = act(CROSSING, state, 0, rotate("T11"))
    assert [m for m in G.legal_moves(state, 0) if m["type"] == "rotate"] == []
    state, _ = act(CROSSING, state, 0, UNDO)
    assert rotate("T11", "ccw") in G.legal_moves(state, 0)


def test_confirm_ends_the_turn_and_clears_undo() -> None:
    """V4: after the player confirms, her actions stand and the next player moves."""
    state = position(CROSSING, index=5)
    state, _ = act(CROSSING, state, 0, rotate("T11"), CONFIRM)
    assert state["turn"]["seat"] == 1
    assert state["turn"]["undo"] == []
    assert G.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove):
        G.apply(state, 0, UNDO, dice())


def test_no_action_past_the_turns_allowance() -> None:
    """V4: turn t has min(t + 1, 4) actions; a fifth is refused with a reason."""
    state = position(CROSSING, index=5)
    state, _ = act(CROSSING, state, 0, *[rotate("T11")] * 4)
    with pytest.raises(IllegalMove, match="no actions left"):
        G.apply(state, 0, rotate("T11"), dice())


# --------------------------------------------------------------------- permission (V3)
def test_majority_may_turn_minority_may_not() -> None:
    """4(b): "A tower may only be turned by a player who is not in the minority around it
    ... example: 2 yellow vs 3 red, only red may turn it"; V3."""
    routers = {T11[0]: "red", T11[1]: "red", T11[2]: "red", T11[3]: "blue", T11[4]: "blue"}
    red = position(CROSSING, routers=routers, seat=0)
    assert "T11" in towers_in(G.legal_moves(red, 0))
    blue = position(CROSSING, routers=routers, seat=1)
    assert "T11" not in towers_in(G.legal_moves(blue, 1))
    with pytest.raises(IllegalMove, match="more routers"):
        G.apply(blue, 1, rotate("T11"), dice())


def test_a_tie_may_turn() -> None:
    """V3: "n(p) >= n(q) for every other player q"; ties never need a reserve controller."""
    routers = {T11[0]: "red", T11[1]: "red", T11[3]: "blue", T11[4]: "blue"}
    for seat in (0, 1):
        state = position(CROSSING, routers=routers, seat=seat, minority_rotation=True)
        assert rotate("T11") in G.legal_moves(state, seat)
        assert rotate("T11", reserve=True) not in G.legal_moves(state, seat)


def test_the_majority_is_over_every_other_player() -> None:
    """V3: "n(p) >= n(q) for every other player q": with three players a tie with one
    opponent is not enough when a third has more (Red 1, Yellow 1, Blue 2 on T22)."""
    routers = {T22[0]: "red", T22[1]: "yellow", T22[2]: "blue", T22[3]: "blue", "C11": "red"}
    for seat, may in ((0, False), (1, False), (2, True)):
        state = position(CROSSING, 3, routers=routers, seat=seat)
        assert ("T22" in towers_in(G.legal_moves(state, seat))) is may, seat


def test_no_router_no_turn() -> None:
    """V3: "Player p may turn the tower if n(p) >= 1"."""
    state = position(CROSSING, routers={T11[0]: "blue", "C11": "red"}, seat=0)
    assert towers_in(G.legal_moves(state, 0)) == {"T35"}  # C11's only tower
    with pytest.raises(IllegalMove, match="no router"):
        G.apply(state, 0, rotate("T11"), dice())


def test_teammates_count_as_other_players() -> None:
    """V3: "teammates count as other players: the rulebook says rules apply to each player
    individually"."""
    routers = {T11[0]: "green", T11[1]: "blue", T11[2]: "blue"}
    state = position(CROSSING, 4, routers=routers, seat=0, teams=True)
    assert state["players"][1]["team"] == state["players"][0]["team"]
    assert "T11" not in towers_in(G.legal_moves(state, 0))


def test_rotation_moves_routers_around_the_tower() -> None:
    """V2: "Turning a tower one position moves the routers on its 6 slots one step around
    it"; an action is turning one tower one position either way (4(b))."""
    state = position(CROSSING, routers={T11[0]: "red", T11[5]: "blue", "C1": "blue"})
    state, events = act(CROSSING, state, 0, rotate("T11", "cw"))
    assert state["routers"] == {T11[1]: "red", T11[0]: "blue", "C1": "blue"}
    assert events[0]["type"] == "rotate" and "turns T11 clockwise" in events[0]["text"]


# --------------------------------------------------------------------- minority rule (V6)
T22 = TOWER_SLOTS["T22"]
OUTNUMBERED = {T22[0]: "red", T22[1]: "blue", T22[2]: "blue"}


def test_minority_rotation_costs_a_reserve_controller_and_an_action() -> None:
    """Rulebook: "Players may, discard one of these controllers to ... rotate towers around
    which they do not have ... a majority ... you have to have at least one router around
    these towers"; V6: "Spending one = one rotation ... it counts as one action"."""
    state = position(CROSSING, routers=OUTNUMBERED, minority_rotation=True)
    assert state["reserve"] == [2, 2]
    legal = G.legal_moves(state, 0)
    assert rotate("T22", reserve=True) in legal and rotate("T22") not in legal
    with pytest.raises(IllegalMove, match="reserve controller"):
        G.apply(state, 0, rotate("T22"), dice())
    state, events = act(CROSSING, state, 0, rotate("T22", reserve=True))
    assert state["reserve"] == [1, 2]
    assert state["turn"]["used"] == 1
    assert "reserve controller" in events[0]["text"]


def test_minority_rotation_only_twice_per_game() -> None:
    """Rulebook: "the minority rotation rule can only be applied twice per player per game";
    4(b): "The rulebook wins" over the review's "once per game"."""
    state = position(CROSSING, routers=OUTNUMBERED, minority_rotation=True)
    twice = [rotate("T22", reserve=True), rotate("T22", "ccw", reserve=True)]
    state, _ = act(CROSSING, state, 0, *twice)
    assert state["reserve"][0] == 0
    assert "T22" not in towers_in(G.legal_moves(state, 0))


def test_no_reserve_left_says_so() -> None:
    """Rulebook: "As each player has basically only two controllers available, the minority
    rotation rule can only be applied twice per player per game": once both are spent the
    refusal says that, not only that someone has more routers."""
    state = position(CROSSING, routers=OUTNUMBERED, minority_rotation=True)
    state["reserve"] = [0, 2]
    with pytest.raises(IllegalMove, match="no reserve controller left"):
        G.apply(state, 0, rotate("T22", reserve=True), dice())
    with pytest.raises(IllegalMove, match="no reserve controller left"):
        G.apply(state, 0, rotate("T22"), dice())


def test_undo_returns_the_reserve_controller() -> None:
    """V4 with V6: undo restores the position exactly, the spent reserve controller too."""
    state = position(CROSSING, routers=OUTNUMBERED, minority_rotation=True)
    state, _ = act(CROSSING, state, 0, rotate("T22", reserve=True), UNDO)
    assert state["reserve"] == [2, 2]


def test_minority_rotation_needs_a_router_and_the_option() -> None:
    """Rulebook: "in both situations you have to have at least one router around these
    towers"; the rule is optional ("if the players choose")."""
    state = position(CROSSING, routers={T22[0]: "blue", "C11": "red"}, minority_rotation=True)
    assert "T22" not in towers_in(G.legal_moves(state, 0))
    off = position(CROSSING, routers=OUTNUMBERED)
    assert off["reserve"] == [0, 0]
    assert "T22" not in towers_in(G.legal_moves(off, 0))


# --------------------------------------------------------------------- goal and win (V5)
# Red (seat 0) has 5 routers in her goal T53 and the sixth on E9: T44 (E8 E9 D10 D9 D8 E7)
# turned anticlockwise moves E9 -> E8, E8 -> E7 and the empty E7 -> D8, so all six are home.
NEAR_WIN = {"F6": "red", "F7": "red", "E8": "red", "E6": "red", "F5": "red", "E9": "red"}
BLUE_AWAY = {"C11": "blue", "A4": "blue"}


def test_game_ends_the_moment_a_players_last_router_lands() -> None:
    """Rulebook: "The game ends immediately when a player's last router lands in their goal
    area"; V5; V4: "undo is not available past a winning action"."""
    state = position(CROSSING, routers={**NEAR_WIN, **BLUE_AWAY}, index=6, used=1)
    state, events = act(CROSSING, state, 0, rotate("T44", "ccw"))
    assert state["phase"] == "over"
    outcome = G.outcome(state)
    assert outcome.winners == (0,)
    assert outcome.scores == {0: 6, 1: 0}
    assert events[-1]["type"] == "game_over" and "wins" in events[-1]["text"]
    assert G.legal_moves(state, 0) == [] and G.active_seats(state) == frozenset()
    with pytest.raises(IllegalMove):
        G.apply(state, 0, UNDO, dice())


def test_not_finished_while_a_router_is_outside() -> None:
    """V5: "A player is finished when all her routers are in her goal area"."""
    routers = {**NEAR_WIN, **BLUE_AWAY}
    state = position(CROSSING, routers=routers)
    state, _ = act(CROSSING, state, 0, rotate("T44", "cw"))
    assert state["phase"] == "play"


def test_several_finished_at_once_the_active_player_wins() -> None:
    """V5: "If one action finishes several players, the active player (or her team) wins if
    finished". Blue is placed home already; Red's action finishes Red too."""
    routers = {**NEAR_WIN, **{s: "blue" for s in T11}}
    state = position(CROSSING, routers=routers, seat=0)
    state, _ = act(CROSSING, state, 0, rotate("T44", "ccw"))
    assert G.outcome(state).winners == (0,)


def test_a_finish_made_by_another_player_wins_for_the_finished_one() -> None:
    """V5: "otherwise the first finished player after her in turn order": Red turns T21
    (C3 C4 B3 B2 B1 C2) clockwise, which carries Blue's last two routers into T11."""
    routers = {
        "B4": "blue",
        "A3": "blue",
        "A2": "blue",
        "A1": "blue",
        "B3": "blue",
        "C4": "blue",
        "C3": "red",
        "C2": "red",
    }
    state = position(CROSSING, routers=routers, seat=0)
    state, _ = act(CROSSING, state, 0, rotate("T21", "cw"))
    assert G.outcome(state).winners == (1,)
    assert "Blue" in G.outcome(state).reason


def test_several_others_finished_the_first_after_the_active_player_wins() -> None:
    """V5: "otherwise the first finished player after her in turn order", counted round the
    table: with 3 players (goals T53, T13, T31) Yellow (seat 1) turns a far tower while Red
    (seat 0) and Blue (seat 2) both stand finished; Blue comes first after Yellow."""
    state = position(CROSSING, 3, seat=1)
    red, yellow, blue = colours(state)
    routers = {s: red for s in TOWER_SLOTS["T53"]}
    routers.update({s: blue for s in TOWER_SLOTS["T31"]})
    routers.update({"B8": yellow, "C11": yellow})  # T24 (C9 C10 B9 B8 B7 C8) holds B8
    state["routers"] = routers
    state, _ = act(CROSSING, state, 1, rotate("T24"))
    outcome = G.outcome(state)
    assert outcome.winners == (2,)
    assert "Blue" in outcome.reason


def team_position(blue_home: bool):
    state = position(CROSSING, 4, teams=True, seat=0)
    green, blue, orange, yellow = colours(state)
    routers = {s: green for s in NEAR_WIN}
    # Blue's goal is T35; the same turn of T44 carries D9 -> D10 and D8 -> D9 into it.
    blue_slots = ["D11", "C11", "C10", "C9", "D9", "D8"] if blue_home else TOWER_SLOTS["T31"]
    routers.update({s: blue for s in blue_slots})
    routers.update({"C1": orange, "A4": yellow})
    state["routers"] = routers
    return state


def test_team_wins_only_when_both_members_are_finished() -> None:
    """Rulebook: "when played in teams both team players have to be finished in order to win
    the game"; V5: "A finished player of an unfinished team keeps taking turns and may move
    her routers out again"."""
    state, _ = act(CROSSING, team_position(blue_home=False), 0, rotate("T44", "ccw"))
    assert state["phase"] == "play"
    assert G.view(state, None)["players"][0]["finished"] is True
    state, _ = act(CROSSING, state, 0, rotate("T44", "cw"))  # she may move a router out
    assert G.view(state, None)["players"][0]["finished"] is False


def test_team_wins_together() -> None:
    """V5: "The game ends immediately when an action ... finishes the second member of a
    team"; both partners are the winners (here one turn finishes both)."""
    state, _ = act(CROSSING, team_position(blue_home=True), 0, rotate("T44", "ccw"))
    outcome = G.outcome(state)
    assert outcome.winners == (0, 1)
    assert "team" in outcome.reason
