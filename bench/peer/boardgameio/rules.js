// C64 Maze, ported line by line from our rules module so that boardgame.io does the same work
// per move as our server: app/games/c64/maze.py (the game), app/games/c64/base.py (turns,
// phases, events, the view), app/games/c64/joystick.py (the joystick cards and their legal
// moves), app/games/c64/geometry.py and app/engine/dice.py (the seeded shuffle). The board is
// read from the same map file, app/games/c64/maps/Z.txt. check.js and ../check_port.py play
// the same seeded move sequences through this file and through the Python module and compare
// every legal-move list, state, view and event text.
//
// Like the Python module, nothing here changes its input: `apply` returns a new state that
// shares the unchanged parts with the old one (boardgame.io hands moves an Immer draft; a move
// that returns a new object and leaves the draft alone is what Immer expects).
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

class IllegalMove extends Error {}

// --- app/engine/dice.py ---------------------------------------------------------------------
class Dice {
  constructor(seed, moveNumber) {
    this.key = Buffer.from(String(seed), 'utf8');
    this.move = moveNumber;
    this.block = 0;
    this.buffer = Buffer.alloc(0);
  }

  bytes(n) {
    while (this.buffer.length < n) {
      const digest = crypto
        .createHmac('sha256', this.key)
        .update(`${this.move}:${this.block}`)
        .digest();
      this.buffer = Buffer.concat([this.buffer, digest]);
      this.block += 1;
    }
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  below(n) {
    if (n === 1) return 0;
    let nbytes = 0;
    for (let v = n; v > 0; v = Math.floor(v / 256)) nbytes += 1; // (n.bit_length() + 7) // 8
    const span = 256 ** nbytes;
    const limit = Math.floor(span / n) * n;
    for (;;) {
      let value = 0;
      for (const b of this.bytes(nbytes)) value = value * 256 + b;
      if (value < limit) return value % n;
    }
  }

  shuffled(items) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = this.below(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

// --- app/games/c64/geometry.py --------------------------------------------------------------
const DIRECTION_NAMES = { N: 'north', E: 'east', S: 'south', W: 'west' };
const DELTA = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
const OPPOSITE = { N: 'S', S: 'N', E: 'W', W: 'E' };
const MOVE_FACES = ['up', 'down', 'left', 'right'];
const FACE_NAMES = {
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  left_button: 'Left Button',
  right_button: 'Right Button',
};
// side, colour, up, down, left, right, left corner, opposite corner (ruling C2)
const SEAT_TABLE = [
  ['S', 'red', 'N', 'S', 'W', 'E', 'a1', 'h8'],
  ['W', 'blue', 'E', 'W', 'N', 'S', 'a8', 'h1'],
  ['N', 'green', 'S', 'N', 'E', 'W', 'h8', 'a1'],
  ['E', 'yellow', 'W', 'E', 'S', 'N', 'h1', 'a8'],
];
const SIDES_BY_PLAYERS = { 2: ['S', 'N'], 3: ['S', 'W', 'N'], 4: ['S', 'W', 'N', 'E'] };
const COLOR = {};
const ABSOLUTE = {};
const LEFT_CORNER = {};
const OPPOSITE_CORNER = {};
for (const [side, colour, up, down, left, right, leftCorner, oppositeCorner] of SEAT_TABLE) {
  COLOR[side] = colour;
  ABSOLUTE[side] = { up, down, left, right };
  LEFT_CORNER[side] = leftCorner;
  OPPOSITE_CORNER[side] = oppositeCorner;
}
const COLUMNS = 'abcdefgh';
const SIZE = 8;
const CORNERS = new Set(['a1', 'h1', 'a8', 'h8']);
const STEP = {};
for (let y = 0; y < SIZE; y += 1) {
  for (let x = 0; x < SIZE; x += 1) {
    const square = `${COLUMNS[x]}${y + 1}`;
    STEP[square] = {};
    for (const [d, [dx, dy]] of Object.entries(DELTA)) {
      const nx = x + dx;
      const ny = y + dy;
      STEP[square][d] =
        nx >= 0 && nx < SIZE && ny >= 0 && ny < SIZE ? `${COLUMNS[nx]}${ny + 1}` : null;
    }
  }
}

// --- app/games/c64/boardmap.py: map Z, from the same file -----------------------------------
function loadMap(name) {
  const file = path.join(__dirname, '..', '..', '..', 'app', 'games', 'c64', 'maps', `${name}.txt`);
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() && !line.trimStart().startsWith(';'));
  const squares = {};
  for (const line of lines.slice(0, SIZE)) {
    const [row, ...cells] = line.trim().split(/\s+/);
    cells.forEach((symbol, i) => {
      squares[`${COLUMNS[i]}${row}`] = symbol;
    });
  }
  return squares;
}
const START_WALLS = Object.entries(loadMap('Z'))
  .filter(([, symbol]) => symbol === '#')
  .map(([square]) => square)
  .sort();

// --- app/games/c64/joystick.py --------------------------------------------------------------
const CARD_FACES = [
  ['up', 'down'],
  ['up', 'down'],
  ['up', 'down'],
  ['left', 'right'],
  ['left', 'right'],
  ['left', 'right'],
  ['left_button', 'right_button'],
  ['left_button', 'right_button'],
  ['left_button', 'right_button'],
];
const PERPENDICULAR = { row: 'col', col: 'row' };
const CELLS = [];
for (let r = 0; r < 3; r += 1) for (let c = 0; c < 3; c += 1) CELLS.push([r, c]);

function newJoystick(rng) {
  const ids = rng.shuffled([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  return {
    grid: [ids.slice(0, 3), ids.slice(3, 6), ids.slice(6, 9)],
    active: [],
    tilted: null,
    axis: null,
    must_return: false,
  };
}

const hasTaken = (joy) => joy.axis !== null;
const isReady = (joy) => joy.axis !== null && !joy.must_return;

function lineCells(axis, [r, c]) {
  return axis === 'row'
    ? [
        [r, 0],
        [r, 1],
        [r, 2],
      ]
    : [
        [0, c],
        [1, c],
        [2, c],
      ];
}

const emptyCells = (joy) => CELLS.filter(([r, c]) => joy.grid[r][c] === null);

function nextCards(joy, to) {
  return lineCells(PERPENDICULAR[joy.axis], to)
    .filter(([r, c]) => r !== to[0] || c !== to[1])
    .map(([r, c]) => joy.grid[r][c])
    .sort((a, b) => a - b);
}

function faceChoices(cards) {
  const [a, b] = [...cards].sort((x, y) => x - y);
  const out = [];
  for (const fa of CARD_FACES[a]) {
    for (const fb of CARD_FACES[b]) {
      out.push([
        { card: a, face: fa },
        { card: b, face: fb },
      ]);
    }
  }
  return out;
}

function takeMoves(joy) {
  if (hasTaken(joy)) return [];
  const moves = [];
  for (const axis of ['row', 'col']) {
    for (let i = 0; i < 3; i += 1) {
      const cells = lineCells(axis, [i, i]);
      for (const [x, y] of [
        [0, 1],
        [0, 2],
        [1, 2],
      ]) {
        const pair = [joy.grid[cells[x][0]][cells[x][1]], joy.grid[cells[y][0]][cells[y][1]]];
        for (const cards of faceChoices(pair)) moves.push({ type: 'take', cards });
      }
    }
  }
  return moves;
}

function returnMoves(joy) {
  if (!joy.must_return) return [];
  const moves = [];
  for (const a of joy.active) {
    for (const [r, c] of emptyCells(joy)) moves.push({ type: 'return', card: a.card, to: [r, c] });
  }
  return moves;
}

function playMoves(joy) {
  const { active } = joy;
  const empties = emptyCells(joy);
  const moves = [];
  if (active.length > 1) {
    for (const a of active) {
      for (const [r, c] of empties) moves.push({ type: 'play', card: a.card, to: [r, c] });
    }
    return moves;
  }
  for (const a of active) {
    for (const to of empties) {
      for (const cards of faceChoices(nextCards(joy, to))) {
        moves.push({ type: 'play', card: a.card, to: [to[0], to[1]], next: cards });
      }
    }
  }
  return moves;
}

function copyJoystick(joy) {
  return {
    grid: joy.grid.map((row) => [...row]),
    active: [...joy.active],
    tilted: joy.tilted,
    axis: joy.axis,
    must_return: joy.must_return,
  };
}

function findCard(joy, card) {
  return CELLS.find(([r, c]) => joy.grid[r][c] === card) || null;
}

// The transitions, for moves already checked against the legal list (see `apply`).
function take(joy, move, mustReturn) {
  const [a, b] = move.cards;
  const cellA = findCard(joy, a.card);
  const cellB = findCard(joy, b.card);
  const axis = cellA[0] === cellB[0] ? 'row' : 'col';
  const next = copyJoystick(joy);
  for (const [r, c] of [cellA, cellB]) next.grid[r][c] = null;
  const taken = move.cards.map(({ card, face }) => ({ card, face }));
  next.active = taken;
  next.axis = axis;
  next.must_return = mustReturn;
  return [next, taken];
}

function returnCard(joy, move) {
  const [r, c] = move.to;
  const index = joy.active.findIndex((a) => a.card === move.card);
  const next = copyJoystick(joy);
  next.grid[r][c] = move.card;
  next.active.splice(index, 1);
  next.must_return = false;
  return [next, move.card, [r, c]];
}

function play(joy, move) {
  const to = [move.to[0], move.to[1]];
  const index = joy.active.findIndex((a) => a.card === move.card);
  const last = joy.active.length === 1;
  const next = copyJoystick(joy);
  next.grid[to[0]][to[1]] = move.card;
  const { face } = next.active.splice(index, 1)[0];
  next.tilted = [to[0], to[1]];
  let taken = null;
  if (last) {
    for (const [r, c] of lineCells(PERPENDICULAR[joy.axis], to)) {
      if (r !== to[0] || c !== to[1]) next.grid[r][c] = null;
    }
    taken = move.next.map(({ card, face: f }) => ({ card, face: f }));
    next.active = taken;
    next.axis = PERPENDICULAR[joy.axis];
  }
  return { joystick: next, card: move.card, face, to, taken };
}

// --- app/games/c64/base.py and maze.py ------------------------------------------------------
const colourName = (state, seat) => {
  const colour = COLOR[state.players[seat].side];
  return colour[0].toUpperCase() + colour.slice(1);
};
const facesText = (cards) => cards.map((c) => FACE_NAMES[c.face]).join(' and ');

function setup(players, seed) {
  const rng = new Dice(seed, 0);
  const first = rng.below(players);
  const order = [];
  for (let i = 0; i < players; i += 1) order.push((first + i) % players);
  const sides = SIDES_BY_PLAYERS[players];
  const sideOf = {};
  order.forEach((seat, i) => {
    sideOf[seat] = sides[i];
  });
  const state = {
    game: 'c64-maze',
    phase: 'setup',
    turn: null,
    order,
    players: [],
    joysticks: [],
    outcome: null,
  };
  for (let s = 0; s < players; s += 1) {
    state.players.push({ seat: s, side: sideOf[s], latest: ABSOLUTE[sideOf[s]].up });
  }
  for (let s = 0; s < players; s += 1) state.joysticks.push(newJoystick(rng));
  for (const player of state.players) player.square = LEFT_CORNER[player.side];
  state.walls = [...START_WALLS];
  return state;
}

function activeSeats(state) {
  if (state.phase === 'play') return [state.turn];
  if (state.phase === 'setup') {
    return state.joysticks.map((joy, seat) => (isReady(joy) ? null : seat)).filter((s) => s !== null);
  }
  return [];
}

function legalMoves(state, seat) {
  if (state.phase === 'play') {
    return seat === state.turn ? playMoves(state.joysticks[seat]) : [];
  }
  if (state.phase === 'setup' && seat >= 0 && seat < state.joysticks.length) {
    const joy = state.joysticks[seat];
    return joy.must_return ? returnMoves(joy) : takeMoves(joy);
  }
  return [];
}

// Our server parses a move into its canonical form (card lists sorted, no "next" when absent)
// and accepts it only if it is one of the seat's legal moves; so does this port.
function canonical(move) {
  if (move === null || typeof move !== 'object') return null;
  const sortCards = (cards) =>
    Array.isArray(cards) ? [...cards].sort((a, b) => (a && b ? a.card - b.card : 0)) : cards;
  const out = { type: move.type };
  if (move.cards !== undefined) out.cards = sortCards(move.cards);
  if (move.card !== undefined) out.card = move.card;
  if (move.to !== undefined) out.to = move.to;
  if (move.next !== undefined && move.next !== null) out.next = sortCards(move.next);
  return JSON.stringify(out);
}

function isLegal(state, seat, move) {
  const wanted = canonical(move);
  return wanted !== null && legalMoves(state, seat).some((m) => JSON.stringify(m) === wanted);
}

function apply(state, seat, move) {
  if (state.phase === 'over') throw new IllegalMove('The game is over.');
  if (!isLegal(state, seat, move)) throw new IllegalMove('That is not one of your legal moves.');
  return state.phase === 'setup' ? setupMove(state, seat, move) : playTurn(state, seat, move);
}

function setupMove(state, seat, move) {
  const joy = state.joysticks[seat];
  const name = colourName(state, seat);
  const events = [];
  let newJoy;
  if (move.type === 'take') {
    const position = state.order.indexOf(seat);
    const mustReturn = position === 1 || position === 3;
    let taken;
    [newJoy, taken] = take(joy, move, mustReturn);
    let text = `${name} takes two cards from a ${newJoy.axis}: ${facesText(taken)}.`;
    if (mustReturn) text += ` As Player ${position + 1}, ${name} must put one back.`;
    events.push({
      type: 'take',
      seat,
      cards: taken.map((c) => ({ ...c })),
      axis: newJoy.axis,
      text,
    });
  } else {
    let card;
    let to;
    [newJoy, card, to] = returnCard(joy, move);
    const left = newJoy.active[0].face;
    events.push({
      type: 'return',
      seat,
      card,
      to: [...to],
      text: `${name} puts a card back without acting and starts with ${FACE_NAMES[left]} only.`,
    });
  }
  const next = { ...state };
  const joysticks = [...state.joysticks];
  joysticks[seat] = newJoy;
  next.joysticks = joysticks;
  if (joysticks.every(isReady)) {
    const first = state.order[0];
    next.phase = 'play';
    next.turn = first;
    events.push({
      type: 'start',
      seat: first,
      text: `Everyone is ready. ${colourName(state, first)} is Player 1 and starts.`,
    });
  }
  return { state: next, events };
}

function playTurn(state, seat, move) {
  const played = play(state.joysticks[seat], move);
  const next = { ...state };
  next.players = state.players.map((p) => ({ ...p }));
  const joysticks = [...state.joysticks];
  joysticks[seat] = played.joystick;
  next.joysticks = joysticks;
  const name = colourName(state, seat);
  const { face } = played;
  const playEvent = {
    type: 'play',
    seat,
    card: played.card,
    face,
    to: [...played.to],
    text: `${name} plays ${FACE_NAMES[face]}.`,
  };
  if (MOVE_FACES.includes(face)) {
    const direction = ABSOLUTE[state.players[seat].side][face];
    playEvent.direction = direction;
    playEvent.text = `${name} plays ${FACE_NAMES[face]} (${DIRECTION_NAMES[direction]}).`;
  }
  const events = [playEvent];
  executeFace(next, seat, face, events);
  if (played.taken !== null) {
    events.push({
      type: 'take',
      seat,
      cards: played.taken.map((c) => ({ ...c })),
      axis: played.joystick.axis,
      text: `${name} takes two new cards: ${facesText(played.taken)}.`,
    });
  }
  const outcome = afterTurn(next, seat);
  if (outcome !== null) {
    next.phase = 'over';
    next.turn = null;
    next.outcome = outcome;
    events.push({ type: 'win', seat, winners: [...outcome.winners], text: outcome.reason });
  } else {
    const { order } = state;
    next.turn = order[(order.indexOf(seat) + 1) % order.length];
  }
  return { state: next, events };
}

function executeFace(state, seat, face, events) {
  if (MOVE_FACES.includes(face)) {
    const player = state.players[seat];
    const direction = ABSOLUTE[player.side][face];
    player.latest = direction;
    movePiece(state, seat, direction, events);
  } else if (face === 'left_button') {
    push(state, seat, events);
  } else {
    pull(state, seat, events);
  }
}

function occupant(state, square) {
  for (const p of state.players) if (p.square === square) return p.seat;
  return null;
}

function blocker(state, square) {
  if (square === null) return 'edge';
  if (state.walls.includes(square)) return 'wall';
  if (occupant(state, square) !== null) return 'adventurer';
  return null;
}

function blockerText(state, why, square) {
  if (why === 'edge') return 'the edge of the board is in the way';
  if (why === 'wall') return `${square} is a wall`;
  return `${colourName(state, occupant(state, square))}'s adventurer is on ${square}`;
}

function movePiece(state, seat, direction, events) {
  const me = state.players[seat];
  const here = me.square;
  const target = STEP[here][direction];
  const name = colourName(state, seat);
  const way = DIRECTION_NAMES[direction];
  const why = blocker(state, target);
  if (why === null) {
    me.square = target;
    events.push({
      type: 'move',
      seat,
      from: here,
      to: target,
      text: `${name} moves ${way} to ${target}.`,
    });
    return;
  }
  const reason = blockerText(state, why, target);
  events.push({
    type: 'blocked',
    seat,
    action: 'move',
    why,
    direction,
    from: here,
    to: target,
    text: `${name} cannot move ${way} from ${here}: ${reason}.`,
  });
}

function noEffect(events, seat, action, why, direction, wall, text) {
  events.push({ type: 'blocked', seat, action, why, direction, wall, text });
}

const sortedSquares = (squares) => squares.sort();

function push(state, seat, events) {
  const me = state.players[seat];
  const here = me.square;
  const direction = me.latest;
  const name = colourName(state, seat);
  const way = DIRECTION_NAMES[direction];
  const { walls } = state;
  const wall = STEP[here][direction];
  if (wall === null || !walls.includes(wall)) {
    const text = `${name} has no wall to push: nothing is ${way} of ${here}.`;
    noEffect(events, seat, 'push', 'no_wall', direction, null, text);
    return;
  }
  const dest = STEP[wall][direction];
  let why = blocker(state, dest);
  if (why === null && CORNERS.has(dest)) why = 'corner';
  if (why !== null) {
    const reason =
      why === 'corner' ? 'walls never go on corner squares' : blockerText(state, why, dest);
    const text = `${name} cannot push the wall at ${wall} ${way}: ${reason}.`;
    noEffect(events, seat, 'push', why, direction, wall, text);
    return;
  }
  state.walls = sortedSquares([...walls.filter((w) => w !== wall), dest]);
  events.push({
    type: 'push',
    seat,
    direction,
    wall_from: wall,
    wall_to: dest,
    piece_from: here,
    piece_to: here,
    text: `${name} pushes the wall at ${wall} ${way} to ${dest}.`,
  });
}

function pull(state, seat, events) {
  const me = state.players[seat];
  const here = me.square;
  const direction = me.latest;
  const name = colourName(state, seat);
  const way = DIRECTION_NAMES[direction];
  const { walls } = state;
  const wall = STEP[here][direction];
  if (wall === null || !walls.includes(wall)) {
    const text = `${name} has no wall to pull: nothing is ${way} of ${here}.`;
    noEffect(events, seat, 'pull', 'no_wall', OPPOSITE[direction], null, text);
    return;
  }
  const backDirection = OPPOSITE[direction];
  const back = STEP[here][backDirection];
  let why = blocker(state, back);
  if (why === null && CORNERS.has(here)) why = 'corner';
  if (why !== null) {
    let reason;
    if (why === 'corner') {
      reason = `${name} stands on a corner and walls never go on corner squares`;
    } else if (why === 'edge') {
      reason = `there is no room behind ${name}`;
    } else {
      reason = blockerText(state, why, back);
    }
    const text = `${name} cannot pull the wall at ${wall}: ${reason}.`;
    noEffect(events, seat, 'pull', why, backDirection, wall, text);
    return;
  }
  me.square = back;
  state.walls = sortedSquares([...walls.filter((w) => w !== wall), here]);
  events.push({
    type: 'pull',
    seat,
    direction: backDirection,
    wall_from: wall,
    wall_to: here,
    piece_from: here,
    piece_to: back,
    text:
      `${name} pulls the wall at ${wall} ${DIRECTION_NAMES[backDirection]} ` +
      `to ${here} and steps back to ${back}.`,
  });
}

function afterTurn(state, seat) {
  const me = state.players[seat];
  const goal = OPPOSITE_CORNER[me.side];
  if (me.square !== goal) return null;
  const name = colourName(state, seat);
  // Outcome.to_json() in app/engine/contract.py
  return {
    winners: [seat],
    reason: `${name} reaches ${goal}, the opposite corner, and wins.`,
    scores: null,
    details: { square: goal },
  };
}

// --- the view (base.py `view`, maze.py `board_view` and `player_view`) ----------------------
const CARD_TABLE = CARD_FACES.map((faces) => [...faces]);

function joystickView(seat, joy) {
  return {
    seat,
    grid: joy.grid.map((row) => [...row]),
    active: joy.active.map((a) => ({ id: a.card, face: a.face })),
    tilted: joy.tilted === null ? null : [...joy.tilted],
    axis: joy.axis,
    must_return: joy.must_return,
  };
}

function view(state) {
  const { phase, order } = state;
  const players = state.players.map((p) => ({
    seat: p.seat,
    side: p.side,
    color: COLOR[p.side],
    number: order.indexOf(p.seat) + 1,
    latest: p.latest,
    ready: isReady(state.joysticks[p.seat]),
    square: p.square,
    goal: OPPOSITE_CORNER[p.side],
  }));
  return {
    family: 'c64',
    game: 'maze',
    phase,
    turn: phase === 'play' ? state.turn : null,
    order: [...order],
    players,
    joysticks: state.joysticks.map((joy, seat) => joystickView(seat, joy)),
    cards: CARD_TABLE,
    walls: [...state.walls],
  };
}

module.exports = {
  Dice,
  IllegalMove,
  START_WALLS,
  activeSeats,
  apply,
  legalMoves,
  setup,
  view,
};
