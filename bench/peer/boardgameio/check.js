// Plays seeded move sequences through rules.js for ../check_port.py, which plays the same ones
// through our Python rules module and compares every step. Input on stdin, JSON:
// [{"seed": str, "players": n, "picks": [[seatPick, movePick], ...]}, ...]; at each step the
// mover is active[seatPick % active.length] and the move legal[movePick % legal.length].
// Output on stdout: per game, per step, the active seats, the legal moves of every seat, the
// view and the events; and the full state at the end.
'use strict';

const rules = require('./rules');

const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = input.map(({ seed, players, picks }) => {
  let state = rules.setup(players, seed);
  const steps = [];
  for (const [seatPick, movePick] of picks) {
    const active = rules.activeSeats(state);
    if (active.length === 0) break;
    const seat = active[seatPick % active.length];
    const legal = rules.legalMoves(state, seat);
    const move = legal[movePick % legal.length];
    const result = rules.apply(state, seat, move);
    state = result.state;
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
  return { setup: rules.view(rules.setup(players, seed)), steps, state };
});
process.stdout.write(JSON.stringify(out));
