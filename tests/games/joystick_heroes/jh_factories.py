"""Factories for Joystick Heroes scenarios: small explicit states and scripted dice.

`table(n)` is a game in its PLAY phase, round 1, seat 0 holding the pizza slice and on turn,
every hand empty, each hero with the starting cubes plus Classic and Sci-fi, and an arcade
whose spots hold the cards given (default: Highway Hop, Pellet Panic, Tbob, Brick Buster,
Cyber Cycle, ... the first n + 3 of `DEFAULT_ARCADE`). `Scripted` dice return the given
indexes, so a test says exactly which faces come up.
"""

from __future__ import annotations

import copy
from typing import Any

from app.engine.dice import Dice
from app.engine.registry import get_game
from app.games.joystick_heroes.content import GAME_DIE, SCORING_DIE

GAME = get_game("joystick-heroes")

# Highway Hop (S1), Pellet Panic (P, co-op), Tbob (S, versus), Bug Blaster (P2), Paddle Ball
# (S3), Tank Commander (P2), Cyber Cycle (S, co-op), Warp Racer, Robo Rampage.
DEFAULT_ARCADE = [1, 3, 5, 6, 8, 9, 13, 14, 15]


def face(name: str) -> int:
    """The Game die index of a face: "+100", "+200", "-100", "key", "heart", "bomb"."""
    return GAME_DIE.index(name)


def die(value: int) -> int:
    """The Scoring die index of a value: 0, 100, 200 or 300."""
    return SCORING_DIE.index(value)


class Scripted(Dice):
    """Dice that come up as scripted: each `below` pops the next index; shuffles keep order."""

    def __init__(self, *values: int) -> None:
        super().__init__("scripted", 1)
        self.values = list(values)

    def below(self, n: int) -> int:
        self.draws += 1
        if n == 1:
            return 0
        assert self.values, "the test did not script enough dice"
        value = self.values.pop(0)
        assert 0 <= value < n, f"scripted {value} for a draw below {n}"
        return value

    def shuffle(self, items: Any) -> None:
        return None


def roll(*dice_values: int, game_face: str = "+100") -> Scripted:
    """Dice for one roll: Scoring dice showing `dice_values`, then the Game die."""
    return Scripted(*[die(v) for v in dice_values], face(game_face))


def table(
    players: int = 2,
    arcade: list[int] | None = None,
    options: dict[str, Any] | None = None,
    seed: str = "jh",
) -> dict[str, Any]:
    state = GAME.setup(players, GAME.parse_options(options or {}), Dice(seed, 0))
    for seat in range(players):
        state, _ = GAME.apply(
            state, seat, {"type": "choose_genres", "genres": ["classic", "scifi"]}, Dice(seed, 1)
        )
    state = copy.deepcopy(state)
    cards = arcade if arcade is not None else DEFAULT_ARCADE[: len(state["arcade"])]
    used = set(cards)
    state["arcade"] = [{"card": c, "plays": 0} for c in cards]
    state["games_deck"] = [c for c in range(1, 49) if c not in used]
    state["games_discard"] = []
    everyone = [card for p in state["players"] for card in p["hand"]]
    state["power_deck"] = sorted(
        [*state["power_deck"], *everyone, *state["power_discard"]], key=lambda c: int(c[1:])
    )
    state["power_discard"] = []
    for p in state["players"]:
        p["hand"] = []
        p["played"] = False
        p["spot"] = None
    state["pizza"] = 0
    state["order"] = list(range(players))
    state["order_index"] = 0
    state["turn"] = {
        "seat": 0,
        "step": "start",
        "free": False,
        "favorite": False,
        "spot": None,
        "challenger": None,
        "queue": [],
        "scores": {},
        "high_score": False,
    }
    state["tournaments_queued"] = 0
    return state


def card_of(kind: str, skip: int = 0) -> str:
    """A Power card instance id of `kind` (the `skip`-th copy)."""
    from app.games.joystick_heroes.content import POWER_CARDS

    return [c for c, k in POWER_CARDS.items() if k == kind][skip]


def give(state: dict[str, Any], seat: int, *kinds: str) -> list[str]:
    """Puts cards of these kinds into `seat`'s hand (taken out of the deck); returns the ids."""
    ids = []
    taken = {c for p in state["players"] for c in p["hand"]}
    for kind in kinds:
        skip = 0
        while card_of(kind, skip) in taken:
            skip += 1
        card = card_of(kind, skip)
        taken.add(card)
        ids.append(card)
        state["power_deck"] = [c for c in state["power_deck"] if c != card]
        state["players"][seat]["hand"] = [*state["players"][seat]["hand"], card]
    return ids


def act(state: dict[str, Any], seat: int, move: dict[str, Any], dice: Dice | None = None):
    """Applies a move (checked against the legal moves by `apply`); returns (state, events)."""
    return GAME.apply(state, seat, move, dice or Scripted())


def texts(events: list[dict[str, Any]]) -> str:
    return " | ".join(e["text"] for e in events)
