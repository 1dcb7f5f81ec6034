"""The lobby's zone editor carries its own copy of setups A and B (static/js/tube-tanks/
setups.js): it must say what the server's data files say (rulings 1(d)). The client's shot
previews are checked against the rules in Chromium (tests/e2e, "previews")."""

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
