// Tank Skirmish geometry for the client: cell names (K1), distance and dice (K4), the chance
// to hit, the energy bolt's line (K7) and paths through the reachable cells. The server is
// the judge; these only preview what a move will do.

export const SIZE = 15;
export const COLUMNS = "ABCDEFGHIJKLMNO";
export const MAX_DICE = 10;

export function parseCell(name) {
  const x = COLUMNS.indexOf(name[0]);
  const y = Number(name.slice(1)) - 1;
  return [x, y];
}

export function onBoard(x, y) {
  return x >= 0 && x < SIZE && y >= 0 && y < SIZE;
}

export function cellName(x, y) {
  return onBoard(x, y) ? `${COLUMNS[x]}${y + 1}` : `off the board`;
}

export function distance(a, b) {
  const dx = Math.abs(a[0] - b[0]);
  const dy = Math.abs(a[1] - b[1]);
  return Math.max(dx, dy) + Math.floor(Math.min(dx, dy) / 2);
}

export function diceCount(dist, { stationary, triangulating }) {
  return Math.min(MAX_DICE, dist - (stationary ? 2 : 0) + (triangulating ? 2 : 0));
}

/** Chance to hit with n dice: automatic below 1 die, else no die may show a 1. */
export function hitChance(n) {
  return n < 1 ? 1 : (5 / 6) ** n;
}

export function percent(p) {
  return `${Math.round(p * 100)}%`;
}

/** K7: cells crossed by the segment between two cell centres, without the start; a corner
 * crossing steps diagonally (the two corner-touching cells do not count). */
export function boltPath(start, end) {
  let [x, y] = start;
  const [x1, y1] = end;
  const dx = x1 - x;
  const dy = y1 - y;
  const sx = Math.sign(dx);
  const sy = Math.sign(dy);
  const adx = Math.abs(dx);
  const ady = Math.abs(dy);
  let i = 0;
  let j = 0;
  const path = [];
  while (x !== x1 || y !== y1) {
    let crossX;
    let crossY;
    if (ady === 0) { crossX = true; crossY = false; }
    else if (adx === 0) { crossX = false; crossY = true; }
    else {
      const left = (2 * i + 1) * ady;
      const right = (2 * j + 1) * adx;
      crossX = left <= right;
      crossY = right <= left;
    }
    if (crossX) { x += sx; i += 1; }
    if (crossY) { y += sy; j += 1; }
    path.push([x, y]);
  }
  return path;
}

/** What stands where: {name: {kind, tank}} from the board view. */
export function occupancy(board) {
  const occ = new Map();
  for (const w of board.walls || []) occ.set(w, { kind: "wall" });
  for (const p of board.pools || []) occ.set(p, { kind: "pool" });
  for (const g of board.gaps || []) occ.set(g, { kind: "gap" });
  (board.tanks || []).forEach((t, index) => {
    if (t.cell) occ.set(t.cell, { kind: t.destroyed ? "wreck" : "tank", tank: index });
  });
  return occ;
}

const SQUEEZE = new Set(["wall", "pool", "tank", "wreck"]);

function squeezeClear(occ, a, b, ignore) {
  if (a[0] === b[0] || a[1] === b[1]) return true;
  for (const [x, y] of [[a[0], b[1]], [b[0], a[1]]]) {
    if (!onBoard(x, y)) return false;
    const name = cellName(x, y);
    if (name === ignore) continue;
    const what = occ.get(name);
    if (what && SQUEEZE.has(what.kind)) return false;
  }
  return true;
}

/** The steps from `from` to `to` through the reachable cells (server's costs), or null. */
export function pathTo(board, from, to) {
  const reach = new Map((board.reach || []).map(([cell, cost]) => [cell, cost]));
  reach.set(from, 0);
  const occ = occupancy(board);
  const path = [];
  let here = to;
  let guard = 0;
  while (here !== from && guard++ < 20) {
    const cost = reach.get(here);
    if (cost === undefined) return null;
    const [x, y] = parseCell(here);
    let back = null;
    for (let dx = -1; dx <= 1 && !back; dx += 1) {
      for (let dy = -1; dy <= 1 && !back; dy += 1) {
        if (!dx && !dy) continue;
        const nx = x + dx;
        const ny = y + dy;
        if (!onBoard(nx, ny)) continue;
        const name = cellName(nx, ny);
        const step = dx && dy ? 3 : 2;
        if (reach.get(name) === cost - step && squeezeClear(occ, [nx, ny], [x, y], from)) back = name;
      }
    }
    if (!back) return null;
    path.unshift(here);
    here = back;
  }
  return path;
}
