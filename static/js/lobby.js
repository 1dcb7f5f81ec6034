// The lobby page: who you are, a new-match form, and the live list of open lobbies.

import { api, ApiError, createPlayer, ensurePlayer, loadPlayer, newNonce, renamePlayer, serverTime, verifyPlayer } from "./api.js";
import { renderOptionsForm } from "./schema-form.js";
import { askName, clear, clockTime, fill, h, logoSvg, setAttrs, timeAgo, toast } from "./ui.js";
import { botName, computerIcon, seatNameWithBadge } from "./seats.js";
import { subscribeTurns } from "./turns.js";

const OPEN_POLL_MS = 3000;
const LIVE_POLL_MS = 15000;
// "In progress": your matches first (the first few, the rest behind "Show all"), then a few
// of other people's public ones to watch.
const LIVE_MINE_FIRST = 8;
const LIVE_OTHERS = 8;

const els = {
  name: document.getElementById("player-name"),
  editName: document.getElementById("edit-name"),
  form: document.getElementById("new-match-form"),
  cards: document.getElementById("game-cards"),
  gamesStatus: document.getElementById("games-status"),
  chosenRules: document.getElementById("chosen-rules"),
  seats: document.getElementById("seat-picker"),
  options: document.getElementById("options-form"),
  create: document.getElementById("create-match"),
  createChoice: document.getElementById("create-choice"),
  private: document.getElementById("private-match"),
  openList: document.getElementById("open-list"),
  livePanel: document.getElementById("live-panel"),
  liveList: document.getElementById("live-list"),
  liveMore: document.getElementById("live-more"),
  idleGroup: document.getElementById("idle-group"),
  idleCount: document.getElementById("idle-count"),
  idleList: document.getElementById("idle-list"),
};

let games = [];
let optionsForm = null;
let player = loadPlayer();

document.getElementById("brand-logo").replaceWith(logoSvg());

function showName() {
  els.name.textContent = player ? player.name : "guest";
}

function gameById(id) {
  return games.find((g) => g.id === id);
}

function playersRange(game) {
  if (!game) return "";
  return game.min_players === game.max_players
    ? `${game.min_players} ${game.min_players === 1 ? "player" : "players"}`
    : `${game.min_players}–${game.max_players} players`;
}

// The stored guest is checked once against the server; everything that needs a player waits
// for that check and then asks for a name at most once at a time.
const verified = verifyPlayer().then((known) => { player = known; showName(); return known; });
let asking = null;
function whoAmI() {
  if (!asking) {
    asking = verified
      .then(() => player || ensurePlayer(() => askName({ title: "Welcome to Arcade Night!" })))
      .then((who) => { if (who) { player = who; showName(); } return who; })
      .finally(() => { asking = null; });
  }
  return asking;
}

// ------------------------------------------------------------------ new match form
function selectedGame() {
  const checked = els.cards.querySelector("input[name=game]:checked");
  return checked ? gameById(checked.value) : null;
}

function renderSeatPicker(game) {
  const previous = Number(els.seats.querySelector("input:checked")?.value);
  clear(els.seats);
  if (!game) return;
  const initial = previous >= game.min_players && previous <= game.max_players ? previous : game.min_players;
  for (let n = game.min_players; n <= game.max_players; n += 1) {
    const input = h("input", { type: "radio", name: "seats", value: n, "data-testid": `seats-${n}`, "aria-label": `${n} seats` });
    input.checked = n === initial;
    els.seats.append(h("label", {}, input, h("span", { "aria-hidden": "true" }, String(n))));
  }
}

/** The create bar repeats the choice: on a phone it is all of the form in sight. */
function showChoice() {
  const game = selectedGame();
  const seats = Number(els.seats.querySelector("input:checked")?.value) || game?.min_players;
  els.createChoice.textContent = game ? `${game.title} · ${seats} ${seats === 1 ? "seat" : "seats"}` : "";
}

function onGameChosen() {
  const game = selectedGame();
  renderSeatPicker(game);
  optionsForm = renderOptionsForm(els.options, game ? game.options_schema : null);
  els.create.disabled = !game;
  showChoice();
  els.chosenRules.hidden = !game?.rules_url;
  if (game?.rules_url) {
    setAttrs(els.chosenRules, { href: game.rules_url });
    els.chosenRules.textContent = `Read the rules of ${game.title}`;
  }
}
els.seats.addEventListener("change", showChoice);

function cardArt(game) {
  // A tiny 8x8 "screen" in the game's spirit; deterministic per game id.
  let seed = [...game.id].reduce((acc, ch) => (acc * 31 + ch.charCodeAt(0)) >>> 0, 7);
  const cells = [];
  for (let i = 0; i < 24; i += 1) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    cells.push(((seed >>> 16) % 7) === 0 ? 1 : 0);
  }
  const ns = "http://www.w3.org/2000/svg";
  const art = document.createElementNS(ns, "svg");
  art.setAttribute("viewBox", "0 0 24 8");
  art.setAttribute("class", "card-art");
  art.setAttribute("aria-hidden", "true");
  art.setAttribute("shape-rendering", "crispEdges");
  cells.forEach((on, i) => {
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", String((i % 12) * 2));
    rect.setAttribute("y", String(Math.floor(i / 12) * 4));
    rect.setAttribute("width", "2");
    rect.setAttribute("height", "4");
    rect.setAttribute("fill", on ? "#8c86cc" : (i % 2 ? "#2b2578" : "#241f68"));
    art.append(rect);
  });
  const colours = ["#e9564b", "#5b8cff", "#53c35c", "#f2cf3a"];
  for (let p = 0; p < Math.min(4, game.max_players); p += 1) {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", String([1, 23, 23, 1][p]));
    dot.setAttribute("cy", String([7, 1, 7, 1][p]));
    dot.setAttribute("r", "0.9");
    dot.setAttribute("fill", colours[p]);
    art.append(dot);
  }
  return art;
}

/** The table the minutes were measured at (app/rules_pages/durations.py): 2 where allowed. */
function usualPlayers(game) {
  const n = Math.min(Math.max(2, game.min_players), game.max_players);
  return `${n} ${n === 1 ? "player" : "players"}`;
}

const LEARN_WORDS = { easy: "easy to learn", medium: "some rules to learn", hard: "many rules to learn" };

/** The card's way to its rules and, where its family has one, its lesson: links above the
 * card's radio input (which covers the whole card), so a tap on them is not a choice. */
function cardLinks(game) {
  const links = [
    game.rules_url ? h("a", { href: game.rules_url, "data-testid": "card-rules", "aria-label": `Rules of ${game.title}` }, "Rules") : null,
    game.learn_url ? h("a", { href: game.learn_url, "data-testid": "card-learn-it", "aria-label": `Learn ${game.title} in five minutes` }, "Learn it") : null,
  ].filter(Boolean);
  return links.length ? h("div", { class: "card-links" }, links) : null;
}

function renderGames() {
  for (const node of [...els.cards.children]) if (node.tagName !== "LEGEND") node.remove();
  if (!games.length) {
    els.gamesStatus.textContent = "No games are installed on this server yet.";
    return;
  }
  els.gamesStatus.textContent = "";
  els.gamesStatus.hidden = true;
  // A rules page's "Open a table" comes here with ?game=<id>: that game is the one chosen.
  const asked = new URLSearchParams(location.search).get("game");
  const chosen = games.some((g) => g.id === asked) ? asked : games[0].id;
  games.forEach((game) => {
    const input = h("input", {
      type: "radio", name: "game", value: game.id, id: `game-${game.id}`,
      "data-testid": `game-card-${game.id}`,
      "aria-describedby": `game-${game.id}-line game-${game.id}-meta game-${game.id}-learn`,
      onchange: onGameChosen,
    });
    input.checked = game.id === chosen;
    const links = cardLinks(game);
    els.cards.append(
      h("div", { class: links ? "game-card has-links" : "game-card", "data-game": game.id },
        input,
        h("label", { class: "card-body", for: `game-${game.id}` },
          cardArt(game),
          h("span", { class: "card-title" }, game.title),
          h("span", { class: "card-line", id: `game-${game.id}-line`, "data-testid": "card-line" }, game.tagline || game.goal || ""),
          h("span", { class: "card-meta", id: `game-${game.id}-meta` },
            h("span", { "data-testid": "card-players" }, playersRange(game)),
            game.minutes ? [" · ", h("span", { "data-testid": "card-minutes", title: `Measured for a match of ${usualPlayers(game)}` }, `about ${game.minutes} min`)] : null,
          ),
          game.learn ? h("span", { class: "card-learn", id: `game-${game.id}-learn`, "data-testid": "card-learn", "data-learn": game.learn }, LEARN_WORDS[game.learn] || game.learn) : null,
        ),
        links,
      ),
    );
  });
  onGameChosen();
}

async function loadGames() {
  try {
    games = await api("GET", "/games", undefined, { auth: false });
    renderGames();
  } catch (error) {
    els.gamesStatus.textContent = `Could not load the games: ${error.message}`;
    setTimeout(loadGames, 4000);
  }
}

els.form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const game = selectedGame();
  if (!game) return;
  const seats = Number(els.seats.querySelector("input:checked")?.value || game.min_players);
  els.create.disabled = true;
  const label = els.create.textContent;
  els.create.textContent = "Creating…";
  try {
    if (!(await whoAmI())) return;
    const summary = await api("POST", "/matches", {
      game: game.id,
      options: optionsForm ? optionsForm.values() : {},
      seats,
      private: Boolean(els.private?.checked),
      nonce: newNonce(), // this browser's share of the dice (docs/replays.md)
    });
    window.location.assign(`/match/${encodeURIComponent(summary.id)}`);
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not create the match" });
  } finally {
    els.create.disabled = false;
    els.create.textContent = label;
  }
});

els.editName.addEventListener("click", async () => {
  const name = await askName({ title: "Change your name", initial: player?.name, confirm: "Save", cancellable: true });
  if (!name || name === player?.name) return;
  try {
    player = player ? await renamePlayer(name) : await createPlayer(name);
    showName();
    toast(`You are now ${player.name}.`, { kind: "ok" });
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not change your name" });
  }
});

// ------------------------------------------------------------------ match lists
function seatDots(summary) {
  return h("span", { class: "seat-dots", "aria-hidden": "true" },
    summary.seats.map((s) => h("i", { class: s.bot ? "taken bot" : s.player_id ? "taken" : "", title: s.bot ? botName(s.bot) : null })));
}

/** "Ada vs [monitor] Computer (normal)": who plays, a computer's seat marked as such. */
function playerNames(summary) {
  const seats = summary.seats.filter((s) => s.name || s.bot);
  return seats.flatMap((s, i) => [i ? " vs " : null, s.bot ? seatNameWithBadge(s) : s.name]);
}

/** "· 1 computer": an open table's computer players, in its line. */
function botCount(summary) {
  const bots = summary.seats.filter((s) => s.bot).length;
  return bots ? [" · ", h("span", { class: "bot-name", "data-testid": "bot-count" }, computerIcon(), `${bots} computer${bots === 1 ? "" : "s"}`)] : null;
}

function hostName(summary) {
  if (summary.host_name) return summary.host_name;
  const seat = summary.seats.find((s) => s.player_id && s.player_id === summary.host);
  return seat ? seat.name : "someone";
}

function amSeated(summary) {
  return Boolean(player && summary.seats.some((s) => s.player_id === player.id));
}

async function joinMatch(summary, button) {
  button.disabled = true;
  try {
    if (!(await whoAmI())) return;
    if (!amSeated(summary)) await api("POST", `/matches/${encodeURIComponent(summary.id)}/join`, { nonce: newNonce() });
    window.location.assign(`/match/${encodeURIComponent(summary.id)}`);
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not join" });
    refreshOpen();
  } finally {
    button.disabled = false;
  }
}

function matchRow(summary, kind) {
  const taken = summary.seats.filter((s) => s.player_id).length;
  const total = summary.seats.length;
  const title = summary.title || gameById(summary.game)?.title || summary.game;
  const mine = amSeated(summary);
  let action;
  if (kind === "open") {
    action = mine
      ? h("a", { class: "button", href: `/match/${encodeURIComponent(summary.id)}`, "data-testid": "open-match" }, "Open")
      : taken >= total
        ? h("button", { type: "button", disabled: true, "data-testid": "match-full" }, "Full")
        : h("button", { type: "button", class: "primary", "data-testid": "join-match",
          "aria-label": `Join ${title} hosted by ${hostName(summary)}`,
          onclick: (e) => joinMatch(summary, e.currentTarget) }, "Join");
  } else {
    action = h("a", { class: "button" + (mine ? " primary" : ""), href: `/match/${encodeURIComponent(summary.id)}`,
      "data-testid": mine ? "resume-match" : "watch-match" }, mine ? "Resume" : "Watch");
  }
  const started = kind === "open" ? null : startedWhen(summary);
  const activity = lastActivity(summary, kind);
  const closes = kind === "open" && mine ? closesWhen(summary) : null;
  const meta = kind === "open"
    ? [seatDots(summary), `${taken}/${total} seats · host ${hostName(summary)}`, botCount(summary),
      activity ? " · " : "", activity, closes ? " · " : "", closes]
    : [playerNames(summary), started ? " · " : "", started,
      activity ? " · " : "", activity];
  return h("li", { class: "match-row", "data-testid": "match-row", "data-match-id": summary.id },
    h("div", {},
      h("div", { class: "m-title" }, title, mine ? h("span", { class: "tag", style: { marginLeft: ".5rem" } }, "you're in") : null),
      h("div", { class: "m-meta" }, meta),
    ),
    action,
  );
}

/** "started 3 min ago" (or "started on 02/03/2025" once it is a day old), the exact time on hover. */
function startedWhen(summary) {
  const ago = timeAgo(summary.started_at);
  if (!ago) return null;
  const words = ago === "just now" || ago.endsWith(" ago") ? `started ${ago}` : `started on ${ago}`;
  return h("time", { class: "m-started", datetime: summary.started_at, title: new Date(summary.started_at).toLocaleString(),
    "data-testid": "match-started" }, words);
}

/**
 * When the table last saw activity: a lobby's last change ("active 3 min ago"), a match's last
 * move ("last move 3 min ago"; nothing before its first move, which "started" says). Servers
 * older than last_activity_at fall back to when a lobby opened.
 */
function lastActivity(summary, kind) {
  const at = summary.last_activity_at || (kind === "open" ? summary.created_at : null);
  if (!at || (kind !== "open" && !summary.length)) return null;
  const ago = timeAgo(at);
  if (!ago) return null;
  const recent = ago === "just now" || ago.endsWith(" ago");
  const words = kind === "open" ? (recent ? `active ${ago}` : `active on ${ago}`) : (recent ? `last move ${ago}` : `last move on ${ago}`);
  return h("time", { class: "m-activity", datetime: at, title: new Date(at).toLocaleString(), "data-testid": "match-activity" }, words);
}

/** Your own open lobby: when it closes if nothing happens (see the lobby page for more). */
function closesWhen(summary) {
  if (!summary.expires_at) return null;
  return h("time", { class: "m-closes", datetime: summary.expires_at, "data-testid": "match-closes" },
    `closes ${clockTime(summary.expires_at)} if idle`);
}

function listOf(data) {
  if (Array.isArray(data)) return data;
  return (data && data.matches) || [];
}

// After a rate_limited answer the polls pause for as long as the server asked.
let pausedUntil = 0;
function pausePolls(error) {
  if (!(error instanceof ApiError) || error.status !== 429) return false;
  pausedUntil = Date.now() + 1000 * (error.retryAfter || 10);
  return true;
}

let openController = null;
async function refreshOpen() {
  if (Date.now() < pausedUntil) return;
  if (openController) openController.abort();
  openController = new AbortController();
  try {
    const data = await api("GET", "/matches?status=open", undefined, { signal: openController.signal });
    const matches = listOf(data).sort((a, b) => String(b.created_at || "").localeCompare(String(a.created_at || "")));
    clear(els.openList);
    els.openList.setAttribute("aria-busy", "false");
    if (!matches.length) {
      els.openList.append(h("li", { class: "empty-state", "data-testid": "no-open-matches" },
        h("strong", {}, "No open tables right now."),
        "Start one on the left and send the link to your friends."));
    } else {
      for (const summary of matches) els.openList.append(matchRow(summary, "open"));
    }
  } catch (error) {
    if (error.name === "AbortError") return;
    if (pausePolls(error)) {
      clear(els.openList);
      const wait = Math.ceil((pausedUntil - Date.now()) / 1000);
      els.openList.append(h("li", { class: "empty-state", "data-testid": "open-list-paused" },
        h("strong", {}, "Too many requests from here."), `The list refreshes again in ${wait} s.`));
      return;
    }
    if (!els.openList.children.length) {
      els.openList.append(h("li", { class: "empty-state" }, h("strong", {}, "Cannot reach the server."), "Retrying…"));
    }
  }
}

let liveShowAll = false;

function newestStartedFirst(a, b) {
  return String(b.started_at || "").localeCompare(String(a.started_at || ""));
}

async function refreshLive() {
  if (Date.now() < pausedUntil) return;
  try {
    await verified;
    // Your own come from their own list: the public one leaves out private matches and stops
    // at a page, and yours must not be crowded out by everyone else's.
    const [mineData, everyoneData] = await Promise.all([
      player ? api("GET", "/matches?status=active&mine=true&limit=100").catch(() => null) : null,
      api("GET", "/matches?status=active&limit=50", undefined, { auth: false }),
    ]);
    const everyone = listOf(everyoneData);
    // Without your own list (it failed), your public matches from the other still come first.
    const allMine = (mineData ? listOf(mineData) : everyone.filter(amSeated)).sort(newestStartedFirst);
    const mineIds = new Set(allMine.map((m) => m.id));
    const allOthers = everyone.filter((m) => !mineIds.has(m.id) && !amSeated(m)).sort(newestStartedFirst);
    // Matches nobody has moved in for a while (the server's `idle`) wait apart, folded away.
    const mine = allMine.filter((m) => !m.idle);
    const others = allOthers.filter((m) => !m.idle).slice(0, LIVE_OTHERS);
    const idle = [...allMine.filter((m) => m.idle), ...allOthers.filter((m) => m.idle).slice(0, LIVE_OTHERS)];
    const mineShown = liveShowAll ? mine : mine.slice(0, LIVE_MINE_FIRST);
    clear(els.liveList);
    els.liveList.setAttribute("aria-busy", "false");
    for (const summary of [...mineShown, ...others]) els.liveList.append(matchRow(summary, "live"));
    const hidden = mine.length - mineShown.length;
    const folding = mine.length > LIVE_MINE_FIRST;
    els.liveMore.hidden = !folding;
    els.liveMore.textContent = hidden > 0 ? `Show all ${mine.length} of your matches` : "Show fewer";
    els.liveMore.setAttribute("aria-expanded", String(folding && !hidden));
    clear(els.idleList);
    for (const summary of idle) els.idleList.append(matchRow(summary, "live"));
    els.idleCount.textContent = `Idle (${idle.length}): no move for a while`;
    els.idleGroup.hidden = idle.length === 0;
    els.liveList.hidden = mineShown.length + others.length === 0;
    els.livePanel.hidden = mineShown.length + others.length + idle.length === 0;
  } catch (error) {
    pausePolls(error);
    /* the open list shows connection trouble; this panel just stays as it was */
  }
}

els.liveMore.addEventListener("click", () => {
  liveShowAll = !liveShowAll;
  refreshLive();
});

function poll(fn, ms) {
  fn();
  setInterval(() => { if (!document.hidden) fn(); }, ms);
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) { refreshOpen(); refreshLive(); }
});
window.addEventListener("arcade:player", () => {
  player = loadPlayer();
  showName();
});

// ------------------------------------------------------------------ your turn
// Every match waiting for her move, first on the page, in the server's order (a running turn
// clock first, the soonest first; then the longest waiting).
/** "5 min", "3 h", "2 d": how long she has been waiting since `since` (ISO). */
function waitWords(since, now = Date.now()) {
  const m = Math.max(1, Math.floor((now - (serverTime(since)?.getTime() ?? now)) / 60_000));
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

/** "2 h 10 min left", "1 d 3 h left", "time is up": the time left before `deadline` (ISO). */
function leftWords(deadline, now = Date.now()) {
  const s = Math.floor(((serverTime(deadline)?.getTime() ?? now) - now) / 1000);
  if (s <= 0) return "time is up";
  const m = Math.floor(s / 60);
  if (m < 1) return `${s} s left`;
  if (m < 60) return `${m} min left`;
  const hours = Math.floor(m / 60);
  if (hours < 24) return `${hours} h${m % 60 ? ` ${m % 60} min` : ""} left`;
  return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} h` : ""} left`;
}

function turnItem(turn) {
  const late = turn.deadline ? leftWords(turn.deadline) : null;
  const meta = [turn.opponents.length ? `with ${turn.opponents.join(", ")}` : null, `waiting ${waitWords(turn.since)}`];
  return h("li", {},
    h("a", { class: "match-row turn-item", href: `/match/${encodeURIComponent(turn.match_id)}`, "data-testid": "turn-item", "data-match": turn.match_id },
      h("span", { class: "m-title" }, turn.game_name || turn.game),
      h("span", { class: "m-meta", "data-testid": "turn-meta" }, meta.filter(Boolean).join(" · ")),
      late ? h("span", { class: `t-left${late === "time is up" ? " t-late" : ""}`, "data-testid": "turn-left" }, late) : null,
    ));
}

subscribeTurns(({ turns }) => {
  fill(document.getElementById("turn-list"), ...turns.map(turnItem));
  document.getElementById("your-turn").hidden = turns.length === 0;
});

// ------------------------------------------------------------------ start
showName();
loadGames();
poll(refreshOpen, OPEN_POLL_MS);
poll(refreshLive, LIVE_POLL_MS);
verified.then((known) => {
  // A visitor who came with a link from her other device is asked about that instead
  // (device-link.js), not for a new name.
  const continuing = new URLSearchParams(location.hash.slice(1)).has("device");
  if (!known && !continuing) whoAmI().catch((error) => toast(error.message, { kind: "error" }));
});
