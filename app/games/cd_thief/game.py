"""CD Thief: sneak into the retro-gaming Expo hotel, steal the stack of CDs, get out with them.

Rules: the CD Thief rulebook with rulings D1-D11 (docs/rules/cd-thief.md) and our content for what
the rulebook lacks: the map, item squares and Event cards are data (``data/``). Chance: 2d6
movement, the Battle dice, ITG's white die, the shuffled Event deck and the first player. Hidden
information: only the Event deck's order, which is secret to everybody; views show how many cards
are left and the last card drawn, never the order (`reveal_view` adds it for replays of finished
games).

State (JSON)::

    {"game": "cd-thief", "difficult": bool,
     "thieves": [{"colour", "pos": [x, y] | None, "backpack": [kind...], "opened": [room...],
                  "killed": [podcaster...], "lives": int | None, "out": bool}],   # by seat
     "items": {"red-key": [x, y], ..., "cds": [x, y]},   # items lying on the board
     "podcasters": {"scott": [x, y], "socal_mike": [x, y], "uk_mike": [x, y]},
     "carl": {"pos": [x, y], "dustpan": item | None}, "itg": [x, y],
     "deck": [card numbers, top first], "discard": [...], "last_card": number | None,
     "frantic": seat | None,
     "turn": {"seat", "number", "phase": "battle" | "roll" | "move" | "over",
              "dice": [a, b] | None, "targets": [[x, y]...], "battled": [podcaster...]},
     "outcome": None | {"winners": [seat...], "reason": str}}

Backpack kinds are "cds", "zapper", "key", "pass", "studson" (kept in Carl's stealing order);
board item ids are "<colour>-<kind>" and "cds".
"""

from __future__ import annotations

import copy
import random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.engine.contract import Event, Game, IllegalMove, Move, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.cd_thief.battles import LIVES, activate_carl, battle_podcaster
from app.games.cd_thief.board import (
    BESIDE_THE_OLD_ENTRANCE,
    CARDS,
    CARL_HOME,
    CDS_HOME,
    COLOURS,
    EXIT,
    HEIGHT,
    ITEM_KINDS,
    ITG_HOME,
    LANDMARK_NAMES,
    PODCASTER_HOMES,
    PODCASTER_NAMES,
    PODCASTERS,
    ROOM_NAMES,
    RULINGS_KEY,
    TERRAIN,
    WALL,
    WIDTH,
    Square,
    as_list,
    is_exit,
    item_home,
    item_id,
    item_text,
    orthogonal_neighbours,
    place_name,
    sq,
    terrain,
    thief_start,
    under_d11,
)
from app.games.cd_thief.frantic import itg_turn, steal_cds
from app.games.cd_thief.movement import Walker, doors_opened, has_access
from app.games.cd_thief.moves import CdThiefMove
from app.games.cd_thief.pieces import adjacent_podcasters, item_at, set_backpack, update_thief
from app.games.cd_thief.podcasters import resolve_effect


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    difficult: bool = Field(
        default=False,
        description=(
            "Difficult mode: each thief has 5 lives; caught with none left, she is out of the "
            "Expo for good, and if every thief is out nobody wins."
        ),
    )


def colour_name(state: State, seat: int) -> str:
    return str(state["thieves"][seat]["colour"]).capitalize()


def card_text(card: dict[str, Any]) -> str:
    """An Event card's instructions in words."""
    parts = []
    for effect in card["effects"]:
        who = PODCASTER_NAMES[effect["who"]]
        kind = effect["kind"]
        if kind == "chase":
            parts.append(f"{who} moves up to {effect['steps']} toward the closest thief")
        elif kind == "hunt":
            parts.append(f"{who} moves up to {effect['steps']} toward the thief who drew this")
        elif kind == "patrol":
            place = LANDMARK_NAMES[effect["place"]]
            parts.append(f"{who} moves up to {effect['steps']} toward {place}")
        elif kind == "home":
            parts.append(f"{who} goes back to his starting square")
        elif kind == "swap":
            parts.append(f"{who} and {PODCASTER_NAMES[effect['with']]} swap places")
    text = "; ".join(parts) + "." if parts else "Nobody moves."
    if card["carl"]:
        text += " Carl the Janitor is activated."
    return text


def card_view(number: int) -> dict[str, Any]:
    card = CARDS[number]
    return {
        "number": number,
        "title": card["title"],
        "carl": card["carl"],
        "text": card_text(card),
    }


MAP_ROWS = tuple("".join(TERRAIN[(x, y)] for x in range(WIDTH)) for y in range(HEIGHT))
MAP_ROWS_BEFORE_D11 = tuple(
    "".join(WALL if (x, y) in BESIDE_THE_OLD_ENTRANCE else TERRAIN[(x, y)] for x in range(WIDTH))
    for y in range(HEIGHT)
)


@register
class CdThief(Game):
    id = "cd-thief"
    title = "CD Thief"
    min_players = 2
    max_players = 4
    rules_version = "2"  # 2: ruling D11 (three-square entrance, nobody blocks outside)
    older_rules_versions = frozenset({"1"})
    has_chance = True
    hidden_information = False  # the deck order is secret to everybody, not to one seat
    goal = "Be the first CD Thief to make it outside the building with the stack of stolen CDs."
    Options = Options
    MoveType = CdThiefMove

    # --- set-up -------------------------------------------------------------------------------
    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"CD Thief is for 2-4 players, not {players}")
        assert isinstance(options, Options)
        first = rng.below(players)  # D10: the rulebook's "most recent listener" is random
        colours = COLOURS[:players]
        items: dict[str, list[int]] = {}
        for colour in colours:  # unused colours' items are removed (rulebook Setup)
            for kind in ITEM_KINDS:
                items[item_id(colour, kind)] = as_list(item_home(item_id(colour, kind)))
        items["cds"] = as_list(CDS_HOME)
        state: State = {
            "game": self.id,
            "difficult": options.difficult,
            "thieves": [
                {
                    "colour": colour,
                    "pos": as_list(thief_start(colour)),
                    "backpack": [],
                    "opened": [],
                    "killed": [],
                    "lives": LIVES if options.difficult else None,
                    "out": False,
                }
                for colour in colours
            ],
            "items": items,
            "podcasters": {name: as_list(PODCASTER_HOMES[name]) for name in PODCASTERS},
            "carl": {"pos": as_list(CARL_HOME), "dustpan": None},
            "itg": as_list(ITG_HOME),
            "deck": rng.shuffled(sorted(CARDS)),
            "discard": [],
            "last_card": None,
            "frantic": None,
            "turn": {},
            "outcome": None,
            RULINGS_KEY: "2026-11-24",
        }
        self._start_turn(state, first, 1)
        return state

    def keep_older_rules(self, state: State, rules_version: str) -> State:
        if rules_version == "1":
            del state[RULINGS_KEY]
        return state

    # --- turn machinery -----------------------------------------------------------------------
    def _start_turn(self, state: State, seat: int, number: int) -> None:
        state["turn"] = {
            "seat": seat,
            "number": number,
            "phase": "roll",
            "dice": None,
            "targets": [],
            "battled": [],
        }
        self._set_phase(state)

    def _pending_battles(self, state: State) -> list[str]:
        turn = state["turn"]
        return [p for p in adjacent_podcasters(state, turn["seat"]) if p not in turn["battled"]]

    def _set_phase(self, state: State) -> None:
        """Encounters first (rulebook Player Turn, D5), then the roll."""
        turn = state["turn"]
        turn["phase"] = "battle" if self._pending_battles(state) else "roll"

    def _next_turn(self, state: State, events: list[Event]) -> None:
        players = len(state["thieves"])
        seat = state["turn"]["seat"]
        for offset in range(1, players + 1):
            candidate = (seat + offset) % players
            if not state["thieves"][candidate]["out"]:
                self._start_turn(state, candidate, state["turn"]["number"] + 1)
                events.append(
                    {
                        "type": "turn",
                        "seat": candidate,
                        "text": f"{colour_name(state, candidate)}'s turn.",
                    }
                )
                return
        self._finish(
            state,
            [],
            "Every CD Thief is out of lives: nobody wins (other than "
            "truth and justice, of course).",
            events,
        )

    def _finish(self, state: State, winners: list[int], reason: str, events: list[Event]) -> None:
        state["outcome"] = {"winners": winners, "reason": reason}
        state["turn"] = {**state["turn"], "phase": "over", "targets": []}
        events.append({"type": "game_over", "winners": winners, "text": reason})

    def _name(self, state: State) -> Any:
        return lambda seat: colour_name(state, seat)

    # --- the contract -------------------------------------------------------------------------
    def active_seats(self, state: State) -> frozenset[int]:
        if state["outcome"] is not None:
            return frozenset()
        return frozenset((state["turn"]["seat"],))

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["outcome"] is not None or seat != state["turn"]["seat"]:
            return []
        phase = state["turn"]["phase"]
        if phase == "battle":
            return [{"type": "battle"}]
        if phase == "roll":
            return [{"type": "roll"}]
        if phase == "move":
            return [{"type": "move", "to": list(t)} for t in state["turn"]["targets"]]
        return []

    def apply(self, state: State, seat: int, move: Move, rng: Dice) -> tuple[State, list[Event]]:
        if state["outcome"] is not None:
            raise IllegalMove("The game is over.")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalMove("There is no such seat at this table.")
        if seat != state["turn"]["seat"]:
            raise IllegalMove(
                f"It is not your turn: {colour_name(state, state['turn']['seat'])} plays now."
            )
        legal = self.legal_moves(state, seat)
        if move not in legal:
            raise IllegalMove(self._refusal(state, move))
        state = copy.deepcopy(state)
        events: list[Event] = []
        kind = move["type"]
        if kind == "battle":
            self._battle(state, seat, rng, events)
        elif kind == "roll":
            self._roll(state, seat, rng, events)
        else:
            self._move(state, seat, sq(move["to"]), rng, events)
        return state, events

    def _refusal(self, state: State, move: Move) -> str:
        phase = state["turn"]["phase"]
        if phase == "battle":
            return "A podcaster is next to you: you must battle him before you roll."
        if phase == "roll":
            if isinstance(move, dict) and move.get("type") == "battle":
                return "No podcaster is next to you: there is nobody to battle. Roll the dice."
            return "Roll the movement dice first."
        if isinstance(move, dict) and move.get("type") == "move":
            return "You cannot end your move on that square with this roll."
        return "You have rolled: choose one of the highlighted squares."

    # --- the three steps of a turn ------------------------------------------------------------
    def _battle(self, state: State, seat: int, rng: Dice, events: list[Event]) -> None:
        podcaster = self._pending_battles(state)[0]
        state["turn"]["battled"].append(podcaster)
        caught = battle_podcaster(state, seat, podcaster, rng, self._name(state), events)
        if state["thieves"][seat]["out"]:
            self._next_turn(state, events)
            return
        if caught:  # D5: she carries on from the Hotel Exit; no more battles this turn
            state["turn"]["phase"] = "roll"
            return
        self._set_phase(state)

    def _roll(self, state: State, seat: int, rng: Dice, events: list[Event]) -> None:
        dice = [rng.roll(6), rng.roll(6)]
        total = sum(dice)
        targets = Walker(state, seat).targets(total)
        state["turn"].update(phase="move", dice=dice, targets=[as_list(t) for t in targets])
        events.append(
            {
                "type": "roll",
                "seat": seat,
                "dice": dice,
                "total": total,
                "text": f"{colour_name(state, seat)} rolls {dice[0]} and {dice[1]}: {total} steps.",
            }
        )

    def _move(
        self, state: State, seat: int, target: Square, rng: Dice, events: list[Event]
    ) -> None:
        name = colour_name(state, seat)
        walker = Walker(state, seat)
        path = walker.path(target, sum(state["turn"]["dice"]))
        for room in doors_opened(state, seat, path):
            update_thief(state, seat, opened=[*state["thieves"][seat]["opened"], room])
            events.append(
                {
                    "type": "door",
                    "seat": seat,
                    "room": room,
                    "text": f"{name} opens the door of {ROOM_NAMES[room]} for good.",
                }
            )
        update_thief(state, seat, pos=as_list(target))
        steps = len(path) - 1
        place = place_name(target)
        events.append(
            {
                "type": "move",
                "seat": seat,
                "path": [as_list(s) for s in path],
                "text": f"{name} moves {steps} step{'s' if steps != 1 else ''}"
                f"{f' to {place}' if place else ''}.",
            }
        )
        state["turn"]["targets"] = []
        if state["frantic"] == seat and is_exit(target):  # D9.4
            self._finish(
                state,
                [seat],
                f"{name} escapes from the hotel with the stack of CDs and wins!",
                events,
            )
            return
        item = item_at(state).get(target)
        if item == "cds":  # D3/D9.1: landing with the Studson steals them; the turn ends
            steal_cds(state, seat, self._name(state), events)
            self._start_turn(state, seat, state["turn"]["number"] + 1)
            return
        if item is not None:  # her own item (D3): into the backpack, no step cost
            state["items"] = {k: v for k, v in state["items"].items() if k != item}
            kind = item.split("-")[1]
            set_backpack(state, seat, [*state["thieves"][seat]["backpack"], kind])
            events.append(
                {
                    "type": "pickup",
                    "seat": seat,
                    "item": item,
                    "text": f"{name} picks up {item_text(item)}.",
                }
            )
        if state["frantic"] == seat:
            itg_turn(state, seat, rng, self._name(state), events)
        elif state["frantic"] is None:
            self._draw_event(state, seat, rng, events)
        if state["outcome"] is None:
            self._next_turn(state, events)

    def _draw_event(self, state: State, seat: int, rng: Dice, events: list[Event]) -> None:
        """Rulebook "Event Deck": podcasters first, then Carl; D10: reshuffle when empty."""
        if not state["deck"]:
            state["deck"] = rng.shuffled(state["discard"])
            state["discard"] = []
            events.append(
                {
                    "type": "reshuffle",
                    "text": "The Event deck is empty: the discards are shuffled into a new deck.",
                }
            )
        number = state["deck"].pop(0)
        state["discard"].append(number)
        state["last_card"] = number
        card = CARDS[number]
        events.append(
            {
                "type": "card",
                "seat": seat,
                "card": card_view(number),
                "text": f'{colour_name(state, seat)} draws "{card["title"]}": {card_text(card)}',
            }
        )
        for effect in card["effects"]:
            events.extend(resolve_effect(state, effect, seat, self._name(state)))
        if card["carl"]:
            activate_carl(state, seat, rng, self._name(state), events)

    # --- what players see ---------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        turn = state["turn"]
        return {
            "map": list(MAP_ROWS if under_d11(state) else MAP_ROWS_BEFORE_D11),
            "difficult": state["difficult"],
            "thieves": [{"seat": i, **copy.deepcopy(t)} for i, t in enumerate(state["thieves"])],
            "items": copy.deepcopy(state["items"]),
            "podcasters": copy.deepcopy(state["podcasters"]),
            "carl": copy.deepcopy(state["carl"]),
            "itg": list(state["itg"]),
            "deck_count": len(state["deck"]),
            "discard_count": len(state["discard"]),
            "last_card": None if state["last_card"] is None else card_view(state["last_card"]),
            "frantic": state["frantic"],
            "turn": {
                "seat": turn["seat"],
                "number": turn["number"],
                "phase": turn["phase"],
                "dice": None if turn["dice"] is None else list(turn["dice"]),
                "targets": copy.deepcopy(turn["targets"]),
                # the map shows no coordinates: the client labels each target with these words
                "target_places": [place_name(sq(t)) for t in turn["targets"]],
                "pending": self._pending_battles(state) if turn["phase"] == "battle" else [],
            },
            "outcome": copy.deepcopy(state["outcome"]),
        }

    def reveal_view(self, state: State) -> dict[str, Any]:
        return {**self.view(state, None), "deck_order": list(state["deck"])}

    def sample_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """The Event deck's order drawn afresh. The view shows how many cards are left and the
        last card drawn (always the top of the discards), not which cards were drawn before
        it, so every other card may be in the deck or in the discards."""
        sample = copy.deepcopy(state)
        last = state["last_card"]
        unseen = [number for number in sorted(CARDS) if number != last]
        rng.shuffle(unseen)
        in_deck = len(state["deck"])
        sample["deck"] = unseen[:in_deck]
        sample["discard"] = unseen[in_deck:] + ([] if last is None else [last])
        return sample

    def secret_values(self, state: State, seat: int) -> list[Any]:
        """The deck's order is secret to everybody (6. of the issue); a deck of one or two
        cards is left out because "[n]" or "[a, b]" (a square) could appear in any view by
        chance (the conformance playout met "[13, 12]", a target square in the Lounge)."""
        return [list(state["deck"])] if len(state["deck"]) > 2 else []

    def outcome(self, state: State) -> Outcome | None:
        result = state["outcome"]
        if result is None:
            return None
        return Outcome(winners=tuple(result["winners"]), reason=result["reason"])

    # --- guidance for seeded playouts and bots ------------------------------------------------
    def playout_score(self, state: State, seat: int) -> float | None:
        """Progress along key -> Zapper -> VIP Pass -> Studson -> CDs -> exit (the rulings'
        basic route with the Zapper detour), minus the walking distance to the next of them
        (her access, ignoring pieces) and a penalty for podcasters waiting next to her."""
        result = state["outcome"]
        if result is not None:
            return 10_000.0 if seat in result["winners"] else -10_000.0
        thief = state["thieves"][seat]
        if thief["out"] or thief["pos"] is None:
            return -5_000.0
        backpack, opened, items = thief["backpack"], thief["opened"], state["items"]
        colour = thief["colour"]
        casino = "key" in backpack or "casino" in opened
        museum = "key" in backpack or "museum" in opened
        vip = "pass" in backpack or "vip" in opened
        zapper, studson, cds = "zapper" in backpack, "studson" in backpack, "cds" in backpack
        achieved = casino + zapper + (vip or studson) + studson + 2 * cds
        goal: Square | None
        if cds:
            goal = None
        else:
            if not casino:
                wanted = item_id(colour, "key")
            elif not zapper and museum and item_id(colour, "zapper") in items:
                wanted = item_id(colour, "zapper")
            elif not studson and not vip:
                wanted = item_id(colour, "pass")
            elif not studson:
                wanted = item_id(colour, "studson")
            else:
                wanted = "cds"
            if state["carl"]["dustpan"] == wanted:  # meet Carl (inside) to win it back
                if not zapper and museum and item_id(colour, "zapper") in items:
                    wanted = item_id(colour, "zapper")
                else:
                    wanted = "carl"
            goal = sq(state["carl"]["pos"]) if wanted == "carl" else _maybe(items.get(wanted))
        distance = _distance(state, seat, sq(thief["pos"]), goal)
        danger = len(adjacent_podcasters(state, seat)) * (2 if zapper else 10)
        return achieved * 100.0 - min(distance, 90) - danger


def _maybe(pos: list[int] | None) -> Square | None:
    return None if pos is None else sq(pos)


def _distance(state: State, seat: int, start: Square, goal: Square | None) -> int:
    """Steps from `start` to `goal` (None: to the Hotel Exit) over the squares she may enter;
    90 when there is no way (the goal is in Carl's dustpan, say)."""
    frontier, seen, steps = [start], {start}, 0
    while frontier:
        for square in frontier:
            if (goal is None and terrain(square) == EXIT) or square == goal:
                return steps
        nxt = []
        for square in frontier:
            for n in orthogonal_neighbours(square):
                if n not in seen and has_access(state, seat, n):
                    seen.add(n)
                    nxt.append(n)
        frontier, steps = nxt, steps + 1
    return 90
