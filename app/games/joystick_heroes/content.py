"""The Joystick Heroes content: Games cards, Power cards and the numbers of the rules, as data.

Everything a designer may want to tune lives in `data/*.json` (rulings H2, H3, H5 and our
card lists, docs/rules/joystick-heroes.md); this module loads it once at import time and
checks its shape, so a bad edit fails loudly when the server starts, not mid-game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

SKILLS = ("joystick", "driving", "buttons", "shooting")
GENRES = ("adventure", "classic", "scifi", "sports")
COLUMNS = SKILLS + GENRES
COLUMN_NAMES = {
    "joystick": "Joystick",
    "driving": "Driving",
    "buttons": "Buttons",
    "shooting": "Shooting",
    "adventure": "Adventure",
    "classic": "Classic",
    "scifi": "Sci-fi",
    "sports": "Sports",
}
GAME_DIE_NAMES = {
    "+100": "+100",
    "+200": "+200",
    "-100": "-100",
    "key": "a Key",
    "heart": "a Heart",
    "bomb": "a Bomb",
}


def _load(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as handle:
        return json.load(handle)


RULES: dict[str, Any] = _load("rules.json")
GAMES_CARDS: dict[int, dict[str, Any]] = {c["id"]: c for c in _load("games-cards.json")["cards"]}
POWER_KINDS: dict[str, dict[str, Any]] = {k["kind"]: k for k in _load("power-cards.json")["kinds"]}
GAME_DIE: tuple[str, ...] = tuple(RULES["game_die"])
SCORING_DIE: tuple[int, ...] = tuple(RULES["scoring_die"])


def _power_instances() -> dict[str, str]:
    """Card instance id -> kind. Ids ("P1".."P44") are what hands hold: unique per physical
    card, so the leak test can look for them in other seats' messages."""
    out: dict[str, str] = {}
    number = 1
    for kind in POWER_KINDS.values():
        for _ in range(kind["copies"]):
            out[f"P{number}"] = kind["kind"]
            number += 1
    return out


POWER_CARDS: dict[str, str] = _power_instances()


def card_columns(card_id: int) -> list[str]:
    """The card's three icons: its two skills, then its genre (H4)."""
    card = GAMES_CARDS[card_id]
    return [*card["skills"], card["genre"]]


def kind_of(instance: str) -> str:
    return POWER_CARDS[instance]


def power_name(instance: str) -> str:
    return str(POWER_KINDS[POWER_CARDS[instance]]["name"])


def key_value(instance: str) -> int | None:
    value = POWER_KINDS[POWER_CARDS[instance]]["key"]
    return None if value is None else int(value)


def cube_cost(column: str) -> int:
    return int(RULES["skill_cube_cost"] if column in SKILLS else RULES["genre_cube_cost"])


def validate() -> None:
    """Raises ValueError when the data files break a ruling (run at import time)."""
    if len(GAMES_CARDS) != 48:
        raise ValueError("there must be 48 Games cards")
    for card in GAMES_CARDS.values():
        if len(set(card["skills"])) != 2 or not set(card["skills"]) <= set(SKILLS):
            raise ValueError(f"{card['name']}: two different skills (H4)")
        if card["genre"] not in GENRES:
            raise ValueError(f"{card['name']}: unknown genre")
        want = 4 if card["tier"] == "standard" else 3
        if len(card["chart"]) != want:
            raise ValueError(f"{card['name']}: a {card['tier']} chart has {want} entries")
        scores = [e["score"] for e in card["chart"]]
        if scores != sorted(scores) or card["high_score"]["score"] <= scores[-1]:
            raise ValueError(f"{card['name']}: chart scores must rise to the High Score")
    if sum(k["copies"] for k in POWER_KINDS.values()) != 44:
        raise ValueError("there must be 44 Power cards")
    if sorted(GAME_DIE) != sorted(("+100", "+200", "-100", "key", "heart", "bomb")):
        raise ValueError("the Game die faces are +100, +200, -100, Key, Heart, Bomb (H5)")


validate()

HERO_COLORS = ("red", "blue", "green", "yellow", "purple", "orange")


def count(n: int, word: str, plural: str | None = None) -> str:
    """ "1 Prize", "2 Prizes": a number with its noun in the right number."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


RULINGS_KEY = "rulings"
"""In the state of a match played by rules version 2 (rulings H9a and H13a, and event texts
that count in good English). A match begun under version 1 has no such key: it replays, reads
and ends exactly as it was played."""


def amended(state: dict[str, Any]) -> bool:
    return RULINGS_KEY in state


def tally(state: dict[str, Any], n: int, word: str, plural: str | None = None, *, was: str) -> str:
    """`count` under rules version 2; version 1's event texts read f"{n} {was}"."""
    return count(n, word, plural) if amended(state) else f"{n} {was}"


def hero(seat: int) -> str:
    """The seat's hero as event texts name her: "Red", "Blue", ..."""
    return HERO_COLORS[seat].capitalize()
