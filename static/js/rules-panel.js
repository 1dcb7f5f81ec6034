// The match page's Rules button: the game's rules page in a panel beside the board (a sheet
// over the lower part of the screen on a phone), so a player can look a rule up without
// leaving the match. The page is the server's embed form of /games/{id}/rules in a frame of
// our own origin; the board under it is never touched, so whatever she had selected stays.

import { h, setAttrs } from "./ui.js";

let mounted = null;

/** Shows the Rules button for `gameId` (idempotent: the match page calls it on every summary). */
export function mountRulesPanel(gameId) {
  if (!gameId) return;
  if (mounted?.gameId === gameId) return;
  mounted?.destroy();
  mounted = makePanel(gameId);
}

function makePanel(gameId) {
  const rulesUrl = `/games/${encodeURIComponent(gameId)}/rules`;
  const button = document.getElementById("rules-button");
  const lobbyLink = document.getElementById("about-rules");
  if (lobbyLink) {
    setAttrs(lobbyLink, { href: rulesUrl });
    lobbyLink.hidden = false;
  }
  if (!button) return { gameId, destroy() {} };

  const title = h("h2", { id: "rules-panel-title", class: "rules-panel-title" }, "Rules");
  const close = h("button", {
    type: "button", class: "ghost rules-panel-close", "data-testid": "rules-close",
    "aria-label": "Close the rules", onclick: () => hide(),
  }, "✕");
  const newTab = h("a", {
    class: "small rules-panel-tab", href: rulesUrl, target: "_blank", rel: "noopener",
    "data-testid": "rules-new-tab",
  }, "Open in a new tab");
  const frameHolder = h("div", { class: "rules-panel-body" });
  const panel = h("section", {
    id: "rules-panel", class: "rules-panel", role: "dialog", "aria-modal": "false",
    "aria-labelledby": "rules-panel-title", "data-testid": "rules-panel", hidden: true,
  },
  h("div", { class: "rules-panel-head" }, title, newTab, close),
  frameHolder);
  document.body.append(panel);

  let frame = null;
  function ensureFrame() {
    if (frame) return;
    frame = h("iframe", {
      class: "rules-panel-frame", src: `${rulesUrl}?embed=1`, title: "The rules of this game",
      "data-testid": "rules-frame",
    });
    // Escape inside the frame does not reach this page: listen in the frame too (same origin).
    frame.addEventListener("load", () => {
      try {
        frame.contentWindow.document.addEventListener("keydown", onKey);
      } catch {
        // a frame that is not ours (an error page elsewhere): the close button still works
      }
    });
    frameHolder.append(frame);
  }

  function show() {
    ensureFrame();
    panel.hidden = false;
    document.body.classList.add("rules-open");
    button.setAttribute("aria-expanded", "true");
    close.focus();
  }

  function hide() {
    if (panel.hidden) return;
    panel.hidden = true;
    document.body.classList.remove("rules-open");
    button.setAttribute("aria-expanded", "false");
    button.focus();
  }

  function onKey(event) {
    if (event.key === "Escape" && !panel.hidden) {
      event.preventDefault();
      hide();
    }
  }

  function toggle() {
    if (panel.hidden) show(); else hide();
  }

  button.addEventListener("click", toggle);
  document.addEventListener("keydown", onKey);
  button.setAttribute("aria-controls", "rules-panel");
  button.setAttribute("aria-expanded", "false");
  button.hidden = false;

  return {
    gameId,
    destroy() {
      button.removeEventListener("click", toggle);
      document.removeEventListener("keydown", onKey);
      document.body.classList.remove("rules-open");
      panel.remove();
    },
  };
}
