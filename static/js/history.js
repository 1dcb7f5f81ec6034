// The history page (/history): finished matches, the last to end first, with a replay link each.
// Tabs "All" / "Mine" (mine=true: the guest's cookie says whose), a game filter, and paging
// with limit/offset ("Load more"). The tab and the filter live in the query string, so a
// filtered list can be bookmarked and Back restores it.

import { api, ApiError, loadPlayer, serverTime, verifyPlayer } from "./api.js";
import { clear, h, logoSvg } from "./ui.js";
import { seatNameWithBadge } from "./seats.js";
import "./turns.js"; // the header's "Your turn" count

const PAGE = 20;

const $ = (id) => document.getElementById(id);
const els = {
  name: $("player-name"),
  tabs: [...document.querySelectorAll('[role="tab"]')],
  filter: $("game-filter"),
  count: $("history-count"),
  list: $("history-list"),
  more: $("load-more"),
};
$("brand-logo").replaceWith(logoSvg());

let player = loadPlayer();
let games = [];
const query = new URLSearchParams(location.search);
const view = {
  tab: query.get("mine") === "true" || query.get("tab") === "mine" ? "mine" : "all",
  game: query.get("game") || "",
};
let loaded = 0;
let total = 0;
// The server's cursor for the next page: a match that ends while you read does not shift the
// pages under you (an offset would show a row twice), and matches that ended together page by id.
let nextPage = null;
let controller = null;

function showName() {
  els.name.textContent = player ? player.name : "guest";
}

function gameTitle(summary) {
  return summary.title || games.find((g) => g.id === summary.game)?.title || summary.game;
}

// ------------------------------------------------------------------ dates
const FULL_DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "short" });
const SHORT_DATE = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

function relative(date) {
  const seconds = Math.round((date.getTime() - Date.now()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  if (abs < 3600) return RELATIVE.format(Math.round(seconds / 60), "minute");
  if (abs < 86400) return RELATIVE.format(Math.round(seconds / 3600), "hour");
  if (abs < 86400 * 7) return RELATIVE.format(Math.round(seconds / 86400), "day");
  return SHORT_DATE.format(date);
}

function dateCell(summary) {
  const date = serverTime(summary.finished_at || summary.started_at || summary.created_at);
  if (!date) return h("span", { class: "h-date muted" }, "—");
  return h("time", { class: "h-date", datetime: date.toISOString(), title: FULL_DATE.format(date) }, relative(date));
}

// ------------------------------------------------------------------ rows
function winnersOf(summary) {
  return new Set(summary.outcome?.winners || []);
}

function winnerText(summary) {
  const winners = [...winnersOf(summary)];
  if (!summary.outcome) return "No result";
  if (!winners.length) return "Nobody won";
  const names = winners.map((seat) => summary.seats.find((s) => s.seat === seat)?.name || `Seat ${seat + 1}`);
  return names.length === 1 ? `${names[0]} won` : `${names.join(" & ")} shared the win`;
}

function row(summary) {
  const winners = winnersOf(summary);
  const moves = summary.length ?? summary.version ?? 0;
  const href = `/replay/${encodeURIComponent(summary.id)}`;
  const title = gameTitle(summary);
  const players = summary.seats.filter((s) => s.player_id || s.name);
  return h("li", { class: "history-row", "data-testid": "history-row", "data-match-id": summary.id },
    h("div", { class: "h-main" },
      h("a", { class: "h-title", href, "data-testid": "history-link" },
        title,
        h("span", { class: "visually-hidden" }, `, ${players.map((s) => s.name).join(" versus ")}: replay`),
      ),
      summary.private ? h("span", { class: "tag" }, "private") : null,
      summary.tutorial ? h("span", { class: "tag", "data-testid": "history-lesson" }, "lesson") : null,
      h("ul", { class: "h-players", "aria-label": "Players" },
        players.map((s) => {
          const won = winners.has(s.seat);
          const you = player && s.player_id === player.id;
          return h("li", { class: `h-player${won ? " winner" : ""}`, "data-testid": won ? "history-winner" : "history-player" },
            seatNameWithBadge(s),
            you ? h("span", { class: "muted" }, " (you)") : null,
            won ? h("span", { class: "crown", title: "winner" }, h("span", { "aria-hidden": "true" }, " ★"), h("span", { class: "visually-hidden" }, " (winner)")) : null,
          );
        }),
      ),
    ),
    h("div", { class: "h-meta" },
      h("span", { class: "h-winner", "data-testid": "history-result" }, winnerText(summary)),
      h("span", { class: "h-moves" }, `${moves} ${moves === 1 ? "move" : "moves"}`),
      dateCell(summary),
    ),
    h("a", { class: "button h-replay", href, tabindex: "-1", "aria-hidden": "true" }, "Replay ▸"),
  );
}

function emptyState(title, text, link) {
  return h("li", { class: "empty-state", "data-testid": "history-empty" },
    h("strong", {}, title), text,
    link ? h("div", { style: { marginTop: ".8rem" } }, h("a", { class: "button primary", href: link.href }, link.text)) : null,
  );
}

// ------------------------------------------------------------------ loading
function listPath(after) {
  const params = new URLSearchParams({ status: "finished", limit: String(PAGE) });
  if (after) params.set("after", after);
  if (view.game) params.set("game", view.game);
  if (view.tab === "mine") params.set("mine", "true");
  return `/matches?${params}`;
}

function countText() {
  if (!total) return "";
  const plural = total === 1 ? "match" : "matches";
  if (view.tab === "mine") {
    return loaded < total ? `Showing ${loaded} of your ${total} finished ${plural}.` : `Your ${total} finished ${plural}.`;
  }
  return loaded < total ? `Showing ${loaded} of ${total} finished ${plural}.` : `${total} finished ${plural}.`;
}

async function load({ append = false } = {}) {
  controller?.abort();
  controller = new AbortController();
  const { signal } = controller;
  if (!append) {
    loaded = 0;
    total = 0;
    nextPage = null;
    clear(els.list);
    els.list.setAttribute("aria-busy", "true");
    els.count.textContent = "Loading…";
    els.more.hidden = true;
  }
  if (view.tab === "mine" && !player) {
    els.list.setAttribute("aria-busy", "false");
    els.count.textContent = "";
    els.list.append(emptyState("No matches on this browser yet.",
      "Your matches are remembered on the browser you play them on. Play one and it shows up here.",
      { href: "/", text: "Find a table" }));
    return;
  }
  els.more.disabled = true;
  if (append) els.more.textContent = "Loading…";
  try {
    const data = await api("GET", listPath(append ? nextPage : null), undefined, { signal, auth: view.tab === "mine" });
    const matches = Array.isArray(data) ? data : data.matches || [];
    total = Array.isArray(data) ? matches.length : data.count ?? matches.length;
    for (const summary of matches) els.list.append(row(summary));
    loaded += matches.length;
    nextPage = Array.isArray(data) ? null : data.next ?? null;
    if (!loaded) {
      const game = view.game ? games.find((g) => g.id === view.game)?.title || view.game : null;
      els.list.append(view.tab === "mine"
        ? emptyState(game ? `You have not finished a match of ${game} yet.` : "You have not finished a match yet.",
          "Matches you play to the end show up here, ready to replay.", { href: "/", text: "Play one now" })
        : emptyState(game ? `No finished matches of ${game} yet.` : "No finished matches yet.",
          "Once a match is played to the end, it appears here with a replay of every move.", { href: "/", text: "Start a match" }));
    }
    els.count.textContent = countText();
    els.more.hidden = !nextPage || matches.length === 0;
  } catch (error) {
    if (error.name === "AbortError") return;
    if (view.tab === "mine" && error instanceof ApiError && error.status === 401) {
      clear(els.list);
      els.count.textContent = "";
      els.list.append(emptyState("This server does not know your guest pass any more.",
        "Your matches are remembered per guest; play a new match and it will show up here.", { href: "/", text: "Find a table" }));
      return;
    }
    els.count.textContent = "";
    els.list.append(h("li", { class: "empty-state", "data-testid": "history-error" },
      h("strong", {}, "Could not load the history."), error.message,
      h("div", { style: { marginTop: ".8rem" } }, h("button", { type: "button", onclick: () => load({ append: loaded > 0 }) }, "Try again"))));
  } finally {
    if (!signal.aborted) {
      els.list.setAttribute("aria-busy", "false");
      els.more.disabled = false;
      els.more.textContent = "Load more";
    }
  }
}

// ------------------------------------------------------------------ controls
function syncUrl() {
  const params = new URLSearchParams();
  if (view.tab === "mine") params.set("mine", "true");
  if (view.game) params.set("game", view.game);
  const search = params.toString();
  history.replaceState(null, "", `${location.pathname}${search ? `?${search}` : ""}`);
}

function showTab() {
  for (const tab of els.tabs) {
    const selected = tab.dataset.tab === view.tab;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    if (selected) els.list.setAttribute("aria-labelledby", tab.id);
  }
}

function selectTab(name, { focus = false } = {}) {
  if (view.tab !== name) {
    view.tab = name;
    showTab();
    syncUrl();
    load();
  }
  if (focus) els.tabs.find((t) => t.dataset.tab === name)?.focus();
}

for (const tab of els.tabs) {
  tab.addEventListener("click", () => selectTab(tab.dataset.tab));
  // The ARIA tabs pattern: arrows move between tabs, Home/End to the ends.
  tab.addEventListener("keydown", (event) => {
    const index = els.tabs.indexOf(tab);
    let next = null;
    if (event.key === "ArrowRight") next = els.tabs[(index + 1) % els.tabs.length];
    else if (event.key === "ArrowLeft") next = els.tabs[(index - 1 + els.tabs.length) % els.tabs.length];
    else if (event.key === "Home") next = els.tabs[0];
    else if (event.key === "End") next = els.tabs[els.tabs.length - 1];
    if (!next) return;
    event.preventDefault();
    selectTab(next.dataset.tab, { focus: true });
  });
}

els.filter.addEventListener("change", () => {
  view.game = els.filter.value;
  syncUrl();
  load();
});

els.more.addEventListener("click", () => {
  const first = els.list.children.length;
  load({ append: true }).then(() => {
    // Keyboard users land on the first new match instead of the top of the page.
    els.list.children[first]?.querySelector("a")?.focus({ preventScroll: false });
  });
});

async function loadGames() {
  try {
    games = await api("GET", "/games", undefined, { auth: false });
  } catch {
    games = [];
  }
  for (const game of games) els.filter.append(h("option", { value: game.id }, game.title));
  if (view.game && !games.some((g) => g.id === view.game)) {
    els.filter.append(h("option", { value: view.game }, view.game));
  }
  els.filter.value = view.game;
}

window.addEventListener("arcade:player", () => {
  player = loadPlayer();
  showName();
});

// ------------------------------------------------------------------ start
async function main() {
  showName();
  showTab();
  const [known] = await Promise.all([verifyPlayer(), loadGames()]);
  player = known;
  showName();
  await load();
}

main();
