// C64 Maze as a boardgame.io 0.50.2 Game, on the rules ported in rules.js.
//
// The rules state is boardgame.io's G (plus `events`, the last move's events in words, which
// our server sends beside each patch). A move is our wire move, {"type": "take" | "return" |
// "play", ...}, sent as the one boardgame.io move `move`; an illegal one is INVALID_MOVE.
// Set-up is simultaneous (every player active, as in our server); then turns follow the
// rules' order, one move a turn.
//
// What a player's frame carries (BGIO_VIEW):
// - "raw" (the default, boardgame.io's own way): the whole state, G as the rules keep it, as
//   boardgame.io sends it when a game has no playerView. Its browser client runs the game's
//   code, so it derives the legal moves and the board from G itself; the load generator does
//   the same with our Python rules module (which check_port.py shows to agree with rules.js).
//   The server's rules work per move is then what ours does: the mover's legal moves (to
//   validate the move) and the move itself.
// - "view": what our server's frames carry, computed by the server for each player: the
//   board view, that player's legal moves and the events (a playerView). This makes the
//   server build the legal moves of both players on every move, which ours does not.
'use strict';

const { ActivePlayers, INVALID_MOVE } = require('boardgame.io/core');
const { original } = require('immer');
const rules = require('./rules');

const seatOf = (playerID) => Number(playerID);
const turnPosition = ({ G, ctx }) => ctx.playOrder.indexOf(String(G.turn));

const Maze = {
  name: 'c64-maze',
  minPlayers: 2,
  maxPlayers: 4,

  setup: ({ ctx, random }, setupData) => {
    const seed = setupData && setupData.seed ? String(setupData.seed) : String(random.Number());
    return { ...rules.setup(ctx.numPlayers, seed), events: [] };
  },

  moves: {
    // boardgame.io hands a move an Immer draft of G. The rules never change their input, so
    // they read the draft's original (plain objects) and the move returns the new state:
    // reading the rules' way through the draft's proxies cost about 200 us a move, several
    // times the rules' own work, a tax boardgame.io need not pay.
    move: ({ G, playerID }, move) => {
      let result;
      try {
        result = rules.apply(original(G), seatOf(playerID), move);
      } catch (err) {
        if (err instanceof rules.IllegalMove) return INVALID_MOVE;
        throw err;
      }
      return { ...result.state, events: result.events };
    },
  },

  phases: {
    setup: {
      start: true,
      next: 'play',
      turn: { activePlayers: ActivePlayers.ALL },
      endIf: ({ G }) => G.phase !== 'setup',
    },
    play: {
      turn: {
        order: { first: turnPosition, next: turnPosition },
        minMoves: 1,
        maxMoves: 1,
      },
    },
  },

  endIf: ({ G }) =>
    G.outcome ? { winner: String(G.outcome.winners[0]), reason: G.outcome.reason } : undefined,
};

const VIEW = process.env.BGIO_VIEW || 'raw';
if (!['raw', 'view'].includes(VIEW)) throw new Error(`BGIO_VIEW is raw or view, not ${VIEW}`);
if (VIEW === 'view') {
  Maze.playerView = ({ G, playerID }) => {
    const seat = playerID === null || playerID === undefined ? null : seatOf(playerID);
    return {
      board: rules.view(G),
      legal_moves: seat === null ? [] : rules.legalMoves(G, seat),
      events: G.events,
    };
  };
}

module.exports = { Maze };
