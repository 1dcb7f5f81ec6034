"""C64 Maze: race your adventurer to the opposite corner through a maze of movable walls.

Rules: the C64 Board rulebook ("C64 Maze") with our rulings C1-C4
(docs/rules/families/c64-board-rulings.md) and C7 (docs/rules/c64-maze.md). Each player moves her
adventurer with her joystick cards: a move card steps one square in the seat-relative direction
unless a wall, another adventurer or the edge is in the way (the card is spent either way). Left
Button pushes the wall in front of the adventurer (in her latest direction) one square further;
Right Button pulls it one square back while the adventurer steps back. Walls never go on the corner
squares. The first adventurer on her own opposite corner wins at once.

State (JSON, on top of the common C64 state described in `base.py`):
- ``players[seat]["square"]``: the adventurer's square ("a1".."h8"); her goal is the
  opposite corner of her side (ruling C2) and is not stored.
- ``players[seat]["latest"]``: her latest direction, "N"/"E"/"S"/"W" (C4.6).
- ``walls``: the wall squares, sorted (C1: a wall fills its whole square). Start: map Z.

View: the common C64 view (docs/c64-view.md) with ``walls`` and, per player, ``square`` and
``goal``. Chance: yes (the shuffled joystick grids and the first-player draw at set-up).
Hidden information: none.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from app.engine.contract import Event, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.c64.base import C64Game, colour_name
from app.games.c64.boardmap import load_map, squares_with
from app.games.c64.geometry import (
    CORNERS,
    DIRECTION_NAMES,
    LEFT_CORNER,
    OPPOSITE,
    OPPOSITE_CORNER,
    SIDES,
    STEP,
)
from app.games.c64.guidance import UNREACHABLE, distances, final_score, manhattan

MAP = "Z"


def _start_walls() -> tuple[str, ...]:
    walls = squares_with(MAP, "#")
    starts = {sq for sq, symbol in load_map(MAP).items() if symbol == "A"}
    if CORNERS & set(walls):
        raise ValueError(f"map {MAP} puts a wall on a corner; walls never go on corners (C7)")
    if starts != {LEFT_CORNER[side] for side in SIDES}:
        raise ValueError(f"map {MAP} must mark exactly the four corners with 'A'")
    return walls


START_WALLS = _start_walls()


def _occupant(state: State, square: str) -> int | None:
    for p in state["players"]:
        if p["square"] == square:
            return int(p["seat"])
    return None


@register
class Maze(C64Game):
    id = "c64-maze"
    title = "C64 Maze"
    min_players = 2
    max_players = 4
    rules_version = "1"
    has_chance = True
    hidden_information = False
    game_key = "maze"
    goal = "The first player to reach her opposite corner wins."

    def setup_board(self, state: State, options: BaseModel, rng: Dice) -> None:
        for player in state["players"]:
            player["square"] = LEFT_CORNER[player["side"]]
        state["walls"] = list(START_WALLS)

    def move_piece(self, state: State, seat: int, direction: str, events: list[Event]) -> None:
        me = state["players"][seat]
        here = me["square"]
        target = STEP[here][direction]
        name = colour_name(state, seat)
        way = DIRECTION_NAMES[direction]
        why = self._blocker(state, target)
        if why is None:
            assert target is not None
            me["square"] = target
            events.append(
                {
                    "type": "move",
                    "seat": seat,
                    "from": here,
                    "to": target,
                    "text": f"{name} moves {way} to {target}.",
                }
            )
            return
        reason = self._blocker_text(state, why, target)
        events.append(
            {
                "type": "blocked",
                "seat": seat,
                "action": "move",
                "why": why,
                "direction": direction,
                "from": here,
                "to": target,
                "text": f"{name} cannot move {way} from {here}: {reason}.",
            }
        )

    def press_button(self, state: State, seat: int, button: str, events: list[Event]) -> None:
        if button == "left_button":
            self._push(state, seat, events)
        else:
            self._pull(state, seat, events)

    def after_turn(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        # Only the mover's adventurer can have moved this turn, so only she can have arrived.
        me = state["players"][seat]
        goal = OPPOSITE_CORNER[me["side"]]
        if me["square"] != goal:
            return None
        name = colour_name(state, seat)
        return Outcome(
            winners=(seat,),
            reason=f"{name} reaches {goal}, the opposite corner, and wins.",
            details={"square": goal},
        )

    def board_view(self, state: State, board: dict[str, Any]) -> None:
        board["walls"] = list(state["walls"])

    def playout_score(self, state: State, seat: int) -> float | None:
        """Minus the adventurer's walking distance to her corner around today's walls (when
        they shut her in, the straight distance plus a board's length: walls can be pushed),
        so seeded playouts and computer players race instead of wandering."""
        final = final_score(state, seat)
        if final is not None:
            return final
        me = state["players"][seat]
        goal = OPPOSITE_CORNER[me["side"]]
        steps = distances((goal,), frozenset(state["walls"])).get(me["square"])
        if steps is None:
            steps = UNREACHABLE + manhattan(me["square"], goal)
        return -float(steps)

    def player_view(self, state: State, seat: int, entry: dict[str, Any]) -> None:
        player = state["players"][seat]
        entry["square"] = player["square"]
        entry["goal"] = OPPOSITE_CORNER[player["side"]]

    # --- push and pull (ruling C7) ------------------------------------------------------------
    @staticmethod
    def _blocker(state: State, square: str | None) -> str | None:
        """Why nothing may enter `square`: "edge", "wall", "adventurer", or None if free."""
        if square is None:
            return "edge"
        if square in state["walls"]:
            return "wall"
        if _occupant(state, square) is not None:
            return "adventurer"
        return None

    @staticmethod
    def _blocker_text(state: State, why: str, square: str | None) -> str:
        if why == "edge":
            return "the edge of the board is in the way"
        if why == "wall":
            return f"{square} is a wall"
        assert square is not None
        occupant = _occupant(state, square)
        assert occupant is not None
        return f"{colour_name(state, occupant)}'s adventurer is on {square}"

    def _push(self, state: State, seat: int, events: list[Event]) -> None:
        """Left Button: the wall next to the adventurer in her latest direction moves one more
        square that way, onto a free non-corner square. The adventurer stays."""
        me = state["players"][seat]
        here, direction = me["square"], me["latest"]
        name = colour_name(state, seat)
        way = DIRECTION_NAMES[direction]
        walls = state["walls"]
        wall = STEP[here][direction]
        if wall is None or wall not in walls:
            text = f"{name} has no wall to push: nothing is {way} of {here}."
            self._no_effect(events, seat, "push", "no_wall", direction, None, text)
            return
        dest = STEP[wall][direction]
        why = self._blocker(state, dest)
        if why is None and dest in CORNERS:
            why = "corner"
        if why is not None:
            reason = (
                "walls never go on corner squares"
                if why == "corner"
                else self._blocker_text(state, why, dest)
            )
            text = f"{name} cannot push the wall at {wall} {way}: {reason}."
            self._no_effect(events, seat, "push", why, direction, wall, text)
            return
        assert dest is not None
        state["walls"] = sorted([w for w in walls if w != wall] + [dest])
        events.append(
            {
                "type": "push",
                "seat": seat,
                "direction": direction,
                "wall_from": wall,
                "wall_to": dest,
                "piece_from": here,
                "piece_to": here,
                "text": f"{name} pushes the wall at {wall} {way} to {dest}.",
            }
        )

    def _pull(self, state: State, seat: int, events: list[Event]) -> None:
        """Right Button: the adventurer steps back (against her latest direction) and the wall
        in front of her follows into the square she left. Latest direction stays."""
        me = state["players"][seat]
        here, direction = me["square"], me["latest"]
        name = colour_name(state, seat)
        way = DIRECTION_NAMES[direction]
        walls = state["walls"]
        wall = STEP[here][direction]
        if wall is None or wall not in walls:
            text = f"{name} has no wall to pull: nothing is {way} of {here}."
            self._no_effect(events, seat, "pull", "no_wall", OPPOSITE[direction], None, text)
            return
        back_direction = OPPOSITE[direction]
        back = STEP[here][back_direction]
        why = self._blocker(state, back)
        # The wall would land where the adventurer stands. On an 8x8 board the square behind
        # a corner is always off the board, so "edge" already covers this; kept for clarity.
        if why is None and here in CORNERS:
            why = "corner"
        if why is not None:
            if why == "corner":
                reason = f"{name} stands on a corner and walls never go on corner squares"
            elif why == "edge":
                reason = f"there is no room behind {name}"
            else:
                reason = self._blocker_text(state, why, back)
            text = f"{name} cannot pull the wall at {wall}: {reason}."
            self._no_effect(events, seat, "pull", why, back_direction, wall, text)
            return
        assert back is not None
        me["square"] = back
        state["walls"] = sorted([w for w in walls if w != wall] + [here])
        events.append(
            {
                "type": "pull",
                "seat": seat,
                "direction": back_direction,
                "wall_from": wall,
                "wall_to": here,
                "piece_from": here,
                "piece_to": back,
                "text": f"{name} pulls the wall at {wall} {DIRECTION_NAMES[back_direction]} "
                f"to {here} and steps back to {back}.",
            }
        )

    @staticmethod
    def _no_effect(
        events: list[Event],
        seat: int,
        action: str,
        why: str,
        direction: str,
        wall: str | None,
        text: str,
    ) -> None:
        """A push or pull that could not happen: the card is spent, nothing moves. `direction`
        is where the wall (push) or the adventurer (pull) would have gone."""
        events.append(
            {
                "type": "blocked",
                "seat": seat,
                "action": action,
                "why": why,
                "direction": direction,
                "wall": wall,
                "text": text,
            }
        )
