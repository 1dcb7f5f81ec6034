// The replay page (/replay/{id}): a finished (or still running) match, move by move.
//
// GET /api/matches/{id}/replay/frames gives the state at version 0 and one RFC 6902 patch
// per move (docs/replays.md). The state after move k is the state after move k-1 with
// frame k's ops applied; every state computed is kept, so once a position has been reached,
// going back to it (or anywhere before it) is a lookup. States share the parts a move did
// not touch (copy-on-write along each op's path), so a long match costs memory per change,
// not per move. A background pass computes the rest after the first paint, so jumping to
// the end is instant too.
//
// The board is drawn by the game's own renderer, the same module as live play, read-only:
// `you` is null (a spectator's seat) and `submit` refuses.

import { applyOperation } from "../vendor/fast-json-patch/index.mjs";
import { api, ApiError, loadPlayer, serverTime, verifyPlayer, withWatch } from "./api.js";
import { pipDie, hasPips } from "./dice.js";
import { seatNameWithBadge } from "./seats.js";
import { clear, copyText, fill, h, logoSvg, setAttrs, svg, toast } from "./ui.js";
import "./turns.js"; // the header's "Your turn" count

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const watch = new URLSearchParams(location.search).get("watch");
const SPEED_KEY = "arcade.replay.speed";
const FALLBACK_COLORS = ["#e9564b", "#53c35c", "#5b8cff", "#f2cf3a", "#f29a38", "#c77dff", "#4dd0c8", "#e0e0e0"];

const $ = (id) => document.getElementById(id);
const els = {
  name: $("player-name"), title: $("replay-title"), status: $("status-tag"), sub: $("replay-sub"),
  actions: $("replay-actions"), copy: $("copy-link"), exportBtn: $("export"), verify: $("verify"),
  live: $("live-banner"), catchUp: $("catch-up"), watchLive: $("watch-live"), verifyResult: $("verify-result"),
  notFound: $("not-found"), notFoundTitle: $("not-found-title"), notFoundText: $("not-found-text"),
  layout: $("replay-layout"), transport: $("transport"), first: $("first"), prev: $("prev"), play: $("play"),
  next: $("next"), last: $("last"), position: $("position"), speed: $("speed"), scrubber: $("scrubber"),
  now: $("now"), outcome: $("outcome"), root: $("game-root"), log: $("replay-log"), movesCount: $("moves-count"),
  fair: $("fair-panel"), seals: $("seal-list"),
};
$("brand-logo").replaceWith(logoSvg());

let player = loadPlayer();
let summary = null;  // GET /api/matches/{id}: names, privacy, seed commitment, seed, dates
let data = null;     // GET .../replay/frames
let frames = [];
let states = [];     // states[i] = the state after i moves; states[0] = data.initial
let index = 0;
let renderer = null;
let record = null;   // GET .../replay, fetched once for Export and Verify
let games = [];      // GET /api/games: whether this game rolls or shuffles at all (has_chance)
let playing = false;
let playTimer = null;
let precomputeTimer = null;
let broken = null;   // the first move whose patch did not fit, if any

// ------------------------------------------------------------------ states
function unescapeKey(key) {
  return key.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Replaces each container on the way to `pointer`'s parent by a copy this patch owns. */
function ownPath(root, pointer, owned) {
  if (typeof pointer !== "string" || pointer === "") return;
  const keys = pointer.split("/").slice(1).map(unescapeKey);
  let node = root;
  for (let i = 0; i < keys.length - 1; i += 1) {
    const child = node[keys[i]];
    if (child === null || typeof child !== "object") return; // the validator reports it
    if (!owned.has(child)) {
      const copy = Array.isArray(child) ? child.slice() : { ...child };
      node[keys[i]] = copy;
      owned.add(copy);
      node = copy;
    } else {
      node = child;
    }
  }
}

/**
 * `doc` with `ops` applied, leaving `doc` untouched: containers along each op's path are
 * copied before fast-json-patch changes them; everything else is shared with `doc`.
 */
function applyFrame(doc, ops) {
  if (!ops || !ops.length) return doc;
  let root = Array.isArray(doc) ? doc.slice() : { ...doc };
  const owned = new Set([root]);
  ops.forEach((op, i) => {
    ownPath(root, op.path, owned);
    if (op.from !== undefined) ownPath(root, op.from, owned);
    const result = applyOperation(root, op, true, true, true, i).newDocument;
    if (result !== root) { // an op on the whole document
      root = result !== null && typeof result === "object" ? (Array.isArray(result) ? result.slice() : { ...result }) : result;
      owned.add(root);
    }
  });
  return root;
}

function lastIndex() {
  return broken === null ? frames.length : broken - 1;
}

/** The state after `i` moves, computing (and keeping) the ones before it on the way. */
function stateAt(i) {
  while (states.length <= i && broken === null) {
    const k = states.length;
    try {
      states.push(applyFrame(states[k - 1], frames[k - 1].ops));
    } catch (error) {
      console.error(error);
      broken = k;
      toast(`The recorded change of move ${frames[k - 1].seq ?? k} does not fit the board before it; the replay stops there.`,
        { kind: "error", title: "Damaged replay" });
      renderTransport();
    }
  }
  return states[Math.min(i, states.length - 1)];
}

/** After the first paint: the remaining states in small slices, so the page stays responsive. */
function precompute() {
  clearTimeout(precomputeTimer);
  const slice = () => {
    const until = performance.now() + 8;
    while (states.length <= frames.length && broken === null && performance.now() < until) stateAt(states.length);
    if (states.length <= frames.length && broken === null) precomputeTimer = setTimeout(slice, 0);
  };
  precomputeTimer = setTimeout(slice, 50);
}

// ------------------------------------------------------------------ words
function seatName(seat) {
  return data?.seats?.find((s) => s.seat === seat)?.name
    || summary?.seats?.find((s) => s.seat === seat)?.name
    || `Seat ${seat + 1}`;
}

function seatInfo(seat) {
  const info = renderer?.seatInfo?.(seat);
  return {
    label: info?.label || null,
    color: info?.color || FALLBACK_COLORS[seat % FALLBACK_COLORS.length],
  };
}

function seatLabel(seat) {
  const info = seatInfo(seat);
  return info.label ? `${info.label} (${seatName(seat)})` : seatName(seat);
}

function eventText(event, frame) {
  if (event.text) return event.text;
  const seat = event.seat ?? frame?.seat;
  const who = seat !== undefined && seat !== null ? seatLabel(seat) : "The game";
  return `${who}: ${String(event.type || "move").replace(/_/g, " ")}`;
}

function outcomeTitle(outcome) {
  const winners = outcome?.winners || [];
  if (winners.length === 1) return `${seatLabel(winners[0])} wins!`;
  if (winners.length) return `${winners.map(seatLabel).join(" & ")} win!`;
  return "Game over: nobody wins";
}

// ------------------------------------------------------------------ dice

/** Every die face an event reports under `dice` or `rolls` (numbers, or {face}/{value}). */
function diceOf(event) {
  const faces = [];
  for (const key of ["dice", "rolls"]) {
    if (Array.isArray(event?.[key])) faces.push(...event[key].flat(3));
  }
  return faces
    .map((d) => (d !== null && typeof d === "object" ? d.face ?? d.value ?? d.roll : d))
    .filter((d) => d !== null && d !== undefined);
}

function dieFace(value) {
  const n = Number(value);
  if (hasPips(n)) return pipDie(n);
  return h("span", { class: "die die-text", role: "img", "aria-label": `die showing ${value}`, "data-testid": "die", "data-face": String(value) }, String(value));
}

function diceRow(events) {
  const faces = events.flatMap(diceOf);
  return faces.length ? h("span", { class: "dice-row" }, faces.map(dieFace)) : null;
}

// ------------------------------------------------------------------ icons
function icon(name) {
  const shapes = {
    first: [svg("rect", { x: 5, y: 5, width: 2.6, height: 14, rx: 1 }), svg("path", { d: "M19 5.5v13L9 12z" })],
    prev: [svg("path", { d: "M17 5.5v13L7 12z" })],
    play: [svg("path", { d: "M7.5 5v14L19 12z" })],
    pause: [svg("rect", { x: 6.5, y: 5, width: 4, height: 14, rx: 1 }), svg("rect", { x: 13.5, y: 5, width: 4, height: 14, rx: 1 })],
    next: [svg("path", { d: "M7 5.5v13L17 12z" })],
    last: [svg("path", { d: "M5 5.5v13L15 12z" }), svg("rect", { x: 16.4, y: 5, width: 2.6, height: 14, rx: 1 })],
  };
  return svg("svg", { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true", fill: "currentColor" }, ...shapes[name]);
}
els.first.append(icon("first"));
els.prev.append(icon("prev"));
els.next.append(icon("next"));
els.last.append(icon("last"));

// ------------------------------------------------------------------ renderer
async function makeRenderer(game) {
  renderer?.destroy();
  clear(els.root);
  const ctx = {
    you: null,
    readOnly: true,
    submit: () => Promise.reject(new Error("This is a replay: moves cannot be made here.")),
  };
  try {
    const module = await import(`./games/${encodeURIComponent(game)}.js`);
    return module.createRenderer(els.root, ctx);
  } catch (error) {
    console.error(error);
    const pre = h("pre", { class: "panel small", style: { overflow: "auto", maxHeight: "60vh" } });
    els.root.append(h("p", { class: "muted" }, `There is no board for “${game}” in this version of the site; here is the raw state.`), pre);
    return { update(s) { pre.textContent = JSON.stringify(s.board, null, 2); }, destroy() { clear(els.root); } };
  }
}

// ------------------------------------------------------------------ the move list
function logItem(i) {
  const frame = i > 0 ? frames[i - 1] : null;
  const events = frame?.events || [];
  const seat = frame ? frame.seat ?? events.find((e) => e.seat !== undefined)?.seat ?? null : null;
  const color = seat !== null ? seatInfo(seat).color : null;
  const lines = i === 0
    ? [h("span", { class: "line" }, "The table is set. Nobody has moved yet.")]
    : (events.length ? events : [{}]).map((event) => h("span", { class: "line" },
      events.length ? eventText(event, frame) : `${seatLabel(seat ?? 0)} moved.`,
      diceRow([event])));
  return h("div", { role: "listitem", class: "move", "data-testid": "replay-move", "data-index": i, "data-seq": frame?.seq ?? 0 },
    h("button", { type: "button", class: "log-jump", tabindex: "-1", "data-index": i },
      h("span", { class: "seq" }, i === 0 ? "start" : `#${frame.seq ?? i}`),
      color ? h("span", { class: "swatch", style: { background: color }, "aria-hidden": "true" }) : h("span", { class: "swatch blank", "aria-hidden": "true" }),
      h("span", { class: "text" }, lines),
    ),
  );
}

// The list is cut into chunks of moves that the browser lays out only while they are in
// sight (content-visibility), so a match of ten thousand moves scrolls and steps smoothly.
const CHUNK = 100;
let logItems = [];

function buildLog(from = 0) {
  if (from === 0) {
    clear(els.log);
    logItems = [];
  }
  let chunk = els.log.lastElementChild;
  for (let i = from; i <= frames.length; i += 1) {
    if (!chunk || chunk.childElementCount >= CHUNK) {
      chunk = h("div", { class: "log-chunk", role: "none" });
      els.log.append(chunk);
      chunkSizes.observe(chunk);
    }
    const item = logItem(i);
    logItems[i] = item;
    chunk.append(item);
  }
  els.movesCount.textContent = `${frames.length} ${frames.length === 1 ? "move" : "moves"}`;
}

let currentItem = null;
function highlightLog({ focus = false } = {}) {
  const item = logItems[index] || null;
  if (currentItem && currentItem !== item) {
    currentItem.classList.remove("current");
    currentItem.removeAttribute("aria-current");
    currentItem.firstElementChild.tabIndex = -1;
  }
  currentItem = item;
  if (!item) return;
  item.classList.add("current");
  item.setAttribute("aria-current", "step");
  item.firstElementChild.tabIndex = 0;
  revealCurrent();
  if (focus) item.firstElementChild.focus({ preventScroll: true });
}

// After a far jump the chunks that come into sight are laid out for the first time in the
// next frames, and each grows or shrinks from its estimated size, which moves the current
// move. So the list is checked again each frame until the move has stayed in sight for a
// couple of frames; a step within sight scrolls nothing and ends at once.
const REVEAL_SETTLED_FRAMES = 2;
const REVEAL_MAX_FRAMES = 30;
let revealFrame = 0;

function revealCurrent() {
  cancelAnimationFrame(revealFrame);
  followCurrent = true;
  if (currentItem && !revealItem(currentItem)) settleReveal(0, 0);
}

// A chunk laid out late (a busy machine can take longer than the frames above) still moves
// the current move: whenever a chunk changes size, the list follows the current move again,
// until the viewer scrolls the list herself.
let followCurrent = false;
const chunkSizes = new ResizeObserver(() => {
  if (followCurrent && currentItem) revealItem(currentItem);
});
for (const kind of ["wheel", "touchstart", "pointerdown"]) {
  els.log.addEventListener(kind, () => { followCurrent = false; }, { passive: true });
}

function settleReveal(frame, framesInSight) {
  revealFrame = requestAnimationFrame(() => {
    if (!currentItem) return;
    const inSight = revealItem(currentItem) ? framesInSight + 1 : 0;
    if (inSight < REVEAL_SETTLED_FRAMES && frame + 1 < REVEAL_MAX_FRAMES) settleReveal(frame + 1, inSight);
  });
}

/**
 * Scrolls the list (only the list: scrollIntoView would move the page too) to show `item`;
 * true if it was in sight already. Positions come from bounding boxes: a chunk's containment
 * makes it the offsetParent of its moves, so offsetTop would be relative to the chunk.
 */
function revealItem(item) {
  const list = els.log;
  if (!list.clientHeight) return true; // hidden, or not laid out: nothing to scroll
  const view = list.getBoundingClientRect();
  const box = item.getBoundingClientRect();
  const viewTop = view.top + list.clientTop;
  const viewBottom = viewTop + list.clientHeight;
  const fits = box.height <= list.clientHeight;
  // A move taller than the list counts as shown once its first line is at the top.
  if (fits ? box.top >= viewTop - 0.5 && box.bottom <= viewBottom + 0.5 : Math.abs(box.top - viewTop) <= 1) return true;
  const top = box.top - viewTop + list.scrollTop;
  list.scrollTop = Math.max(0, top - Math.max(0, list.clientHeight - box.height) / 2);
  return false;
}

els.log.addEventListener("click", (event) => {
  const button = event.target.closest("button.log-jump");
  if (!button) return;
  pause();
  goTo(Number(button.dataset.index));
});
els.log.addEventListener("keydown", (event) => {
  // Inside the list, Up/Down move through the moves like a list box.
  if (!event.target.closest?.("button.log-jump")) return;
  const delta = { ArrowUp: -1, ArrowDown: 1, PageUp: -10, PageDown: 10 }[event.key];
  if (!delta) return;
  event.preventDefault();
  event.stopPropagation();
  pause();
  goTo(index + delta, { focusLog: true, events: delta === 1 });
});

// ------------------------------------------------------------------ showing a position
function renderTransport() {
  const last = lastIndex();
  els.scrubber.max = String(last);
  els.scrubber.value = String(index);
  const label = index === 0 ? "Start" : `Move ${frames[index - 1]?.seq ?? index}`;
  els.scrubber.setAttribute("aria-valuetext", `${label} of ${last}`);
  fill(els.position, index === 0 ? "Start" : h("span", { class: "pos-word" }, "Move "), index === 0 ? "" : String(index), ` / ${last}`);
  els.transport.dataset.index = String(index);
  els.transport.dataset.last = String(last);
  els.first.disabled = index === 0;
  els.prev.disabled = index === 0;
  els.next.disabled = index >= last;
  els.last.disabled = index >= last;
  fill(els.play, icon(playing ? "pause" : "play"), h("span", { class: "play-label" }, playing ? "Pause" : index >= last && last > 0 ? "Replay" : "Play"));
  els.play.setAttribute("aria-pressed", String(playing));
  els.play.setAttribute("aria-label", `${playing ? "Pause" : "Play"} (Space)`);
  els.play.disabled = last === 0;
}

function renderNow(state) {
  const frame = index > 0 ? frames[index - 1] : null;
  const turn = state.status !== "finished" && !state.outcome && renderer?.describeTurn ? renderer.describeTurn(state) : null;
  const parts = [];
  if (frame) {
    const events = frame.events || [];
    parts.push(h("strong", {}, `Move ${frame.seq ?? index}`), " · ",
      events.length ? events.map((e) => eventText(e, frame)).join(" ") : `${seatLabel(frame.seat)} moved.`,
      diceRow(events));
  } else {
    parts.push(h("strong", {}, "Start"), " · The table is set.");
  }
  if (index >= lastIndex() && data.status !== "finished") parts.push(h("span", { class: "muted" }, " (the latest move so far)"));
  // A renderer may word this itself (`nextUp`, "" for none): a one-player puzzle has no next seat.
  const nextUp = turn?.nextUp ?? (turn?.title ? `Next: ${turn.title}.` : "");
  if (nextUp) parts.push(h("span", { class: "muted next-up" }, ` ${nextUp}`));
  fill(els.now, parts);
}

function renderOutcome(state) {
  const outcome = index >= frames.length && broken === null ? data.outcome || state.outcome : null;
  els.outcome.hidden = !outcome;
  if (!outcome) return;
  const scores = outcome.scores
    ? Object.entries(outcome.scores).map(([seat, score]) => `${seatLabel(Number(seat))}: ${score}`).join(" · ")
    : "";
  fill(els.outcome,
    h("span", { class: "b-title", "data-testid": "replay-winner" }, outcomeTitle(outcome)),
    h("span", { class: "b-actions" },
      h("a", { class: "button small", href: "/history" }, "More matches"),
      h("a", { class: "button small primary", href: "/" }, "Play a match")),
    h("span", { class: "b-detail" }, [outcome.reason, scores].filter(Boolean).join(" · ")),
  );
}

let hashTimer = null;
function rememberPosition() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(() => {
    const hash = index > 0 ? `#move=${index}` : "";
    history.replaceState(null, "", `${location.pathname}${location.search}${hash}`);
  }, 250);
}

/** Shows move `i`; `events` animates the move (a single step forward). */
function goTo(i, { events = false, focusLog = false } = {}) {
  const target = Math.max(0, Math.min(lastIndex(), Number.isFinite(i) ? Math.round(i) : 0));
  const state = stateAt(target);
  const step = target === index + 1;
  index = Math.min(target, states.length - 1);
  renderer.update(state, events && step ? frames[index - 1]?.events || [] : []);
  renderTransport();
  renderNow(state);
  renderOutcome(state);
  highlightLog({ focus: focusLog });
  rememberPosition();
}

// ------------------------------------------------------------------ autoplay
function speed() {
  return Number(els.speed.value) || 4;
}

function tick() {
  if (!playing) return;
  if (index >= lastIndex()) { pause(); return; }
  goTo(index + 1, { events: true });
  if (index >= lastIndex()) pause();
  else playTimer = setTimeout(tick, 1000 / speed());
}

function play() {
  if (lastIndex() === 0) return;
  if (index >= lastIndex()) goTo(0);
  playing = true;
  els.now.setAttribute("aria-live", "off"); // no running commentary for screen readers
  renderTransport();
  clearTimeout(playTimer);
  playTimer = setTimeout(tick, Math.min(400, 1000 / speed()));
}

function pause() {
  if (!playing) return;
  playing = false;
  clearTimeout(playTimer);
  els.now.setAttribute("aria-live", "polite");
  renderTransport();
}

function togglePlay() {
  if (playing) pause();
  else play();
}

els.first.addEventListener("click", () => { pause(); goTo(0); });
els.prev.addEventListener("click", () => { pause(); goTo(index - 1); });
els.next.addEventListener("click", () => { pause(); goTo(index + 1, { events: true }); });
els.last.addEventListener("click", () => { pause(); goTo(lastIndex()); });
els.play.addEventListener("click", togglePlay);
els.scrubber.addEventListener("input", () => {
  pause();
  const target = Number(els.scrubber.value);
  goTo(target, { events: target === index + 1 });
});
els.speed.value = localStorage.getItem(SPEED_KEY) || "4";
if (!els.speed.value) els.speed.value = "4";
els.speed.addEventListener("change", () => {
  localStorage.setItem(SPEED_KEY, els.speed.value);
  if (playing) { clearTimeout(playTimer); playTimer = setTimeout(tick, 1000 / speed()); }
});

document.addEventListener("keydown", (event) => {
  if (!data || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (document.querySelector("dialog[open], :popover-open")) return;
  const target = event.target;
  const tag = target.tagName;
  if (target.isContentEditable || tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && target.type !== "range")) return;
  // The scrubber handles its own arrows, Home and End (and tells us through "input").
  if (target === els.scrubber && event.key !== " ") return;
  const focusLog = els.log.contains(target); // focus follows the highlighted move in the list
  switch (event.key) {
    case "ArrowLeft": pause(); goTo(index - 1, { focusLog }); break;
    case "ArrowRight": pause(); goTo(index + 1, { events: true, focusLog }); break;
    case "Home": pause(); goTo(0, { focusLog }); break;
    case "End": pause(); goTo(lastIndex(), { focusLog }); break;
    case " ":
    case "Spacebar":
      if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return; // Space activates it
      togglePlay();
      break;
    default:
      return;
  }
  event.preventDefault();
});

// ------------------------------------------------------------------ export, verify, copy
async function loadRecord() {
  if (!record) record = await api("GET", withWatch(`/matches/${encodeURIComponent(matchId)}/replay`, watch));
  return record;
}

els.exportBtn.addEventListener("click", async () => {
  els.exportBtn.disabled = true;
  try {
    const json = await loadRecord();
    const blob = new Blob([JSON.stringify(json, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `arcade-night-${data.game}-${matchId}.json`, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    toast("The replay file is downloading. Anyone can check it with “arcade verify FILE”.", { kind: "ok" });
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not export the replay" });
  } finally {
    els.exportBtn.disabled = data.status !== "finished";
  }
});

/** False for games with no dice and no shuffle (Tactrics but Solitary): nothing to seal. */
function usesChance() {
  return games.find((g) => g.id === data?.game)?.has_chance !== false;
}

function showVerify(result) {
  const ok = Boolean(result.ok);
  els.verifyResult.hidden = false;
  els.verifyResult.dataset.ok = String(ok);
  const checked = result.checked_moves ?? 0;
  fill(els.verifyResult,
    h("span", { class: "b-title", "data-testid": "verify-title" }, ok ? "✓ Verified" : "✗ Does not check out"),
    h("button", { type: "button", class: "ghost small", "aria-label": "Dismiss", onclick: () => { els.verifyResult.hidden = true; } }, "✕"),
    h("span", { class: "b-detail", "data-testid": "verify-detail" }, !ok
      ? result.problem || "The server could not confirm this replay."
      : usesChance()
        ? `All ${checked} ${checked === 1 ? "move" : "moves"} replay exactly from the revealed seed, and the seed matches the fingerprint published before the match started. Nobody changed a die after the fact.`
        : `All ${checked} ${checked === 1 ? "move" : "moves"} replay exactly under the rules, to the same end. This game has no dice: nothing was left to chance.`),
  );
}

els.verify.addEventListener("click", async () => {
  els.verify.disabled = true;
  const label = els.verify.textContent;
  els.verify.textContent = "Verifying…";
  try {
    const json = await loadRecord();
    showVerify(await api("POST", "/replays/verify", json, { auth: false }));
  } catch (error) {
    showVerify({ ok: false, problem: `The check could not run: ${error.message}` });
  } finally {
    els.verify.textContent = label;
    els.verify.disabled = data.status !== "finished";
  }
});

els.copy.addEventListener("click", async () => {
  // A private match's link carries its watch token (from this page's link, or the one the
  // server gives its players); a public match needs none.
  const token = summary?.private ? watch || summary.watch_token : null;
  const base = `${location.origin}/replay/${encodeURIComponent(matchId)}`;
  const query = token ? `?watch=${encodeURIComponent(token)}` : "";
  const link = `${base}${query}${index > 0 ? `#move=${index}` : ""}`;
  const ok = await copyText(link);
  els.copy.textContent = ok ? "Copied!" : "Copy failed";
  if (!ok) toast(link, { title: "Copy this link", timeout: 10000 });
  setTimeout(() => { els.copy.textContent = "Copy link"; }, 1800);
});

// ------------------------------------------------------------------ header and fair dice
function shortHash(hex) {
  return hex ? `${hex.slice(0, 10)}…` : "";
}

function sealRow(term, value, { testid, none } = {}) {
  return [
    h("dt", {}, term),
    h("dd", {}, value
      ? h("code", { class: "hash", title: value, tabindex: "0", "aria-label": `${term}: ${value}`, "data-testid": testid, "data-full": value }, shortHash(value))
      : h("span", { class: "muted" }, none)),
  ];
}

function renderHeader() {
  const title = summary?.title || data.game;
  els.title.textContent = `Replay: ${title}`;
  const statusWords = { finished: "finished", active: "still playing", abandoned: "abandoned" };
  els.status.textContent = statusWords[data.status] || data.status;
  els.status.hidden = false;
  els.status.dataset.status = data.status;
  const names = (data.seats || []).map((s) => s.name || `Seat ${s.seat + 1}`).join(" vs ");
  const when = serverTime(summary?.finished_at || summary?.started_at || summary?.created_at);
  const whenText = when
    ? `${data.status === "finished" ? "finished" : "started"} ${when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}`
    : "";
  // A computer's seat carries its badge, as everywhere seats are listed.
  const botOf = (seat) => summary?.seats?.[seat]?.bot;
  const who = (data.seats || []).flatMap((s, i) => [
    i ? " vs " : "",
    botOf(s.seat) ? seatNameWithBadge({ ...s, bot: botOf(s.seat) }) : (s.name || `Seat ${s.seat + 1}`),
  ]);
  fill(els.sub,
    ...who,
    ` · ${frames.length} ${frames.length === 1 ? "move" : "moves"}`,
    whenText ? ` · ${whenText}` : "",
    summary?.private ? h("span", { class: "tag", style: { marginLeft: ".5rem" } }, "private") : null,
  );
  document.title = `Replay · ${title} · ${names} · Arcade Night`;

  const finished = data.status === "finished";
  els.actions.hidden = false;
  els.exportBtn.disabled = !finished;
  els.verify.disabled = !finished;
  const later = finished ? "" : "Available once the match has finished";
  els.exportBtn.title = later || "Download the full record of this match (JSON)";
  els.verify.title = later || (usesChance()
    ? "Re-run every move on the server and check the dice"
    : "Re-run every move on the server and check it is legal");
  els.live.hidden = data.status !== "active";
  setAttrs(els.watchLive, { href: withWatch(`/match/${encodeURIComponent(matchId)}`, watch) });

  els.fair.hidden = true;
  if (summary && (summary.seed_commitment || summary.seed) && usesChance()) {
    els.fair.hidden = false;
    const nonces = summary.nonces || record?.nonces || [];
    const given = nonces.filter(Boolean).length;
    fill(els.seals,
      sealRow("Seed fingerprint", summary.seed_commitment, { testid: "seed-commitment", none: "not published" }),
      sealRow("Seed", summary.seed, { testid: "seed", none: finished ? "not revealed" : "secret until the match ends" }),
      nonces.length
        ? [h("dt", {}, "Players' randomness"), h("dd", {}, `${given} of ${nonces.length} ${nonces.length === 1 ? "seat" : "seats"} added their own`)]
        : null,
    );
  }
}

// ------------------------------------------------------------------ loading
function showProblem(title, text) {
  els.layout.hidden = true;
  els.notFound.hidden = false;
  els.notFoundTitle.textContent = title;
  els.notFoundText.textContent = text;
  els.title.textContent = title;
}

function framesPath() {
  return withWatch(`/matches/${encodeURIComponent(matchId)}/replay/frames`, watch);
}

function startIndex() {
  const match = /move=(\d+)/.exec(location.hash);
  if (match) return Number(match[1]);
  return data.status === "finished" ? 0 : frames.length;
}

async function show(next, { keep = false } = {}) {
  const sameView = keep && data && next.status === data.status && next.frames.length >= frames.length;
  const previous = index;
  const wasAtEnd = index >= lastIndex();
  data = next;
  if (sameView) {
    // A running match gained moves: the known states are still right; add the new ones.
    const known = frames.length;
    frames = data.frames || [];
    buildLog(known + 1);
  } else {
    frames = data.frames || [];
    states = [data.initial];
    broken = null;
    if (!renderer || !keep) renderer = await makeRenderer(data.game);
    renderer.update(states[0], []); // colours and labels for the move list come from the board
    buildLog(0);
    currentItem = null;
  }
  els.layout.hidden = false;
  renderHeader();
  index = 0;
  goTo(keep ? (wasAtEnd ? lastIndex() : previous) : startIndex());
  precompute();
}

els.catchUp.addEventListener("click", async () => {
  els.catchUp.disabled = true;
  try {
    const [next, fresh] = await Promise.all([
      api("GET", framesPath()),
      api("GET", withWatch(`/matches/${encodeURIComponent(matchId)}`, watch)).catch(() => summary),
    ]);
    summary = fresh;
    const added = next.frames.length - frames.length;
    await show(next, { keep: true });
    toast(next.status === "finished" ? "The match has finished." : added > 0 ? `${added} new ${added === 1 ? "move" : "moves"}.` : "No new moves yet.");
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not load new moves" });
  } finally {
    els.catchUp.disabled = false;
  }
});

async function main() {
  els.name.textContent = player ? player.name : "guest";
  if (!matchId) {
    showProblem("Replay not found", "This link does not name a match.");
    return;
  }
  verifyPlayer().then((known) => { player = known; els.name.textContent = player ? player.name : "guest"; });
  // Both at once; the frames answer decides, the summary adds names, dates and the dice seal.
  const [summaryAnswer, frameAnswer, gameList] = await Promise.all([
    api("GET", withWatch(`/matches/${encodeURIComponent(matchId)}`, watch)).catch((error) => error),
    api("GET", framesPath()).catch((error) => error),
    api("GET", "/games", undefined, { auth: false }).catch(() => []),
  ]);
  summary = summaryAnswer instanceof Error ? null : summaryAnswer;
  games = gameList || [];
  const error = frameAnswer instanceof Error ? frameAnswer : null;
  if (error) {
    const status = error instanceof ApiError ? error.status : 0;
    if (status === 404 && summary?.status !== "open") {
      showProblem("Replay not found", "This link does not lead to a match. It may have been mistyped.");
    } else if (status === 403 || status === 401) {
      showProblem("This match is private", "Only its players and people with its watch link can see it. Ask a player for the watch link.");
    } else if (summary?.status === "open") {
      showProblem("Not started yet", "This match is still a lobby: there is nothing to replay until it starts.");
      els.notFound.querySelector(".row").prepend(
        h("a", { class: "button primary", href: withWatch(`/match/${encodeURIComponent(matchId)}`, watch) }, "Go to the lobby"));
    } else {
      showProblem(status >= 400 && status < 500 ? "No replay" : "Could not load the replay", error.message);
    }
    return;
  }
  const frameData = frameAnswer;
  await show(frameData);
}

// A console hook for the curious (and for tests).
window.arcadeReplay = {
  get index() { return index; },
  get last() { return lastIndex(); },
  get computed() { return states.length; },
  stateAt: (i) => stateAt(i),
  goTo: (i) => goTo(i),
};

main();
