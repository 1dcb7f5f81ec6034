"""What "phone first" means for a match page, as one check every game's browser test uses.

On a 390x844 screen, with the page scrolled to its top and nothing scrolled by hand:
- the page does not scroll sideways;
- the board (`[data-phone="board"]`) and, when the viewer has a decision to make, the
  controls for it (`[data-phone="controls"]`, every visible one) lie wholly on screen;
- every tap target a player can use (buttons, links, inputs, legal-move targets with
  role=button) in the page header and the table is at least 40x40 px. A target scrolled
  out of a panning board still counts: it has to be big enough once panned into view.

(Named phone, not layout, because tests have no __init__ files and pytest's rootdir
imports need helper module names that are unique across the whole tests tree.)
"""

from __future__ import annotations

import contextlib
from typing import Any

PHONE = {"width": 390, "height": 844}
MIN_TAP_PX = 40

_MEASURE = """
({ minTap, wantControls }) => {
  window.scrollTo(0, 0);
  const problems = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  if (document.documentElement.scrollWidth > vw + 1) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px wide`);
  }
  const shown = (el) => {
    if (!el.getClientRects().length) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none";
  };
  const describe = (el) => {
    const id = el.dataset.testid || el.id || el.getAttribute("aria-label") || el.textContent.trim();
    return `${el.tagName.toLowerCase()} "${(id || "").slice(0, 40)}"`;
  };
  const onScreen = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.top < -1 || r.left < -1 || r.bottom > vh + 1 || r.right > vw + 1) {
      const at = [r.top, r.bottom, r.left, r.right].map(Math.round).join("/");
      problems.push(`${what} ${describe(el)} is off screen (top/bottom/left/right ${at})`);
    }
  };
  const boards = [...document.querySelectorAll('[data-phone="board"]')].filter(shown);
  if (!boards.length) problems.push('no board ([data-phone="board"]) is shown');
  boards.forEach((el) => onScreen(el, "the board"));
  const controls = [...document.querySelectorAll('[data-phone="controls"]')].filter(shown);
  if (wantControls && !controls.length) {
    problems.push('no controls ([data-phone="controls"]) are shown');
  }
  controls.forEach((el) => onScreen(el, "the controls"));
  const targets = document.querySelectorAll(
    '.site-header a[href], .site-header button, .match-head button, #game-view button, ' +
    '#game-view a[href], #game-view input:not([type="hidden"]), #game-view select, ' +
    '#game-view [role="button"]');
  for (const el of targets) {
    if (!shown(el) || el.disabled || el.getAttribute("aria-disabled") === "true") continue;
    if (el.getAttribute("role") === "button" && el.getAttribute("tabindex") === "-1") continue;
    const r = el.getBoundingClientRect();
    // A checkbox or radio is tapped through its label, which is measured instead.
    const label = (el.type === "checkbox" || el.type === "radio") && el.labels && el.labels[0];
    const box = label ? label.getBoundingClientRect() : r;
    if (box.width + 0.5 < minTap || box.height + 0.5 < minTap) {
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      problems.push(`tap target ${describe(el)} is ${size} px`);
    }
  }
  return problems;
}
"""


def phone_table_problems(page: Any, *, controls: bool = True) -> list[str]:
    """What keeps this match page from being phone first (see the module docstring); empty
    when nothing does. `controls`: the viewer has a decision to make now."""
    return list(page.evaluate(_MEASURE, {"minTap": MIN_TAP_PX, "wantControls": controls}))


def assert_phone_table(page: Any, *, controls: bool = True, timeout_ms: float = 10_000) -> None:
    """Waits (up to `timeout_ms`) for the page to settle into a phone-first layout, the way
    `expect` waits for an element: a board still being drawn or a banner still being measured
    is not a failure yet. Fails listing what is still wrong."""
    from playwright.sync_api import Error as PlaywrightError

    arg = {"minTap": MIN_TAP_PX, "wantControls": controls}
    settled = f"(arg) => ({_MEASURE})(arg).length === 0"
    with contextlib.suppress(PlaywrightError):  # reported below with the details
        page.wait_for_function(settled, arg=arg, timeout=timeout_ms)
    problems = phone_table_problems(page, controls=controls)
    assert not problems, "not phone first:\n  " + "\n  ".join(problems)
