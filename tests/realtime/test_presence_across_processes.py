"""Presence, absences, chat, lobby changes and rematches agree across server processes (issue 19,
item 1, "no sticky sessions": presence, chat, lobby updates, rematch notices are shared; the
away clock has exactly one owner and is taken over when its owner dies).

Several servers share one database and one Redis; the players of one match are connected to
different ones. What a page shows about people must not depend on which process it reached.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import redis.asyncio as aioredis

from app.realtime.hub import MemoryHub
from app.realtime.presence import Presence, Seen
from tests.conftest import LiveServer, free_port
from tests.helpers import Viewer, guests, started_match, update_match_row
from tests.realtime.server_process import ServerProcess
from tests.realtime.test_redis_hub import redis_url  # noqa: F401  (the fixture)

SHARED = {
    "presence_interval": 0.1,
    "presence_ttl_seconds": 3.0,
    "away_after_seconds": 2,
    "away_sweep_seconds": 0.5,
    "claim_win_after_seconds": 600,
}
DEADLINE = 30.0  # generous: a loaded two-core machine runs three servers and the test


def _presence(predicate: Callable[[dict[str, Any]], bool]) -> Callable[[dict[str, Any]], bool]:
    return lambda frame: frame["type"] == "presence" and predicate(frame)


def _everyone_online(spectators: int) -> Callable[[dict[str, Any]], bool]:
    return _presence(
        lambda f: all(s["online"] for s in f["seats"]) and f["spectators"] == spectators
    )


async def _until_rest(
    url: str, match_id: str, predicate: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Polls the match's summary on one server until `predicate` holds (or fails the test)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        while True:
            response = await client.get(f"/api/matches/{match_id}")
            assert response.status_code == 200, response.text
            summary = response.json()
            if predicate(summary):
                return summary
            assert loop.time() < deadline, f"the summary on {url} never agreed: {summary}"
            await asyncio.sleep(0.1)


async def test_three_processes_agree_on_presence_chat_lobby_and_rematch(
    database_url: str,
    redis_url: str,  # noqa: F811
) -> None:
    """Item 1: three players on three processes and a spectator see the same presence frame and
    summaries; chat, a lobby change and a rematch notice reach the pages on every process."""
    servers = [
        LiveServer(database_url, redis_url=redis_url, migrate_on_start=i == 0, **SHARED).start()
        for i in range(3)
    ]
    try:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=30) as client:
            ada, bob, cyd = await guests(client, "Ada", "Bob", "Cyd")
            match_id = await started_match(client, [ada, bob, cyd])
            async with (
                Viewer(servers[0].ws_url, match_id, ada.token) as a,
                Viewer(servers[1].ws_url, match_id, bob.token) as b,
                Viewer(servers[2].ws_url, match_id, cyd.token) as c,
                Viewer(servers[1].ws_url, match_id, None) as watcher,
            ):
                pages = (a, b, c, watcher)
                for page in pages:
                    await page.until(_everyone_online(spectators=1), DEADLINE)
                for server in servers:
                    summary = await _until_rest(
                        server.url, match_id, lambda s: all(x["online"] for x in s["seats"])
                    )
                    assert [x["away_since"] for x in summary["seats"]] == [None] * 3

                # Chat written on the first process reaches the players on the others.
                await a.send({"type": "chat", "text": "Hello from the first process"})
                for page in (a, b, c):
                    said = await page.until_type("chat", DEADLINE)
                    assert said["text"] == "Hello from the first process"
                    assert said["name"] == "Ada"

                # A spectator leaving on the second process: every page counts one fewer.
                await watcher.ws.close()
                for page in (a, b, c):
                    await page.until(_everyone_online(spectators=0), DEADLINE)

                # The match ends; Bob asks for a rematch on the second process: the pages on
                # the first and third hear of it.
                await update_match_row(
                    database_url,
                    match_id,
                    status="finished",
                    outcome={"winners": [0], "reason": "test", "scores": None, "details": {}},
                )
                asked = await bob.post(f"/api/matches/{match_id}/rematch")
                assert asked.status_code == 200, asked.text
                rematch_id = asked.json()["id"]
                for page in (a, c):
                    told = await page.until_type("rematch", DEADLINE)
                    assert told["match"]["id"] == rematch_id

            # The rematch's lobby: pages on the first and third process see Bob leave his
            # seat through the second.
            async with (
                Viewer(servers[0].ws_url, rematch_id, ada.token) as a,
                Viewer(servers[2].ws_url, rematch_id, cyd.token) as c,
            ):
                for page in (a, c):
                    lobby = await page.until_type("lobby", DEADLINE)
                    assert bob.id in [s["player_id"] for s in lobby["match"]["seats"]]
                left = await bob.post(f"/api/matches/{rematch_id}/leave")
                assert left.status_code == 200, left.text
                for page in (a, c):
                    await page.until(
                        lambda f: (
                            f["type"] == "lobby"
                            and bob.id not in [s["player_id"] for s in f["match"]["seats"]]
                        ),
                        DEADLINE,
                    )
    finally:
        for server in reversed(servers):
            server.stop()


async def test_a_killed_process_drops_its_players_and_a_survivor_tells_the_absence_once(
    database_url: str,
    redis_url: str,  # noqa: F811
) -> None:
    """Item 1 and 3: Cyd's only socket is on a process that is killed (-9). The others' pages
    show her offline within seconds, then away, announced exactly once, by a survivor; the
    summaries on every survivor agree."""
    # Away well after a dead process's share expires: offline first, away later.
    settings = {**SHARED, "away_after_seconds": 12}
    first = LiveServer(database_url, redis_url=redis_url, **settings).start()
    second = LiveServer(database_url, redis_url=redis_url, migrate_on_start=False, **settings)
    second.start()
    doomed = ServerProcess(
        database_url, redis_url=redis_url, migrate_on_start=False, **settings
    ).start()
    listener = aioredis.from_url(redis_url)
    pubsub = listener.pubsub()
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as client:
            ada, bob, cyd = await guests(client, "Ada", "Bob", "Cyd")
            match_id = await started_match(client, [ada, bob, cyd])
        await pubsub.subscribe(f"arcade:presence:{match_id}")
        async with (
            Viewer(first.ws_url, match_id, ada.token) as a,
            Viewer(second.ws_url, match_id, bob.token) as b,
        ):
            cyd_page = await Viewer(doomed.ws_url, match_id, cyd.token).__aenter__()
            for page in (a, b, cyd_page):
                await page.until(_everyone_online(spectators=0), DEADLINE)
            members = await listener.zrange(f"arcade:online:{match_id}", 0, -1)
            doomed_owner = next(
                m.decode().split("|")[0] for m in members if m.decode().endswith(f"|{cyd.id}")
            )

            doomed.process.kill()
            doomed.process.wait()
            # Offline once the dead process's share expires; away (later) once her grace
            # period is over.
            for page in (a, b):
                offline = await page.until(
                    _presence(lambda f: not f["seats"][2]["online"]), DEADLINE
                )
                assert offline["seats"][2]["away_since"] is None
            for page in (a, b):
                await page.until(_presence(lambda f: f["seats"][2]["away_since"]), DEADLINE)
            for server in (first, second):
                await _until_rest(server.url, match_id, lambda s: s["seats"][2]["away_since"])
            await cyd_page.ws.close()
        # Bob leaves too; his absence is told after Cyd's (sweeps went on meanwhile).
        announcements: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while not any(n.get("away") == bob.id for n in announcements):
            assert loop.time() < deadline, f"Bob's absence was never told: {announcements}"
            item = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if item is not None:
                announcements.append(json.loads(item["data"]))
        told_cyd = [n for n in announcements if n.get("away") == cyd.id]
        assert len(told_cyd) == 1, announcements
        assert told_cyd[0]["by"] != doomed_owner
        assert len([n for n in announcements if n.get("away") == bob.id]) == 1
    finally:
        await pubsub.aclose()
        await listener.aclose()
        if doomed.process.poll() is None:
            doomed.stop()
        second.stop()
        first.stop()


async def test_presence_without_redis_is_this_process_s_and_recovers(
    database_url: str, tmp_path: Any
) -> None:
    """Item 1 with Redis unreachable (a Redis of this test's own, stopped and started again):
    presence falls back to this process's sockets, with no error and no dropped socket, and is
    shared again once Redis is back."""
    port = free_port()

    def start_redis() -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(tmp_path),
            ],
            stdout=subprocess.DEVNULL,
        )
        return process

    own_redis = start_redis()
    url = f"redis://127.0.0.1:{port}/0"
    probe = aioredis.from_url(url)
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while True:
            try:
                await probe.ping()
                break
            except Exception:
                assert loop.time() < deadline, "the test's Redis did not start"
                await asyncio.sleep(0.05)
        first = LiveServer(database_url, redis_url=url, **SHARED).start()
        second = LiveServer(database_url, redis_url=url, migrate_on_start=False, **SHARED)
        second.start()
        try:
            async with httpx.AsyncClient(base_url=first.url, timeout=30) as client:
                ada, bob = await guests(client, "Ada", "Bob")
                match_id = await started_match(client, [ada, bob])
            async with Viewer(first.ws_url, match_id, ada.token) as a:
                await a.until(_presence(lambda f: f["seats"][0]["online"]), DEADLINE)
                own_redis.kill()
                own_redis.wait()
                # Bob arrives on the same process while Redis is down: it still knows him.
                async with Viewer(first.ws_url, match_id, bob.token) as b:
                    for page in (a, b):
                        await page.until(_everyone_online(spectators=0), DEADLINE)
                    await _until_rest(
                        first.url, match_id, lambda s: all(x["online"] for x in s["seats"])
                    )
                    own_redis = start_redis()
                    # Once Redis is back, the second process learns that both are here.
                    await _until_rest(
                        second.url, match_id, lambda s: all(x["online"] for x in s["seats"])
                    )
                    assert a.ws.close_code is None and b.ws.close_code is None
        finally:
            second.stop()
            first.stop()
    finally:
        await probe.aclose()
        own_redis.kill()
        own_redis.wait()


async def test_the_shares_of_two_processes_add_up_and_a_silent_one_expires(
    redis_url: str,  # noqa: F811
) -> None:
    """Item 1: what two processes know of a match adds up on both; the share of one that stops
    renewing (it died) drops out by itself, and a process that closes withdraws its share."""
    hub = MemoryHub()
    match_id = f"test-{uuid.uuid4().hex}"
    here = Presence(redis_url=redis_url, owner=f"test-{uuid.uuid4().hex}", ttl=1.0)
    there = Presence(redis_url=redis_url, owner=f"test-{uuid.uuid4().hex}", ttl=1.0)
    try:
        here.connect(match_id, "ada")
        here.connect(match_id, None)
        await here.announce(hub, match_id)
        for _ in range(2):
            there.connect(match_id, None)
        there.connect(match_id, "bob")
        await there.announce(hub, match_id)
        both = Seen(frozenset({"ada", "bob"}), 3)
        assert await here.look(match_id) == both
        assert await there.look(match_id) == both
        assert (await here.look_many([match_id, match_id]))[match_id] == both

        # `there` stops renewing: within its ttl `here` sees Ada and her spectator only.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DEADLINE
        while await here.look(match_id) != Seen(frozenset({"ada"}), 1):
            assert loop.time() < deadline, "a silent process's share never expired"
            await here.beat()  # `here` goes on renewing its own share meanwhile
            await asyncio.sleep(0.1)

        await here.close()
        assert await there.look(match_id) == Seen(frozenset({"bob"}), 2)
    finally:
        await there.close()


async def test_presence_with_redis_unreachable_is_this_process_s_own() -> None:
    """Item 1, Redis unreachable: joins, reads and heartbeats answer from this process's
    sockets, without an error."""
    hub = MemoryHub()
    presence = Presence(redis_url=f"redis://127.0.0.1:{free_port()}/0", owner="alone", ttl=1.0)
    try:
        presence.connect("m", "ada")
        presence.connect("m", None)
        await presence.announce(hub, "m")
        await presence.beat()
        assert await presence.look("m") == Seen(frozenset({"ada"}), 1)
        assert await presence.look_many(["m", "n"]) == {
            "m": Seen(frozenset({"ada"}), 1),
            "n": Seen(frozenset(), 0),
        }
    finally:
        await presence.close()


async def test_your_turn_follows_a_stand_in_made_on_another_process(
    database_url: str,
    redis_url: str,  # noqa: F811
) -> None:
    """Item 1, "your turn" notifications and seat changes: a computer standing in for Cyd,
    arranged through one process, takes her match off her "your turn" list on another process
    that already holds the match (it has no socket on the match to hear of the stand-in); when
    she comes back through that process, her seat is hers again."""
    # The computer stays its hand for the length of the test: Cyd's seat stays to move.
    settings = {**SHARED, "away_after_seconds": 1, "bot_think_seconds": 600.0}
    first = LiveServer(database_url, redis_url=redis_url, **settings).start()
    second = LiveServer(database_url, redis_url=redis_url, migrate_on_start=False, **settings)
    second.start()
    try:
        async with (
            httpx.AsyncClient(base_url=first.url, timeout=30) as one,
            httpx.AsyncClient(base_url=second.url, timeout=30) as other,
        ):
            ada, bob, cyd = await guests(one, "Ada", "Bob", "Cyd")
            match_id = await started_match(one, [ada, bob, cyd])

            async def cyd_waits() -> bool:
                turns = await other.get("/api/players/me/turns", headers=cyd.auth)
                assert turns.status_code == 200, turns.text
                return match_id in [t["match_id"] for t in turns.json()["turns"]]

            assert await cyd_waits()  # C64 set-up asks every seat at once; `second` loads it
            await _until_rest(first.url, match_id, lambda s: s["seats"][2]["away_since"])
            taken = await ada.post(f"/api/matches/{match_id}/seats/2/stand-in", {})
            assert taken.status_code == 200, taken.text
            assert not await cyd_waits()

            # She comes back through the process that never heard of the stand-in: her seat
            # is hers again, and her turn is on her list again.
            async with Viewer(second.ws_url, match_id, cyd.token) as c:
                welcome = await c.until_type("welcome_back", DEADLINE)
                assert welcome["seat"] == 2
                await _until_rest(second.url, match_id, lambda s: not s["seats"][2]["stand_in"])
                assert await cyd_waits()
    finally:
        second.stop()
        first.stop()
