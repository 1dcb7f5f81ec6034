// "Your turn" across matches (issue 18): GET /api/players/me/turns, asked on load, every 30 s
// while the page is seen (every 60 s while hidden, only for a player who allowed
// notifications), when it is seen again and on the window event
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

// While the tab is hidden, a player who allowed notifications (the home page's "Notify me")
// is still asked for every 60 s, and told of a match that newly waits for her: a short sound
// and a notification (the same tag as a Web Push one, so the two never show twice).
const HIDDEN_POLL_MS = 60_000;
const alertsOn = () => "Notification" in window && Notification.permission === "granted";

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const level = audio.createGain();
    tone.frequency.value = 880;
    level.gain.setValueAtTime(0.15, audio.currentTime);
    level.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(level).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch {
    // No sound where the browser allows none: the notification still says it.
  }
}

function alertNewTurns(before, now) {
  if (!before || !document.hidden || !alertsOn()) return;
  const known = new Set(before.turns.map((t) => t.match_id));
  const fresh = now.turns.filter((t) => !known.has(t.match_id));
  if (!fresh.length) return;
  beep();
  for (const turn of fresh) {
    const names = turn.opponents.join(", ");
    const shown = new Notification(`Your turn in ${turn.game_name}${names ? ` with ${names}` : ""}`, {
      body: "The match waits for your move.", tag: `match-${turn.match_id}`,
    });
    shown.onclick = () => { window.focus(); location.assign(`/match/${encodeURIComponent(turn.match_id)}`); };
  }
}

async function poll() {
  timer = null;
  if ((document.hidden && !alertsOn()) || !loadPlayer()) return;
  const wait = Math.max(pause, asked + 3000) - Date.now();
  if (wait > 0) return schedule(wait);
  if (busy) { again = true; return; }
  busy = true;
  asked = Date.now();
  try {
    const before = last;
    last = await api("GET", "/players/me/turns");
    alertNewTurns(before, last);
    for (const fn of listeners) fn(last);
  } catch (error) {
    if (error.status === 429) pause = Date.now() + 1000 * (error.retryAfter || 30);
  }
  busy = false;
  schedule(again ? 0 : document.hidden ? HIDDEN_POLL_MS : 30_000);
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
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshTurns();
    else if (alertsOn()) schedule(HIDDEN_POLL_MS);
    else clearTimeout(timer);
  });
  refreshTurns();
}
