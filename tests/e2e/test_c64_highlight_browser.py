"""C64 rules-page diagrams in Chromium: the shared table's highlight(marks) outlines every
square, joystick card and joystick space a diagram names, with its kind, and outlines them
again when the move is shown again (static/js/c64/table.js, docs/c64-view.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules_pages.diagrams import diagrams_of

pytestmark = pytest.mark.browser

ALL_DRAWN = """() => {
  const figures = [...document.querySelectorAll('figure.rules-diagram')];
  return figures.length > 0 && figures.every((f) => f.dataset.drawn === 'true');
}"""

# What the figure shows for each mark: the kind found on it, or null when nothing is marked.
MARKS_SHOWN = """([index, marks]) => {
  const figure = document.querySelectorAll('figure.rules-diagram')[index];
  const joystick = (seat) => seat === 0
    ? figure.querySelector('[data-testid=joystick-mine]')
    : figure.querySelector(`[data-testid=joystick-${seat}]`);
  return marks.map((mark) => {
    if (mark.square) {
      const square = `[data-testid=board-highlight][data-square="${mark.square}"]`;
      const el = figure.querySelector(square);
      return el ? el.getAttribute('class').replace('hl-', '') : null;
    }
    const joy = joystick(mark.seat);
    const el = mark.card !== undefined
      ? joy?.querySelector(`.jcard[data-card="${mark.card}"]`)
      : joy?.querySelector(`[data-row="${mark.space[0]}"][data-col="${mark.space[1]}"]`);
    return el?.dataset.mark ?? null;
  });
}"""


@pytest.mark.parametrize("game_id", ["c64-maze", "c64-tanks"])
def test_every_mark_is_drawn_and_drawn_again(new_page: Any, game_id: str) -> None:
    page = new_page(1280, 800)
    page.goto(f"/games/{game_id}/rules")
    page.wait_for_function(ALL_DRAWN)
    diagrams = diagrams_of(game_id)
    for index, diagram in enumerate(diagrams):
        assert diagram.viewer == 0, "marks without a seat are in seat 0's joystick here"
        marks = [{"seat": 0, **mark} for mark in diagram.highlight]
        wanted = [mark.get("kind", "hint") for mark in marks]
        assert page.evaluate(MARKS_SHOWN, [index, marks]) == wanted, diagram.id
    again = page.locator("figure.rules-diagram").nth(0).get_by_test_id("diagram-again")
    again.click()
    page.wait_for_function(ALL_DRAWN)
    first = [{"seat": 0, **mark} for mark in diagrams[0].highlight]
    shown = page.evaluate(MARKS_SHOWN, [0, first])
    assert shown == [mark.get("kind", "hint") for mark in first], json.dumps(shown)
