// "Your turn" across matches (issue 18): GET /api/players/me/turns, asked on load, every 30 s
// while the page is seen (never hidden), when it is seen again and on the window event
// "arcade:turns-stale"; at most once per 3 s. A refusal or network error keeps the last answer.
// It fills the header's badge and the title's "(N) "; pages subscribe for the list.

import { api, loadPlayer } from "./api.js";

let last = null; // {turns, count}
let timer = null;
let busy = false;
let again = false;
let asked = 0;
let pause = 0; // until then nothing is asked (a 429's retry_after)
const listeners = new Set();

/** fn({turns, count}) with the last answer (if any) and every new one. */
export function subscribeTurns(fn) {
  listeners.add(fn);
  if (last) fn(last);
}

function schedule(ms) {
  clearTimeout(timer);
  timer = setTimeout(poll, ms);
}

async function poll() {
  timer = null;
  if (document.hidden || !loadPlayer()) return;
  const wait = Math.max(pause, asked + 3000) - Date.now();
  if (wait > 0) return schedule(wait);
  if (busy) { again = true; return; }
  busy = true;
  asked = Date.now();
  try {
    last = await api("GET", "/players/me/turns");
    for (const fn of listeners) fn(last);
  } catch (error) {
    if (error.status === 429) pause = Date.now() + 1000 * (error.retryAfter || 30);
  }
  busy = false;
  schedule(again ? 0 : 30_000);
  again = false;
}

/** Ask now (or as soon as allowed). */
export function refreshTurns() {
  if (busy) again = true; else schedule(0);
}

// The page owns its title; "(N) " goes in front while N > 0, put back when the page changes it.
let prefix = "";
function applyTitle() {
  const now = document.title;
  const own = prefix && now.startsWith(prefix) ? now.slice(prefix.length) : now;
  prefix = last?.count ? `(${last.count}) ` : "";
  if (now !== prefix + own) document.title = prefix + own;
}

// Inside another page (the match page's rules panel) the outer page does it.
if (window.top === window) {
  subscribeTurns(({ count }) => {
    const badge = document.querySelector('[data-testid="turns-badge"]');
    if (badge) {
      badge.querySelector('[data-testid="turns-count"]').textContent = count;
      badge.setAttribute("aria-label", `Your turn in ${count} ${count === 1 ? "match" : "matches"}`);
      badge.hidden = !count;
    }
    applyTitle();
  });
  const title = document.querySelector("title");
  if (title) new MutationObserver(applyTitle).observe(title, { childList: true });
  addEventListener("arcade:turns-stale", refreshTurns);
  addEventListener("arcade:player", refreshTurns);
  document.addEventListener("visibilitychange", () => (document.hidden ? clearTimeout(timer) : refreshTurns()));
  refreshTurns();
}
