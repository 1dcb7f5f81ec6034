"""K4 and K7 as the Tank Skirmish renderer previews them (dice, chance to hit, the bolt's line)
must be what the server will roll and trace: the browser's own geometry module, run in
Chromium, against ballistics.py over a spread of shooter/target pairs, on and off the Zone."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.tube_tanks.ballistics import bolt_path, dice_count, distance, hit_chance

pytestmark = pytest.mark.browser

PAIRS = [
    ((x0, y0), (x1, y1))
    for x0, y0 in ((0, 0), (7, 7), (3, 11), (14, 2))
    for x1 in range(-2, 17, 3)
    for y1 in range(-2, 17, 2)
]

PREVIEW = """async (pairs) => {
  const g = await import("/static/js/tube-tanks/geometry.js");
  return pairs.map(([a, b]) => {
    const d = g.distance(a, b);
    const counts = [false, true].flatMap((s) => [false, true].map((t) =>
      g.diceCount(d, { stationary: s, triangulating: t })));
    return [d, counts, counts.map((n) => g.hitChance(n)), g.boltPath(a, b)];
  });
}"""


def test_the_clients_shot_previews_match_the_rules_module(live_server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{live_server}/")
    client = page.evaluate(PREVIEW, [[list(a), list(b)] for a, b in PAIRS])
    assert len(client) == len(PAIRS)
    for (a, b), (dist, counts, chances, path) in zip(PAIRS, client, strict=True):
        assert dist == distance(a, b), (a, b)
        expected = [
            dice_count(dist, stationary=s, triangulating=t)
            for s in (False, True)
            for t in (False, True)
        ]
        assert counts == expected, (a, b)
        assert chances == pytest.approx([float(hit_chance(n)) for n in expected]), (a, b)
        assert [tuple(xy) for xy in path] == bolt_path(a, b), (a, b)
