// The Tactrics board shared by Crossing, Crossing Advanced, Cat & Mouse and Solitary: the
// hexagonal board of 19 turning towers and 54 triangular router slots (ruling V1), routers in
// player colours, controllers and claims, the legal towers highlighted, a short turning
// animation for every rotation (V2), and the turn controls: actions left, undo, confirm (V4).
// Each game's module in static/js/games/ is a thin wrapper that passes its `mode`.
//
// highlight(marks): a rules-page diagram (ctx.diagram) outlines what its caption points at.
// Each mark is an object with one of these keys, plus an optional `kind`: "hint" (the
// default, yellow), "good" (green) or "bad" (red, dashed):
//   {"tower": "T12"}                  a ring round the tower
//   {"slot": "B4"}                    the outline of a slot (the router on it, if any), named
//   {"path": ["B5", "C6", "C7"]}      a line through slot centres, arrowhead on the last;
//                                     its first and last slots named
//   {"side": "N"}                     one side's row of 7 slots: S, N, SW, NW, SE or NE
// Marks are drawn again after every update, until highlight() is called with others.

import { h, svg, fill } from "../ui.js";
import { GEOMETRY } from "./geometry.js";
import { COLOURS, DIRECTION_WORDS, capitalize, colourCss, colourLetter, describeMove, isDarkColour } from "./words.js";

const SCALE = 10;
const ROOT3 = Math.sqrt(3);
// Radius (board units) of a knob's and a board arrow's round hit area: 40px across on a
// 390px phone, and a knob and an arrow on one of its slots (1.1547 apart) still do not overlap.
const HIT_RADIUS = 0.576;
const SLOT_IDS = GEOMETRY.slot_ids;
const TOWER_IDS = GEOMETRY.tower_ids;
const STYLE_ID = "tactrics-css";
// The board's six sides, each an outer row of 7 slots (app/games/tactrics/data/board.json).
const SIDES = {
  S: ["A1", "A2", "A3", "A4", "A5", "A6", "A7"],
  N: ["F1", "F2", "F3", "F4", "F5", "F6", "F7"],
  SW: ["A1", "A2", "B1", "B2", "C1", "C2", "D1"],
  NW: ["C1", "D1", "D2", "E1", "E2", "F1", "F2"],
  SE: ["A6", "A7", "B8", "B9", "C10", "C11", "D11"],
  NE: ["C11", "D10", "D11", "E8", "E9", "F6", "F7"],
};
const MARK_KINDS = new Set(["hint", "good", "bad"]);

/** Loads the board's stylesheet once; resolves when it applies. Until then the board would
 *  be drawn unstyled (arrows with 16px glyphs over the routers), so it stays hidden. */
function stylesReady() {
  let link = document.getElementById(STYLE_ID);
  if (!link) {
    link = h("link", { id: STYLE_ID, rel: "stylesheet", href: new URL("../../css/tactrics.css", import.meta.url).href });
    document.head.append(link);
  }
  if (link.sheet) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true }); // unstyled beats invisible
  });
}

// The board's centre (tower T33), around which a player's view is turned.
const CENTRE_Y = 3 * ROOT3;
// A narrow (phone) screen shows the hexagon with a corner at the bottom: it is then 6√3
// units wide instead of 12, so towers, arrows and routers are 15% larger on the same width.
const NARROW = "(max-width: 640px)";
// Half the board's extent in board units, for the viewBox: [half width, half height].
const EXTENT = { flat: [6.6, CENTRE_Y + 0.6], pointy: [CENTRE_Y + 0.15, 6.15] };

/** Board units (y north) -> SVG units (y down), turned `angle` degrees anticlockwise about
 *  the centre: the player's own side comes to the bottom (as chess sites turn the board). */
function projector(angle) {
  const a = (angle * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  return (x, y) => {
    const dy = y - CENTRE_Y;
    return [(x * cos - dy * sin) * SCALE, -(x * sin + dy * cos) * SCALE];
  };
}
// One Tactrics board per page (match or replay): its renderer sets the projection it draws with.
let project = projector(0);

function trianglePoints(slot, shrink = 1) {
  const { x, y, up } = GEOMETRY.slots[slot];
  const r = (2 / ROOT3) * shrink; // circumradius of a side-2 triangle
  const angles = up ? [90, 210, 330] : [270, 30, 150];
  return angles
    .map((deg) => {
      const a = (deg * Math.PI) / 180;
      const [sx, sy] = project(x + r * Math.cos(a), y + r * Math.sin(a));
      return `${sx.toFixed(2)},${sy.toFixed(2)}`;
    })
    .join(" ");
}

function slotCentre(slot) {
  const { x, y } = GEOMETRY.slots[slot];
  return project(x, y);
}

function towerCentre(tower) {
  const [x, y] = GEOMETRY.towers[tower];
  return project(x, y);
}

function hexOutline() {
  const corners = [[-3, 0], [3, 0], [6, 3], [3, 6], [-3, 6], [-6, 3]];
  return corners.map(([x, r]) => project(x, r * ROOT3).map((v) => v.toFixed(2)).join(",")).join(" ");
}

/** Where a side of the board lies, in degrees anticlockwise from east about the centre. */
function angleOf(x, y) {
  return (Math.atan2(y - CENTRE_Y, x) * 180) / Math.PI;
}

/** Board lists (routers, controllers, claims) are arrays in slot / tower order. */
function byId(ids, values) {
  const out = {};
  (values || []).forEach((value, i) => { if (value !== null && value !== undefined) out[ids[i]] = value; });
  return out;
}

export function createTactricsRenderer(root, ctx, { mode }) {
  const you = ctx.you;
  let state = null;
  let board = null;
  let selected = null; // {kind: "tower"|"slot", id}
  let busy = false;

  const svgRoot = svg("svg", {
    class: "tac-board", role: "group", "aria-label": "Tactrics board", "data-testid": "board", "data-phone": "board",
  });
  const layers = {
    base: svg("g", { class: "tac-base" }),
    goals: svg("g", { class: "tac-goals" }),
    towers: svg("g", { class: "tac-towers" }),
    routers: svg("g", { class: "tac-routers" }),
    marks: svg("g", { class: "tac-marks", "data-testid": "diagram-marks" }),
    knobs: svg("g", { class: "tac-knobs" }),
    arrows: svg("g", { class: "tac-arrows" }),
  };
  svgRoot.append(layers.base, layers.goals, layers.towers, layers.routers, layers.marks, layers.knobs, layers.arrows);
  const towerEls = {};
  const narrow = window.matchMedia?.(NARROW);
  let view = null; // {angle, shape}: how the board is drawn now

  /** How this viewer sees the board: her own side at the bottom (her start tower or row; the
   *  mouse's edge for the mouse, the cupboard's for the cats), in whole sixths of a turn so
   *  the hexagon keeps its outline, plus 30 degrees on a phone (corner at the bottom). */
  function wantedView() {
    const home = (seat) => {
      if (mode === "cat-mouse") return seat === 0 ? 270 : 90;
      const start = playerOf(seat)?.start;
      if (!start) return null;
      if (start === "S" || start === "N") return start === "S" ? 270 : 90;
      const tower = GEOMETRY.towers[start];
      return tower ? angleOf(tower[0], tower[1]) : null;
    };
    let angle = 0;
    if (you !== null && you !== undefined && mode !== "solitary") {
      const mine = home(you);
      const first = home(0);
      if (mine !== null && first !== null) angle = Math.round((first - mine) / 60) * 60;
    }
    const shape = narrow?.matches ? "pointy" : "flat";
    if (shape === "pointy") angle += 30;
    return { angle: ((angle % 360) + 360) % 360, shape };
  }

  /** Draws what never changes while the view stays: the hexagon, the slots, the turntables
   *  and their knobs. Knobs are buttons: on a phone their round hit area is 40px wide. */
  function drawBase(next) {
    view = next;
    project = projector(view.angle);
    const [hw, hh] = EXTENT[view.shape];
    svgRoot.setAttribute("viewBox", `${-hw * SCALE} ${-hh * SCALE} ${2 * hw * SCALE} ${2 * hh * SCALE}`);
    svgRoot.dataset.view = String(view.angle);
    svgRoot.dataset.shape = view.shape;
    const base = [svg("polygon", { points: hexOutline(), class: "tac-hex" })];
    for (const slot of SLOT_IDS) {
      base.push(svg("polygon", { points: trianglePoints(slot, 0.92), class: "tac-slot", "data-slot": slot },
        svg("title", { text: slot })));
    }
    fill(layers.base, base);
    const discs = [];
    const knobs = [];
    for (const tower of TOWER_IDS) {
      const [cx, cy] = towerCentre(tower);
      const disc = svg("circle", { cx, cy, r: 2 * SCALE - 1, class: "tac-disc" });
      const badge = svg("g", { class: "tac-claim", "data-testid": "claim" });
      const knob = svg("g", {
        class: "tac-knob", tabindex: "-1", role: "button", "data-testid": "tower", "data-tower": tower,
        "aria-label": `Tower ${tower}`,
        onclick: () => selectTower(tower),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); selectTower(tower); } },
      },
      svg("circle", { cx, cy, r: HIT_RADIUS * SCALE, class: "tac-knob-hit" }),
      svg("circle", { cx, cy, r: 0.46 * SCALE, class: "tac-knob-disc" }),
      svg("line", { x1: cx, y1: cy - 0.42 * SCALE, x2: cx, y2: cy - 0.2 * SCALE, class: "tac-knob-tick" }),
      svg("text", { x: cx, y: cy + 0.25 * SCALE, class: "tac-knob-label" }, tower.slice(1)),
      badge);
      discs.push(disc);
      knobs.push(knob);
      towerEls[tower] = { disc, knob, badge, centre: [cx, cy] };
    }
    fill(layers.towers, discs);
    fill(layers.knobs, knobs);
  }

  function ensureView() {
    const next = wantedView();
    if (!view || next.angle !== view.angle || next.shape !== view.shape) drawBase(next);
  }
  const onNarrowChange = () => { if (board) { ensureView(); render(); } };
  narrow?.addEventListener?.("change", onNarrowChange);

  const status = h("p", { class: "tac-status", "data-testid": "tactrics-status", "aria-live": "polite" });
  const counter = h("span", { class: "tac-counter", "data-testid": "actions-left" });
  const actionsList = h("ol", { class: "tac-actions small", "data-testid": "turn-actions" });
  const options = h("div", { class: "tac-options", "data-testid": "action-options" });
  const undoBtn = h("button", { type: "button", class: "ghost", "data-testid": "undo", onclick: () => submitType("undo") }, "↶ Undo");
  const confirmBtn = h("button", { type: "button", class: "primary", "data-testid": "confirm", onclick: () => submitType("confirm") }, "✔ End turn");
  const legend = h("div", { class: "tac-legend small", "data-testid": "tactrics-legend" });
  const clock = h("span", { class: "tac-clock small", "data-testid": "solitary-time", hidden: true });
  const controls = h("div", { class: "tac-controls" }, counter, undoBtn, mode === "solitary" ? null : confirmBtn);
  // The current decision's buttons: on a phone right under the board, within the table's room.
  const decision = h("div", { class: "tac-decision", "data-phone": "controls" }, controls, options);
  const panel = h("div", { class: "tac-panel" }, status, decision, clock, actionsList, legend);
  const wrap = h("div", { class: "tac-wrap", "data-testid": "tactrics", "data-mode": mode, "data-diagram": String(Boolean(ctx.diagram)) }, svgRoot, panel);
  wrap.style.visibility = "hidden";
  stylesReady().then(() => {
    wrap.style.visibility = "";
    wrap.dataset.styled = "true"; // tests measure the board only once it is styled
  });
  root.append(wrap);

  // ---------------------------------------------------------------- helpers
  // A diagram only shows a position: nothing on it is offered as a move.
  const legal = () => (ctx.diagram ? [] : state?.legal_moves || []);
  const seatName = (seat) => state?.seats?.find((s) => s.seat === seat)?.name || `Seat ${seat + 1}`;
  const playerOf = (seat) => board?.players?.find((p) => p.seat === seat) || null;
  function colourOfSeat(seat) {
    const p = playerOf(seat);
    return p?.colour || null;
  }
  function seatLabel(seat) {
    if (mode === "cat-mouse") return seat === 0 ? "Mouse" : "Cats";
    if (mode === "solitary") return "Solitary";
    return capitalize(colourOfSeat(seat) || `seat ${seat + 1}`);
  }
  function seatColour(seat) {
    if (mode === "solitary") return "var(--accent)";
    const colour = colourOfSeat(seat);
    return colour ? colourCss(colour) : "var(--accent)";
  }

  async function submit(move) {
    if (busy) return;
    busy = true;
    wrap.dataset.busy = "true";
    try {
      await ctx.submit(move);
    } catch {
      /* match.js shows the server's reason */
    } finally {
      busy = false;
      wrap.dataset.busy = "false";
      render(); // the buttons were disabled while the move was on its way
    }
  }

  function submitType(type) {
    const move = legal().find((m) => m.type === type);
    if (move) { selected = null; submit(move); }
  }

  function movesForTower(tower) {
    return legal().filter((m) => (m.type === "rotate" || m.type === "claim" || m.type === "take_back") && m.tower === tower);
  }
  function movesForSlot(slot) {
    return legal().filter((m) => (m.type === "place" && m.slot === slot) || (m.type === "move_controller" && m.from === slot));
  }
  function targetSlots() {
    if (selected?.kind !== "slot") return new Set();
    return new Set(legal().filter((m) => m.type === "move_controller" && m.from === selected.id).map((m) => m.to));
  }

  function selectTower(tower) {
    if (!movesForTower(tower).length) return;
    selected = selected?.kind === "tower" && selected.id === tower ? null : { kind: "tower", id: tower };
    render();
    // Claims and take-backs are listed under the board: bring them into view on a phone.
    if (selected && movesForTower(tower).some((m) => m.type !== "rotate")) {
      options.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
    }
  }

  function clickSlot(slot) {
    const targets = targetSlots();
    if (targets.has(slot)) {
      const move = legal().find((m) => m.type === "move_controller" && m.from === selected.id && m.to === slot);
      selected = null;
      if (move) submit(move);
      return;
    }
    const moves = movesForSlot(slot);
    if (!moves.length) return;
    if (moves.length === 1 && moves[0].type === "place") { submit(moves[0]); return; }
    selected = selected?.kind === "slot" && selected.id === slot ? null : { kind: "slot", id: slot };
    render();
  }

  // Solitary: turning the last tower straight back is an undo (not counted).
  function solitaryUndoFor(move) {
    if (mode !== "solitary" || move.type !== "rotate") return null;
    const inLegal = legal().some((m) => m.type === "rotate" && m.tower === move.tower && m.direction === move.direction);
    return inLegal ? null : legal().find((m) => m.type === "undo") || null;
  }

  /** The legal move that turns `tower` in `direction` (Solitary: the undo when it is the
   *  last rotation straight back), or null. */
  function rotationFor(tower, direction) {
    const move = legal().find((m) => m.type === "rotate" && m.tower === tower && m.direction === direction);
    if (move) return move;
    return mode === "solitary" ? solitaryUndoFor({ type: "rotate", tower, direction }) : null;
  }

  /** Why `tower` may not turn in `direction` while the other way is open, in words. */
  function blockedReason(tower, direction) {
    const last = board?.mouse_last;
    if (mode === "cat-mouse" && last && last[0] === tower && last[1] !== direction) {
      return `The cats may not turn ${tower} ${DIRECTION_WORDS[direction]}: that would undo the mouse's last rotation.`;
    }
    return null;
  }

  function rotateButtons(tower) {
    const buttons = [];
    for (const direction of ["ccw", "cw"]) {
      const move = rotationFor(tower, direction);
      const label = direction === "cw" ? "↻ Clockwise" : "↺ Anticlockwise";
      buttons.push(h("button", {
        type: "button", class: move?.reserve ? "ghost tac-reserve" : "", "data-testid": `rotate-${direction}`,
        disabled: !move, title: move ? describeMove(move, board) : (blockedReason(tower, direction) || `You may not turn ${tower} ${DIRECTION_WORDS[direction]} now`),
        onclick: () => { if (move) submit(move); },
      }, label, move?.reserve ? " (reserve)" : ""));
    }
    return buttons;
  }

  // ---------------------------------------------------------------- drawing
  function drawGoals() {
    const items = [];
    if (mode === "crossing" || mode === "crossing-advanced") {
      for (const p of board.players || []) {
        for (const slot of p.goal || []) {
          items.push(svg("polygon", {
            points: trianglePoints(slot, 0.8), class: `tac-goal${p.seat === you ? " mine" : ""}`,
            style: { stroke: colourCss(p.colour) }, "data-goal": p.colour,
          }));
        }
      }
    } else if (mode === "cat-mouse") {
      for (const slot of board.cupboard || []) {
        items.push(svg("polygon", { points: trianglePoints(slot, 0.8), class: "tac-goal tac-cupboard" }));
      }
    } else if (mode === "solitary") {
      for (const [colour, tower] of Object.entries(board.targets || {})) {
        const [cx, cy] = towerCentre(tower);
        items.push(svg("circle", { cx, cy, r: 1.55 * SCALE, class: "tac-target", style: { stroke: colourCss(colour) }, "data-target": colour }));
      }
    }
    fill(layers.goals, items);
  }

  /** A controller: a dark disc ringed in its owner's colour with her letter, so controllers
   *  stand out from the routers under them and from each other without telling colours apart. */
  function controllerBadge(seat, cx, cy, r, extra = {}) {
    const colour = colourOfSeat(seat);
    const letter = colour ? colourLetter(colour) : String(seat + 1);
    return svg("g", { class: "tac-badge", "data-seat": String(seat), "data-letter": letter, ...extra },
      svg("circle", { cx, cy, r, class: "tac-badge-disc", style: { stroke: seatColour(seat) } }),
      svg("text", { x: cx, y: cy + r * 0.38, class: "tac-badge-letter", style: { fontSize: `${r * (letter.length > 1 ? 0.95 : 1.15)}px` } }, letter));
  }

  /** What marks a router besides its colour: the mouse and the cats are drawn as faces, every
   *  other router carries its colour's letter. */
  function routerMark(colour, cx, cy) {
    if (mode === "cat-mouse") {
      const cat = colour !== "red";
      const s = 0.26 * SCALE;
      const ears = cat
        ? [svg("polygon", { points: `${cx - s},${cy - 0.2 * s} ${cx - 0.95 * s},${cy - 1.45 * s} ${cx - 0.2 * s},${cy - 0.8 * s}` }),
          svg("polygon", { points: `${cx + s},${cy - 0.2 * s} ${cx + 0.95 * s},${cy - 1.45 * s} ${cx + 0.2 * s},${cy - 0.8 * s}` })]
        : [svg("circle", { cx: cx - 0.85 * s, cy: cy - 0.75 * s, r: 0.55 * s }),
          svg("circle", { cx: cx + 0.85 * s, cy: cy - 0.75 * s, r: 0.55 * s })];
      return svg("g", { class: `tac-face ${cat ? "cat" : "mouse"}`, "data-testid": cat ? "cat" : "mouse", "aria-hidden": "true" },
        ...ears, svg("circle", { cx, cy, r: s }));
    }
    const letter = colourLetter(colour);
    return svg("text", { x: cx, y: cy + 0.13 * SCALE, class: `tac-letter${isDarkColour(colour) ? " on-dark" : ""}`, "data-testid": "router-letter" }, letter);
  }

  function drawRouters() {
    const routers = byId(SLOT_IDS, board.routers);
    const controllers = byId(SLOT_IDS, board.controllers);
    const targets = targetSlots();
    const clickable = new Set(legal().flatMap((m) => (m.type === "place" ? [m.slot] : m.type === "move_controller" ? [m.from] : [])));
    const items = [];
    for (const slot of SLOT_IDS) {
      const colour = routers[slot];
      const isTarget = targets.has(slot);
      const isClickable = clickable.has(slot) || isTarget;
      if (!colour && !isTarget) continue;
      const [cx, cy] = slotCentre(slot);
      const owner = controllers[slot];
      const words = `${slot}${colour ? `: ${colour} router` : ""}${owner !== undefined ? `, ${seatLabel(owner)}'s controller` : ""}`;
      const g = svg("g", {
        class: `tac-router${isClickable ? " clickable" : ""}${isTarget ? " target" : ""}${selected?.kind === "slot" && selected.id === slot ? " selected" : ""}`,
        "data-testid": colour ? "router" : "slot-target", "data-slot": slot, "data-colour": colour || "",
        ...(isClickable ? {
          role: "button", tabindex: "0", "aria-label": isTarget ? `Move the controller to ${slot}` : words,
          onclick: () => clickSlot(slot),
          onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickSlot(slot); } },
        } : {}),
      });
      // A clickable router takes taps on its whole slot, not just the piece.
      if (isClickable) g.append(svg("polygon", { points: trianglePoints(slot, 0.96), class: "tac-hit" }));
      if (colour) {
        const dark = isDarkColour(colour);
        g.append(svg("polygon", { points: trianglePoints(slot, 0.78), fill: colourCss(colour), class: `tac-piece${dark ? " dark" : ""}` }));
        if (owner === undefined) g.append(routerMark(colour, cx, cy));
      } else {
        g.append(svg("polygon", { points: trianglePoints(slot, 0.6), class: "tac-drop" }));
      }
      if (owner !== undefined) g.append(controllerBadge(owner, cx, cy, 0.34 * SCALE, { "data-testid": "controller" }));
      g.append(svg("title", { text: words }));
      items.push(g);
    }
    fill(layers.routers, items);
  }

  function drawTowers() {
    const claims = byId(TOWER_IDS, board.claims);
    const mine = new Set(legal().filter((m) => m.type === "rotate" || m.type === "claim" || m.type === "take_back").map((m) => m.tower));
    for (const tower of TOWER_IDS) {
      const { disc, knob } = towerEls[tower];
      const isLegal = mine.has(tower);
      const isSelected = selected?.kind === "tower" && selected.id === tower;
      disc.setAttribute("class", `tac-disc${isLegal ? " legal" : ""}${isSelected ? " selected" : ""}`);
      knob.dataset.legal = String(isLegal);
      knob.dataset.selected = String(isSelected);
      knob.setAttribute("tabindex", isLegal ? "0" : "-1");
      knob.setAttribute("aria-pressed", String(isSelected));
      const claimant = claims[tower];
      const { badge, centre: [cx, cy] } = towerEls[tower];
      const face = knob.querySelector(".tac-knob-disc");
      face.style.fill = claimant !== undefined ? seatColour(claimant) : "";
      knob.dataset.claimedBy = claimant !== undefined ? String(claimant) : "";
      knob.classList.toggle("legal", isLegal);
      knob.classList.toggle("claimed", claimant !== undefined);
      knob.classList.toggle("claimed-dark", claimant !== undefined && isDarkColour(colourOfSeat(claimant)));
      knob.setAttribute("aria-label", `Tower ${tower}${claimant !== undefined ? `, claimed by ${seatLabel(claimant)}` : ""}`);
      // The claim is a controller standing on the tower: the same badge as on the routers.
      fill(badge, claimant !== undefined ? [controllerBadge(claimant, cx + 0.4 * SCALE, cy - 0.4 * SCALE, 0.27 * SCALE)] : []);
    }
  }

  // Where the two arrows may sit, as [dx, dy] of the anticlockwise one (the clockwise one is
  // mirrored), in board units with y down: up-left/up-right of the knob, between its
  // neighbours' knobs (30 degrees off, over two of the tower's slots); else the same below;
  // else level with the knob, on the edges between slots, squeezed between two knobs.
  // A phone's board stands on a corner: there the spots are the tower's own slot centres,
  // upper pair, side pair, lower pair, each an arrow 40px across (HIT_RADIUS).
  const ARROW_SPOTS = {
    flat: [[-0.97, -0.56, 0.52], [-0.97, 0.56, 0.52], [-1, 0, 0.42]],
    pointy: [[-0.5774, -1, HIT_RADIUS], [-1.1547, 0, HIT_RADIUS], [-0.5774, 1, HIT_RADIUS]],
  };

  /** Whether an arrow at (x, y) would hide a slot the player needs to see or click: a
   *  controller, a router to pick up, or a place to move it to. */
  function arrowHidesSomething(x, y) {
    const controllers = byId(SLOT_IDS, board.controllers);
    const needed = new Set([...Object.keys(controllers), ...targetSlots(),
      ...legal().flatMap((m) => (m.type === "place" ? [m.slot] : m.type === "move_controller" ? [m.from] : []))]);
    return [...needed].some((slot) => {
      const [sx, sy] = slotCentre(slot);
      return Math.hypot(sx - x, sy - y) < 0.85 * SCALE;
    });
  }

  // Two round arrows beside the selected tower, on the board itself, so a phone player turns
  // it without scrolling down to the panel's buttons. They never cover a controller or a
  // router to click (Crossing Advanced): a click there would turn the tower instead.
  function drawArrows() {
    const items = [];
    const turnable = selected?.kind === "tower" && ["ccw", "cw"].some((d) => rotationFor(selected.id, d));
    if (turnable) {
      const tower = selected.id;
      const [cx, cy] = towerCentre(tower);
      const spots = ARROW_SPOTS[view.shape];
      const spot = spots.find(([dx, dy]) => ![dx, -dx].some((ddx) => arrowHidesSomething(cx + ddx * SCALE, cy + dy * SCALE)))
        || spots[spots.length - 1];
      for (const direction of ["ccw", "cw"]) {
        const move = rotationFor(tower, direction);
        const x = cx + (direction === "cw" ? -spot[0] : spot[0]) * SCALE;
        const y = cy + spot[1] * SCALE;
        const words = move ? describeMove(move, board) : (blockedReason(tower, direction) || `You may not turn ${tower} ${DIRECTION_WORDS[direction]} now`);
        items.push(svg("g", {
          class: `tac-arrow${move ? "" : " off"}${move?.reserve ? " reserve" : ""}`,
          role: "button", tabindex: move ? "0" : "-1", "aria-label": words, "aria-disabled": String(!move),
          "data-testid": `board-rotate-${direction}`, "data-tower": tower,
          onclick: (event) => { event.stopPropagation(); if (move) submit(move); },
          onkeydown: (event) => { if (move && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); submit(move); } },
        },
        svg("circle", { cx: x, cy: y, r: spot[2] * SCALE }),
        svg("text", { x, y: y + 0.24 * SCALE }, direction === "cw" ? "↻" : "↺"),
        svg("title", { text: words })));
      }
    }
    fill(layers.arrows, items);
  }

  /** How many actions this turn still has, in the game's own words. */
  function turnWords(turn) {
    if (mode === "cat-mouse") {
      if (turn.seat === 0) {
        if (turn.used === 0) return "make at least one rotation";
        return turn.left > 0
          ? `${turn.used} rotation${turn.used === 1 ? "" : "s"} made (the mouse may go on)`
          : `${turn.used} rotation${turn.used === 1 ? "" : "s"} made: a cat moved, end your turn`;
      }
      return turn.left > 0 ? "1 rotation to make" : "rotation made";
    }
    return `${turn.left} of ${turn.allowed} action${turn.allowed === 1 ? "" : "s"} left`;
  }

  function drawPanel() {
    const turn = board.turn;
    const myTurn = you !== null && (state.active_seats || []).includes(you) && legal().length > 0;
    const over = board.phase === "over" || state.status === "finished";
    undoBtn.disabled = !legal().some((m) => m.type === "undo") || busy;
    confirmBtn.disabled = !legal().some((m) => m.type === "confirm") || busy;
    // Set-up (V7) is all at once and has no turn to end: its only controls are the routers.
    const setup = board.phase === "setup";
    undoBtn.hidden = over || ctx.readOnly || setup || (!myTurn && mode !== "solitary");
    confirmBtn.hidden = !myTurn || setup;
    if (mode === "solitary") {
      counter.textContent = `${board.rotations} rotation${board.rotations === 1 ? "" : "s"} · ${board.placed}/${board.total} home`;
      counter.dataset.rotations = String(board.rotations);
      status.textContent = over
        ? `Solved in ${board.rotations} rotation${board.rotations === 1 ? "" : "s"}.`
        : "Turn any tower. Bring every router around the tower ringed in its colour.";
    } else if (board.phase === "setup") {
      counter.textContent = "";
      status.textContent = myTurn
        ? "Set-up: click two of your routers to put your controllers on them."
        : "Waiting for the others to place their controllers.";
    } else if (turn) {
      counter.textContent = myTurn ? turnWords(turn) : "";
      counter.dataset.left = String(turn.left);
      const who = turn.seat === you ? "Your turn" : `${seatLabel(turn.seat)} (${seatName(turn.seat)}) ${mode === "cat-mouse" && turn.seat === 1 ? "are" : "is"} playing`;
      status.textContent = myTurn
        ? (turn.left > 0 ? (mode === "crossing-advanced"
          ? `${who}: click a highlighted tower to turn or claim it, or one of your controllers to move it.`
          : `${who}: click a highlighted tower, then an arrow beside it.`) : `${who}: no actions left, end your turn (or undo).`)
        : who;
    } else {
      counter.textContent = "";
      status.textContent = state.outcome?.reason || "";
    }
    fill(actionsList, (turn?.actions || []).map((a, i) => h("li", {}, `${i + 1}. ${a}`)));
    actionsList.hidden = !(turn?.actions || []).length;

    // Options for the selection.
    const items = [];
    if (selected?.kind === "tower") {
      const moves = movesForTower(selected.id);
      items.push(h("div", { class: "tac-option-head" }, `Tower ${selected.id}`));
      if (moves.some((m) => m.type === "rotate") || mode === "solitary") items.push(h("div", { class: "tac-rotate" }, rotateButtons(selected.id)));
      const blocked = ["ccw", "cw"].map((d) => (rotationFor(selected.id, d) ? null : blockedReason(selected.id, d))).find(Boolean);
      if (blocked) items.push(h("p", { class: "tac-blocked small", "data-testid": "rotate-blocked" }, blocked));
      for (const move of moves.filter((m) => m.type !== "rotate")) {
        items.push(h("button", { type: "button", class: "ghost small", "data-testid": "action-option", onclick: () => { selected = null; submit(move); } }, describeMove(move, board)));
      }
    } else if (selected?.kind === "slot") {
      items.push(h("div", { class: "tac-option-head" }, `Controller on ${selected.id}: click a highlighted router to move it there.`));
    }
    fill(options, items);
    options.hidden = !items.length;
    drawLegend();
  }

  function drawLegend() {
    const parts = [];
    if (mode === "cat-mouse") {
      parts.push(h("span", {}, `The mouse (red, round ears) runs for the cupboard, the grey dashed row; ${board.cats} cats (black, pointed ears) corner it.`));
    } else if (mode === "solitary") {
      for (const [colour, tower] of Object.entries(board.targets || {})) {
        parts.push(h("span", { class: "tac-chip" }, h("i", { class: isDarkColour(colour) ? "on-dark" : "", style: { background: colourCss(colour) } }, colourLetter(colour)), `${capitalize(colour)} → ${tower}`));
      }
    } else {
      for (const p of board.players || []) {
        const goal = p.goal_tower || "the opposite row";
        const extra = [`${p.in_goal}/${p.routers} home`];
        if (p.team !== null && p.team !== undefined) extra.push(`team ${p.team + 1}`);
        if (board.options?.minority_rotation) extra.push(`${p.reserve} reserve`);
        parts.push(h("span", { class: "tac-chip", "data-testid": "player-chip", "data-seat": p.seat },
          h("i", { class: isDarkColour(p.colour) ? "on-dark" : "", style: { background: colourCss(p.colour) } }, colourLetter(p.colour)),
          `${capitalize(p.colour)} (${seatName(p.seat)}) → ${goal}: ${extra.join(", ")}`));
      }
    }
    fill(legend, parts);
  }

  // ---------------------------------------------------------------- diagram marks
  let marks = [];

  function markClass(mark, shape) {
    const kind = MARK_KINDS.has(mark.kind) ? mark.kind : "hint";
    return `tac-mark tac-mark-${shape} ${kind}`;
  }

  /** A path's arrowhead: a small triangle on its last point, pointing along the last leg. */
  function arrowHead([x1, y1], [x2, y2]) {
    const angle = Math.atan2(y2 - y1, x2 - x1);
    const size = 0.42 * SCALE;
    const corner = (turn) => [x2 - size * Math.cos(angle + turn), y2 - size * Math.sin(angle + turn)];
    return [[x2, y2], corner(0.5), corner(-0.5)].map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" ");
  }

  /** A marked slot's name, small, between its piece's letter and its base: captions name
   *  slots ("from A3 to B4") and the board does not otherwise print them. */
  function slotLabel(slot, mark) {
    const { x, y, up } = GEOMETRY.slots[slot];
    const [lx, ly] = project(x, y + (up ? -0.4 : 0.4));
    return svg("text", { x: lx, y: ly + 0.1 * SCALE, class: `${markClass(mark, "label")}`, "data-mark": "label" }, slot);
  }

  function drawMarks() {
    const items = [];
    for (const mark of marks) {
      if (!mark || typeof mark !== "object") continue;
      if (GEOMETRY.towers[mark.tower]) {
        const [cx, cy] = towerCentre(mark.tower);
        items.push(svg("circle", { cx, cy, r: 2 * SCALE - 2, class: markClass(mark, "tower"), "data-mark": "tower", "data-tower": mark.tower }));
      } else if (GEOMETRY.slots[mark.slot]) {
        items.push(svg("polygon", { points: trianglePoints(mark.slot, 0.9), class: markClass(mark, "slot"), "data-mark": "slot", "data-slot": mark.slot }));
        items.push(slotLabel(mark.slot, mark));
      } else if (SIDES[mark.side]) {
        for (const slot of SIDES[mark.side]) {
          items.push(svg("polygon", { points: trianglePoints(slot, 0.9), class: markClass(mark, "slot"), "data-mark": "side", "data-slot": slot }));
        }
      } else if (Array.isArray(mark.path)) {
        const points = mark.path.filter((slot) => GEOMETRY.slots[slot]).map(slotCentre);
        if (points.length < 2) continue;
        items.push(svg("g", { class: markClass(mark, "path"), "data-mark": "path", "data-path": mark.path.join(" ") },
          svg("polyline", { points: points.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" ") }),
          svg("circle", { cx: points[0][0], cy: points[0][1], r: 0.16 * SCALE }),
          svg("polygon", { points: arrowHead(points[points.length - 2], points[points.length - 1]) })));
        const ends = mark.path.filter((slot) => GEOMETRY.slots[slot]);
        items.push(slotLabel(ends[0], mark), slotLabel(ends[ends.length - 1], mark));
      }
    }
    fill(layers.marks, items);
  }

  function highlight(list) {
    marks = Array.isArray(list) ? list : [];
    drawMarks();
  }

  function render() {
    if (!board) return;
    if (!legal().length) selected = null; // not your turn, or the game is over
    if (selected?.kind === "tower" && !movesForTower(selected.id).length && mode !== "solitary") selected = null;
    if (selected?.kind === "slot" && !movesForSlot(selected.id).length) selected = null;
    drawGoals();
    drawTowers();
    drawRouters();
    drawArrows();
    drawMarks();
    drawPanel();
  }

  // ---------------------------------------------------------------- Solitary clock (V9)
  // Time is a secondary stat beside the rotation count. The rules never see a clock, so it
  // comes from the match summary: started_at, and finished_at once the puzzle is solved.
  const times = { started: null, finished: null, asked: "" };
  let ticker = null;
  const matchId = mode === "solitary" ? (location.pathname.match(/\/(?:match|replay)\/([^/]+)/) || [])[1] : null;

  function showClock() {
    // A replay shows one move of the past: only the solved position owns the finishing time,
    // and the time "so far" of an earlier move is not recorded.
    const belongsToShownMove = !ctx.readOnly || (times.finished && board?.phase === "over");
    if (!times.started || !belongsToShownMove) { clock.hidden = true; return; }
    const end = times.finished ? times.finished : Date.now();
    const seconds = Math.max(0, Math.round((end - times.started) / 1000));
    const m = Math.floor(seconds / 60);
    clock.textContent = `Time ${m}:${String(seconds % 60).padStart(2, "0")}${times.finished ? " (solved)" : ""}`;
    clock.hidden = false;
  }

  async function askTimes(phase) {
    if (!matchId || times.asked === phase) return;
    times.asked = phase;
    try {
      const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}`);
      if (!response.ok) return;
      const summary = await response.json();
      times.started = summary.started_at ? Date.parse(summary.started_at) : null;
      times.finished = summary.finished_at ? Date.parse(summary.finished_at) : null;
    } catch { return; }
    showClock();
    clearInterval(ticker);
    ticker = times.finished || !times.started || ctx.readOnly ? null : setInterval(showClock, 1000);
  }

  // ---------------------------------------------------------------- animation (V2)
  function animateRotation(tower, direction) {
    const ring = GEOMETRY.tower_slots[tower];
    if (!ring) return;
    const [cx, cy] = towerCentre(tower);
    const from = direction === "cw" ? -60 : 60;
    const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    const targets = [...layers.routers.children].filter((el) => ring.includes(el.dataset.slot));
    targets.push(towerEls[tower].knob.querySelector(".tac-knob-tick"));
    const disc = towerEls[tower].disc;
    disc.classList.add("turning");
    setTimeout(() => disc.classList.remove("turning"), 500);
    if (reduce) return;
    for (const el of targets) {
      if (!el?.animate) continue;
      el.style.transformOrigin = `${cx}px ${cy}px`;
      el.style.transformBox = "view-box";
      el.animate([{ transform: `rotate(${from}deg)` }, { transform: "rotate(0deg)" }], { duration: 420, easing: "ease-out" });
    }
  }

  // ---------------------------------------------------------------- contract
  function update(newState, events = []) {
    state = newState;
    board = newState.board || {};
    root.dataset.version = String(newState.version ?? "");
    root.dataset.you = you === null ? "" : String(you);
    root.dataset.phase = board.phase || "";
    wrap.dataset.phase = board.phase || "";
    ensureView();
    render();
    if (mode === "solitary") {
      showClock(); // a replay jump changes which move is shown, not the times
      askTimes(board.phase === "over" ? "over" : "play");
    }
    for (const event of events) {
      if ((event.type === "rotate" || event.type === "undo") && event.tower && event.direction) {
        animateRotation(event.tower, event.direction);
      }
    }
  }

  function describeTurn(s) {
    const b = s.board || {};
    if (s.status === "finished" || b.phase === "over") return null;
    const active = s.active_seats || [];
    const mine = you !== null && active.includes(you) && (s.legal_moves || []).length > 0;
    if (mode === "solitary") {
      // One player, so nobody is "next": before the first rotation the replay says what the
      // puzzle is, afterwards nothing (its own line already tells the move).
      const nextUp = b.rotations === 0 ? "The puzzle: bring every router around the tower ringed in its colour." : "";
      return { mine, title: mine ? "Your puzzle" : "Solitary", detail: `${b.rotations} rotation${b.rotations === 1 ? "" : "s"} so far`, color: "var(--accent)", nextUp };
    }
    if (b.phase === "setup") {
      return mine
        ? { mine, title: "Place your controllers", detail: "Click two of your starting routers.", color: seatColour(you) }
        : { mine: false, title: "Waiting for the others to place their controllers", color: "var(--accent)" };
    }
    const seat = b.turn?.seat;
    if (seat === undefined || seat === null) return null;
    if (mine) {
      const detail = mode === "cat-mouse"
        ? (you === 0 ? "Turn towers around the mouse; turning a cat ends your rotations." : "Turn one tower with a cat on it.")
        : mode === "crossing-advanced"
          ? "Turn or claim a highlighted tower, or move one of your controllers; undo until you confirm."
          : "Turn a highlighted tower; undo until you confirm.";
      return { mine, title: `Your turn: ${turnWords(b.turn)}`, detail, color: seatColour(you) };
    }
    const used = mode === "cat-mouse" ? `${b.turn.used} rotation${b.turn.used === 1 ? "" : "s"} so far` : `${b.turn.used} of ${b.turn.allowed} actions used`;
    return { mine: false, title: `${seatLabel(seat)} (${seatName(seat)}) ${mode === "cat-mouse" && seat === 1 ? "are" : "is"} playing`, detail: used, color: seatColour(seat) };
  }

  function seatInfo(seat) {
    if (!board) return null;
    return { label: seatLabel(seat), color: seatColour(seat) };
  }

  function onKey(event) {
    if (event.key === "Escape" && selected) { selected = null; render(); }
  }
  root.addEventListener("keydown", onKey);

  return {
    update,
    highlight,
    describeTurn,
    seatInfo,
    destroy() {
      root.removeEventListener("keydown", onKey);
      narrow?.removeEventListener?.("change", onNarrowChange);
      clearInterval(ticker);
      wrap.remove();
    },
  };
}

export { COLOURS };
