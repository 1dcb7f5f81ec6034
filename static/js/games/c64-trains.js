// C64 Trains: drive your train over the grid points laying rails, build stations, and score
// for every opponent rail that ends at a station (rulebook "C64 Trains", rulings C2-C4, C9).
// The joystick table is shared with every C64 game (static/js/c64/table.js); this module
// draws the rails (side by side where colours share a segment), stations (squares) and
// trains (discs) on the grid points, and a score panel with supplies, VP and the final count.
// Rules-page diagrams mark grid points, segments, joystick cards and spaces through the shared
// table's highlight(marks) (see the top of static/js/c64/table.js and docs/c64-view.md).

import { createC64Table } from "../c64/table.js";
import {
  DIR_WORDS, capitalize, faceToDir, isDirectionFace, plural, pointText, samePoint, segmentEnds, stepPoint,
} from "../c64/common.js";
import { fill, h } from "../ui.js";

const pt = pointText;
/** The canonical rail [x1, y1, x2, y2] between two neighbouring points (smaller end first). */
const rail = segmentEnds;
function railKey(r) { return r.join(","); }
function railText(r) { return `${pt(r.slice(0, 2))}-${pt(r.slice(2))}`; }

function players(board) { return (board.players || []).filter(Boolean); }
function trainAt(board, point) { return players(board).find((p) => samePoint(p.point, point)) || null; }
function stationAt(board, point) {
  for (const p of players(board)) if ((p.stations || []).some((s) => samePoint(s, point))) return p;
  return null;
}
function hasRail(p, r) { return (p.rails || []).some((x) => railKey(x) === railKey(r)); }

/** What a face does for this player right now, in words (shown in the face chooser). */
function faceHelp(face, p) {
  if (!p) return "";
  if (isDirectionFace(face)) return `drive 1 grid point ${DIR_WORDS[faceToDir(p.side, face)]} and lay a rail`;
  return p.stations_left > 0 ? `build a station where your train stands (${p.stations_left} left)` : "build a station (none left)";
}

/** Board highlights for the selected card: where the train goes, or why it cannot. */
function preview(board, seat, face) {
  const p = board.players?.[seat];
  if (!p || !p.point) return [];
  if (!isDirectionFace(face)) {
    const ok = p.stations_left > 0 && !stationAt(board, p.point);
    return [{ point: p.point, kind: ok ? "target" : "blocked" }];
  }
  const to = stepPoint(p.point, faceToDir(p.side, face));
  if (!to) return [{ point: p.point, kind: "blocked" }];
  const other = trainAt(board, to);
  if (other && other.seat !== seat) return [{ point: to, kind: "blocked" }];
  const r = rail(p.point, to);
  return [
    { segment: [r.slice(0, 2), r.slice(2)], kind: hasRail(p, r) || p.rails_left <= 0 ? "hint" : "target" },
    { point: to, kind: "target" },
  ];
}

function createScorePanel() {
  const title = h("h3", {});
  const note = h("p", { class: "small", "data-testid": "trains-note" });
  const body = h("tbody", {});
  const summary = h("summary", {});
  const list = h("ul", {});
  const contacts = h("details", { class: "trains-connections", "data-testid": "trains-connections" }, summary, list);
  const empty = h("p", { class: "small muted" }, "No station has a rail of another colour yet.");
  const panel = h("section", { class: "panel trains-score", "data-testid": "trains-score", "aria-label": "Trains score" },
    title, note,
    h("table", { class: "trains-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col", class: "num", title: "victory points if the game ended now" }, "VP"),
        h("th", { scope: "col", class: "num", title: "rails on the board (the first tie-break)" }, "Rails laid"),
        h("th", { scope: "col", class: "num", title: "rails left in supply" }, "Rails left"),
        h("th", { scope: "col", class: "num", title: "stations left in supply" }, "Stations left"))),
      body),
    contacts, empty);
  let wasOver = false;

  function update(board, { swatch, lineSample, seatLabel }) {
    const color = (seat) => capitalize(board.players?.[seat]?.color);
    const order = (board.order || []).map((s) => board.players?.[s]).filter(Boolean);
    const over = board.phase === "over";
    const final = board.final;
    const pairs = board.connections || [];
    const winners = new Set(over ? (board.winners || []) : []);
    panel.dataset.phase = board.phase || "";
    title.textContent = over ? "Final scoring" : "Score";
    note.className = `small ${final && !over ? "trains-final-note" : "muted"}`;
    if (over) {
      note.textContent = "The last rail is down. Each contact below scored 1 VP for the station's owner and 1 for the rail's owner; a tie goes to the most rails laid.";
    } else if (final) {
      note.textContent = `${color(final.ender)} has laid her last rail: ${plural(final.turns_left, "last turn")} to go, then the final count.`;
    } else {
      note.textContent = "A rail of another colour ending at a station scores 1 VP for the station's owner and 1 for the rail's owner.";
    }
    fill(body, order.map((p) => {
      const mine = pairs.filter((c) => c.station === p.seat).length;
      const theirs = pairs.filter((c) => c.rail === p.seat).length;
      return h("tr", { "data-testid": "trains-score-row", "data-seat": p.seat, class: !over && board.turn === p.seat ? "to-move" : (winners.has(p.seat) ? "winner" : "") },
        h("th", { scope: "row" }, swatch(p.seat), lineSample(p.seat), ` ${seatLabel(p.seat)}`),
        h("td", { class: "num", "data-testid": "trains-vp", title: `${mine} at your stations + ${theirs} with your rails` }, String(p.vp ?? 0)),
        h("td", { class: "num" }, String(p.rails_laid)),
        h("td", { class: "num" }, String(p.rails_left)),
        h("td", { class: "num" }, String(p.stations_left)),
      );
    }));
    contacts.hidden = pairs.length === 0;
    empty.hidden = pairs.length > 0;
    summary.textContent = `${plural(pairs.length, "scoring contact")} (station + rail of another colour)`;
    fill(list, pairs.map((c) => h("li", { "data-testid": "trains-connection" },
      swatch(c.station), ` ${color(c.station)} station ${pt(c.point)} + `,
      swatch(c.rail), ` ${color(c.rail)} rail ${railText(c.segment)} `,
      h("span", { class: "muted" }, `→ +1 ${color(c.station)}, +1 ${color(c.rail)}`),
    )));
    if (over && !wasOver) contacts.open = true; // the final breakdown opens by itself once
    wasOver = over;
  }
  return { panel, update };
}

function drawBoard(grid, board, { you, colorCss, colorLetter, seatName }) {
  const all = players(board);
  const color = (seat) => capitalize(board.players?.[seat]?.color);
  // Rails: where colours share a segment, draw them side by side.
  const bySegment = new Map();
  for (const p of all) for (const r of p.rails || []) {
    const key = railKey(r);
    if (!bySegment.has(key)) bySegment.set(key, { rail: r, seats: [] });
    bySegment.get(key).seats.push(p.seat);
  }
  const scoring = new Set((board.connections || []).map((c) => `${c.rail}|${railKey(c.segment)}`));
  const segments = [];
  for (const [key, { rail: r, seats }] of bySegment) {
    seats.sort((a, b) => a - b);
    const k = seats.length;
    seats.forEach((seat, i) => {
      const scores = scoring.has(`${seat}|${key}`);
      segments.push({
        id: `rail-${seat}-${key}`, a: r.slice(0, 2), b: r.slice(2), stroke: colorCss(seat),
        offset: (i - (k - 1) / 2) * 6, width: k === 1 ? 7 : 5,
        cls: `trains-rail c64-line-${board.players?.[seat]?.color}${scores ? " trains-rail-scoring" : ""}`,
        title: `${color(seat)} rail ${railText(r)}${scores ? " (scores at a station)" : ""}`,
      });
    });
  }
  grid.setSegments(segments);
  const points = [];
  for (const p of all) for (const s of p.stations || []) {
    points.push({
      id: `station-${s[0]}-${s[1]}`, gx: s[0], gy: s[1], shape: "square", r: 15, fill: colorCss(p.seat), label: colorLetter(p.seat),
      cls: "trains-station", title: `${color(p.seat)} station at ${pt(s)}`,
    });
  }
  for (const p of all) {
    if (!p.point) continue;
    points.push({
      id: `train-${p.seat}`, gx: p.point[0], gy: p.point[1], r: 13, fill: colorCss(p.seat),
      label: colorLetter(p.seat), mine: p.seat === you, cls: "trains-train",
      title: `${color(p.seat)} train (${seatName(p.seat)}) at ${pt(p.point)}: ${p.rails_left} rails and ${p.stations_left} stations left, ${p.vp} VP`,
    });
  }
  grid.setPoints(points);
  grid.setDescription(
    `C64 Trains board. ${all.map((p) => `${color(p.seat)} (${seatName(p.seat)}) at ${pt(p.point)}, ${plural(p.rails_laid, "rail")}, ${plural(p.stations.length, "station")}, ${p.vp} VP`).join(". ")}.`,
  );
}

/** A rail drawn from the point the train left toward the point it reached. */
function drawIn(el, fromStart) {
  if (!el) return;
  el.setAttribute("pathLength", "1");
  el.style.setProperty("--from", fromStart ? "1" : "-1");
  el.classList.remove("trains-rail-new");
  el.getBoundingClientRect();
  el.classList.add("trains-rail-new");
  setTimeout(() => { el.classList.remove("trains-rail-new"); el.removeAttribute("pathLength"); }, 700);
}

function pop(el) {
  if (!el) return;
  el.classList.remove("trains-pop");
  el.getBoundingClientRect();
  el.classList.add("trains-pop");
  setTimeout(() => el.classList.remove("trains-pop"), 700);
}

function onEvents(grid, events) {
  for (const event of events) {
    if (event.type === "blocked" && event.seat !== undefined) {
      grid.bump(`train-${event.seat}`, event.direction);
    } else if (event.type === "move" && event.rail) {
      const el = grid.segmentElement(`rail-${event.seat}-${railKey(event.rail)}`);
      drawIn(el, samePoint(event.from, event.rail.slice(0, 2)));
    } else if (event.type === "station") {
      pop(grid.pointElement(`station-${event.point[0]}-${event.point[1]}`));
    } else if (event.type === "station_blocked") {
      pop(grid.pointElement(`train-${event.seat}`));
    }
  }
}

function legend(board, { you }) {
  const p = you !== null ? board.players?.[you] : null;
  if (!p) return "Rails ending at a station of another colour score for both owners.";
  return `You: ${capitalize(p.color)} at ${pt(p.point)} · ${p.vp} VP · ${plural(p.rails_left, "rail")} and ${plural(p.stations_left, "station")} left.`;
}

export function createRenderer(root, ctx) {
  const score = createScorePanel();
  const table = createC64Table(root, ctx, {
    boardLabel: "C64 Trains board",
    drawBoard(grid, board, drawCtx) {
      drawBoard(grid, board, drawCtx);
      score.update({ ...board, winners: drawCtx.state?.outcome?.winners }, drawCtx);
    },
    onEvents,
    preview,
    faceHelp,
    legend,
  });
  const wrap = root.querySelector(".c64-board-info") || root;
  wrap.append(score.panel);
  table.grid.svg.classList.add("trains-board");
  table.grid.showGridPoints();
  return table;
}
