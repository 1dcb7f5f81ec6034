"""The playout scores added for computer players (issue 15: "with the game's own evaluation
where it helps"): each prefers what the game's rulebook rewards."""

from __future__ import annotations

import copy

from app.engine.dice import Dice
from app.engine.registry import get_game


def fresh(game_id: str, players: int) -> dict:
    game = get_game(game_id)
    assert game is not None
    return game.setup(players, game.parse_options({}), Dice(f"score-{game_id}", 0))


def test_maze_prefers_an_adventurer_nearer_her_corner_and_a_win_most() -> None:
    """C64 Maze: the first adventurer on her opposite corner wins."""
    game = get_game("c64-maze")
    state = fresh("c64-maze", 2)
    south = next(p["seat"] for p in state["players"] if p["side"] == "S")  # a1 -> h8
    nearer = copy.deepcopy(state)
    nearer["players"][south]["square"] = "h6"  # two steps from h8 on map Z
    assert game.playout_score(nearer, south) > game.playout_score(state, south)
    won = copy.deepcopy(state)
    won["outcome"] = {"winners": [south], "reason": "", "scores": None, "details": {}}
    assert game.playout_score(won, south) > game.playout_score(nearer, south)
    assert game.playout_score(won, 1 - south) < game.playout_score(state, 1 - south)


def test_cars_counts_checkpoints_before_distance() -> None:
    """C64 Cars: a lap through the three checkpoint zones, then across the goal line."""
    game = get_game("c64-cars")
    state = fresh("c64-cars", 2)
    seat = 0
    ahead = copy.deepcopy(state)
    ahead["players"][seat]["checkpoints"] = {**state["players"][seat]["checkpoints"], "East": True}
    assert game.playout_score(ahead, seat) > game.playout_score(state, seat)
    flipped = copy.deepcopy(state)
    flipped["players"][seat]["flipped"] = True
    assert game.playout_score(flipped, seat) < game.playout_score(state, seat)


def test_snakes_counts_segments_then_captures() -> None:
    """C64 Snakes: most segments on the board wins; tie -> most captured segments."""
    game = get_game("c64-snakes")
    state = fresh("c64-snakes", 2)
    head = state["players"][0]["snake"][0]
    longer = copy.deepcopy(state)
    longer["players"][0]["snake"] = [[head[0], head[1] + 1], head]
    assert game.playout_score(longer, 0) == game.playout_score(state, 0) + 1
    captor = copy.deepcopy(state)
    captor["players"][0]["captured"] = 1
    assert (
        game.playout_score(state, 0) < game.playout_score(captor, 0) < game.playout_score(longer, 0)
    )


def test_tanks_counts_discs_and_a_loaded_aim() -> None:
    """C64 Tanks: a disc from every other tank wins; a hit tank loses its next action."""
    game = get_game("c64-tanks")
    state = fresh("c64-tanks", 2)
    disc = copy.deepcopy(state)
    disc["players"][0]["discs"] = [1]
    assert game.playout_score(disc, 0) > game.playout_score(state, 0)
    shaken = copy.deepcopy(state)
    shaken["players"][0]["hit"] = True
    assert game.playout_score(shaken, 0) < game.playout_score(state, 0)
    aimed = copy.deepcopy(state)
    aimed["walls"] = {}
    aimed["players"][0]["square"], aimed["players"][0]["latest"] = "a1", "N"
    aimed["players"][1]["square"] = "a8"
    away = copy.deepcopy(aimed)
    away["players"][0]["latest"] = "S"
    assert game.playout_score(aimed, 0) == game.playout_score(away, 0) + 2


def test_trains_is_the_score_if_the_game_ended_now() -> None:
    """C64 Trains (C9): a station and another colour's rail touching it score 1 each."""
    from app.games.c64.trains import scores

    game = get_game("c64-trains")
    state = fresh("c64-trains", 3)
    vp, _pairs = scores(state)
    assert [game.playout_score(state, s) for s in range(3)] == [float(v) for v in vp]
    railed = copy.deepcopy(state)
    railed["players"][0]["rails"] = [[0, 0, 0, 1]]
    assert game.playout_score(railed, 0) > game.playout_score(state, 0)


def test_joystick_heroes_values_prizes_most() -> None:
    """Joystick Heroes H15: most Prizes wins; tickets buy Prizes and cubes."""
    game = get_game("joystick-heroes")
    state = fresh("joystick-heroes", 2)
    prize = copy.deepcopy(state)
    prize["players"][0]["prizes"] = 1
    tickets = copy.deepcopy(state)
    tickets["players"][0]["tickets"] = 4
    assert game.playout_score(prize, 0) > game.playout_score(tickets, 0)
    assert game.playout_score(tickets, 0) > game.playout_score(state, 0)
