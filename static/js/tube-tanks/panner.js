// A zoomed Zone on a phone is wider and taller than its viewport (cells big enough to tap):
// this keeps what the current decision is about in sight. It pans when the decision changes
// (a new turn, mode or picked cell) or the viewport changes size, never while the player is
// looking around by hand otherwise.

import { SIZE, parseCell } from "./geometry.js";
import { CELL, MARGIN, centre } from "./zone-svg.js";

const FULL = MARGIN * 2 + CELL * SIZE; // the Zone's viewBox side

/** createPanner(viewport, focus() -> {zone: <svg>, flipped, cells: [names, most important
 * first]}) -> {follow(key), focus(), destroy()} */
export function createPanner(viewport, getFocus) {
  let followed = null;

  function pannable() {
    return viewport.scrollWidth > viewport.clientWidth + 1 || viewport.scrollHeight > viewport.clientHeight + 1;
  }

  /** Centre on the largest group of the focus cells (taken in order) that fits in view. */
  function focus() {
    const { zone, flipped, cells } = getFocus();
    if (!zone || !cells.length || !pannable()) return;
    const box = zone.getBoundingClientRect();
    const port = viewport.getBoundingClientRect();
    const scale = box.width / FULL;
    const left = box.left - port.left - viewport.clientLeft + viewport.scrollLeft;
    const top = box.top - port.top - viewport.clientTop + viewport.scrollTop;
    const room = [viewport.clientWidth - 2 * CELL * scale, viewport.clientHeight - 2 * CELL * scale];
    let lo = null;
    let hi = null;
    for (const cell of cells) {
      const [cx, cy] = centre(parseCell(cell), flipped);
      const p = [left + cx * scale, top + cy * scale];
      const nextLo = lo ? [Math.min(lo[0], p[0]), Math.min(lo[1], p[1])] : p;
      const nextHi = hi ? [Math.max(hi[0], p[0]), Math.max(hi[1], p[1])] : p;
      if (lo && (nextHi[0] - nextLo[0] > room[0] || nextHi[1] - nextLo[1] > room[1])) continue;
      lo = nextLo;
      hi = nextHi;
    }
    viewport.scrollLeft = (lo[0] + hi[0]) / 2 - viewport.clientWidth / 2;
    viewport.scrollTop = (lo[1] + hi[1]) / 2 - viewport.clientHeight / 2;
  }

  // The stylesheet arriving, banners coming and going, the controls growing: pan again.
  const sizes = new ResizeObserver(() => focus());
  sizes.observe(viewport);
  sizes.observe(viewport.firstElementChild || viewport);

  return {
    focus,
    follow(key) {
      if (key === followed) return;
      followed = key;
      focus();
    },
    destroy() { sizes.disconnect(); },
  };
}
