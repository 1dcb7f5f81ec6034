// C64 Monsters: sneak into the monsters' lairs, grab a treasure and bring it home to your
// corner (rulebook "C64 Monsters", rulings C4 and C6, map M).
// The joystick table is shared with every C64 game (static/js/c64/table.js); this module
// draws the lairs, adventurers, monsters and treasure discs (loose or carried), a panel of who
// carries what, and animates a move card in order: the adventurer's step, then her monster's
// step the opposite way, then everyone an encounter sends home.
// Rules-page diagrams mark squares, joystick cards and spaces through the shared
// table's highlight(marks) (see the top of static/js/c64/table.js and docs/c64-view.md).

import { createC64SceneTable } from "../c64/table.js";
import { DIR_WORDS, capitalize, faceToDir, oppositeDir, parseSquare, stepSquare } from "../c64/common.js";
import { h, svg } from "../ui.js";

const STEP_MS = 300; // one sub-move
const RESET_MS = 520; // pieces going home
// Treasure discs sit in the corners of a square, so a piece standing there still shows them:
// the top corners as the board is seen first, because the square's label (LAIR, HOME) is
// written along its bottom edge; a carried one rides on its adventurer's top right.
const LOOSE_NEAR = 0.2;
const CARRIED_NEAR = 0.18;

function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

function wallSet(board) {
  return new Set((board.walls || []).map((w) => (typeof w === "string" ? w : w.square)));
}

/** Sets a CSS custom property (style objects cannot) and returns the element. */
function withVar(el, name, value) {
  el.style.setProperty(name, value);
  return el;
}

function players(board) {
  return (board.players || []).filter(Boolean);
}

function word(board, seat) {
  return capitalize(board.players?.[seat]?.color || "someone");
}

/** What a face does for this player right now, in words (shown in the face chooser). */
function faceHelp(face, p, board) {
  if (!p) return "";
  if (face === "left_button") {
    if (p.carrying !== null && p.carrying !== undefined) return "nothing: you already carry a treasure";
    const here = players(board).filter((o) => o.treasure === p.square);
    return here.length ? `pick up ${word(board, here[0].seat)}'s treasure` : "pick up a treasure on your square (there is none)";
  }
  if (face === "right_button") {
    if (p.carrying === null || p.carrying === undefined) return "nothing: you carry no treasure";
    return "use your treasure: monsters next to you go home, and so does the treasure";
  }
  const dir = faceToDir(p.side, face);
  return `move 1 square ${DIR_WORDS[dir]}; your monster moves 1 square ${DIR_WORDS[oppositeDir(dir)]}`;
}

/** Board highlights for the selected card. */
function preview(board, seat, face) {
  const p = board.players?.[seat];
  if (!p || !p.square) return [];
  const all = players(board);
  if (face === "left_button") {
    const ok = (p.carrying === null || p.carrying === undefined) && all.some((o) => o.treasure === p.square);
    return [{ square: p.square, kind: ok ? "target" : "blocked" }];
  }
  if (face === "right_button") {
    if (p.carrying === null || p.carrying === undefined) return [{ square: p.square, kind: "blocked" }];
    const near = ["N", "E", "S", "W"].map((d) => stepSquare(p.square, d)).filter(Boolean);
    return near.map((sq) => ({ square: sq, kind: all.some((o) => o.monster === sq) ? "target" : "hint" }));
  }
  const walls = wallSet(board);
  const dir = faceToDir(p.side, face);
  const marks = [];
  const to = stepSquare(p.square, dir);
  if (to) marks.push({ square: to, kind: walls.has(to) || all.some((o) => o.square === to) ? "blocked" : "target" });
  const mto = stepSquare(p.monster, oppositeDir(dir));
  if (mto && mto !== to) marks.push({ square: mto, kind: walls.has(mto) || all.some((o) => o.monster === mto) ? "blocked" : "hint" });
  return marks;
}

function createMonstersScene(grid, host) {
  grid.svg.classList.add("monsters-board");
  const fx = svg("g", { class: "monsters-fx", "aria-hidden": "true" });
  // The lair and home labels lie over the pieces (with a dark outline), so a monster at home
  // or a treasure disc never hides the word.
  const labels = svg("g", { class: "monsters-labels", "aria-hidden": "true" });
  grid.svg.append(fx, labels);
  const panel = h("section", { class: "monsters-panel", "data-testid": "monsters-panel", "aria-label": "Adventurers and treasures" });
  host.append(panel);
  let board = null;
  let helpers = null;

  /** Pieces sharing a square (a reset piece, C6) step aside so both stay visible. */
  function drawLooks() {
    if (!board) return;
    const bySquare = new Map();
    for (const p of players(board)) {
      for (const [id, square] of [[`adventurer-${p.seat}`, p.square], [`monster-${p.seat}`, p.monster]]) {
        if (!bySquare.has(square)) bySquare.set(square, []);
        bySquare.get(square).push(id);
      }
    }
    for (const [square, ids] of bySquare) {
      const c = grid.squareCenter(square);
      ids.forEach((id, i) => {
        const el = grid.pieceElement?.(id);
        if (!el || !c) return;
        const crowded = ids.length > 1;
        el.classList.toggle("monsters-crowded", crowded);
        if (crowded) {
          const shift = (i - (ids.length - 1) / 2) * 22;
          el.style.transform = `translate(${c.x + shift}px, ${c.y + shift / 2}px)`;
        }
      });
    }
    for (const p of players(board)) {
      const el = grid.pieceElement?.(`monster-${p.seat}`);
      if (!el) continue;
      el.classList.add("monsters-monster");
      el.style.color = helpers?.colorCss(p.seat) || ""; // the spikes (ring) take the colour
    }
  }

  function drawPanel() {
    if (!board || !helpers) return;
    const order = (board.order || []).map((s) => board.players?.[s]).filter(Boolean);
    panel.replaceChildren(
      h("h3", {}, "Treasure hunt", h("span", { class: "small muted" }, " · bring any treasure home to your corner")),
      h("ul", { class: "monsters-list" }, order.map((p) => {
        const carrying = p.carrying !== null && p.carrying !== undefined;
        return h("li", {
          class: `monsters-row${p.seat === helpers.you ? " me" : ""}${board.turn === p.seat ? " turn" : ""}`,
          "data-testid": "monsters-row", "data-seat": p.seat, "data-carrying": carrying ? String(p.carrying) : "",
        },
        helpers.swatch(p.seat),
        h("span", { class: "monsters-who" }, helpers.seatLabel(p.seat)),
        h("span", { class: "small muted" }, `on ${p.square} · home ${p.corner} · monster on ${p.monster}`),
        carrying
          ? withVar(h("span", { class: "monsters-tag carry" }, `carries ${word(board, p.carrying)}'s treasure`), "--disc", helpers.colorCss(p.carrying))
          : h("span", { class: "monsters-tag" }, "empty-handed"),
        );
      })),
    );
  }

  /** The corners of `square` as [file, rank] offsets in grid point units, in the order the
   *  treasures fill them on screen: top left, top right, bottom left, bottom right. */
  function screenCorners(square, near) {
    const [file, rank] = parseSquare(square);
    const c = grid.squareCenter(square);
    const corners = [[near, near], [1 - near, near], [near, 1 - near], [1 - near, 1 - near]].map((spot) => {
      const xy = grid.pointXY(file + spot[0], rank + spot[1]);
      return { spot, rank: (xy.y < c.y ? 0 : 2) + (xy.x < c.x ? 0 : 1) };
    });
    return corners.sort((a, b) => a.rank - b.rank).map((corner) => corner.spot);
  }

  function drawLabels(all, colorCss) {
    labels.replaceChildren();
    for (const p of all) {
      for (const [square, word] of [[p.centre, "LAIR"], [p.corner, "HOME"]]) {
        const c = grid.squareCenter(square);
        if (!c) continue;
        labels.append(svg("text", {
          class: "monsters-label", x: c.x, y: c.y + 29, fill: colorCss(p.seat),
          "data-testid": "monsters-label", "data-square": square,
        }, word));
      }
    }
  }

  function draw(newBoard, newHelpers) {
    board = newBoard;
    helpers = newHelpers;
    const { you, colorCss, colorLetter, seatName } = helpers;
    const all = players(board);
    grid.setWalls(board.walls || []);
    const markers = [];
    for (const p of all) {
      markers.push({ id: `home-${p.seat}`, square: p.corner, color: colorCss(p.seat), kind: "goal", label: "", mine: p.seat === you });
      markers.push({ id: `lair-${p.seat}`, square: p.centre, color: colorCss(p.seat), kind: "start", label: "" });
    }
    grid.setMarkers(markers);
    const pieces = [];
    for (const p of all) {
      const name = seatName(p.seat);
      const carrying = p.carrying !== null && p.carrying !== undefined;
      pieces.push({
        id: `adventurer-${p.seat}`, square: p.square, fill: colorCss(p.seat),
        label: colorLetter(p.seat), mine: p.seat === you,
        title: `${capitalize(p.color)} adventurer (${name}) on ${p.square}${carrying ? `, carrying ${word(board, p.carrying)}'s treasure` : ""}; home ${p.corner}`,
      });
      pieces.push({
        id: `monster-${p.seat}`, square: p.monster, fill: colorCss(p.seat), label: colorLetter(p.seat),
        title: `${capitalize(p.color)} monster on ${p.monster}; it moves opposite to ${capitalize(p.color)}'s adventurer`,
      });
    }
    grid.setPieces(pieces);
    const points = [];
    const used = new Map();
    for (const p of all) {
      const carrier = all.find((o) => o.carrying === p.seat);
      const square = carrier ? carrier.square : p.treasure;
      const pos = parseSquare(square);
      if (!pos) continue;
      let spot = screenCorners(square, CARRIED_NEAR)[1];
      if (!carrier) {
        const n = used.get(square) || 0;
        used.set(square, n + 1);
        spot = screenCorners(square, LOOSE_NEAR)[n % 4];
      }
      points.push({
        id: `treasure-${p.seat}`, gx: pos[0] + spot[0], gy: pos[1] + spot[1], r: 10, fill: colorCss(p.seat), label: colorLetter(p.seat),
        cls: `monsters-treasure${carrier ? " carried" : ""}`,
        title: `${capitalize(p.color)} treasure ${carrier ? `carried by ${word(board, carrier.seat)}` : `on ${square}`}`,
      });
    }
    grid.setPoints(points);
    drawLabels(all, colorCss);
    drawLooks();
    drawPanel();
    grid.setDescription(
      `C64 Monsters board. ${all.map((p) => `${capitalize(p.color)} (${seatName(p.seat)}) on ${p.square}` +
        `${p.carrying !== null && p.carrying !== undefined ? ` carrying ${word(board, p.carrying)}'s treasure` : ""}, ` +
        `monster on ${p.monster}, treasure ${p.treasure || "carried"}`).join(". ")}.`,
    );
  }

  function burst(square, delay) {
    const c = grid.squareCenter(square);
    if (!c) return;
    const ring = svg("circle", { class: "monsters-burst", cx: c.x, cy: c.y, r: 28, style: { animationDelay: `${delay}ms` } });
    fx.append(ring);
    setTimeout(() => ring.remove(), delay + 1000);
  }

  /** The move in order: adventurer, monster, then pieces sent home. */
  function onEvents(events) {
    if (reducedMotion() || !board) return;
    const frames = new Map();
    let t = 0;
    const go = (id, from, to, duration) => {
      const list = frames.get(id) || [{ at: 0, square: from }];
      const last = list[list.length - 1];
      if (last.at < t) list.push({ ...last, at: t });
      list.push({ at: t + duration, square: to });
      frames.set(id, list);
    };
    for (const event of events) {
      if (event.type === "move" && event.piece) {
        go(`${event.piece}-${event.owner}`, event.from, event.to, STEP_MS);
        t += STEP_MS;
      } else if (event.type === "blocked" && event.piece) {
        const id = `${event.piece}-${event.owner}`;
        setTimeout(() => grid.bump(id, event.direction), t);
        t += STEP_MS / 2;
      } else if (event.resets) {
        if (event.type === "encounter") burst(event.square, t);
        let moved = false;
        for (const r of event.resets) {
          if (r.piece === "treasure" || r.from === r.to) continue;
          go(`${r.piece}-${r.owner}`, r.from, r.to, RESET_MS);
          moved = true;
        }
        if (moved) t += RESET_MS;
      }
    }
    for (const [id, list] of frames) {
      const last = list[list.length - 1];
      if (last.at < t) list.push({ ...last, at: t });
      const animation = grid.animatePiece?.(id, list);
      // The step aside of shared squares comes back once the pieces have arrived.
      animation?.addEventListener("finish", drawLooks);
    }
  }

  // Turning the board moves the screen corners the treasures and labels sit in.
  new MutationObserver(() => { if (board) draw(board, helpers); }).observe(grid.svg, { attributes: true, attributeFilter: ["data-view"] });
  return { draw, onEvents };
}

function legend(board, { you }) {
  const p = you !== null ? board.players?.[you] : null;
  if (!p) return "Grab any treasure from the monsters' lairs and bring it home to your corner. Your monster always moves the opposite way.";
  const carrying = p.carrying !== null && p.carrying !== undefined;
  return `You: ${capitalize(p.color)} on ${p.square}, ${carrying ? `carrying ${word(board, p.carrying)}'s treasure: get home to ${p.corner}!` : `no treasure yet (the lairs are in the middle; home is ${p.corner}).`}`;
}

export function createRenderer(root, ctx) {
  return createC64SceneTable(root, ctx, {
    boardLabel: "C64 Monsters board",
    createScene: createMonstersScene,
    preview,
    faceHelp,
    legend,
  });
}
