"""C64 Monsters: steal a treasure from the monsters' lairs and bring it home to your corner.

Rules: the C64 Board rulebook ("C64 Monsters") with our rulings C1-C4
(docs/rules/families/c64-board-rulings.md) and C6 (docs/rules/c64-monsters.md), walls per map M.
Every player has an adventurer (starting on her left corner), a monster and a treasure disc (both
starting on her closest centre square, its lair). A move card moves the adventurer one square in the
seat-relative direction AND then the same-colour monster one square in the opposite absolute
direction; each part is blocked separately (adventurers by walls, the edge and other adventurers;
monsters by walls, the edge and other monsters), so one may move while the other stays.

- Encounters, checked after each of the two sub-moves: an adventurer and a monster (any
  colours) in one square -> the adventurer goes back to her left corner (a carried treasure
  drops back onto its own centre square) and the monster back to its centre square. Resets
  never trigger encounters: a piece sent home may share its square with another piece until
  one of them moves.
- A monster entering a square with loose treasures goes back to its centre square and takes
  them along (they are placed on its centre square); this also happens when the same step was
  an encounter. A monster stepping onto its own centre square changes nothing this way.
- Left Button: pick up one loose treasure in the adventurer's square, only if she carries
  none. With several there she takes her own colour first, else the first in turn order.
- Right Button: only while carrying: every monster orthogonally adjacent to the adventurer
  goes back to its centre square (C1 makes "if not blocked by a wall" vacuous; the check is
  kept as a no-op in `_wall_between`), and the carried treasure returns to its start square.
- Goal: an adventurer standing on her own left corner carrying any treasure wins at once:
  when her step lands there the game ends before her monster's half of the move.

State (JSON, on top of the common C64 state described in `base.py`), per player:
- ``square``: the adventurer's square; ``monster``: the monster's square;
- ``treasure``: the square of this player's treasure disc while it lies loose, None while an
  adventurer carries it; ``carrying``: the seat whose treasure this adventurer carries, or
  None. (Exactly one of "loose" and "carried by someone" holds for every treasure.)
Top level: ``walls``, the wall squares of map M (they never move in this game).

View: the common C64 view (docs/c64-view.md) with ``walls`` and, per player, ``square``,
``monster``, ``treasure``, ``carrying``, ``corner`` (home = goal) and ``centre``.
Events besides the common ones: ``move`` / ``blocked`` with ``piece`` "adventurer" or
"monster" and ``owner``; ``encounter`` (``resets``: every piece sent home, in order, as
{"piece", "owner", "from", "to"}); ``loot`` (a monster takes treasures home); ``pickup``;
``use_treasure`` (``resets`` as above). Chance: yes (the shuffled joystick grids and the
first-player draw at set-up). Hidden information: none.
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
    CENTRE,
    DIRECTION_NAMES,
    DIRECTIONS,
    LEFT_CORNER,
    OPPOSITE,
    SIDES,
    STEP,
)

MAP = "M"

Player = dict[str, Any]


def _start_walls() -> tuple[str, ...]:
    picture = load_map(MAP)
    corners = {sq for sq, symbol in picture.items() if symbol == "A"}
    centres = {sq for sq, symbol in picture.items() if symbol == "M"}
    if corners != {LEFT_CORNER[side] for side in SIDES}:
        raise ValueError(f"map {MAP} must mark exactly the four left corners with 'A'")
    if centres != {CENTRE[side] for side in SIDES}:
        raise ValueError(f"map {MAP} must mark exactly the four centre squares with 'M'")
    return squares_with(MAP, "#")


START_WALLS = _start_walls()


def _wall_between(a: str, b: str) -> bool:
    """Whether a wall stands between two orthogonally adjacent squares. Ruling C1 puts walls
    inside squares, so nothing ever stands between two neighbours and this is always False;
    it is the Right Button's "(if not blocked by a wall)", kept so that an edge-wall variant
    can switch it on in one place."""
    return False


def _owner_text(state: State, owner: int, mover: int, piece: str) -> str:
    """ "Red's monster", or "her monster" when it is the mover's own."""
    if owner == mover:
        return f"her {piece}"
    return f"{colour_name(state, owner)}'s {piece}"


WORDING_KEY = "wording"
"""In the state of a match of rules version 2, whose log names the monsters' squares as the
board does ("lair"); a match begun under version 1 keeps the words it was played with."""


@register
class Monsters(C64Game):
    id = "c64-monsters"
    title = "C64 Monsters"
    min_players = 2
    max_players = 4
    rules_version = "2"  # 2: the log says "lair", the board's word, where 1 said "fort"
    older_rules_versions = frozenset({"1"})
    has_chance = True
    hidden_information = False
    game_key = "monsters"
    goal = "The first player to return to her corner with any treasure wins."
    # Measured: uniformly random play needs 0.5 to over 2 million moves to bring a treasure
    # home; guided by playout_score two players finish in a few thousand, four often never.
    playouts_always_end = False

    def setup_board(self, state: State, options: BaseModel, rng: Dice) -> None:
        for player in state["players"]:
            side = player["side"]
            player["square"] = LEFT_CORNER[side]
            player["monster"] = CENTRE[side]
            player["treasure"] = CENTRE[side]
            player["carrying"] = None
        state["walls"] = list(START_WALLS)
        state[WORDING_KEY] = "lair"

    def keep_older_rules(self, state: State, rules_version: str) -> State:
        if rules_version == "1":  # its log read "sent back to the fort", word for word
            del state[WORDING_KEY]
        return state

    # --- a move card: adventurer, then monster (C6) --------------------------------------------
    def move_piece(self, state: State, seat: int, direction: str, events: list[Event]) -> None:
        players = state["players"]
        me = players[seat]
        walls = state["walls"]
        name = colour_name(state, seat)

        # The adventurer: blocked by walls, the edge and other adventurers.
        here = me["square"]
        target = STEP[here][direction]
        why = self._blocker(players, walls, target, "square")
        if why is None:
            assert target is not None
            me["square"] = target
            events.append(
                {
                    "type": "move",
                    "seat": seat,
                    "piece": "adventurer",
                    "owner": seat,
                    "from": here,
                    "to": target,
                    "text": f"{name} moves {DIRECTION_NAMES[direction]} to {target}.",
                }
            )
            met = [p["seat"] for p in players if p["monster"] == target]
            if met:
                self._encounter(state, seat, target, [seat], met, events)
            elif _has_won(me):
                return  # "wins immediately": the game ends before her monster moves
        else:
            events.append(
                self._blocked_event(state, seat, seat, "adventurer", why, direction, here, target)
            )

        # The same-colour monster, the opposite way: blocked by walls, the edge, other monsters.
        back = OPPOSITE[direction]
        here = me["monster"]
        target = STEP[here][back]
        why = self._blocker(players, walls, target, "monster")
        if why is not None:
            events.append(
                self._blocked_event(state, seat, seat, "monster", why, back, here, target)
            )
            return
        assert target is not None
        # Treasures lying there now (not the ones an encounter on this square drops).
        loot = [p["seat"] for p in players if p["treasure"] == target]
        me["monster"] = target
        events.append(
            {
                "type": "move",
                "seat": seat,
                "piece": "monster",
                "owner": seat,
                "from": here,
                "to": target,
                "text": f"{name}'s monster moves {DIRECTION_NAMES[back]} to {target}.",
            }
        )
        met = [p["seat"] for p in players if p["square"] == target]
        if met:
            self._encounter(state, seat, target, met, [seat], events)
        if loot:
            self._loot(state, seat, target, loot, events)

    # --- buttons (C6) ----------------------------------------------------------------------
    def press_button(self, state: State, seat: int, button: str, events: list[Event]) -> None:
        if button == "left_button":
            self._pick_up(state, seat, events)
        else:
            self._use_treasure(state, seat, events)

    def _pick_up(self, state: State, seat: int, events: list[Event]) -> None:
        players = state["players"]
        me = players[seat]
        name = colour_name(state, seat)
        here = me["square"]
        if me["carrying"] is not None:
            carried = colour_name(state, me["carrying"])
            events.append(
                {
                    "type": "blocked",
                    "seat": seat,
                    "action": "pickup",
                    "why": "carrying",
                    "text": f"{name} already carries {carried}'s treasure and can carry only one.",
                }
            )
            return
        loose = [p["seat"] for p in players if p["treasure"] == here]
        if not loose:
            events.append(
                {
                    "type": "blocked",
                    "seat": seat,
                    "action": "pickup",
                    "why": "no_treasure",
                    "text": f"{name} finds no treasure to pick up on {here}.",
                }
            )
            return
        # Any one treasure will do for the goal: her own colour first, else turn order.
        order = state["order"]
        owner = seat if seat in loose else min(loose, key=order.index)
        players[owner]["treasure"] = None
        me["carrying"] = owner
        events.append(
            {
                "type": "pickup",
                "seat": seat,
                "treasure": owner,
                "square": here,
                "text": f"{name} picks up {_owner_text(state, owner, seat, 'treasure')} on {here}.",
            }
        )

    def _use_treasure(self, state: State, seat: int, events: list[Event]) -> None:
        players = state["players"]
        me = players[seat]
        name = colour_name(state, seat)
        here = me["square"]
        owner = me["carrying"]
        if owner is None:
            events.append(
                {
                    "type": "blocked",
                    "seat": seat,
                    "action": "use_treasure",
                    "why": "not_carrying",
                    "text": f"{name} carries no treasure to use.",
                }
            )
            return
        resets: list[dict[str, Any]] = []
        for direction in DIRECTIONS:
            near = STEP[here][direction]
            if near is None or _wall_between(here, near):
                continue
            for p in players:
                if p["monster"] == near:
                    _send_monster_home(p, resets)
        start = CENTRE[players[owner]["side"]]
        players[owner]["treasure"] = start
        me["carrying"] = None
        resets.append({"piece": "treasure", "owner": owner, "from": here, "to": start})
        gone = [r["owner"] for r in resets if r["piece"] == "monster"]
        if gone:
            whose = ", ".join(_owner_text(state, o, seat, "monster") for o in gone)
            # "lair": the word the board shows on the centre squares.
            lairs = "its lair" if len(gone) == 1 else "their lairs"
            if WORDING_KEY not in state:
                lairs = "the fort"
            what = f"{whose} {'is' if len(gone) == 1 else 'are'} sent back to {lairs}"
        else:
            what = "no monster was next to her"
        text = (
            f"{name} uses {_owner_text(state, owner, seat, 'treasure')}: {what}. "
            f"The treasure goes back to {start}."
        )
        events.append(
            {
                "type": "use_treasure",
                "seat": seat,
                "treasure": owner,
                "square": here,
                "resets": resets,
                "text": text,
            }
        )

    # --- encounters and loot ---------------------------------------------------------------
    def _encounter(
        self,
        state: State,
        seat: int,
        square: str,
        adventurers: list[int],
        monsters: list[int],
        events: list[Event],
    ) -> None:
        """Adventurers and monsters met on `square`: all of them go home (resets trigger
        nothing); carried treasures drop back onto their own start squares."""
        players = state["players"]
        resets: list[dict[str, Any]] = []
        for a in adventurers:
            _send_adventurer_home(players, players[a], resets)
        for m in monsters:
            _send_monster_home(players[m], resets)
        who = " and ".join(colour_name(state, a) for a in adventurers)
        beasts = " and ".join(f"{colour_name(state, m)}'s monster" for m in monsters)
        text = f"{who} and {beasts} meet on {square}! " + " ".join(
            _reset_text(state, r) for r in resets
        )
        events.append(
            {
                "type": "encounter",
                "seat": seat,
                "square": square,
                "adventurers": list(adventurers),
                "monsters": list(monsters),
                "resets": resets,
                "text": text,
            }
        )

    def _loot(
        self, state: State, seat: int, square: str, loot: list[int], events: list[Event]
    ) -> None:
        """The mover's monster entered `square` with loose treasures: it goes back to its
        centre square with them. On its own centre square that changes nothing."""
        players = state["players"]
        me = players[seat]
        home = CENTRE[me["side"]]
        if square == home:
            return
        resets: list[dict[str, Any]] = []
        if me["monster"] != home:  # an encounter on this square may have sent it home already
            _send_monster_home(me, resets)
        for owner in loot:
            players[owner]["treasure"] = home
            resets.append({"piece": "treasure", "owner": owner, "from": square, "to": home})
        names = " and ".join(f"{colour_name(state, o)}'s" for o in loot)
        plural = "treasure" if len(loot) == 1 else "treasures"
        events.append(
            {
                "type": "loot",
                "seat": seat,
                "owner": seat,
                "square": square,
                "treasures": list(loot),
                "resets": resets,
                "text": f"{colour_name(state, seat)}'s monster grabs {names} {plural} on "
                f"{square} and takes {'it' if len(loot) == 1 else 'them'} home to {home}.",
            }
        )

    # --- end, view -------------------------------------------------------------------------
    def after_turn(self, state: State, seat: int, events: list[Event]) -> Outcome | None:
        players = state["players"]
        order = state["order"]
        start = order.index(seat)
        for s in order[start:] + order[:start]:
            player = players[s]
            if _has_won(player):
                name = colour_name(state, s)
                treasure = player["carrying"]
                whose = "her own" if treasure == s else f"{colour_name(state, treasure)}'s"
                return Outcome(
                    winners=(s,),
                    reason=f"{name} brings {whose} treasure home to {player['square']} and wins.",
                    details={"square": player["square"], "treasure": treasure},
                )
        return None

    def board_view(self, state: State, board: dict[str, Any]) -> None:
        board["walls"] = list(state["walls"])

    def playout_score(self, state: State, seat: int) -> float | None:
        """Uniformly random play needs millions of moves to bring a treasure home (a carried
        treasure lasts about ten moves), so playouts and bots lean on this: a treasure in
        hand is worth much, then being few steps (around walls) from the next target."""
        player = state["players"][seat]
        if player["carrying"] is not None:
            goal = {LEFT_CORNER[player["side"]]}
            # A Right Button card in hand will have to be played sooner or later and
            # throws the treasure away: keep such cards out of the hand while carrying.
            active = state["joysticks"][seat]["active"]
            bonus = 100.0 - 40.0 * sum(a["face"] == "right_button" for a in active)
        else:
            goal = {p["treasure"] for p in state["players"] if p["treasure"] is not None}
            bonus = 0.0
        return bonus - _walking_distance(player["square"], goal, frozenset(state["walls"]))

    def player_view(self, state: State, seat: int, entry: dict[str, Any]) -> None:
        player = state["players"][seat]
        entry["square"] = player["square"]
        entry["monster"] = player["monster"]
        entry["treasure"] = player["treasure"]
        entry["carrying"] = player["carrying"]
        entry["corner"] = LEFT_CORNER[player["side"]]
        entry["centre"] = CENTRE[player["side"]]

    # --- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _blocker(
        players: list[Player], walls: list[str], square: str | None, key: str
    ) -> str | None:
        """Why a piece of type `key` ("square" = adventurer, "monster") may not enter
        `square`: "edge", "wall", "adventurer", "monster", or None if it may."""
        if square is None:
            return "edge"
        if square in walls:
            return "wall"
        for p in players:
            if p[key] == square:
                return "adventurer" if key == "square" else "monster"
        return None

    @staticmethod
    def _blocked_event(
        state: State,
        seat: int,
        owner: int,
        piece: str,
        why: str,
        direction: str,
        here: str,
        target: str | None,
    ) -> Event:
        name = colour_name(state, owner)
        who = name if piece == "adventurer" else f"{name}'s monster"
        if why == "edge":
            reason = "the edge of the board is in the way"
        elif why == "wall":
            reason = f"{target} is a wall"
        else:
            key = "square" if why == "adventurer" else "monster"
            other = next(p["seat"] for p in state["players"] if p[key] == target)
            reason = f"{colour_name(state, other)}'s {why} is on {target}"
        return {
            "type": "blocked",
            "seat": seat,
            "action": "move",
            "piece": piece,
            "owner": owner,
            "why": why,
            "direction": direction,
            "from": here,
            "to": target,
            "text": f"{who} cannot move {DIRECTION_NAMES[direction]} from {here}: {reason}.",
        }


def _walking_distance(start: str, goals: set[str], walls: frozenset[str]) -> float:
    """Steps from `start` to the nearest goal square around walls (breadth first)."""
    if start in goals:
        return 0.0
    seen, frontier, steps = {start}, [start], 0
    while frontier:
        steps += 1
        following = []
        for square in frontier:
            for direction in DIRECTIONS:
                nxt = STEP[square][direction]
                if nxt is None or nxt in seen or nxt in walls:
                    continue
                if nxt in goals:
                    return float(steps)
                seen.add(nxt)
                following.append(nxt)
        frontier = following
    return 64.0


def _has_won(player: Player) -> bool:
    return player["carrying"] is not None and player["square"] == LEFT_CORNER[player["side"]]


def _send_adventurer_home(
    players: list[Player], player: Player, resets: list[dict[str, Any]]
) -> None:
    home = LEFT_CORNER[player["side"]]
    here = player["square"]
    resets.append({"piece": "adventurer", "owner": player["seat"], "from": here, "to": home})
    player["square"] = home
    owner = player["carrying"]
    if owner is not None:
        start = CENTRE[players[owner]["side"]]
        players[owner]["treasure"] = start
        player["carrying"] = None
        resets.append({"piece": "treasure", "owner": owner, "from": here, "to": start})


def _send_monster_home(player: Player, resets: list[dict[str, Any]]) -> None:
    home = CENTRE[player["side"]]
    resets.append(
        {"piece": "monster", "owner": player["seat"], "from": player["monster"], "to": home}
    )
    player["monster"] = home


def _reset_text(state: State, reset: dict[str, Any]) -> str:
    name = colour_name(state, reset["owner"])
    if reset["piece"] == "adventurer":
        return f"{name} goes back to {reset['to']}."
    if reset["piece"] == "monster":
        return f"{name}'s monster goes back to {reset['to']}."
    return f"{name}'s treasure drops back to {reset['to']}."
