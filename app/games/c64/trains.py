"""C64 Trains: lay rails across the grid points and build stations that opponents' rails reach.

Rules: the C64 Board rulebook ("C64 Trains") with our rulings C2-C4
(docs/rules/families/c64-board-rulings.md) and C9 (docs/rules/c64-trains.md). 3-4 players. Each
train starts on its seat's left-corner grid point with 16 rails and 3 stations in supply. A move
card moves the train one grid point in the seat-relative direction (not off the 9x9 grid points, not
onto another train) and lays a rail of the player's colour on the segment just travelled, unless her
colour already lies there (then no rail is used). Rails of different colours may share a segment;
trains cross any rails. Either button places a station on the train's grid point if she has one left
and no station of any colour stands there. When a player lays her 16th rail, every other player
takes exactly one more turn in turn order, then the game ends. Scoring (C9): for every station and
every rail of another colour with one end on the station's point, the station owner and the rail
owner each score 1 VP. Most VP wins; tie -> most rails laid; still tied -> shared win.

State (JSON, on top of the common C64 state described in `base.py`):
- ``players[seat]["point"]``: the train's grid point ``[gx, gy]`` (0..8 each, ruling C2).
- ``players[seat]["rails"]``: her rails in the order laid, each a unit segment
  ``[x1, y1, x2, y2]`` with ``(x1, y1) < (x2, y2)``; rails left = 16 - len(rails).
- ``players[seat]["stations"]``: her station points ``[gx, gy]``; stations left = 3 - len.
- ``ender``: the seat that laid her 16th rail first, or None.
- ``final_turns``: None, or how many of the other players' last turns are still to come.

View: the common C64 view (docs/c64-view.md) plus, per player, ``point``, ``rails``,
``stations``, ``rails_left``, ``rails_laid``, ``stations_left`` and ``vp`` (the score if the
game ended now); on the board ``connections`` (every scoring station-rail pair:
``{"station": seat, "point": [gx, gy], "rail": seat, "segment": [x1, y1, x2, y2]}``),
``final`` (None or ``{"ender": seat, "turns_left": n}``) and ``supply``
(``{"rails": 16, "stations": 3}``).

Events beside the common ones: ``move`` (from, to points; ``rail`` = the segment laid, or
None with ``why`` "own_rail" / "no_rails"), ``blocked`` (why "edge" or "train"), ``station``
(point), ``station_blocked`` (why "none_left" or "occupied"), ``last_rail`` (the countdown
starts, ``turns_left``), ``final_turn`` (``turns_left`` after it) and ``score`` (the final
breakdown, just before ``win``).

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

RAILS: Final = 16
STATIONS: Final = 3

Point = list[int]
Segment = list[int]


def point_text(point: Point | tuple[int, int]) -> str:
    return f"({point[0]},{point[1]})"


def segment(a: Point | tuple[int, int], b: Point | tuple[int, int]) -> Segment:
    """The unit segment between two neighbouring grid points, endpoints in canonical order."""
    if (a[0], a[1]) <= (b[0], b[1]):
        return [a[0], a[1], b[0], b[1]]
    return [b[0], b[1], a[0], a[1]]


def segment_text(seg: Segment) -> str:
    return f"({seg[0]},{seg[1]})-({seg[2]},{seg[3]})"


def connections(state: State) -> list[dict[str, Any]]:
    """Every scoring pair (C9): a station and a rail of another colour with one end on the
    station's point (direct contact only), ordered by station owner, her stations in the
    order built, rail owner, her rails in the order laid."""
    players = state["players"]
    stations: dict[tuple[int, int], tuple[int, int]] = {}
    for owner in players:
        for index, (x, y) in enumerate(owner["stations"]):
            stations[(x, y)] = (owner["seat"], index)
    if not stations:
        return []
    found: list[tuple[int, int, int, int, list[int], list[int]]] = []
    for other in players:
        seat = other["seat"]
        for index, rail in enumerate(other["rails"]):
            for end in ((rail[0], rail[1]), (rail[2], rail[3])):
                station = stations.get(end)
                if station is not None and station[0] != seat:
                    found.append((station[0], station[1], seat, index, list(end), rail))
    found.sort(key=lambda f: f[:4])
    return [
        {"station": owner, "point": point, "rail": seat, "segment": list(rail)}
        for owner, _, seat, _, point, rail in found
    ]


def scores(state: State) -> tuple[list[int], list[dict[str, Any]]]:
    """VP per seat and the connections that earned them: each pair scores 1 for the station
    owner and 1 for the rail owner."""
    vp = [0] * len(state["players"])
    pairs = connections(state)
    for pair in pairs:
        vp[pair["station"]] += 1
        vp[pair["rail"]] += 1
    return vp, pairs


@register
class Trains(C64Game):
    id = "c64-trains"
    title = "C64 Trains"
    min_players = 3
    max_players = 4
    rules_version = "1"
    has_chance = True
    hidden_information = False
    game_key = "trains"
    goal = (
        "Lay rails and stations; each opponent rail touching a station scores for both "
        "owners, and the most points win once the rails run out."
    )

    def setup_board(self, state: State, options: BaseModel, rng: Dice) -> None:
        for player in state["players"]:
            player["point"] = list(LEFT_CORNER_POINT[player["side"]])
            player["rails"] = []
            player["stations"] = []
        state["ender"] = None
        state["final_turns"] = None

    # --- move cards: drive and lay a rail ------------------------------------------------------
    def move_piece(self, state: State, seat: int, direction: str, events: list[Event]) -> None:
        me = state["players"][seat]
        here = me["point"]
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
                    f"{name} cannot move {way} from {point_text(here)}: "
                    "the edge of the board is in the way.",
                )
            )
            return
        to = [target[0], target[1]]
        for other in state["players"]:
            if other["seat"] != seat and other["point"] == to:
                other_name = colour_name(state, other["seat"])
                events.append(
                    self._blocked(
                        seat,
                        direction,
                        here,
                        to,
                        "train",
                        f"{name} cannot move {way} to {point_text(to)}: "
                        f"{other_name}'s train is there.",
                    )
                )
                return
        me["point"] = to
        rail = segment(here, to)
        event: Event = {
            "type": "move",
            "seat": seat,
            "direction": direction,
            "from": list(here),
            "to": list(to),
            "rail": None,
        }
        if rail in me["rails"]:
            event["why"] = "own_rail"
            event["text"] = (
                f"{name} moves {way} to {point_text(to)} along her own rail (no rail used)."
            )
        elif len(me["rails"]) >= RAILS:
            # Unreachable in a real game (the game ends before her next turn), kept so a
            # built position cannot lay a 17th rail.
            event["why"] = "no_rails"
            event["text"] = f"{name} moves {way} to {point_text(to)} but has no rails left."
        else:
            me["rails"] = [*me["rails"], rail]
            left = RAILS - len(me["rails"])
            event["rail"] = rail
            event["rails_left"] = left
            event["text"] = f"{name} moves {way} to {point_text(to)} and lays a rail ({left} left)."
        events.append(event)

    @staticmethod
    def _blocked(
        seat: int, direction: str, here: Point, to: Point | None, why: str, text: str
    ) -> Event:
        return {
            "type": "blocked",
            "seat": seat,
            "action": "move",
            "why": why,
            "direction": direction,
            "from": list(here),
            "to": None if to is None else list(to),
            "text": text,
        }

    # --- buttons: build a station --------------------------------------------------------------
    def press_button(self, state: State, seat: int, button: str, events: list[Event]) -> None:
        me = state["players"][seat]
        here = me["point"]
        name = colour_name(state, seat)
        at = point_text(here)
        if len(me["stations"]) >= STATIONS:
            events.append(
                {
                    "type": "station_blocked",
                    "seat": seat,
                    "why": "none_left",
                    "point": list(here),
                    "text": f"{name} has no station left to build.",
                }
            )
            return
        for other in state["players"]:
            if here in other["stations"]:
                owner = (
                    "her own"
                    if other["seat"] == seat
                    else (f"{colour_name(state, other['seat'])}'s")
                )
                events.append(
                    {
                        "type": "station_blocked",
                        "seat": seat,
                        "why": "occupied",
                        "point": list(here),
                        "owner": other["seat"],
                        "text": f"{name} cannot build a station at {at}: {owner} station "
                        "is already there.",
                    }
                )
                return
        me["stations"] = [*me["stations"], list(here)]
        left = STATIONS - len(me["stations"])
        events.append(
            {
                "type": "station",
                "seat": seat,
                "point": list(here),
                "stations_left": left,
                "text": f"{name} builds a station at {at} ({left} left).",
            }
        )

    # --- the end (C9) --------------------------------------------------------------------------
    def after_turn(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        order = state["order"]
        if state["ender"] is None:
            if len(state["players"][seat]["rails"]) < RAILS:
                return None
            turns = len(order) - 1
            state["ender"] = seat
            state["final_turns"] = turns
            others = [colour_name(state, s) for s in order[order.index(seat) + 1 :]]
            others += [colour_name(state, s) for s in order[: order.index(seat)]]
            events.append(
                {
                    "type": "last_rail",
                    "seat": seat,
                    "turns_left": turns,
                    "text": f"{colour_name(state, seat)} has laid her last rail! "
                    f"{_join(others)} each take one more turn, then the game ends.",
                }
            )
            return None
        turns = state["final_turns"] - 1
        state["final_turns"] = turns
        name = colour_name(state, seat)
        if turns > 0:
            events.append(
                {
                    "type": "final_turn",
                    "seat": seat,
                    "turns_left": turns,
                    "text": f"That was {name}'s last turn; {turns} more to come.",
                }
            )
            return None
        return self._final_scoring(state, seat, events)

    def _final_scoring(self, state: State, seat: int, events: list[Event]) -> Outcome:
        vp, pairs = scores(state)
        players = state["players"]
        laid = [len(p["rails"]) for p in players]
        best = max(vp)
        leaders = [s for s in range(len(players)) if vp[s] == best]
        tie_note = ""
        if len(leaders) > 1:
            tied = _join([colour_name(state, s) for s in leaders])
            most = max(laid[s] for s in leaders)
            leaders = [s for s in leaders if laid[s] == most]
            if len(leaders) == 1:
                tie_note = (
                    f" {tied} tie on {best} VP; {colour_name(state, leaders[0])} laid the most "
                    f"rails ({most})."
                )
            else:
                tie_note = (
                    f" {tied} tie on {best} VP; "
                    f"{_join([colour_name(state, s) for s in leaders])} laid "
                    f"{_plural(most, 'rail')} each."
                )
        in_order = sorted(range(len(players)), key=lambda s: (-vp[s], -laid[s], s))
        table = ", ".join(f"{colour_name(state, s)} {vp[s]} VP" for s in in_order)
        if len(leaders) == 1:
            verdict = f"{colour_name(state, leaders[0])} wins."
        else:
            verdict = f"{_join([colour_name(state, s) for s in leaders])} share the win."
        breakdown = [
            {
                "seat": s,
                "vp": vp[s],
                "rails_laid": laid[s],
                "stations": len(players[s]["stations"]),
                "as_station": sum(1 for p in pairs if p["station"] == s),
                "as_rail": sum(1 for p in pairs if p["rail"] == s),
            }
            for s in range(len(players))
        ]
        events.append(
            {
                "type": "score",
                "seat": seat,
                "players": breakdown,
                "connections": pairs,
                "text": f"Final scoring: {table}.",
            }
        )
        return Outcome(
            winners=tuple(sorted(leaders)),
            reason=f"The last rail is laid. {table}.{tie_note} {verdict}",
            scores={s: vp[s] for s in range(len(players))},
            details={"players": breakdown, "connections": pairs, "ender": state["ender"]},
        )

    # --- view ----------------------------------------------------------------------------------
    def board_view(self, state: State, board: dict[str, Any]) -> None:
        vp, pairs = scores(state)
        for entry in board["players"]:
            entry["vp"] = vp[entry["seat"]]
        board["connections"] = pairs
        board["final"] = (
            None
            if state["ender"] is None
            else {"ender": state["ender"], "turns_left": state["final_turns"]}
        )
        board["supply"] = {"rails": RAILS, "stations": STATIONS}

    def playout_score(self, state: State, seat: int) -> float | None:
        """Her VP if the game ended now, plus a tenth of a point per rail laid (the
        tie-break)."""
        final = final_score(state, seat)
        if final is not None:
            return final
        vp, _pairs = scores(state)
        return float(vp[seat]) + 0.1 * len(state["players"][seat]["rails"])

    def player_view(self, state: State, seat: int, entry: dict[str, Any]) -> None:
        player = state["players"][seat]
        entry["point"] = list(player["point"])
        entry["rails"] = [list(r) for r in player["rails"]]
        entry["stations"] = [list(s) for s in player["stations"]]
        entry["rails_laid"] = len(player["rails"])
        entry["rails_left"] = RAILS - len(player["rails"])
        entry["stations_left"] = STATIONS - len(player["stations"])


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
