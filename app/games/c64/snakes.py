"""C64 Snakes: grow your snake across the grid points, bite tails, and catch a head to win.

Rules: the C64 Board rulebook ("C64 Snakes") with our rulings C2-C4
(docs/rules/families/c64-board-rulings.md) and C10 (docs/rules/c64-snakes.md). 2-4 players. Each
snake head (a disc) starts on its seat's left-corner grid point with 16 sticks in supply (12 each
with 4 players). A snake is a path: the head point, then its segments back to the tail point. A move
card moves the head one grid point in the seat-relative direction and lays a segment between the old
and the new head point. The target must be on the grid and not touched by any segment (any colour,
the player's own body too) and not hold another head, except: moving onto an opponent's head
captures it and wins at once (also against a snake without segments); moving onto an opponent's tail
point (a snake with at least one segment) takes her last segment as a captured stick, then the head
moves there and lays a segment as usual. Left Button takes the segment next to the head back to
supply and moves the head to its far end; Right Button takes the tail segment back to supply;
without segments they do nothing. The game ends as soon as a player lays her last stick: most
segments on the board wins, tie -> most captured segments, still tied -> shared win.

State (JSON, on top of the common C64 state described in `base.py`):
- ``players[seat]["snake"]``: the snake's grid points ``[gx, gy]`` from head to tail (0..8,
  ruling C2); ``snake[0]`` is the head, ``snake[-1]`` the tail, ``len - 1`` segments.
- ``players[seat]["supply"]``: sticks not yet on the board.
- ``players[seat]["captured"]``: opponent segments this player has captured.

View: the common C64 view (docs/c64-view.md) plus, per player, ``snake``, ``head``,
``segments``, ``supply`` and ``captured``; on the board ``sticks`` (the starting supply: 16, or
12 with 4 players).

Events beside the common ones: ``move`` (from, to points; ``capture`` = None, "head" or
"tail" with ``victim`` and, for a tail, ``segment`` [x1, y1, x2, y2] taken), ``blocked``
(why "edge" or "body", with ``owner`` for a body), ``retract`` (button, the segment
``[x1, y1, x2, y2]`` returned, ``head`` for the Left Button), ``no_segments`` (a button with
nothing to take back) and ``score`` (the final count, just before ``win``).

Chance: yes (the shuffled joystick grids and the first-player draw at set-up).
Hidden information: none.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel

from app.engine.contract import Event, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.c64.base import C64Game, colour_name
from app.games.c64.geometry import DIRECTION_NAMES, LEFT_CORNER_POINT, point_step
from app.games.c64.guidance import final_score

STICKS: Final = {2: 16, 3: 16, 4: 12}
"""Starting supply by player count: 16 sticks each, 12 with 4 players."""

Point = list[int]


def point_text(point: Point | tuple[int, int]) -> str:
    return f"({point[0]},{point[1]})"


def segment(a: Point, b: Point) -> list[int]:
    """A segment as [x1, y1, x2, y2], in the order given (head side first)."""
    return [a[0], a[1], b[0], b[1]]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@register
class Snakes(C64Game):
    id = "c64-snakes"
    title = "C64 Snakes"
    min_players = 2
    max_players = 4
    rules_version = "1"
    has_chance = True
    hidden_information = False
    game_key = "snakes"
    goal = (
        "Capture an opponent's head to win; when someone runs out of sticks, "
        "the longest snake wins."
    )

    def setup_board(self, state: State, options: BaseModel, rng: Dice) -> None:
        sticks = STICKS[len(state["players"])]
        for player in state["players"]:
            player["snake"] = [list(LEFT_CORNER_POINT[player["side"]])]
            player["supply"] = sticks
            player["captured"] = 0

    # --- move cards -----------------------------------------------------------------------------
    def move_piece(self, state: State, seat: int, direction: str, events: list[Event]) -> None:
        players = state["players"]
        me = players[seat]
        snake = me["snake"]
        here = snake[0]
        name = colour_name(state, seat)
        way = DIRECTION_NAMES[direction]
        target = point_step(here, direction)
        if target is None:
            events.append(
                self._blocked(
                    seat,
                    direction,
                    here,
                    None,
                    "edge",
                    None,
                    f"{name} cannot move {way} from {point_text(here)}: "
                    "the edge of the board is in the way.",
                )
            )
            return
        to = [target[0], target[1]]
        at = point_text(to)
        capture: str | None = None
        victim: int | None = None
        taken: list[int] | None = None
        for other in players:
            if other["seat"] == seat:
                continue
            body = other["snake"]
            if body[0] == to:
                capture, victim = "head", other["seat"]
                break
            if len(body) > 1 and body[-1] == to:
                capture, victim = "tail", other["seat"]
                break
        if capture is None:
            for other in players:
                if len(other["snake"]) > 1 and to in other["snake"]:
                    owner = other["seat"]
                    whose = "her own" if owner == seat else f"{colour_name(state, owner)}'s"
                    events.append(
                        self._blocked(
                            seat,
                            direction,
                            here,
                            to,
                            "body",
                            owner,
                            f"{name} cannot move {way} to {at}: {whose} snake is there.",
                        )
                    )
                    return
        text = f"{name} moves {way} to {at}"
        if capture == "tail":
            assert victim is not None
            prey = players[victim]
            body = prey["snake"]
            taken = segment(body[-2], body[-1])
            prey["snake"] = body[:-1]
            me["captured"] = me["captured"] + 1
            text = (
                f"{name} bites the tail of {colour_name(state, victim)}'s snake at {at}, "
                f"captures a segment and moves there"
            )
        elif capture == "head":
            assert victim is not None
            text = f"{name} moves {way} onto {colour_name(state, victim)}'s head at {at}"
        me["snake"] = [to, *snake]
        me["supply"] = me["supply"] - 1
        events.append(
            {
                "type": "move",
                "seat": seat,
                "direction": direction,
                "from": list(here),
                "to": list(to),
                "segment": segment(to, here),
                "supply": me["supply"],
                "capture": capture,
                "victim": victim,
                "taken": taken,
                "text": f"{text} ({_plural(me['supply'], 'stick')} left).",
            }
        )

    @staticmethod
    def _blocked(
        seat: int,
        direction: str,
        here: Point,
        to: Point | None,
        why: str,
        owner: int | None,
        text: str,
    ) -> Event:
        return {
            "type": "blocked",
            "seat": seat,
            "action": "move",
            "why": why,
            "owner": owner,
            "direction": direction,
            "from": list(here),
            "to": None if to is None else list(to),
            "text": text,
        }

    # --- buttons: take segments back -------------------------------------------------------------
    def press_button(self, state: State, seat: int, button: str, events: list[Event]) -> None:
        me = state["players"][seat]
        snake = me["snake"]
        name = colour_name(state, seat)
        if len(snake) < 2:
            events.append(
                {
                    "type": "no_segments",
                    "seat": seat,
                    "button": button,
                    "text": f"{name} has no segment to take back.",
                }
            )
            return
        me["supply"] = me["supply"] + 1
        sticks = _plural(me["supply"], "stick")
        if button == "left_button":
            back = segment(snake[0], snake[1])
            me["snake"] = snake[1:]
            events.append(
                {
                    "type": "retract",
                    "seat": seat,
                    "button": button,
                    "end": "head",
                    "segment": back,
                    "from": list(snake[0]),
                    "head": list(snake[1]),
                    "supply": me["supply"],
                    "text": f"{name} takes back her first segment; the head moves back to "
                    f"{point_text(snake[1])} ({sticks} in supply).",
                }
            )
        else:
            back = segment(snake[-2], snake[-1])
            me["snake"] = snake[:-1]
            events.append(
                {
                    "type": "retract",
                    "seat": seat,
                    "button": button,
                    "end": "tail",
                    "segment": back,
                    "supply": me["supply"],
                    "text": f"{name} takes back her tail segment at {point_text(snake[-1])} "
                    f"({sticks} in supply).",
                }
            )

    # --- the end (C10) -------------------------------------------------------------------------
    def after_turn(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        players = state["players"]
        me = players[seat]
        name = colour_name(state, seat)
        for other in players:
            if other["seat"] != seat and other["snake"][0] == me["snake"][0]:
                victim = colour_name(state, other["seat"])
                return Outcome(
                    winners=(seat,),
                    reason=f"{name} captures {victim}'s head at "
                    f"{point_text(me['snake'][0])} and wins.",
                    scores=self._segment_counts(state),
                    details={"players": self._breakdown(state), "capture": other["seat"]},
                )
        if all(p["supply"] > 0 for p in players):
            return None
        return self._final_count(state, seat, events)

    @staticmethod
    def _segment_counts(state: State) -> dict[int, int]:
        return {p["seat"]: len(p["snake"]) - 1 for p in state["players"]}

    @staticmethod
    def _breakdown(state: State) -> list[dict[str, Any]]:
        return [
            {
                "seat": p["seat"],
                "segments": len(p["snake"]) - 1,
                "captured": p["captured"],
                "supply": p["supply"],
            }
            for p in state["players"]
        ]

    def _final_count(self, state: State, seat: int, events: list[Event]) -> Outcome:
        players = state["players"]
        count = self._segment_counts(state)
        captured = {p["seat"]: p["captured"] for p in players}
        best = max(count.values())
        leaders = [s for s in sorted(count) if count[s] == best]
        tie_note = ""
        if len(leaders) > 1:
            tied = _join([colour_name(state, s) for s in leaders])
            most = max(captured[s] for s in leaders)
            leaders = [s for s in leaders if captured[s] == most]
            if len(leaders) == 1:
                tie_note = (
                    f" {tied} tie on {_plural(best, 'segment')}; "
                    f"{colour_name(state, leaders[0])} captured the most "
                    f"({_plural(most, 'segment')})."
                )
            else:
                tie_note = (
                    f" {tied} tie on {_plural(best, 'segment')}; "
                    f"{_join([colour_name(state, s) for s in leaders])} captured "
                    f"{_plural(most, 'segment')} each."
                )
        in_order = sorted(count, key=lambda s: (-count[s], -captured[s], s))
        table = ", ".join(
            f"{colour_name(state, s)} {_plural(count[s], 'segment')}"
            + (f" ({captured[s]} captured)" if captured[s] else "")
            for s in in_order
        )
        if len(leaders) == 1:
            verdict = f"{colour_name(state, leaders[0])} wins"
            verdict += "." if tie_note else " with the longest snake."
        else:
            verdict = f"{_join([colour_name(state, s) for s in leaders])} share the win."
        breakdown = self._breakdown(state)
        events.append(
            {
                "type": "score",
                "seat": seat,
                "players": breakdown,
                "text": f"Final count: {table}.",
            }
        )
        return Outcome(
            winners=tuple(leaders),
            reason=f"{colour_name(state, seat)} has laid her last stick. {table}."
            f"{tie_note} {verdict}",
            scores=count,
            details={"players": breakdown},
        )

    # --- view ----------------------------------------------------------------------------------
    def board_view(self, state: State, board: dict[str, Any]) -> None:
        board["sticks"] = STICKS[len(state["players"])]

    def playout_score(self, state: State, seat: int) -> float | None:
        """Segments on the board (what decides the game when the sticks run out), plus half a
        point per captured segment (the tie-break)."""
        final = final_score(state, seat)
        if final is not None:
            return final
        me = state["players"][seat]
        return float(len(me["snake"]) - 1) + 0.5 * me["captured"]

    def player_view(self, state: State, seat: int, entry: dict[str, Any]) -> None:
        player = state["players"][seat]
        snake = player["snake"]
        entry["snake"] = [list(p) for p in snake]
        entry["head"] = list(snake[0])
        entry["segments"] = len(snake) - 1
        entry["supply"] = player["supply"]
        entry["captured"] = player["captured"]


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
