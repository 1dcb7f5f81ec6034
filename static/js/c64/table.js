// The table every C64 Board game shares: the board, your joystick with its choices, the
// other players' joysticks, and the move flow of the joystick engine (ruling C4):
//   set-up "take"   click two cards of one row/column, pick their faces, confirm;
//   set-up "return" click an active card, then a highlighted empty space;
//   turn "play"     click an active card, then a highlighted empty space; after your last
//                   card pick the faces of the two new cards, confirm.
// Everything clickable is derived from `legal_moves`, so the UI never offers a move the
// rules would refuse. A game module supplies drawBoard (and optionally preview, onEvents,
// faceHelp); see static/js/games/c64-maze.js.
//
// highlight(marks): what a rules-page diagram points at, kept across later updates until
// the next call. Marks, each with an optional kind "hint" (default), "target" or "blocked":
//   {square: "d4", kind}                 a board square (the look of the card previews)
//   {point: [gx, gy], kind}              a grid point (Trains, Snakes)
//   {segment: [[ax, ay], [bx, by]], kind} a unit segment between two grid points
//   {card: 3, seat, kind}                a joystick card, in the grid or active
//   {space: [row, col], seat, kind}      a space of a joystick grid (row 0 at the top)
// A card or space mark without seat is in the viewer's joystick (a spectator's: Player 1's).

import { fill, h, morph, svg } from "../ui.js";
import { COLORS, COLOR_LETTERS, SIDE_WORDS, capitalize, cellKey, dirToScreen, faceToDir, sameCell } from "./common.js";
import { createGrid } from "./grid.js";
import { createJoystick, faceIcon, faceLabel, faceShort } from "./joystick.js";

// "own": a player sees the board from her own side (as chess sites turn the board for
// Black); "standard": North up, as spectators see it. A new key, so the old default ("north",
// stored by whoever once pressed the button) does not keep anyone in the old view.
const VIEW_KEY = "arcade.c64.board-view";

const MARK_KINDS = new Set(["hint", "target", "blocked"]);

function markKind(mark) {
  return MARK_KINDS.has(mark.kind) ? mark.kind : "hint";
}

// c64.css (card marks, the joystick's heading) is loaded once, by the first table.
function ensureTableStyles() {
  if (document.querySelector("link[data-c64-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: new URL("../../css/c64.css", import.meta.url).href, "data-c64-css": "" }));
}

function canonicalCards(cards) {
  return [...cards].sort((a, b) => a.card - b.card);
}

function sameIds(a, b) {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((x) => set.has(x));
}

/** A C64 table whose board is drawn by a scene made on first draw: createScene(grid, host)
 * -> {draw(board, helpers), onEvents(events)} (Cars, Monsters). */
export function createC64SceneTable(root, ctx, { createScene, ...game }) {
  let scene = null;
  return createC64Table(root, ctx, {
    ...game,
    drawBoard(grid, board, helpers) {
      if (!scene) scene = createScene(grid, root.querySelector(".c64-board-info") || root);
      scene.draw(board, helpers);
    },
    onEvents(grid, events) {
      scene?.onEvents(events);
    },
  });
}

export function createC64Table(root, ctx, game) {
  ensureTableStyles();
  const you = ctx.you ?? null;
  let state = null;
  let board = null;
  let busy = false;
  // Selection: take -> takeCards; return/play -> card (+ cell for a play that needs `next`).
  let sel = { takeCards: [], card: null, cell: null, faces: {} };
  let viewPref = localStorage.getItem(VIEW_KEY) === "standard" ? "standard" : "own";
  let marks = [];

  // ---------------------------------------------------------------- layout
  // Desktop: the board (with its legend and the game's own panels under it) beside your
  // joystick and the other joysticks. Phone (arcade.css, "C64 table on a phone"): the board
  // and your joystick with its choices share the screen under the banners (--table-room);
  // the legend, the game's panels and the other joysticks follow below.
  const boardHost = h("div", { class: "c64-board-host" });
  const viewButton = h("button", { type: "button", class: "ghost small", "data-testid": "toggle-view", onclick: toggleView });
  const legend = h("span", { class: "board-legend" });
  // Games add their panels (scores, who carries what) here, under the legend.
  const info = h("div", { class: "c64-board-info" }, h("div", { class: "c64-board-tools" }, legend, viewButton));
  const boardWrap = h("div", { class: "c64-board-wrap panel" }, boardHost, info);
  const controls = h("div", { class: "c64-controls" });
  const table = h("div", { class: "c64-table", "data-testid": "c64-table" }, boardWrap, controls);
  root.append(table);

  const grid = createGrid(boardHost, { label: game.boardLabel || "C64 Board" });
  grid.svg.dataset.phone = "board";

  let mine = null;
  const chooserHost = h("div", { class: "chooser-host", "data-testid": "chooser-host" });
  if (you !== null) {
    const head = h("div", { class: "joy-head" });
    const note = h("div", { class: "joy-note", "data-testid": "joy-note", "aria-live": "polite" });
    const panel = h("section", { class: "panel joy-panel mine-joy", "data-testid": "my-joystick", "data-phone": "controls", "aria-label": "Your joystick" }, head);
    const widget = createJoystick(panel, { onCard: onCardClick, onSpace: onSpaceClick, testid: "joystick-mine" });
    panel.append(note, chooserHost);
    controls.append(panel);
    mine = { panel, head, note, widget };
    // The board takes the room your joystick leaves (arcade.css reads --c64-decision): set
    // by render() in the same task as the change, and by the observer for anything else
    // that resizes the panel (fonts, the window).
    const resize = new ResizeObserver(fitBoardToJoystick);
    resize.observe(panel);
    mine.resize = resize;
  }
  const othersTitle = h("h3", {}, you === null ? "Joysticks" : "Other players");
  const othersBox = h("div", { class: "others" });
  controls.append(h("section", { class: "c64-others", "aria-label": "Other players' joysticks" }, othersTitle, othersBox));
  const others = new Map(); // seat -> {panel, head, widget}

  function onKey(event) {
    if (event.key === "Escape" && (sel.card !== null || sel.takeCards.length)) {
      clearSelection();
      render();
    }
  }
  root.addEventListener("keydown", onKey);

  // ---------------------------------------------------------------- helpers
  function player(seat) { return board?.players?.[seat] || null; }
  function colorName(seat) { return player(seat)?.color || ["red", "green", "blue", "yellow"][seat] || "grey"; }
  function colorCss(seat) { return COLORS[colorName(seat)] || "#bbb"; }
  function colorLetter(seat) { return COLOR_LETTERS[colorName(seat)] || "?"; }
  /** A colour swatch with its letter in it (colour-blind players tell them apart by it). */
  function swatch(seat) {
    return h("span", { class: "swatch c64-swatch", style: { background: colorCss(seat) }, "aria-hidden": "true" }, colorLetter(seat));
  }
  /** A short line in the seat's colour and line pattern (Trains' rails, Snakes' bodies). */
  function lineSample(seat) {
    return svg("svg", { class: "c64-line-sample", viewBox: "0 0 40 10", "aria-hidden": "true" },
      svg("line", { class: `seg c64-line-${colorName(seat)}`, x1: 3, y1: 5, x2: 37, y2: 5, stroke: colorCss(seat) }));
  }
  function seatName(seat) { return state?.seats?.find((s) => s.seat === seat)?.name || `Seat ${seat + 1}`; }
  function seatLabel(seat) { return `${capitalize(colorName(seat))} (${seatName(seat)})`; }
  function playerNumber(seat) {
    const index = (board?.order || []).indexOf(seat);
    return index >= 0 ? index + 1 : null;
  }
  function viewSide() {
    if (viewPref === "own" && you !== null && player(you)?.side) return player(you).side;
    return "S";
  }
  function arrowFor(seat) {
    // Cards are seat-relative: draw each face's arrow, and name it (joystick.js shownFace),
    // the way it moves on the board as shown.
    const side = player(seat)?.side || "S";
    return (face) => dirToScreen(faceToDir(side, face), viewSide());
  }

  function legalMoves() { return (state && state.legal_moves) || []; }
  function movesOf(type) { return legalMoves().filter((m) => m.type === type); }
  function mode() {
    if (movesOf("take").length) return "take";
    if (movesOf("return").length) return "return";
    if (movesOf("play").length) return "play";
    return "idle";
  }
  function myJoystick() { return expandJoystick(board?.joysticks?.[you]); }
  // The view sends card ids; faces come from the board's fixed `cards` table.
  function expandJoystick(joy) {
    if (!joy) return null;
    const faces = (id) => board.cards?.[id] || [];
    return {
      ...joy,
      grid: (joy.grid || []).map((row) => row.map((id) => (id === null ? null : { id, faces: faces(id) }))),
      active: (joy.active || []).map((card) => ({ ...card, faces: faces(card.id) })),
    };
  }
  function clearSelection() { sel = { takeCards: [], card: null, cell: null, faces: {} }; }

  /** Keeps a selection across a patch (a simultaneous set-up) when it is still legal. */
  function validateSelection() {
    const m = mode();
    if (m === "take") {
      const options = movesOf("take");
      sel.card = null; sel.cell = null;
      sel.takeCards = sel.takeCards.filter((id) => options.some((o) => o.cards.some((c) => c.card === id)));
      if (sel.takeCards.length === 2 && !options.some((o) => sameIds(o.cards.map((c) => c.card), sel.takeCards))) clearSelection();
    } else if (m === "return" || m === "play") {
      sel.takeCards = [];
      const moves = movesOf(m);
      if (sel.card !== null && !moves.some((mv) => mv.card === sel.card)) clearSelection();
      if (sel.cell && !moves.some((mv) => mv.card === sel.card && sameCell(mv.to, sel.cell))) { sel.cell = null; sel.faces = {}; }
      const cards = [...new Set(moves.map((mv) => mv.card))];
      if (sel.card === null && cards.length === 1) sel.card = cards[0]; // one card: nothing to choose
    } else {
      clearSelection();
    }
  }

  async function submit(move) {
    busy = true;
    render();
    try {
      await ctx.submit(move);
      clearSelection();
    } catch {
      // The page shows the reason; start the choice over from the current state.
      clearSelection();
    } finally {
      busy = false;
      validateSelection();
      render();
    }
  }

  // ---------------------------------------------------------------- clicks
  function onCardClick(cardId, place) {
    if (busy) return;
    const m = mode();
    if (m === "take" && place === "grid") {
      const options = movesOf("take");
      if (sel.takeCards.includes(cardId)) {
        sel.takeCards = sel.takeCards.filter((id) => id !== cardId);
      } else if (sel.takeCards.length === 1 && options.some((o) => sameIds(o.cards.map((c) => c.card), [sel.takeCards[0], cardId]))) {
        sel.takeCards = [sel.takeCards[0], cardId];
      } else {
        sel.takeCards = [cardId];
      }
      sel.faces = {};
      if (sel.takeCards.length === 2) {
        const first = options.find((o) => sameIds(o.cards.map((c) => c.card), sel.takeCards));
        for (const c of first.cards) sel.faces[c.card] = c.face;
      }
    } else if ((m === "return" || m === "play") && place === "active") {
      sel.card = sel.card === cardId ? null : cardId;
      sel.cell = null;
      sel.faces = {};
    } else if (m === "play" && sel.cell && place === "grid") {
      return; // choosing faces happens in the chooser
    }
    render();
  }

  function onSpaceClick(cell) {
    if (busy || sel.card === null) return;
    const m = mode();
    const candidates = movesOf(m).filter((mv) => mv.card === sel.card && sameCell(mv.to, cell));
    if (!candidates.length) return;
    if (candidates.length === 1 && !candidates[0].next) {
      submit(candidates[0]);
      return;
    }
    sel.cell = cell;
    sel.faces = {};
    const withNext = candidates.find((c) => c.next) || candidates[0];
    for (const c of withNext.next || []) sel.faces[c.card] = c.face;
    render();
  }

  // ---------------------------------------------------------------- chooser
  // The chooser is merged into its live nodes (morph), not rebuilt: in the simultaneous
  // set-up another player's move re-renders it while I may be pressing a face or "Take
  // cards", and the pressed button has to stay the same element for the click to count. A
  // kept button keeps its first listener, so no listener holds render-time data: a face
  // option calls chooseFace(card, face), both in its data-key; confirm (its data-move is the
  // move it sends) and cancel work the pending choice out from the selection and the legal
  // moves when clicked.

  /** The choice of faces pending now, or null: {title, intro, confirmLabel, options (lists
   * of {card, face}), moveFor(option) -> the move that sends it}. */
  function pendingChoice() {
    if (busy) return null;
    const m = mode();
    if (m === "take" && sel.takeCards.length === 2) {
      const options = movesOf("take")
        .filter((o) => sameIds(o.cards.map((c) => c.card), sel.takeCards))
        .map((o) => canonicalCards(o.cards));
      if (!options.length) return null;
      return {
        title: "Take these cards", intro: "Each card can be flipped: choose the face it will have while active.",
        confirmLabel: "Take cards", options,
        moveFor: (cards) => ({ type: "take", cards }),
      };
    }
    if (m === "play" && sel.cell) {
      const candidates = movesOf("play").filter((mv) => mv.card === sel.card && sameCell(mv.to, sel.cell));
      const options = candidates.filter((c) => c.next).map((c) => canonicalCards(c.next));
      if (!options.length) return null;
      return {
        title: "Your next two cards", intro: "That was your last active card: you take the other two cards of the crossing line. Choose their faces.",
        confirmLabel: "Play card", options,
        moveFor: (next) => candidates.find((c) => c.next && c.next.every((x) => next.some((y) => y.card === x.card && y.face === x.face))) || null,
      };
    }
    return null;
  }

  function hasChosenFaces(option) { return option.every((c) => sel.faces[c.card] === c.face); }

  /** The move the chooser's confirm sends now, or null while the faces fit no legal move. */
  function chosenMove(choice) {
    const chosen = choice?.options.find(hasChosenFaces);
    return chosen ? choice.moveFor(chosen) : null;
  }

  function chooseFace(card, face) {
    const choice = pendingChoice();
    const offering = choice?.options.filter((o) => o.some((c) => c.card === card && c.face === face)) || [];
    if (!offering.length) return;
    sel.faces[card] = face;
    // Faces that go only together: the other card turns to one that fits.
    if (!choice.options.some(hasChosenFaces)) for (const c of offering[0]) sel.faces[c.card] = c.face;
    render();
  }

  function confirmChoice() {
    const move = chosenMove(pendingChoice());
    if (move) submit(move);
  }

  function cancelChoice() {
    if (busy) return;
    clearSelection();
    render();
  }

  /** The chooser only ever offers faces some option has. */
  function renderChooser(choice) {
    const { title, intro, options, confirmLabel } = choice;
    const cardIds = options[0].map((c) => c.card);
    if (!options.some(hasChosenFaces)) for (const c of options[0]) sel.faces[c.card] = c.face;
    const rows = cardIds.map((id) => {
      const faces = [...new Set(options.map((o) => o.find((c) => c.card === id).face))];
      const name = `${faces.map((f) => faceShort(f, arrowFor(you))).join("/").replace("L-Button/R-Button", "Buttons")} card`;
      return h("div", { class: "ch-card", "data-card": id },
        h("span", { class: "ch-label" }, name),
        h("div", { class: "face-options", role: "group", "aria-label": `Face for the ${name}` },
          faces.map((face) => h("button", {
            type: "button", "data-testid": "face-option", "data-card": id, "data-face": face, "data-key": `${id}:${face}`,
            "aria-pressed": sel.faces[id] === face ? "true" : "false",
            title: game.faceHelp ? game.faceHelp(face, player(you), board) : faceLabel(face, arrowFor(you)),
            onclick: () => chooseFace(id, face),
          }, h("span", { "aria-hidden": "true" }, faceIcon(face, arrowFor(you))), h("span", { class: "fo-name" }, ` ${faceShort(face, arrowFor(you))}`))),
        ),
      );
    });
    const move = chosenMove(choice);
    const help = game.faceHelp
      ? h("p", { class: "small muted" }, cardIds.map((id) => `${faceLabel(sel.faces[id], arrowFor(you))}: ${game.faceHelp(sel.faces[id], player(you), board)}`).join(" · "))
      : null;
    morph(chooserHost, h("section", { class: "chooser", "data-testid": "face-chooser", "aria-label": title },
      h("h3", {}, title),
      intro ? h("p", { class: "small" }, intro) : null,
      rows,
      help,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", "data-testid": "confirm-move", disabled: !move,
          "data-move": move ? JSON.stringify(move) : null, onclick: confirmChoice }, confirmLabel),
        h("button", { type: "button", class: "ghost", "data-testid": "cancel-move", onclick: cancelChoice }, "Cancel"),
      ),
    ));
  }

  // ---------------------------------------------------------------- rendering
  function renderMine() {
    if (!mine) return;
    const joy = myJoystick();
    const p = player(you);
    const m = mode();
    const legalCards = new Set();
    const selectedCards = new Set();
    const legalSpaces = new Set();
    let note = "";

    if (!busy && m === "take") {
      const options = movesOf("take");
      if (sel.takeCards.length === 0) {
        for (const o of options) for (const c of o.cards) legalCards.add(c.card);
        note = ["Set-up: pick ", h("strong", {}, "2 cards"), " from one row or column of your grid."];
      } else if (sel.takeCards.length === 1) {
        for (const o of options) {
          const ids = o.cards.map((c) => c.card);
          if (ids.includes(sel.takeCards[0])) for (const id of ids) legalCards.add(id);
        }
        note = "Now a second card from the same row or column.";
      } else {
        note = "Choose a face for each card below, then take them.";
      }
      for (const id of sel.takeCards) selectedCards.add(id);
    } else if (!busy && (m === "return" || m === "play")) {
      const moves = movesOf(m);
      for (const mv of moves) legalCards.add(mv.card);
      if (sel.card !== null) {
        selectedCards.add(sel.card);
        if (!sel.cell) for (const mv of moves) if (mv.card === sel.card) legalSpaces.add(cellKey(mv.to));
      }
      if (m === "return") {
        note = sel.card === null
          ? ["Set-up: choose the active card to ", h("strong", {}, "put back"), " (no action)."]
          : "Now click an empty space to put it back.";
      } else if (sel.cell) {
        note = "Your last active card: pick the faces of your next two cards.";
      } else {
        note = sel.card === null
          ? ["Your turn: click an ", h("strong", {}, "active card"), " to play."]
          : "Now click a highlighted empty space: the card goes there and its action happens.";
      }
      if (sel.cell) {
        const candidate = moves.find((mv) => mv.card === sel.card && sameCell(mv.to, sel.cell) && mv.next);
        for (const c of candidate?.next || []) selectedCards.add(c.card);
      }
    } else if (busy) {
      note = "Sending your move…";
    } else if (state?.status === "abandoned") {
      note = "The match was ended: no more moves.";
    } else if (board?.phase === "setup") {
      note = state?.active_seats?.includes(you) ? "" : "You're set. Waiting for the others to finish their set-up.";
    } else if (board?.phase === "play") {
      note = board.turn === you ? "" : `Waiting for ${seatLabel(board.turn)}.`;
    }

    mine.panel.dataset.mine = String(m !== "idle");
    mine.panel.dataset.mode = m;
    fill(mine.head,
      swatch(you),
      h("span", { class: "j-title" }, "Your joystick"),
      h("span", { class: "small muted" },
        [capitalize(colorName(you)), playerNumber(you) ? `Player ${playerNumber(you)}` : null, p?.side ? `${SIDE_WORDS[p.side]} side` : null].filter(Boolean).join(" · ")),
    );
    mine.widget.update(joy, {
      color: colorName(you), arrowFor: arrowFor(you), legalCards, selectedCards, legalSpaces,
      chosenSpace: sel.cell ? cellKey(sel.cell) : null,
      chosenCard: sel.cell ? (joy?.active || []).find((c) => c.id === sel.card) : null,
      clickableCards: m === "take" && !busy ? new Set(movesOf("take").flatMap((o) => o.cards.map((c) => c.card))) : null,
    });
    // A note names players: built as text, never parsed as HTML.
    morph(mine.note, note);
    mine.note.hidden = !note.length;

    // The chooser, when a choice of faces is pending.
    const choice = pendingChoice();
    if (choice) renderChooser(choice);
    else morph(chooserHost);
    mine.panel.dataset.choosing = String(Boolean(choice));

  }

  /** Board preview of what the selected card will do. */
  function previewHighlights() {
    if (!mine || busy || mode() !== "play" || sel.card === null || !game.preview) return [];
    const card = (myJoystick()?.active || []).find((c) => c.id === sel.card);
    return card ? game.preview(board, you, card.face) || [] : [];
  }

  function boardMarks() {
    return marks
      .filter((mark) => mark.square || mark.point || mark.segment)
      .map((mark) => ({ ...mark, kind: markKind(mark) }));
  }

  function joystickOf(seat) {
    if (mine && seat === you) return mine.widget.el;
    return others.get(seat)?.widget.el || null;
  }

  /** Card and space marks go on the live joystick nodes, again after every render (the
   * widget's morph drops attributes it did not draw). */
  function applyJoystickMarks() {
    for (const el of table.querySelectorAll("[data-mark]")) el.removeAttribute("data-mark");
    for (const mark of marks) {
      if (mark.card === undefined && !mark.space) continue;
      const seat = mark.seat ?? you ?? board?.order?.[0] ?? 0;
      const joy = joystickOf(seat);
      if (!joy) continue;
      const el = mark.card !== undefined
        ? joy.querySelector(`.jcard[data-card="${Number(mark.card)}"]`)
        : joy.querySelector(`.jspace[data-row="${Number(mark.space[0])}"][data-col="${Number(mark.space[1])}"], .jcard[data-row="${Number(mark.space[0])}"][data-col="${Number(mark.space[1])}"]`);
      if (el) el.dataset.mark = markKind(mark);
    }
  }

  function renderOthers() {
    const seats = (board?.joysticks || []).map((j, i) => (j && j.seat !== undefined ? j.seat : i)).filter((s) => s !== you);
    for (const [seat, entry] of others) if (!seats.includes(seat)) { entry.panel.remove(); others.delete(seat); }
    othersTitle.hidden = seats.length === 0;
    for (const seat of seats) {
      let entry = others.get(seat);
      if (!entry) {
        const head = h("div", { class: "joy-head" });
        const panel = h("section", { class: "panel joy-panel", "data-testid": "other-joystick", "data-seat": seat }, head);
        const widget = createJoystick(panel, { small: true, testid: `joystick-${seat}` });
        othersBox.append(panel);
        entry = { panel, head, widget };
        others.set(seat, entry);
      }
      const p = player(seat);
      const toMove = (state?.active_seats || []).includes(seat);
      let tag = null;
      if (state?.status === "abandoned") {
        tag = null;
      } else if (board?.phase === "setup") {
        tag = p?.ready ? h("span", { class: "ready-tag done" }, "ready") : h("span", { class: "ready-tag wait" }, "choosing…");
      } else if (toMove && board?.phase === "play") {
        tag = h("span", { class: "ready-tag wait" }, "to move");
      }
      entry.panel.dataset.mine = String(toMove);
      fill(entry.head,
        swatch(seat),
        h("span", { class: "j-title" }, seatLabel(seat)),
        tag,
      );
      entry.widget.update(expandJoystick(board.joysticks.find((j, i) => (j?.seat ?? i) === seat)), { color: colorName(seat), arrowFor: arrowFor(seat) });
    }
  }

  function fitBoardToJoystick() {
    if (!mine) return;
    const px = `${mine.panel.offsetHeight}px`;
    if (table.style.getPropertyValue("--c64-decision") !== px) table.style.setProperty("--c64-decision", px);
  }

  function render() {
    if (!state) return;
    renderMine();
    fitBoardToJoystick();
    renderOthers();
    grid.setHighlights([...boardMarks(), ...previewHighlights()]);
    applyJoystickMarks();
    viewButton.textContent = viewPref === "standard" ? "Turn board to my side" : "North up";
    viewButton.hidden = you === null || player(you)?.side === "S";
    viewButton.setAttribute("aria-pressed", String(viewPref === "standard"));
  }

  function toggleView() {
    viewPref = viewPref === "standard" ? "own" : "standard";
    localStorage.setItem(VIEW_KEY, viewPref);
    grid.setView(viewSide());
    render();
  }

  // ---------------------------------------------------------------- API
  function update(newState, events = []) {
    state = newState;
    board = newState.board || {};
    root.dataset.version = String(newState.version ?? "");
    root.dataset.you = you === null ? "" : String(you);
    root.dataset.phase = board.phase || "";
    if (grid.view !== viewSide()) grid.setView(viewSide());
    game.drawBoard(grid, board, { you, state, colorCss, colorLetter, swatch, lineSample, seatName, seatLabel, playerNumber });
    legend.textContent = game.legend ? game.legend(board, { you, seatLabel }) : "";
    if (events.length && game.onEvents) game.onEvents(grid, events, board);
    if (!busy) validateSelection();
    render();
  }

  function describeTurn(s) {
    const b = s.board || {};
    const active = s.active_seats || [];
    const myMove = you !== null && active.includes(you) && (s.legal_moves || []).length > 0;
    if (s.status === "finished" || b.phase === "over") return null;
    if (b.phase === "setup") {
      const waiting = active.filter((seat) => seat !== you).map(seatLabel);
      if (myMove) {
        const returning = myJoystick()?.must_return || movesOf("return").length > 0;
        return {
          mine: true,
          title: returning ? "Your set-up: put one card back" : "Your set-up",
          detail: returning
            ? `You are Player ${playerNumber(you)}: you start with one active card, so return one of the two to an empty space (no action).`
            : "Everyone sets up at the same time: take 2 cards from one row or column of your joystick and choose their faces.",
        };
      }
      return {
        mine: false,
        title: waiting.length ? `Set-up: waiting for ${waiting.join(" and ")}` : "Set-up",
        detail: you === null ? "Everyone sets up at the same time." : "You're ready. Everyone sets up at the same time; play starts with Player 1.",
      };
    }
    if (myMove) {
      return { mine: true, title: "Your turn", detail: "Play one of your active cards onto an empty space of your joystick." };
    }
    const seat = b.turn ?? active[0];
    if (seat === undefined || seat === null) return { mine: false, title: "Waiting…" };
    return {
      mine: false,
      title: you === null ? `${seatLabel(seat)} to move` : `Waiting for ${seatLabel(seat)}`,
      color: colorCss(seat),
    };
  }

  function seatInfo(seat) {
    return { label: capitalize(colorName(seat)), color: colorCss(seat) };
  }

  function highlight(list) {
    marks = Array.isArray(list) ? list.filter((mark) => mark && typeof mark === "object") : [];
    render();
  }

  return {
    update,
    describeTurn,
    seatInfo,
    highlight,
    grid,
    destroy() {
      root.removeEventListener("keydown", onKey);
      mine?.resize.disconnect();
      grid.destroy();
      table.remove();
    },
  };
}
