// Small DOM helpers shared by every page: element builder, toasts, the name dialog, clipboard.

import { randomName } from "./names.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// Attributes whose value the browser follows as a URL: a "javascript:" one would run script.
const URL_ATTRIBUTES = new Set(["href", "src", "xlink:href", "action", "formaction", "srcdoc"]);
// What a URL starts with once the browser has dropped the whitespace and control characters
// it ignores (so "java\tscript:" counts too).
const SCRIPT_URL = /^(javascript|vbscript|data):/i;

function refuseScriptUrl(key, value) {
  if (key === "srcdoc") throw new Error("srcdoc is HTML: build the frame's document from nodes");
  if (SCRIPT_URL.test(value.replace(/[\u0000-\u0020]/g, ""))) throw new Error(`Refused a script URL in ${key}`);
}

/**
 * Sets attributes the way h() does, on an element that already exists. Untrusted text only
 * ever becomes text or a plain attribute value: an on* attribute takes a function (a string
 * would be script), a URL attribute refuses script URLs, and a style string goes through the
 * CSSOM (the Content-Security-Policy forbids inline style attributes).
 */
export function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.toLowerCase().startsWith("on")) {
      if (typeof value !== "function") throw new Error(`${key} must be a function, not a string of script`);
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key === "style") {
      if (typeof value === "object") Object.assign(node.style, value);
      else node.style.cssText = String(value);
    } else if (key === "dataset") Object.assign(node.dataset, value);
    else {
      const text = value === true ? "" : String(value);
      if (URL_ATTRIBUTES.has(key.toLowerCase())) refuseScriptUrl(key.toLowerCase(), text);
      node.setAttribute(key, text);
    }
  }
  return node;
}

function childNodes(children) {
  return children.flat(Infinity)
    .filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
}

function append(node, children) {
  for (const child of childNodes(children)) node.append(child);
  return node;
}

/** h("button", {class: "primary", onclick}, "Start") */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  return append(node, children);
}

/** svg("rect", {x: 0, y: 0}) */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  return append(node, children);
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Replaces a node's children; like replaceChildren but skipping null/false children. */
export function fill(node, ...children) {
  clear(node);
  return append(node, children);
}

/**
 * Like fill, but merges the fresh children into the live ones instead of replacing them, for
 * views re-rendered on every state update. A rebuilt button is a new element: a click pressed
 * on the old one and released on its copy is lost, and keyboard focus drops. With morph, what
 * the render leaves unchanged stays untouched and a control stays the same element while its
 * key does.
 *
 * Key rule: a live element is reused for a fresh one with the same tag, data-testid, data-key
 * and data-move (text for text); elements with the same key pair up in order. A reused element
 * gets the fresh attributes and, recursively, children, but KEEPS ITS OLD EVENT LISTENERS. So
 * everything an element's listeners do must follow from its key: put the move a button sends
 * in data-move, or a data-key that is unique for what its handler does, and make an element
 * with listeners differ in key from one without (a button vs a div, data-move only when
 * there is a move). Only attributes are merged, not properties such as an input's value.
 * A child that already is a child of `node` stays itself.
 */
export function morph(node, ...children) {
  const focused = node.contains(document.activeElement) ? document.activeElement : null;
  mergeChildren(node, childNodes(children));
  // Moving a node to a new place blurs it; the element is the same, so it keeps the focus.
  if (focused && focused.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
  return node;
}

function morphKey(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return `#${node.nodeType}`;
  const data = (name) => node.getAttribute(`data-${name}`) ?? "";
  return `${node.tagName}|${data("testid")}|${data("key")}|${data("move")}`;
}

function mergeChildren(parent, fresh) {
  const staying = new Set(fresh.filter((child) => child.parentNode === parent));
  const reusable = new Map();
  for (const old of parent.childNodes) {
    if (staying.has(old)) continue;
    const key = morphKey(old);
    if (!reusable.has(key)) reusable.set(key, []);
    reusable.get(key).push(old);
  }
  const wanted = fresh.map((child) => {
    if (staying.has(child)) return child;
    const old = reusable.get(morphKey(child))?.shift();
    return old ? mergeNode(old, child) : child;
  });
  const kept = new Set(wanted);
  for (const old of [...parent.childNodes]) if (!kept.has(old)) old.remove();
  // Kept nodes are already in order unless the render reordered them: only then do they move.
  wanted.forEach((child, i) => {
    const there = parent.childNodes[i] || null;
    if (there !== child) parent.insertBefore(child, there);
  });
}

function mergeNode(old, fresh) {
  if (old.isEqualNode(fresh)) return old;
  if (old.nodeType === Node.TEXT_NODE) { old.data = fresh.data; return old; }
  if (old.nodeType !== Node.ELEMENT_NODE) return fresh;
  for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of fresh.attributes) {
    if (old.getAttribute(name) === value) continue;
    // setAttribute("style") is an inline style the Content-Security-Policy blocks; the CSSOM is not.
    if (name === "style") old.style.cssText = value;
    else old.setAttribute(name, value);
  }
  mergeChildren(old, [...fresh.childNodes]);
  return old;
}

// ---------------------------------------------------------------- toasts
function toastRegion() {
  let region = document.getElementById("toasts");
  if (!region) {
    region = h("div", { id: "toasts", class: "toasts", "aria-live": "polite" });
    document.body.append(region);
  }
  return region;
}

/**
 * Shows a short message at the bottom; errors stay longer and are announced assertively.
 * `key`: a toast with the same key still on screen is replaced instead of stacked on (the
 * same refusal repeated must not pile up over the board); the new one counts the repeats.
 */
export function toast(message, { kind = "info", title, timeout, key } = {}) {
  const region = toastRegion();
  const previous = key ? [...region.children].find((old) => old.dataset.toastKey === key) : null;
  const count = previous ? Number(previous.dataset.count || 1) + 1 : 1;
  const item = h(
    "div",
    {
      class: `toast ${kind}`,
      role: kind === "error" ? "alert" : "status",
      "data-testid": kind === "error" ? "toast-error" : "toast",
      "data-toast-key": key,
      "data-count": count,
    },
    h("span", { class: "toast-text" },
      title ? h("span", { class: "toast-title" }, title) : null,
      message,
      count > 1 ? h("span", { class: "muted", title: `${count} times` }, ` ×${count}`) : null),
    h("button", { type: "button", "aria-label": "Dismiss", onclick: () => item.remove() }, "✕"),
  );
  if (previous) previous.replaceWith(item);
  else region.append(item);
  while (region.children.length > 4) region.firstElementChild.remove();
  const ms = timeout ?? (kind === "error" ? 7000 : 3500);
  if (ms > 0) setTimeout(() => item.remove(), ms);
  return item;
}

// ---------------------------------------------------------------- name dialog
/**
 * Asks for a display name (prefilled with a fun random one). Resolves to the trimmed name,
 * or null when the visitor cancels (only offered when `cancellable`).
 */
export function askName({ title = "Who's playing?", intro, initial, confirm = "Let's play", cancellable = false } = {}) {
  return new Promise((resolve) => {
    const input = h("input", {
      type: "text", id: "name-input", name: "name", maxlength: 32, required: true,
      autocomplete: "nickname", "data-testid": "name-input", spellcheck: "false",
    });
    input.value = initial || randomName();
    const reroll = h("button", {
      type: "button", class: "ghost icon", title: "Roll a random name", "aria-label": "Roll a random name",
      "data-testid": "name-reroll", onclick: () => { input.value = randomName(); input.focus(); input.select(); },
    }, "🎲");
    const error = h("p", { class: "small", style: { color: "var(--danger)" }, role: "alert", hidden: true });
    const form = h("form", { method: "dialog" },
      h("h2", { id: "name-dialog-title" }, title),
      h("p", { class: "muted small" }, intro || "Pick a name your friends will recognise. No sign-up: you are a guest on this browser."),
      h("div", { class: "field" },
        h("label", { for: "name-input" }, "Your name"),
        h("div", { class: "row" }, h("div", { class: "grow" }, input), reroll),
      ),
      error,
      h("div", { class: "actions" },
        cancellable ? h("button", { type: "button", class: "ghost", value: "cancel", "data-testid": "name-cancel",
          onclick: () => { dialog.close(); } }, "Cancel") : null,
        h("button", { type: "submit", class: "primary", "data-testid": "name-submit" }, confirm),
      ),
    );
    const dialog = h("dialog", { "aria-labelledby": "name-dialog-title", "data-testid": "name-dialog" }, form);
    let done = false;
    form.addEventListener("submit", (event) => {
      const name = input.value.trim().replace(/\s+/g, " ");
      if (!name) {
        event.preventDefault();
        error.textContent = "Please enter a name.";
        error.hidden = false;
        return;
      }
      done = true;
      resolve(name);
    });
    dialog.addEventListener("cancel", (event) => { if (!cancellable) event.preventDefault(); });
    dialog.addEventListener("close", () => { dialog.remove(); if (!done) resolve(null); });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
    input.select();
  });
}

// ---------------------------------------------------------------- misc
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { style: { position: "fixed", opacity: "0" } });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

export function timeAgo(iso) {
  if (!iso) return "";
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return "";
  const s = Math.max(0, Math.round((Date.now() - then) / 1000));
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const hrs = Math.round(m / 60);
  if (hrs < 24) return `${hrs} h ago`;
  return new Date(iso).toLocaleDateString();
}

export function clockTime(iso) {
  const d = iso ? new Date(iso) : new Date();
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** The brand logo: a tiny pixel joystick, inline so it needs no request. */
export function logoSvg() {
  return svg("svg", { class: "brand-logo", viewBox: "0 0 16 16", "aria-hidden": "true", "shape-rendering": "crispEdges" },
    svg("rect", { x: 2, y: 11, width: 12, height: 4, fill: "#a69cff" }),
    svg("rect", { x: 3, y: 12, width: 2, height: 2, fill: "#e9564b" }),
    svg("rect", { x: 7, y: 5, width: 2, height: 6, fill: "#f3f1ff" }),
    svg("rect", { x: 6, y: 2, width: 4, height: 4, fill: "#e9564b" }),
    svg("rect", { x: 6, y: 2, width: 2, height: 2, fill: "#ff9b93" }),
  );
}
