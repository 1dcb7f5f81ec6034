// boardgame.io 0.50.2's multiplayer server (socket.io transport, matches in its default
// InMemory storage) playing C64 Maze: the peer bench/compare.py measures our server against.
//
//     NODE_ENV=production PORT=8700 node server.js
//
// Matches are made through its Lobby API (POST /games/c64-maze/create, then /join for each
// player's credentials), played over socket.io on the namespace /c64-maze.
'use strict';

const { Server, Origins } = require('boardgame.io/server');
const { Maze } = require('./game');

const port = Number(process.env.PORT || 8700);
const server = Server({ games: [Maze], origins: [Origins.LOCALHOST, /127\.0\.0\.1:\d+/] });
server.run(port, () => {
  process.stdout.write(`boardgame.io serving C64 Maze on port ${port}\n`);
});

// Exit through process.exit on a signal, so that `node --cpu-prof server.js` writes its profile.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
