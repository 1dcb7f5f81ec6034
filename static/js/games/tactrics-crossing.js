// Tactrics: Crossing (rulebook "#1 Crossing", rulings V2-V6). The board, the turning towers and
// the turn controls are shared by the four Tactrics games (static/js/tactrics/renderer.js).

import { createTactricsRenderer } from "../tactrics/renderer.js";

export function createRenderer(root, ctx) {
  return createTactricsRenderer(root, ctx, { mode: "crossing" });
}
