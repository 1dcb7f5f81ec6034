"""Issue item 6 over real sockets: three players and a spectator play a seeded game through the
server's WebSocket; every frame each socket received is read, and none carries a Power card
of another seat's hand (the pattern of tests/realtime/test_socket.py)."""

from __future__ import annotations

import random

import httpx

from tests.conftest import LiveServer
from tests.helpers import Viewer, guests, started_match

MOVES = 160


def hand_ids(viewer: Viewer) -> set[str]:
    hand = viewer.state["board"]["hand"] if viewer.state else None
    return {card["id"] for card in hand or []}


async def test_no_frame_carries_another_seats_cards(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        players = await guests(client, "Ada", "Bob", "Cy")
        match_id = await started_match(client, players, game="joystick-heroes")
    chooser = random.Random(7)
    async with (
        Viewer(server.ws_url, match_id, players[0].token) as a,
        Viewer(server.ws_url, match_id, players[1].token) as b,
        Viewer(server.ws_url, match_id, players[2].token) as c,
        Viewer(server.ws_url, match_id, None) as spectator,
    ):
        seats = [a, b, c]
        everyone = [*seats, spectator]
        for viewer in everyone:
            await viewer.until_type("snapshot")
        # hands[v][seat]: that seat's cards at version v, read from its own socket.
        hands: dict[int, list[set[str]]] = {a.version: [hand_ids(v) for v in seats]}
        frames_at: dict[int, list[tuple[int | None, str]]] = {}
        for viewer in everyone:
            frames_at.setdefault(viewer.version, []).extend(
                (viewer.state["you"], raw) for raw in viewer.raw
            )
        for _ in range(MOVES):
            if a.state["status"] == "finished":
                break
            movers = [v for v in seats if v.state["legal_moves"]]
            mover = chooser.choice(movers)
            await mover.move(chooser.choice(mover.state["legal_moves"]), version=mover.version)
            await mover.until_type("ack")
            target = mover.version
            for viewer in everyone:
                while viewer.version < target:
                    start = len(viewer.raw)
                    await viewer.recv()
                    for raw in viewer.raw[start:]:
                        frames_at.setdefault(viewer.version, []).append((viewer.state["you"], raw))
            hands[target] = [hand_ids(v) for v in seats]

    assert len(hands) > 50
    assert any(hands[v][0] for v in hands), "the owner's own frames show her cards"
    checked = 0
    for version, frames in frames_at.items():
        now = hands.get(version, [set(), set(), set()])
        before = hands.get(version - 1, now)
        for you, raw in frames:
            own = set() if you is None else now[you] | before[you]
            secret = set().union(*now, *before) - own
            leaked = [card for card in secret if f'"{card}"' in raw]
            assert not leaked, f"seat {you} received {leaked} at version {version}"
            checked += 1
    assert checked > 200
