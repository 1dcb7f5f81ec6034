// The C64 Board: one SVG 8x8 board every C64 game draws on.
//
// Squares a1..h8 (file a-h west to east, rank 1-8 south to north, ruling C2), row 8 at the
// top by default; `setView(side)` turns the board so that side sits at the bottom.
// Layers, bottom to top: squares, coordinates, markers, highlights, rail/snake segments,
// walls, grid points, pieces. Each `set*` call takes the complete list for its layer and
// diffs it by id, so pieces and walls glide to their new squares instead of jumping.
// Grid points (gx, gy) 0..8 are the corners of squares, for Trains and Snakes.

import { svg } from "../ui.js";
import { dirToScreen, parseSquare, squareName } from "./common.js";

const CELL = 64;
const PAD_LEFT = 26;
const PAD_TOP = 10;
const PAD_RIGHT = 10;
const PAD_BOTTOM = 26;
const SIZE = 8;
const WIDTH = PAD_LEFT + SIZE * CELL + PAD_RIGHT;
const HEIGHT = PAD_TOP + SIZE * CELL + PAD_BOTTOM;
// Grid-point boards: a piece on an edge point reaches 19px out (radius 13 and the ring of
// yours); its edge number starts past that.
const POINT_LABEL_GAP = 23;
const POINT_MARGIN = 16;
const SCREEN_ANGLE = { up: 0, right: 90, down: 180, left: 270 };
const SCREEN_DELTA = { up: [0, -1], right: [1, 0], down: [0, 1], left: [-1, 0] };

/** Display column/row (0 = left/top) of a board coordinate, for the side shown at the bottom. */
function toDisplay(x, y, max, side) {
  switch (side) {
    case "N": return [max - x, y];
    case "W": return [max - y, max - x];
    case "E": return [y, x];
    default: return [x, max - y];
  }
}

function wallShape(item, side) {
  const g = svg("g", { class: "wall", "data-square": item.square });
  g.append(svg("rect", { class: "wall-block", x: 5, y: 5, width: CELL - 10, height: CELL - 10, rx: 6 }));
  if (item.tilt === "/" || item.tilt === "\\") {
    // A mirror turned a quarter (board seen from W or E) leans the other way on screen.
    const quarter = side === "W" || side === "E";
    const rising = (item.tilt === "/") !== quarter;
    const [x1, y1, x2, y2] = rising ? [14, CELL - 14, CELL - 14, 14] : [14, 14, CELL - 14, CELL - 14];
    g.append(svg("line", { class: "wall-stick", x1, y1, x2, y2 }));
  } else {
    g.append(svg("line", { class: "wall-stick", x1: 15, y1: CELL / 2, x2: CELL - 15, y2: CELL / 2 }));
  }
  return g;
}

/**
 * createGrid(container, {label}) -> board API. `label` names the board for screen readers.
 */
export function createGrid(container, { label = "Game board", onSquareClick } = {}) {
  let side = "S";
  const root = svg("svg", {
    class: "board-svg", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
    "aria-label": label, "data-testid": "board", preserveAspectRatio: "xMidYMid meet",
  });
  const title = svg("title", {}, label);
  const layers = {};
  root.append(title);
  for (const name of ["squares", "coords", "markers", "highlights", "segments", "walls", "points", "pieces"]) {
    layers[name] = svg("g", { class: `layer-${name}` });
    root.append(layers[name]);
  }
  container.append(root);

  const squares = new Map(); // name -> rect
  for (let file = 0; file < SIZE; file += 1) {
    for (let rank = 0; rank < SIZE; rank += 1) {
      const name = squareName(file, rank);
      const rect = svg("rect", {
        class: `sq ${(file + rank) % 2 === 0 ? "dark" : "light"}`, width: CELL, height: CELL, "data-square": name,
      });
      if (onSquareClick) rect.addEventListener("click", () => onSquareClick(name));
      squares.set(name, rect);
      layers.squares.append(rect);
    }
  }

  // Model of every layer, so setView can lay everything out again.
  const model = { walls: [], pieces: [], markers: [], highlights: [], points: [], segments: [] };
  const wallEls = new Map();
  const pieceEls = new Map();
  const pointEls = new Map();
  const segmentEls = new Map();

  function squareXY(square) {
    const pos = parseSquare(square);
    if (!pos) return null;
    const [col, row] = toDisplay(pos[0], pos[1], SIZE - 1, side);
    return { x: PAD_LEFT + col * CELL, y: PAD_TOP + row * CELL };
  }

  function squareCenter(square) {
    const xy = squareXY(square);
    return xy ? { x: xy.x + CELL / 2, y: xy.y + CELL / 2 } : null;
  }

  function pointXY(gx, gy) {
    const [col, row] = toDisplay(gx, gy, SIZE, side);
    return { x: PAD_LEFT + col * CELL, y: PAD_TOP + row * CELL };
  }

  function place(el, x, y) {
    el.style.transform = `translate(${x}px, ${y}px)`;
  }

  function layoutSquares() {
    for (const [name, rect] of squares) {
      const { x, y } = squareXY(name);
      rect.setAttribute("x", x);
      rect.setAttribute("y", y);
    }
    layers.coords.replaceChildren();
    for (let i = 0; i < SIZE; i += 1) {
      // Bottom edge: the label of the square in display column i of the bottom row.
      const bottom = squareAtDisplay(i, SIZE - 1);
      const left = squareAtDisplay(0, i);
      const vertical = side === "S" || side === "N";
      layers.coords.append(
        svg("text", { class: "coord", x: PAD_LEFT + i * CELL + CELL / 2, y: PAD_TOP + SIZE * CELL + 18, "text-anchor": "middle" },
          vertical ? bottom[0] : bottom.slice(1)),
        svg("text", { class: "coord", x: PAD_LEFT / 2, y: PAD_TOP + i * CELL + CELL / 2 + 5, "text-anchor": "middle" },
          vertical ? left.slice(1) : left[0]),
      );
    }
  }

  function squareAtDisplay(col, row) {
    for (const name of squares.keys()) {
      const pos = parseSquare(name);
      const [c, r] = toDisplay(pos[0], pos[1], SIZE - 1, side);
      if (c === col && r === row) return name;
    }
    return "a1";
  }

  // ---------------------------------------------------------------- walls
  function setWalls(list) {
    const items = (list || []).map((w) => (typeof w === "string" ? { square: w } : w));
    model.walls = items;
    const next = new Map(items.map((w) => [w.square, w]));
    const removed = [...wallEls.keys()].filter((sq) => !next.has(sq));
    const added = items.filter((w) => !wallEls.has(w.square));
    // A wall that left one square and a wall that arrived nearby are the same stick moving.
    for (const item of added) {
      let best = null;
      let bestDistance = Infinity;
      const to = parseSquare(item.square);
      for (const sq of removed) {
        const from = parseSquare(sq);
        const distance = Math.abs(from[0] - to[0]) + Math.abs(from[1] - to[1]);
        if (distance < bestDistance) { best = sq; bestDistance = distance; }
      }
      if (best && bestDistance <= 2) {
        const el = wallEls.get(best);
        wallEls.delete(best);
        removed.splice(removed.indexOf(best), 1);
        el.dataset.square = item.square;
        wallEls.set(item.square, el);
      }
    }
    for (const sq of removed) { wallEls.get(sq).remove(); wallEls.delete(sq); }
    for (const item of items) {
      let el = wallEls.get(item.square);
      const fresh = !el;
      const look = `${item.tilt || ""}|${side}`;
      if (fresh || el.dataset.look !== look) {
        const shape = wallShape(item, side);
        shape.dataset.tilt = item.tilt || "";
        shape.dataset.look = look;
        if (el) el.replaceWith(shape); else layers.walls.append(shape);
        if (el) shape.style.transform = el.style.transform;
        el = shape;
        wallEls.set(item.square, el);
      }
      const { x, y } = squareXY(item.square);
      if (fresh) {
        el.style.transition = "none";
        place(el, x, y);
        el.getBoundingClientRect();
        el.style.transition = "";
      } else {
        place(el, x, y);
      }
    }
  }

  // ---------------------------------------------------------------- pieces
  /** pieces: [{id, square, color, label, dir (absolute), mine, title, shape: "pawn"|"disc"}] */
  function setPieces(list) {
    model.pieces = list || [];
    const ids = new Set(model.pieces.map((p) => p.id));
    for (const [id, el] of pieceEls) if (!ids.has(id)) { el.remove(); pieceEls.delete(id); }
    for (const piece of model.pieces) {
      let el = pieceEls.get(piece.id);
      const fresh = !el;
      if (fresh) {
        el = svg("g", { class: "piece", "data-testid": "piece", "data-piece": piece.id });
        const body = svg("g", { class: "body-g" });
        body.append(
          svg("title", {}),
          svg("circle", { class: "ring", r: 27 }),
          svg("circle", { class: "body", r: 21 }),
          svg("text", { class: "initial", y: 1 }),
          svg("g", { class: "dir-g" }, svg("path", { class: "dir", d: "M -8 -23 L 0 -33 L 8 -23 Z" })),
        );
        el.append(body);
        layers.pieces.append(el);
        pieceEls.set(piece.id, el);
      }
      el.classList.toggle("mine", Boolean(piece.mine));
      el.dataset.square = piece.square || "";
      el.dataset.color = piece.color || "";
      const body = el.querySelector(".body");
      body.setAttribute("fill", piece.fill || "#ccc");
      el.querySelector(".initial").textContent = piece.label || "";
      el.querySelector("title").textContent = piece.title || "";
      const dirG = el.querySelector(".dir-g");
      dirG.style.display = piece.dir ? "" : "none";
      if (piece.dir) {
        const screen = dirToScreen(piece.dir, side);
        dirG.style.transform = `rotate(${SCREEN_ANGLE[screen]}deg)`;
        el.dataset.dir = piece.dir;
      }
      const center = squareCenter(piece.square);
      el.style.display = center ? "" : "none";
      if (!center) continue;
      if (fresh) {
        el.style.transition = "none";
        place(el, center.x, center.y);
        el.getBoundingClientRect();
        el.style.transition = "";
      } else {
        place(el, center.x, center.y);
      }
    }
  }

  /** A short nudge toward `dir` (absolute): "tried, but blocked". Works for pieces and for
   *  grid-point pieces (setPoints). */
  function bump(id, dir) {
    const el = pieceEls.get(id) || pointEls.get(id);
    if (!el) return;
    const [dx, dy] = SCREEN_DELTA[dirToScreen(dir || "N", side)];
    el.style.setProperty("--bx", `${dx * 9}px`);
    el.style.setProperty("--by", `${dy * 9}px`);
    el.classList.remove("bump");
    el.getBoundingClientRect();
    el.classList.add("bump");
    setTimeout(() => el.classList.remove("bump"), 400);
  }

  // ---------------------------------------------------------------- markers, highlights
  /** markers: [{id, square, color (css), label, kind: "goal"|"start", mine}] */
  function setMarkers(list) {
    model.markers = list || [];
    layers.markers.replaceChildren();
    for (const m of model.markers) {
      const xy = squareXY(m.square);
      if (!xy) continue;
      const g = svg("g", { class: `marker marker-${m.kind || "goal"}${m.mine ? " mine" : ""}`, "data-testid": `marker-${m.kind || "goal"}`, "data-square": m.square });
      g.append(
        svg("rect", { class: "marker-goal", x: xy.x + 4, y: xy.y + 4, width: CELL - 8, height: CELL - 8, rx: 6, stroke: m.color }),
        svg("text", { class: "marker-label", x: xy.x + CELL / 2, y: xy.y + CELL - 9, fill: m.color }, m.label || ""),
      );
      if (m.kind !== "start") {
        // A little pennant in the corner of the goal square.
        g.append(svg("path", { d: `M ${xy.x + 12} ${xy.y + 30} V ${xy.y + 10} L ${xy.x + 26} ${xy.y + 15} L ${xy.x + 14} ${xy.y + 20}`, fill: m.color, stroke: m.color, "stroke-width": 2, "stroke-linejoin": "round" }));
      }
      layers.markers.append(g);
    }
  }

  /** highlights: [{square, kind: "target"|"hint"|"blocked"}]; for the grid-point games also
   *  {point: [gx, gy], kind} (a ring around the point) and {segment: [[ax, ay], [bx, by]], kind}
   *  (a band along a unit segment). */
  function setHighlights(list) {
    model.highlights = list || [];
    layers.highlights.replaceChildren();
    for (const hl of model.highlights) {
      if (hl.point || hl.segment) {
        layers.highlights.append(gridHighlight(hl));
        continue;
      }
      const xy = squareXY(hl.square);
      if (!xy) continue;
      layers.highlights.append(svg("rect", {
        class: `hl-${hl.kind || "target"}`, x: xy.x + 3, y: xy.y + 3, width: CELL - 6, height: CELL - 6, rx: 6,
        "data-testid": "board-highlight", "data-square": hl.square,
      }));
    }
  }

  // ---------------------------------------------------------------- grid points (Trains, Snakes)
  function gridHighlight(hl) {
    const kind = hl.kind || "target";
    if (hl.point) {
      const { x, y } = pointXY(hl.point[0], hl.point[1]);
      return svg("circle", {
        class: `hl-${kind} hl-point`, cx: x, cy: y, r: hl.r || 21,
        "data-testid": "board-highlight", "data-point": `${hl.point[0]},${hl.point[1]}`,
      });
    }
    const [a, b] = hl.segment.map(([gx, gy]) => pointXY(gx, gy));
    return svg("line", {
      class: `hl-${kind} hl-seg`, x1: a.x, y1: a.y, x2: b.x, y2: b.y,
      "data-testid": "board-highlight", "data-segment": hl.segment.flat().join(","),
    });
  }

  /**
   * points: [{id, gx, gy, fill, r, label, title, shape: "disc"|"square", cls, mine}].
   * Drawn in list order (later ones on top); a new point appears in place, a moved one glides.
   */
  function setPoints(list) {
    model.points = list || [];
    const ids = new Set(model.points.map((p) => p.id));
    for (const [id, el] of pointEls) if (!ids.has(id)) { el.remove(); pointEls.delete(id); }
    let previous = null;
    for (const p of model.points) {
      let el = pointEls.get(p.id);
      const fresh = !el;
      const shape = p.shape === "square" ? "square" : "disc";
      if (fresh || el.dataset.shape !== shape) {
        const mark = shape === "square" ? svg("rect", { class: "gp" }) : svg("circle", { class: "gp" });
        const next = svg("g", { class: "piece point", "data-testid": "point", "data-point": p.id, "data-shape": shape },
          svg("g", { class: "body-g" },
            svg("title", {}), svg("circle", { class: "ring", fill: "none" }), mark, svg("text", { class: "initial", y: 1 })));
        if (el) { next.style.transform = el.style.transform; el.replaceWith(next); } else layers.points.append(next);
        el = next;
        pointEls.set(p.id, el);
      }
      el.setAttribute("class", `piece point${p.cls ? ` ${p.cls}` : ""}`);
      el.classList.toggle("mine", Boolean(p.mine));
      el.dataset.at = `${p.gx},${p.gy}`;
      const r = p.r || 11;
      el.querySelector(".ring").setAttribute("r", r + 6);
      const mark = el.querySelector(".gp");
      if (shape === "square") {
        for (const [k, v] of Object.entries({ x: -r, y: -r, width: 2 * r, height: 2 * r, rx: Math.round(r / 3) })) mark.setAttribute(k, v);
      } else {
        mark.setAttribute("r", r);
      }
      mark.setAttribute("fill", p.fill || "#fff");
      el.querySelector("text").textContent = p.label || "";
      el.querySelector("title").textContent = p.title || "";
      // Keep the DOM in list order (stations under trains, heads over tails).
      const wanted = previous ? previous.nextSibling : layers.points.firstChild;
      if (wanted !== el) layers.points.insertBefore(el, wanted);
      previous = el;
      const { x, y } = pointXY(p.gx, p.gy);
      if (fresh) {
        el.style.transition = "none";
        place(el, x, y);
        el.getBoundingClientRect();
        el.style.transition = "";
      } else {
        place(el, x, y);
      }
    }
  }

  /** The element of a grid point piece (setPoints) by id, for a game's own animations. */
  function pointElement(id) {
    return pointEls.get(id) || null;
  }

  /**
   * segments: [{id, a: [gx, gy], b: [gx, gy], stroke, offset (px, to show shared rails side by
   * side), width (px), cls, title}]
   */
  function setSegments(list) {
    model.segments = list || [];
    const ids = new Set(model.segments.map((s) => s.id));
    for (const [id, el] of segmentEls) if (!ids.has(id)) { el.remove(); segmentEls.delete(id); }
    for (const s of model.segments) {
      let el = segmentEls.get(s.id);
      if (!el) {
        el = svg("line", { class: "seg", "data-segment": s.id }, svg("title", {}));
        layers.segments.append(el);
        segmentEls.set(s.id, el);
      }
      const a = pointXY(s.a[0], s.a[1]);
      const b = pointXY(s.b[0], s.b[1]);
      const off = s.offset || 0;
      const horizontal = a.y === b.y;
      el.setAttribute("x1", a.x + (horizontal ? 0 : off));
      el.setAttribute("y1", a.y + (horizontal ? off : 0));
      el.setAttribute("x2", b.x + (horizontal ? 0 : off));
      el.setAttribute("y2", b.y + (horizontal ? off : 0));
      el.setAttribute("stroke", s.stroke || "#fff");
      el.setAttribute("class", `seg${s.cls ? ` ${s.cls}` : ""}`);
      el.style.strokeWidth = s.width ? `${s.width}px` : "";
      const title = el.querySelector("title");
      if (title) title.textContent = s.title || "";
    }
  }

  /** The element of a segment (setSegments) by id, for a game's own animations. */
  function segmentElement(id) {
    return segmentEls.get(id) || null;
  }

  /** The element of a piece (setPieces) by id, for a game's own animations or looks. */
  function pieceElement(id) {
    return pieceEls.get(id) || null;
  }

  /**
   * Animates piece `id` along a path instead of the straight glide of setPieces (Cars drives
   * square by square, Monsters shows the adventurer's step before the monster's).
   * frames: [{at (ms from now), square, toward (absolute dir: nudged `reach` of a square that
   * way, e.g. a bump or leaving the board), reach (default 0.35), opacity (default 1)}], in
   * time order, the first at 0. The piece ends where setPieces put it (the state's square); a
   * piece hidden because it has no square is shown while the animation runs.
   */
  function animatePiece(id, frames) {
    const el = pieceEls.get(id);
    if (!el || !frames || frames.length < 2 || typeof el.animate !== "function") return null;
    const total = Math.max(1, frames[frames.length - 1].at);
    const keyframes = [];
    for (const f of frames) {
      const c = squareCenter(f.square);
      if (!c) continue;
      let { x, y } = c;
      if (f.toward) {
        const [dx, dy] = SCREEN_DELTA[dirToScreen(f.toward, side)];
        const reach = f.reach ?? 0.35;
        x += dx * CELL * reach;
        y += dy * CELL * reach;
      }
      keyframes.push({ transform: `translate(${x}px, ${y}px)`, opacity: f.opacity ?? 1, offset: Math.min(1, Math.max(0, f.at / total)) });
    }
    if (keyframes.length < 2) return null;
    for (const running of el.getAnimations()) running.cancel();
    const hidden = el.style.display === "none" || el.dataset.animHidden === "1";
    const token = String(Number(el.dataset.anim || 0) + 1);
    el.dataset.anim = token;
    el.dataset.animHidden = hidden ? "1" : "";
    el.style.display = "";
    el.style.transition = "none"; // a running glide would override the keyframes
    const animation = el.animate(keyframes, { duration: total, easing: "linear" });
    const done = () => {
      if (el.dataset.anim !== token) return; // a newer animation took over
      el.dataset.animHidden = "";
      el.style.transition = "";
      const piece = model.pieces.find((p) => p.id === id);
      if (hidden && !(piece && squareCenter(piece.square))) el.style.display = "none";
    };
    animation.addEventListener("finish", done);
    animation.addEventListener("cancel", done);
    return animation;
  }

  function setView(newSide) {
    side = ["S", "W", "N", "E"].includes(newSide) ? newSide : "S";
    root.dataset.view = side;
    layoutSquares();
    setMarkers(model.markers);
    setHighlights(model.highlights);
    setWalls(model.walls);
    setPieces(model.pieces);
    setPoints(model.points);
    setSegments(model.segments);
    if (pointCoords) layoutPointCoords();
  }

  // ---------------------------------------------------------------- grid-point boards
  // Trains and Snakes play on the 81 grid points (gx, gy) 0..8: `showGridPoints()` marks them
  // with dots and labels the edges 0-8 instead of a-h / 1-8 (event texts name points "(3,4)").
  let pointCoords = null;

  function showGridPoints() {
    if (pointCoords) return;
    pointCoords = svg("g", { class: "layer-point-coords", "data-testid": "point-coords" });
    layers.coords.after(pointCoords);
    root.classList.add("grid-points");
    // Pieces stand on the edge points, so the edge numbers keep clear of a piece's ring
    // (POINT_LABEL_GAP) and the view grows to hold them and the pieces on the edges.
    const m = POINT_MARGIN;
    root.setAttribute("viewBox", `${-m} ${-m} ${WIDTH + 2 * m} ${HEIGHT + 2 * m}`);
    layoutPointCoords();
  }

  function layoutPointCoords() {
    pointCoords.replaceChildren();
    for (let gx = 0; gx <= SIZE; gx += 1) {
      for (let gy = 0; gy <= SIZE; gy += 1) {
        const { x, y } = pointXY(gx, gy);
        pointCoords.append(svg("circle", { class: "gridpt", cx: x, cy: y, r: 3 }));
        // The coordinate that changes along the bottom edge and along the left edge.
        if (y === PAD_TOP + SIZE * CELL) {
          const along = side === "S" || side === "N" ? gx : gy;
          pointCoords.append(svg("text", { class: "coord", x, y: y + POINT_LABEL_GAP + 10, "text-anchor": "middle", "data-axis": "x" }, String(along)));
        }
        if (x === PAD_LEFT) {
          const along = side === "S" || side === "N" ? gy : gx;
          pointCoords.append(svg("text", { class: "coord", x: PAD_LEFT - POINT_LABEL_GAP - 5, y: y + 5, "text-anchor": "middle", "data-axis": "y" }, String(along)));
        }
      }
    }
  }

  function setDescription(text) {
    title.textContent = text;
    root.setAttribute("aria-label", text);
  }

  setView("S");

  return {
    svg: root,
    get view() { return side; },
    setView, setWalls, setPieces, setMarkers, setHighlights, setPoints, setSegments, bump,
    pointElement, segmentElement, showGridPoints, pieceElement, animatePiece,
    setDescription, squareCenter, pointXY,
    destroy() { root.remove(); },
  };
}
