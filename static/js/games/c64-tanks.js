// C64 Tanks: drive your tank, fire bullets that bounce off mirror walls (each mirror turns
// when hit) and missiles that land 3 squares away; the first to hit every other tank wins
// (rulebook "C64 Tanks", rulings C4 and C5, map T).
// The joystick table is shared with every C64 game (static/js/c64/table.js); this module
// draws the tanks, the mirrors, who is hit and the discs, and animates the shots: the bullet
// runs along its path square by square and every mirror turns when the bullet reaches it.
// Rules-page diagrams mark squares, joystick cards and spaces through the shared
// table's highlight(marks) (see the top of static/js/c64/table.js and docs/c64-view.md).

import { createC64Table } from "../c64/table.js";
import { DIR_WORDS, capitalize, dirToScreen, faceToDir, stepSquare } from "../c64/common.js";
import { h, svg } from "../ui.js";

// Ruling C5: MIRROR[tilt][direction in] -> direction out; a hit mirror turns / <-> \.
const MIRROR = {
  "/": { N: "E", E: "N", S: "W", W: "S" },
  "\\": { N: "W", W: "N", S: "E", E: "S" },
};
const TURNED = { "/": "\\", "\\": "/" };
const MAX_BULLET_STEPS = 200;
const MISSILE_RANGE = 3;
const SCREEN_DELTA = { up: [0, -1], right: [1, 0], down: [0, 1], left: [-1, 0] };
const STEP_MS = 95; // bullet time per square
const MISSILE_MS = 650;

function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

function wallMap(board) {
  return new Map((board.walls || []).map((w) => (typeof w === "string" ? [w, "/"] : [w.square, w.tilt])));
}

function tankMap(board) {
  return new Map((board.players || []).filter((p) => p && p.square).map((p) => [p.square, p.seat]));
}

function latestOf(p) {
  return p.latest || faceToDir(p.side, "up");
}

/** The bullet's flight exactly as the server computes it (C5), for the card preview. */
function traceBullet(start, direction, walls, tanks) {
  const mirrors = new Map(walls);
  const path = [];
  let square = start;
  let heading = direction;
  while (path.length < MAX_BULLET_STEPS) {
    const next = stepSquare(square, heading);
    if (!next) return { path, end: "exit" };
    square = next;
    path.push(square);
    if (tanks.has(square)) return { path, end: "tank", target: tanks.get(square) };
    const tilt = mirrors.get(square);
    if (tilt) {
      heading = MIRROR[tilt][heading];
      mirrors.set(square, TURNED[tilt]);
    }
  }
  return { path, end: "fizzle" }; // (a repeated exact state cannot happen: see tanks.py)
}

function missileLanding(start, direction) {
  let square = start;
  for (let i = 0; i < MISSILE_RANGE && square; i += 1) square = stepSquare(square, direction);
  return square;
}

function colourWord(board, seat) {
  return capitalize(board.players?.[seat]?.color || "someone");
}

/** What a face does for this player right now, in words (shown in the face chooser). */
function faceHelp(face, p, board) {
  if (!p) return "";
  if (p.hit) return "nothing: you were hit, so your next card has no action";
  const latest = latestOf(p);
  if (face === "left_button") {
    const flight = traceBullet(p.square, latest, wallMap(board), tankMap(board));
    let result = "it leaves the board";
    if (flight.end === "tank") result = flight.target === p.seat ? "it would come back and hit YOU" : `it would hit ${colourWord(board, flight.target)}`;
    else if (flight.end === "fizzle") result = "it fizzles out";
    return `fire a bullet ${DIR_WORDS[latest]}: ${result}`;
  }
  if (face === "right_button") {
    const landing = missileLanding(p.square, latest);
    if (!landing) return `fire a missile 3 squares ${DIR_WORDS[latest]}: it would fly off the board`;
    return `fire a missile 3 squares ${DIR_WORDS[latest]}, onto ${landing}`;
  }
  return `move 1 square ${DIR_WORDS[faceToDir(p.side, face)]}`;
}

/** Board highlights for the selected card: where it goes, the bullet's path, the blast. */
function preview(board, seat, face) {
  const p = board.players?.[seat];
  if (!p || !p.square) return [];
  if (p.hit) return [{ square: p.square, kind: "blocked" }];
  const walls = wallMap(board);
  const tanks = tankMap(board);
  const latest = latestOf(p);
  if (face === "left_button") {
    const flight = traceBullet(p.square, latest, walls, tanks);
    const seen = new Set();
    const out = [];
    flight.path.forEach((square, i) => {
      if (seen.has(square)) return;
      seen.add(square);
      const last = i === flight.path.length - 1 && flight.end === "tank";
      out.push({ square, kind: last ? (flight.target === seat ? "blocked" : "target") : "hint" });
    });
    return out;
  }
  if (face === "right_button") {
    const landing = missileLanding(p.square, latest);
    if (!landing) return [];
    if (walls.has(landing)) return [{ square: landing, kind: "blocked" }];
    const around = ["N", "E", "S", "W"].map((d) => stepSquare(landing, d)).filter(Boolean);
    return [{ square: landing, kind: "target" }, ...around.map((square) => ({ square, kind: "hint" }))];
  }
  const to = stepSquare(p.square, faceToDir(p.side, face));
  if (!to) return [];
  return [{ square: to, kind: walls.has(to) || tanks.has(to) ? "blocked" : "target" }];
}

/** Board furniture for one renderer: the effects layer, hit badges and the disc panel. */
function createTanksScene(grid, host) {
  grid.svg.classList.add("tanks-board");
  const badges = svg("g", { class: "tanks-badges" });
  const fx = svg("g", { class: "tanks-fx", "aria-hidden": "true" });
  grid.svg.append(badges, fx);
  const panel = h("section", { class: "tanks-scores", "data-testid": "tanks-scores", "aria-label": "Hits and discs" });
  host.append(panel);
  let board = null;
  let helpers = null;
  const running = new Set(); // cleanup functions of animations in flight
  let heldHits = new Set(); // seats whose "hit" look waits for the shot to arrive

  function cell() {
    const a = grid.squareCenter("a1");
    const b = grid.squareCenter("b1");
    return Math.hypot(b.x - a.x, b.y - a.y) || 64;
  }

  function pieceEl(seat) {
    return grid.svg.querySelector(`[data-piece="tank-${seat}"]`);
  }

  function drawBadges() {
    badges.replaceChildren();
    if (!board) return;
    const size = cell();
    for (const p of (board.players || []).filter(Boolean)) {
      const stunned = p.hit && !heldHits.has(p.seat);
      pieceEl(p.seat)?.classList.toggle("tanks-stunned", stunned);
      if (!stunned) continue;
      const c = grid.squareCenter(p.square);
      if (!c) continue;
      badges.append(svg("g", { class: "tanks-hit-badge", "data-testid": "tanks-hit-badge", "data-seat": p.seat,
        transform: `translate(${c.x + size * 0.3} ${c.y - size * 0.3})` },
      svg("title", {}, `${capitalize(p.color)} was hit: her next card does nothing`),
      svg("circle", { r: 11 }),
      svg("text", { y: 1 }, "HIT")));
    }
  }
  // The table turns the board (setView) without asking the game to draw again.
  new MutationObserver(drawBadges).observe(grid.svg, { attributes: true, attributeFilter: ["data-view"] });

  function drawPanel() {
    if (!board || !helpers) return;
    const players = (board.players || []).filter(Boolean);
    const order = (board.order || players.map((p) => p.seat)).map((s) => board.players[s]).filter(Boolean);
    const need = players.length - 1;
    panel.replaceChildren(
      h("h3", {}, "Discs", h("span", { class: "small muted" }, ` · hit every other tank to win`)),
      h("ul", { class: "tanks-score-list" }, order.map((p) => {
        const discs = new Set(p.discs || []);
        const opponents = order.filter((o) => o.seat !== p.seat);
        const stunned = p.hit && !heldHits.has(p.seat);
        return h("li", { class: `tanks-score${p.seat === helpers.you ? " me" : ""}${board.turn === p.seat ? " turn" : ""}`,
          "data-testid": "tanks-score", "data-seat": p.seat, "data-discs": discs.size, "data-hit": String(Boolean(p.hit)) },
        helpers.swatch(p.seat),
        h("span", { class: "tanks-who" }, helpers.seatLabel(p.seat)),
        h("span", { class: "tanks-discs", role: "img",
          "aria-label": `has hit ${[...discs].map((s) => colourWord(board, s)).join(", ") || "nobody"} (${discs.size} of ${need})` },
        opponents.map((o) => h("span", {
          class: `tanks-disc${discs.has(o.seat) ? " got" : ""}`, "data-testid": "tanks-disc",
          "data-of": o.seat, "data-got": String(discs.has(o.seat)),
          title: discs.has(o.seat) ? `${capitalize(o.color)} disc: hit` : `${capitalize(o.color)}: not hit yet`,
          style: `--disc: ${helpers.colorCss(o.seat)}`,
        }, helpers.colorLetter(o.seat)))),
        h("span", { class: "tanks-count" }, `${discs.size}/${need}`),
        stunned ? h("span", { class: "tanks-hit-tag", "data-testid": "tanks-hit-tag" }, "hit · skips next card") : null);
      })),
    );
  }

  function draw(newBoard, newHelpers) {
    board = newBoard;
    helpers = newHelpers;
    drawBadges();
    drawPanel();
  }

  function finishAll() {
    for (const stop of [...running]) stop();
  }

  /**
   * Drives `marks` ([ms, fn], sorted) by the clock of the Web Animation `anim`, so that what
   * happens on the way (mirrors turning, the hit) stays in step with the moving bullet even
   * when the animation is slowed or paused. `done` cleans up; a newer shot finishes it early
   * (all remaining marks run first, so the board ends up right).
   */
  function drive(anim, marks, done) {
    let i = 0;
    let frame = 0;
    let over = false;
    const stop = () => {
      if (over) return;
      over = true;
      cancelAnimationFrame(frame);
      while (i < marks.length) marks[i++][1]();
      running.delete(stop);
      done();
    };
    const tick = () => {
      if (over) return;
      const t = anim.playState === "finished" ? Infinity : (anim.currentTime ?? 0);
      while (i < marks.length && marks[i][0] <= t) marks[i++][1]();
      if (i >= marks.length) stop();
      else frame = requestAnimationFrame(tick);
    };
    running.add(stop);
    frame = requestAnimationFrame(tick);
  }

  function offBoard(square, dir) {
    const c = grid.squareCenter(square);
    const [dx, dy] = SCREEN_DELTA[dirToScreen(dir, grid.view)];
    const size = cell();
    return { x: c.x + dx * size * 0.9, y: c.y + dy * size * 0.9 };
  }

  function flash(seat) {
    const el = pieceEl(seat);
    if (!el) return;
    el.classList.remove("tanks-flash");
    el.getBoundingClientRect();
    el.classList.add("tanks-flash");
    setTimeout(() => el.classList.remove("tanks-flash"), 900);
  }

  function boom(square, kind = "boom") {
    const c = grid.squareCenter(square);
    if (!c) return;
    const ring = svg("circle", { class: `tanks-${kind}`, cx: c.x, cy: c.y, r: cell() * 0.42 });
    fx.append(ring);
    setTimeout(() => ring.remove(), 800);
  }

  function releaseHits(seats) {
    for (const s of seats) heldHits.delete(s);
    drawBadges();
    drawPanel();
  }

  function animateBullet(event) {
    const ms = reducedMotion() ? 0 : STEP_MS;
    const points = [event.from, ...event.path].map((sq) => grid.squareCenter(sq));
    if (event.end === "exit") points.push(offBoard(event.path.at(-1) || event.from, event.heading));
    // Walls already show their final tilt: turn each back by its number of turns, then
    // forward a quarter turn at the moment the bullet reaches it.
    const turns = new Map();
    for (const f of event.flips || []) turns.set(f.square, (turns.get(f.square) || 0) + 1);
    const sticks = new Map();
    for (const [square, count] of turns) {
      const stick = grid.svg.querySelector(`.wall[data-square="${square}"] .wall-stick`);
      if (!stick) continue;
      stick.style.transition = "none";
      stick.style.transform = `rotate(${-90 * count}deg)`;
      stick.getBoundingClientRect();
      stick.style.transition = "";
      sticks.set(square, { stick, angle: -90 * count });
    }
    const trail = svg("polyline", { class: "tanks-trail", points: points.map((p) => `${p.x},${p.y}`).join(" "), pathLength: 1 });
    const bullet = svg("circle", { class: "tanks-bullet", r: 7, cx: 0, cy: 0, "data-testid": "tanks-bullet" });
    fx.append(trail, bullet);
    const duration = Math.max(1, (points.length - 1) * ms);
    const anim = bullet.animate(points.map((p) => ({ transform: `translate(${p.x}px, ${p.y}px)` })),
      { duration, easing: "linear", fill: "forwards" });
    trail.animate([{ strokeDashoffset: 1 }, { strokeDashoffset: 0 }], { duration, easing: "linear", fill: "forwards" });
    const marks = (event.flips || []).map((f) => [(f.step + 1) * ms, () => {
      const entry = sticks.get(f.square);
      if (!entry) return;
      entry.angle += 90;
      entry.stick.style.transform = `rotate(${entry.angle}deg)`;
      const wall = entry.stick.closest(".wall");
      wall?.classList.remove("tanks-turning");
      wall?.getBoundingClientRect();
      wall?.classList.add("tanks-turning");
    }]);
    const hits = event.hits || [];
    marks.push([duration, () => {
      for (const seat of hits) flash(seat);
      const last = event.path.at(-1);
      if (event.end === "tank" && last) boom(last);
      if (event.end === "fizzle") boom(last || event.from, "fizzle");
      releaseHits(hits);
    }]);
    drive(anim, marks, () => {
      for (const { stick } of sticks.values()) {
        stick.style.transform = "";
        setTimeout(() => stick.closest(".wall")?.classList.remove("tanks-turning"), 500);
      }
      bullet.remove();
      trail.classList.add("fading");
      setTimeout(() => trail.remove(), 600);
    });
  }

  function animateMissile(event) {
    const from = grid.squareCenter(event.from);
    let to = event.landing ? grid.squareCenter(event.landing) : null;
    if (!to) {
      const [dx, dy] = SCREEN_DELTA[dirToScreen(event.direction, grid.view)];
      const size = cell();
      to = { x: from.x + dx * size * MISSILE_RANGE, y: from.y + dy * size * MISSILE_RANGE };
    }
    const shell = svg("circle", { class: "tanks-missile", r: 8, cx: 0, cy: 0, "data-testid": "tanks-missile" });
    const mid = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 - cell() * 0.9 };
    fx.append(shell);
    const duration = reducedMotion() ? 1 : MISSILE_MS;
    const anim = shell.animate([
      { transform: `translate(${from.x}px, ${from.y}px) scale(1)` },
      { transform: `translate(${mid.x}px, ${mid.y}px) scale(1.9)` },
      { transform: `translate(${to.x}px, ${to.y}px) scale(1)` },
    ], { duration, easing: "ease-in-out", fill: "forwards" });
    const hits = event.hits || [];
    drive(anim, [[duration, () => {
      if (event.result === "blast") {
        const size = cell();
        for (const square of event.area || []) {
          const xy = grid.squareCenter(square);
          const rect = svg("rect", { class: "tanks-blast", x: xy.x - size / 2 + 3, y: xy.y - size / 2 + 3,
            width: size - 6, height: size - 6, rx: 8 });
          fx.append(rect);
          setTimeout(() => rect.remove(), 900);
        }
        boom(event.landing);
      } else if (event.result === "wall") {
        boom(event.landing, "fizzle");
      }
      for (const seat of hits) flash(seat);
      releaseHits(hits);
    }]], () => shell.remove());
  }

  function onEvents(events, newBoard) {
    board = newBoard;
    const shots = events.filter((e) => e.type === "bullet" || e.type === "missile");
    if (shots.length) finishAll();
    // Until the shot arrives, a freshly hit tank still looks fine.
    heldHits = new Set(shots.flatMap((e) => e.hits || []));
    drawBadges();
    drawPanel();
    for (const event of events) {
      if (event.type === "blocked" && event.seat !== undefined) grid.bump(`tank-${event.seat}`, event.direction);
      else if (event.type === "bullet") animateBullet(event);
      else if (event.type === "missile") animateMissile(event);
      else if (event.type === "skip") {
        const el = pieceEl(event.seat);
        el?.classList.remove("tanks-dazed");
        el?.getBoundingClientRect();
        el?.classList.add("tanks-dazed");
        setTimeout(() => el?.classList.remove("tanks-dazed"), 700);
      }
    }
  }

  return { draw, onEvents };
}

export function createRenderer(root, ctx) {
  let scene = null;
  const table = createC64Table(root, ctx, {
    boardLabel: "C64 Tanks board",
    drawBoard(grid, board, helpers) {
      const { you, colorCss, colorLetter, seatName } = helpers;
      grid.setWalls(board.walls || []);
      grid.setMarkers([]);
      const players = (board.players || []).filter(Boolean);
      grid.setPieces(players.filter((p) => p.square).map((p) => ({
        id: `tank-${p.seat}`,
        square: p.square,
        fill: colorCss(p.seat),
        label: colorLetter(p.seat),
        dir: latestOf(p),
        mine: p.seat === you,
        title: `${capitalize(p.color)} tank (${seatName(p.seat)}) on ${p.square}, gun ${DIR_WORDS[latestOf(p)]}` +
          `${p.hit ? ", hit: skips her next card" : ""}; discs ${(p.discs || []).length} of ${players.length - 1}`,
      })));
      grid.setDescription(
        `C64 Tanks board. ${players.map((p) => `${capitalize(p.color)} (${seatName(p.seat)}) on ${p.square}, gun ${DIR_WORDS[latestOf(p)]}` +
          `${p.hit ? ", hit" : ""}, ${(p.discs || []).length} of ${players.length - 1} discs`).join(". ")}. ` +
        `${(board.walls || []).length} mirror walls.`,
      );
      if (!scene) {
        const host = root.querySelector(".c64-board-info") || root;
        scene = createTanksScene(grid, host);
      }
      scene.draw(board, helpers);
    },
    onEvents(grid, events, board) {
      scene?.onEvents(events, board);
    },
    preview,
    faceHelp,
    legend(board, { you }) {
      const p = you !== null ? board.players?.[you] : null;
      if (!p) return "Hit every other tank once to win. Mirrors turn when a bullet bounces off them.";
      const missing = (board.players || []).filter((o) => o && o.seat !== you && !(p.discs || []).includes(o.seat));
      const goal = missing.length ? `Still to hit: ${missing.map((o) => capitalize(o.color)).join(", ")}.` : "";
      return `You: ${capitalize(p.color)} tank on ${p.square}, gun ${DIR_WORDS[latestOf(p)]}. ${goal}`;
    },
  });
  return table;
}
