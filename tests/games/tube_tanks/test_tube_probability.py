"""Tank Skirmish: the server's dice against the exact hit formula (core rules, K4).

With n dice a shot hits when no die shows a 1: P(hit) = (5/6)^n, and the damage is the lowest
die, so P(damage >= k) = ((7 - k)/6)^n. Each test fires a few thousand seeded shots through
`apply` and allows 5 binomial standard errors.
"""

from __future__ import annotations

import math

import pytest
from tube_factories import CORE, GAME, build, fire

from app.engine.dice import Dice
from app.games.tube_tanks.ballistics import hit_chance

SHOTS = 2500


def shots(n: int, seed: str):
    """`SHOTS` shots with n dice (a moving tank n cells south of its target)."""
    state = build(rules=CORE, green=("H1", "A1", "B1"), orange=(f"H{1 + n}", "O15", "N15"))
    for k in range(SHOTS):
        _, events = GAME.apply(state, 0, fire(f"H{1 + n}"), Dice(seed, k + 1))
        shot = next(e for e in events if e["type"] == "fire")
        assert shot["count"] == n and len(shot["dice"]) == n
        yield shot


def within(observed: int, p: float, trials: int) -> bool:
    sigma = math.sqrt(p * (1 - p) / trials)
    return abs(observed / trials - p) <= 5 * sigma + 1e-12


@pytest.mark.parametrize("n", [1, 2, 4, 7, 10])
def test_hit_rate_matches_five_sixths_to_the_n(n):
    """Core rules: "If at least one of the dice shows a '1' then you've missed the target.\""""
    hits = sum(1 for shot in shots(n, f"hit-{n}") if shot["result"] == "hit")
    p = float(hit_chance(n))
    assert p == pytest.approx((5 / 6) ** n)
    assert within(hits, p, SHOTS), (hits / SHOTS, p)


@pytest.mark.parametrize("k", [2, 4, 6])
def test_damage_is_the_lowest_die_distribution(k):
    """Core rules: "the target is hit for as many damage points as the lowest die value":
    P(damage >= k) = ((7 - k)/6)^n for n = 3."""
    n = 3
    count = sum(1 for shot in shots(n, f"damage-{k}") if shot["damage"] >= k)
    p = ((7 - k) / 6) ** n
    assert within(count, p, SHOTS), (count / SHOTS, p)


def test_each_die_face_is_uniform():
    """The server's dice: every face 1-6 equally likely (chi-square, 5 degrees of freedom)."""
    faces = [f for shot in shots(10, "faces") for f in shot["dice"]]
    expected = len(faces) / 6
    chi2 = sum((faces.count(v) - expected) ** 2 / expected for v in range(1, 7))
    assert chi2 < 25.0  # p < 0.0002 under uniformity: a real bias, not bad luck


def test_automatic_hit_chance_is_1():
    """K4: below 1 die the shot hits automatically."""
    assert hit_chance(0) == 1 and hit_chance(-1) == 1
