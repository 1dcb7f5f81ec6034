// Stale tables on the match page: while the lobby is open, when it closes if nothing happens;
// once the server closed it for that, what happened. match.js draws the lobby; this module
// reads the same summary over HTTP whenever the lobby is redrawn (a seat, the options, the
// privacy: the activity that keeps a table open), so its closing time follows every change.

import { api, loadPlayer, serverTime, withWatch } from "./api.js";
import { clockTime, h, toast } from "./ui.js";

const REDRAW_SETTLE_MS = 400; // presence redraws come in bursts: one read after them
const RECHECK_MS = 60_000; // another page's change reaches us as a redraw; this is a net

const matchId = decodeURIComponent(location.pathname.match(/^\/match\/([^/]+)/)?.[1] || "");
const watch = new URLSearchParams(location.search).get("watch");
const lobbyView = document.getElementById("lobby-view");
const hint = document.getElementById("lobby-hint");
const turn = document.getElementById("turn");

const notice = h("div", { class: "small lobby-expiry", hidden: true });
const noticeText = h("p", { "data-testid": "lobby-expiry", role: "status" });
const keepOpen = h("button", { type: "button", class: "ghost small", "data-testid": "keep-open", hidden: true,
  onclick: keepItOpen }, "Keep it open");
notice.append(noticeText, keepOpen);
const closed = h("div", { class: "banner expired-banner", "data-testid": "lobby-expired", role: "status", hidden: true });

function minutesBetween(from, to) {
  const a = serverTime(from);
  const b = serverTime(to);
  return a && b ? Math.max(1, Math.round((b - a) / 60000)) : null;
}

function show(summary) {
  const me = loadPlayer()?.id;
  const open = summary.status === "open" && summary.expires_at;
  notice.hidden = !open;
  if (open) {
    const at = clockTime(serverTime(summary.expires_at).toISOString());
    const minutes = minutesBetween(summary.last_activity_at, summary.expires_at);
    const isHost = Boolean(me) && summary.host === me;
    noticeText.textContent = isHost
      ? `This table closes at ${at} if nobody joins or starts it. Any change here (a seat taken or left, the options), or Keep it open, keeps it open ${minutes ? `${minutes} more minutes` : "longer"}.`
      : `This table closes at ${at} if nobody joins or starts it.`;
    keepOpen.hidden = !isHost;
  }
  const expired = summary.status === "abandoned" && summary.abandoned_reason === "expired";
  closed.hidden = !expired;
  if (expired) {
    const at = summary.finished_at ? clockTime(serverTime(summary.finished_at).toISOString()) : null;
    const minutes = minutesBetween(summary.last_activity_at, summary.finished_at);
    closed.replaceChildren(
      h("span", { class: "b-title" }, at ? `This table closed at ${at}.` : "This table closed."),
      h("span", { class: "b-detail" },
        `Nobody joined, left, changed or started it for ${minutes ? `${minutes} minutes` : "a long while"}, so it was closed to keep the list of open tables fresh. Open a new one in the lobby.`),
    );
  }
}

async function keepItOpen() {
  keepOpen.disabled = true;
  try {
    show(await api("POST", `/matches/${encodeURIComponent(matchId)}/keep-open`));
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not keep the table open" });
  } finally {
    keepOpen.disabled = false;
  }
}

let inFlight = null;
let again = false;
async function refresh() {
  if (!matchId) return;
  if (inFlight) { again = true; return; }
  inFlight = api("GET", withWatch(`/matches/${encodeURIComponent(matchId)}`, watch))
    .then(show)
    .catch(() => { /* match.js reports a match that cannot be read */ })
    .finally(() => {
      inFlight = null;
      if (again) { again = false; refresh(); }
    });
}

let settle = null;
function soon() {
  clearTimeout(settle);
  settle = setTimeout(refresh, REDRAW_SETTLE_MS);
}

if (matchId && lobbyView && hint) {
  hint.after(notice);
  (turn || lobbyView).after(closed);
  // The lobby is redrawn on every change to it, and hidden when the table starts or closes.
  // (Our own notice lives in the lobby too: its text changes are not a redraw.)
  new MutationObserver((records) => { if (records.some((r) => !notice.contains(r.target))) soon(); }).observe(lobbyView, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
  setInterval(() => { if (!document.hidden && !lobbyView.hidden) refresh(); }, RECHECK_MS);
  refresh();
}
