// The home page's friends (issue 18, item 5; docs/protocol.md section 16): invitations to
// open tables, and the people you played with recently, each with "Play again", which opens
// a table of the game you last played with them and invites them. Pick several and "Play
// again with them" opens one table for all of you. Names are text, never HTML.
import { api, loadPlayer } from "./api.js";
import { h, morph, timeAgo, toast } from "./ui.js";

const els = {
  invitedPanel: document.getElementById("invitations-panel"),
  invited: document.getElementById("invitations-list"),
  friendsPanel: document.getElementById("friends-panel"),
  friends: document.getElementById("friends-list"),
  together: document.getElementById("friends-together"),
  playTogether: document.getElementById("play-together"),
};
const REFRESH_MS = 30_000;
let games = null;
let friendsNow = [];
const picked = new Set(); // ids of the friends ticked for one table together

function invitationRow(invite) {
  const url = `/match/${encodeURIComponent(invite.match_id)}`;
  // data-key: a refresh may reorder the rows; each button must stay with its own invitation.
  return h("li", { class: "match-row", "data-testid": "invitation", "data-key": invite.match_id,
    "data-match-id": invite.match_id },
    h("div", {},
      h("div", { class: "m-title" }, invite.game_name),
      h("div", { class: "m-meta" }, `${invite.host} invited you · ${timeAgo(invite.invited_at)}`)),
    h("span", { class: "row-actions" },
      h("a", { class: "button primary", href: url, "data-testid": "invitation-open" }, "Join"),
      h("button", { type: "button", class: "ghost", "data-testid": "invitation-decline",
        "aria-label": `Not now: ${invite.host}'s ${invite.game_name} table`,
        onclick: (e) => decline(invite, e.currentTarget) }, "Not now")));
}

function friendRow(friend) {
  return h("li", { class: "match-row", "data-testid": "friend", "data-key": friend.id, "data-player-id": friend.id },
    h("label", { class: "friend-pick" },
      h("input", { type: "checkbox", "data-testid": "friend-pick", checked: picked.has(friend.id),
        onchange: (e) => pick(friend.id, e.currentTarget.checked) }),
      h("span", {},
        h("span", { class: "m-title" }, friend.name),
        h("span", { class: "m-meta" },
          `${friend.last_game_name} · ${timeAgo(friend.last_played_at)} · ${friend.matches === 1 ? "1 table" : `${friend.matches} tables`}`))),
    h("button", { type: "button", class: "primary", "data-testid": "play-again",
      "aria-label": `Play ${friend.last_game_name} again with ${friend.name}`,
      onclick: (e) => playAgain([friend], e.currentTarget) }, "Play again"));
}

function pick(id, on) {
  if (on) picked.add(id); else picked.delete(id);
  showTogether();
}

/** The ticked friends still in the list, and the game you played last with one of them. */
function together() {
  const chosen = friendsNow.filter((f) => picked.has(f.id));
  const latest = chosen.reduce((a, b) => (a && a.last_played_at >= b.last_played_at ? a : b), null);
  return { chosen, latest };
}

function showTogether() {
  const { chosen, latest } = together();
  els.together.hidden = chosen.length < 2;
  if (chosen.length >= 2) {
    els.playTogether.textContent = `Play ${latest.last_game_name} with ${chosen.length} friends`;
  }
}

async function decline(invite, button) {
  button.disabled = true;
  try {
    await api("DELETE", `/players/me/invitations/${encodeURIComponent(invite.match_id)}`);
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not decline" });
  }
  refresh();
}

async function playAgain(chosen, button) {
  const latest = chosen.reduce((a, b) => (a.last_played_at >= b.last_played_at ? a : b));
  button.disabled = true;
  try {
    games ??= await api("GET", "/games");
    const game = games.find((g) => g.id === latest.last_game);
    const seats = Math.max(game?.min_players ?? 2, chosen.length + 1);
    if (game && seats > game.max_players) {
      toast(`${game.title} seats ${game.max_players} at most: pick fewer friends.`, { kind: "error", title: "Too many for one table" });
      button.disabled = false;
      return;
    }
    const made = await api("POST", "/matches", { game: latest.last_game, seats, invite: chosen.map((f) => f.id) });
    location.assign(`/match/${encodeURIComponent(made.id)}`);
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not open the table" });
    button.disabled = false;
  }
}

async function refresh() {
  if (!loadPlayer() || document.hidden) return;
  try {
    const [{ invitations }, { friends }] = await Promise.all([
      api("GET", "/players/me/invitations"), api("GET", "/players/me/friends"),
    ]);
    els.invitedPanel.hidden = !invitations.length;
    morph(els.invited, invitations.map(invitationRow));
    friendsNow = friends;
    els.friendsPanel.hidden = !friends.length;
    morph(els.friends, friends.map(friendRow));
    showTogether();
  } catch {
    // Not signed in yet, rate limited or offline: the lists stay as they were.
  }
}

els.playTogether.addEventListener("click", () => playAgain(together().chosen, els.playTogether));
refresh();
setInterval(refresh, REFRESH_MS);
document.addEventListener("visibilitychange", refresh);
window.addEventListener("arcade:player", refresh);
