// Words and geometry every C64 Board game shares: faces, sides, colours, squares.
// Seats sit at compass sides (ruling C2); faces are seat-relative, directions absolute.

export const FACE_NAMES = {
  up: "Up", down: "Down", left: "Left", right: "Right",
  left_button: "Left Button", right_button: "Right Button",
};
export const FACE_SHORT = {
  up: "Up", down: "Down", left: "Left", right: "Right",
  left_button: "L-Button", right_button: "R-Button",
};
export const SCREEN_ARROWS = { up: "↑", down: "↓", left: "←", right: "→" };
export const BUTTON_ICONS = { left_button: "L", right_button: "R" }; // drawn as round buttons (.btn-ico)
export const DIR_WORDS = { N: "north", E: "east", S: "south", W: "west" };
export const SIDE_WORDS = { N: "North", E: "East", S: "South", W: "West" };

export const COLORS = { red: "#e9564b", blue: "#5b8cff", green: "#53c35c", yellow: "#f2cf3a" };
export const SIDE_COLORS = { S: "red", W: "blue", N: "green", E: "yellow" };
// Every piece and swatch carries its colour's letter as well, for colour-blind players (and
// the event log names players by colour: "Green moves south").
export const COLOR_LETTERS = { red: "R", blue: "B", green: "G", yellow: "Y" };

const SIDE_UP = { S: "N", W: "E", N: "S", E: "W" };
const CW = { N: "E", E: "S", S: "W", W: "N" };
const CCW = { N: "W", W: "S", S: "E", E: "N" };
const OPP = { N: "S", S: "N", E: "W", W: "E" };

export function isDirectionFace(face) {
  return face === "up" || face === "down" || face === "left" || face === "right";
}

/** The absolute direction a seat-relative face moves, e.g. ("N", "up") -> "S"; null for buttons. */
export function faceToDir(side, face) {
  const up = SIDE_UP[side || "S"];
  switch (face) {
    case "up": return up;
    case "down": return OPP[up];
    case "left": return CCW[up];
    case "right": return CW[up];
    default: return null;
  }
}

/** Where an absolute direction points on screen when `viewSide` sits at the bottom. */
export function dirToScreen(dir, viewSide = "S") {
  for (const face of ["up", "down", "left", "right"]) {
    if (faceToDir(viewSide, face) === dir) return face;
  }
  return "up";
}

export function capitalize(word) {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
}

/** "a1" -> [file 0..7, rank 0..7] */
export function parseSquare(square) {
  if (typeof square !== "string" || square.length < 2) return null;
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square.slice(1)) - 1;
  if (file < 0 || file > 7 || !(rank >= 0 && rank <= 7)) return null;
  return [file, rank];
}

export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

/** The neighbouring square in an absolute direction, or null off the board. */
export function stepSquare(square, dir) {
  const pos = parseSquare(square);
  if (!pos || !dir) return null;
  const [file, rank] = pos;
  const delta = { N: [0, 1], S: [0, -1], E: [1, 0], W: [-1, 0] }[dir];
  const f = file + delta[0];
  const r = rank + delta[1];
  if (f < 0 || f > 7 || r < 0 || r > 7) return null;
  return squareName(f, r);
}

export function oppositeDir(dir) {
  return OPP[dir] || null;
}

export function sameCell(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && a[1] === b[1];
}

export function cellKey(cell) {
  return `${cell[0]},${cell[1]}`;
}

// --- grid points (Snakes and Trains move on the 9x9 points between squares) ---------------
const POINT_STEP = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
const POINT_MAX = 8;

/** The neighbouring grid point in absolute direction `dir`, or null off the board. */
export function stepPoint(p, dir) {
  const [dx, dy] = POINT_STEP[dir];
  const x = p[0] + dx;
  const y = p[1] + dy;
  return x >= 0 && x <= POINT_MAX && y >= 0 && y <= POINT_MAX ? [x, y] : null;
}

export function pointText(p) { return `(${p[0]},${p[1]})`; }

export function samePoint(a, b) { return Boolean(a && b) && a[0] === b[0] && a[1] === b[1]; }

/** The segment between two points as [x1, y1, x2, y2], smaller end first: one name for it
 * whichever way it was walked. */
export function segmentEnds(a, b) {
  return a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]) ? [a[0], a[1], b[0], b[1]] : [b[0], b[1], a[0], a[1]];
}

export function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }
