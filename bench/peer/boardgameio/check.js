// Plays seeded move sequences through rules.js for ../check_port.py, which plays the same ones
// through our Python rules module and compares every step. Input on stdin, JSON:
// [{"seed": str, "players": n, "picks": [[seatPick, movePick], ...]}, ...]; at each step the
// mover is active[seatPick % active.length] and the move legal[movePick % legal.length].
// Output on stdout: per game, per step, the active seats, the legal moves of every seat, the
// view and the events; and the full state at the end.
//
// Each game is also played through boardgame.io itself (its Client with game.js: the phases,
// the turn order, the Immer step), and its G and the players it lets move are checked
// against the rules at every step; a difference stops the check with its description.
'use strict';

const { Client } = require('boardgame.io/client');
const { Maze } = require('./game');
const rules = require('./rules');

const sameJSON = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function boardgameioClient(seed, players) {
  const game = { ...Maze, setup: (context) => Maze.setup(context, { seed }) };
  const client = Client({ game, numPlayers: players });
  client.start();
  return client;
}

function checkFlow(where, client, state, events) {
  const { G, ctx } = client.getState();
  const { events: gEvents, ...gState } = G;
  if (!sameJSON(gState, state)) throw new Error(`${where}: boardgame.io's G differs from the rules`);
  if (!sameJSON(gEvents, events)) throw new Error(`${where}: boardgame.io's events differ`);
  const over = state.phase === 'over';
  if (over !== (ctx.gameover !== undefined)) throw new Error(`${where}: gameover disagrees`);
  if (over) return;
  const movers = ctx.activePlayers
    ? Object.keys(ctx.activePlayers).map(Number)
    : [Number(ctx.currentPlayer)];
  const active = rules.activeSeats(state);
  // boardgame.io keeps every player active at set-up (a ready one has no legal move left).
  const ok =
    state.phase === 'setup' ? active.every((s) => movers.includes(s)) : sameJSON(movers, active);
  if (!ok) throw new Error(`${where}: boardgame.io lets ${movers} move, the rules ${active}`);
}

const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = input.map(({ seed, players, picks }) => {
  let state = rules.setup(players, seed);
  const client = boardgameioClient(seed, players);
  checkFlow(`${seed} set-up`, client, state, []);
  const steps = [];
  for (const [seatPick, movePick] of picks) {
    const active = rules.activeSeats(state);
    if (active.length === 0) break;
    const seat = active[seatPick % active.length];
    const legal = rules.legalMoves(state, seat);
    const move = legal[movePick % legal.length];
    const result = rules.apply(state, seat, move);
    state = result.state;
    client.updatePlayerID(String(seat));
    client.moves.move(move);
    checkFlow(`${seed} move ${steps.length + 1}`, client, state, result.events);
    steps.push({
      active,
      seat,
      move,
      choices: legal.length,
      legal: Array.from({ length: players }, (_, s) => rules.legalMoves(state, s)),
      view: rules.view(state),
      events: result.events,
    });
  }
  client.stop();
  return { setup: rules.view(rules.setup(players, seed)), steps, state };
});
process.stdout.write(JSON.stringify(out));
