// CD Thief: sneak into the Expo hotel, collect your key, VIP pass and Studson, steal the CDs
// from the Casino and escape (the rules and rulings D1-D11: docs/rules/cd-thief.md). The board view is
// documented in docs/cd-thief.md; this module draws the 21 x 17 hotel map in SVG, highlights
// the legal end squares after a roll, animates thieves, podcasters, Carl and
// Intellivision-The-Great step by step along the paths in the events, shows the dice, the
// drawn Event card, every backpack and a Frantic Mode banner.
//
// On a phone (max-width 640px) the map is too dense to tap at full width, so the board sits in
// a scrolling viewport that fills the room match.js leaves under the banners (--table-room)
// below the controls, the map drawn at --cdt-cell (cd-thief.css) a square and centred on the
// thief to move (or her highlighted squares); "Whole map" shows all of it, and a tap there
// zooms back in. A rules-page diagram (ctx.diagram) opens on the whole map.
//
// highlight(marks) outlines what a rules-page diagram's caption points at (docs/cd-thief.md,
// "Highlight marks"). Each mark is one object:
//   {square: [x, y], kind}           one square
//   {squares: [[x, y], ...], kind}   several squares
//   {thief: seat}                    a ring round that seat's thief
//   {podcaster: "scott" | "socal_mike" | "uk_mike"}, {piece: "carl" | "itg"}
//   {item: "red-key" | "cds" | ...}  a ring round an item lying on the board
//   {card: true}                     the Event card panel
// kind: "hint" (the default, yellow), "target" (green: a square a move can end on) or
// "blocked" (red, crossed: a square the mover may not enter). The marks stay on through later
// update() calls, drawn where the pieces then stand; highlight([]) clears them.

import { h, svg, fill } from "../ui.js";

const CELL = 30;
const W = 21;
const H = 17;
const STEP_MS = 140;
const PHONE = "(max-width: 640px)";

const COLOR_CSS = { red: "var(--p-red)", green: "var(--p-green)", yellow: "var(--p-yellow)", blue: "var(--p-blue)" };
const TERRAIN_CLASS = { "#": "wall", ".": "floor", c: "casino", m: "museum", v: "vip", x: "exit", C: "door", U: "door", P: "door", E: "door" };
const DOOR_LABEL = { C: "C", U: "M", P: "V", E: "E" };
const ITEM_LETTER = { key: "K", pass: "P", zapper: "Z", studson: "S" };
// Where thieves share a Hotel Exit square (ruling D11), each is drawn smaller in its own corner.
const STACK_OFFSETS = [[], [[0, 0]], [[-7.5, 0], [7.5, 0]], [[-7.5, -7], [7.5, -7], [0, 7.5]],
  [[-7.5, -7.5], [7.5, -7.5], [-7.5, 7.5], [7.5, 7.5]]];
const ITEM_WORD = { cds: "CDs", zapper: "Zapper", key: "Key", pass: "VIP Pass", studson: "Studson" };
const ROOM_WORD = { casino: "Casino", museum: "Museum", vip: "VIP room" };
const PODCASTERS = {
  scott: { label: "S", name: "Scott", fill: "#ff9f43" },
  socal_mike: { label: "SM", name: "SoCal Mike", fill: "#ff6bcb" },
  uk_mike: { label: "UK", name: "UK Mike", fill: "#48dbfb" },
};

function ensureCss() {
  if (document.querySelector("link[data-cdt-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: new URL("../../css/cd-thief.css", import.meta.url).href, "data-cdt-css": "" }));
}

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");
const center = ([x, y]) => [x * CELL + CELL / 2, y * CELL + CELL / 2];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

export function createRenderer(root, ctx) {
  ensureCss();
  let state = null;
  let board = null;
  let animationToken = 0;
  let busy = false;

  // ---------------------------------------------------------------- skeleton
  const frantic = h("div", { class: "cdt-frantic", "data-testid": "cd-frantic", hidden: true, role: "status" });
  const rollButton = h("button", { type: "button", class: "primary", "data-testid": "cd-roll", onclick: () => send({ type: "roll" }) }, "Roll the dice");
  const battleButton = h("button", { type: "button", class: "primary", "data-testid": "cd-battle", onclick: () => send({ type: "battle" }) }, "Battle!");
  const diceBox = h("div", { class: "cdt-dice", "data-testid": "cd-dice", "aria-live": "polite" });
  const zoomButton = h("button", {
    type: "button", class: "cdt-zoom", "data-testid": "cd-zoom", "aria-pressed": "false",
    onclick: () => setWhole(!whole),
  }, "Whole map");
  const say = h("p", { class: "cdt-say small", "data-testid": "cd-say" });
  const card = h("div", { class: "cdt-panel cdt-card", "data-testid": "cd-card", "aria-live": "polite" });
  const actions = h("div", { class: "cdt-panel cdt-actions", "data-phone": "controls", "data-testid": "cd-controls" },
    rollButton, battleButton, diceBox, zoomButton, say);
  const svgRoot = svg("svg", {
    class: "cdt-board", viewBox: `0 0 ${W * CELL} ${H * CELL}`, role: "img", "data-testid": "cd-board",
    "aria-label": "The hotel map",
  });
  const terrainLayer = svg("g", {});
  const targetLayer = svg("g", {});
  const itemLayer = svg("g", {});
  const pieceLayer = svg("g", {});
  const markLayer = svg("g", { class: "cdt-marks", "data-testid": "cd-marks" });
  svgRoot.append(terrainLayer, itemLayer, targetLayer, pieceLayer, markLayer);
  const packs = h("div", { class: "cdt-packs", "data-testid": "cd-backpacks" });
  const info = h("p", { class: "small muted cdt-info", "data-testid": "cd-deck" });
  const viewport = h("div", { class: "cdt-board-wrap", "data-phone": "board", "data-testid": "cd-viewport" }, svgRoot);
  const wrap = h("div", { class: "cdt", "data-testid": "cd-thief" },
    frantic,
    actions,
    card,
    viewport,
    info,
    h("p", { class: "small muted cdt-legend", "data-testid": "cd-legend" },
      "Legend: thieves are discs marked R, G, Y, B (Red, Green, Yellow, Blue); ",
      "S Scott, SM SoCal Mike, UK UK Mike (podcasters); C Carl the Janitor; ITG Intellivision-The-Great; ",
      "small squares are items, marked with their owner's initial and K key, P VIP pass, Z Zapper, S Studson ",
      "(RK: Red's key); the disc is the stack of CDs. ",
      "Doors: C Casino, M Museum, V VIP room, E main entrance (three squares wide)."),
    packs,
  );
  root.append(wrap);

  // ---------------------------------------------------------------- phone viewport
  const phone = window.matchMedia ? window.matchMedia(PHONE) : { matches: false, addEventListener() {} };
  // "Whole map" on a phone (a wide screen always shows the whole map). A diagram opens on it:
  // its caption may point anywhere in the hotel.
  let whole = false;
  let focusKey = null; // the decision the viewport was last centred for

  // The board gets whatever --table-room leaves under the controls above it.
  function measureRoomAbove() {
    const above = viewport.getBoundingClientRect().top - root.getBoundingClientRect().top;
    wrap.style.setProperty("--cdt-above", `${Math.max(0, Math.round(above))}px`);
  }
  const roomObserver = window.ResizeObserver ? new ResizeObserver(measureRoomAbove) : null;
  roomObserver?.observe(actions);
  roomObserver?.observe(frantic);
  roomObserver?.observe(wrap);
  // The map changes size when our stylesheet arrives, on "Whole map" and on turning the
  // phone: centre it again then (but not while she pans it herself).
  let mapWidth = 0;
  const mapObserver = window.ResizeObserver ? new ResizeObserver(() => {
    const width = Math.round(svgRoot.getBoundingClientRect().width);
    if (width === mapWidth) return;
    mapWidth = width;
    centreOn(lastCentred);
  }) : null;
  mapObserver?.observe(svgRoot);

  function zoomed() {
    return phone.matches && !whole;
  }

  function setWhole(next, centre = null) {
    whole = next;
    wrap.classList.toggle("cdt-whole", whole);
    zoomButton.setAttribute("aria-pressed", String(whole));
    if (board) drawTargets();
    if (!whole) centreOn(centre ? [centre] : focusSquares());
  }
  if (ctx.diagram) setWhole(true);

  // In the whole map a tap picks where to zoom in: its squares are too small to tap.
  svgRoot.addEventListener("click", (e) => {
    if (!phone.matches || !whole) return;
    const r = svgRoot.getBoundingClientRect();
    const size = Math.min(r.width / W, r.height / H);
    const left = r.left + (r.width - size * W) / 2;
    const top = r.top + (r.height - size * H) / 2;
    const x = Math.floor((e.clientX - left) / size);
    const y = Math.floor((e.clientY - top) / size);
    setWhole(false, [Math.min(W - 1, Math.max(0, x)), Math.min(H - 1, Math.max(0, y))]);
  });
  phone.addEventListener?.("change", () => {
    if (!board) return;
    drawTargets();
    centreOn(focusSquares());
  });

  // The squares this decision is about: her highlighted squares and herself after a roll,
  // otherwise the thief to move.
  function focusSquares() {
    if (!board) return [];
    const mover = board.thieves[board.turn.seat]?.pos;
    const targets = board.turn.phase === "move" ? (board.turn.targets || []) : [];
    return [...(mover ? [mover] : []), ...targets];
  }

  let lastCentred = [];
  function centreOn(squares) {
    lastCentred = squares;
    if (!zoomed() || !squares.length) return;
    const cell = svgRoot.getBoundingClientRect().width / W;
    if (!cell) return;
    const xs = squares.map(([x]) => x);
    const ys = squares.map(([, y]) => y);
    let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs) + 1, Math.min(...ys), Math.max(...ys) + 1];
    const [first] = squares; // too spread out to show at once: the first square (the mover) wins
    if ((x1 - x0) * cell > viewport.clientWidth) [x0, x1] = [first[0], first[0] + 1];
    if ((y1 - y0) * cell > viewport.clientHeight) [y0, y1] = [first[1], first[1] + 1];
    viewport.scrollLeft = ((x0 + x1) / 2) * cell - viewport.clientWidth / 2;
    viewport.scrollTop = ((y0 + y1) / 2) * cell - viewport.clientHeight / 2;
  }

  // A thief (or ITG) walking out of the zoomed map is followed, one square's margin kept.
  function keepInView([x, y]) {
    if (!zoomed()) return;
    const cell = svgRoot.getBoundingClientRect().width / W;
    const [left, top] = [x * cell, y * cell];
    const [width, height] = [viewport.clientWidth, viewport.clientHeight];
    if (left - cell < viewport.scrollLeft) viewport.scrollLeft = left - cell;
    else if (left + 2 * cell > viewport.scrollLeft + width) viewport.scrollLeft = left + 2 * cell - width;
    if (top - cell < viewport.scrollTop) viewport.scrollTop = top - cell;
    else if (top + 2 * cell > viewport.scrollTop + height) viewport.scrollTop = top + 2 * cell - height;
  }

  function recentre() {
    const key = board ? `${board.turn.number}:${board.turn.seat}:${board.turn.phase}` : null;
    if (key === focusKey) return;
    focusKey = key;
    measureRoomAbove();
    centreOn(focusSquares());
  }

  const pieces = new Map(); // id -> <g>, kept across updates so moves can be animated

  function send(move) {
    rollButton.disabled = true;
    battleButton.disabled = true;
    ctx.submit(move).catch(() => { renderControls(); });
  }

  // ---------------------------------------------------------------- drawing
  let drawnMap = null;
  function drawTerrain(map) {
    const key = map.join("");
    if (drawnMap === key) return;
    drawnMap = key;
    const cells = [];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const t = map[y][x];
        cells.push(svg("rect", { class: `cdt-cell cdt-t-${TERRAIN_CLASS[t] || "floor"}`, x: x * CELL, y: y * CELL, width: CELL, height: CELL }));
        if (DOOR_LABEL[t]) cells.push(svg("text", { class: "cdt-door-label", x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 }, DOOR_LABEL[t]));
      }
    }
    const label = (text, x, y) => svg("text", { class: "cdt-room-label", x: x * CELL, y: y * CELL }, text);
    cells.push(label("CASINO", 3.8, 5.7), label("MUSEUM", 17, 5.7), label("VIP", 4, 12.7), label("LOBBY", 10.5, 13.7),
      label("LOUNGE", 16.5, 13.7), label("HOTEL EXIT", 10.5, 16.7));
    fill(terrainLayer, ...cells);
  }

  function itemNode(id, pos) {
    const [cx, cy] = center(pos);
    if (id === "cds") {
      return svg("g", { class: "cdt-item", "data-testid": "cd-item-cds" },
        svg("circle", { cx, cy, r: 11, fill: "#e6e6ff", stroke: "#9b9bd6", "stroke-width": 2 }),
        svg("circle", { cx, cy, r: 3, fill: "#0d0b2a" }),
        svg("title", {}, "The stack of CDs"));
    }
    const [colour, kind] = id.split("-");
    return svg("g", { class: "cdt-item", "data-testid": `cd-item-${id}` },
      svg("rect", { x: cx - 10, y: cy - 9, width: 20, height: 18, rx: 4, fill: COLOR_CSS[colour], stroke: "#111", "stroke-width": 1 }),
      // The owner's initial as well as her colour, for colour-blind players: "RK" is Red's key.
      svg("text", { x: cx, y: cy + 0.5, fill: "#111" }, `${colour[0].toUpperCase()}${ITEM_LETTER[kind] || "?"}`),
      svg("title", {}, `${cap(colour)} ${ITEM_WORD[kind]}`));
  }

  function drawItems() {
    fill(itemLayer, ...Object.entries(board.items || {}).map(([id, pos]) => itemNode(id, pos)));
  }

  function pieceSpecs() {
    const specs = [];
    const sharing = new Map(); // "x,y" -> thieves there, in seat order
    for (const t of board.thieves) {
      if (!t.pos) continue;
      const key = t.pos.join(",");
      sharing.set(key, [...(sharing.get(key) || []), t.seat]);
    }
    for (const t of board.thieves) {
      if (!t.pos) continue;
      const together = sharing.get(t.pos.join(","));
      const offset = STACK_OFFSETS[Math.min(together.length, 4)][Math.min(together.indexOf(t.seat), 3)];
      specs.push({ id: `thief-${t.seat}`, pos: t.pos, fill: COLOR_CSS[t.colour], label: t.colour[0].toUpperCase(),
        title: `${cap(t.colour)} thief`, mine: t.seat === ctx.you, r: together.length > 1 ? 6.5 : 12, offset });
    }
    for (const [id, pos] of Object.entries(board.podcasters || {})) {
      const p = PODCASTERS[id];
      specs.push({ id: `pod-${id}`, pos, fill: p.fill, label: p.label, title: `Podcaster ${p.name}`, r: 12, square: true });
    }
    specs.push({ id: "carl", pos: board.carl.pos, fill: "#c8d6e5", label: "C", title: `Carl the Janitor${board.carl.dustpan ? ` (holding ${itemWord(board.carl.dustpan)})` : ""}`, r: 12, square: true });
    specs.push({ id: "itg", pos: board.itg, fill: "#ffffff", label: "ITG", title: "Intellivision-The-Great", r: 13, square: true });
    return specs;
  }

  function placePiece(node, pos, offset = [0, 0]) {
    const [cx, cy] = center(pos);
    node.setAttribute("transform", `translate(${cx + offset[0]} ${cy + offset[1]})`);
    node.dataset.x = pos[0];
    node.dataset.y = pos[1];
  }

  function drawPieces() {
    const seen = new Set();
    for (const spec of pieceSpecs()) {
      seen.add(spec.id);
      let node = pieces.get(spec.id);
      if (!node) {
        node = svg("g", { class: "cdt-piece", "data-testid": `cd-piece-${spec.id}` });
        pieces.set(spec.id, node);
        pieceLayer.append(node);
      }
      node.setAttribute("class", `cdt-piece${spec.mine ? " cdt-mine" : ""}${spec.r < 10 ? " cdt-small" : ""}`);
      const shape = spec.square
        ? svg("rect", { class: "cdt-body", x: -spec.r, y: -spec.r, width: spec.r * 2, height: spec.r * 2, rx: 5, fill: spec.fill, stroke: "#111", "stroke-width": 1.5 })
        : svg("circle", { class: "cdt-body", r: spec.r, fill: spec.fill, stroke: "#111", "stroke-width": 1.5 });
      fill(node, shape, svg("text", { fill: "#111" }, spec.label), svg("title", {}, spec.title));
      placePiece(node, spec.pos, spec.offset);
    }
    for (const [id, node] of pieces) {
      if (!seen.has(id)) { node.remove(); pieces.delete(id); }
    }
  }

  function myTargets() {
    return (state?.legal_moves || []).filter((m) => m.type === "move").map((m) => m.to);
  }

  // The map shows no coordinates, so a target is named by the place the server gives for it
  // (a room, a door, the corridor beside a room...) and by the item lying on it, if any.
  function targetLabel(x, y) {
    const key = `${x},${y}`;
    const at = (board.turn.targets || []).findIndex(([tx, ty]) => `${tx},${ty}` === key);
    const place = board.turn.target_places?.[at];
    const item = Object.entries(board.items || {}).find(([, [ix, iy]]) => `${ix},${iy}` === key)?.[0];
    const words = place ? `Move to ${place}` : "Move here";
    if (!item) return words;
    return `${words}, where ${item === "cds" ? "the CDs lie" : `the ${itemWord(item)} lies`}`;
  }

  function drawTargets() {
    const mine = myTargets();
    const nodes = [];
    if (mine.length) {
      // In a phone's whole map the squares are too small to tap: a tap zooms in instead.
      const tappable = !(phone.matches && whole);
      for (const [x, y] of mine) {
        const label = targetLabel(x, y);
        const rect = svg("rect", {
          class: "cdt-target", x: x * CELL + 1, y: y * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 4,
          tabindex: tappable ? 0 : -1, role: "button", "aria-label": label, "data-testid": `cd-target-${x}-${y}`,
        }, svg("title", {}, label));
        const go = () => { if (!busy && !(phone.matches && whole)) send({ type: "move", to: [x, y] }); };
        rect.addEventListener("click", go);
        rect.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
        nodes.push(rect);
      }
    } else if (board.turn.phase === "move") {
      for (const [x, y] of board.turn.targets || []) {
        nodes.push(svg("rect", { class: "cdt-target-other", x: x * CELL + 4, y: y * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 4 }));
      }
    }
    fill(targetLayer, ...nodes);
  }

  function itemWord(id) {
    if (id === "cds") return "the CDs";
    const [colour, kind] = id.split("-");
    return `${cap(colour)} ${ITEM_WORD[kind]}`;
  }

  function drawPacks() {
    const turnSeat = board.turn.seat;
    fill(packs, ...board.thieves.map((t) => {
      const name = state.seats?.find((s) => s.seat === t.seat)?.name || `Seat ${t.seat + 1}`;
      const tags = [
        ...t.backpack.map((k) => h("span", { class: `cdt-tag ${k === "cds" ? "cds" : ""}` }, ITEM_WORD[k])),
        ...t.opened.map((r) => h("span", { class: "cdt-tag opened", title: "Opened door counter" }, `${ROOM_WORD[r]} open`)),
        ...t.killed.map((p) => h("span", { class: "cdt-tag killed", title: "Killed podcaster counter" }, `✕ ${PODCASTERS[p].name}`)),
      ];
      if (!tags.length) tags.push(h("span", { class: "muted small" }, "Empty backpack"));
      return h("div", {
        class: `cdt-panel cdt-pack${t.seat === turnSeat && !board.outcome ? " active" : ""}${t.out ? " out" : ""}`,
        style: `--pc: ${COLOR_CSS[t.colour]}`, "data-testid": `cd-pack-${t.seat}`,
      },
      h("h3", {}, `${cap(t.colour)} · ${name}${t.seat === ctx.you ? " (you)" : ""}`),
      t.lives !== null && t.lives !== undefined ? h("p", { class: "small" }, t.out ? "Out of lives" : `Lives: ${"♥".repeat(t.lives)}`) : null,
      h("div", { class: "cdt-tags" }, tags));
    }));
  }

  function drawCard(freshCard) {
    const c = board.last_card;
    card.classList.toggle("fresh", Boolean(freshCard));
    if (!c) {
      fill(card, h("h3", {}, "Event deck"), h("p", { class: "small muted" }, "No card drawn yet."));
      return;
    }
    fill(card,
      h("h3", { "data-testid": "cd-card-title" }, `#${c.number} ${c.title}`),
      h("p", { class: "small" }, c.text),
      // Carl's own board token, not an emoji: a font without the broom showed an empty box.
      c.carl ? h("p", { class: "small cdt-carl", "data-testid": "cd-card-carl" },
        h("span", { class: "cdt-carl-badge", "aria-hidden": "true" }, "C"), "Carl icon") : null);
    if (freshCard) setTimeout(() => card.classList.remove("fresh"), 600);
  }

  function showDice(faces, kind, animate) {
    diceBox.classList.remove("cdt-dice-old");
    diceBox.removeAttribute("title");
    fill(diceBox, ...faces.map((f) => h("span", { class: `cdt-die ${kind}${animate && !reducedMotion() ? " rolling" : ""}`, title: `${kind} die` }, String(f))));
  }

  // Once the next seat's turn has begun, the dice still on show belong to the previous
  // turn: dim them so nobody reads them as her own roll next to the Battle button.
  function dimOldDice(events) {
    const types = events.map((e) => (e.type === "itg" && !e.die ? "itg-home" : e.type));
    const turnAt = types.lastIndexOf("turn");
    const diceAt = Math.max(types.lastIndexOf("roll"), types.lastIndexOf("battle"), types.lastIndexOf("itg"));
    if (turnAt >= 0 && turnAt > diceAt && diceBox.childElementCount) {
      diceBox.classList.add("cdt-dice-old");
      diceBox.title = "The previous turn's dice";
    }
  }

  function renderControls() {
    // A diagram or a replay shows the position, never a button that cannot be used.
    const legal = ctx.readOnly ? [] : state?.legal_moves || [];
    const can = (type) => legal.some((m) => m.type === type);
    rollButton.hidden = !can("roll");
    battleButton.hidden = !can("battle");
    rollButton.disabled = busy;
    battleButton.disabled = busy;
    if (can("battle")) {
      const foe = board.turn.pending?.[0];
      battleButton.textContent = foe ? `Battle ${PODCASTERS[foe].name}!` : "Battle!";
    }
  }

  function renderStatic() {
    drawTerrain(board.map);
    drawItems();
    drawPieces();
    drawTargets();
    drawPacks();
    renderControls();
    drawMarks();
    // The banner tells who is running; once the match is over the winner banner says the rest.
    frantic.hidden = board.frantic === null || board.frantic === undefined || Boolean(board.outcome);
    if (!frantic.hidden) {
      const t = board.thieves[board.frantic];
      frantic.textContent = `Frantic Mode! ${cap(t.colour)} has the CDs and runs for the exit. No Event cards; Intellivision-The-Great gives chase.`;
    }
    const dustpan = board.carl.dustpan ? ` Carl's dustpan: ${itemWord(board.carl.dustpan)}.` : " Carl's dustpan is empty.";
    info.textContent = `Event deck: ${board.deck_count} card${board.deck_count === 1 ? "" : "s"} left, ${board.discard_count} discarded.${dustpan}${board.difficult ? " Difficult mode: 5 lives each." : ""}`;
  }

  // ---------------------------------------------------------------- animation
  async function walk(id, path, token) {
    const node = pieces.get(id);
    if (!node || !path || path.length < 2) return;
    const follow = id.startsWith("thief-") || id === "itg";
    for (const pos of path.slice(1)) {
      if (token !== animationToken) return;
      placePiece(node, pos);
      if (follow) keepInView(pos);
      await sleep(STEP_MS);
    }
  }

  async function play(events, token) {
    for (const e of events) {
      if (token !== animationToken) return;
      if (e.text) say.textContent = e.text;
      if (e.type === "roll") { showDice(e.dice, "move", true); await sleep(450); }
      else if (e.type === "battle") { showDice(e.dice, "battle", true); await sleep(650); }
      else if (e.type === "itg" && e.die) { showDice([e.die], "white", true); await sleep(450); await walk("itg", e.path, token); }
      else if (e.type === "move") await walk(`thief-${e.seat}`, e.path, token);
      else if (e.type === "podcaster") await walk(`pod-${e.podcaster}`, e.path, token);
      else if (e.type === "carl") await walk("carl", e.path, token);
      else if (e.type === "caught") await walk(`thief-${e.seat}`, [e.from, e.to], token);
      else if (e.type === "card") { drawCard(true); await sleep(500); }
    }
  }

  // ---------------------------------------------------------------- contract
  async function update(next, events = []) {
    const previous = board;
    state = next;
    board = next.board;
    const token = ++animationToken;
    wrap.dataset.version = String(next.version);
    wrap.dataset.you = String(ctx.you ?? "");
    wrap.dataset.phase = board.turn.phase;
    wrap.dataset.turnSeat = String(board.turn.seat);
    wrap.dataset.busy = "true";
    const animated = previous && events.length && !reducedMotion();
    if (!animated) {
      busy = false;
      renderStatic();
      drawCard(false);
      if (board.turn.dice) showDice(board.turn.dice, "move", false);
      const last = [...events].reverse().find((e) => e.text);
      // A replay jump brings no events: an older move's sentence must not stay under new dice.
      say.textContent = last ? last.text : (board.outcome?.reason || "");
      dimOldDice(events);
      recentre();
      wrap.dataset.busy = "false";
      return;
    }
    // Animate from the previous positions, then settle on the new board.
    busy = true;
    const target = board;
    board = { ...target, items: previous.items, podcasters: previous.podcasters, carl: previous.carl, itg: previous.itg,
      thieves: previous.thieves.map((t, i) => ({ ...target.thieves[i], pos: t.pos })), last_card: previous.last_card };
    renderStatic();
    fill(targetLayer);
    board = target;
    // The card panel keeps the previous card until the "card" event in the sequence: the new
    // one is turned over after the thief's walk, as at the table.
    await play(events, token);
    if (token !== animationToken) return;
    busy = false;
    renderStatic();
    drawCard(false);
    dimOldDice(events);
    recentre();
    wrap.dataset.busy = "false";
  }

  function describeTurn(s) {
    const b = s.board;
    if (!b || b.outcome) return null;
    const seat = b.turn.seat;
    const t = b.thieves[seat];
    const color = COLOR_CSS[t.colour];
    const mine = s.you === seat && (s.legal_moves || []).length > 0;
    const phase = b.turn.phase;
    let detail;
    if (phase === "battle") detail = `${PODCASTERS[b.turn.pending?.[0]]?.name || "A podcaster"} is next to ${mine ? "you" : cap(t.colour)}: battle with the Battle dice.`;
    else if (phase === "roll") detail = mine ? "Roll the 2 movement dice." : `${cap(t.colour)} is about to roll.`;
    else detail = mine ? `You rolled ${b.turn.dice?.join(" + ")}: pick a highlighted square.` : `${cap(t.colour)} rolled ${b.turn.dice?.join(" + ")} and is choosing a square.`;
    if (b.frantic !== null && b.frantic !== undefined) detail = `Frantic Mode! ${detail}`;
    return { mine, title: mine ? "Your turn" : `${cap(t.colour)}'s turn`, detail, color };
  }

  function seatInfo(seat) {
    const t = board?.thieves?.[seat];
    if (!t) return null;
    return { label: cap(t.colour), color: COLOR_CSS[t.colour] };
  }

  // ---------------------------------------------------------------- diagram marks
  let marks = [];

  function markedPieceSquare(mark) {
    if (mark.thief !== undefined) return board.thieves[mark.thief]?.pos || null;
    if (mark.podcaster) return board.podcasters?.[mark.podcaster] || null;
    if (mark.piece === "carl") return board.carl?.pos || null;
    if (mark.piece === "itg") return board.itg || null;
    if (mark.item) return board.items?.[mark.item] || null;
    return null;
  }

  function markedSquares(mark) {
    return [...(mark.square ? [mark.square] : []), ...(Array.isArray(mark.squares) ? mark.squares : [])];
  }

  function drawMarks() {
    const nodes = [];
    let cardMarked = false;
    for (const mark of marks) {
      if (!mark || typeof mark !== "object") continue;
      if (mark.card) cardMarked = true;
      const kind = ["target", "blocked"].includes(mark.kind) ? mark.kind : "hint";
      for (const [x, y] of markedSquares(mark)) {
        nodes.push(svg("rect", {
          class: `cdt-mark cdt-mark-${kind}`, x: x * CELL + 2, y: y * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 5,
          "data-testid": `cd-mark-${x}-${y}`,
        }));
        if (kind === "blocked") {
          const [l, t, r, b] = [x * CELL + 8, y * CELL + 8, x * CELL + CELL - 8, y * CELL + CELL - 8];
          nodes.push(svg("path", { class: "cdt-mark cdt-mark-blocked", d: `M${l} ${t}L${r} ${b}M${r} ${t}L${l} ${b}` }));
        }
      }
      const at = markedPieceSquare(mark);
      if (at) {
        const [cx, cy] = center(at);
        const name = mark.thief !== undefined ? `thief-${mark.thief}` : mark.podcaster || mark.piece || mark.item;
        nodes.push(svg("circle", { class: "cdt-mark cdt-mark-ring", cx, cy, r: CELL / 2 + 1, "data-testid": `cd-mark-${name}` }));
      }
    }
    fill(markLayer, ...nodes);
    card.classList.toggle("cdt-marked", cardMarked);
  }

  function highlight(list) {
    marks = Array.isArray(list) ? list : [];
    if (!board) return;
    drawMarks();
    const squares = marks.flatMap((m) => (m && typeof m === "object" ? [...markedSquares(m), markedPieceSquare(m)] : []))
      .filter(Boolean);
    if (squares.length) centreOn(squares);
  }

  function destroy() {
    animationToken++;
    roomObserver?.disconnect();
    mapObserver?.disconnect();
    root.replaceChildren();
  }

  return { update, destroy, describeTurn, seatInfo, highlight };
}
