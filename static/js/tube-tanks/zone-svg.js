// The 15x15 Zone drawn in SVG (north = row 15 at the top), shared by the match renderer and
// the lobby's zone editor: floor, walls, Energy Pools, gaps, tanks, wrecks, targeting tokens,
// overlays (reachable cells, targets, the bolt line).

import { h, svg } from "../ui.js";
import { COLUMNS, SIZE, cellName, onBoard, parseCell } from "./geometry.js";

export const CELL = 36;
export const MARGIN = 18;
export const SIDE_COLORS = { green: "#53c35c", orange: "#f0932b" };
export const HIGHLIGHT_KINDS = ["hint", "target", "blocked", "path", "goal", "reach"];

/** The SVG centre of cell [x, y]; `flipped` turns the Zone 180 degrees (orange's home at the
 * bottom). */
export function centre(xy, flipped = false) {
  const [x, y] = flipped ? [SIZE - 1 - xy[0], SIZE - 1 - xy[1]] : xy;
  return [MARGIN + x * CELL + CELL / 2, MARGIN + (SIZE - 1 - y) * CELL + CELL / 2];
}

/** An octagon's points: a `2w` x `2h` box centred on (cx, cy) with corners cut by `cut`. */
function octagon(cx, cy, w, hgt, cut) {
  return [[-w + cut, -hgt], [w - cut, -hgt], [w, -hgt + cut], [w, hgt - cut], [w - cut, hgt], [-w + cut, hgt], [-w, hgt - cut], [-w, -hgt + cut]]
    .map(([x, y]) => `${cx + x},${cy + y}`).join(" ");
}

let cssAdded = false;
export function ensureCss() {
  if (cssAdded || document.querySelector('link[data-tube-tanks-css]')) return;
  cssAdded = true;
  // Beside this module, so that it comes from the same (versioned) prefix.
  const href = new URL("../../css/tube-tanks.css", import.meta.url).href;
  document.head.append(h("link", { rel: "stylesheet", href, "data-tube-tanks-css": "" }));
}

/** createZone(container, {label, onCell(name)}) -> {draw(layout, extras), el} */
export function createZone(container, { label = "The Zone", onCell, testid = "tt-board", flipped = false } = {}) {
  const at = (xy) => centre(xy, flipped);
  const full = MARGIN * 2 + CELL * SIZE;
  const el = svg("svg", { viewBox: `0 0 ${full} ${full}`, class: "tt-zone", role: "img", "aria-label": label, "data-testid": testid });
  const floor = svg("g", {});
  const terrain = svg("g", {});
  const overlay = svg("g", {});
  const units = svg("g", {});
  const top = svg("g", { class: "tt-top" });
  el.append(floor, terrain, overlay, units, top);
  for (let i = 0; i < SIZE; i += 1) {
    const [cx] = at([i, 0]);
    const [, cy] = at([0, i]);
    floor.append(svg("text", { x: cx, y: MARGIN - 5, class: "tt-coord" }, COLUMNS[i]));
    floor.append(svg("text", { x: cx, y: full - 4, class: "tt-coord" }, COLUMNS[i]));
    floor.append(svg("text", { x: MARGIN / 2, y: cy + 4, class: "tt-coord" }, String(i + 1)));
    floor.append(svg("text", { x: full - MARGIN / 2, y: cy + 4, class: "tt-coord" }, String(i + 1)));
  }
  const rects = new Map();
  for (let y = 0; y < SIZE; y += 1) {
    for (let x = 0; x < SIZE; x += 1) {
      const name = cellName(x, y);
      const [cx, cy] = at([x, y]);
      const rect = svg("rect", {
        x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL, class: "tt-cell",
        "data-testid": `tt-cell-${name}`, "data-cell": name,
      });
      rect.addEventListener("click", () => onCell?.(name));
      rects.set(name, rect);
      floor.append(rect);
    }
  }
  // Clicks on anything drawn over a cell go to that cell.
  for (const layer of [terrain, overlay, units, top]) {
    layer.addEventListener("click", (event) => {
      const node = event.target.closest("[data-at]");
      if (node) onCell?.(node.getAttribute("data-at"));
    });
  }

  function block(name, cls, extra = {}) {
    const [cx, cy] = at(parseCell(name));
    return svg("rect", { x: cx - CELL / 2 + 1, y: cy - CELL / 2 + 1, width: CELL - 2, height: CELL - 2, rx: 4, class: cls, "data-at": name, ...extra });
  }

  function tankShape(tank, index, { active = false } = {}) {
    const [cx, cy] = at(parseCell(tank.cell));
    const color = tank.destroyed ? "#6b6880" : SIDE_COLORS[tank.side];
    const name = `${tank.side[0].toUpperCase()}${tank.side.slice(1)} ${tank.number}`;
    const g = svg("g", {
      class: `tt-tank${active ? " tt-active" : ""}${tank.destroyed ? " tt-wreck" : ""}${tank.stunned ? " tt-stunned" : ""}`,
      "data-at": tank.cell, "data-testid": `tt-tank-${tank.side}-${tank.number}`,
      "data-hp": tank.hp ?? 6,
    });
    g.append(svg("title", {}, `${name} on ${tank.cell}${tank.destroyed ? " (wreck)" : `, ${tank.hp ?? 6} of 6`}${tank.stunned ? ", stunned" : ""}`));
    if (active) g.append(svg("rect", { x: cx - CELL / 2 + 1, y: cy - CELL / 2 + 1, width: CELL - 2, height: CELL - 2, rx: 6, class: "tt-active-ring" }));
    // Colour-blind players tell the sides apart by shape too: green tanks have a round hull
    // and turret, orange ones a cut-cornered hull and a diamond turret.
    const round = tank.side === "green";
    g.setAttribute("data-shape", round ? "round" : "diamond");
    g.append(round
      ? svg("rect", { x: cx - 13, y: cy - 11, width: 26, height: 22, rx: 7, fill: color, class: "tt-hull" })
      : svg("polygon", { points: octagon(cx, cy, 13, 11, 5), fill: color, class: "tt-hull" }));
    g.append(svg("rect", { x: cx - 15, y: cy - 13, width: 30, height: 5, rx: 2, class: "tt-track" }));
    g.append(svg("rect", { x: cx - 15, y: cy + 8, width: 30, height: 5, rx: 2, class: "tt-track" }));
    // Turrets are decorative: each points toward the enemy's home edge.
    const barrel = (tank.side === "green") !== flipped ? -1 : 1;
    g.append(svg("rect", { x: cx - 2, y: barrel < 0 ? cy - 17 : cy + 2, width: 4, height: 15, class: "tt-barrel" }));
    g.append(round
      ? svg("circle", { cx, cy, r: 7.5, fill: color, class: "tt-turret" })
      : svg("polygon", { points: `${cx},${cy - 9.5} ${cx + 9.5},${cy} ${cx},${cy + 9.5} ${cx - 9.5},${cy}`, fill: color, class: "tt-turret" }));
    g.append(svg("text", { x: cx, y: cy + 4, class: "tt-tank-num" }, tank.destroyed ? "✕" : String(tank.number)));
    if (!tank.destroyed && tank.hp !== undefined) {
      for (let i = 0; i < 6; i += 1) {
        g.append(svg("rect", { x: cx - 15 + i * 5, y: cy + 14, width: 4, height: 3, class: i < tank.hp ? "tt-hp-on" : "tt-hp-off" }));
      }
    }
    if (tank.stunned) g.append(svg("text", { x: cx + 12, y: cy - 8, class: "tt-stun-mark" }, "✦"));
    return g;
  }

  function tokenShape(tank) {
    const [x, y] = tank.token;
    if (!onBoard(x, y)) return null;
    const [cx, cy] = at([x, y]);
    const dx = (tank.number - 2) * 9;
    return svg("g", { class: "tt-token", "data-at": cellName(x, y), "data-testid": `tt-token-${tank.side}-${tank.number}` },
      svg("title", {}, `${tank.side} ${tank.number}'s targeting token on ${cellName(x, y)}`),
      tank.side === "green"
        ? svg("circle", { cx: cx + dx, cy: cy - 11, r: 5, fill: "none", stroke: SIDE_COLORS[tank.side], "stroke-width": 2 })
        : svg("rect", { x: cx + dx - 4, y: cy - 15, width: 8, height: 8, transform: `rotate(45 ${cx + dx} ${cy - 11})`, fill: "none", stroke: SIDE_COLORS[tank.side], "stroke-width": 2 }),
      svg("circle", { cx: cx + dx, cy: cy - 11, r: 1.6, fill: SIDE_COLORS[tank.side] }),
    );
  }

  /** A rules-page highlight (the renderer's `highlight(marks)`): a glowing outline on a cell,
   * a row or a column, or a line between two cells; an unknown `kind` draws as "hint". */
  function highlightShape(mark) {
    const kind = HIGHLIGHT_KINDS.includes(mark.kind) ? mark.kind : "hint";
    const cls = `tt-hl tt-hl-${kind}`;
    if (mark.from && mark.to) {
      const [x1, y1] = at(parseCell(mark.from));
      const [x2, y2] = at(parseCell(mark.to));
      return svg("line", { x1, y1, x2, y2, class: `${cls} tt-hl-line`, "data-testid": "tt-hl-line" });
    }
    if (mark.row || mark.column) {
      const ends = mark.row
        ? [[0, mark.row - 1], [SIZE - 1, mark.row - 1]]
        : [[COLUMNS.indexOf(mark.column), 0], [COLUMNS.indexOf(mark.column), SIZE - 1]];
      const [[ax, ay], [bx, by]] = ends.map((xy) => at(xy));
      return svg("rect", {
        x: Math.min(ax, bx) - CELL / 2 + 1, y: Math.min(ay, by) - CELL / 2 + 1,
        width: Math.abs(bx - ax) + CELL - 2, height: Math.abs(by - ay) + CELL - 2, rx: 6,
        class: `${cls} tt-hl-band`, "data-testid": mark.row ? `tt-hl-row-${mark.row}` : `tt-hl-column-${mark.column}`,
      });
    }
    const [cx, cy] = at(parseCell(mark.cell));
    const g = svg("g", { class: cls, "data-testid": `tt-hl-${mark.cell}`, "data-kind": kind },
      svg("rect", { x: cx - CELL / 2 + 1.5, y: cy - CELL / 2 + 1.5, width: CELL - 3, height: CELL - 3, rx: 5, class: "tt-hl-box" }));
    if (kind === "blocked") {
      g.append(svg("path", { d: `M${cx - 8} ${cy - 8} L${cx + 8} ${cy + 8} M${cx + 8} ${cy - 8} L${cx - 8} ${cy + 8}`, class: "tt-hl-cross" }));
    }
    // A reachable cell's cost sits inside it, like the match's own marks; other labels above.
    if (mark.label) g.append(svg("text", { x: cx, y: kind === "reach" ? cy + 4 : cy - CELL / 2 - 3, class: "tt-hl-label" }, String(mark.label)));
    return g;
  }

  /** layout: {walls, pools, gaps, tanks:[{side, number, cell, hp?, destroyed?, stunned?, token?}]}
   * extras: {active: tank index, ghostPools: [cells], marks: [{cell, cls, label}], line: {from, to, path, stop},
   *          highlights: [rules-page marks, see highlightShape]} */
  function draw(layout, extras = {}) {
    terrain.replaceChildren();
    overlay.replaceChildren();
    units.replaceChildren();
    top.replaceChildren();
    for (const rect of rects.values()) rect.setAttribute("class", "tt-cell");
    for (const g of layout.gaps || []) terrain.append(block(g, "tt-gap"));
    for (const p of layout.pools || []) terrain.append(block(p, "tt-pool", { "data-testid": `tt-pool-${p}` }));
    for (const p of extras.ghostPools || []) terrain.append(block(p, "tt-pool tt-ghost"));
    for (const w of layout.walls || []) terrain.append(block(w, "tt-wall", { "data-testid": `tt-wall-${w}` }));
    for (const mark of extras.marks || []) {
      const [cx, cy] = at(parseCell(mark.cell));
      overlay.append(svg("rect", { x: cx - CELL / 2 + 2, y: cy - CELL / 2 + 2, width: CELL - 4, height: CELL - 4, rx: 4, class: `tt-mark ${mark.cls}`, "data-at": mark.cell, "data-testid": mark.testid }));
      if (mark.label) top.append(svg("text", { x: cx, y: mark.cls.includes("tt-target") ? cy - CELL / 2 + 9 : cy + 4, class: `tt-mark-label ${mark.cls}`, "data-at": mark.cell }, mark.label));
    }
    (layout.tanks || []).forEach((tank, index) => {
      if (tank.cell) units.append(tankShape(tank, index, { active: index === extras.active }));
    });
    for (const tank of layout.tanks || []) {
      if (tank.token && !tank.destroyed) {
        const shape = tokenShape(tank);
        if (shape) units.append(shape);
      }
    }
    for (const mark of extras.highlights || []) top.append(highlightShape(mark));
    if (extras.line) {
      const { from, to, stop, cls } = extras.line;
      const [x1, y1] = at(from);
      const [x2, y2] = at(to);
      top.append(svg("line", { x1, y1, x2, y2, class: `tt-line ${cls || ""}`, "data-testid": "tt-bolt-line" }));
      if (stop) {
        const [sx, sy] = at(stop);
        top.append(svg("circle", { cx: sx, cy: sy, r: 12, class: `tt-impact ${cls || ""}` }));
      }
    }
  }

  container.append(el);
  return { el, draw, rects };
}
