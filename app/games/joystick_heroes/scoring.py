"""Scoring: how many dice a play rolls (H4), what a roll scores (H5) and what it wins (H6).

A play in progress is a JSON dict (see `turns.py`); the helpers here only read it.
"""

from __future__ import annotations

from typing import Any

from app.games.joystick_heroes.content import GAMES_CARDS, RULES, card_columns

Play = dict[str, Any]
Reward = dict[str, int]
NOTHING: Reward = {"tickets": 0, "prizes": 0}


def dice_count(cubes: dict[str, int], play: Play) -> int:
    """Scoring dice for one roll: cubes in the card's 3 columns, plus card effects and the
    borrowed Co-op cube, at most 9 (H4). The Heart's extra dice are added on top (H5)."""
    columns = card_columns(play["card"])
    count = sum(cubes[c] for c in columns)
    boosts = play["boosts"]
    genre = GAMES_CARDS[play["card"]]["genre"]
    count += cubes[genre] * boosts["genre_fan"]
    for skill, times in boosts["skill_boost"].items():
        count += cubes[skill] * times
    count += boosts["extra_quarter"]
    if play["coop"] is not None:
        count += 1
    return min(count, int(RULES["max_scoring_dice"]))


def face_points(face: str | None, mod: str | None, dice: list[int]) -> int:
    """What the Game die adds (H5): +100/+200/-100; a Bomb takes away the highest Scoring
    die; Key and Heart add nothing by themselves. Lucky Charm ignores, Combo Breaker doubles."""
    if face is None or mod == "ignored":
        return 0
    points = {"+100": 100, "+200": 200, "-100": -100}.get(face, 0)
    if face == "bomb":
        points = -max(dice, default=0)
    return points * 2 if mod == "doubled" else points


def roll_score(play: Play) -> int:
    """The current roll's score: dice + Game die + Key points + a Continue, never below 0."""
    total = sum(play["dice"]) + face_points(play["face"], play["face_mod"], play["dice"])
    total += play["key_points"]
    extra = play["continued"]
    if extra is not None:
        total += extra["die"] + face_points(extra["face"], None, [extra["die"]])
    return max(0, total)


def is_premium(card_id: int) -> bool:
    return GAMES_CARDS[card_id]["tier"] == "premium"


def level_target(card_id: int, level: int) -> int:
    """The score a Premium Level needs (tie or beat)."""
    return int(GAMES_CARDS[card_id]["chart"][level - 1]["score"])


def high_score_target(card_id: int, hunters: int) -> int:
    """The High Score, lowered by 200 per High Score Hunter played this turn."""
    lowered = int(RULES["high_score_hunter_points"]) * hunters
    return int(GAMES_CARDS[card_id]["high_score"]["score"]) - lowered


def _reward(entry: dict[str, Any]) -> Reward:
    return {"tickets": int(entry["tickets"]), "prizes": int(entry["prizes"])}


def standard_result(card_id: int, score: int, hunters: int) -> tuple[Reward, bool, str]:
    """(reward, High Score?, words): the High Score replaces the chart; otherwise the highest
    chart score tied or beaten; otherwise nothing (H6)."""
    card = GAMES_CARDS[card_id]
    if score >= high_score_target(card_id, hunters):
        return _reward(card["high_score"]), True, "the High Score"
    best: dict[str, Any] | None = None
    for entry in card["chart"]:
        if score >= entry["score"]:
            best = entry
    if best is None:
        return dict(NOTHING), False, "no chart score"
    return _reward(best), False, f"the {best['score']} line"


def premium_result(
    card_id: int, passed: int, level3_score: int | None, hunters: int
) -> tuple[Reward, bool, str]:
    """The reward of the last Level passed; the High Score only on a passed Level 3 roll that
    also ties or beats it (H6)."""
    card = GAMES_CARDS[card_id]
    if passed == 3 and level3_score is not None:
        if level3_score >= high_score_target(card_id, hunters):
            return _reward(card["high_score"]), True, "the High Score"
    if passed == 0:
        return dict(NOTHING), False, "no Level passed"
    return _reward(card["chart"][passed - 1]), False, f"Level {passed}"


def reward_text(reward: Reward) -> str:
    parts = []
    if reward["prizes"]:
        parts.append(f"{reward['prizes']} Prize{'s' if reward['prizes'] != 1 else ''}")
    if reward["tickets"]:
        parts.append(f"{reward['tickets']} ticket{'s' if reward['tickets'] != 1 else ''}")
    return " and ".join(parts) if parts else "nothing"
