// C64 Cars: race once around the island and be first across the goal line (rulebook "C64
// Cars" with its six card-back rules, rulings C4 and C8, map K).
// The joystick table is shared with every C64 game (static/js/c64/table.js); this module
// draws the track (walls, checkpoint zones, goal line, start grid), the cars with their gear
// and facing, flipped and off-board cars, a dashboard per car, and animates every drive
// square by square from the server's `drive` event (rebounds, pushes, leaving the board).
// Rules-page diagrams mark squares, joystick cards and spaces through the shared
// table's highlight(marks) (see the top of static/js/c64/table.js and docs/c64-view.md).

import { createC64SceneTable } from "../c64/table.js";
import { DIR_WORDS, SCREEN_ARROWS, capitalize, dirToScreen, faceToDir, oppositeDir, parseSquare, stepSquare } from "../c64/common.js";
import { h, svg } from "../ui.js";

const MAX_GEAR = 3;
const STEP_MS = 260; // animation time per square
const ZONE_COLORS = { East: "#ff9f5a", North: "#7fe0ff", West: "#c78bff" };
// The square of each zone a car reaches first in the race direction: its label goes there.
const ZONE_LABEL_AT = { East: "g3", North: "f8", West: "b6" };
const DELTA = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };

function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

function wallSet(board) {
  return new Set((board.walls || []).map((w) => (typeof w === "string" ? w : w.square)));
}

function zones(board) {
  return board.checkpoints || [];
}

/** Sets a CSS custom property (style objects cannot) and returns the element. */
function withVar(el, name, value) {
  el.style.setProperty(name, value);
  return el;
}

function lapsDone(p) {
  return Object.values(p?.checkpoints || {}).filter(Boolean).length;
}

/** The drive exactly as the server resolves it (C8 rules 1, 4, 5), for the card preview. */
function simulateDrive(board, seat, direction, budget) {
  const walls = wallSet(board);
  const where = new Map((board.players || []).filter((p) => p && p.square).map((p) => [p.seat, p.square]));
  let here = where.get(seat);
  let dir = direction;
  const path = [here];
  const hits = [];
  const pushed = [];
  let rebounded = false;
  let off = false;
  const carOn = (square) => [...where].find(([s, sq]) => sq === square && s !== seat)?.[0];
  while (budget > 0) {
    const ahead = stepSquare(here, dir);
    if (!ahead) { off = true; break; }
    if (walls.has(ahead)) {
      hits.push(ahead);
      if (rebounded) break;
      rebounded = true;
      dir = oppositeDir(dir);
      continue;
    }
    const other = carOn(ahead);
    if (other !== undefined) {
      budget -= 1;
      const dest = stepSquare(ahead, dir);
      if (!dest) where.delete(other);
      else if (!walls.has(dest) && carOn(dest) === undefined) where.set(other, dest);
      pushed.push(other);
      continue;
    }
    here = ahead;
    where.set(seat, here);
    path.push(here);
    budget -= 1;
  }
  return { path, end: off ? null : here, hits, rebounded, off, pushed };
}

/** What a direction card does with this car: which rule, which way, how far. */
function plan(p, face) {
  const dir = faceToDir(p.side, face);
  if (p.gear === 0) return { rule: 0, dir, moveDir: null, n: 0 };
  if (dir === p.facing) return { rule: 1, dir, moveDir: dir, n: p.gear };
  if (p.gear === 1) return { rule: 2, dir, moveDir: dir, n: 1 };
  return { rule: 3, dir, moveDir: p.facing, n: p.gear };
}

/** What a face does for this player right now, in words (shown in the face chooser). */
function faceHelp(face, p, board) {
  if (!p) return "";
  if (p.off) return `your car is off the board: this card only puts it back on ${p.left} (gear 0)`;
  if (p.flipped) return "your car is flipped: this card only turns it back onto its wheels (gear 0)";
  if (face === "left_button") return p.gear >= MAX_GEAR ? "nothing: already in top gear" : `shift up to gear ${p.gear + 1}`;
  if (face === "right_button") return p.gear <= 0 ? "nothing: already in gear 0" : `shift down to gear ${p.gear - 1}`;
  const move = plan(p, face);
  const way = DIR_WORDS[move.dir];
  if (move.rule === 0) return move.dir === p.facing ? "nothing: gear 0" : `turn ${way} (gear 0: no movement)`;
  const drive = simulateDrive(board, p.seat, move.moveDir, move.n);
  const tail = drive.off ? ", off the board!" : drive.rebounded ? `, bounce off a wall to ${drive.end}, gear 0` : ` to ${drive.end}`;
  if (move.rule === 1) return `drive ${move.n} ${way}${tail}`;
  if (move.rule === 2) return `turn ${way} and drive 1 square${tail}`;
  return `too fast to turn: drive ${move.n} ${DIR_WORDS[move.moveDir]}${tail}, then FLIP over facing ${way}`;
}

/** Board highlights for the selected card: the path, where the car ends, walls it hits. */
function preview(board, seat, face) {
  const p = board.players?.[seat];
  if (!p) return [];
  if (p.off) return p.left ? [{ square: p.left, kind: "target" }] : [];
  if (p.flipped) return [{ square: p.square, kind: "target" }];
  if (face === "left_button" || face === "right_button") return [];
  const move = plan(p, face);
  if (move.rule === 0) return [];
  const drive = simulateDrive(board, seat, move.moveDir, move.n);
  const marks = new Map();
  for (const sq of drive.path.slice(1)) marks.set(sq, "hint");
  for (const sq of drive.hits) marks.set(sq, "blocked");
  if (drive.end && drive.end !== p.square) marks.set(drive.end, "target");
  if (drive.off) marks.set(drive.path[drive.path.length - 1], "blocked");
  return [...marks].map(([square, kind]) => ({ square, kind }));
}

function carTitle(p, name) {
  const laps = Object.entries(p.checkpoints || {}).map(([zone, done]) => `${zone} ${done ? "✓" : "—"}`).join(", ");
  const where = p.off ? `off the board (left from ${p.left})` : `on ${p.square}`;
  return `${capitalize(p.color)} car (${name}) ${where}, gear ${p.gear}, facing ${DIR_WORDS[p.facing]}` +
    `${p.flipped ? ", FLIPPED" : ""}; checkpoints: ${laps}`;
}

/** Where an off-board car waits: just inside the edge it left over (grid point units). */
function offBoardPoint(p) {
  const pos = parseSquare(p.left);
  if (!pos) return null;
  const [dx, dy] = DELTA[p.exit] || [0, 0];
  return { gx: pos[0] + 0.5 + dx * 0.3, gy: pos[1] + 0.5 + dy * 0.3 };
}

function createCarsScene(grid, host) {
  grid.svg.classList.add("cars-board");
  const fx = svg("g", { class: "cars-fx", "aria-hidden": "true" });
  grid.svg.append(fx);
  const panel = h("section", { class: "cars-dash", "data-testid": "cars-dashboard", "aria-label": "Cars: gears, facing and checkpoints" });
  host.append(panel);
  let board = null;
  let helpers = null;

  function pieceId(seat) { return `car-${seat}`; }

  function drawLooks() {
    for (const p of (board?.players || []).filter(Boolean)) {
      const el = grid.pieceElement?.(pieceId(p.seat));
      if (!el) continue;
      el.classList.add("cars-car");
      el.classList.toggle("cars-flipped", Boolean(p.flipped));
      el.dataset.gear = String(p.gear);
      el.dataset.flipped = String(Boolean(p.flipped));
    }
  }

  function drawPanel() {
    if (!board || !helpers) return;
    const order = (board.order || []).map((s) => board.players?.[s]).filter(Boolean);
    panel.replaceChildren(
      h("h3", {}, "Race", h("span", { class: "small muted" }, " · one lap counter-clockwise, then cross the line at d|e eastward")),
      h("ul", { class: "cars-list" }, order.map((p) => {
        let state = `on ${p.square}`;
        let tag = null;
        if (p.off) { state = `off the board (left from ${p.left})`; tag = h("span", { class: "cars-tag off" }, "off board"); }
        else if (p.flipped) tag = h("span", { class: "cars-tag flipped" }, "flipped");
        const laps = lapsDone(p);
        return h("li", {
          class: `cars-row${p.seat === helpers.you ? " me" : ""}${board.turn === p.seat ? " turn" : ""}`,
          "data-testid": "cars-row", "data-seat": p.seat, "data-gear": p.gear, "data-facing": p.facing,
          "data-flipped": String(Boolean(p.flipped)), "data-off": String(Boolean(p.off)), "data-checkpoints": laps,
        },
        helpers.swatch(p.seat),
        h("span", { class: "cars-who" }, helpers.seatLabel(p.seat)),
        h("span", { class: "cars-gear", role: "img", "aria-label": `gear ${p.gear} of ${MAX_GEAR}`, title: `gear ${p.gear}` },
          h("span", { class: "cars-gear-num" }, `G${p.gear}`),
          Array.from({ length: MAX_GEAR }, (_, i) => h("span", { class: `cars-pip${i < p.gear ? " on" : ""}` }))),
        h("span", { class: "cars-facing", title: `facing ${DIR_WORDS[p.facing]}` }, `${p.facing ? SCREEN_ARROWS[dirToScreen(p.facing, grid.view)] : "?"} ${DIR_WORDS[p.facing] || ""}`),
        h("span", { class: "cars-where small muted" }, state),
        tag,
        h("span", { class: "cars-cps", role: "img", "aria-label": `checkpoints ${laps} of ${zones(board).length}` },
          zones(board).map((z) => withVar(h("span", {
            class: `cars-cp${p.checkpoints?.[z.name] ? " done" : ""}`, title: `${z.name} checkpoint ${p.checkpoints?.[z.name] ? "reached" : "not yet"}`,
            "data-testid": "cars-checkpoint", "data-zone": z.name, "data-done": String(Boolean(p.checkpoints?.[z.name])),
          }, z.name.charAt(0)), "--zone", ZONE_COLORS[z.name] || "#fff"))),
        );
      })),
    );
  }

  function draw(newBoard, newHelpers) {
    board = newBoard;
    helpers = newHelpers;
    const { you, colorCss, colorLetter, seatName } = helpers;
    const players = (board.players || []).filter(Boolean);
    const mine = board.players?.[you] || null;
    grid.setWalls(board.walls || []);
    const markers = [];
    for (const z of zones(board)) {
      const done = Boolean(mine?.checkpoints?.[z.name]);
      for (const square of z.squares) {
        markers.push({
          id: `cp-${z.name}-${square}`, square, color: ZONE_COLORS[z.name] || "#fff",
          kind: done ? "cars-zone-done" : "cars-zone",
          label: square === ZONE_LABEL_AT[z.name] ? z.name.toUpperCase() : "",
        });
      }
    }
    for (const p of players) {
      if (p.start) markers.push({ id: `start-${p.seat}`, square: p.start, color: colorCss(p.seat), kind: "start", label: `START ${board.order.indexOf(p.seat) + 1}` });
    }
    grid.setMarkers(markers);
    const line = { a: [4, 0], b: [4, 2], title: "Goal line: cross it eastward after your lap" };
    grid.setSegments([
      { ...line, id: "cars-goal-base", stroke: "#0b0930", cls: "cars-goal-base", width: 10 },
      { ...line, id: "cars-goal", stroke: "#ffffff", cls: "cars-goal-line", width: 10 },
    ]);
    // Off-board cars stay in the list without a square: the grid hides them, and a drive
    // that leaves the board can still be animated to the edge.
    grid.setPieces(players.map((p) => ({
      id: pieceId(p.seat),
      square: p.square,
      fill: colorCss(p.seat),
      label: `${colorLetter(p.seat)}${p.flipped ? "✕" : p.gear}`,
      dir: p.facing,
      mine: p.seat === you,
      title: carTitle(p, seatName(p.seat)),
    })));
    grid.setPoints(players.filter((p) => p.off).map((p) => {
      const at = offBoardPoint(p);
      return at && {
        id: `off-${p.seat}`, gx: at.gx, gy: at.gy, r: 12, fill: colorCss(p.seat), label: `${colorLetter(p.seat)}!`,
        cls: "cars-off", mine: p.seat === you, title: `${capitalize(p.color)} car is off the board; it comes back on ${p.left}`,
      };
    }).filter(Boolean));
    drawLooks();
    drawPanel();
    grid.setDescription(
      `C64 Cars track. ${players.map((p) => `${capitalize(p.color)} (${seatName(p.seat)}) ` +
        `${p.off ? `off the board beside ${p.left}` : `on ${p.square}`}, gear ${p.gear}, facing ${DIR_WORDS[p.facing]}` +
        `${p.flipped ? ", flipped" : ""}, ${lapsDone(p)} of 3 checkpoints`).join(". ")}.`,
    );
  }

  /** Every step of the drive, one after another, each car along its own squares. */
  function animateDrive(event) {
    const frames = new Map(); // piece id -> [{at, square, toward, reach, opacity}]
    let t = 0;
    const push = (seat, frame) => {
      const id = pieceId(seat);
      const list = frames.get(id) || [{ at: 0, square: frame.from }];
      const last = list[list.length - 1];
      if (last.at < t) list.push({ ...last, at: t }); // wait while other cars move
      list.push(frame.to);
      frames.set(id, list);
    };
    for (const step of event.steps || []) {
      const { car, kind, from, direction } = step;
      if (kind === "move" || kind === "pushed") {
        push(car, { from, to: { at: t + STEP_MS, square: step.to } });
        t += STEP_MS;
      } else if (kind === "off") {
        push(car, { from, to: { at: t + STEP_MS, square: from, toward: direction, reach: 0.9, opacity: 0 } });
        t += STEP_MS;
        hideUntil(grid.pointElement?.(`off-${car}`), t);
      } else {
        // wall, bump (the driver touches the car ahead), stuck (a pushed car that cannot go)
        const half = kind === "bump" ? STEP_MS / 3 : STEP_MS / 2;
        push(car, { from, to: { at: t + half, square: from, toward: direction, reach: kind === "wall" ? 0.3 : 0.2 } });
        push(car, { from, to: { at: t + 2 * half, square: from } });
        t += 2 * half;
        if (kind === "wall" && step.to) flashWall(step.to, t - half);
      }
    }
    for (const [id, list] of frames) {
      const last = list[list.length - 1];
      if (last.at < t) list.push({ ...last, at: t });
      grid.animatePiece?.(id, list);
    }
    return t;
  }

  /** The off-board marker of a car shows up when the car gets there, not before. */
  function hideUntil(el, delay) {
    if (!el) return;
    el.style.visibility = "hidden";
    setTimeout(() => { el.style.visibility = ""; }, delay);
  }

  function flashWall(square, delay) {
    const c = grid.squareCenter(square);
    if (!c) return;
    const ring = svg("circle", { class: "cars-crash", cx: c.x, cy: c.y, r: 26, style: { animationDelay: `${delay}ms` } });
    fx.append(ring);
    setTimeout(() => ring.remove(), delay + 900);
  }

  function pulse(seat, cls, delay = 0) {
    const el = grid.pieceElement?.(pieceId(seat));
    if (!el) return;
    setTimeout(() => {
      el.classList.remove(cls);
      el.getBoundingClientRect();
      el.classList.add(cls);
      setTimeout(() => el.classList.remove(cls), 900);
    }, delay);
  }

  function onEvents(events) {
    if (reducedMotion()) return;
    let delay = 0;
    for (const event of events) {
      if (event.type === "drive") delay = animateDrive(event);
      else if (event.type === "flip") pulse(event.car, "cars-flip-anim", delay);
      else if (event.type === "gear") pulse(event.car, "cars-shift-anim");
      else if (event.type === "recover" && event.kind !== "return_blocked") pulse(event.car, "cars-shift-anim");
    }
  }

  // The table turns the board (setView) without asking the game to draw again.
  // The facing arrows point the way the car points on the board as it is turned now.
  new MutationObserver(() => { drawLooks(); drawPanel(); }).observe(grid.svg, { attributes: true, attributeFilter: ["data-view"] });

  return { draw, onEvents };
}

function legend(board, { you }) {
  const p = you !== null ? board.players?.[you] : null;
  if (!p) return "One lap counter-clockwise round the island (East, North, West checkpoints), then cross the line between d and e.";
  const where = p.off ? `off the board (comes back on ${p.left})` : `on ${p.square}`;
  const missing = zones(board).filter((z) => !p.checkpoints?.[z.name]).map((z) => z.name);
  const goal = missing.length ? `Checkpoints to go: ${missing.join(", ")}.` : "Lap done: cross the goal line eastward!";
  return `You: ${capitalize(p.color)} car ${where}, gear ${p.gear}, facing ${DIR_WORDS[p.facing]}${p.flipped ? ", flipped" : ""}. ${goal}`;
}

export function createRenderer(root, ctx) {
  return createC64SceneTable(root, ctx, {
    boardLabel: "C64 Cars track",
    createScene: createCarsScene,
    preview,
    faceHelp,
    legend,
  });
}
