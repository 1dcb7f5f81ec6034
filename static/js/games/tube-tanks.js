// Tank Skirmish (tube edition): three tanks a side on the 15x15 Zone (rules and rulings K1-K14:
// docs/rules/tube-tanks.md). The active tank is ringed; in Move mode its reachable cells show their cost
// and a click drives it there step by step; in Fire mode a click picks a target and the panel
// shows the dice, the chance to hit and, with Energy Bolts, what the line meets first. Every
// shot rolls the server's dice, shown tumbling here for both players. Everything clickable
// comes from `legal_moves`, so the UI never offers a move the rules would refuse.
// Also exports createOptionsEditor: the lobby's custom-zone editor (see below).
//
// Rules-page diagrams (ctx.diagram): the board, the last shot and the tank cards, read-only
// (no controls), the whole Zone at once, and the shot's line kept on screen. `highlight(marks)`
// outlines what the caption points at; each mark is one of
//   {cell: "F8", kind, label?}         a cell (label: a short text drawn above it)
//   {row: 15, kind} / {column: "E", kind}   a whole row or column
//   {from: "E1", to: "H15", kind: "line"}   a line between two cell centres
//   {kind: "reach"}                    every cell the active tank can still reach, with its cost
// kind: "hint" (yellow), "target" (red), "blocked" (red, crossed), "path" (dashed), "goal"
// (green), "reach"; unknown kinds draw as "hint". The marks stay through later `update`s.

import { pipDie } from "../dice.js";
import { fill, h, svg, toast } from "../ui.js";
import {
  boltPath, cellName, diceCount, distance, hitChance, occupancy, onBoard, parseCell, pathTo, percent,
} from "../tube-tanks/geometry.js";
import { SETUPS } from "../tube-tanks/setups.js";
import { SIDE_COLORS, createZone, ensureCss } from "../tube-tanks/zone-svg.js";
import { createPanner } from "../tube-tanks/panner.js";

const SIDES = ["green", "orange"];
const COMPASS_WORDS = { 2: "N", 5: "S", 3: "W", 4: "E" };

function capital(word) { return word ? word[0].toUpperCase() + word.slice(1) : ""; }
function tankName(tank) { return `${capital(tank.side)} ${tank.number}`; }
function where(tank) { return tank.cell ? tank.cell : "(destroyed)"; }

function die(face, { rolling = false, index = 0 } = {}) {
  return pipDie(face, {
    class: `die tt-die${rolling ? " tt-rolling" : ""}${face === 1 ? " tt-die-one" : ""}`,
    "data-testid": "tt-die", style: { animationDelay: `${index * 40}ms` },
  });
}

function compass(board, flipped) {
  const c = board?.compass || { 2: [0, 1], 5: [0, -1], 3: [-1, 0], 4: [1, 0] };
  const turn = flipped ? -1 : 1; // the compass card lies beside the Zone: it turns with it
  const pos = (v) => [30 + turn * c[v][0] * 19, 30 - turn * c[v][1] * 19];
  return h("div", { class: "tt-compass", "data-testid": "tt-compass" },
    svg("svg", { viewBox: "0 0 60 60", width: 64, height: 64, class: "tt-compass-svg", role: "img", "aria-label": "Compass: 2 north, 5 south, 3 west, 4 east" },
      svg("rect", { x: 2, y: 2, width: 56, height: 56, rx: 8, class: "tt-compass-card" }),
      svg("path", { d: "M30 12 L34 30 L30 48 L26 30 Z", class: "tt-compass-needle" }),
      ...Object.keys(COMPASS_WORDS).map((v) => {
        const [x, y] = pos(v);
        return svg("text", { x, y: y + 4, class: "tt-compass-num" }, v);
      })),
    h("span", { class: "small muted", "data-testid": "tt-compass-text" },
      `Collateral compass: each remaining die moves the shot one space this way (2 north, 5 south, 3 west, 4 east). North (row 15) is at the ${flipped ? "bottom" : "top"} of your board.`));
}

export function createRenderer(root, ctx) {
  ensureCss();
  const you = ctx.you ?? null;
  const diagram = Boolean(ctx.diagram);
  let highlights = [];
  let state = null;
  let board = null;
  let mode = "move";
  let selected = null; // a cell name
  let busy = false;
  let lastShot = null; // {line}: the fresh shot's line, drawn for a few seconds
  let shotTimer = null;
  let shownShot = null; // what the "last shot" panel shows, so a re-render does not re-roll it

  const hint = h("p", { class: "tt-hint small", "data-testid": "tt-hint", "aria-live": "polite" });
  const boardWrap = h("div", { class: "panel tt-board-wrap tt-zoomed" });
  const zoneHost = h("div", { class: "tt-zone-host" });
  // On a phone the Zone is wider than the screen (cells big enough to tap) and pans inside
  // this viewport; elsewhere it simply fits (tube-tanks.css).
  const viewport = h("div", { class: "tt-viewport", "data-phone": "board", "data-testid": "tt-viewport" }, zoneHost);
  let flipped = you === 1; // each player sees her own home edge at the bottom
  let zone = createZone(zoneHost, { label: "The Zone", onCell, flipped });
  const panner = createPanner(viewport, () => ({ zone: zone.el, flipped, cells: focusCells() }));
  const flipButton = h("button", {
    type: "button", class: "ghost small", "data-testid": "tt-flip",
    onclick: () => {
      flipped = !flipped;
      zone.el.remove();
      zone = createZone(zoneHost, { label: "The Zone", onCell, flipped });
      render();
      panner.focus();
    },
  }, "Turn the board");
  let zoomed = !diagram; // a diagram shows the whole Zone: its caption may point anywhere
  const zoomButton = h("button", {
    type: "button", class: "ghost small tt-zoom-toggle", "data-testid": "tt-zoom", "aria-pressed": String(zoomed),
    onclick: () => {
      zoomed = !zoomed;
      boardWrap.classList.toggle("tt-zoomed", zoomed);
      zoomButton.setAttribute("aria-pressed", String(zoomed));
      zoomButton.textContent = zoomed ? "Whole board" : "Zoom in";
      panner.focus();
    },
  }, zoomed ? "Whole board" : "Zoom in");
  boardWrap.classList.toggle("tt-zoomed", zoomed);
  boardWrap.append(viewport, h("div", { class: "tt-board-tools" }, hint, h("div", { class: "tt-tool-buttons" }, zoomButton, flipButton)));
  const controls = h("section", { class: "panel tt-controls", "data-testid": "tt-controls", "data-phone": "controls", "aria-label": "Your tank" });
  const diceBox = h("section", { class: "panel tt-dice-box", "data-testid": "tt-dice-box", "aria-label": "Last shot", "aria-live": "polite" });
  const cards = h("section", { class: "panel tt-cards", "data-testid": "tt-cards", "aria-label": "Tank cards" });
  const extras = h("section", { class: "panel tt-extras" });
  // The stage holds what a decision needs (board and controls): on a phone it is exactly the
  // room left under the banners; the rest of the table follows below it.
  const stage = h("div", { class: "tt-stage" }, boardWrap, controls);
  const table = h("div", { class: `tt-table${diagram ? " tt-diagram" : ""}`, "data-testid": "tt-table" }, stage, diceBox, cards, extras);
  root.append(table);

  // ---------------------------------------------------------------- legal moves
  function legal() { return state?.legal_moves || []; }
  function myTurn() { return !diagram && you !== null && legal().length > 0; }
  function has(move) {
    return legal().some((m) => Object.keys(move).every((k) => m[k] === move[k]) && Object.keys(m).length === Object.keys(move).length);
  }
  function activeTank() { return board?.tanks?.[board.turn.tank] || null; }
  function stepTargets() { return new Set(legal().filter((m) => m.type === "step").map((m) => m.to)); }
  function ramTargets() { return new Set(legal().filter((m) => m.type === "ram").map((m) => m.at)); }
  function fireAims(cell) { return legal().filter((m) => m.type === "fire" && m.target === cell).map((m) => m.aim); }
  function canMove() { return legal().some((m) => m.type === "step" || m.type === "ram"); }
  function canFire() { return legal().some((m) => m.type === "fire"); }

  async function send(move) {
    if (busy) return false;
    busy = true;
    render();
    try {
      await ctx.submit(move);
      return true;
    } catch {
      return false; // match.js shows the server's reason
    } finally {
      busy = false;
      render();
    }
  }

  async function driveTo(cell) {
    const tank = activeTank();
    const path = tank ? pathTo(board, tank.cell, cell) : null;
    if (!path) {
      toast(`${cell} cannot be reached this turn.`, { kind: "error" });
      return;
    }
    selected = null;
    for (const to of path) {
      if (!(await send({ type: "step", to }))) return;
    }
  }

  function onCell(cell) {
    if (!myTurn() || busy) return;
    const reach = new Map((board.reach || []).map(([c, cost]) => [c, cost]));
    if (mode === "move") {
      if (reach.has(cell)) { driveTo(cell); return; }
      if (ramTargets().has(cell)) { selected = cell; render(); return; }
      if (fireAims(cell).length) { mode = "fire"; selected = cell; render(); return; }
      selected = null;
      render();
      return;
    }
    selected = fireAims(cell).length ? cell : null;
    render();
  }

  // ---------------------------------------------------------------- previews
  function shotPreview(cell, aim) {
    const tank = activeTank();
    const target = parseCell(cell);
    const origin = aim === "token" ? tank.token : parseCell(tank.cell);
    const stationary = Boolean(board.turn.steady);
    const n = diceCount(distance(origin, target), { stationary, triangulating: aim === "token" });
    const ifStay = board.turn.mp === 0 && !board.turn.steady && !board.turn.fired
      ? diceCount(distance(origin, target), { stationary: true, triangulating: aim === "token" })
      : null;
    return { n, p: hitChance(n), ifStay };
  }

  function boltStop(cell) {
    if (!board.rules.energy_bolts) return null;
    const occ = occupancy(board);
    const path = boltPath(parseCell(activeTank().cell), parseCell(cell));
    for (const xy of path.slice(0, -1)) {
      if (!onBoard(...xy)) continue;
      const what = occ.get(cellName(...xy));
      if (what && ["wall", "tank", "wreck"].includes(what.kind)) return { xy, what };
    }
    return null;
  }

  function describeCell(cell) {
    const what = occupancy(board).get(cell);
    if (!what) return `the empty space ${cell}`;
    if (what.kind === "tank") return `${tankName(board.tanks[what.tank])} on ${cell}`;
    if (what.kind === "wreck") return `the wreck of ${tankName(board.tanks[what.tank])} on ${cell}`;
    return `the ${what.kind === "pool" ? "Energy Pool" : what.kind} on ${cell}`;
  }

  /** The cells a phone's zoomed board keeps in sight, most important first: the picked cell
   * (the panel under the board is about it), the active tank, then the legal targets nearest
   * to the tank. */
  function focusCells() {
    if (!board) return [];
    const tank = activeTank();
    const first = [];
    if (selected) first.push(selected);
    if (!board.outcome && tank?.cell && tank.cell !== selected) first.push(tank.cell);
    const here = tank?.cell ? parseCell(tank.cell) : null;
    const rest = marks().map((m) => m.cell).filter((c) => !first.includes(c));
    if (here) rest.sort((a, b) => distance(here, parseCell(a)) - distance(here, parseCell(b)));
    return [...first, ...rest];
  }

  // ---------------------------------------------------------------- drawing
  function marks() {
    const out = [];
    if (!myTurn()) return out;
    if (mode === "move") {
      const steps = stepTargets();
      for (const [cell, cost] of board.reach || []) {
        out.push({ cell, cls: steps.has(cell) ? "tt-reach tt-next" : "tt-reach", label: String(cost), testid: `tt-reach-${cell}` });
      }
      for (const cell of ramTargets()) out.push({ cell, cls: "tt-ram", testid: `tt-ram-${cell}` });
    } else {
      for (const m of legal()) {
        if (m.type !== "fire" || m.aim !== "tank") continue;
        const what = occupancy(board).get(m.target);
        if (what?.kind === "tank") {
          const { n, p } = shotPreview(m.target, "tank");
          out.push({ cell: m.target, cls: "tt-target", label: n < 1 ? "auto" : `${n}·${percent(p)}`, testid: `tt-target-${m.target}` });
        }
      }
    }
    if (selected) out.push({ cell: selected, cls: "tt-selected" });
    return out;
  }

  function line() {
    const tank = activeTank();
    if (myTurn() && mode === "fire" && selected && tank?.cell) {
      const stop = boltStop(selected);
      return { from: parseCell(tank.cell), to: parseCell(selected), stop: stop?.xy || null, cls: "tt-aim" };
    }
    return lastShot?.line || null;
  }

  function drawBoard() {
    const ghostPools = [];
    zone.draw(board, { active: board.outcome ? null : board.turn.tank, marks: marks(), line: line(), ghostPools, highlights: highlightMarks() });
    zone.el.classList.toggle("tt-fire-mode", myTurn() && mode === "fire");
  }

  /** The diagram's marks for the board on screen ({kind: "reach"} expands to its cells). */
  function highlightMarks() {
    return highlights.flatMap((mark) => (mark && mark.kind === "reach" && !mark.cell
      ? (board.reach || []).map(([cell, cost]) => ({ cell, kind: "reach", label: String(cost) }))
      : mark ? [mark] : []));
  }

  function renderHint() {
    const tank = activeTank();
    if (board.outcome) { hint.textContent = board.outcome.reason; return; }
    if (!myTurn()) {
      hint.textContent = `${tankName(tank)} (${capital(tank.side)}) is active on ${where(tank)}.`;
      return;
    }
    if (!canMove() && !canFire()) {
      hint.textContent = "This tank has nothing left to do: press End turn.";
      return;
    }
    hint.textContent = mode === "move"
      ? "Move: click a highlighted cell (its cost in movement points is shown); red = ram."
      : "Fire: click a target to see its dice and chance to hit.";
  }

  function renderControls() {
    const tank = activeTank();
    if (!tank) { fill(controls); return; }
    const left = (board.movement_points ?? 6) - board.turn.mp;
    const status = [
      // K3/K12: after staying put or ramming the tank may not move again, whatever is unspent.
      board.turn.steady || board.turn.rammed ? null : `${left} of ${board.movement_points ?? 6} movement points left`,
      board.turn.steady ? "staying put (2 dice fewer, no movement)" : null,
      board.turn.fired ? "cannon fired" : null,
      board.turn.rammed ? "rammed: movement over" : null,
    ].filter(Boolean).join(" · ");
    const head = h("div", { class: "tt-controls-head" },
      h("span", { class: "tt-swatch", style: { background: SIDE_COLORS[tank.side] } }),
      h("strong", { "data-testid": "tt-active-name" }, `${tankName(tank)} on ${where(tank)}`),
      h("span", { class: "small muted", "data-testid": "tt-turn-status" }, status));
    if (!myTurn()) {
      const waiting = board.outcome ? "The battle is over." : you === null ? "You are watching." : "Waiting for the other player.";
      fill(controls, head, h("p", { class: "small muted" }, waiting));
      return;
    }
    const modeButtons = h("div", { class: "tt-modes", role: "group", "aria-label": "Action" },
      h("button", { type: "button", class: `small${mode === "move" ? " primary" : ""}`, "data-testid": "tt-mode-move", disabled: !canMove() || busy, "aria-pressed": String(mode === "move"), onclick: () => { mode = "move"; selected = null; render(); } }, "Move"),
      h("button", { type: "button", class: `small${mode === "fire" ? " primary" : ""}`, "data-testid": "tt-mode-fire", disabled: !canFire() || busy, "aria-pressed": String(mode === "fire"), onclick: () => { mode = "fire"; selected = null; render(); } }, "Fire"));
    const actions = h("div", { class: "tt-actions" },
      has({ type: "stay" }) ? h("button", { type: "button", class: "small", "data-testid": "tt-stay", disabled: busy, title: "Aim carefully: 2 dice fewer, but no movement this turn", onclick: () => send({ type: "stay" }) }, "Stay put (−2 dice)") : null,
      has({ type: "repair" }) ? h("button", { type: "button", class: "small", "data-testid": "tt-repair", disabled: busy, title: "Spend the whole turn at the Energy Pool: +2", onclick: () => send({ type: "repair" }) }, "Repair (+2, whole turn)") : null,
      h("button", { type: "button", class: "small", "data-testid": "tt-end", disabled: busy, onclick: () => { selected = null; send({ type: "end" }); } }, "End turn"));
    fill(controls, head, modeButtons, selectionPanel(), actions);
  }

  function selectionPanel() {
    if (!selected) return null;
    const tank = activeTank();
    if (mode === "move" && ramTargets().has(selected)) {
      const cost = parseCell(selected)[0] !== parseCell(tank.cell)[0] && parseCell(selected)[1] !== parseCell(tank.cell)[1] ? 3 : 2;
      const dmg = Math.min(3, Math.floor((board.turn.mp + cost) / 2));
      return h("div", { class: "tt-selection", "data-testid": "tt-selection" },
        h("p", { class: "small" }, `Ram ${describeCell(selected)}: ${cost} points; both tanks take ${dmg} damage and your movement ends.`),
        h("button", { type: "button", class: "primary small", "data-testid": "tt-ram", disabled: busy, onclick: () => { const at = selected; selected = null; send({ type: "ram", at }); } }, "Ram"));
    }
    const aims = fireAims(selected);
    if (!aims.length) return null;
    const stop = boltStop(selected);
    const rows = aims.map((aim) => {
      const { n, p, ifStay } = shotPreview(selected, aim);
      const fromToken = aim === "token" ? `token ${distance(activeTank().token, parseCell(selected))} away + 2 dice: ` : "";
      const dice = fromToken + (n < 1 ? "automatic hit for 6" : `${n} ${n === 1 ? "die" : "dice"}, ${percent(p)} to hit`);
      // K3: the -2 dice are a choice made before the shot (the tank then stays put all turn),
      // so offer both shots side by side when the tank has not moved yet.
      const steady = ifStay !== null && ifStay !== n && has({ type: "stay" });
      const steadyDice = steady ? (ifStay < 1 ? "automatic hit for 6" : `${ifStay} ${ifStay === 1 ? "die" : "dice"}, ${percent(hitChance(ifStay))} to hit`) : "";
      return h("div", { class: "tt-fire-rows" },
        h("div", { class: "tt-fire-row" },
          h("button", { type: "button", class: "primary small", "data-testid": `tt-fire-${aim}`, disabled: busy, onclick: () => fireAt(selected, aim) },
            aim === "token" ? "Fire from token" : "Fire"),
          h("span", { class: "small", "data-testid": `tt-odds-${aim}` }, `${dice}${steady ? " (you may move after)" : ""}`)),
        steady ? h("div", { class: "tt-fire-row" },
          h("button", { type: "button", class: "primary small", "data-testid": `tt-fire-${aim}-steady`, disabled: busy, onclick: () => fireAt(selected, aim, true) },
            aim === "token" ? "Stay put, fire from token" : "Stay put and fire"),
          h("span", { class: "small", "data-testid": `tt-odds-${aim}-steady` }, `${steadyDice} (no movement this turn)`)) : null);
    });
    return h("div", { class: "tt-selection", "data-testid": "tt-selection" },
      h("p", { class: "small" }, `Target: ${describeCell(selected)}, distance ${distance(parseCell(tank.cell), parseCell(selected))}.`),
      stop ? h("p", { class: "small tt-warn", "data-testid": "tt-bolt-warning" }, `The energy bolt would hit ${describeCell(cellName(...stop.xy))} first.`) : null,
      ...rows);
  }

  async function fireAt(cell, aim, steady = false) {
    selected = null;
    if (steady && !(await send({ type: "stay" }))) return;
    await send({ type: "fire", target: cell, aim });
  }

  function renderCards() {
    const items = SIDES.map((side) => h("div", { class: "tt-side-cards" },
      h("h3", { class: "tt-card-title" }, h("span", { class: "tt-swatch", style: { background: SIDE_COLORS[side] } }), capital(side),
        board.walls_destroyed && board.rules.mission_3 ? h("span", { class: "small muted" }, ` · walls destroyed ${board.walls_destroyed[SIDES.indexOf(side)]}/5`) : null),
      ...board.tanks.map((t, index) => [t, index]).filter(([t]) => t.side === side).map(([t, index]) => {
        const active = index === board.turn.tank && !board.outcome;
        const track = h("span", { class: "tt-track-pips", "aria-label": `${t.hp} of 6 damage points left` },
          ...[1, 2, 3, 4, 5, 6].map((i) => h("span", { class: i <= t.hp ? "on" : "off" })));
        const token = t.token ? (onBoard(...t.token) ? cellName(...t.token) : "off the board") : null;
        const next = board.active[SIDES.indexOf(side)] === t.number - 1;
        return h("div", { class: `tt-card${active ? " active" : ""}${t.destroyed ? " destroyed" : ""}${t.stunned ? " stunned" : ""}`, "data-testid": `tt-card-${side}-${t.number}`, "data-hp": t.hp },
          h("span", { class: "tt-card-name" }, `${t.number}`),
          track,
          h("span", { class: "small" }, t.destroyed ? "destroyed" : `${t.hp}/6 · ${t.cell}`),
          t.stunned ? h("span", { class: "tt-tag stun" }, "stunned") : null,
          token ? h("span", { class: "tt-tag token", title: "targeting token" }, `◎ ${token}`) : null,
          next && !active ? h("span", { class: "tt-tag next", title: "activation disc" }, "next") : null,
          t.streak ? h("span", { class: "tt-tag" }, `centre ${t.streak}/3`) : null);
      })));
    fill(cards, ...items);
  }

  function renderExtras() {
    const on = Object.entries(board.rules).filter(([, v]) => v).map(([k]) => k.replace(/_/g, " "));
    fill(extras,
      board.rules.collateral_damage ? compass(board, flipped) : null,
      h("p", { class: "small muted", "data-testid": "tt-rules" }, `${board.setup_name} · ${on.length ? on.join(", ") : "core rules only"}`));
  }

  /** The "last shot" panel, from the view's record of the latest shot (so a reloaded page or
   * a replay at any position shows the shot of that position); `fresh` rolls the dice. */
  function renderDice(events, fresh) {
    const shot = (events || []).find((e) => e.type === "fire");
    const key = shot ? JSON.stringify(shot) : "none";
    if (key === shownShot && !fresh) return;
    shownShot = key;
    if (!shot) {
      fill(diceBox, h("p", { class: "small muted", "data-testid": "tt-dice-empty" }, "No shot fired yet."));
      return;
    }
    const rest = events.filter((e) => e !== shot && !["turn", "end", "token"].includes(e.type));
    const shooter = board.tanks[shot.tank];
    const color = SIDE_COLORS[shooter?.side] || "var(--accent)";
    fill(diceBox,
      h("div", { class: "tt-dice-head" }, h("span", { class: "tt-swatch", style: { background: color } }),
        h("strong", {}, shot.count < 1 ? "Automatic hit" : `${shot.count} ${shot.count === 1 ? "die" : "dice"}`),
        h("span", { class: `tt-result ${shot.result}`, "data-testid": "tt-shot-result" }, shot.result === "miss" ? "miss" : `hit for ${shot.damage}`)),
      h("div", { class: "tt-dice", "data-testid": "tt-dice" }, ...(shot.dice || []).map((f, i) => die(f, { rolling: fresh, index: i }))),
      h("p", { class: "small", "data-testid": "tt-shot-text" }, shot.text),
      ...rest.map((e) => h("p", { class: "small muted" }, e.text)));
  }

  function rememberShot(events) {
    const shot = (events || []).find((e) => e.type === "fire");
    if (!shot) return;
    const bolt = events.find((e) => e.type === "bolt");
    const intercepted = events.find((e) => e.type === "intercepted");
    const collateral = events.find((e) => e.type === "collateral");
    const from = parseCell(shot.from);
    let to = parseCell(shot.target);
    if (collateral && Array.isArray(collateral.landing)) to = collateral.landing;
    const stop = intercepted ? parseCell(intercepted.cell) : to;
    // A bolt ends where it was stopped; a rocket flies over everything to its landing.
    lastShot = { line: { from, to: bolt ? stop : to, stop, cls: bolt ? "tt-bolt" : "tt-rocket" } };
    clearTimeout(shotTimer);
    if (diagram) return; // the caption is about this shot: keep its line
    shotTimer = setTimeout(() => { lastShot = null; if (board) drawBoard(); }, 4000);
  }

  function render() {
    if (!board) return;
    if (!myTurn()) { selected = null; }
    else if (mode === "move" && !canMove() && canFire()) mode = "fire";
    else if (mode === "fire" && !canFire() && canMove()) mode = "move";
    drawBoard();
    renderHint();
    renderControls();
    renderCards();
    renderExtras();
    panner.follow([board.turn.number, activeTank()?.cell, mode, selected, myTurn(), Boolean(board.outcome)].join("|"));
  }

  function update(next, events) {
    state = next;
    board = next.board;
    const fired = (events || []).some((e) => e.type === "fire");
    // null: no shot yet at this position. A board without the record (an older rules
    // module) keeps showing the shots seen live.
    let record = board.last_shot ? board.last_shot.events : null;
    if (board.last_shot === undefined) record = fired ? events : undefined;
    if (fired) rememberShot(record || events);
    else if (diagram) lastShot = null; // "Show the move again" first draws the position before it
    if (record !== undefined) renderDice(record, fired);
    else if (shownShot === null) renderDice(null, false);
    if (selected && !fireAims(selected).length && !ramTargets().has(selected)) selected = null;
    render();
  }

  function describeTurn(s) {
    const b = s.board;
    if (!b || s.status === "finished" || b.outcome) return null;
    const tank = b.tanks[b.turn.tank];
    const mine = you !== null && b.turn.seat === you && (s.legal_moves || []).length > 0;
    const left = (b.movement_points ?? 6) - b.turn.mp;
    return {
      mine,
      title: mine ? `Your turn: ${tankName(tank)}` : `${capital(tank.side)} plays: ${tankName(tank)}`,
      detail: `${where(tank)} · ${b.turn.steady ? "staying put" : b.turn.rammed ? "rammed" : `${left} movement points left`}${b.turn.fired ? " · fired" : ""}`,
      color: SIDE_COLORS[tank.side],
    };
  }

  function seatInfo(seat) {
    const side = SIDES[seat];
    return side ? { label: capital(side), color: SIDE_COLORS[side] } : null;
  }

  return {
    update,
    highlight(marks) {
      highlights = Array.isArray(marks) ? marks : [];
      if (board) drawBoard();
    },
    describeTurn,
    seatInfo,
    destroy() {
      clearTimeout(shotTimer);
      panner.destroy();
      table.remove();
    },
  };
}

// ==================================================================== lobby: custom zone editor
const TOOLS = [
  { id: "wall", label: "Wall" },
  { id: "pool", label: "Pool" },
  { id: "gap", label: "Gap" },
  ...SIDES.flatMap((side) => [1, 2, 3].map((n) => ({ id: `${side}-${n}`, label: `${capital(side)} ${n}`, side, n }))),
  { id: "erase", label: "Eraser" },
];

function zoneOf(options) {
  if (options?.setup === "custom" && options.zone) return options.zone;
  return SETUPS[options?.setup] || SETUPS.A;
}

function copyZone(zone) {
  return {
    walls: [...(zone.walls || [])], pools: [...(zone.pools || [])], gaps: [...(zone.gaps || [])],
    green: [...zone.green], orange: [...zone.orange],
  };
}

/** The host draws the zone; everyone else sees it live (the platform draws the Accept button). */
export function createOptionsEditor(root, ctx) {
  ensureCss();
  let options = ctx.options || {};
  let tool = "wall";
  let busy = false;
  const title = h("p", { class: "small", "data-testid": "tt-editor-title" });
  const wrap = h("div", { class: "tt-editor tt-zoomed", "data-testid": "tt-zone-editor" });
  const host = h("div", { class: "tt-editor-board tt-zone-host" });
  const zone = createZone(host, { label: "Zone editor", onCell, testid: "tt-editor-board" });
  // On a phone the editor's Zone pans at 44px a cell like the table's (tube-tanks.css).
  const viewport = h("div", { class: "tt-viewport tt-editor-viewport", "data-testid": "tt-editor-viewport" }, host);
  const zoomButton = h("button", {
    type: "button", class: "ghost small tt-zoom-toggle", "data-testid": "tt-editor-zoom", "aria-pressed": "true",
    onclick: () => {
      const zoomed = !wrap.classList.contains("tt-zoomed");
      wrap.classList.toggle("tt-zoomed", zoomed);
      zoomButton.setAttribute("aria-pressed", String(zoomed));
      zoomButton.textContent = zoomed ? "Whole board" : "Zoom in";
    },
  }, "Whole board");
  const palette = h("div", { class: "tt-palette", role: "group", "aria-label": "Zone pieces" });
  const presets = h("div", { class: "tt-presets" });
  wrap.append(title, viewport, h("div", { class: "tt-board-tools" }, zoomButton));
  if (ctx.editable) wrap.append(palette, presets);
  root.append(wrap);

  function layoutOf(opts) {
    const z = zoneOf(opts);
    return {
      walls: z.walls, pools: z.pools, gaps: z.gaps,
      tanks: SIDES.flatMap((side) => z[side].map((cell, i) => ({ side, number: i + 1, cell }))),
    };
  }

  async function change(nextZone, setup = "custom") {
    if (busy) return;
    busy = true;
    const next = { ...options, setup, zone: setup === "custom" ? nextZone : null };
    if (setup !== "custom") delete next.zone;
    try {
      await ctx.change(next);
      options = next;
    } catch {
      /* the platform shows the reason */
    } finally {
      busy = false;
      render();
    }
  }

  function onCell(cell) {
    if (!ctx.editable || busy) return;
    const z = copyZone(zoneOf(options));
    const tankAt = SIDES.find((side) => z[side].includes(cell));
    const chosen = TOOLS.find((t) => t.id === tool);
    const strip = () => {
      z.walls = z.walls.filter((c) => c !== cell);
      z.pools = z.pools.filter((c) => c !== cell);
      z.gaps = z.gaps.filter((c) => c !== cell);
    };
    if (chosen.side) {
      const at = z[chosen.side].indexOf(cell);
      if (tankAt) {
        if (at !== chosen.n - 1) toast(`${cell} already holds a tank.`, { kind: "error" });
        return;
      }
      strip();
      z[chosen.side][chosen.n - 1] = cell;
    } else if (tankAt) {
      toast("Tanks are moved, not erased: pick a tank in the palette and click its new cell.", { kind: "error" });
      return;
    } else {
      const key = { wall: "walls", pool: "pools", gap: "gaps" }[tool];
      const already = key && z[key].includes(cell);
      strip();
      if (key && !already) z[key].push(cell);
    }
    change(z);
  }

  function render() {
    const custom = options.setup === "custom";
    title.textContent = custom
      ? (ctx.editable ? "Custom zone: pick a piece, then click cells. The other player must accept it." : "Custom zone drawn by the host.")
      : `Setup ${options.setup || "A"} "${SETUPS[options.setup || "A"]?.name}"${ctx.editable ? ": click the Zone to start a custom zone from it." : "."}`;
    const ghostPools = options.mission_1 && !zoneOf(options).pools.includes("H8") ? ["H8"] : [];
    zone.draw(layoutOf(options), { ghostPools });
    if (!ctx.editable) return;
    fill(palette, ...TOOLS.map((t) => h("button", {
      type: "button", class: `small${tool === t.id ? " primary" : ""}`, "aria-pressed": String(tool === t.id),
      "data-testid": `tt-tool-${t.id}`, disabled: busy,
      style: t.side ? { borderColor: SIDE_COLORS[t.side] } : undefined,
      onclick: () => { tool = t.id; render(); },
    }, t.label)));
    fill(presets,
      h("button", { type: "button", class: "small", "data-testid": "tt-preset-A", disabled: busy, onclick: () => change(copyZone(SETUPS.A)) }, "Start from setup A"),
      h("button", { type: "button", class: "small", "data-testid": "tt-preset-B", disabled: busy, onclick: () => change(copyZone(SETUPS.B)) }, "Start from setup B"),
      custom ? h("button", { type: "button", class: "small ghost", "data-testid": "tt-preset-use-A", disabled: busy, onclick: () => change(null, "A") }, "Use setup A as is") : null);
  }

  render();
  return {
    update(next) { options = next || {}; render(); },
    destroy() { wrap.remove(); },
  };
}
