// "Your turn" across matches (issue 18): the matches waiting for this guest's move, from
// GET /api/players/me/turns. Asked every 30 s while the page is seen, at once when it is seen
// again and when a page says the answer is stale (window event "arcade:turns-stale", e.g.
// after a move); never while hidden. The header's badge and the tab title's "(N) " follow the
// last answer; pages subscribe for the list. A refusal (401, 429) or a lost connection leaves
// everything as it was.

import { api, ApiError, loadPlayer, serverTime } from "./api.js";

const POLL_MS = 30_000;
const MIN_GAP_MS = 3_000; // stale events coalesce: at most one request per 3 s

let last = null; // {turns, count} once answered
let timer = null;
let inFlight = false;
let again = false;
let lastAsked = 0;
let pausedUntil = 0; // after a 429, its retry_after
const listeners = new Set();

/** fn({turns, count}) now if answered already, and on every answer; returns the unsubscribe. */
export function subscribeTurns(fn) {
  listeners.add(fn);
  if (last) fn(last);
  return () => listeners.delete(fn);
}

/** The last answer ({turns, count}), or null. */
export function lastTurns() {
  return last;
}

function schedule(ms) {
  clearTimeout(timer);
  timer = setTimeout(poll, Math.max(0, ms));
}

async function poll() {
  clearTimeout(timer);
  timer = null;
  if (document.visibilityState === "hidden" || !loadPlayer()) return;
  const now = Date.now();
  const wait = Math.max(pausedUntil - now, lastAsked + MIN_GAP_MS - now);
  if (wait > 0) { schedule(wait); return; }
  if (inFlight) { again = true; return; }
  inFlight = true;
  lastAsked = now;
  try {
    const answer = await api("GET", "/players/me/turns");
    if (answer && Array.isArray(answer.turns)) {
      last = { turns: answer.turns, count: answer.count ?? answer.turns.length };
      for (const fn of listeners) {
        try { fn(last); } catch (error) { console.error(error); }
      }
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) {
      pausedUntil = Date.now() + 1000 * (error.retryAfter || 30);
    }
  } finally {
    inFlight = false;
  }
  if (again) { again = false; schedule(0); } else schedule(POLL_MS);
}

/** Ask again now (or as soon as allowed). */
export function refreshTurns() {
  if (!inFlight) schedule(0); else again = true;
}

// ------------------------------------------------------------------ words
/** "5 min", "3 h", "2 d": how long she has been waiting. */
export function waitWords(seconds) {
  const m = Math.max(1, Math.floor(seconds / 60));
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

/** "2 h 10 min left", "1 d 3 h left", "time is up": the time left before `deadline` (ISO). */
export function leftWords(deadline, now = Date.now()) {
  const s = Math.floor(((serverTime(deadline)?.getTime() ?? now) - now) / 1000);
  if (s <= 0) return "time is up";
  const m = Math.floor(s / 60);
  if (m < 1) return `${s} s left`;
  if (m < 60) return `${m} min left`;
  const hours = Math.floor(m / 60);
  if (hours < 24) return `${hours} h${m % 60 ? ` ${m % 60} min` : ""} left`;
  return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} h` : ""} left`;
}

/** Seconds since `since` (ISO), never negative. */
export function waitedSeconds(since, now = Date.now()) {
  return Math.max(0, Math.floor((now - (serverTime(since)?.getTime() ?? now)) / 1000));
}

// ------------------------------------------------------------------ the tab title
// The page owns its title; "(N) " goes in front while N > 0. Pages that change their title
// keep doing so: an observer puts the prefix back.
let prefix = "";

function applyTitle() {
  const current = document.title;
  const own = prefix && current.startsWith(prefix) ? current.slice(prefix.length) : current;
  const count = last?.count || 0;
  prefix = count > 0 ? `(${count}) ` : "";
  if (current !== prefix + own) document.title = prefix + own;
}

// ------------------------------------------------------------------ the header's badge
function showBadge({ count }) {
  const badge = document.querySelector('[data-testid="turns-badge"]');
  if (badge) {
    badge.querySelector('[data-testid="turns-count"]').textContent = String(count);
    badge.setAttribute("aria-label", `Your turn in ${count} ${count === 1 ? "match" : "matches"}`);
    badge.hidden = count === 0;
  }
  applyTitle();
}

// A page inside another (the rules panel of the match page) leaves it to the outer one.
if (window.top === window) {
  subscribeTurns(showBadge);
  const title = document.querySelector("title");
  if (title) new MutationObserver(applyTitle).observe(title, { childList: true, characterData: true, subtree: true });
  window.addEventListener("arcade:turns-stale", refreshTurns);
  window.addEventListener("arcade:player", refreshTurns);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshTurns();
    else { clearTimeout(timer); timer = null; }
  });
  refreshTurns();
}
