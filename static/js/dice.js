// One six-sided die drawn in SVG, shared by the replay page and the game renderers.

import { svg } from "./ui.js";

const PIPS = {
  1: [[12, 12]],
  2: [[7, 7], [17, 17]],
  3: [[7, 7], [12, 12], [17, 17]],
  4: [[7, 7], [17, 7], [7, 17], [17, 17]],
  5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]],
  6: [[7, 6.5], [17, 6.5], [7, 12], [17, 12], [7, 17.5], [17, 17.5]],
};

export function hasPips(face) {
  return Number.isInteger(face) && Boolean(PIPS[face]);
}

/** A die showing `face` (1-6); `attrs` adds to or overrides the defaults (class, test id...). */
export function pipDie(face, attrs = {}) {
  return svg("svg", {
    class: "die", viewBox: "0 0 24 24", role: "img", "aria-label": `die showing ${face}`,
    "data-testid": "die", "data-face": face, ...attrs,
  },
  svg("rect", { x: 1.5, y: 1.5, width: 21, height: 21, rx: 5, class: "die-body" }),
  ...PIPS[face].map(([cx, cy]) => svg("circle", { cx, cy, r: 2.2, class: "die-pip" })));
}
