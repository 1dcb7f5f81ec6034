"""Pure shot arithmetic: distance and dice (K4), the chance to hit, the collateral procedure
(K6) and the energy bolt's line trace (K7). No state here, only numbers and cells."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from app.games.tube_tanks.zone import COMPASS, XY

MAX_DICE = 10
AUTO_HIT_DAMAGE = 6
STATIONARY_BONUS = 2  # dice fewer when the tank does not move this turn
TRIANGULATION_PENALTY = 2  # dice more when measuring from the targeting token


def distance(a: XY, b: XY) -> int:
    """K4: the larger offset plus half the smaller one, rounded down."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2


def dice_count(dist: int, *, stationary: bool, triangulating: bool) -> int:
    """K4: both modifiers stack; at most 10 dice; below 1 means an automatic hit."""
    count = dist - (STATIONARY_BONUS if stationary else 0)
    count += TRIANGULATION_PENALTY if triangulating else 0
    return min(count, MAX_DICE)


def hit_chance(dice: int) -> Fraction:
    """Exact chance of a hit: automatic below 1 die, else no die may show a 1."""
    if dice < 1:
        return Fraction(1)
    return Fraction(5, 6) ** dice


def collateral(faces: list[int]) -> dict[int, int]:
    """K6 steps 1-2: drop 1s and 6s, cancel pairs 2+5 and 3+4; returns {value: count} left."""
    counts = Counter(f for f in faces if f not in (1, 6))
    for a, b in ((2, 5), (3, 4)):
        pairs = min(counts[a], counts[b])
        counts[a] -= pairs
        counts[b] -= pairs
    return {value: n for value, n in sorted(counts.items()) if n > 0}


def collateral_landing(target: XY, remaining: dict[int, int]) -> XY:
    """K6 step 4: each remaining value moves the landing point one cell per die of that value
    in its compass direction (2 north, 5 south, 3 west, 4 east)."""
    x, y = target
    for value, count in remaining.items():
        dx, dy = COMPASS[value]
        x, y = x + dx * count, y + dy * count
    return x, y


def bolt_path(start: XY, end: XY) -> list[XY]:
    """K7: the cells a segment from the centre of `start` to the centre of `end` passes
    through, in order, without `start`, ending with `end`. A grid walk in exact integers: the
    next crossing of a vertical grid line is at t = (2i+1) / (2|dx|), of a horizontal one at
    (2j+1) / (2|dy|); when both coincide the segment passes exactly through a grid corner
    and the walk steps diagonally, so the two corner-touching cells do not count."""
    (x, y), (x1, y1) = start, end
    dx, dy = x1 - x, y1 - y
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    adx, ady = abs(dx), abs(dy)
    i = j = 0  # vertical / horizontal lines crossed so far
    path: list[XY] = []
    while (x, y) != (x1, y1):
        # compare (2i+1)/(2adx) with (2j+1)/(2ady); a zero offset never crosses that way
        if ady == 0:
            cross_x, cross_y = True, False
        elif adx == 0:
            cross_x, cross_y = False, True
        else:
            left, right = (2 * i + 1) * ady, (2 * j + 1) * adx
            cross_x, cross_y = left <= right, right <= left
        if cross_x:
            x += sx
            i += 1
        if cross_y:
            y += sy
            j += 1
        path.append((x, y))
    return path
