// The coach of a guided first match (app/tutorials/): above the board it says what the
// current step asks and why, outlines what to click (one selector per click, in order),
// explains what the last moves did, turns an off-script refusal into the step's hint, and
// after the last step says "You're ready" with a button that opens a real lobby.
//
// The step is the match's version: step k is move k+1. Everything is derived from the state
// the match page shows, so a reload in the middle of a lesson picks up where it was.

import { api, newNonce } from "./api.js";
import { h, fill } from "./ui.js";

const TARGET = "data-coach";

function ensureCss() {
  if (document.querySelector("link[data-coach-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: new URL("../css/coach.css", import.meta.url).href, "data-coach-css": "" }));
}

function visible(element) {
  return element.isConnected && element.getClientRects().length > 0;
}

export async function startCoach({ family, mountBefore, onDismiss }) {
  ensureCss();
  const lesson = await api("GET", `/tutorials/${encodeURIComponent(family)}`);
  const progress = h("span", { class: "coach-progress", "data-testid": "coach-progress" });
  const afterText = h("p", { class: "coach-after", "data-testid": "coach-after", hidden: true });
  const sayText = h("p", { class: "coach-say", "data-testid": "coach-say" });
  const hintText = h("p", { class: "coach-hint", "data-testid": "coach-hint", role: "alert", hidden: true });
  const ready = h("div", { class: "coach-ready", "data-testid": "tutorial-ready", hidden: true });
  const panel = h("section", { class: "coach", "data-testid": "coach", "aria-label": "Lesson", "aria-live": "polite" },
    h("div", { class: "coach-head" }, h("strong", {}, lesson.title), progress),
    afterText, sayText, hintText, ready);
  mountBefore.before(panel);

  let version = -1;
  let clicks = [];
  let clicked = 0;
  let marked = null;

  function unmark() {
    for (const element of document.querySelectorAll(`[${TARGET}]`)) element.removeAttribute(TARGET);
    marked = null;
  }

  // Outlines the element for the next click of this step, once it is on the page.
  function mark() {
    // Where the lesson is, for whoever watches the page (a test waits for it to change).
    panel.dataset.step = `${version}:${clicked}`;
    if (marked && marked.isConnected && marked.hasAttribute(TARGET)) return;
    unmark();
    const selector = clicks[clicked];
    if (!selector) return;
    const element = [...document.querySelectorAll(selector)].find(visible);
    if (!element) return;
    element.setAttribute(TARGET, "target");
    marked = element;
    element.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }

  let pending = false;
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; mark(); });
  });
  observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden", "class", "disabled", "aria-pressed"] });

  document.addEventListener("click", (event) => {
    if (!marked || !marked.contains(event.target)) return;
    clicked += 1;
    // The click's own handlers run first (they may draw what the next click needs).
    setTimeout(() => { marked = null; mark(); }, 0);
  }, true);

  function afterTexts(upTo) {
    // What happened since the learner last moved (her move, then the computers' answers).
    let from = upTo - 1;
    while (from > 0 && lesson.steps[from - 1].seat !== lesson.learner) from -= 1;
    return lesson.steps.slice(Math.max(from, 0), upTo).map((step) => step.after).filter(Boolean);
  }

  async function openLobby(button) {
    button.disabled = true;
    try {
      const match = await api("POST", "/matches", { game: lesson.game, seats: Math.max(2, lesson.players), nonce: newNonce() });
      location.assign(`/match/${encodeURIComponent(match.id)}`);
    } catch (error) {
      fill(hintText, error.message);
      hintText.hidden = false;
      button.disabled = false;
    }
  }

  function showReady() {
    unmark();
    clicks = [];
    sayText.hidden = true;
    progress.textContent = "Done";
    const open = h("button", { type: "button", class: "primary", "data-testid": "tutorial-open-lobby" }, "Open a real table");
    open.addEventListener("click", () => openLobby(open));
    const stay = h("button", { type: "button", "data-testid": "tutorial-keep-playing" }, "Finish this match");
    stay.addEventListener("click", () => { panel.remove(); observer.disconnect(); onDismiss?.(); });
    fill(ready,
      h("p", { class: "coach-ready-title" }, "You're ready!"),
      h("p", {}, lesson.ready),
      h("div", { class: "coach-actions" }, open, stay));
    ready.hidden = false;
  }

  return {
    element: panel,
    onState(state) {
      if (!state || state.version === version) return;
      version = state.version;
      hintText.hidden = true;
      const said = afterTexts(Math.min(version, lesson.steps.length));
      fill(afterText, said.join(" "));
      afterText.hidden = said.length === 0;
      const step = lesson.steps[version];
      if (!step || state.status !== "active") {
        if (version >= lesson.steps.length) showReady();
        return;
      }
      progress.textContent = `Step ${version + 1} of ${lesson.steps.length}`;
      sayText.hidden = false;
      const mine = step.seat === lesson.learner;
      panel.dataset.waiting = mine ? "false" : "true";
      sayText.textContent = step.say || (mine ? "" : "The computer is moving…");
      clicks = mine ? step.highlight : [];
      clicked = 0;
      marked = null;
      mark();
    },
    /** An off-script refusal: its message is the step's hint. True when it was one. */
    onRefused(error) {
      if (error?.code !== "off_script") return false;
      hintText.textContent = error.message;
      hintText.hidden = false;
      clicked = 0;
      marked = null;
      mark();
      return true;
    },
  };
}
