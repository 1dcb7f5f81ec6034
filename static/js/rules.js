// Rules pages: draws each diagram with its game's own renderer, read-only. The server played
// the diagram through the rules module (app/rules_pages/diagrams.py) and put the position
// before and after its last move in the page as JSON; the renderer animates that move and
// then marks what the caption points at. Without JavaScript the caption stays as the text.

import { h, logoSvg } from "./ui.js";
import "./turns.js"; // the header's "Your turn" count

document.getElementById("brand-logo")?.replaceWith(logoSvg());

const refuse = () => Promise.reject(new Error("This is a diagram: moves cannot be made here."));

async function draw(figure) {
  const board = figure.querySelector("[data-diagram-board]");
  const data = JSON.parse(figure.querySelector("[data-diagram-data]").textContent);
  const module = await import(`./games/${encodeURIComponent(figure.dataset.game)}.js`);
  const renderer = module.createRenderer(board, { you: data.viewer, readOnly: true, diagram: true, submit: refuse });
  const play = async () => {
    await renderer.update(data.before, []);
    await renderer.update(data.after, data.events);
    renderer.highlight?.(data.highlight);
    figure.dataset.drawn = "true";
  };
  await play();
  if (data.events.length) {
    const again = h("button", { type: "button", class: "small", "data-testid": "diagram-again" }, "Show the move again");
    again.addEventListener("click", async () => {
      again.disabled = true;
      delete figure.dataset.drawn;
      try { await play(); } finally { again.disabled = false; }
    });
    board.after(h("div", { class: "rules-diagram-tools" }, again));
  }
}

for (const figure of document.querySelectorAll("figure.rules-diagram")) {
  draw(figure).catch((error) => {
    console.error(error);
    figure.dataset.drawn = "failed";
  });
}

// Inside the match page's Rules panel, links that leave the page open beside the match.
if (document.body.classList.contains("rules-embed")) {
  for (const link of document.querySelectorAll("a[href]")) {
    if (!link.getAttribute("href").startsWith("#")) link.target = "_blank";
  }
}
