// C64 Snakes: grow your snake across the grid points; bite an opponent's tail to capture a
// segment, catch her head to win; buttons take segments back (rulebook "C64 Snakes", rulings
// C2-C4, C10). The joystick table is shared with every C64 game (static/js/c64/table.js);
// this module draws the snakes (segments, tail marks, heads) on the grid points and a panel
// with each snake's length, supply and captures, which becomes the final count at the end.
// Rules-page diagrams mark grid points, segments, joystick cards and spaces through the shared
// table's highlight(marks) (see the top of static/js/c64/table.js and docs/c64-view.md).

import { createC64Table } from "../c64/table.js";
import {
  DIR_WORDS, capitalize, faceToDir, isDirectionFace, plural, pointText, samePoint, segmentEnds, stepPoint,
} from "../c64/common.js";
import { fill, h, svg } from "../ui.js";

const pt = pointText;
/** A segment's id key, the same whichever way it is written. */
function segKey(a, b) { return segmentEnds(a, b).join(","); }
function players(board) { return (board.players || []).filter(Boolean); }
function tailOf(p) { return p.snake[p.snake.length - 1]; }

/** What moving `seat`'s head to `to` would do: "edge", "head" (capture, win), "tail"
 *  (capture a segment), "body" (blocked) or "free". */
function moveResult(board, seat, to) {
  if (!to) return "edge";
  for (const p of players(board)) {
    if (p.seat === seat) continue;
    if (samePoint(p.snake[0], to)) return "head";
    if (p.snake.length > 1 && samePoint(tailOf(p), to)) return "tail";
  }
  for (const p of players(board)) {
    if (p.snake.length > 1 && p.snake.some((q) => samePoint(q, to))) return "body";
  }
  return "free";
}

/** What a face does for this player right now, in words (shown in the face chooser). */
function faceHelp(face, p) {
  if (!p) return "";
  if (isDirectionFace(face)) return `move your head 1 grid point ${DIR_WORDS[faceToDir(p.side, face)]} and lay a segment`;
  if (!p.segments) return "take a segment back (you have none)";
  return face === "left_button" ? "take back the segment at your head; the head moves back" : "take back your tail segment";
}

/** Board highlights for the selected card: where the head goes, what a button takes back. */
function preview(board, seat, face) {
  const p = board.players?.[seat];
  if (!p || !p.snake) return [];
  const head = p.snake[0];
  if (face === "left_button" || face === "right_button") {
    if (p.snake.length < 2) return [{ point: head, kind: "blocked" }];
    if (face === "left_button") return [{ segment: [head, p.snake[1]], kind: "hint" }, { point: p.snake[1], kind: "target" }];
    return [{ segment: [p.snake[p.snake.length - 2], tailOf(p)], kind: "hint" }, { point: tailOf(p), kind: "hint" }];
  }
  const to = stepPoint(head, faceToDir(p.side, face));
  const result = moveResult(board, seat, to);
  if (result === "edge") return [{ point: head, kind: "blocked" }];
  if (result === "body") return [{ point: to, kind: "blocked" }];
  return [{ segment: [head, to], kind: "target" }, { point: to, kind: "target", r: result === "free" ? 21 : 25 }];
}

function createScorePanel() {
  const title = h("h3", {});
  const note = h("p", { class: "small muted", "data-testid": "snakes-note" });
  const body = h("tbody", {});
  const panel = h("section", { class: "panel snakes-score", "data-testid": "snakes-score", "aria-label": "Snakes score" },
    title, note,
    h("table", { class: "snakes-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col", class: "num", title: "segments on the board: the longest snake wins" }, "Length"),
        h("th", { scope: "col", class: "num", title: "sticks left to lay: the game ends when someone lays her last" }, "Sticks left"),
        h("th", { scope: "col", class: "num", title: "opponent segments captured (the tie-break)" }, "Captured"))),
      body));

  function update(board, { swatch, lineSample, seatLabel, outcome }) {
    const order = (board.order || []).map((s) => board.players?.[s]).filter(Boolean);
    const over = board.phase === "over";
    const winners = new Set(over ? (outcome?.winners || []) : []);
    panel.dataset.phase = board.phase || "";
    title.textContent = over ? "Final count" : "Snakes";
    if (over) {
      note.textContent = outcome?.reason || "The game is over.";
    } else {
      const low = Math.min(...order.map((p) => p.supply));
      note.textContent = `The game ends when a player lays her last stick (fewest left: ${low}); the longest snake then wins, a tie goes to the most captured segments. Catching a head wins at once.`;
    }
    fill(body, order.map((p) => h("tr", {
      "data-testid": "snakes-score-row", "data-seat": p.seat,
      class: !over && board.turn === p.seat ? "to-move" : (winners.has(p.seat) ? "winner" : ""),
    },
    h("th", { scope: "row" }, swatch(p.seat), lineSample(p.seat), ` ${seatLabel(p.seat)}`),
    h("td", { class: "num", "data-testid": "snakes-length" }, String(p.segments)),
    h("td", { class: "num", "data-testid": "snakes-supply" }, String(p.supply)),
    h("td", { class: "num", "data-testid": "snakes-captured" }, String(p.captured)),
    )));
  }
  return { panel, update };
}

function drawBoard(grid, board, { you, colorCss, colorLetter, seatName }) {
  const all = players(board);
  const color = (seat) => capitalize(board.players?.[seat]?.color);
  const segments = [];
  for (const p of all) {
    for (let i = 0; i + 1 < p.snake.length; i += 1) {
      const a = p.snake[i];
      const b = p.snake[i + 1];
      segments.push({
        id: `snake-${p.seat}-${segKey(a, b)}`, a, b, stroke: colorCss(p.seat), width: 9,
        cls: `snakes-seg c64-line-${p.color}${i === p.snake.length - 2 ? " snakes-seg-tail" : ""}`,
        title: `${color(p.seat)} snake, segment ${i + 1} of ${p.snake.length - 1}`,
      });
    }
  }
  grid.setSegments(segments);
  const points = [];
  for (const p of all) {
    if (p.snake.length < 2) continue;
    const tail = tailOf(p);
    points.push({
      id: `tail-${p.seat}`, gx: tail[0], gy: tail[1], r: 7, fill: colorCss(p.seat), cls: "snakes-tail",
      title: `${color(p.seat)} tail at ${pt(tail)}: an opponent moving here captures a segment`,
    });
  }
  for (const p of all) {
    const head = p.snake[0];
    points.push({
      id: `head-${p.seat}`, gx: head[0], gy: head[1], r: 14, fill: colorCss(p.seat), cls: "snakes-head",
      label: colorLetter(p.seat), mine: p.seat === you,
      title: `${color(p.seat)} head (${seatName(p.seat)}) at ${pt(head)}: ${plural(p.segments, "segment")}, ${p.supply} sticks left, ${p.captured} captured`,
    });
  }
  grid.setPoints(points);
  grid.setDescription(
    `C64 Snakes board. ${all.map((p) => `${color(p.seat)} (${seatName(p.seat)}) head at ${pt(p.snake[0])}, ${plural(p.segments, "segment")}, ${p.supply} sticks left, ${p.captured} captured`).join(". ")}.`,
  );
}

function restart(el, cls, ms) {
  if (!el) return;
  el.classList.remove(cls);
  el.getBoundingClientRect();
  el.classList.add(cls);
  setTimeout(() => el.classList.remove(cls), ms);
}

/** A fading copy of a segment that just left the board (taken back or bitten off). */
function ghost(grid, seg, stroke) {
  const layer = grid.svg.querySelector(".layer-segments");
  if (!layer || !seg) return;
  const a = grid.pointXY(seg[0], seg[1]);
  const b = grid.pointXY(seg[2], seg[3]);
  const line = svg("line", { class: "seg snakes-ghost", x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke });
  layer.append(line);
  setTimeout(() => line.remove(), 800);
}

function createOnEvents(colorOf) {
  return function onEvents(grid, events) {
    for (const event of events) {
      if (event.type === "blocked" && event.seat !== undefined) {
        grid.bump(`head-${event.seat}`, event.direction);
      } else if (event.type === "move") {
        const el = grid.segmentElement(`snake-${event.seat}-${segKey(event.from, event.to)}`);
        if (el) {
          // Draw the new segment from the old head point toward the new one.
          const [x1, y1] = [Number(el.getAttribute("x1")), Number(el.getAttribute("y1"))];
          const from = grid.pointXY(event.from[0], event.from[1]);
          const fromStart = Math.abs(from.x - x1) + Math.abs(from.y - y1) < 1;
          el.setAttribute("pathLength", "1");
          el.style.setProperty("--from", fromStart ? "1" : "-1");
          restart(el, "snakes-seg-new", 600);
          setTimeout(() => el.removeAttribute("pathLength"), 650);
        }
        if (event.capture === "tail") {
          ghost(grid, event.taken, colorOf(event.victim));
          restart(grid.pointElement(`head-${event.seat}`), "snakes-bite", 700);
        } else if (event.capture === "head") {
          restart(grid.pointElement(`head-${event.victim}`), "snakes-caught", 1400);
          restart(grid.pointElement(`head-${event.seat}`), "snakes-bite", 700);
        }
      } else if (event.type === "retract") {
        ghost(grid, event.segment, colorOf(event.seat));
      } else if (event.type === "no_segments") {
        restart(grid.pointElement(`head-${event.seat}`), "snakes-bite", 700);
      }
    }
  };
}

function legend(board, { you }) {
  const p = you !== null ? board.players?.[you] : null;
  if (!p) return "Bite a tail to capture a segment; catch a head to win.";
  return `You: ${capitalize(p.color)} head at ${pt(p.snake[0])} · ${plural(p.segments, "segment")} · ${p.supply} sticks left · ${p.captured} captured.`;
}

export function createRenderer(root, ctx) {
  const score = createScorePanel();
  let colorCss = () => "#fff";
  const table = createC64Table(root, ctx, {
    boardLabel: "C64 Snakes board",
    drawBoard(grid, board, drawCtx) {
      colorCss = drawCtx.colorCss;
      drawBoard(grid, board, drawCtx);
      score.update(board, { ...drawCtx, outcome: drawCtx.state?.outcome });
    },
    onEvents: createOnEvents((seat) => colorCss(seat)),
    preview,
    faceHelp,
    legend,
  });
  (root.querySelector(".c64-board-info") || root).append(score.panel);
  table.grid.svg.classList.add("snakes-board");
  table.grid.showGridPoints();
  return table;
}
