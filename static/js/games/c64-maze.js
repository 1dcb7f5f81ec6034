// C64 Maze: walk your adventurer through the maze to your opposite corner; buttons push and
// pull walls in your latest direction (rulebook "C64 Maze", rulings C4 and C7, map Z).
// The joystick table is shared with every C64 game (static/js/c64/table.js); this module
// draws the maze: walls, adventurers with their latest direction, goal corners.
// Rules-page diagrams mark squares, joystick cards and spaces through the shared
// table's highlight(marks) (see the top of static/js/c64/table.js and docs/c64-view.md).

import { createC64Table } from "../c64/table.js";
import { DIR_WORDS, capitalize, faceToDir, oppositeDir, parseSquare, stepSquare } from "../c64/common.js";

function wallSet(board) {
  return new Set((board.walls || []).map((w) => (typeof w === "string" ? w : w.square)));
}

function occupied(board, square) {
  return (board.players || []).some((p) => p && p.square === square);
}

const CORNERS = new Set(["a1", "a8", "h1", "h8"]);

/** What a face does for this player right now, in words (shown in the face chooser). */
function faceHelp(face, p) {
  if (!p) return "";
  const latest = p.latest || faceToDir(p.side, "up");
  if (face === "left_button") return `push the wall ${DIR_WORDS[latest]} of you one square further`;
  if (face === "right_button") return `pull the wall ${DIR_WORDS[latest]} of you as you step ${DIR_WORDS[oppositeDir(latest)]}`;
  return `move 1 square ${DIR_WORDS[faceToDir(p.side, face)]}`;
}

/** Board highlights for the selected card: where it will go, or why it will not. */
function preview(board, seat, face) {
  const p = board.players?.[seat];
  if (!p || !p.square) return [];
  const walls = wallSet(board);
  const latest = p.latest || faceToDir(p.side, "up");
  if (face === "left_button") {
    const wall = stepSquare(p.square, latest);
    if (!wall || !walls.has(wall)) return wall ? [{ square: wall, kind: "blocked" }] : [];
    const to = stepSquare(wall, latest);
    const ok = to && !walls.has(to) && !occupied(board, to) && !CORNERS.has(to);
    return [{ square: wall, kind: "hint" }, ...(to ? [{ square: to, kind: ok ? "target" : "blocked" }] : [])];
  }
  if (face === "right_button") {
    const wall = stepSquare(p.square, latest);
    const back = stepSquare(p.square, oppositeDir(latest));
    if (!wall || !walls.has(wall)) return wall ? [{ square: wall, kind: "blocked" }] : [];
    const ok = back && !walls.has(back) && !occupied(board, back) && !CORNERS.has(p.square);
    return [{ square: wall, kind: "hint" }, ...(back ? [{ square: back, kind: ok ? "target" : "blocked" }] : [])];
  }
  const dir = faceToDir(p.side, face);
  const to = stepSquare(p.square, dir);
  if (!to) return [];
  const ok = !walls.has(to) && !occupied(board, to);
  return [{ square: to, kind: ok ? "target" : "blocked" }];
}

function drawBoard(grid, board, { you, colorCss, colorLetter, seatName }) {
  grid.setWalls(board.walls || []);
  const players = (board.players || []).filter(Boolean);
  grid.setMarkers(players.filter((p) => p.goal).map((p) => ({
    id: `goal-${p.seat}`, square: p.goal, color: colorCss(p.seat), kind: "goal",
    label: "GOAL", mine: p.seat === you,
  })));
  grid.setPieces(players.filter((p) => p.square).map((p) => ({
    id: `adventurer-${p.seat}`,
    square: p.square,
    fill: colorCss(p.seat),
    label: colorLetter(p.seat),
    dir: p.latest || faceToDir(p.side, "up"),
    mine: p.seat === you,
    title: `${capitalize(p.color)} adventurer (${seatName(p.seat)}) on ${p.square}, facing ${DIR_WORDS[p.latest] || "ahead"}; goal ${p.goal}`,
  })));
  grid.setDescription(
    `C64 Maze board. ${players.map((p) => `${capitalize(p.color)} (${seatName(p.seat)}) on ${p.square}, goal ${p.goal}`).join(". ")}. ` +
    `${(board.walls || []).length} walls.`,
  );
}

function dirBetween(from, to) {
  const a = parseSquare(from);
  const b = parseSquare(to);
  if (!a || !b) return null;
  if (b[1] > a[1]) return "N";
  if (b[1] < a[1]) return "S";
  if (b[0] > a[0]) return "E";
  if (b[0] < a[0]) return "W";
  return null;
}

function onEvents(grid, events, board) {
  for (const event of events) {
    if (event.type === "blocked" && event.seat !== undefined) {
      const p = board.players?.[event.seat];
      grid.bump(`adventurer-${event.seat}`, event.direction || dirBetween(event.from, event.to) || p?.latest);
    }
  }
}

function legend(board, { you }) {
  const p = you !== null ? board.players?.[you] : null;
  if (!p) return "Reach your opposite corner first.";
  return `You: ${capitalize(p.color)} on ${p.square}. Goal: ${p.goal}.`;
}

export function createRenderer(root, ctx) {
  return createC64Table(root, ctx, {
    boardLabel: "C64 Maze board",
    drawBoard,
    onEvents,
    preview,
    faceHelp,
    legend,
  });
}
