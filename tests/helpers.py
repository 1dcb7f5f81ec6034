"""Factories for API and WebSocket tests: guests, matches, and a socket that records frames."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import jsonpatch
import websockets


async def update_match_row(database_url: str, match_id: str, **values: Any) -> None:
    """Sets columns of a match row directly (a test's shortcut to a state it needs)."""
    from sqlalchemy import update

    from app.db.models import Match
    from app.db.session import make_engine

    engine = make_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(update(Match).where(Match.id == match_id).values(**values))
    finally:
        await engine.dispose()


def guided_move(
    game: Any,
    state: Any,
    seat: int,
    legal: list[Any],
    chooser: Any,
    dice: Any,
    *,
    random_share: float,
) -> Any:
    """A playout move: uniformly random, unless the game gives a playout score; then all but
    `random_share` of the moves are the best by one-step lookahead (ties at random), so games
    whose random walks never end (C64 Monsters, CD Thief's search for the CDs) end."""
    import copy

    if game.playout_score(state, seat) is None or chooser.random() < random_share:
        return chooser.choice(legal)
    scored = []
    for move in legal:
        after, _events = game.apply(state, seat, move, copy.copy(dice))
        scored.append((game.playout_score(after, seat) or 0.0, chooser.random(), move))
    return max(scored, key=lambda item: (item[0], item[1]))[2]


def play_random_move(live: Any, chooser: Any) -> int:
    """One random legal move in an in-memory `LiveMatch` (no database), remembered as the
    runtime remembers a version; returns the seat that moved."""
    from app.engine.dice import Dice

    game = live.game
    seat = chooser.choice(sorted(game.active_seats(live.state)))
    move = chooser.choice(game.legal_moves(live.state, seat))
    state, events = game.apply(live.state, seat, move, Dice(live.seed, live.version + 1))
    live.state, live.version = state, live.version + 1
    live.remember(live.version, state, events)
    return int(seat)


class Guest:
    def __init__(self, client: httpx.AsyncClient, name: str) -> None:
        self.client = client
        self.name = name
        self.id = ""
        self.token = ""

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def create(self) -> Guest:
        response = await self.client.post("/api/players", json={"name": self.name})
        assert response.status_code == 201, response.text
        data = response.json()
        self.id, self.token = data["id"], data["token"]
        # A client shared by several guests sends the Bearer token of each; the browser's
        # cookie would make its anonymous requests act as the last guest made.
        self.client.cookies.clear()
        return self

    async def post(self, path: str, body: Any = None) -> httpx.Response:
        return await self.client.post(path, json=body, headers=self.auth)

    async def get(self, path: str) -> httpx.Response:
        return await self.client.get(path, headers=self.auth)


async def guests(client: httpx.AsyncClient, *names: str) -> list[Guest]:
    return [await Guest(client, n).create() for n in names]


async def move_until_not_her_turn(guest: Guest, match_id: str, *, limit: int = 20) -> None:
    """Her first legal move, over REST, until the match waits for someone else (a C64 set-up
    may take her several steps)."""
    url = f"/api/matches/{match_id}"
    for step in range(limit):
        view = (await guest.get(url)).json()["view"]
        if view["you"] not in view["active_seats"]:
            return
        moved = await guest.post(
            f"{url}/moves", {"move": view["legal_moves"][0], "id": f"{guest.name}-{step}"}
        )
        assert moved.status_code == 200, moved.text
    raise AssertionError(f"still her turn after {limit} moves")


async def started_match(
    client: httpx.AsyncClient,
    players: list[Guest],
    game: str = "c64-maze",
    options: dict[str, Any] | None = None,
) -> str:
    host = players[0]
    response = await host.post(
        "/api/matches", {"game": game, "options": options or {}, "seats": len(players)}
    )
    assert response.status_code == 201, response.text
    match_id = response.json()["id"]
    for guest in players[1:]:
        joined = await guest.post(f"/api/matches/{match_id}/join", {})
        assert joined.status_code == 200, joined.text
    started = await host.post(f"/api/matches/{match_id}/start")
    assert started.status_code == 200, started.text
    return match_id


class Viewer:
    """A real WebSocket client that keeps every frame and applies patches to its state."""

    def __init__(self, ws_url: str, match_id: str, token: str | None) -> None:
        self.url = f"{ws_url}/api/matches/{match_id}/ws"
        self.token = token
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.ws: Any = None

    async def __aenter__(self) -> Viewer:
        self.ws = await websockets.connect(self.url, max_size=2**22)
        hello: dict[str, Any] = {"type": "hello"}
        if self.token:
            hello["token"] = self.token
        await self.send(hello)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        frame = json.loads(text)
        self.frames.append(frame)
        if frame["type"] == "snapshot":
            self.state, self.version = frame["state"], frame["version"]
        elif frame["type"] == "patch":
            assert frame["version"] == self.version + 1, "versions must be gapless"
            self.state = jsonpatch.apply_patch(self.state, frame["ops"])
            self.version = frame["version"]
        return frame

    async def until(self, predicate: Any, timeout: float = 5.0) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            frame = await self.recv(max(0.01, deadline - loop.time()))
            if predicate(frame):
                return frame

    async def until_type(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        return await self.until(lambda f: f["type"] == kind, timeout)

    async def move(
        self, move: dict[str, Any], move_id: str | None = None, version: int | None = None
    ) -> str:
        move_id = move_id or uuid.uuid4().hex
        message: dict[str, Any] = {"type": "move", "id": move_id, "move": move}
        if version is not None:
            message["version"] = version
        await self.send(message)
        return move_id


async def play_turns(
    players: list[Viewer], turns: int, *, watchers: tuple[Viewer, ...] = ()
) -> None:
    """Whoever may move plays its first legal move, `turns` times; every socket catches up."""
    for _ in range(turns):
        mover = next(v for v in players if v.state and v.state["legal_moves"])
        await mover.move(mover.state["legal_moves"][0])
        await mover.until_type("ack")
        for viewer in (*players, *watchers):
            while viewer.version < mover.version:
                await viewer.recv()


async def started_match_in_db(session: Any, game: str = "c64-maze") -> tuple[str, list[str]]:
    """Two guests and a started two-seat match, made through the services (no server)."""
    from app.engine.fairness import seed_commitment
    from app.services.matches import create_match, join_match, start_match
    from app.services.players import create_player

    ada, _ = await create_player(session, name="Ada")
    bob, _ = await create_player(session, name="Bob")
    match = await create_match(session, host=ada, game_id=game, options={}, seats=2)
    # A fixed server seed: the dice, and so how long a test's random play lasts, are the
    # same on every run (a random seed now and then ended a match before a test was done).
    match.seed = "5eed" * 16
    match.seed_commitment = seed_commitment(match.seed)
    await session.flush()
    await join_match(session, match_id=match.id, player=bob, seat=None)
    await start_match(session, match_id=match.id, player=ada)
    await session.commit()
    return match.id, [ada.id, bob.id]


# The C64 Maze match of finished_match_in_db runs to a few thousand moves, past the verify
# door's default cap of 10,000 moves or 8 MiB with other dice: a server that verifies such a
# record without testing those caps takes these settings.
ROOMY_VERIFY = {"verify_max_moves": 1_000_000, "verify_max_bytes": 64 * 1024 * 1024}


async def finished_match_in_db(database_url: str, *, seed: int = 7) -> dict[str, Any]:
    """A two-player C64 Maze played to its end (random legal moves) straight into the
    database, with browser-style nonces; returns ids and tokens for API calls."""
    import random

    from app.db.migrate import upgrade_to_head
    from app.db.session import make_engine, make_sessionmaker
    from app.engine.fairness import seed_commitment
    from app.engine.runtime import MatchRuntime
    from app.services.matches import create_match, join_match, start_match
    from app.services.players import create_player

    await asyncio.to_thread(upgrade_to_head, database_url)
    engine = make_engine(database_url)

    async def announce(*_args: Any) -> None:
        return None

    runtime = MatchRuntime(engine, announce)
    async with make_sessionmaker(engine)() as session:
        ada, ada_token = await create_player(session, name="Ada")
        bob, bob_token = await create_player(session, name="Bob")
        match = await create_match(
            session, host=ada, game_id="c64-maze", options={}, seats=2, nonce="a1" * 32
        )
        # A fixed server seed, as in started_match_in_db: with random dice the match ran
        # anywhere from hundreds to 17,000 moves, and its record now and then past 8 MiB.
        match.seed = "5eed" * 16
        match.seed_commitment = seed_commitment(match.seed)
        await session.flush()
        await join_match(session, match_id=match.id, player=bob, seat=None, nonce="b2" * 32)
        await start_match(session, match_id=match.id, player=ada)
        await session.commit()
    players = [ada.id, bob.id]
    live = await runtime.get(match.id)
    assert live is not None
    chooser = random.Random(seed)
    while live.status == "active":
        seat = chooser.choice(sorted(live.game.active_seats(live.state)))
        move = chooser.choice(live.game.legal_moves(live.state, seat))
        await runtime.submit(match.id, player_id=players[seat], raw_move=move)
    await runtime.close()
    await engine.dispose()
    return {
        "id": match.id,
        "players": players,
        "tokens": [ada_token, bob_token],
        "state": live.state,
        "version": live.version,
    }
