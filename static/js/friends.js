// The home page's friends (issue 18, item 5; docs/protocol.md section 16): invitations to
// open tables, and the people you played with recently, each with "Play again", which opens
// a table of the game you last played with them and invites them. Names are text, never HTML.
import { api, loadPlayer } from "./api.js";
import { h, morph, timeAgo, toast } from "./ui.js";

const els = {
  invitedPanel: document.getElementById("invitations-panel"),
  invited: document.getElementById("invitations-list"),
  friendsPanel: document.getElementById("friends-panel"),
  friends: document.getElementById("friends-list"),
};
const REFRESH_MS = 30_000;
let games = null;

function invitationRow(invite) {
  const url = `/match/${encodeURIComponent(invite.match_id)}`;
  return h("li", { class: "match-row", "data-testid": "invitation", "data-match-id": invite.match_id },
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
  return h("li", { class: "match-row", "data-testid": "friend", "data-player-id": friend.id },
    h("div", {},
      h("div", { class: "m-title" }, friend.name),
      h("div", { class: "m-meta" },
        `${friend.last_game_name} · ${timeAgo(friend.last_played_at)} · ${friend.matches === 1 ? "1 table" : `${friend.matches} tables`}`)),
    h("button", { type: "button", class: "primary", "data-testid": "play-again",
      "aria-label": `Play ${friend.last_game_name} again with ${friend.name}`,
      onclick: (e) => playAgain(friend, e.currentTarget) }, "Play again"));
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

async function playAgain(friend, button) {
  button.disabled = true;
  try {
    games ??= await api("GET", "/games");
    const game = games.find((g) => g.id === friend.last_game);
    const seats = Math.max(2, game?.min_players ?? 2);
    const made = await api("POST", "/matches", { game: friend.last_game, seats, invite: [friend.id] });
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
    els.friendsPanel.hidden = !friends.length;
    morph(els.friends, friends.map(friendRow));
  } catch {
    // Not signed in yet, rate limited or offline: the lists stay as they were.
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
document.addEventListener("visibilitychange", refresh);
window.addEventListener("arcade:player", refresh);
