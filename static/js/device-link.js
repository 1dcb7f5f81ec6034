// "Continue on another device" (issue 18, item 4; docs/protocol.md section 16): this page
// makes a one-time link and shows it as a QR code; the other device opens it (the token is in
// the #fragment, so nothing is used up until that page says yes with a POST) and becomes the
// same player. The QR code is drawn from the server's module rows as SVG rectangles.
import { api, loadPlayer, savePlayer } from "./api.js";
import { copyText, h, svg, toast } from "./ui.js";

const panel = document.getElementById("device-panel");
const output = document.getElementById("device-link-output");
const makeButton = document.getElementById("device-link-make");
const claimPanel = document.getElementById("device-claim");
const claimButton = document.getElementById("device-link-claim");
const claimText = document.getElementById("device-claim-text");

function qrCode(rows) {
  const size = rows.length + 8; // four modules of quiet zone on each side
  const dark = [];
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x += 1) {
      if (row[x] === "1") dark.push(svg("rect", { x: x + 4, y: y + 4, width: 1, height: 1 }));
    }
  });
  return svg("svg", { class: "qr-code", viewBox: `0 0 ${size} ${size}`, role: "img",
    "aria-label": "QR code of the link", "data-testid": "device-link-qr", "shape-rendering": "crispEdges" },
    svg("rect", { width: size, height: size, class: "qr-light" }), ...dark);
}

async function makeLink() {
  makeButton.disabled = true;
  try {
    const link = await api("POST", "/players/me/device-link");
    const minutes = Math.round((new Date(link.expires_at) - Date.now()) / 60000);
    const field = h("input", { type: "text", readonly: true, value: link.url, class: "device-url",
      "aria-label": "Link for your other device", "data-testid": "device-link-url" });
    output.replaceChildren(
      qrCode(link.qr),
      h("p", { class: "small" }, `Scan it or open the link on your other device within ${minutes} minutes. It works once.`),
      h("div", { class: "device-row" }, field,
        h("button", { type: "button", "data-testid": "device-link-copy",
          onclick: async () => toast((await copyText(link.url)) ? "Link copied." : "Select the link and copy it.") }, "Copy")),
    );
    output.hidden = false;
  } catch (error) {
    toast(error.message, { kind: "error", title: "Could not make a link" });
  } finally {
    makeButton.disabled = false;
  }
}

async function claim(token) {
  claimButton.disabled = true;
  try {
    const me = await api("POST", "/players/device-link/claim", { token });
    savePlayer(me);
    location.replace("/"); // the home page again, as her, without the link
  } catch (error) {
    toast(error.message, { kind: "error", title: "This link did not work" });
    claimPanel.hidden = true;
    history.replaceState(null, "", location.pathname + location.search);
  } finally {
    claimButton.disabled = false;
  }
}

const token = new URLSearchParams(location.hash.slice(1)).get("device");
if (token) {
  const here = loadPlayer();
  claimText.textContent = here
    ? `This browser plays as ${here.name}. Continue here as the player who made the link instead?`
    : "Continue on this device as the player who made the link?";
  claimPanel.hidden = false;
  claimButton.addEventListener("click", () => claim(token));
}
panel.hidden = false;
makeButton.addEventListener("click", makeLink);
window.addEventListener("arcade:player", () => { panel.hidden = false; });
