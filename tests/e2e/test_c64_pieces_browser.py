"""Colour-blind players tell every C64 player's pieces apart by a letter as well as colour.

Issue 14 item 10: pieces carried their owner's name initial (two friends called Ada and Anna
got the same "A"), monsters all said "M", treasure discs, stations, cars (their gear) and the
joysticks' colour swatches had no letter at all. Now each carries its colour's letter (R, B,
G, Y), the word the event log names players by (ruling C2: colours follow the side).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import api_match

pytestmark = pytest.mark.browser

NAMES = ("Ada", "Anna", "Cy", "Di")  # two names share an initial
LETTER = {"red": "R", "blue": "B", "green": "G", "yellow": "Y"}

# The selector of each kind of a seat's own piece, per game ({s} is the seat).
PIECES = {
    "c64-maze": ['[data-piece="adventurer-{s}"]'],
    "c64-tanks": ['[data-piece="tank-{s}"]'],
    "c64-monsters": [
        '[data-piece="adventurer-{s}"]',
        '[data-piece="monster-{s}"]',
        '[data-point="treasure-{s}"]',
    ],
    "c64-cars": ['[data-piece="car-{s}"]'],
    "c64-trains": ['[data-point="train-{s}"]'],
    "c64-snakes": ['[data-point="head-{s}"]'],
}


@pytest.mark.parametrize("game", sorted(PIECES))
def test_every_piece_and_swatch_carries_its_colour_letter(
    new_page: Any, live_server: str, game: str
) -> None:
    match_id, people = api_match(live_server, game, NAMES)
    page = new_page(player=people[0])
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    colours = page.evaluate(
        '() => [...document.querySelectorAll(\'[data-testid="piece"], [data-testid="point"]\')]'
        ".map((el) => [el.dataset.piece || el.dataset.point, el.querySelector('.initial')"
        ".textContent])"
    )
    letters = dict(colours)
    for selector in PIECES[game]:
        seen = []
        for seat in range(len(NAMES)):
            piece = page.locator(selector.format(s=seat))
            expect(piece).to_have_count(1)
            key = piece.get_attribute("data-piece") or piece.get_attribute("data-point")
            seen.append(letters[key][:1])
        assert len(set(seen)) == len(NAMES) and all(seen), (selector, seen)

    # The joystick panels' swatches: mine and the three others, each with its letter.
    swatches = page.locator(".joy-head .swatch").all_inner_texts()
    titles = page.locator(".joy-head").all_inner_texts()
    assert len(swatches) == len(NAMES)
    assert len(set(swatches)) == len(NAMES), swatches
    for swatch, title in zip(swatches, titles, strict=True):
        colour = next((c for c in LETTER if c in title.lower()), None)
        assert colour and LETTER[colour] == swatch, (swatch, title)


@pytest.mark.parametrize("game", ["c64-trains", "c64-snakes"])
def test_each_colour_lays_its_own_line_pattern(new_page: Any, live_server: str, game: str) -> None:
    """Rails and snake bodies are lines of a player's colour: each colour has its own pattern
    too (solid, dashes, dots, dash-dot), shown beside the player in the score panel."""
    match_id, people = api_match(live_server, game, NAMES)
    page = new_page(player=people[0])
    page.goto(f"/match/{match_id}")
    samples = page.locator(".c64-line-sample line")
    expect(samples).to_have_count(len(NAMES))
    patterns = samples.evaluate_all("ls => ls.map((l) => getComputedStyle(l).strokeDasharray)")
    assert len(set(patterns)) == len(NAMES), patterns
