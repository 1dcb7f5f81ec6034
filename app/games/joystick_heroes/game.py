"""Joystick Heroes: heroes tour an arcade of Games cards, roll Scoring dice for tickets and
Prizes, power up between rounds; most Prizes when all tokens are spent wins.

Rules: the Joystick Heroes rulebook with rulings H1-H17 and H9a, H13a and our card content
(docs/rules/joystick-heroes.md; data/*.json). Chance: yes (dice, shuffled decks, the first player).
Hidden information: yes, the Power card hands (and each seat's Power Up shopping list until
everyone is done); the deck orders are never shown.

The state (JSON) is described in `flow.py`, `plays.py` and `decks.py`; per player:
``{"seat", "cubes": {column: n}, "genres": [2 genres] | None, "tokens", "tickets", "prizes",
"hand": [card ids], "spot": arcade spot | None, "last_game": Games card id | None,
"played": played this round}``. Moves: `moves.py`. View and events: docs/joystick-heroes.md.
"""

from __future__ import annotations

import copy
import random
from itertools import combinations
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.engine.contract import Event, Game, IllegalMove, Move, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.joystick_heroes.content import (
    COLUMNS,
    GAME_DIE,
    GAMES_CARDS,
    GENRES,
    HERO_COLORS,
    POWER_KINDS,
    RULES,
    RULINGS_KEY,
    SCORING_DIE,
    SKILLS,
    hero,
    kind_of,
)
from app.games.joystick_heroes.decks import build_power_deck, draw_power_card
from app.games.joystick_heroes.flow import (
    answer,
    apply_powerup_move,
    apply_start_move,
    begin_round,
    cart_totals,
    discard,
    finish_play,
    next_turn,
    powerup_moves,
    start_moves,
    update_player,
)
from app.games.joystick_heroes.moves import JoystickHeroesMove
from app.games.joystick_heroes.plays import REACTION_KINDS, apply_play_move, holds, play_moves
from app.games.joystick_heroes.sampling import sample_hidden
from app.games.joystick_heroes.scoring import (
    dice_count,
    face_points,
    high_score_target,
    is_premium,
    level_target,
    roll_score,
)

GENRE_PAIRS = [sorted(pair) for pair in combinations(GENRES, 2)]


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    continue_rule: bool = Field(
        default=False,
        title='"Continue?" rule',
        description="Once per game played, discard 2 tickets to roll 1 Scoring die plus the Game "
        "die and add them to your score (Premium: your Level 3 score).",
    )
    skip_tournaments: bool = Field(
        default=False,
        title="Skip tournaments",
        description="All-Play Tournament cards are discarded and replaced without a tournament "
        "(shorter games).",
    )


@register
class JoystickHeroes(Game):
    id = "joystick-heroes"
    title = "Joystick Heroes"
    min_players = 1
    max_players = 6
    rules_version = "2"  # 2: H9a (Premium Versus) and H13a (discards)
    older_rules_versions = frozenset({"1"})
    has_chance = True
    hidden_information = True
    goal = (
        "The player with the most Prizes when everybody runs out of tokens is the new "
        "Joystick Hero."
    )
    Options = Options
    MoveType = JoystickHeroesMove

    # --- set-up ------------------------------------------------------------------------------
    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Joystick Heroes is for 1-6 players, not {players}")
        opts = options.model_dump() if isinstance(options, BaseModel) else dict(options)
        games_deck = rng.shuffled(sorted(GAMES_CARDS))
        size = RULES["solo_arcade_cards"] if players == 1 else players + RULES["arcade_extra_cards"]
        arcade = [{"card": card, "plays": 0} for card in games_deck[:size]]
        state: State = {
            "game": self.id,
            "options": {
                "continue_rule": bool(opts.get("continue_rule")),
                "skip_tournaments": bool(opts.get("skip_tournaments")),
            },
            "phase": "setup",
            "round": 1,
            "pizza": rng.below(players),  # "the player who last played a video game": drawn
            "pizza_claimed": False,
            "players": [
                {
                    "seat": seat,
                    "cubes": {c: (1 if c in SKILLS else 0) for c in COLUMNS},
                    "genres": None,
                    "tokens": RULES["start_tokens"],
                    "tickets": 0,
                    "prizes": 0,
                    "hand": [],
                    "spot": None,
                    "last_game": None,
                    "played": False,
                }
                for seat in range(players)
            ],
            "arcade": arcade,
            "games_deck": games_deck[size:],
            "games_discard": [],
            "power_deck": rng.shuffled(build_power_deck(players == 1)),
            "power_discard": [],
            "tournaments_queued": 0,
            "blocked": {},
            "order": [],
            "order_index": -1,
            "turn": None,
            "play": None,
            "question": None,
            "powerup": None,
            "tournament": None,
            "last_result": None,
            "history": [],
            "setup_log": [],
            "outcome": None,
            RULINGS_KEY: "2026-11-24",
        }
        events: list[Event] = []
        first = state["pizza"]
        order = [(first + i) % players for i in range(players)]
        for _ in range(RULES["start_hand"]):
            for seat in order:
                draw_power_card(state, seat, rng, events, at_setup=True)
        # Set-up has no events of its own: the public part of what happened is kept to show.
        state["setup_log"] = [e["text"] for e in events if e["type"] == "instant"]
        state["pizza_claimed"] = False
        return state

    # --- who moves -------------------------------------------------------------------------------
    def active_seats(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase == "over":
            return frozenset()
        if phase == "setup":
            return frozenset(p["seat"] for p in state["players"] if p["genres"] is None)
        question = state["question"]
        if question is not None:
            if question["kind"] in REACTION_KINDS:
                # Every asked seat stays on until all have answered: who answered when is
                # nobody else's business.
                return frozenset(question["seats"])
            return frozenset((question["seat"],))
        if phase == "powerup":
            return frozenset(s for s, done in enumerate(state["powerup"]["done"]) if not done)
        if state["play"] is not None:
            return frozenset((state["play"]["seat"],))
        if state["turn"] is not None:
            return frozenset((state["turn"]["seat"],))
        return frozenset()

    def keep_older_rules(self, state: State, rules_version: str) -> State:
        if rules_version == "1":
            del state[RULINGS_KEY]
        return state

    def out_of_turn_moves(self, state: State, seat: int) -> list[Move]:
        """H13a: during a PLAY phase every player may discard at will, on anyone's turn (a
        player without tokens too); the table never waits for it."""
        if state["phase"] != "play" or not 0 <= seat < len(state["players"]):
            return []
        return [{"type": "discard", "card": card} for card in state["players"][seat]["hand"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        anytime = self.out_of_turn_moves(state, seat)
        if seat not in self.active_seats(state):
            return anytime
        own = self._turn_moves(state, seat)
        return own + [m for m in anytime if m not in own]

    def _turn_moves(self, state: State, seat: int) -> list[Move]:
        """The moves of a seat that is to move, discards at any time (H13a) aside."""
        phase = state["phase"]
        if phase == "setup":
            return [{"type": "choose_genres", "genres": pair} for pair in GENRE_PAIRS]
        question = state["question"]
        if question is not None:
            if question["kind"] in REACTION_KINDS and not holds(
                state, seat, REACTION_KINDS[question["kind"]]
            ):
                return [{"type": "answer", "accept": False}]
            return [{"type": "answer", "accept": True}, {"type": "answer", "accept": False}]
        if phase == "powerup":
            return powerup_moves(state, seat)
        if state["play"] is not None:
            return play_moves(state)
        return start_moves(state)

    def apply(self, state: State, seat: int, move: Move, rng: Dice) -> tuple[State, list[Event]]:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalMove("There is no such seat at this table.")
        if not 0 <= seat < len(state["players"]):
            raise IllegalMove("There is no such seat at this table.")
        if state["phase"] == "over":
            raise IllegalMove("The game is over.")
        anytime = move in self.out_of_turn_moves(state, seat)
        if seat not in self.active_seats(state) and not anytime:
            if (
                isinstance(move, dict)
                and move.get("type") == "discard"
                and state["phase"] == "play"
            ):
                raise IllegalMove("You cannot discard that card: it is not in your hand.")
            raise IllegalMove(self._wait_reason(state))
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(self._refusal(state, seat, move))
        new = copy.deepcopy(state)
        events: list[Event] = []
        phase = new["phase"]
        if anytime:
            discard(new, seat, move["card"], events)
        elif phase == "setup":
            self._choose_genres(new, seat, move["genres"], rng, events)
        elif new["question"] is not None:
            answer(new, seat, move["accept"], rng, events)
        elif phase == "powerup":
            apply_powerup_move(new, seat, move, rng, events)
        elif new["play"] is not None:
            if apply_play_move(new, move, rng, events) and new["question"] is None:
                finish_play(new, rng, events)
        else:
            apply_start_move(new, move, rng, events)
        return new, events

    def _choose_genres(
        self, state: State, seat: int, genres: list[str], rng: Dice, events: list[Event]
    ) -> None:
        cubes = dict(state["players"][seat]["cubes"])
        for genre in genres:
            cubes[genre] = 1
        update_player(state, seat, cubes=cubes, genres=list(genres))
        liked = " and ".join(_GENRE_NAMES[g] for g in genres)
        events.append(
            {
                "type": "genres",
                "seat": seat,
                "genres": list(genres),
                "text": f"{hero(seat)} likes {liked}.",
            }
        )
        if all(p["genres"] is not None for p in state["players"]):
            state["setup_log"] = []
            begin_round(state, events)
            next_turn(state, rng, events)

    def _wait_reason(self, state: State) -> str:
        if state["phase"] == "powerup":
            return "You are done shopping; the others are still at the prize counter."
        if state["phase"] == "setup":
            return "You have chosen your genres; waiting for the others."
        seats = sorted(self.active_seats(state))
        if state["question"] is not None:
            return "Waiting for another player's answer."
        return f"It is not your turn: {hero(seats[0])} plays now." if seats else "Please wait."

    def _refusal(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type") if isinstance(move, dict) else None
        question = state["question"]
        if question is not None:
            if kind == "answer" and question["kind"] in REACTION_KINDS:
                card = "Tilt!" if question["kind"] == "tilt" else "Ticket Thief"
                return f"You hold no {card} to play: you can only pass."
            return "Answer the question first (yes or no)."
        if kind == "move_to":
            return "You must move to a Games card with no pawn on it, other than your spot."
        if kind == "discard" and state["phase"] == "play":
            return "You cannot discard that card: it is not in your hand."
        if kind in ("play_card", "use_key", "discard", "use_coupon"):
            return "You cannot play that card now."
        if kind == "buy":
            return (
                "You cannot buy that: not enough tickets, a full column, or not a column "
                "of your last game."
            )
        return "That move is not possible right now."

    # --- clocks (platform hooks) -------------------------------------------------------------
    def decision_seconds(self, state: State) -> int | None:
        """Seconds an asked player has to answer a Versus or Co-op question; a reaction
        question (Tilt!, Ticket Thief), asked of everyone who could hold the card at every
        roll or collection, gets a shorter clock so the table keeps moving."""
        question = state["question"]
        if state["phase"] == "over" or question is None:
            return None
        if question["kind"] in REACTION_KINDS:
            return int(RULES["reaction_seconds"])
        return int(RULES["decision_seconds"])

    def timeout_move(self, state: State, seat: int) -> Move | None:
        """No answer in time counts as "no"."""
        question = state["question"]
        if state["phase"] == "over" or question is None:
            return None
        if question["kind"] in REACTION_KINDS:
            waiting = seat in question["seats"] and str(seat) not in question["answers"]
            return {"type": "answer", "accept": False} if waiting else None
        if question["seat"] == seat:
            return {"type": "answer", "accept": False}
        return None

    # --- views -------------------------------------------------------------------------------
    def playout_score(self, state: State, seat: int) -> float | None:
        """Prizes (what wins, H15), plus a ticket's worth of a Prize (a Prize costs
        `prize_cost` tickets) and half a Prize per cube bought (cubes win later rolls); an
        ended game with rivals is simply won or lost. Reads only the seat's public counts."""
        result = state["outcome"]
        if result is not None and len(state["players"]) > 1:
            return 1000.0 if seat in result["winners"] else -1000.0
        me = state["players"][seat]
        cubes = sum(me["cubes"].values())
        return me["prizes"] + me["tickets"] / RULES["prize_cost"] + 0.5 * cubes

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        occupants: dict[int, list[int]] = {}
        for p in state["players"]:
            if p["spot"] is not None:
                occupants.setdefault(p["spot"], []).append(p["seat"])
        powerup = state["powerup"]
        players = []
        for p in state["players"]:
            players.append(
                {
                    "seat": p["seat"],
                    "color": HERO_COLORS[p["seat"]],
                    "cubes": dict(p["cubes"]),
                    "genres": None if p["genres"] is None else list(p["genres"]),
                    "tokens": p["tokens"],
                    "tickets": p["tickets"],
                    "prizes": p["prizes"],
                    "hand_count": len(p["hand"]),
                    "spot": p["spot"],
                    "last_game": p["last_game"],
                    "played": p["played"],
                    "done": bool(powerup["done"][p["seat"]]) if powerup else False,
                }
            )
        board: dict[str, Any] = {
            "phase": state["phase"],
            "round": state["round"],
            "pizza": state["pizza"],
            "options": dict(state["options"]),
            "final": bool(powerup and powerup["final"]),
            "arcade": [
                {
                    "spot": i,
                    "card": e["card"],
                    "plays": e["plays"],
                    "blocked_by": state["blocked"].get(str(i)),
                    "pawns": occupants.get(i, []),
                }
                for i, e in enumerate(state["arcade"])
            ],
            "decks": {
                "games": len(state["games_deck"]),
                "games_discard": len(state["games_discard"]),
                "power": len(state["power_deck"]),
                "power_discard": len(state["power_discard"]),
            },
            "players": players,
            "hand": None,
            "cart": None,
            "turn": None
            if state["turn"] is None
            else {
                k: state["turn"][k]
                for k in ("seat", "step", "free", "favorite", "spot", "challenger")
            },
            "play": self._play_view(state),
            "question": self._question_view(state, seat),
            "tournament": None
            if state["tournament"] is None
            else {
                k: state["tournament"][k] for k in ("card", "kind", "entrants", "scores", "replay")
            },
            "tournaments_queued": state["tournaments_queued"],
            "last_result": state["last_result"],
            "history": list(state["history"]),
            "setup_log": list(state["setup_log"]),
            "cards": _cards_in_sight(state),
            "rules": RULES_VIEW,
        }
        if seat is not None and 0 <= seat < len(state["players"]):
            board["hand"] = _hand_view(state["players"][seat]["hand"])
            if powerup is not None:
                board["cart"] = _cart_view(state, seat)
        return board

    def _play_view(self, state: State) -> dict[str, Any] | None:
        play = state["play"]
        if play is None:
            return None
        out = copy.deepcopy(play)
        seat = play["seat"]
        out["score"] = roll_score(play)
        out["face_points"] = face_points(play["face"], play["face_mod"], play["dice"])
        out["dice_count"] = dice_count(state["players"][seat]["cubes"], play)
        out["premium"] = is_premium(play["card"])
        out["level_target"] = level_target(play["card"], play["level"]) if out["premium"] else None
        out["high_score_target"] = high_score_target(play["card"], play["hunters"])
        return out

    def _question_view(self, state: State, seat: int | None) -> dict[str, Any] | None:
        question = state["question"]
        if question is None:
            return None
        if question["kind"] in REACTION_KINDS:
            # Everyone who could hold the card is asked alike; a seat sees only whether it
            # holds one and its own answer, never the others' answers.
            out = {k: v for k, v in question.items() if k != "answers"}
            if seat is not None and seat in question["seats"]:
                out["holding"] = holds(state, seat, REACTION_KINDS[question["kind"]])
                out["answer"] = question["answers"].get(str(seat))
            return out
        return {k: v for k, v in question.items() if k != "queue"}

    def reveal_view(self, state: State) -> dict[str, Any]:
        board = self.view(state, None)
        board["hands"] = [_hand_view(p["hand"]) for p in state["players"]]
        if state["powerup"] is not None:
            board["carts"] = [_cart_view(state, s) for s in range(len(state["players"]))]
        if state["question"] is not None:
            board["question"] = {k: v for k, v in state["question"].items() if k != "queue"}
        return board

    def sample_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """Other hands, both decks with their discards, others' secret answers and shopping
        lists drawn afresh (`sampling.py`): what a computer player searches from."""
        return sample_hidden(state, seat, rng)

    def secret_values(self, state: State, seat: int) -> list[Any]:
        """The seat's Power card instance ids: unique, so no other view can show them."""
        return list(state["players"][seat]["hand"])

    # The event types that an answer to a reaction question (Tilt!, Ticket Thief) gives: the
    # private "answered" note, or the resolution once the last asked seat has answered.
    _REACTION_ANSWER_EVENTS = frozenset({"answered", "no_reaction", "tilt", "thief"})

    def hides_mover(self, move: Move, events: list[Event]) -> bool:
        """Everyone asked a reaction question answers at once and in secret, so that nobody
        learns who holds the card or who is slow: who answered, and when, stays hidden."""
        return move.get("type") == "answer" and any(
            event.get("type") in self._REACTION_ANSWER_EVENTS for event in events
        )

    def outcome(self, state: State) -> Outcome | None:
        data = state["outcome"]
        if data is None:
            return None
        return Outcome(
            winners=tuple(data["winners"]),
            reason=data["reason"],
            scores={int(k): v for k, v in data["scores"].items()},
            details=dict(data["details"]),
        )


_GENRE_NAMES = {
    "adventure": "Adventure",
    "classic": "Classic",
    "scifi": "Sci-fi",
    "sports": "Sports",
}

RULES_VIEW: dict[str, Any] = {
    "game_die": list(GAME_DIE),
    "scoring_die": list(SCORING_DIE),
    "costs": {
        "skill": RULES["skill_cube_cost"],
        "genre": RULES["genre_cube_cost"],
        "prize": RULES["prize_cost"],
    },
    "column_max": RULES["column_max"],
    "max_dice": RULES["max_scoring_dice"],
}


def _cards_in_sight(state: State) -> list[dict[str, Any]]:
    """The Games cards a viewer may need to draw (the arcade, the game being played, the
    tournament, everybody's last game): the full list would make every view heavy."""
    ids = {e["card"] for e in state["arcade"]}
    ids |= {p["last_game"] for p in state["players"]}
    for holder in (state["play"], state["tournament"], state["last_result"]):
        if holder is not None:
            ids.add(holder["card"])
    # A list sorted by id, not a dict: patches keep a list's order exactly.
    return [GAMES_CARDS[i] for i in sorted(i for i in ids if i is not None)]


def _hand_view(hand: list[str]) -> list[dict[str, Any]]:
    out = []
    for card in hand:
        kind = POWER_KINDS[kind_of(card)]
        out.append(
            {
                "id": card,
                "kind": kind["kind"],
                "name": kind["name"],
                "key": kind["key"],
                "timing": kind["timing"],
                "text": kind["text"],
            }
        )
    return out


def _cart_view(state: State, seat: int) -> dict[str, Any]:
    totals = cart_totals(state, seat)
    return {
        "actions": copy.deepcopy(state["powerup"]["carts"][seat]),
        "spent": totals["spent"],
        "cubes": totals["cubes"],
        "prizes": totals["prizes"],
        "pending_coupons": len(totals["pending"]),
        "left": state["players"][seat]["tickets"] - totals["spent"],
    }
