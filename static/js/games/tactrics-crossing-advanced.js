// Tactrics: Crossing Advanced (rulebook "#2", ruling V7). The board, the turning towers and
// the turn controls are shared by the four Tactrics games (static/js/tactrics/renderer.js).

import { createTactricsRenderer } from "../tactrics/renderer.js";

export function createRenderer(root, ctx) {
  return createTactricsRenderer(root, ctx, { mode: "crossing-advanced" });
}
