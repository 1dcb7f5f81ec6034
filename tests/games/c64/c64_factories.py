"""Factories for the C64 tests: states built directly, so each scenario shows its position.

(Named c64_factories, not factories, because tests have no __init__ files and pytest's
rootdir imports need helper module names that are unique across the whole tests tree.)
"""

from __future__ import annotations

import copy
from typing import Any

from app.engine.contract import Event, Move, Outcome, State
from app.engine.dice import Dice
from app.games.c64.base import C64Game
from app.games.c64.geometry import ABSOLUTE, LEFT_CORNER, SIDES_BY_PLAYERS
from app.games.c64.maze import START_WALLS, Maze

MAZE = Maze()

DEFAULT_GRID = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
"""Row 0 holds the Up|Down cards, row 1 Left|Right, row 2 the buttons; column 0 is 0, 3, 6."""

CARD_FOR_FACE = {"up": 0, "down": 0, "left": 3, "right": 3, "left_button": 6, "right_button": 6}


def dice(label: str = "test", move_number: int = 0) -> Dice:
    return Dice(label, move_number)


def joystick(
    active: list[tuple[int, str]],
    *,
    grid: list[list[int | None]] | None = None,
    axis: str | None = None,
    tilted: list[int] | None = None,
    must_return: bool = False,
) -> dict[str, Any]:
    """A joystick with `active` (card, face) pairs taken out of `grid` (default DEFAULT_GRID).
    The axis defaults to the line the active cards share (or "col" for a single card)."""
    cells = [row[:] for row in (grid or DEFAULT_GRID)]
    where = {}
    for card, _ in active:
        for r in range(3):
            for c in range(3):
                if cells[r][c] == card:
                    cells[r][c] = None
                    where[card] = (r, c)
    if axis is None:
        axis = "col"
        if len(active) == 2:
            (ra, _), (rb, _) = where[active[0][0]], where[active[1][0]]
            axis = "row" if ra == rb else "col"
    return {
        "grid": cells,
        "active": sorted(({"card": c, "face": f} for c, f in active), key=lambda a: a["card"]),
        "tilted": tilted,
        "axis": axis,
        "must_return": must_return,
    }


def setup_joystick(grid: list[list[int | None]] | None = None) -> dict[str, Any]:
    """A set-up joystick: all nine cards in the grid, nothing taken yet."""
    return {
        "grid": [row[:] for row in (grid or DEFAULT_GRID)],
        "active": [],
        "tilted": None,
        "axis": None,
        "must_return": False,
    }


def holding(face: str) -> dict[str, Any]:
    """A play-phase joystick with two active cards from column 0, one of them showing `face`."""
    card = CARD_FOR_FACE[face]
    other = {0: (3, "left"), 3: (6, "left_button"), 6: (0, "up")}[card]
    return joystick([(card, face), other])


def seat_sides(players: int, order: list[int] | None) -> tuple[list[int], dict[int, str]]:
    """The turn order (default 0..n-1) and each seat's side by it (so the first is S, ruling
    C2): (order, {seat: side})."""
    order = list(range(players)) if order is None else order
    sides = SIDES_BY_PLAYERS[players]
    return order, {seat: sides[i] for i, seat in enumerate(order)}


def first_turn(order: list[int], turn: int | None, phase: str) -> int | None:
    """Whose turn it is: `turn`, by default the first in `order`; nobody's outside play."""
    return (order[0] if turn is None else turn) if phase == "play" else None


def joysticks_for(
    players: int, joysticks: dict[int, dict[str, Any]] | None, phase: str
) -> list[dict[str, Any]]:
    """Every seat's joystick: a copy of the given one, else holding an Up and a Left card in
    play (nothing taken in set-up)."""
    joysticks = joysticks or {}
    return [
        copy.deepcopy(joysticks[s])
        if s in joysticks
        else holding("up")
        if phase == "play"
        else setup_joystick()
        for s in range(players)
    ]


def fresh_game(game: C64Game, players: int, seed: str) -> State:
    """A game of `game` just set up by the rules module (no options), dice seeded `seed`."""
    return game.setup(players, game.parse_options(None), dice(seed))


def maze_state(
    players: int = 2,
    *,
    order: list[int] | None = None,
    squares: dict[int, str] | None = None,
    walls: list[str] | tuple[str, ...] | None = None,
    latest: dict[int, str] | None = None,
    turn: int | None = None,
    joysticks: dict[int, dict[str, Any]] | None = None,
    phase: str = "play",
) -> State:
    """A Maze state in the play phase. Defaults: order 0..n-1 (so seat 0 is S, Player 1),
    adventurers on their left corners, walls of map Z, latest = seat Up, each seat holding
    an Up card and a Left card (set-up: nothing taken), turn = order[0]."""
    order, side_of = seat_sides(players, order)
    squares = squares or {}
    latest = latest or {}
    return {
        "game": "c64-maze",
        "phase": phase,
        "turn": first_turn(order, turn, phase),
        "order": order,
        "players": [
            {
                "seat": s,
                "side": side_of[s],
                "latest": latest.get(s, ABSOLUTE[side_of[s]]["up"]),
                "square": squares.get(s, LEFT_CORNER[side_of[s]]),
            }
            for s in range(players)
        ],
        "joysticks": joysticks_for(players, joysticks, phase),
        "outcome": None,
        "walls": sorted(START_WALLS if walls is None else walls),
    }


def fresh_maze(players: int = 2, seed: str = "seed") -> State:
    return fresh_game(MAZE, players, seed)


def probe_state(players: int = 2, seed: str = "probe") -> State:
    """A Probe game in the play phase, every seat holding an Up and a Left card."""
    state = setup_done(PROBE, PROBE.setup(players, PROBE.parse_options(None), dice(seed)))
    state["joysticks"] = [holding("up") for _ in range(players)]
    return state


def play_move(game: C64Game, state: State, seat: int, face: str) -> Move:
    """The first legal play of `seat` that plays its active card showing `face`."""
    faces = {a["card"]: a["face"] for a in state["joysticks"][seat]["active"]}
    for move in game.legal_moves(state, seat):
        if faces.get(move["card"]) == face:
            return move
    raise AssertionError(f"seat {seat} holds no active {face} card")


def play(state: State, seat: int, face: str, game: C64Game = MAZE) -> tuple[State, list[Event]]:
    """`seat` plays its active card showing `face` (the seat needs one, see `holding`)."""
    return game.apply(state, seat, play_move(game, state, seat, face), dice("play", 1))


def give_and_play(
    game: C64Game, state: State, seat: int, face: str, changes: dict[str, Any] | None = None
) -> tuple[State, list[Event]]:
    """Give `seat` a card showing `face` (plus `changes` to its player entry), make it her
    turn and play it."""
    state = copy.deepcopy(state)
    state["joysticks"][seat] = holding(face)
    state["players"][seat].update(changes or {})
    state["turn"] = seat
    return play(state, seat, face, game)


def act(state: State, seat: int, face: str, **changes: Any) -> tuple[State, list[Event]]:
    """Give `seat` a Maze card showing `face` (plus `changes` to its player entry) and play it."""
    return give_and_play(MAZE, state, seat, face, changes)


def setup_done(game: C64Game, state: State, picks: int = 0) -> State:
    """Finish set-up with each active seat's first legal move (take, then return)."""
    while state["phase"] == "setup":
        seat = min(game.active_seats(state))
        moves = game.legal_moves(state, seat)
        state, _ = game.apply(state, seat, moves[picks % len(moves)], dice("setup", 1))
    return state


class Probe(C64Game):
    """A minimal C64 game (not registered) that records executed faces, to test the shared
    machinery: a player with "skip" set loses her next action (like a Tanks hit, C4.7)."""

    id = "c64-probe"
    title = "C64 Probe"
    min_players = 2
    max_players = 4
    rules_version = "0"
    game_key = "probe"

    def setup_board(self, state: State, options: Any, rng: Dice) -> None:
        for player in state["players"]:
            player["skip"] = False

    def move_piece(self, state: State, seat: int, direction: str, events: list[Event]) -> None:
        events.append({"type": "probe", "seat": seat, "direction": direction, "text": "moved"})

    def press_button(self, state: State, seat: int, button: str, events: list[Event]) -> None:
        events.append({"type": "probe", "seat": seat, "button": button, "text": "pressed"})

    def skip_action(self, state: State, seat: int, events: list[Event]) -> bool:
        player = state["players"][seat]
        if player["skip"]:
            player["skip"] = False
            events.append({"type": "skip", "seat": seat, "text": "skipped"})
            return True
        return False

    def after_turn(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        return None


PROBE = Probe()
