"""C64 Tanks: shoot every other tank once, with bullets that bounce off turning mirror walls.

Rules: the C64 Board rulebook ("C64 Tanks") with our rulings C1-C4
(docs/rules/families/c64-board-rulings.md), C5 (docs/rules/c64-tanks.md) and map T (maps/T.txt).
Each player drives a tank with her joystick cards: a move card steps one square in the seat-relative
direction unless a wall, another tank or the edge is in the way (the card is spent either way). Left
Button fires a bullet in the tank's latest direction; it travels square by square, every mirror wall
it enters deflects it by 90 degrees and then turns (``/`` <-> ``\\``), until it enters a tank's
square (that tank is hit, even the shooter's own) or leaves the board. Right Button fires a missile
that lands exactly 3 squares away over everything; on a square without a wall it hits every tank on
that square and on its 4 orthogonal neighbours. A hit player loses the action of her next card (hits
do not stack). Every opponent a player hits gives her that opponent's disc; the first player holding
a disc of every other player wins at once.

Ruling C5 in detail, as implemented here:
- Mirror table: ``/`` turns N->E, E->N, S->W, W->S; ``\\`` turns N->W, W->N, S->E, E->S.
- The bullet starts in the shooter's square. Each step enters the next square: off the board
  the bullet is gone ("exit"); a tank there is hit and the bullet stops ("tank"; the shooter
  herself when it comes back: a self-hit costs her next action and gives no disc); a wall
  there deflects it, turns, and the bullet goes on from that square.
- Loop guard: a bullet still flying after entering its 200th square fizzles; so does one that
  reaches an exact state (square, direction, every wall's tilt) it was already in, the start
  included. Walls turned on the way stay turned. (Bullet, walls and turning are reversible,
  so on a real board a bullet can only come back to its start state through the shooter's
  square, which is a self-hit first: in play the 200-step cap is the guard that matters. On
  map T's 12 mirrors the longest flight, over all 4096 tilt settings, is 29 squares; the cap
  only bites on crowded boards, see the tests.)
- Missile: the landing square is 3 squares away in the latest direction; off the board or on
  a wall square nothing happens (the wall is not affected).
- Discs: ``discs`` is the set of opponents a player has hit. A shot that completes it wins
  immediately (only the shooter's set can grow in a turn, so there is never a tie).

State (JSON, on top of the common C64 state described in `base.py`):
- ``players[seat]["square"]``: the tank's square; ``["latest"]``: its latest direction (C4.6),
  where the gun points; ``["hit"]``: True while the player's next card will do nothing;
  ``["discs"]``: sorted seats of the opponents she has hit.
- ``walls``: ``{square: "/" | "\\\\"}``, the mirror walls (C1: a wall fills its square).
  Start: map T (maps/T.txt), tanks on the left corners facing seat-Up.

View: the common C64 view (docs/c64-view.md) where ``walls`` is a list sorted by square,
``[{"square": "b4", "tilt": "\\\\"}, ...]``, and each player entry adds ``square``, ``hit``
(bool: skips her next action) and ``discs`` (sorted seats she has hit).

Events (beside the common ones), each with a readable ``text``:
- ``move`` {from, to}; ``blocked`` {action: "move", why: "edge"|"wall"|"tank", direction,
  from, to}.
- ``bullet`` {seat, from, direction, path, flips, end, heading, hits, fizzle}: ``path`` is
  every square the bullet entered, in order (not ``from``); ``flips`` lists each wall turn in
  order as {square, step, from, to, in, out} where ``step`` indexes ``path``, ``from``/``to``
  are the tilts and ``in``/``out`` the bullet's directions; ``end`` is "tank", "exit" or
  "fizzle"; ``heading`` is the direction of travel at the end (where an exiting bullet
  leaves); ``hits`` the seats hit (0 or 1); ``fizzle`` is "steps", "loop" or null.
- ``missile`` {seat, from, direction, landing, result, area, hits}: ``landing`` is the
  square or null off the board; ``result`` "blast", "wall" or "edge"; ``area`` the landing
  square and its neighbours on the board (empty unless "blast"); ``hits`` the seats hit.
- ``hit`` {seat (the tank hit), by, weapon, square, self, again, disc}: ``self`` for a
  self-hit, ``again`` when she was already due to skip (hits do not stack), ``disc`` when
  the shooter gains a new disc.
- ``skip`` {seat, face}: a hit player's card does nothing.

Chance: yes (the shuffled joystick grids and the first-player draw at set-up); the shots
themselves are deterministic. Hidden information: none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from pydantic import BaseModel

from app.engine.contract import Event, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.c64.base import C64Game, colour_name
from app.games.c64.boardmap import load_map
from app.games.c64.geometry import (
    COLOR,
    DIRECTION_NAMES,
    FACE_NAMES,
    LEFT_CORNER,
    SIDES,
    STEP,
)
from app.games.c64.guidance import final_score

MAP = "T"
MIRROR: Final = {
    "/": {"N": "E", "E": "N", "S": "W", "W": "S"},
    "\\": {"N": "W", "W": "N", "S": "E", "E": "S"},
}
"""MIRROR[tilt][direction in] -> direction out (ruling C5)."""
TURNED: Final = {"/": "\\", "\\": "/"}
MAX_BULLET_STEPS: Final = 200
MISSILE_RANGE: Final = 3


def _start_walls() -> dict[str, str]:
    picture = load_map(MAP)
    walls = {sq: sym for sq, sym in sorted(picture.items()) if sym in TURNED}
    starts = {sq for sq, sym in picture.items() if sym == "T"}
    if starts != {LEFT_CORNER[side] for side in SIDES}:
        raise ValueError(f"map {MAP} must mark exactly the four corners with 'T'")
    if set(picture.values()) - {".", "T", "/", "\\"}:
        raise ValueError(f"map {MAP} may only hold '.', 'T' and the mirrors '/' and '\\'")
    return walls


START_WALLS: Final = _start_walls()


class Flight(NamedTuple):
    """A bullet's whole flight (ruling C5), computed without touching the walls it is given."""

    path: list[str]
    """Every square the bullet entered, in order (the start square is not included)."""
    flips: list[dict[str, Any]]
    """Each wall turn in order: {square, step (index in path), from, to (tilts), in, out}."""
    walls: dict[str, str]
    """The walls afterwards: the same object as the input when no wall turned."""
    end: str
    """"tank" (the last square of path holds a tank), "exit" or "fizzle"."""
    heading: str
    """The direction of travel at the end."""
    fizzle: str | None
    """"steps" (200 squares) or "loop" (an exact state came back); None otherwise."""


def trace_bullet(
    start: str,
    direction: str,
    walls: Mapping[str, str],
    tanks: Mapping[str, int] | frozenset[str] | set[str],
    max_steps: int = MAX_BULLET_STEPS,
) -> Flight:
    """Fly a bullet from `start` (not itself checked) in `direction` over `walls` and `tanks`
    (squares holding a tank). Pure: `walls` is never changed; the result holds new walls."""
    path: list[str] = []
    flips: list[dict[str, Any]] = []
    new_walls: dict[str, str] | None = None
    current: Mapping[str, str] = walls
    # The walls' tilts as bits of one integer, so an exact state is a small hashable key.
    bit = {sq: 1 << i for i, sq in enumerate(walls)}
    mask = 0
    square, heading = start, direction
    seen = {(square, heading, mask)}
    while True:
        if len(path) >= max_steps:
            return Flight(path, flips, dict(current), "fizzle", heading, "steps")
        nxt = STEP[square][heading]
        if nxt is None:
            return Flight(path, flips, dict(current), "exit", heading, None)
        square = nxt
        path.append(square)
        if square in tanks:
            return Flight(path, flips, dict(current), "tank", heading, None)
        tilt = current.get(square)
        if tilt is not None:
            out = MIRROR[tilt][heading]
            if new_walls is None:
                new_walls = dict(walls)
                current = new_walls
            new_walls[square] = TURNED[tilt]
            mask ^= bit[square]
            flips.append(
                {
                    "square": square,
                    "step": len(path) - 1,
                    "from": tilt,
                    "to": TURNED[tilt],
                    "in": heading,
                    "out": out,
                }
            )
            heading = out
        key = (square, heading, mask)
        if key in seen:
            return Flight(path, flips, dict(current), "fizzle", heading, "loop")
        seen.add(key)


def missile_landing(start: str, direction: str) -> str | None:
    """The square exactly 3 squares from `start` in `direction`, None off the board."""
    square: str | None = start
    for _ in range(MISSILE_RANGE):
        assert square is not None
        square = STEP[square][direction]
        if square is None:
            return None
    return square


def _tanks(state: State) -> dict[str, int]:
    return {p["square"]: p["seat"] for p in state["players"]}


def _names(state: State, seats: list[int]) -> str:
    names = [colour_name(state, s) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


@register
class Tanks(C64Game):
    id = "c64-tanks"
    title = "C64 Tanks"
    min_players = 2
    max_players = 4
    rules_version = "1"
    has_chance = True
    hidden_information = False
    game_key = "tanks"
    goal = "The first to have hit each other player at least once wins."

    # --- hooks --------------------------------------------------------------------------------
    def setup_board(self, state: State, options: BaseModel, rng: Dice) -> None:
        for player in state["players"]:
            player["square"] = LEFT_CORNER[player["side"]]
            player["hit"] = False
            player["discs"] = []
        state["walls"] = dict(START_WALLS)

    def move_piece(self, state: State, seat: int, direction: str, events: list[Event]) -> None:
        me = state["players"][seat]
        here = me["square"]
        target = STEP[here][direction]
        name = colour_name(state, seat)
        way = DIRECTION_NAMES[direction]
        if target is None:
            why, reason = "edge", "the edge of the board is in the way"
        elif target in state["walls"]:
            why, reason = "wall", f"{target} is a wall"
        else:
            occupant = _tanks(state).get(target)
            if occupant is None:
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
            why, reason = "tank", f"{colour_name(state, occupant)}'s tank is on {target}"
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
            self._fire_bullet(state, seat, events)
        else:
            self._fire_missile(state, seat, events)

    def skip_action(self, state: State, seat: int, events: list[Event]) -> bool:
        """C5/C4.7: a hit player's next card is placed but does nothing; then she is fine."""
        me = state["players"][seat]
        if not me["hit"]:
            return False
        me["hit"] = False
        face = events[0]["face"] if events and events[0].get("type") == "play" else None
        card = f"her {FACE_NAMES[face]} card" if face else "her card"
        events.append(
            {
                "type": "skip",
                "seat": seat,
                "face": face,
                "text": f"{colour_name(state, seat)} is still shaken from the hit: "
                f"{card} does nothing.",
            }
        )
        return True

    def after_turn(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        # Only the mover's shots hit anyone, so only her set of discs can have grown.
        me = state["players"][seat]
        others = len(state["players"]) - 1
        if len(me["discs"]) < others:
            return None
        name = colour_name(state, seat)
        victims = _names(state, me["discs"])
        every = "the other tank" if others == 1 else "every other tank"
        return Outcome(
            winners=(seat,),
            reason=f"{name} has hit {every} ({victims}) and wins.",
            details={"discs": list(me["discs"])},
        )

    def board_view(self, state: State, board: dict[str, Any]) -> None:
        board["walls"] = [{"square": sq, "tilt": t} for sq, t in sorted(state["walls"].items())]

    def playout_score(self, state: State, seat: int) -> float | None:
        """10 per disc won, minus 3 while shaken by a hit, plus 2 when a bullet fired now would
        hit a tank whose disc she still needs (so playouts aim before they shoot)."""
        final = final_score(state, seat)
        if final is not None:
            return final
        me = state["players"][seat]
        score = 10.0 * len(me["discs"]) - (3.0 if me["hit"] else 0.0)
        tanks = _tanks(state)
        flight = trace_bullet(me["square"], me["latest"], state["walls"], tanks)
        if flight.end == "tank":
            target = tanks[flight.path[-1]]
            if target != seat and target not in me["discs"]:
                score += 2.0
        return score

    def player_view(self, state: State, seat: int, entry: dict[str, Any]) -> None:
        player = state["players"][seat]
        entry["square"] = player["square"]
        entry["hit"] = player["hit"]
        entry["discs"] = list(player["discs"])

    # --- shots (ruling C5) --------------------------------------------------------------------
    def _fire_bullet(self, state: State, seat: int, events: list[Event]) -> None:
        """Left Button: a bullet in the latest direction, bouncing off turning mirrors."""
        me = state["players"][seat]
        start, direction = me["square"], me["latest"]
        tanks = _tanks(state)
        flight = trace_bullet(start, direction, state["walls"], tanks)
        if flight.flips:
            state["walls"] = flight.walls
        hits = [tanks[flight.path[-1]]] if flight.end == "tank" else []
        name = colour_name(state, seat)
        text = f"{name} fires a bullet {DIRECTION_NAMES[direction]} from {start}"
        if flight.flips:
            turned = [f["square"] for f in flight.flips]
            if len(turned) == 1:
                text += f"; it bounces off the mirror at {turned[0]}, which turns,"
            else:
                shown = ", ".join(turned[:6]) + (", ..." if len(turned) > 6 else "")
                text += f"; it bounces off {len(turned)} mirrors ({shown}), which turn,"
            text += " and"
        else:
            text += "; it"
        if flight.end == "exit":
            if flight.path:
                text += f" leaves the board past {flight.path[-1]}."
            else:
                text += " flies straight off the board."
        elif flight.end == "fizzle":
            if flight.fizzle == "steps":
                text += f" fizzles out after {MAX_BULLET_STEPS} squares."
            else:
                text += " fizzles out, going round in a loop."
        elif hits[0] == seat:
            text += f" comes back to hit {name} herself on {start}."
        else:
            text += f" hits {colour_name(state, hits[0])} on {flight.path[-1]}."
        events.append(
            {
                "type": "bullet",
                "seat": seat,
                "from": start,
                "direction": direction,
                "path": flight.path,
                "flips": flight.flips,
                "end": flight.end,
                "heading": flight.heading,
                "hits": hits,
                "fizzle": flight.fizzle,
                "text": text,
            }
        )
        self._hit(state, seat, hits, "bullet", events)

    def _fire_missile(self, state: State, seat: int, events: list[Event]) -> None:
        """Right Button: lands exactly 3 squares away over everything; blasts its square and
        the 4 orthogonal neighbours unless it lands on a wall (no effect) or off the board."""
        me = state["players"][seat]
        start, direction = me["square"], me["latest"]
        landing = missile_landing(start, direction)
        name = colour_name(state, seat)
        text = f"{name} fires a missile {DIRECTION_NAMES[direction]} from {start}"
        area: list[str] = []
        hits: list[int] = []
        if landing is None:
            result = "edge"
            text += " and it flies off the board."
        elif landing in state["walls"]:
            result = "wall"
            text += f" and it lands on the wall at {landing}: nothing happens."
        else:
            result = "blast"
            area = [landing] + [sq for sq in STEP[landing].values() if sq is not None]
            tanks = _tanks(state)
            hit_squares = {tanks[sq] for sq in area if sq in tanks}
            hits = [s for s in state["order"] if s in hit_squares]
            text += f" and it lands on {landing}"
            text += f", hitting {_names(state, hits)}." if hits else ", hitting nobody."
        events.append(
            {
                "type": "missile",
                "seat": seat,
                "from": start,
                "direction": direction,
                "landing": landing,
                "result": result,
                "area": area,
                "hits": hits,
                "text": text,
            }
        )
        self._hit(state, seat, hits, "missile", events)

    @staticmethod
    def _hit(state: State, shooter: int, hits: list[int], weapon: str, events: list[Event]) -> None:
        """Mark each hit player (no stacking) and give the shooter discs of hit opponents."""
        if not hits:
            return
        players = state["players"]
        me = players[shooter]
        name = colour_name(state, shooter)
        discs = set(me["discs"])
        for victim in hits:
            target = players[victim]
            again = bool(target["hit"])
            target["hit"] = True
            victim_name = colour_name(state, victim)
            self_hit = victim == shooter
            new_disc = not self_hit and victim not in discs
            if self_hit:
                text = (
                    f"{name} is hit by her own {weapon}: she loses the action of her next "
                    "card and gets no disc for it."
                )
            else:
                text = f"{victim_name} is hit"
                text += (
                    " again, but hits do not stack: she still loses only her next action."
                    if again
                    else ": she loses the action of her next card."
                )
            if new_disc:
                discs.add(victim)
                have, need = len(discs), len(players) - 1
                text += f" {name} takes a {COLOR[target['side']]} disc ({have} of {need})."
            events.append(
                {
                    "type": "hit",
                    "seat": victim,
                    "by": shooter,
                    "weapon": weapon,
                    "square": target["square"],
                    "self": self_hit,
                    "again": again,
                    "disc": new_disc,
                    "text": text,
                }
            )
        if len(discs) != len(me["discs"]):
            me["discs"] = sorted(discs)
