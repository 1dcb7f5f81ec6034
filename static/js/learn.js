// The lesson page: "Start the lesson" opens a guided match (POST /api/tutorials/{family}/matches)
// and goes to it; the match page's coach (tutorial-coach.js) takes it from there.

import { api, ensurePlayer } from "./api.js";
import { askName, logoSvg } from "./ui.js";
import "./turns.js"; // the header's "Your turn" count

document.getElementById("brand-logo")?.replaceWith(logoSvg());

const start = document.querySelector('[data-testid="lesson-start"]');
const problem = document.querySelector('[data-testid="lesson-error"]');

async function begin() {
  start.disabled = true;
  problem.hidden = true;
  try {
    const player = await ensurePlayer(() => askName({ title: "What should we call you?", confirm: "Start" }));
    if (!player) return;
    const match = await api("POST", `/tutorials/${encodeURIComponent(start.dataset.family)}/matches`, {});
    location.assign(`/match/${encodeURIComponent(match.id)}`);
  } catch (error) {
    problem.textContent = error.message || "The lesson could not start; please try again.";
    problem.hidden = false;
  } finally {
    start.disabled = false;
  }
}

if (start) {
  start.addEventListener("click", begin);
  start.disabled = false;
}
