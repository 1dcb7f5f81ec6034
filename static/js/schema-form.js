// A generic options form rendered from a game's JSON Schema (as Pydantic emits it).
// Booleans become checkboxes, enums selects, integers/numbers number inputs, strings text.
// A game without options gets a friendly "standard rules" note. The same form shows a lobby's
// options on the match page: filled with the match's values, editable by the host only.

import { h } from "./ui.js";

function resolve(schema, root) {
  let node = schema || {};
  const seen = new Set();
  for (;;) {
    if (node.$ref && node.$ref.startsWith("#/") && !seen.has(node.$ref)) {
      seen.add(node.$ref);
      const target = node.$ref.slice(2).split("/").reduce((acc, key) => (acc ? acc[key] : undefined), root);
      const { $ref, ...rest } = node;
      node = { ...(target || {}), ...rest };
      continue;
    }
    if (Array.isArray(node.allOf) && node.allOf.length === 1) {
      const { allOf, ...rest } = node;
      node = { ...allOf[0], ...rest };
      continue;
    }
    if (Array.isArray(node.anyOf)) {
      // Optional[X] shows up as anyOf [X, {type: null}].
      const nonNull = node.anyOf.filter((s) => s.type !== "null");
      if (nonNull.length === 1) {
        const { anyOf, ...rest } = node;
        node = { ...nonNull[0], ...rest, nullable: true };
        continue;
      }
    }
    return node;
  }
}

function humanize(key) {
  const words = key.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function optionLabel(value) {
  if (typeof value !== "string") return String(value);
  return humanize(value);
}

/**
 * Renders the form into `container`; returns {values() -> object, setValues(values), isEmpty}.
 * `values()` only includes fields the form knows how to edit. `values` fills the form (missing
 * keys keep the schema's defaults), `disabled` shows it read-only, and `onChange(values())`
 * follows every edit the user makes (not those made by setValues).
 */
export function renderOptionsForm(container, schema, { idPrefix = "opt", values = {}, disabled = false, onChange } = {}) {
  container.replaceChildren();
  const root = schema || {};
  const properties = resolve(root, root).properties || {};
  const readers = [];
  const writers = {};
  const changed = () => onChange?.(read());

  for (const [key, raw] of Object.entries(properties)) {
    const prop = resolve(raw, root);
    const id = `${idPrefix}-${key}`;
    const label = prop.title || humanize(key);
    const help = prop.description ? h("span", { class: "help", id: `${id}-help` }, prop.description) : null;
    const describedBy = help ? `${id}-help` : undefined;
    const testid = `option-${key}`;

    if (prop.type === "boolean") {
      const input = h("input", { type: "checkbox", id, name: key, "aria-describedby": describedBy, "data-testid": testid });
      writers[key] = (value) => { input.checked = Boolean(value); };
      writers[key](prop.default);
      container.append(h("div", { class: "field" }, h("div", { class: "field-inline" }, input, h("label", { for: id }, label)), help));
      readers.push(() => [key, input.checked]);
    } else if (Array.isArray(prop.enum) || prop.const !== undefined) {
      const choices = prop.enum || [prop.const];
      const labels = prop["x-labels"] || {}; // a game may name its choices ("A" -> "A: Arena")
      const select = h("select", { id, name: key, "aria-describedby": describedBy, "data-testid": testid },
        choices.map((value, index) => h("option", { value: String(index) }, labels[value] ?? optionLabel(value))));
      writers[key] = (value) => {
        const index = choices.indexOf(value);
        select.value = String(index >= 0 ? index : Math.max(0, choices.indexOf(prop.default)));
      };
      writers[key](prop.default);
      container.append(h("div", { class: "field" }, h("label", { for: id }, label), select, help));
      readers.push(() => [key, choices[Number(select.value)]]);
    } else if (prop.type === "integer" || prop.type === "number") {
      const min = prop.minimum ?? (prop.exclusiveMinimum !== undefined ? prop.exclusiveMinimum + (prop.type === "integer" ? 1 : 0) : undefined);
      const max = prop.maximum ?? (prop.exclusiveMaximum !== undefined ? prop.exclusiveMaximum - (prop.type === "integer" ? 1 : 0) : undefined);
      const input = h("input", {
        type: "number", id, name: key, min, max, step: prop.type === "integer" ? 1 : "any",
        inputmode: prop.type === "integer" ? "numeric" : "decimal", "aria-describedby": describedBy, "data-testid": testid,
      });
      writers[key] = (value) => { input.value = value === undefined || value === null ? "" : String(value); };
      writers[key](prop.default);
      container.append(h("div", { class: "field" }, h("label", { for: id }, label), input, help));
      readers.push(() => {
        if (input.value === "") return prop.default !== undefined ? [key, prop.default] : null;
        const value = prop.type === "integer" ? Math.round(Number(input.value)) : Number(input.value);
        return Number.isFinite(value) ? [key, value] : null;
      });
    } else if (prop.type === "string") {
      const input = h("input", { type: "text", id, name: key, maxlength: prop.maxLength, "aria-describedby": describedBy, "data-testid": testid });
      writers[key] = (value) => { input.value = typeof value === "string" ? value : ""; };
      writers[key](prop.default);
      container.append(h("div", { class: "field" }, h("label", { for: id }, label), input, help));
      readers.push(() => (input.value === "" && prop.default === undefined ? null : [key, input.value]));
    }
    // Anything else (nested objects, arrays) keeps the game's default: not editable here yet.
  }

  if (!readers.length) {
    container.append(h("p", { class: "muted small", "data-testid": "no-options" }, "No options: the standard rules from the rulebook."));
  }

  function read() {
    const out = {};
    for (const reader of readers) {
      const pair = reader();
      if (pair) out[pair[0]] = pair[1];
    }
    return out;
  }

  function setValues(next) {
    for (const [key, value] of Object.entries(next || {})) writers[key]?.(value);
  }

  setValues(values);
  for (const control of container.querySelectorAll("input, select")) {
    control.disabled = disabled;
    // A number input reports each keystroke as input; "change" waits until the host is done.
    control.addEventListener("change", changed);
  }

  return { isEmpty: readers.length === 0, values: read, setValues };
}
