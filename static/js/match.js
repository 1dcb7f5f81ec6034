// The match page (/match/{id}): the lobby while the match is open, then the live table.
// State arrives as a snapshot plus gapless patches over the socket (socket.js); the game's
// renderer (static/js/games/<game>.js) draws it and submits moves through `ctx.submit`.

import { api, ApiError, createPlayer, forgetPlayer, loadPlayer, newNonce, verifyPlayer, withWatch } from "./api.js";
import { renderOptionsForm } from "./schema-form.js";
import { MatchSocket } from "./socket.js";
import { askName, clear, clockTime, copyText, fill, h, logoSvg, morph, toast } from "./ui.js";
import { mountRulesPanel } from "./rules-panel.js";
import { subscribeTurns } from "./turns.js";
import { awayWords, botName, clockWords, computerBadge, computerIcon, durationWords, secondsSince, timerWords, TURN_BASED_TIMERS, TURN_TIMERS } from "./seats.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
// A private match's watch link carries ?watch=<token>: sent in hello and on REST reads.
const watchToken = new URLSearchParams(location.search).get("watch");
const MAX_LOG = 400;

const $ = (id) => document.getElementById(id);
const els = {
  name: $("player-name"), spectatorTag: $("spectator-tag"), title: $("match-title"), status: $("status-tag"),
  conn: $("conn"), reconnect: $("reconnect-banner"), notFound: $("not-found"), notFoundText: $("not-found-text"),
  layout: $("match-layout"), lobby: $("lobby-view"), seatList: $("seat-list"), lobbyHint: $("lobby-hint"),
  start: $("start-match"), invite: $("invite-link"), copy: $("copy-invite"), about: $("about-game"),
  game: $("game-view"), gameover: $("gameover"), turn: $("turn"), moveError: $("move-error"), gameRoot: $("game-root"),
  playersPanel: $("players-panel"), players: $("players-list"), spectators: $("spectators"),
  logPanel: $("log-panel"), log: $("event-log"), chatForm: $("chat-form"), chatInput: $("chat-input"),
  chatTitle: $("chat-title"), chatTabs: $("chat-tabs"), chatNote: $("chat-note"), chatUnread: $("chat-unread-watchers"),
  privateTag: $("private-tag"), seal: $("dice-seal"), privateRow: $("private-row"), privateToggle: $("private-toggle"),
  watchPanel: $("watch-panel"), watchLink: $("watch-link"), copyWatch: $("copy-watch"), rematch: $("rematch-banner"),
  diceHelpValues: $("dice-help-values"), inviteText: $("invite-text"),
  optionsPanel: $("options-panel"), optionsEditor: $("options-editor"), agreement: $("agreement"),
  endRow: $("end-match-row"), endMatch: $("end-match"),
  turnTimerRow: $("turn-timer-row"), turnTimer: $("turn-timer"), turnTimerText: $("turn-timer-text"),
  absence: $("absence"), welcomeBack: $("welcome-back"),
};
$("brand-logo").replaceWith(logoSvg());

let player = loadPlayer();
let games = [];
let summary = null;
let socket = null;
let state = null;
let presence = null;
let renderer = null;
let rendererGame = null;
let rendererLoading = null;
let snapshotTimer = null;
const loggedSeqs = new Set();

// ------------------------------------------------------------------ identity
function showName() {
  els.name.textContent = player ? player.name : "guest";
}

let asking = null;
/** The guest, creating one (asking for a name) when needed; the socket then says hello again. */
function ensureGuest(reason) {
  if (player) return Promise.resolve(player);
  if (!asking) {
    asking = askName({ title: "Join the table", intro: reason, cancellable: true })
      .then(async (name) => {
        if (!name) return null;
        player = await createPlayer(name);
        showName();
        socket?.setGuest(player.id);
        return player;
      })
      .finally(() => { asking = null; });
  }
  return asking;
}

// ------------------------------------------------------------------ helpers
function gameMeta() {
  return games.find((g) => g.id === (summary?.game || state?.game)) || null;
}

function gameTitle() {
  return summary?.title || gameMeta()?.title || summary?.game || state?.game || "Match";
}

function mySeat() {
  if (state && state.you !== undefined && state.you !== null) return state.you;
  const seat = summary?.seats?.find((s) => player && s.player_id === player.id);
  return seat ? seat.seat : null;
}

function seatName(seat) {
  return state?.seats?.find((s) => s.seat === seat)?.name
    || summary?.seats?.find((s) => s.seat === seat)?.name
    || `Seat ${seat + 1}`;
}

function seatInfo(seat) {
  const info = renderer?.seatInfo?.(seat);
  return info || { label: `Seat ${seat + 1}`, color: "var(--accent)" };
}

function seatLabel(seat) {
  const info = renderer?.seatInfo?.(seat);
  return info ? `${info.label} (${seatName(seat)})` : seatName(seat);
}

function isOnline(seat) {
  const fromPresence = presence?.seats?.find((s) => s.seat === seat);
  if (fromPresence) return Boolean(fromPresence.online);
  return Boolean(summary?.seats?.find((s) => s.seat === seat)?.online);
}

function setStatusTag(status) {
  const words = { open: "lobby", active: "playing", finished: "finished", abandoned: "abandoned" };
  els.status.textContent = words[status] || status || "";
  els.status.hidden = !status;
}

let wasMine = null;
function updateDocumentTitle() {
  const mine = state && renderer && els.turn.dataset.mine === "true";
  document.title = `${mine ? "● Your turn · " : ""}${gameTitle()} · Arcade Night`;
  // It just became her turn here: the header's count of matches waiting for her is stale.
  if (state && renderer) {
    if (mine && wasMine === false) staleTurns();
    wasMine = Boolean(mine);
  }
}

const staleTurns = () => window.dispatchEvent(new Event("arcade:turns-stale"));

// "Next game": the first other match waiting for her move, in the server's order.
subscribeTurns(({ turns }) => {
  const next = turns.find((t) => t.match_id !== matchId);
  const link = $("next-game");
  link.hidden = !next;
  if (next) {
    link.href = `/match/${encodeURIComponent(next.match_id)}`;
    link.title = `Your turn in ${next.game_name}`;
  }
});

// ------------------------------------------------------------------ room for the table
// A renderer fits its board and the controls for the current decision into the height left
// under the banners (`--table-room` on #game-root, in px, measured with the page scrolled
// to its top), so a phone shows both without scrolling. Banners come and go and wrap, so the
// room is measured again whenever anything above the table changes size.
function measureTableRoom() {
  const top = els.gameRoot.getBoundingClientRect().top + window.scrollY;
  const room = Math.max(280, Math.floor(window.innerHeight - top - 8));
  els.gameRoot.style.setProperty("--table-room", `${room}px`);
}
const tableRoomObserver = new ResizeObserver(measureTableRoom);
for (const el of [document.querySelector(".site-header"), document.querySelector(".match-head"),
  els.rematch, els.gameover, els.welcomeBack, els.absence, els.turn, els.moveError, els.game]) {
  if (el) tableRoomObserver.observe(el);
}
window.addEventListener("resize", measureTableRoom);

// ------------------------------------------------------------------ lobby view
function applySummary(next) {
  if (!next) return;
  summary = next;
  summaryAt = performance.now();
  els.title.textContent = gameTitle();
  setStatusTag(state?.status === "finished" ? "finished" : summary.status);
  els.layout.hidden = false;
  if (summary.status === "open") {
    els.lobby.hidden = false;
    els.game.hidden = true;
    renderLobby();
  } else {
    els.lobby.hidden = true;
    els.game.hidden = false;
    clearTimeout(snapshotTimer);
    if (summary.status === "abandoned" && state) {
      // A player ended it: the socket's state is still the last position as it was played.
      showState(state, []);
    } else if (summary.status === "abandoned" && !summary.started_at) {
      // A lobby everyone left never had a game state: there is no snapshot to ask for.
      showAbandoned();
    } else if (!state) {
      // The socket delivers the snapshot; if it does not come quickly, ask for it.
      snapshotTimer = setTimeout(() => { if (!state) socket?.sync(); }, 1500);
    }
  }
  renderSummaryExtras();
  if (state) renderPlayers();
  updateDocumentTitle();
  if (summary.tutorial && !coachLoading) loadCoach(summary.tutorial);
  mountRulesPanel(summary.game);
}

// ------------------------------------------------------------------ a guided first match
let coach = null;
let coachLoading = null;
function loadCoach(family) {
  coachLoading = import("./tutorial-coach.js")
    .then((module) => module.startCoach({ family, mountBefore: els.turn, onDismiss: () => { coach = null; } }))
    .then((started) => {
      coach = started;
      tableRoomObserver.observe(coach.element);
      coach.onState(state);
    })
    .catch((error) => console.error("the lesson's coach could not start", error));
}

function renderLobby() {
  const meta = gameMeta();
  const me = player?.id;
  const seated = summary.seats.some((s) => me && s.player_id === me);
  const taken = summary.seats.filter((s) => s.player_id).length;
  const isHost = Boolean(me && summary.host === me);
  // Servers from before computer players (issue 15) say nothing of bots: no controls then.
  const botsAvailable = summary.seats.some((s) => "bot" in s);
  // Merged, not rebuilt: a presence update or the socket's snapshot redraws the lobby, and a
  // button replaced between a tap's press and release loses the tap.
  const seatItems = summary.seats.map((seat) => {
    const mine = me && seat.player_id === me;
    const empty = !seat.player_id;
    const bot = seat.bot || null;
    let action = null;
    if (empty && !seated) {
      action = h("button", { type: "button", class: "primary small", "data-testid": `take-seat-${seat.seat}`,
        onclick: (e) => takeSeat(seat.seat, e.currentTarget) }, `Take seat ${seat.seat + 1}`);
    } else if (mine) {
      action = h("button", { type: "button", class: "danger small", "data-testid": "leave-seat",
        onclick: (e) => leaveSeat(e.currentTarget) }, "Leave");
    }
    return h("li", { class: `seat-item${empty ? " empty" : ""}${mine ? " me" : ""}${bot ? " bot" : ""}`, "data-testid": "seat", "data-key": seat.seat, "data-seat": seat.seat, "data-bot": bot || "" },
      h("span", { class: "seat-no" }, `SEAT ${seat.seat + 1}`),
      empty || bot ? null : h("span", { class: `online-dot${isOnline(seat.seat) ? " on" : ""}`, title: isOnline(seat.seat) ? "online" : "offline",
        "aria-label": isOnline(seat.seat) ? "online" : "offline", role: "img" }),
      bot ? computerBadge() : null,
      h("span", { class: "seat-name" }, empty ? "Empty seat" : bot ? (seat.name || botName(bot)) : seat.name),
      seat.player_id && seat.player_id === summary.host ? h("span", { class: "tag" }, "host") : null,
      mine ? h("span", { class: "tag" }, "you") : null,
      action,
      isHost && botsAvailable && empty ? addBotControls(seat.seat) : null,
      isHost && bot ? h("button", { type: "button", class: "ghost small", "data-testid": `remove-bot-${seat.seat}`,
        "aria-label": `Remove the computer player from seat ${seat.seat + 1}`,
        onclick: (e) => removeBot(seat.seat, e.currentTarget) }, "Remove") : null,
    );
  });
  morph(els.seatList, ...seatItems);
  const min = meta?.min_players ?? 1;
  const max = meta?.max_players ?? summary.seats.length;
  const legal = taken >= min && taken <= max;
  const hostName = summary.seats.find((s) => s.player_id === summary.host)?.name || "the host";
  // Options that need agreement (a drawn zone) hold the start until every other seat accepts.
  const waiting = summary.agreement?.waiting || [];
  const mySeatNo = summary.seats.find((s) => me && s.player_id === me)?.seat;
  const waitingNames = listNames(waiting.map((seat) => summary.seats.find((s) => s.seat === seat)?.name || `seat ${seat + 1}`));
  const seatCount = `${taken} of ${summary.seats.length} seats taken`;
  let hint;
  // Alone at the table, the host learns that computer players can fill the other seats.
  const freeSeats = summary.seats.some((s) => !s.player_id);
  const otherHumans = summary.seats.some((s) => s.player_id && s.player_id !== me && !s.bot);
  const botTip = isHost && botsAvailable && freeSeats
    ? (otherHumans ? " Or add a computer player to a free seat." : " Add a computer player to play alone, or invite friends.")
    : "";
  if (isHost) {
    if (!legal) hint = `${seatCount}: ${gameTitle()} needs at least ${min} players.${botTip}`;
    else if (waiting.length) hint = `${seatCount}. Waiting for ${waitingNames} to accept your options.`;
    else hint = `${seatCount}. Start when everyone is here.${botTip}`;
  } else if (seated && waiting.includes(mySeatNo)) {
    hint = ["You're in! ",
      h("a", { href: "#agreement", "data-testid": "hint-accept", onclick: goToAccept }, "Accept the host's options below"),
      `; then ${hostName} can start the match.`];
  } else if (seated && waiting.length) {
    hint = `You're in! Waiting for ${waitingNames} to accept the host's options, then for ${hostName} to start the match.`;
  } else if (seated) {
    hint = `You're in! Waiting for ${hostName} to start the match.`;
  } else if (taken >= summary.seats.length) {
    hint = "This table is full. You can watch once the match starts.";
  } else {
    hint = "Take a free seat to play.";
  }
  // morph: the link in the hint stays the same element when presence redraws the lobby.
  morph(els.lobbyHint, hint);
  els.start.hidden = !isHost;
  els.privateRow.hidden = !isHost || summary.private === undefined;
  els.privateToggle.checked = Boolean(summary.private);
  renderTurnTimer(isHost);
  els.start.disabled = !legal || waiting.length > 0;
  els.start.title = !legal ? `Needs ${min}–${max} players` : waiting.length ? "Everyone must accept the options first" : "";
  renderOptionsPanel(isHost, seated);
  els.invite.value = `${location.origin}/match/${encodeURIComponent(summary.id)}`;
  els.inviteText.textContent = summary.private
    ? "Send this link to the friends who will play: they can take a free seat. The match is private, so only players and people with the watch link can watch it."
    : "Send this link. Friends who open it can take a free seat; once the match starts, anyone with the link can watch.";
  fill(els.about,
    h("p", {}, `${gameTitle()} · ${meta ? (meta.min_players === meta.max_players ? `${meta.min_players}` : `${meta.min_players}–${meta.max_players}`) : "?"} ${meta?.max_players === 1 ? "player" : "players"}.`),
    summary.game?.startsWith("c64-")
      ? h("p", { class: "muted" }, "Everyone has a 3×3 joystick of cards. Each turn you play one active card into an empty space and do what it shows: move, or press a button.")
      : null,
    meta?.goal ? h("p", { class: "muted" }, meta.goal) : null,
    describeOptions(summary.options),
  );
}

/** "Ada", "Ada and Bea", "Ada, Bea and Cid" */
function listNames(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The hint's "Accept the host's options below": on a phone the button is screens away. */
function goToAccept(event) {
  event.preventDefault();
  const accept = els.agreement.querySelector('[data-testid="accept-options"]');
  const target = accept || els.optionsPanel;
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "auto" });
  accept?.focus({ preventScroll: true });
}

function describeOptions(options) {
  // Scalars in words; structured options (a drawn zone) are shown by the game's own editor.
  // Unset ones (null) are left out.
  const simple = Object.entries(options || {}).filter(([, v]) => v !== null && typeof v !== "object");
  if (!simple.length) return h("p", { class: "muted" }, "Standard rules.");
  const word = (v) => (v === true ? "on" : v === false ? "off" : String(v));
  return h("p", { class: "muted", "data-testid": "options-summary" },
    `Options: ${simple.map(([k, v]) => `${k.replace(/_/g, " ")} ${word(v)}`).join(", ")}`);
}

// ------------------------------------------------------------------ lobby options editor
// Every game's options show here in the create dialog's schema form, so a host can still put
// right what she chose (teams for three): she edits, each edit is saved at once, and everyone
// else sees the form read-only, following each change live.
// A game may also export `createOptionsEditor(root, {editable, options, change})` from its
// renderer module (Tank Skirmish draws its custom zone with it), shown below the form.
// When the game says the options need agreement, every other seated player accepts them
// here, and any change withdraws the acceptances.
let optionsEditor = null;
let optionsEditorKey = null;
let optionsForm = null;
let optionsFormShows = null; // the server's options (as JSON) the form was last filled from
let optionsSaving = null; // the host's save in flight
let optionsSaveAgain = false; // she edited again meanwhile: her latest values follow it
const optionsFormRoot = h("div", { class: "lobby-options-form", "data-testid": "lobby-options-form" });
const optionsStatus = h("p", { class: "small lobby-options-status", "data-testid": "options-status", "aria-live": "polite" });
els.optionsEditor.before(optionsFormRoot, optionsStatus);
// A refused start stays under the Start button (a toast is gone before the host has read it),
// until the seats or the options change.
const startRefusal = h("p", { class: "small start-refusal", "data-testid": "start-refusal", role: "alert" });
startRefusal.hidden = true;
els.start.parentElement.after(startRefusal);
let refusedStart = null; // {reason, lobby: lobbyShape() when it was refused}

async function renderOptionsPanel(isHost, seated) {
  const key = `${summary.game}|${isHost}`;
  renderStartRefusal(isHost);
  if (optionsEditorKey !== key) {
    optionsEditorKey = key;
    optionsEditor?.destroy();
    optionsEditor = null;
    clear(els.optionsEditor);
    mountOptionsForm(isHost);
    showOptionsPanel();
    try {
      const module = await import(`./games/${encodeURIComponent(summary.game)}.js`);
      if (optionsEditorKey !== key) return;
      if (typeof module.createOptionsEditor === "function") {
        optionsEditor = module.createOptionsEditor(els.optionsEditor, {
          editable: isHost,
          options: summary.options,
          change: changeOptions,
        });
      }
    } catch (error) {
      console.error(error);
    }
  }
  followOptions();
  optionsEditor?.update(summary.options);
  renderAgreement(isHost, seated);
  showOptionsPanel();
}

function showOptionsPanel() {
  els.optionsPanel.hidden = !optionsEditor && (!optionsForm || optionsForm.isEmpty) && !summary.agreement?.required;
}

function mountOptionsForm(isHost) {
  optionsForm = renderOptionsForm(optionsFormRoot, gameMeta()?.options_schema, {
    idPrefix: "lobby-opt",
    values: summary.options,
    disabled: !isHost,
    onChange: isHost ? saveOptionsForm : undefined,
  });
  optionsFormShows = JSON.stringify(summary.options);
  optionsFormRoot.hidden = optionsForm.isEmpty;
  optionsStatus.hidden = optionsForm.isEmpty;
  showOptionsStatus(isHost ? "" : "The host sets the options; you see each change here.");
}

/** Fills the form with options changed elsewhere (the host's edit, seen by the others; a zone
 * preset picked in the game's editor). The host's own edits in flight, or refused and not yet
 * put right, stay as she left them. */
function followOptions() {
  const shows = JSON.stringify(summary.options);
  if (!optionsForm || optionsSaving || shows === optionsFormShows) return;
  optionsFormShows = shows;
  optionsForm.setValues(summary.options);
  if (optionsStatus.dataset.state === "error") showOptionsStatus("");
}

function showOptionsStatus(text, state = "") {
  optionsStatus.textContent = text;
  optionsStatus.dataset.state = state;
  if (state === "error") optionsStatus.setAttribute("role", "alert");
  else optionsStatus.removeAttribute("role");
}

async function saveOptionsForm() {
  if (optionsSaving) { optionsSaveAgain = true; return; }
  showOptionsStatus("Saving…");
  optionsSaving = (async () => {
    let outcome;
    do {
      optionsSaveAgain = false;
      // Options the form cannot edit (a drawn zone) go back as they are.
      const options = { ...summary.options, ...optionsForm.values() };
      try {
        outcome = await api("PUT", `/matches/${encodeURIComponent(matchId)}/options`, { options });
      } catch (error) {
        outcome = error;
      }
    } while (optionsSaveAgain);
    return outcome;
  })();
  const outcome = await optionsSaving;
  optionsSaving = null;
  if (outcome instanceof Error) {
    showOptionsStatus(`Not saved: ${outcome.message}`, "error");
    return;
  }
  showOptionsStatus("Saved.", "saved");
  applySummary(outcome);
}

/** What a start refusal depends on: who is seated and the options. */
function lobbyShape() {
  return JSON.stringify([summary.seats.map((s) => s.player_id), summary.options]);
}

function renderStartRefusal(isHost) {
  if (refusedStart && (!isHost || refusedStart.lobby !== lobbyShape())) refusedStart = null;
  startRefusal.textContent = refusedStart?.reason || "";
  startRefusal.hidden = !refusedStart;
}

async function changeOptions(options) {
  try {
    applySummary(await api("PUT", `/matches/${encodeURIComponent(matchId)}/options`, { options }));
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not change the options" });
    throw error;
  }
}

function renderAgreement(isHost, seated) {
  const agreement = summary.agreement;
  if (!agreement?.required) { clear(els.agreement); return; }
  const me = player?.id;
  const mySeatNo = summary.seats.find((s) => me && s.player_id === me)?.seat;
  const names = (seats) => seats.map((seat) => summary.seats[seat]?.name || `seat ${seat + 1}`).join(", ");
  let line;
  let action = null;
  if (isHost) {
    line = agreement.waiting.length
      ? `Waiting for ${names(agreement.waiting)} to accept these options.`
      : (agreement.accepted.length ? "Everyone accepted these options." : "Nobody else is seated yet.");
  } else if (seated && agreement.waiting.includes(mySeatNo)) {
    line = "The host set these options. Check them; the match can start once you accept.";
    action = h("button", { type: "button", class: "primary small", "data-testid": "accept-options",
      onclick: (e) => acceptOptions(e.currentTarget) }, "Accept");
  } else if (seated) {
    line = "You accepted these options. Any change by the host will ask you again.";
  } else {
    line = "The seated players must accept these options before the start.";
  }
  // Merged, not replaced: presence and lobby updates re-render this often, and a rebuilt
  // Accept button would lose the focus the lobby hint gave it (or a press in progress).
  morph(els.agreement, h("p", { class: "small", "data-testid": "agreement-text" }, line), action);
}

async function acceptOptions(button) {
  button.disabled = true;
  try {
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/accept`, { options: summary.options }));
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not accept" });
    refreshSummary();
  } finally {
    button.disabled = false;
  }
}

async function takeSeat(seat, button) {
  button.disabled = true;
  try {
    if (!(await ensureGuest("Pick a name, then you're in."))) return;
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/join`, { seat, nonce: newNonce() }));
    if (refusedAsPrivate) { refusedAsPrivate = false; socket?.reconnect(); } // seated now: say hello again
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not take the seat" });
    refreshSummary();
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ computer players in the lobby
/**
 * The host's "Add computer" on an empty seat, with its level. The button reads the level
 * from the page when pressed: morph keeps the select the host changed, not the fresh copy.
 */
function addBotControls(seat) {
  const select = h("select", { "data-testid": `bot-level-${seat}`, "data-key": `bot-level-${seat}`,
    "aria-label": `Computer level for seat ${seat + 1}` },
  h("option", { value: "easy" }, "Easy"),
  h("option", { value: "normal", selected: true }, "Normal"));
  return h("span", { class: "bot-add", "data-testid": `bot-add-${seat}`, "data-key": `bot-add-${seat}` },
    select,
    h("button", { type: "button", class: "small", "data-testid": `add-bot-${seat}`,
      "aria-label": `Add a computer player to seat ${seat + 1}`,
      onclick: (e) => addBot(seat, e.currentTarget) }, computerIcon(), "Add computer"));
}

async function addBot(seat, button) {
  const level = els.seatList.querySelector(`[data-testid="bot-level-${seat}"]`)?.value || "normal";
  button.disabled = true;
  try {
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/bots`, { level, seat }));
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not add a computer player", key: refusalKey("bots", error) });
    refreshSummary();
  } finally {
    button.disabled = false;
  }
}

async function removeBot(seat, button) {
  button.disabled = true;
  try {
    applySummary(await api("DELETE", `/matches/${encodeURIComponent(matchId)}/bots/${seat}`));
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not remove the computer player", key: refusalKey("bots", error) });
    refreshSummary();
  } finally {
    button.disabled = false;
  }
}

// The pace and its timer: the host picks them (saved at once), the others read them. A live
// match has a turn timer or none; a turn-based one a time per move of an hour to a week.
const timerOption = ([seconds, words]) => h("option", { value: seconds === null ? "" : String(seconds) }, words);
els.turnTimer.append(
  h("optgroup", { label: "Live: everyone at the table" }, ...TURN_TIMERS.map(timerOption)),
  h("optgroup", { label: "Turn-based: time per move" }, ...TURN_BASED_TIMERS.map(timerOption)),
);
let turnTimerSaving = false;

function renderTurnTimer(isHost) {
  const known = summary && "turn_timer" in summary;
  els.turnTimerRow.hidden = !known || !isHost;
  els.turnTimerText.hidden = !known || isHost;
  if (!known) return;
  const value = summary.turn_timer ?? null;
  if (!turnTimerSaving) els.turnTimer.value = value === null ? "" : String(value);
  els.turnTimerText.textContent = summary.pace === "turn-based"
    ? `Turn-based: ${timerWords(value)} per move. Nobody needs to be online.`
    : value === null ? "Live, no turn timer." : `Live, turn timer: ${timerWords(value)} per turn.`;
}

els.turnTimer.addEventListener("change", async () => {
  const raw = els.turnTimer.value;
  const want = raw === "" ? null : Number(raw);
  // While the save is in flight, a lobby frame must not put the old value back in the select.
  turnTimerSaving = true;
  els.turnTimer.disabled = true;
  let saved = null;
  try {
    saved = await api("PATCH", `/matches/${encodeURIComponent(matchId)}`, { turn_timer: want });
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not set the turn timer", key: refusalKey("timer", error) });
  } finally {
    turnTimerSaving = false;
    els.turnTimer.disabled = false;
  }
  if (saved) applySummary(saved);
  else refreshSummary();
});

function showAbandoned() {
  els.turn.hidden = false;
  els.turn.dataset.mine = "false";
  fill(els.turn,
    h("span", { class: "b-title" }, "This match was abandoned."),
    h("span", { class: "b-actions" },
      h("a", { class: "button small primary", href: "/", "data-testid": "back-to-lobby" }, "Back to the lobby")),
    // A table closed for idleness says why in its own banner (lobby-expiry.js).
    summary?.abandoned_reason === "expired" ? null
      : h("span", { class: "b-detail" }, "Everyone left the table before it started. Open a new one or join another in the lobby."),
  );
}

/**
 * What leaving means when it is more than freeing a seat: the host hands the table over, and
 * the last one at the table abandons it for good. Null when there is nothing to ask.
 */
function leaveQuestion() {
  const me = player?.id;
  if (!me || summary?.host !== me) return null;
  const others = summary.seats.filter((s) => s.player_id && s.player_id !== me);
  if (!others.length) {
    return {
      title: "Leave and close the table?",
      text: "You are the only one here: leaving abandons this match for good, and its invite link will lead nowhere.",
      confirm: "Leave and abandon",
    };
  }
  return {
    title: "Leave your table?",
    text: `${others[0].name} becomes the host and can start the match without you. While it is open, you can take a free seat again.`,
    confirm: "Leave the table",
  };
}

/**
 * A modal question in the site's style (window.confirm cannot be styled). The safe answer is
 * the default (focused, and what Escape gives); resolves true only for the red one. `name`
 * prefixes its test ids: `${name}-dialog`, `${name}-cancel`, `${name}-confirm`.
 */
function confirmDialog({ name, title, text, cancel, confirm }) {
  return new Promise((resolve) => {
    const form = h("form", { method: "dialog" },
      h("h2", { id: `${name}-dialog-title` }, title),
      h("p", { class: "muted", id: `${name}-dialog-text` }, text),
      h("div", { class: "actions" },
        h("button", { type: "submit", value: "cancel", class: "ghost", "data-testid": `${name}-cancel`, autofocus: true }, cancel),
        h("button", { type: "submit", value: "confirm", class: "danger", "data-testid": `${name}-confirm` }, confirm),
      ),
    );
    const dialog = h("dialog", {
      class: `confirm-dialog ${name}-dialog`, "aria-labelledby": `${name}-dialog-title`,
      "aria-describedby": `${name}-dialog-text`, "data-testid": `${name}-dialog`,
    }, form);
    dialog.addEventListener("close", () => { dialog.remove(); resolve(dialog.returnValue === "confirm"); });
    document.body.append(dialog);
    dialog.showModal();
  });
}

async function leaveSeat(button) {
  const question = leaveQuestion();
  if (question && !(await confirmDialog({ name: "leave", cancel: "Stay", ...question }))) return;
  button.disabled = true;
  try {
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/leave`, {}));
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not leave" });
  } finally {
    button.disabled = false;
  }
}

els.start.addEventListener("click", async () => {
  els.start.disabled = true;
  try {
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/start`, {}));
  } catch (error) {
    if (error instanceof ApiError) refusedStart = { reason: error.message, lobby: lobbyShape() };
    else toast(error.message, { kind: "error", title: "Could not start" });
    renderLobby();
  }
});

els.copy.addEventListener("click", async () => {
  const ok = await copyText(els.invite.value);
  els.copy.textContent = ok ? "Copied!" : "Copy failed";
  if (!ok) { els.invite.focus(); els.invite.select(); }
  setTimeout(() => { els.copy.textContent = "Copy link"; }, 1800);
});
els.invite.addEventListener("focus", () => els.invite.select());

async function refreshSummary() {
  try {
    applySummary(await api("GET", withWatch(`/matches/${encodeURIComponent(matchId)}`, watchToken)));
  } catch { /* the socket keeps us current anyway */ }
}

// ------------------------------------------------------------------ game view
async function ensureRenderer(game, you) {
  // One renderer per game and identity (a spectator who becomes a player gets a new one).
  const key = `${game}|${you}`;
  if (renderer && rendererGame === key) return renderer;
  if (rendererLoading && rendererGame === key) return rendererLoading;
  rendererGame = key;
  rendererLoading = (async () => {
    renderer?.destroy();
    renderer = null;
    clear(els.gameRoot);
    const ctx = { submit, you };
    try {
      const module = await import(`./games/${encodeURIComponent(game)}.js`);
      renderer = module.createRenderer(els.gameRoot, ctx);
    } catch (error) {
      console.error(error);
      renderer = fallbackRenderer(els.gameRoot, game);
    }
    return renderer;
  })();
  return rendererLoading;
}

function fallbackRenderer(root, game) {
  const pre = h("pre", { class: "panel small", style: { overflow: "auto" } });
  root.append(h("p", { class: "muted" }, `There is no board for “${game}” in this version of the site yet; here is the raw state.`), pre);
  return { update(s) { pre.textContent = JSON.stringify(s.board, null, 2); }, destroy() { root.replaceChildren(); } };
}

let pendingEvents = [];
let refreshedAtEnd = false;
async function showState(next, events) {
  if (summary?.status === "abandoned") next = endedView(next);
  state = next;
  pendingEvents.push(...(events || []));
  els.layout.hidden = false;
  els.lobby.hidden = true;
  els.game.hidden = false;
  els.playersPanel.hidden = false;
  els.logPanel.hidden = false;
  els.spectatorTag.hidden = state.you !== null && state.you !== undefined;
  if (summary && summary.status === "open") summary.status = state.status;
  setStatusTag(state.status);
  const r = await ensureRenderer(state.game, state.you ?? null);
  if (state !== next) return; // a newer state arrived while the renderer loaded; it renders
  const batch = pendingEvents;
  pendingEvents = [];
  r.update(state, batch);
  coach?.onState(state);
  if (!coloursKnown && renderer?.seatInfo) recolourLog();
  if ((state.status === "finished" || state.outcome) && summary && summary.status !== "finished" && !refreshedAtEnd) {
    refreshedAtEnd = true; // the seed is revealed and "Play again" becomes possible
    refreshSummary();
  }
  renderTurn();
  renderGameOver();
  renderPlayers();
  renderChatPanel();
  updateDocumentTitle();
}

function defaultTurn(s) {
  const active = s.active_seats || [];
  if (s.you !== null && active.includes(s.you) && (s.legal_moves || []).length) return { mine: true, title: "Your turn" };
  if (!active.length) return null;
  const names = active.filter((seat) => seat !== s.you).map(seatLabel);
  if (s.you !== null && active.includes(s.you)) return { mine: false, title: `Waiting for ${names.join(" and ") || "the others"}` };
  return { mine: false, title: s.you === null ? `${names.join(" and ")} to move` : `Waiting for ${names.join(" and ")}` };
}

// A question put to other seats (a Versus challenge, a loan) has a deadline: past it, the
// server answers for whoever is silent. A lobby's turn timer gives the seat(s) to move a
// deadline too (`turn_deadline`). The banner counts the seconds down.
let countdownTimer = null;
function renderCountdown(clock, deadline) {
  clearInterval(countdownTimer);
  countdownTimer = null;
  if (!clock || !deadline) return;
  const tick = () => {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    clock.textContent = clockWords(left);
    clock.dataset.urgent = String(left <= 5);
    if (!left) {
      clearInterval(countdownTimer);
      countdownTimer = null;
      renderAbsence(); // an away player's time ran out: the others may let the computer play
    }
  };
  tick();
  countdownTimer = setInterval(tick, 250);
}

function renderTurn() {
  if (!state) return;
  delete els.turn.dataset.ended;
  if (state.status === "abandoned") { renderEnded(); return; }
  const over = state.status === "finished" || Boolean(state.outcome);
  const d = over ? null : (renderer?.describeTurn ? renderer.describeTurn(state) : defaultTurn(state));
  els.turn.hidden = !d;
  if (!d) { els.turn.dataset.mine = "false"; renderCountdown(null); return; }
  els.turn.dataset.mine = String(Boolean(d.mine));
  // A question's own deadline comes first: it is the nearer one while it is asked.
  const clock = state.deadline
    ? h("span", { class: "b-clock", "data-testid": "countdown", title: "Time left to answer; silence counts as no" })
    : state.turn_deadline
      ? h("span", { class: "b-clock", "data-testid": "turn-countdown", title: "Time left for this turn (the turn timer)" })
      : null;
  fill(els.turn,
    d.color && !d.mine ? h("span", { class: "swatch", style: { background: d.color }, "aria-hidden": "true" }) : null,
    h("span", { class: "b-title", "data-testid": "turn-title" }, d.title),
    clock,
    d.detail ? h("span", { class: "b-detail" }, d.detail) : null,
  );
  renderCountdown(clock, state.deadline || state.turn_deadline);
}

function renderGameOver() {
  const outcome = state?.outcome;
  if (!outcome) { els.gameover.hidden = true; return; }
  const winners = outcome.winners || [];
  const youWon = state.you !== null && winners.includes(state.you);
  let title;
  // Alone at the table there is nobody to beat: the result is the score, not a victory.
  if ((state.seats || []).length === 1) title = youWon ? "Finished!" : "Game over";
  else if (youWon && winners.length === 1) title = "You win!";
  else if (youWon) title = `Shared win: ${winners.map(seatLabel).join(" & ")}`;
  else if (winners.length === 1) title = `${seatLabel(winners[0])} wins!`;
  else if (winners.length) title = `${winners.map(seatLabel).join(" & ")} win!`;
  else title = "Game over: nobody wins";
  const scores = outcome.scores
    ? Object.entries(outcome.scores).map(([seat, score]) => `${seatLabel(Number(seat))}: ${score}`).join(" · ")
    : "";
  els.gameover.dataset.youWon = String(youWon);
  els.gameover.hidden = false;
  const seated = state.you !== null && state.you !== undefined;
  const rematchId = summary?.rematch || null;
  fill(els.gameover,
    h("span", { class: "b-title", "data-testid": "winner" }, title),
    h("span", { class: "b-actions" },
      seated && rematchId
        ? h("a", { class: "button small primary", href: `/match/${encodeURIComponent(rematchId)}`, "data-testid": "play-again" }, "Join the rematch")
        : seated
          ? h("button", { type: "button", class: "small primary", "data-testid": "play-again", onclick: (e) => playAgain(e.currentTarget) }, "Play again")
          : null,
      h("a", { class: "button small", href: withWatch(`/replay/${encodeURIComponent(matchId)}`, summary?.private ? watchToken : null), "data-testid": "watch-replay" }, "Watch replay"),
      h("a", { class: "button small ghost-link", href: "/" }, "New match"),
    ),
    h("span", { class: "b-detail" }, [outcomeReason(outcome), scores].filter(Boolean).join(" · ")),
    seated && gameMeta()?.record_order ? personalBest(outcome) : null,
  );
}

/** The outcome's reason in words; a claimed win says why it was claimed. */
function outcomeReason(outcome) {
  if (outcome.reason !== "claimed" && !outcome.details?.claimed) return outcome.reason;
  const winner = (outcome.winners || [])[0];
  return winner === undefined ? "won by claim: the opponent was away"
    : `${seatLabel(winner)} claimed the win: the opponent was away`;
}

// Games that keep records (Tactrics Solitary: fewest rotations) show your best beside the
// result; the server computes it from your finished matches.
function personalBest(outcome) {
  const line = h("span", { class: "b-detail", "data-testid": "personal-best" }, "");
  const key = String(outcome.details?.record_key ?? "");
  const order = gameMeta().record_order;
  api("GET", `/games/${encodeURIComponent(state.game)}/records`).then((records) => {
    const best = (records.mine || []).find((r) => r.key === key);
    if (!best) return;
    const score = outcome.scores?.[String(state.you)];
    const isNew = best.match_id === matchId;
    line.textContent = isNew
      ? `New personal best: ${best.score}${order === "low" ? " (lower is better)" : ""}!`
      : `Your best: ${best.score}${score !== undefined ? ` (this time ${score})` : ""}.`;
  }).catch(() => {});
  return line;
}

function renderPlayers() {
  renderEndControl();
  const seats = state?.seats || [];
  const active = state?.active_seats || [];
  const finished = state?.status === "finished";
  const playing = state?.status === "active" && !state?.outcome;
  const now = Date.now();
  // morph: each presence message redraws the rows, and a row replaced under someone's
  // pointer (or a test measuring it) is gone for a moment.
  morph(els.players, seats.flatMap((seat) => {
    const info = seatInfo(seat.seat);
    const online = isOnline(seat.seat);
    const extra = seatExtras(seat.seat);
    const away = playing && !extra.bot && extra.awaySince;
    const row = h("li", { "data-testid": "player", "data-seat": seat.seat, "data-key": `seat-${seat.seat}`, "data-bot": extra.bot || "",
      "data-away": away ? "true" : "false", "data-stand-in": extra.standIn ? "true" : "false" },
      extra.bot
        ? h("span", { class: "bot-dot", role: "img", "aria-label": "computer player", title: "computer player" }, computerIcon())
        : h("span", { class: `online-dot${online ? " on" : ""}`, role: "img", "aria-label": online ? "online" : "offline", title: online ? "online" : "offline" }),
      h("span", { class: "swatch", style: { background: info.color, width: "12px", height: "12px", borderRadius: "3px", display: "inline-block" }, "aria-hidden": "true" }),
      // A long name is cut short with an ellipsis; the title has it whole.
      h("span", { class: "p-name", title: `${info.label}: ${seat.name || "?"}` }, `${info.label}: ${seat.name || "?"}`, seat.seat === state.you ? " (you)" : ""),
      away ? h("span", { class: "p-away", "data-testid": "away", title: `no connection since ${clockTime(extra.awaySince)}` }, awayWords(extra.awaySince, now)) : null,
      !finished && active.includes(seat.seat) ? h("span", { class: "to-move" }, "to move") : null,
    );
    const note = playing && extra.standIn
      ? h("li", { class: "p-note", "data-testid": "stand-in-note", "data-seat": seat.seat, "data-key": `note-${seat.seat}` },
        computerIcon(), `computer playing for ${seat.name || seatName(seat.seat)}`)
      : null;
    return [row, note];
  }));
  const watching = presence?.spectators ?? 0;
  els.spectators.textContent = watching ? `${watching} watching` : "";
  renderAbsence();
}

// ------------------------------------------------------------------ absent friends
// A seat whose sockets have all been gone for the server's grace period is away (issue 15):
// the others see for how long, may let the computer play for her when it is her turn, and in
// a two-player match may claim the win once she has been away `absence.claim_after` seconds.
// What a seat is (a computer's, away, stood in for) comes in presence frames and in lobby
// summaries; whichever arrived last is the one believed.
let presenceAt = 0;
let summaryAt = 0;
let absenceTimer = null;

function seatExtras(seat) {
  const fromPresence = presence?.seats?.find((s) => s.seat === seat);
  const fromSummary = summary?.seats?.find((s) => s.seat === seat);
  const sources = presenceAt >= summaryAt ? [fromPresence, fromSummary] : [fromSummary, fromPresence];
  const pick = (key) => {
    for (const source of sources) if (source && key in source) return source[key] ?? null;
    return null;
  };
  const fromState = state?.seats?.find((s) => s.seat === seat);
  return { bot: pick("bot") || fromState?.bot || null, standIn: pick("stand_in"), awaySince: pick("away_since") };
}

/** I am a person seated at this table (not a watcher). */
function seatedHuman() {
  return Boolean(state) && state.you !== null && state.you !== undefined && !seatExtras(state.you).bot;
}

function claimAfter() {
  return Number(summary?.absence?.claim_after ?? 120);
}

function renderAbsence() {
  const playing = Boolean(state) && state.status === "active" && !state.outcome && summary?.status !== "abandoned";
  const seats = playing ? state.seats || [] : [];
  const active = state?.active_seats || [];
  const me = state?.you ?? null;
  const canAct = seatedHuman();
  const now = Date.now();
  const lines = [];
  let ticking = false;
  for (const seat of seats) {
    const extra = seatExtras(seat.seat);
    if (extra.bot) continue;
    const name = seat.name || seatName(seat.seat);
    if (seat.seat === me) {
      // Her turn timer ran out while she was here and someone let the computer play for her:
      // a new hello gives her seat back at once.
      if (extra.standIn) {
        lines.push(h("div", { class: "absent-line", "data-testid": "stand-in-mine", "data-key": "stand-in-mine" },
          computerIcon(), h("span", { class: "b-title" }, "The computer is playing for you"),
          h("span", { class: "b-actions" }, h("button", { type: "button", class: "primary", "data-testid": "take-seat-back",
            onclick: () => socket?.reconnect() }, "Play my seat again"))));
      }
      continue;
    }
    if (extra.standIn) {
      lines.push(h("p", { class: "absent-line", "data-testid": "stand-in-line", "data-seat": seat.seat, "data-key": `stand-in-${seat.seat}` },
        computerIcon(), h("span", { class: "b-title" }, `computer playing for ${name}`),
        h("span", { class: "b-detail" }, `until ${name} comes back.`)));
      continue;
    }
    const herTurn = active.includes(seat.seat);
    const ranOut = herTurn && Boolean(state.turn_deadline) && now >= state.turn_deadline;
    if (!extra.awaySince && !ranOut) continue;
    const away = extra.awaySince ? secondsSince(extra.awaySince, now) : null;
    if (away !== null) ticking = true;
    const twoPlayer = seats.length === 2;
    // Turn-based, nobody is away for having closed the tab: running out of time is what counts.
    const turnBased = summary?.pace === "turn-based";
    const claimIn = turnBased ? (ranOut ? 0 : null) : away === null ? null : claimAfter() - away;
    const actions = [];
    if (canAct && herTurn) {
      actions.push(h("button", { type: "button", class: "primary", "data-testid": `stand-in-${seat.seat}`,
        onclick: (e) => standIn(seat.seat, e.currentTarget) }, computerIcon(), `Let the computer play for ${name}`));
    }
    if (canAct && twoPlayer && claimIn !== null && claimIn <= 0) {
      actions.push(h("button", { type: "button", class: "danger", "data-testid": "claim-win",
        onclick: (e) => claimWin(name, e.currentTarget) }, "Claim the win"));
    }
    let detail = null;
    if (canAct && !herTurn) detail = `When it is ${name}'s turn you can let the computer play for ${name}.`;
    if (canAct && twoPlayer && claimIn !== null && claimIn > 0) {
      detail = `${detail ? `${detail} ` : ""}If ${name} is still away in ${clockWords(claimIn)}, you can claim the win.`;
    } else if (canAct && twoPlayer && claimIn !== null) {
      detail = "Or wait for them, or end the match for nobody (End match… in the players panel).";
    }
    const title = away !== null ? `${name} has been away for ${durationWords(away)}` : `${name}'s time for this turn ran out`;
    lines.push(h("div", { class: "absent-line", "data-testid": "absent-seat", "data-seat": seat.seat, "data-key": `away-${seat.seat}` },
      h("span", { class: "b-title", "data-testid": "absent-text" }, title),
      actions.length ? h("span", { class: "b-actions" }, actions) : null,
      detail ? h("span", { class: "b-detail" }, detail) : null));
  }
  els.absence.hidden = !lines.length;
  morph(els.absence, lines);
  // The minutes count on, and Claim the win appears when its time comes: a tick while away.
  if (ticking && !absenceTimer) absenceTimer = setInterval(renderPlayers, 1000);
  if (!ticking && absenceTimer) { clearInterval(absenceTimer); absenceTimer = null; }
}

async function standIn(seat, button) {
  button.disabled = true;
  try {
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/seats/${seat}/stand-in`, {}));
  } catch (error) {
    toast(error.message, { kind: "error", title: "The computer cannot take that seat", key: refusalKey("stand-in", error) });
    refreshSummary();
  } finally {
    button.disabled = false;
  }
}

async function claimWin(name, button) {
  const sure = await confirmDialog({
    name: "claim",
    title: "Claim the win?",
    text: `${name} has been away for a while. The match ends now and you are recorded as its winner.`,
    cancel: "Keep waiting",
    confirm: "Claim the win",
  });
  if (!sure) return;
  button.disabled = true;
  try {
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/claim-win`, {}));
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not claim the win", key: refusalKey("claim", error) });
    refreshSummary();
  } finally {
    button.disabled = false;
  }
}

/** A seat changed hands (a computer stands in, she is back, a win claimed): said to everyone. */
function onSeatChange(msg) {
  const entry = presence?.seats?.find((s) => s.seat === msg.seat);
  if (entry && msg.change === "stand_in") entry.stand_in = entry.stand_in || "normal";
  if (entry && msg.change === "returned") { entry.stand_in = null; entry.away_since = null; }
  if (typeof msg.text === "string" && msg.text) {
    toast(msg.text, { kind: msg.change === "returned" ? "ok" : "info", key: `seat_change|${msg.seat}`, timeout: 12000 });
    addNotice(msg, Number.isInteger(msg.version) ? msg.version : socket?.version ?? 0);
  }
  renderPlayers();
  refreshSummary();
}

/** To her alone, back at the table: what the computer did meanwhile. Stays until read. */
function onWelcomeBack(msg) {
  els.welcomeBack.hidden = false;
  fill(els.welcomeBack,
    h("span", { class: "b-title" }, "Your seat is yours again"),
    h("span", { class: "b-actions" },
      h("button", { type: "button", class: "small", "data-testid": "welcome-back-dismiss",
        onclick: () => { els.welcomeBack.hidden = true; } }, "Got it")),
    h("span", { class: "b-detail", "data-testid": "welcome-back-text" }, msg.text || "You have your seat back."),
  );
}

// ------------------------------------------------------------------ ending a match
// A seated player may end a match being played, for everyone (friends who stop should not
// leave a table open forever). The server tells every page with a lobby summary whose status
// is "abandoned"; the state the socket holds is still the last position as it was played.

/** The last position with nothing left to play. */
function endedView(s) {
  if (s.outcome) return s;
  return { ...s, status: "abandoned", active_seats: [], legal_moves: [], deadline: null };
}

function renderEndControl() {
  const seated = Boolean(state) && state.you !== null && state.you !== undefined;
  els.endRow.hidden = !(seated && summary?.status === "active" && state.status === "active");
}

function renderEnded() {
  renderCountdown(null);
  els.moveError.hidden = true;
  els.turn.hidden = false;
  els.turn.dataset.mine = "false";
  els.turn.dataset.ended = "true";
  const by = summary?.ended_by;
  fill(els.turn,
    h("span", { class: "b-title", "data-testid": "ended-title" }, by ? `${by} ended this match.` : "This match was ended."),
    h("span", { class: "b-actions" },
      h("a", { class: "button small primary", href: "/", "data-testid": "back-to-lobby" }, "Back to the lobby")),
    h("span", { class: "b-detail" }, "Nobody wins. The board shows the last position."),
  );
}

async function endMatch() {
  const sure = await confirmDialog({
    name: "end",
    title: "End this match for everyone?",
    text: "It will be marked abandoned and nobody wins. This cannot be undone.",
    cancel: "Keep playing",
    confirm: "End match",
  });
  if (!sure) return;
  els.endMatch.disabled = true;
  try {
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/end`, {}));
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not end the match" });
    refreshSummary();
  } finally {
    els.endMatch.disabled = false;
  }
}

els.endMatch.addEventListener("click", endMatch);

// ------------------------------------------------------------------ moves
function showMoveError(message) {
  els.moveError.hidden = false;
  fill(els.moveError,
    h("span", { class: "b-title", style: { color: "var(--danger)" } }, "Move refused"),
    h("span", { class: "b-detail", "data-testid": "move-error-text", style: { color: "var(--text)" } }, message),
  );
}

function submit(move) {
  if (!socket) return Promise.reject(new Error("Not connected"));
  els.moveError.hidden = true;
  return socket.submitMove(move).then((accepted) => { staleTurns(); return accepted; }, (error) => {
    // Said once, in the banner right above the board (role=alert reads it out; the table's
    // room is measured again, so the board moves down rather than being covered). A connection
    // closed for good is said by its own "Disconnected" toast.
    if (coach?.onRefused(error)) throw error; // a lesson's hint, said by its coach
    if (error.code !== "closed") showMoveError(error.message);
    throw error;
  });
}

// ------------------------------------------------------------------ event log
function logEntry(seq, event, fresh, byBot = false) {
  const seat = event.seat ?? null;
  const info = seat !== null ? seatInfo(seat) : null;
  return h("li", { "data-testid": "log-entry", "data-seq": seq, "data-type": event.type || "", class: fresh ? "fresh" : "",
    "data-bot": byBot ? "true" : null },
    h("span", { class: "seq", "aria-hidden": "true" }, `#${seq}`),
    info ? h("span", { class: "swatch", "data-seat": seat, style: { background: info.color }, "aria-hidden": "true" }) : null,
    // An image with a label, not hidden text: an absolutely placed span in the scrolling log
    // would reach below it and lengthen the page.
    byBot ? h("span", { class: "log-bot", role: "img", "aria-label": "played by the computer", title: "played by the computer" }, computerIcon()) : null,
    h("span", { class: "text" }, event.text || describeEvent(event)),
  );
}

/**
 * A live move was the computer's when its seat is a computer player's or a computer stands in
 * for it (the REST log says so itself: `bot: true`).
 */
function playedByComputer(events) {
  const seat = events.find((e) => e.seat !== undefined && e.seat !== null)?.seat;
  if (seat === undefined) return false;
  const extra = seatExtras(seat);
  return Boolean(extra.bot || extra.standIn);
}

/**
 * A line in the log that is not a move: a seat change (a computer took a seat, she came back,
 * a win was claimed), from a live frame or from GET /log's `seat_changes`. It goes after the
 * move `seq` it followed; each change is shown once however it arrived.
 */
const noticesSeen = new Set();
function addNotice(change, seq) {
  const key = change.at ? `${change.at}|${change.seat}|${change.change}` : null;
  if (key && noticesSeen.has(key)) return;
  if (key) noticesSeen.add(key);
  const item = h("li", { "data-testid": "log-notice", "data-seq": seq, "data-type": `seat_change:${change.change || ""}`, class: "notice" },
    h("span", { class: "seq", "aria-hidden": "true" }, "★"),
    h("span", { class: "text" }, change.text));
  const after = [...els.log.children].find((li) => Number(li.dataset.seq) > seq);
  els.log.insertBefore(item, after || null);
  while (els.log.children.length > MAX_LOG) els.log.firstElementChild.remove();
  if (!after) els.log.scrollTop = els.log.scrollHeight;
}

/**
 * The seat changes of GET /log, each after the move it followed: its `version` when the
 * server gives one, else the last move of an earlier second. Some databases keep a move's
 * time to the second only, and what follows a change (the computer's first move, her own
 * after her return) tends to come within the same second, so a tie goes after the change.
 */
function addSeatChanges(changes, moves) {
  const second = (iso) => Math.floor(Date.parse(iso) / 1000);
  const timed = moves.filter((m) => m.at).map((m) => [second(m.at), m.seq]);
  for (const change of changes || []) {
    if (typeof change?.text !== "string") continue;
    let seq = 0;
    if (Number.isInteger(change.version)) seq = change.version;
    else {
      const at = second(change.at);
      for (const [when, moveSeq] of timed) if (when < at && moveSeq > seq) seq = moveSeq;
    }
    addNotice(change, seq);
  }
}

// The log may fill (from the REST log) before the game's renderer has loaded and can say
// which colour each seat plays; once it can, the swatches already drawn are put right.
let coloursKnown = false;
function recolourLog() {
  coloursKnown = true;
  for (const swatch of els.log.querySelectorAll(".swatch[data-seat]")) {
    swatch.style.background = seatInfo(Number(swatch.dataset.seat)).color;
  }
}

function describeEvent(event) {
  const who = event.seat !== undefined && event.seat !== null ? seatLabel(event.seat) : "Someone";
  return `${who}: ${String(event.type || "move").replace(/_/g, " ")}`;
}

function addToLog(seq, events, { fresh = false } = {}) {
  if (loggedSeqs.has(seq)) return;
  loggedSeqs.add(seq);
  const list = events && events.length ? events : [];
  if (!list.length) return;
  const nearBottom = els.log.scrollHeight - els.log.scrollTop - els.log.clientHeight < 40;
  const byBot = fresh && playedByComputer(list);
  const items = list.map((event) => logEntry(seq, event, fresh, byBot));
  // Keep the log ordered by version even when history arrives after live patches.
  const after = [...els.log.children].find((li) => Number(li.dataset.seq) > seq);
  for (const item of items) els.log.insertBefore(item, after || null);
  while (els.log.children.length > MAX_LOG) els.log.firstElementChild.remove();
  if (nearBottom || !after) els.log.scrollTop = els.log.scrollHeight;
}

/**
 * The history from GET /log in one go: one DOM update and one layout, however long the match
 * (adding a finished match's thousands of moves one by one, each reading the scroll
 * position, froze the page for seconds).
 */
function addManyToLog(moves) {
  const items = [];
  for (const move of moves) {
    if (loggedSeqs.has(move.seq)) continue;
    loggedSeqs.add(move.seq);
    for (const event of move.events || []) items.push([move.seq, event, Boolean(move.bot)]);
  }
  if (!items.length) return;
  const fresh = items.slice(-MAX_LOG).map(([seq, event, byBot]) => logEntry(seq, event, false, byBot));
  // A seat change noted after move n stays after that move's lines.
  const notice = (li) => Number(li.classList.contains("notice"));
  const merged = [...els.log.children, ...fresh]
    .sort((a, b) => Number(a.dataset.seq) - Number(b.dataset.seq) || notice(a) - notice(b));
  els.log.replaceChildren(...merged.slice(-MAX_LOG));
  els.log.scrollTop = els.log.scrollHeight;
}

let logFetching = false;
/** Fills the log from GET /log: on the first snapshot, and after a reconnect missed moves. */
async function loadLog(upTo) {
  const known = loggedSeqs.size ? Math.max(...loggedSeqs) : 0;
  if (logFetching || (upTo !== undefined && upTo <= known && loggedSeqs.size >= known)) return;
  logFetching = true;
  try {
    const data = await api("GET", withWatch(`/matches/${encodeURIComponent(matchId)}/log`, watchToken));
    addManyToLog(data.moves || []);
    addSeatChanges(data.seat_changes, data.moves || []);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) setTimeout(() => loadLog(upTo), 3000);
  } finally {
    logFetching = false;
  }
}

// ------------------------------------------------------------------ chat
// Two channels (docs/protocol.md, "Chat"): the players talk among themselves
// at the table and read the watchers' chat in a second tab; watchers see and write theirs only,
// under a name of their own. The server decides who reads what; the page just files each
// message under its channel.
// What you type stays in the input until the server has taken it: the echo of your own
// message clears it, and a refusal (too many messages, too long) leaves it there to send
// again. The message's id comes back with a refusal, so the page knows which one it was.
const CHAT_ANSWER_MS = 5000;
let chatSent = 0;
let chatInFlight = null; // {id, text, at}
const chatLists = { players: $("chat-messages"), watchers: $("chat-watchers") };
const chatPanels = { players: $("chat-players-panel"), watchers: $("chat-watchers-panel") };
const chatTabs = { players: $("chat-tab-players"), watchers: $("chat-tab-watchers") };
let chatShown = "players"; // the tab a player has open
let watchersUnread = 0;
// The recent chat the server sends after hello is history, not news: the presence frame that
// follows it marks the start of live messages, which alone count as unread.
let chatLive = false;

function seatedHere() {
  return mySeat() !== null;
}

/** The channel this page writes in: the players' while seated, else the watchers'. */
function myChannel() {
  return seatedHere() ? "players" : "watchers";
}

function renderChatPanel() {
  const seated = seatedHere();
  const shown = seated ? chatShown : "watchers";
  if (shown === "watchers") watchersUnread = 0;
  els.chatTabs.hidden = !seated;
  els.chatTitle.textContent = seated ? "Chat" : "Watchers' chat";
  for (const channel of ["players", "watchers"]) {
    const on = channel === shown;
    chatPanels[channel].hidden = !on;
    chatTabs[channel].setAttribute("aria-selected", String(on));
    chatTabs[channel].tabIndex = on ? 0 : -1;
  }
  els.chatUnread.hidden = !watchersUnread;
  els.chatUnread.textContent = watchersUnread ? String(watchersUnread) : "";
  // A player reads the watchers but writes at the table: no input under their tab.
  els.chatForm.hidden = seated && shown === "watchers";
  els.chatNote.textContent = !seated
    ? "The players talk among themselves; here you chat with the other watchers."
    : shown === "watchers" ? "The watchers talk here; you can read along." : "";
}

function showChatTab(channel, { focus = false } = {}) {
  chatShown = channel;
  renderChatPanel();
  if (focus) chatTabs[channel].focus();
}

for (const [channel, tab] of Object.entries(chatTabs)) {
  tab.addEventListener("click", () => showChatTab(channel));
  // The ARIA tabs pattern: the arrow keys move between the two tabs.
  tab.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    showChatTab(channel === "players" ? "watchers" : "players", { focus: true });
  });
}

function isMyChatEcho(msg) {
  return Boolean(chatInFlight && player && msg.text === chatInFlight.text && msg.name === player.name);
}

const chatSeen = new Set();
function addChat(msg) {
  // A reconnect (or taking a seat) replays the recent chat; show each message once.
  const channel = msg.channel === "watchers" ? "watchers" : "players";
  const key = `${channel}|${msg.at}|${msg.seat}|${msg.name}|${msg.text}`;
  if (msg.at && chatSeen.has(key)) return;
  chatSeen.add(key);
  if (isMyChatEcho(msg)) {
    if (els.chatInput.value.trim() === chatInFlight.text) els.chatInput.value = "";
    chatInFlight = null;
  }
  const list = chatLists[channel];
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const color = msg.seat !== undefined && msg.seat !== null && state ? seatInfo(msg.seat).color : "var(--accent-strong)";
  list.append(h("li", { "data-testid": "chat-message", "data-channel": channel },
    h("span", { class: "who", style: { color } }, `${msg.name || "?"}:`),
    h("span", {}, msg.text),
    h("span", { class: "muted small" }, ` ${clockTime(msg.at)}`),
  ));
  while (list.children.length > 200) list.firstElementChild.remove();
  if (nearBottom) list.scrollTop = list.scrollHeight;
  if (chatLive && channel === "watchers" && seatedHere() && chatShown !== "watchers") {
    watchersUnread += 1;
    renderChatPanel();
  }
}

els.chatForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = els.chatInput.value.trim();
  if (!text || !socket) return;
  // A watcher chats under a name of her own: the same question as for taking a seat.
  if (!player && !(await ensureGuest("Pick a name to chat with the other watchers."))) return;
  // Enter pressed again before the answer came is the same message, not a second one.
  if (chatInFlight?.text === text && Date.now() - chatInFlight.at < CHAT_ANSWER_MS) return;
  chatSent += 1;
  chatInFlight = { id: `chat-${chatSent}`, text, at: Date.now() };
  socket.chat(text, chatInFlight.id, myChannel());
});
renderChatPanel();

/**
 * The toast key of a refusal: the same refusal repeated replaces its toast. A rate limit's
 * sentence counts down ("Try again in 58 seconds."), so it is keyed by its code alone.
 */
function refusalKey(where, msg) {
  return msg.code === "rate_limited" ? `${where}|rate_limited` : `${where}|${msg.code}|${msg.message}`;
}

function chatRefused(msg) {
  chatInFlight = null;
  toast(msg.message || msg.code, { kind: "error", title: "Message not sent", key: refusalKey("chat", msg) });
  if (msg.code === "name_required") ensureGuest("Pick a name to chat with the other watchers.");
}

// ------------------------------------------------------------------ fair dice, privacy, rematch
function shortHash(hex) {
  return hex ? `${hex.slice(0, 8)}…` : "";
}

/**
 * The seed commitment in the header; once the match is over, the revealed seed too. Only for
 * games that roll or shuffle (`has_chance` in GET /api/games): a seal on a game without dice
 * would promise a check of nothing.
 */
function renderSeal() {
  const commitment = summary?.seed_commitment;
  const seed = summary?.seed;
  els.seal.hidden = (!commitment && !seed) || gameMeta()?.has_chance === false;
  if (els.seal.hidden) return;
  fill(els.seal,
    commitment
      ? h("span", {
        class: "seal-item", tabindex: "0", "data-testid": "seed-commitment", "data-full": commitment,
        title: `Dice seal: the SHA-256 fingerprint of the server's secret seed, published before the match started.\n${commitment}`,
        "aria-label": `Dice seal, the fingerprint of the server's secret seed: ${commitment}`,
      }, h("span", { class: "seal-k", "aria-hidden": "true" }, "dice seal"), h("code", { "aria-hidden": "true" }, shortHash(commitment)))
      : null,
    seed
      ? h("span", {
        class: "seal-item revealed", tabindex: "0", "data-testid": "seed", "data-full": seed,
        title: `The seed, revealed now that the match is over.\n${seed}`,
        "aria-label": `Revealed seed: ${seed}`,
      }, h("span", { class: "seal-k", "aria-hidden": "true" }, "seed"), h("code", { "aria-hidden": "true" }, shortHash(seed)))
      : null,
    seed ? h("button", { type: "button", class: "ghost small", popovertarget: "dice-help", "data-testid": "dice-help-button" }, "How are dice checked?") : null,
  );
  fill(els.diceHelpValues,
    commitment ? h("span", { class: "popover-value" }, "Fingerprint: ", h("code", {}, commitment)) : null,
    seed ? h("span", { class: "popover-value" }, "Seed: ", h("code", {}, seed)) : null,
    seed ? h("a", { href: `/replay/${encodeURIComponent(matchId)}` }, "Open the replay and press Verify") : null,
  );
}

let knownWatchToken = null;
/** Seated players of a private match get a link that lets friends watch. */
function renderWatchLink() {
  if (summary?.watch_token) knownWatchToken = summary.watch_token; // lobby broadcasts omit it
  const seated = Boolean(player && summary?.seats?.some((s) => s.player_id === player.id));
  const show = Boolean(summary?.private && seated && knownWatchToken);
  els.watchPanel.hidden = !show;
  if (show) {
    els.watchLink.value = `${location.origin}/match/${encodeURIComponent(summary.id)}?watch=${encodeURIComponent(knownWatchToken)}`;
  }
}

const nonceSent = new Set();
/**
 * Fair dice: a seat without this browser's random share (a rematch lobby is created for
 * everyone at once) is joined again, same seat, with a fresh nonce. Once per seat and page.
 */
async function topUpNonce() {
  if (!summary || summary.status !== "open" || !player || !Array.isArray(summary.nonces)) return;
  const seat = summary.seats.find((s) => s.player_id === player.id);
  if (!seat || summary.nonces[seat.seat] !== false) return;
  const key = `${summary.id}|${seat.seat}`;
  if (nonceSent.has(key)) return;
  nonceSent.add(key);
  try {
    applySummary(await api("POST", `/matches/${encodeURIComponent(matchId)}/join`, { seat: seat.seat, nonce: newNonce() }));
  } catch (error) {
    console.warn("Could not add this browser's share of the dice:", error);
  }
}

function renderSummaryExtras() {
  els.privateTag.hidden = !summary?.private;
  renderSeal();
  renderChatPanel();
  renderWatchLink();
  renderEndControl();
  if (summary?.rematch) loadRematch(summary.rematch);
  if (state?.outcome) renderGameOver();
  topUpNonce();
}

async function playAgain(button) {
  button.disabled = true;
  button.textContent = "Setting the table…";
  try {
    const next = await api("POST", `/matches/${encodeURIComponent(matchId)}/rematch`, {});
    window.location.assign(`/match/${encodeURIComponent(next.id)}`);
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not start a rematch" });
    button.disabled = false;
    button.textContent = "Play again";
  }
}

let refusedAsPrivate = false;
/** The socket's hello was refused: a private match, and this visitor has no seat or watch link. */
function privateRefused() {
  refusedAsPrivate = true;
  if (summary?.status === "open") {
    // Friends with the invite link may still take a seat (then the socket says hello again).
    els.lobbyHint.textContent = "This lobby is private. Take a free seat to join the table.";
    return;
  }
  socket?.close();
  els.layout.hidden = true;
  els.notFound.hidden = false;
  els.notFound.querySelector("h2").textContent = "This match is private";
  els.notFoundText.textContent = "Only its players and people with its watch link can watch it. Ask a player for the watch link.";
  els.conn.hidden = true;
}

let rematchShown = null;
function showRematch(next) {
  if (!next?.id || next.id === matchId) return;
  if (summary) summary.rematch = next.id;
  rematchShown = next.id;
  const me = player?.id;
  const seated = Boolean(me && next.seats?.some((s) => s.player_id === me));
  const hostName = next.host_name || next.seats?.find((s) => s.player_id && s.player_id === next.host)?.name || "Someone";
  const starter = me && next.host === me ? "You" : hostName;
  els.rematch.hidden = false;
  fill(els.rematch,
    h("span", { class: "b-title", "data-testid": "rematch-text" }, `${starter} started a rematch`),
    h("span", { class: "b-actions" },
      h("a", { class: "button small primary", href: withWatch(`/match/${encodeURIComponent(next.id)}`, seated ? null : watchToken), "data-testid": "join-rematch" },
        seated ? "Join" : "Have a look")),
    h("span", { class: "b-detail" }, "Same game, same players, everyone one seat along."),
  );
  if (state?.outcome) renderGameOver();
}

/** A rematch known from the summary (a reload after it was made): its lobby for the banner. */
async function loadRematch(id) {
  if (!id || rematchShown === id) return;
  rematchShown = id;
  try {
    showRematch(await api("GET", withWatch(`/matches/${encodeURIComponent(id)}`, watchToken)));
  } catch {
    rematchShown = null;
  }
}

els.privateToggle.addEventListener("change", async () => {
  const want = els.privateToggle.checked;
  els.privateToggle.disabled = true;
  try {
    applySummary(await api("PATCH", `/matches/${encodeURIComponent(matchId)}`, { private: want }));
    toast(want
      ? "Private: the match is off the lobby list, and only players and people with the watch link can watch."
      : "Public again: the match is listed in the lobby and anyone with the link can watch.", { kind: "ok" });
  } catch (error) {
    els.privateToggle.checked = !want;
    toast(error.message, { kind: "error", title: "Could not change who can watch" });
  } finally {
    els.privateToggle.disabled = false;
  }
});

els.copyWatch.addEventListener("click", async () => {
  const ok = await copyText(els.watchLink.value);
  els.copyWatch.textContent = ok ? "Copied!" : "Copy failed";
  if (!ok) { els.watchLink.focus(); els.watchLink.select(); }
  setTimeout(() => { els.copyWatch.textContent = "Copy"; }, 1800);
});
els.watchLink.addEventListener("focus", () => els.watchLink.select());

/**
 * The page's socket: MatchSocket plus what socket.js does not know yet: the watch token in
 * every hello and the `rematch` message (docs/replays.md), and the `seat_change` and
 * `welcome_back` messages of computer players standing in for absent friends.
 */
class MatchChannel extends MatchSocket {
  constructor(id, { watch = null, onRematch, onSeatChange, onWelcomeBack, ...options } = {}) {
    super(id, options);
    this.watch = watch;
    this.onRematch = onRematch;
    this.onSeatChange = onSeatChange;
    this.onWelcomeBack = onWelcomeBack;
  }

  connect() {
    super.connect();
    const ws = this.ws;
    if (!ws || !this.watch) return;
    // Every hello (the first, and the one after a forgotten guest) goes through ws.send.
    const send = ws.send.bind(ws);
    ws.send = (text) => {
      if (typeof text === "string" && text.startsWith('{"type":"hello"')) {
        const hello = JSON.parse(text);
        hello.watch = this.watch;
        return send(JSON.stringify(hello));
      }
      return send(text);
    };
  }

  chat(text, id, channel) {
    // Offline, the text waits in the outbox and goes without its id or channel (the server
    // files it under the sender's own channel; a refusal then shows as a plain error); the
    // input keeps it until the echo either way.
    if (!this._send({ type: "chat", text, id, channel })) this.outbox.push(text);
  }

  _handle(msg) {
    if (msg?.type === "rematch") {
      this.onRematch?.(msg.match);
      return;
    }
    if (msg?.type === "seat_change") {
      this.onSeatChange?.(msg);
      return;
    }
    if (msg?.type === "welcome_back") {
      this.onWelcomeBack?.(msg);
      return;
    }
    super._handle(msg);
  }
}

// ------------------------------------------------------------------ connection
function onStatus(status, detail) {
  els.conn.dataset.state = status;
  els.conn.textContent = {
    connecting: "Connecting…", open: "Live", reconnecting: "Reconnecting…", closed: "Offline",
  }[status] || status;
  els.reconnect.hidden = status !== "reconnecting";
  if (status === "closed" && detail) toast(detail, { kind: "error", title: "Disconnected" });
}

function connect() {
  socket = new MatchChannel(matchId, {
    watch: watchToken,
    onRematch: showRematch,
    onSeatChange,
    onWelcomeBack,
    guest: player?.id || null,
    onStatus,
    onLobby: (match) => applySummary(match),
    onSnapshot: (snap) => {
      clearTimeout(snapshotTimer);
      els.moveError.hidden = true;
      showState(snap, []);
      loadLog(snap.version ?? 0);
    },
    onPatch: (next, events, version) => {
      if (events.length) els.moveError.hidden = true;
      addToLog(version, events, { fresh: true });
      showState(next, events);
    },
    onPresence: (msg) => {
      presence = msg;
      presenceAt = performance.now();
      chatLive = true;
      if (summary?.status === "open" && !state) renderLobby();
      else renderPlayers();
    },
    onChat: addChat,
    onUnauthorized: () => {
      forgetPlayer();
      player = null;
      showName();
      toast("Your guest pass expired on this server; you are watching. Take a seat to get a new one.", { kind: "error" });
    },
    onRefused: (code) => {
      if (code === 4403) privateRefused(); // the host made the match private while we watched
    },
    onError: (msg) => {
      if (msg.id && msg.id === chatInFlight?.id) { chatRefused(msg); return; }
      if (msg.code === "forbidden" && !state) { privateRefused(); return; }
      toast(msg.message || msg.code, { kind: "error", key: refusalKey("socket", msg) });
    },
  });
  socket.connect();
}

// A console hook for the curious (and for tests): arcade.submit({...}) sends a raw move.
window.arcade = {
  submit: (move) => submit(move),
  get state() { return state; },
  get version() { return socket?.version ?? null; },
};

// ------------------------------------------------------------------ start
async function main() {
  showName();
  if (!matchId) {
    els.notFound.hidden = false;
    els.title.textContent = "No match";
    return;
  }
  const [known, gameList] = await Promise.all([
    verifyPlayer(),
    api("GET", "/games", undefined, { auth: false }).catch(() => []),
  ]);
  player = known;
  games = gameList || [];
  showName();
  try {
    applySummary(await api("GET", withWatch(`/matches/${encodeURIComponent(matchId)}`, watchToken)));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      els.notFound.hidden = false;
      els.title.textContent = "Match not found";
      els.conn.hidden = true;
      return;
    }
    if (error instanceof ApiError && error.status === 403) {
      els.notFound.hidden = false;
      els.notFound.querySelector("h2").textContent = "This match is private";
      els.notFoundText.textContent = "Only its players and people with its watch link can watch it. Ask a player for the watch link.";
      els.title.textContent = "Private match";
      els.conn.hidden = true;
      return;
    }
    toast(error.message, { kind: "error", title: "Could not load the match" });
  }
  connect();
}

main();
