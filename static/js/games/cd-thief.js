// CD Thief: sneak into the Expo hotel, collect your key, VIP pass and Studson, steal the CDs
// from the Casino and escape (rulebook cd-thief.txt, rulings D1-D10). The board view is
// documented in docs/cd-thief.md; this module draws the 21 x 17 hotel map in SVG, highlights
// the legal end squares after a roll, animates thieves, podcasters, Carl and
// Intellivision-The-Great step by step along the paths in the events, shows the dice, the
// drawn Event card, every backpack and a Frantic Mode banner.

import { h, svg, fill } from "../ui.js";

const CELL = 30;
const W = 21;
const H = 17;
const STEP_MS = 140;

const COLOR_CSS = { red: "var(--p-red)", green: "var(--p-green)", yellow: "var(--p-yellow)", blue: "var(--p-blue)" };
const TERRAIN_CLASS = { "#": "wall", ".": "floor", c: "casino", m: "museum", v: "vip", x: "exit", C: "door", U: "door", P: "door", E: "door" };
const DOOR_LABEL = { C: "C", U: "M", P: "V", E: "E" };
const ITEM_LETTER = { key: "K", pass: "P", zapper: "Z", studson: "S" };
const ITEM_WORD = { cds: "CDs", zapper: "Zapper", key: "Key", pass: "VIP Pass", studson: "Studson" };
const ROOM_WORD = { casino: "Casino", museum: "Museum", vip: "VIP room" };
const PODCASTERS = {
  scott: { label: "S", name: "Scott", fill: "#ff9f43" },
  socal_mike: { label: "SM", name: "SoCal Mike", fill: "#ff6bcb" },
  uk_mike: { label: "UK", name: "UK Mike", fill: "#48dbfb" },
};

function ensureCss() {
  if (document.querySelector("link[data-cdt-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/cd-thief.css", "data-cdt-css": "" }));
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
  const say = h("p", { class: "cdt-say small", "data-testid": "cd-say" });
  const card = h("div", { class: "cdt-panel cdt-card", "data-testid": "cd-card", "aria-live": "polite" });
  const actions = h("div", { class: "cdt-panel cdt-actions" }, rollButton, battleButton, diceBox, say);
  const svgRoot = svg("svg", {
    class: "cdt-board", viewBox: `0 0 ${W * CELL} ${H * CELL}`, role: "img", "data-testid": "cd-board",
    "aria-label": "The hotel map",
  });
  const terrainLayer = svg("g", {});
  const targetLayer = svg("g", {});
  const itemLayer = svg("g", {});
  const pieceLayer = svg("g", {});
  svgRoot.append(terrainLayer, itemLayer, targetLayer, pieceLayer);
  const packs = h("div", { class: "cdt-packs", "data-testid": "cd-backpacks" });
  const info = h("p", { class: "small muted", "data-testid": "cd-deck" });
  const wrap = h("div", { class: "cdt", "data-testid": "cd-thief" },
    frantic,
    h("div", { class: "cdt-top" }, actions, card),
    h("div", { class: "cdt-board-wrap" }, svgRoot),
    info,
    h("p", { class: "small muted", "data-testid": "cd-legend" },
      "Legend: S Scott, SM SoCal Mike, UK UK Mike (podcasters); C Carl the Janitor; ITG Intellivision-The-Great; ",
      "coloured squares are items (K key, P VIP pass, Z Zapper, S Studson); the disc is the stack of CDs. ",
      "Doors: C Casino, M Museum, V VIP room, E main entrance."),
    packs,
  );
  root.append(wrap);

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
      svg("rect", { x: cx - 9, y: cy - 9, width: 18, height: 18, rx: 4, fill: COLOR_CSS[colour], stroke: "#111", "stroke-width": 1 }),
      svg("text", { x: cx, y: cy + 0.5, fill: "#111" }, ITEM_LETTER[kind] || "?"),
      svg("title", {}, `${cap(colour)} ${ITEM_WORD[kind]}`));
  }

  function drawItems() {
    fill(itemLayer, ...Object.entries(board.items || {}).map(([id, pos]) => itemNode(id, pos)));
  }

  function pieceSpecs() {
    const specs = [];
    for (const t of board.thieves) {
      if (!t.pos) continue;
      specs.push({ id: `thief-${t.seat}`, pos: t.pos, fill: COLOR_CSS[t.colour], label: t.colour[0].toUpperCase(),
        title: `${cap(t.colour)} thief`, mine: t.seat === ctx.you, r: 12 });
    }
    for (const [id, pos] of Object.entries(board.podcasters || {})) {
      const p = PODCASTERS[id];
      specs.push({ id: `pod-${id}`, pos, fill: p.fill, label: p.label, title: `Podcaster ${p.name}`, r: 12, square: true });
    }
    specs.push({ id: "carl", pos: board.carl.pos, fill: "#c8d6e5", label: "C", title: `Carl the Janitor${board.carl.dustpan ? ` (holding ${itemWord(board.carl.dustpan)})` : ""}`, r: 12, square: true });
    specs.push({ id: "itg", pos: board.itg, fill: "#ffffff", label: "ITG", title: "Intellivision-The-Great", r: 13, square: true });
    return specs;
  }

  function placePiece(node, pos) {
    const [cx, cy] = center(pos);
    node.setAttribute("transform", `translate(${cx} ${cy})`);
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
      node.setAttribute("class", `cdt-piece${spec.mine ? " cdt-mine" : ""}`);
      const shape = spec.square
        ? svg("rect", { class: "cdt-body", x: -spec.r, y: -spec.r, width: spec.r * 2, height: spec.r * 2, rx: 5, fill: spec.fill, stroke: "#111", "stroke-width": 1.5 })
        : svg("circle", { class: "cdt-body", r: spec.r, fill: spec.fill, stroke: "#111", "stroke-width": 1.5 });
      fill(node, shape, svg("text", { fill: "#111" }, spec.label), svg("title", {}, spec.title));
      placePiece(node, spec.pos);
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
      for (const [x, y] of mine) {
        const label = targetLabel(x, y);
        const rect = svg("rect", {
          class: "cdt-target", x: x * CELL + 2, y: y * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 4,
          tabindex: 0, role: "button", "aria-label": label, "data-testid": `cd-target-${x}-${y}`,
        }, svg("title", {}, label));
        const go = () => { if (!busy) send({ type: "move", to: [x, y] }); };
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
    const legal = state?.legal_moves || [];
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
    for (const pos of path.slice(1)) {
      if (token !== animationToken) return;
      placePiece(node, pos);
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

  function destroy() {
    animationToken++;
    root.replaceChildren();
  }

  return { update, destroy, describeTurn, seatInfo };
}
