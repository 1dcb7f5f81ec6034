// Joystick Heroes: an arcade of Games cards, hero boards with Power cubes, your Power card
// hand, the dice as they roll, prompts for Versus challenges, Co-op loans and reactions, the
// simultaneous POWER UP shop and an end-of-game chart of Prizes per round.
// Every button is built from state.legal_moves, so the page only ever offers legal moves.
//
// Read-only diagrams (rules pages: ctx.readOnly, ctx.diagram) show no buttons: the prompt tells
// what the last move did, from its events, and `highlight(marks)` outlines what the caption
// points at. A mark is an object naming one thing, with an optional `kind` ("hint", the
// default, "good" or "bad"):
//   {spot: n}                 an arcade spot (0-based), {spot: n, row: k} line k of its card
//   {card: id}                a Games card wherever it is drawn (arcade, tournament)
//   {hero: seat}              a hero board; with column: "joystick"... one of its columns, or
//                             with stat: "tokens" | "tickets" | "prizes" | "cards" one counter
//   {row: k}                  line k (1-based; a Premium card's Level k) of the chart of the
//                             game being played or just played, {row: "hi"} its High Score
//   {die: i}, {game_die: true} a Scoring die of the tray (0-based), the Game die
//   {hand: "P17"}, {power: kind} a card of the viewer's own hand, by id or by kind
//   {prompt: true}            the prompt (in a diagram: what the last move did)
// The marks are applied again after every update, so a replayed move keeps them.

import { h, svg, fill, morph, toast } from "../ui.js";

const COLORS = { red: "#e9564b", blue: "#5b8cff", green: "#53c35c", yellow: "#f2cf3a", purple: "#b277f2", orange: "#f5973a" };
const HEROES = ["red", "blue", "green", "yellow", "purple", "orange"];
const COLUMNS = ["joystick", "driving", "buttons", "shooting", "adventure", "classic", "scifi", "sports"];
const COLUMN_NAMES = { joystick: "Joystick", driving: "Driving", buttons: "Buttons", shooting: "Shooting", adventure: "Adventure", classic: "Classic", scifi: "Sci-fi", sports: "Sports" };
const COLUMN_SHORT = { joystick: "Joy", driving: "Drv", buttons: "Btn", shooting: "Sht", adventure: "Adv", classic: "Cls", scifi: "SF", sports: "Spt" };
const FACE_LABELS = { "+100": "+100", "+200": "+200", "-100": "−100", key: "KEY", heart: "♥ HEART", bomb: "BOMB" };
const TIMING_WORDS = { before: "Before rolling", after: "After rolling", start: "Start of your turn", turn: "Your turn", reaction: "On others' turns", instant: "When drawn", powerup: "Power Up" };

const REACTIONS = { tilt: "Tilt!", thief: "Ticket Thief" };

const heroName = (seat) => (HEROES[seat] || "?").replace(/^./, (c) => c.toUpperCase());
// Colour-blind players tell heroes apart by a letter as well as by colour.
const heroLetter = (seat) => heroName(seat).charAt(0);
const count = (n, word, plural = `${word}s`) => `${n} ${n === 1 ? word : plural}`;
const heroColor = (seat) => COLORS[HEROES[seat]] || "var(--accent)";

function ensureCss() {
  if (document.querySelector('link[data-jh-css]')) return;
  document.head.append(h("link", { rel: "stylesheet", href: new URL("../../css/joystick-heroes.css", import.meta.url).href, "data-jh-css": "" }));
}

function rewardText(entry) {
  const parts = [];
  if (entry.prizes) parts.push(`${entry.prizes}P`);
  if (entry.tickets) parts.push(`${entry.tickets}T`);
  return parts.join("+") || "—";
}

export function createRenderer(root, ctx) {
  ensureCss();
  const you = ctx.you ?? null;
  const readOnly = Boolean(ctx.readOnly);
  const diagram = Boolean(ctx.diagram);
  let marks = [];
  let current = null;
  let busy = false;
  let autoPass = null;
  const els = {
    top: h("div", { class: "jh-top", "data-testid": "jh-status" }),
    prompt: h("section", { class: "panel jh-prompt", "data-testid": "jh-prompt", "aria-live": "polite" }),
    dice: h("section", { class: "panel jh-dice", "data-testid": "dice-tray" }),
    arcade: h("section", { class: "jh-arcade", "data-testid": "arcade", "aria-label": "The arcade" }),
    hand: h("section", { class: "panel jh-hand", "data-testid": "hand" }),
    heroes: h("section", { class: "jh-heroes", "data-testid": "heroes" }),
    chart: h("section", { class: "panel jh-chart", "data-testid": "prize-chart", hidden: true }),
  };
  // On a phone the sections are reordered (CSS, by data-focus) so that the controls of the
  // current decision and the board it is about come first, on screen together.
  const board = h("div", { class: "jh", "data-testid": "board" },
    els.top, els.prompt, els.dice,
    h("h2", { class: "jh-h jh-h-arcade" }, "The arcade"), els.arcade,
    els.hand, h("h2", { class: "jh-h jh-h-heroes" }, "Heroes"), els.heroes, els.chart);
  root.append(board);

  async function send(move) {
    if (busy) return;
    busy = true;
    try { await ctx.submit(move); } catch { /* match.js shows the refusal */ } finally { busy = false; }
  }

  function moveButton(move, label, { primary = false, testid, title, name, attrs = {} } = {}) {
    return h("button", {
      ...attrs,
      type: "button", class: primary ? "primary" : "ghost", title, "aria-label": name,
      "data-testid": testid || `move-${move.type}`, "data-move": JSON.stringify(move),
      onclick: () => send(move),
    }, label);
  }

  // ------------------------------------------------------------ pieces
  function cardFace(card, entry, { legal, selectedSpot } = {}) {
    if (!card) return h("div", { class: "jh-card empty" }, "Empty spot");
    const premium = card.tier === "premium";
    const rows = card.chart.map((line, i) => h("div", { class: "jh-row", "data-row": i + 1 },
      h("span", {}, premium ? `L${i + 1}` : ""), h("span", { class: "jh-score" }, line.score), h("span", {}, rewardText(line))));
    // The short names are for phones, where a card is a small tile in the arcade strip.
    const icons = [...card.skills, card.genre].map((c) => h("span", { class: `jh-icon ${COLUMNS.indexOf(c) < 4 ? "skill" : "genre"}`, title: COLUMN_NAMES[c] },
      h("span", { class: "jh-long" }, COLUMN_NAMES[c]), h("span", { class: "jh-short", "aria-hidden": "true" }, COLUMN_SHORT[c])));
    const mode = card.mode === "versus" ? h("span", { class: "jh-mode", title: "Versus: others may challenge" }, "VS") :
      card.mode === "coop" ? h("span", { class: "jh-mode", title: "Co-op: borrow a cube" }, "CO-OP") : null;
    return h("div", { class: `jh-card ${premium ? "gold" : "silver"}`, "data-card": card.id },
      h("div", { class: "jh-card-head" },
        h("span", { class: "jh-diff", title: `Difficulty ${card.difficulty}` }, "★".repeat(card.difficulty)),
        h("span", { class: "jh-hs", title: "High Score", "data-row": "hi" }, `HI ${card.high_score.score}: ${rewardText(card.high_score)}`), mode),
      h("div", { class: "jh-card-name" }, card.name),
      h("div", { class: "jh-chart-rows" }, rows),
      h("div", { class: "jh-icons" }, icons),
      entry ? h("div", { class: "jh-plays", title: "Plays so far (3 retire the card)" }, "●".repeat(entry.plays) + "○".repeat(Math.max(0, 3 - entry.plays))) : null);
  }

  function pawn(seat) {
    return svg("svg", { class: "jh-pawn", viewBox: "0 0 20 24", width: 20, height: 24, "data-pawn": seat, "aria-label": `${heroName(seat)} pawn` },
      svg("path", { d: "M3 23 Q10 8 17 23 Z", fill: heroColor(seat), stroke: "#000", "stroke-width": 1 }),
      svg("circle", { cx: 10, cy: 7, r: 6, fill: heroColor(seat), stroke: "#000", "stroke-width": 1 }),
      svg("text", { x: 10, y: 10, "text-anchor": "middle", "font-size": 9, "font-weight": 700, fill: "#000", class: "jh-pawn-letter" }, heroLetter(seat)));
  }

  function renderArcade(s, b, cards, legal) {
    const moveTo = new Map(legal.filter((m) => m.type === "move_to").map((m) => [m.spot, m]));
    const spots = b.arcade.map((entry) => {
      const card = cards[entry.card];
      const move = moveTo.get(entry.spot);
      const active = b.play && b.turn && b.turn.spot === entry.spot && b.play.context === "arcade";
      return h("div", {
        class: `jh-spot${move ? " legal" : ""}${active ? " active" : ""}`,
        "data-testid": "arcade-spot", "data-spot": entry.spot, "data-legal": move ? "true" : "false",
        "data-key": `spot-${entry.spot}`, "data-move": move ? JSON.stringify(move) : null,
        role: move ? "button" : null, tabindex: move ? 0 : null,
        "aria-label": card ? `Spot ${entry.spot + 1}: ${card.name}${move ? ", you may move here" : ""}` : `Spot ${entry.spot + 1}: empty`,
        onclick: move ? () => send(move) : null,
        onkeydown: move ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); send(move); } } : null,
      },
      h("div", { class: "jh-spot-no" }, `#${entry.spot + 1}`,
        entry.blocked_by !== null && entry.blocked_by !== undefined ? h("span", { class: "jh-ooo" }, `OUT OF ORDER (${heroName(entry.blocked_by)})`) : null),
      cardFace(card, entry),
      h("div", { class: "jh-pawns" }, entry.pawns.map(pawn)));
    });
    const extra = [];
    if (b.tournament) {
      extra.push(h("div", { class: "jh-spot tournament", "data-testid": "tournament-card" },
        h("div", { class: "jh-spot-no" }, b.tournament.kind === "sudden_death" ? "AFTER-HOURS" : "TOURNAMENT"),
        cardFace(cards[b.tournament.card]),
        h("div", { class: "small" }, Object.entries(b.tournament.scores).map(([seat, sc]) => `${heroName(+seat)} ${sc}`).join(" · "))));
    }
    morph(els.arcade, spots, extra);
  }

  function renderHeroes(s, b) {
    fill(els.heroes, b.players.map((p) => {
      const cols = COLUMNS.map((c) => h("div", { class: `jh-col ${COLUMNS.indexOf(c) < 4 ? "skill" : "genre"}`, title: `${COLUMN_NAMES[c]}: ${count(p.cubes[c], "cube")}`, "data-column": c, "data-cubes": p.cubes[c] },
        h("div", { class: "jh-cubes" }, Array.from({ length: 5 }, (_, i) => h("span", { class: i < p.cubes[c] ? "cube on" : "cube" }))),
        h("div", { class: "jh-col-name" }, COLUMN_SHORT[c])));
      const acting = (s.active_seats || []).includes(p.seat);
      const name = s.seats?.find((x) => x.seat === p.seat)?.name || "";
      return h("div", { class: `panel jh-hero${acting ? " acting" : ""}${p.seat === you ? " mine" : ""}`, "data-testid": "hero-board", "data-seat": p.seat, "data-phone": p.seat === you && b.phase === "powerup" ? "board" : null, style: { borderColor: heroColor(p.seat) } },
        h("div", { class: "jh-hero-head" },
          h("span", { class: "swatch jh-letter", style: { background: heroColor(p.seat) }, "aria-hidden": "true" }, heroLetter(p.seat)),
          h("strong", {}, `${heroName(p.seat)} `), h("span", { class: "muted small" }, name),
          b.pizza === p.seat ? h("span", { class: "jh-pizza", title: "Pizza slice: starts the round" }, "PIZZA") : null,
          b.phase === "powerup" ? h("span", { class: "small" }, p.done ? " ✔ done" : " shopping…") : null),
        h("div", { class: "jh-stats" },
          h("span", { "data-testid": "tokens", title: "Arcade tokens" }, `Tokens ${p.tokens}`),
          h("span", { "data-testid": "tickets", title: "Tickets" }, `Tickets ${p.tickets}`),
          h("span", { "data-testid": "prizes", title: "Prizes" }, `Prizes ${p.prizes}`),
          h("span", { "data-testid": "hand-count", title: "Power cards in hand" }, `Cards ${p.hand_count}`)),
        h("div", { class: "jh-cols" }, cols));
    }));
  }

  // [long label, short label for a phone's narrow hand cards]
  function moveLabels(m, play) {
    if (m.type === "play_card") {
      if (m.skill) return [`Play: ${COLUMN_NAMES[m.skill]}`, `Play ${COLUMN_SHORT[m.skill]}`];
      if (m.die !== undefined) {
        const value = play ? play.dice[m.die] : null;
        return value === null ? [`Play on die ${m.die + 1}`, `Die ${m.die + 1}`] : [`Turn a ${value} to 300`, `${value}→300`];
      }
      if (m.face) return [`Set ${FACE_LABELS[m.face]}`, FACE_LABELS[m.face]];
      if (m.spot !== undefined) return [`Block #${m.spot + 1}`, `#${m.spot + 1}`];
      return ["Play", "Play"];
    }
    const label = moveLabel(m, "");
    return [label, label];
  }

  function labelled(m, play) {
    const [long, short] = moveLabels(m, play);
    if (long === short) return { label: long };
    return { label: [h("span", { class: "jh-long" }, long), h("span", { class: "jh-short", "aria-hidden": "true" }, short)], name: long };
  }

  // Turbo turns one Scoring die to 300: dice showing the same value give the same result, and
  // a 300 gains nothing, so one button per value that gains (at most three, not nine).
  function distinctTurbo(moves, play) {
    const seen = new Set();
    return moves.filter((m) => {
      if (m.type !== "play_card" || m.die === undefined || !play) return true;
      const value = play.dice[m.die];
      if (value === 300 || seen.has(value)) return false;
      seen.add(value);
      return true;
    });
  }

  function moveLabel(m, cardName) {
    if (m.type === "play_card") {
      if (m.skill) return `Play: ${COLUMN_NAMES[m.skill]}`;
      if (m.die !== undefined) return `Play on die ${m.die + 1}`;
      if (m.face) return `Set ${FACE_LABELS[m.face]}`;
      if (m.spot !== undefined) return `Block #${m.spot + 1}`;
      return "Play";
    }
    if (m.type === "use_key") return "Spend on Key";
    if (m.type === "discard") return "Discard";
    if (m.type === "use_coupon") return "Use coupon";
    return cardName;
  }

  function renderHand(s, b, legal) {
    if (you === null) { morph(els.hand, h("p", { class: "muted small" }, "Spectating: hands are hidden.")); return; }
    const hand = b.hand || [];
    const items = hand.map((c) => {
      const moves = distinctTurbo(legal.filter((m) => m.card === c.id), b.play);
      // Keyed by card, so a card's buttons stay put when a card before it leaves the hand.
      // A card with many choices (Out of Order's spots, Cheat Code's faces) gets a whole row
      // of a phone's hand.
      return h("div", { class: `jh-power${moves.length > 3 ? " many" : ""}`, "data-testid": "power-card", "data-key": c.id, "data-card": c.id, "data-kind": c.kind },
        h("div", { class: "jh-power-head" }, h("strong", {}, c.name), c.key ? h("span", { class: "jh-key", title: "Key value" }, `Key ${c.key}`) : null),
        h("div", { class: "small muted" }, TIMING_WORDS[c.timing] || c.timing),
        h("div", { class: "small" }, c.text),
        moves.length ? h("div", { class: "jh-actions" }, moves.map((m) => { const { label, name } = labelled(m, b.play); return moveButton(m, label, { testid: `card-${m.type}`, name }); })) : null);
    });
    morph(els.hand, h("h2", {}, `Your Power cards (${hand.length}/3)`), items.length ? h("div", { class: "jh-hand-cards" }, items) : h("p", { class: "muted small" }, "No Power cards."));
  }

  // ------------------------------------------------------------ dice
  function dieFace(value, { index, marked, legalMark } = {}) {
    const pips = value / 100;
    const mark = legalMark ? { type: "mark_die", die: index } : null;
    return h("button", {
      type: "button", class: `jh-die${marked ? " marked" : ""}${mark ? " markable" : ""}`,
      "data-testid": "scoring-die", "data-value": value, disabled: !mark,
      "data-key": `die-${index}`, "data-move": mark ? JSON.stringify(mark) : null,
      "aria-label": `Scoring die ${index + 1}: ${value}`,
      onclick: mark ? () => send(mark) : null,
    }, h("span", { class: "jh-die-val" }, String(value)), h("span", { class: "jh-die-pips" }, "•".repeat(pips)));
  }

  // The cabinet being played, in one line: what the dice must reach and what it pays. `state`
  // marks lines: {row: "reached" | "passed" | "current" | "missed"} (1-based, or "hi").
  function chartLine(card, state = {}) {
    if (!card) return null;
    const premium = card.tier === "premium";
    const line = (row, text) => h("span", { class: `jh-cab-row${state[row] ? ` ${state[row]}` : ""}`, "data-row": row, "data-state": state[row] || null }, text);
    const parts = [h("span", {}, premium ? "Premium" : "Standard")];
    card.chart.forEach((entry, i) => parts.push(" · ", line(i + 1, `${premium ? `L${i + 1} ` : ""}${entry.score}: ${rewardText(entry)}`)));
    parts.push(" · ", line("hi", `HI ${card.high_score.score}: ${rewardText(card.high_score)}`));
    return h("div", { class: `jh-cab-chart small ${premium ? "gold" : "silver"}`, "data-testid": "cabinet-chart" }, parts);
  }

  // Which chart lines a score reaches: a Standard card's best line tied or beaten, a Premium
  // card's Levels passed (and the one missed when the play is over), or the High Score.
  function chartState(card, { score, levels, level, highScore, over }) {
    const state = {};
    if (!card) return state;
    if (highScore) { state.hi = "reached"; return state; }
    if (card.tier === "premium") {
      const passed = levels ?? 0;
      for (let row = 1; row <= passed; row += 1) state[row] = "passed";
      if (over && passed < card.chart.length) state[passed + 1] = "missed";
      if (!over && level) state[level] = "current";
      return state;
    }
    if (score === null || score === undefined) return state;
    let best = 0;
    card.chart.forEach((entry, i) => { if (score >= entry.score) best = i + 1; });
    if (best) state[best] = "reached";
    return state;
  }

  function renderDice(s, b, legal) {
    const play = b.play;
    const turnCard = b.turn && b.turn.spot !== null && b.turn.spot !== undefined ? b.arcade[b.turn.spot]?.card : null;
    if (!play && turnCard !== null && turnCard !== undefined) {
      const card = b.cards.find((c) => c.id === turnCard);
      morph(els.dice,
        h("div", { class: "jh-dice-head" }, h("strong", {}, `${heroName(b.turn.seat)} goes to ${card ? card.name : "a game"}`)),
        chartLine(card));
      return;
    }
    if (!play) {
      const r = b.last_result;
      if (!r) { morph(els.dice, h("p", { class: "muted small" }, "The dice wait for the next game.")); return; }
      const card = b.cards.find((c) => c.id === r.card);
      const premium = card && card.tier === "premium";
      const levels = premium && r.levels !== null && r.levels !== undefined ? `, ${count(r.levels, "Level", "Levels")} passed` : "";
      morph(els.dice,
        h("p", { class: "small", "data-testid": "last-result", "data-seat": r.seat, "data-score": r.score },
          `Last game: ${heroName(r.seat)} scored ${r.score}${card ? ` on ${card.name}` : ""}${levels}${r.high_score ? " — HIGH SCORE!" : ""}`),
        chartLine(card, chartState(card, { score: r.score, levels: r.levels, highScore: r.high_score, over: true })));
      return;
    }
    const playCard = b.cards.find((c) => c.id === play.card);
    const cardName = (playCard || {}).name || "";
    const rolled = play.step !== "before";
    const marks = new Set(legal.filter((m) => m.type === "mark_die").map((m) => m.die));
    const dice = play.dice.map((v, i) => dieFace(v, { index: i, marked: play.marked.includes(i), legalMark: marks.has(i) }));
    const gameDie = play.face
      ? h("span", { class: `jh-gamedie${play.face_mod ? ` ${play.face_mod}` : ""}`, "data-testid": "game-die", "data-face": play.face }, FACE_LABELS[play.face], play.face_mod === "ignored" ? " (ignored)" : play.face_mod === "doubled" ? " ×2" : "")
      : h("span", { class: "jh-gamedie waiting", "data-testid": "game-die", "data-face": "" }, "?");
    const cont = play.continued ? h("span", { class: "jh-cont" }, `Continue: ${play.continued.die} + ${FACE_LABELS[play.continued.face]}`) : null;
    const target = play.premium ? `Level ${play.level}: needs ${play.level_target}` : "";
    morph(els.dice,
      h("div", { class: "jh-dice-head" },
        h("strong", {}, `${heroName(play.seat)} plays ${cardName}`),
        h("span", { class: "small muted" }, ` ${play.context === "arcade" ? "" : play.context === "tournament" ? "(tournament)" : "(tie-break)"} ${target} · High Score ${play.high_score_target}`)),
      chartLine(playCard, chartState(playCard, { score: rolled ? play.score : null, levels: play.passed, level: play.level, over: false,
        highScore: rolled && (!play.premium || play.level === 3) && play.score >= play.high_score_target })),
      play.step === "before"
        ? h("p", { class: "small" }, `${count(play.dice_count, "Scoring die", "Scoring dice")} ready${play.coop ? ` (incl. a cube lent by ${heroName(play.coop.lender)})` : ""}.`)
        : h("div", { class: "jh-dice-row" }, dice, gameDie, cont),
      play.step !== "before" ? h("div", { class: "jh-score-line", "data-testid": "play-score", "data-score": play.score }, `Score: ${play.score}`) : null);
  }

  function animateRoll() {
    for (const node of els.dice.querySelectorAll(".jh-die, .jh-gamedie")) {
      node.classList.remove("rolling");
      void node.offsetWidth;
      node.classList.add("rolling");
    }
  }

  // ------------------------------------------------------------ the prompt
  // Whether this viewer has a decision to make: she is to move. Discards are open to every
  // seat during a PLAY phase (H13a) and sit on the hand cards; they are no turn of hers.
  function toMove(s) {
    return you !== null && (s.active_seats || []).includes(you);
  }

  // A diagram's prompt tells what its move did, in the events' own words (the server already
  // left out what this viewer may not see).
  function narrate(events) {
    const lines = (events || []).filter((e) => e.text && (!e.only || e.only.includes(you)));
    if (!lines.length) return false;
    morph(els.prompt, h("p", { class: "small muted" }, "What just happened:"),
      h("ul", { class: "jh-narration", "data-testid": "narration" }, lines.map((e) => h("li", { "data-type": e.type }, e.text))));
    return true;
  }

  function renderPrompt(s, b, legal) {
    const mine = toMove(s) && legal.length > 0;
    const q = b.question;
    const parts = [];
    if (!(q && REACTIONS[q.kind])) clearAutoPass();
    if (s.outcome) {
      parts.push(h("p", {}, s.outcome.reason));
    } else if (b.phase === "setup") {
      if (mine) {
        parts.push(h("p", {}, "Create your hero: pick the two genres that get a starting cube."));
        parts.push(h("div", { class: "jh-actions" }, legal.map((m) => moveButton(m, m.genres.map((g) => COLUMN_NAMES[g]).join(" + "), { testid: "genre-choice", attrs: { "data-genres": m.genres.join(" ") } }))));
      } else parts.push(h("p", { class: "muted" }, "Waiting for the other heroes to pick their genres."));
    } else if (q && REACTIONS[q.kind]) {
      parts.push(...reactionPrompt(q, mine));
    } else if (q && mine) {
      let text = "";
      if (q.kind === "versus") text = `${heroName(q.asker)} is about to play a Versus game. Challenge? (1 token; the top scorer gets 2 extra tickets; this becomes your turn)`;
      else if (q.kind === "coop") text = `${heroName(q.asker)} asks to borrow one of your ${COLUMN_NAMES[q.column]} cubes for 1 ticket (you get 2 tickets if they beat the High Score).`;
      parts.push(h("p", { "data-testid": "question-text", "data-kind": q.kind }, text));
      parts.push(h("div", { class: "jh-actions" },
        moveButton({ type: "answer", accept: true }, "Yes", { primary: true, testid: "answer-yes" }),
        moveButton({ type: "answer", accept: false }, "No", { testid: "answer-no" })));
    } else if (q) {
      parts.push(h("p", { class: "muted", "data-testid": "question-wait" }, `Waiting for ${heroName(q.seat)} to answer (${q.kind === "versus" ? "Versus challenge" : "Co-op loan"}).`));
    } else if (b.phase === "powerup") {
      parts.push(...powerupPrompt(s, b, legal));
    } else if (mine && b.play) {
      const play = b.play;
      if (play.step === "before") parts.push(h("p", {}, "Play Before cards from your hand, ask for a Co-op cube, then roll."));
      else if (play.step === "marking") parts.push(h("p", {}, "Do-Over: tap the dice to reroll, then Reroll."));
      else parts.push(h("p", {}, play.premium && play.level < 3 && play.score >= play.level_target ? `You pass Level ${play.level}! Use cards, or go on to Level ${play.level + 1}.` : "Use After cards, a Key or the extra life, then collect."));
      const buttons = [];
      for (const m of legal) {
        if (m.card) continue; // on the hand cards
        if (m.type === "roll") buttons.push(moveButton(m, `Roll ${count(play.dice_count, "die", "dice")}`, { primary: true, testid: "roll" }));
        else if (m.type === "ask_coop") buttons.push(moveButton(m, `Ask ${heroName(m.lender)}: ${COLUMN_NAMES[m.column]} cube`, { testid: "ask-coop" }));
        else if (m.type === "take_life") buttons.push(moveButton(m, "♥ Take the extra life", { testid: "take-life" }));
        else if (m.type === "continue_game") buttons.push(moveButton(m, "Continue? (2 tickets)", { testid: "continue" }));
        else if (m.type === "reroll") buttons.push(moveButton(m, "Reroll", { primary: true, testid: "reroll" }));
        else if (m.type === "done") {
          const nextLevel = play.premium && play.level < 3 && play.score >= play.level_target;
          buttons.push(moveButton(m, nextLevel ? `Go to Level ${play.level + 1}` : "Collect winnings", { primary: true, testid: "collect" }));
        }
      }
      parts.push(h("div", { class: "jh-actions" }, buttons));
    } else if (mine && b.turn) {
      const canMove = legal.some((m) => m.type === "move_to");
      parts.push(h("p", {}, canMove ? `Your turn: tap a glowing Games card to move there${b.turn.free ? " (Free Play)" : " and insert a token"}.` : "No free game for you."));
      const skip = legal.find((m) => m.type === "done");
      if (skip) parts.push(h("div", { class: "jh-actions" }, moveButton(skip, "Skip this turn", { testid: "skip-turn" })));
    } else {
      const seat = (s.active_seats || [])[0];
      parts.push(h("p", { class: "muted" }, seat !== undefined ? `${heroName(seat)} is playing…` : ""));
      if (legal.some((m) => m.type === "discard")) {
        parts.push(h("p", { class: "small", "data-testid": "discard-hint" }, "You may discard Power cards from your hand at any time of the PLAY phase."));
      }
    }
    // Most updates (another seat's private answer, another hero done shopping) change nothing
    // here; merged, a button stays the element under the pointer while it sends the same move.
    // Prompt elements act only through moveButton, whose move is its data-move (morph's key).
    morph(els.prompt, parts);
  }

  // Reactions: everyone who could hold the card is asked alike, so the table cannot tell who
  // holds one. A seat without the card can only pass: the page passes for it after a short
  // random pause (a holder who passes quickly looks the same).
  function reactionPrompt(q, mine) {
    const card = REACTIONS[q.kind];
    const what = q.kind === "tilt"
      ? `${heroName(q.asker)} rolled the Game die: anyone may now play Tilt! to make them reroll it.`
      : `${heroName(q.asker)} just won tickets: anyone may now play Ticket Thief to take ${q.amount}.`;
    const out = [h("p", { "data-testid": "question-text", "data-kind": q.kind }, what)];
    if (!mine) {
      clearAutoPass();
      out.push(h("p", { class: "muted", "data-testid": "question-wait" }, `Waiting for ${q.seats.map(heroName).join(", ")} (everyone who could hold a ${card} is asked).`));
      return out;
    }
    if (q.answer !== null && q.answer !== undefined) {
      clearAutoPass();
      out.push(h("p", { class: "small", "data-testid": "reaction-answer" }, `Your answer: ${q.answer ? `play ${card}` : "pass"}. Waiting for the others${q.holding ? " (you may still change it)" : ""}.`));
      if (q.holding) out.push(h("div", { class: "jh-actions" }, moveButton({ type: "answer", accept: !q.answer }, q.answer ? "Pass instead" : `Play ${card} instead`, { testid: q.answer ? "answer-no" : "answer-yes" })));
      return out;
    }
    if (q.holding) {
      clearAutoPass();
      out.push(h("p", {}, `You hold ${card}. Play it?`));
      out.push(h("div", { class: "jh-actions" },
        moveButton({ type: "answer", accept: true }, `Play ${card}`, { primary: true, testid: "answer-yes" }),
        moveButton({ type: "answer", accept: false }, "Pass", { testid: "answer-no" })));
      return out;
    }
    out.push(h("p", { class: "small muted", "data-testid": "reaction-pass" }, `You hold no ${card}: passing…`));
    if (autoPass === null) autoPass = setTimeout(() => { autoPass = null; send({ type: "answer", accept: false }); }, 700 + Math.random() * 1600);
    return out;
  }

  function clearAutoPass() {
    if (autoPass !== null) { clearTimeout(autoPass); autoPass = null; }
  }

  function powerupPrompt(s, b, legal) {
    if (you === null) return [h("p", { class: "muted" }, "POWER UP: the heroes shop at the prize counter.")];
    const cart = b.cart;
    const me = b.players[you];
    if (!legal.length) return [h("p", { class: "muted", "data-testid": "powerup-waiting" }, "You are done shopping; waiting for the others.")];
    const last = me.last_game !== null ? b.cards.find((c) => c.id === me.last_game) : null;
    const costs = b.rules.costs;
    const buys = legal.filter((m) => m.type === "buy").map((m) => moveButton(m,
      m.item === "prize" ? `Prize (${costs.prize} tickets)` : `${COLUMN_NAMES[m.item]} cube (${COLUMNS.indexOf(m.item) < 4 ? costs.skill : costs.genre} tickets)`,
      { testid: `buy-${m.item}` }));
    const others = legal.filter((m) => m.type === "undo" || m.type === "done").map((m) => m.type === "undo"
      ? moveButton(m, "Undo", { testid: "undo" })
      : moveButton(m, "Done shopping", { primary: true, testid: "powerup-done" }));
    const summary = cart ? `Basket: ${Object.entries(cart.cubes).map(([c, n]) => `${n}× ${COLUMN_NAMES[c]}`).concat(cart.prizes ? [`${cart.prizes}× Prize`] : []).join(", ") || "empty"} · ${cart.spent} tickets · ${cart.left} left${cart.pending_coupons ? ` · coupon waiting` : ""}` : "";
    return [
      h("p", {}, b.final ? "Final POWER UP: buy Prizes and cubes (no card draw). Everyone shops at once; purchases show when all are done." : `POWER UP: cubes for ${last ? last.name : "your last game"}'s columns, Prizes; purchases show when all are done.`),
      h("p", { class: "small", "data-testid": "cart" }, summary),
      h("div", { class: "jh-actions" }, buys, others),
    ];
  }

  // ------------------------------------------------------------ end chart
  function renderChart(s, b) {
    if (!s.outcome || !b.history.length) { els.chart.hidden = true; return; }
    els.chart.hidden = false;
    const rounds = b.history.length;
    const max = Math.max(1, ...b.history.flatMap((r) => r.prizes));
    const W = 320, H = 160, L = 28, B = 20;
    const x = (i) => L + (rounds === 1 ? (W - L - 8) / 2 : (i * (W - L - 8)) / (rounds - 1));
    const y = (v) => H - B - (v * (H - B - 10)) / max;
    const lines = b.players.map((p) => svg("polyline", {
      fill: "none", stroke: heroColor(p.seat), "stroke-width": 2.5, "data-seat": p.seat,
      points: b.history.map((r, i) => `${x(i)},${y(r.prizes[p.seat])}`).join(" "),
    }));
    // Each line ends in its hero's letter, so the lines are told apart without colour.
    const last = rounds - 1;
    const ends = b.players.map((p) => svg("text", {
      x: Math.min(W - 8, x(last) - 12 + 7 * p.seat), y: y(b.history[last].prizes[p.seat]) - 4, "font-size": 10, "font-weight": 700,
      fill: heroColor(p.seat), class: "jh-line-letter",
    }, heroLetter(p.seat)));
    const axis = [svg("line", { x1: L, y1: H - B, x2: W, y2: H - B, stroke: "currentColor" }), svg("line", { x1: L, y1: 4, x2: L, y2: H - B, stroke: "currentColor" }),
      svg("text", { x: 2, y: y(max) + 4, "font-size": 10, fill: "currentColor" }, String(max)), svg("text", { x: 2, y: H - B, "font-size": 10, fill: "currentColor" }, "0"),
      ...b.history.map((r, i) => svg("text", { x: x(i) - 3, y: H - 5, "font-size": 9, fill: "currentColor" }, String(r.round)))];
    fill(els.chart, h("h2", {}, "Prizes per round"),
      svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "jh-chart-svg", role: "img", "aria-label": "Prizes of every hero after each round" }, axis, lines, ends),
      h("div", { class: "jh-legend small" }, b.players.map((p) => h("span", {}, h("span", { class: "swatch jh-letter", style: { background: heroColor(p.seat) }, "aria-hidden": "true" }, heroLetter(p.seat)), ` ${heroName(p.seat)}: ${count(p.prizes, "Prize")}`))));
  }

  function renderTop(s, b) {
    const phase = { setup: "Set-up", play: "PLAY phase", powerup: b.final ? "Final POWER UP" : "POWER UP", tournament: "Tournament", over: "Game over" }[b.phase] || b.phase;
    fill(els.top,
      h("span", { class: "jh-tag" }, `Round ${b.round}`), h("span", { class: "jh-tag", "data-testid": "phase", "data-phase": b.phase }, phase),
      h("span", { class: "small muted" }, `Games deck ${b.decks.games} · Power deck ${b.decks.power}${b.tournaments_queued ? ` · ${count(b.tournaments_queued, "tournament")} coming` : ""}${b.options.continue_rule ? " · Continue? on" : ""}${b.options.skip_tournaments ? " · no tournaments" : ""}`));
  }

  // What the current decision is about, for the phone layout: the arcade (genres at set-up,
  // where to move), the cabinet being played (dice, questions, reactions, discards while
  // others play) or your hero board (POWER UP).
  function focusOf(s, b) {
    if (b.phase === "powerup") return you !== null ? "hero" : "arcade";
    if (b.play || b.question) return "cabinet";
    if (b.turn && b.turn.spot !== null && b.turn.spot !== undefined) return "cabinet";
    return "arcade";
  }

  function markPhone(s, b, legal) {
    const focus = s.outcome ? "arcade" : focusOf(s, b);
    board.dataset.focus = focus;
    const mark = (el, role) => { if (role) el.dataset.phone = role; else delete el.dataset.phone; };
    mark(els.arcade, focus === "arcade" ? "board" : null);
    mark(els.dice, focus === "cabinet" ? "board" : null);
    mark(els.prompt, "controls");
    mark(els.hand, legal.some((m) => m.card) ? "controls" : null);
  }

  function update(s, events) {
    current = s;
    const b = s.board;
    root.dataset.version = String(s.version ?? "");
    root.dataset.you = you === null ? "" : String(you);
    board.dataset.phase = b.phase;
    const cards = Object.fromEntries(b.cards.map((c) => [c.id, c]));
    const legal = readOnly ? [] : s.legal_moves || [];
    renderTop(s, b);
    if (!(diagram && narrate(events))) renderPrompt(s, b, legal);
    renderDice(s, b, legal);
    renderArcade(s, b, cards, legal);
    renderHand(s, b, legal);
    renderHeroes(s, b);
    renderChart(s, b);
    markPhone(s, b, legal);
    if ((events || []).some((e) => ["roll", "life", "reroll", "tilt", "continue"].includes(e.type))) animateRoll();
    if (!diagram) {
      for (const e of events || []) {
        if (e.type === "tournament_win" || (e.type === "collect" && e.high_score)) toast(e.text);
      }
    }
    applyMarks();
  }

  // ------------------------------------------------------------ highlight (diagrams)
  const STAT_TESTIDS = { tokens: "tokens", tickets: "tickets", prizes: "prizes", cards: "hand-count" };

  function markTargets(mark) {
    if (!mark || typeof mark !== "object") return [];
    const all = (scope, selector) => (scope ? [...scope.querySelectorAll(selector)] : []);
    const attr = (value) => CSS.escape(String(value));
    if (mark.spot !== undefined) {
      const spot = board.querySelector(`[data-testid="arcade-spot"][data-spot="${attr(mark.spot)}"]`);
      if (mark.row !== undefined) return all(spot, `[data-row="${attr(mark.row)}"]`);
      return spot ? [spot] : [];
    }
    if (mark.card !== undefined) return all(board, `.jh-card[data-card="${attr(mark.card)}"]`);
    if (mark.hero !== undefined) {
      const hero = board.querySelector(`[data-testid="hero-board"][data-seat="${attr(mark.hero)}"]`);
      if (mark.column !== undefined) return all(hero, `[data-column="${attr(mark.column)}"]`);
      if (mark.stat !== undefined) return all(hero, `[data-testid="${attr(STAT_TESTIDS[mark.stat] || mark.stat)}"]`);
      return hero ? [hero] : [];
    }
    if (mark.row !== undefined) return all(els.dice, `[data-testid="cabinet-chart"] [data-row="${attr(mark.row)}"]`);
    if (mark.die !== undefined) return all(els.dice, '[data-testid="scoring-die"]').filter((_, i) => i === Number(mark.die));
    if (mark.game_die) return all(els.dice, '[data-testid="game-die"]');
    if (mark.hand !== undefined) return all(els.hand, `[data-testid="power-card"][data-card="${attr(mark.hand)}"]`);
    if (mark.power !== undefined) return all(els.hand, `[data-testid="power-card"][data-kind="${attr(mark.power)}"]`);
    if (mark.prompt) return [els.prompt];
    return [];
  }

  function applyMarks() {
    for (const el of board.querySelectorAll("[data-mark]")) delete el.dataset.mark;
    for (const mark of marks) {
      const kind = ["good", "bad"].includes(mark?.kind) ? mark.kind : "hint";
      for (const el of markTargets(mark)) el.dataset.mark = kind;
    }
  }

  function highlight(list) {
    marks = Array.isArray(list) ? list : [];
    applyMarks();
  }

  function describeTurn(s) {
    const b = s.board;
    const legal = s.legal_moves || [];
    const active = s.active_seats || [];
    if (!active.length) return null;
    const seat = active[0];
    if (toMove(s) && legal.length) {
      let title = "Your turn";
      if (b.question && REACTIONS[b.question.kind]) title = b.question.holding ? `Play ${REACTIONS[b.question.kind]}?` : "Others may react…";
      else if (b.question) title = "Your answer, please";
      else if (b.phase === "powerup") title = "POWER UP: go shopping";
      else if (b.phase === "setup") title = "Pick your genres";
      else if (b.phase === "tournament") title = "Your tournament play";
      return { mine: true, title, detail: b.play && b.play.seat === you ? `Score ${b.play.step === "before" ? "—" : b.play.score}` : "" };
    }
    if (b.phase === "powerup" || b.phase === "setup") return { mine: false, title: `Waiting for ${active.map(heroName).join(", ")}` };
    if (b.question && REACTIONS[b.question.kind]) return { mine: false, title: `Waiting: anyone may play ${REACTIONS[b.question.kind]}`, color: heroColor(b.question.asker) };
    if (b.question) return { mine: false, title: `Waiting for ${heroName(seat)} to answer`, color: heroColor(seat) };
    return { mine: false, title: `Waiting for ${heroName(seat)}`, color: heroColor(seat) };
  }

  return {
    update,
    highlight,
    describeTurn,
    seatInfo: (seat) => ({ label: heroName(seat), color: heroColor(seat) }),
    destroy() { clearAutoPass(); root.replaceChildren(); current = null; },
  };
}
