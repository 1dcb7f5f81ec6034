// The joystick widget: a player's 3x3 grid of joystick cards plus their active cards.
//
// Cards in the grid show both faces (the face is chosen when a card is taken); active cards
// show the chosen face large. The last played card is drawn tilted. Legal cards and spaces
// become buttons (keyboard reachable, outlined); everything else is inert.

import { h, morph } from "../ui.js";
import { BUTTON_ICONS, FACE_NAMES, FACE_SHORT, SCREEN_ARROWS, cellKey, isDirectionFace, sameCell } from "./common.js";

/** The icon of a face: an arrow pointing where it moves on screen, or a round fire button. */
export function faceIcon(face, arrowFor) {
  if (BUTTON_ICONS[face]) return h("span", { class: "btn-ico" }, BUTTON_ICONS[face]);
  return SCREEN_ARROWS[shownFace(face, arrowFor)] || "?";
}

/** The face as the board on screen shows its move: a direction face is named by the way its
 * arrow points (a West player's "left" card moves north, which is "Up" when North is up),
 * so a card's word and arrow never disagree, whoever's card it is and however the board is
 * turned. Buttons are themselves. */
export function shownFace(face, arrowFor) {
  return isDirectionFace(face) && arrowFor ? arrowFor(face) : face;
}

/** The full name of a face as shown (see shownFace). */
export function faceLabel(face, arrowFor) {
  const shown = shownFace(face, arrowFor);
  return FACE_NAMES[shown] || shown;
}

/** The short name of a face as shown (see shownFace). */
export function faceShort(face, arrowFor) {
  const shown = shownFace(face, arrowFor);
  return FACE_SHORT[shown] || shown;
}

/**
 * createJoystick(container, {small, onCard(cardId, place), onSpace(cell)}) -> {update, destroy}.
 * update(joy, {color, arrowFor(face) -> screen face, legalCards, selectedCards, legalSpaces,
 *               label}) where the sets hold card ids and "row,col" keys.
 */
export function createJoystick(container, { small = false, onCard, onSpace, testid = "joystick" } = {}) {
  const root = h("div", { class: `joy${small ? " small" : ""}`, "data-testid": testid });
  const grid = h("div", { class: "joy-grid", role: "group", "aria-label": "Joystick grid, 3 by 3" });
  const activeBox = h("div", { class: "joy-active", role: "group", "aria-label": "Active cards" });
  const body = h("div", { class: "joy-body" }, grid, h("div", { class: "joy-active-wrap" }, h("span", { class: "lbl" }, "Active"), activeBox));
  root.append(body);
  container.append(root);

  function cardNode(card, { place, cell, tilted, opts }) {
    const legal = opts.legalCards?.has(card.id) || false;
    const selected = opts.selectedCards?.has(card.id) || false;
    const interactive = !small && (legal || selected || opts.clickableCards?.has(card.id));
    const isActive = place === "active";
    let content;
    let aria;
    if (isActive) {
      const other = (card.faces || []).find((f) => f !== card.face);
      content = [
        h("span", { class: "f-icon", "aria-hidden": "true" }, faceIcon(card.face, opts.arrowFor)),
        h("span", { class: "f-name" }, faceShort(card.face, opts.arrowFor)),
        other && !small ? h("span", { class: "f-alt", "aria-hidden": "true" }, `(${faceShort(other, opts.arrowFor)})`) : null,
      ];
      aria = `Active card: ${faceLabel(card.face, opts.arrowFor)}`;
    } else {
      const [a, b] = card.faces || [];
      content = [
        h("span", { class: "f-pair", "aria-hidden": "true" },
          h("span", {}, faceIcon(a, opts.arrowFor)), h("span", { class: "sep" }, "/"), h("span", {}, faceIcon(b, opts.arrowFor))),
        h("span", { class: "f-name" }, `${faceShort(a, opts.arrowFor)}/${faceShort(b, opts.arrowFor)}`.replace("L-Button/R-Button", "Buttons")),
      ];
      aria = `Card ${faceLabel(a, opts.arrowFor)} or ${faceLabel(b, opts.arrowFor)}`;
    }
    if (tilted) aria += ", last played";
    if (selected) aria += ", selected";
    else if (legal) aria += ", can be chosen";
    const attrs = {
      class: `jcard${isActive ? " active-card" : ""}${tilted ? " tilted" : ""}`,
      "data-testid": isActive ? "active-card" : "joy-card",
      "data-card": card.id,
      "data-legal": legal ? "true" : "false",
      "data-selected": selected ? "true" : "false",
      "data-key": `${place}-${card.id}`,
      "data-color": opts.color || "",
      "aria-label": aria,
      title: aria,
    };
    if (isActive) attrs["data-face"] = card.face;
    if (cell) { attrs["data-row"] = cell[0]; attrs["data-col"] = cell[1]; }
    if (tilted) attrs["data-tilted"] = "true";
    if (interactive) {
      return h("button", { ...attrs, type: "button", "aria-pressed": selected ? "true" : "false",
        onclick: () => onCard?.(card.id, place) }, content);
    }
    return h("div", { ...attrs, role: "img" }, content);
  }

  function spaceNode(cell, opts) {
    const key = cellKey(cell);
    const legal = opts.legalSpaces?.has(key) || false;
    const attrs = {
      class: "jspace", "data-testid": "joy-space", "data-row": cell[0], "data-col": cell[1],
      "data-legal": legal ? "true" : "false", "data-key": `space-${key}`,
    };
    const where = `row ${cell[0] + 1}, column ${cell[1] + 1}`;
    if (legal && !small) {
      return h("button", { ...attrs, type: "button", "aria-label": `Empty space, ${where}: play the card here`,
        onclick: () => onSpace?.(cell) }, h("span", { "aria-hidden": "true" }, "+"));
    }
    if (opts.chosenSpace === key && opts.chosenCard) {
      // The space picked for the card being played, while its next faces are chosen.
      return h("div", { ...attrs, class: "jspace chosen", "data-chosen": "true", role: "img",
        "aria-label": `Empty space, ${where}: your card goes here` },
        h("span", { class: "f-icon", "aria-hidden": "true" }, faceIcon(opts.chosenCard.face, opts.arrowFor)));
    }
    return h("div", { ...attrs, role: "img", "aria-label": `Empty space, ${where}` });
  }

  // Every update is merged into the live nodes (morph), not rebuilt: in the simultaneous
  // set-up the other players' moves re-render this grid while I may be pressing a card, and
  // the pressed button has to stay the same element for the click to count (and keep focus).
  // A reused node keeps its old listener, which is sound because each listener does only what
  // its morph key says: a card button calls onCard(card.id, place), both in its data-key; a
  // space button calls onSpace(cell), in its data-key; onCard and onSpace are fixed for the
  // widget and read the selection when called, not when drawn. Everything else (chosen space,
  // selection, legality) only changes attributes and content, and an element with a listener
  // is a button while one without is a div, so the tag keeps the two apart.
  function update(joy, opts = {}) {
    if (!joy) {
      morph(grid);
      morph(activeBox);
      return;
    }
    const rows = joy.grid || [];
    const cells = [];
    for (let r = 0; r < 3; r += 1) {
      for (let c = 0; c < 3; c += 1) {
        const card = rows[r]?.[c] || null;
        const cell = [r, c];
        cells.push(card
          ? cardNode(card, { place: "grid", cell, tilted: sameCell(joy.tilted, cell), opts })
          : spaceNode(cell, opts));
      }
    }
    morph(grid, cells);
    const active = joy.active || [];
    morph(activeBox, active.length
      ? active.map((card) => cardNode(card, { place: "active", opts }))
      : h("div", { class: "jspace", "aria-label": "No active cards" }));
    root.dataset.activeCount = String(active.length);
  }

  return { el: root, update, destroy() { root.remove(); } };
}
