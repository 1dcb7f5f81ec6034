"""The lobby's zone editor carries its own copy of setups A and B (static/js/tube-tanks/
setups.js): it must say what the server's data files say (rulings 1(d))."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.games.tube_tanks.zone import SETUP_NAMES, SETUPS

SETUPS_JS = Path(__file__).resolve().parents[3] / "static" / "js" / "tube-tanks" / "setups.js"


def client_setups() -> dict[str, dict[str, object]]:
    text = SETUPS_JS.read_text()
    body = text[text.index("{", text.index("export const SETUPS")) : text.rindex("}") + 1]
    as_json = re.sub(r"(\w+):", r'"\1":', body)  # keys unquoted in JS
    as_json = re.sub(r",(\s*[}\]])", r"\1", as_json)  # trailing commas
    return dict(json.loads(as_json))


@pytest.mark.parametrize("letter", ["A", "B"])
def test_client_setups_match_the_data_files(letter):
    """1(d): setups A and B, one source of truth checked against its browser copy."""
    client = client_setups()[letter]
    zone = SETUPS[letter]
    assert client["name"] == SETUP_NAMES[letter]
    for key in ("walls", "pools", "gaps", "green", "orange"):
        assert sorted(client[key]) == sorted(getattr(zone, key)), key
    assert client["green"] == zone.green and client["orange"] == zone.orange


GEOMETRY_JS = SETUPS_JS.parent / "geometry.js"
PAIRS = [((x0, y0), (x1, y1)) for x0, y0 in ((0, 0), (7, 7), (3, 11), (14, 2))
         for x1 in range(-2, 17, 3) for y1 in range(-2, 17, 2)]


def test_client_previews_match_the_rules_module(tmp_path):
    """K4 and K7 as the renderer previews them (dice, chance to hit, the bolt's line) must be
    what the server will roll and trace: the client's geometry.js, run in node, against
    ballistics.py over a spread of shooter/target pairs, on and off the Zone."""
    import shutil
    import subprocess

    from app.games.tube_tanks.ballistics import bolt_path, dice_count, distance, hit_chance

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    module = tmp_path / "geometry.mjs"
    module.write_text(GEOMETRY_JS.read_text())
    script = tmp_path / "check.mjs"
    script.write_text(
        "import * as g from './geometry.mjs';\n"
        f"const pairs = {json.dumps(PAIRS)};\n"
        "console.log(JSON.stringify(pairs.map(([a, b]) => {\n"
        "  const d = g.distance(a, b);\n"
        "  const counts = [false, true].flatMap((s) => [false, true].map((t) =>\n"
        "    g.diceCount(d, {stationary: s, triangulating: t})));\n"
        "  return [d, counts, counts.map((n) => g.hitChance(n)), g.boltPath(a, b)];\n"
        "})));\n"
    )
    out = subprocess.run([node, str(script)], capture_output=True, text=True, check=True)
    client = json.loads(out.stdout)
    for (a, b), (dist, counts, chances, path) in zip(PAIRS, client, strict=True):
        assert dist == distance(a, b), (a, b)
        expected = [dice_count(dist, stationary=s, triangulating=t)
                    for s in (False, True) for t in (False, True)]
        assert counts == expected, (a, b)
        assert chances == pytest.approx([float(hit_chance(n)) for n in expected]), (a, b)
        assert [tuple(xy) for xy in path] == bolt_path(a, b), (a, b)
