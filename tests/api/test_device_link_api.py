"""Continue on another device (issue 18, item 4): a one-time link, with its QR code, makes
another browser the same player, once, within minutes; the first device stays signed in. Two
browsers racing with one link: one wins. A used or expired link, another site's page, or a
malformed token change nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx
import segno
from sqlalchemy import update

from app.db.models import DeviceLink
from app.db.session import make_engine
from tests.conftest import LiveServer
from tests.helpers import guests

CLAIM = "/api/players/device-link/claim"


def _token(url: str) -> str:
    return url.split("#device=", 1)[1]


async def test_a_link_makes_another_browser_the_same_player_once(database_url: str) -> None:
    server = LiveServer(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            (ada,) = await guests(client, "Ada")
            made = await ada.post("/api/players/me/device-link")
            assert made.status_code == 201, made.text
            link = made.json()
            assert link["url"].startswith(f"{server.url}/#device=")
            left = datetime.fromisoformat(link["expires_at"]) - datetime.now(UTC)
            assert timedelta(minutes=9) < left <= timedelta(minutes=10)
            rows = link["qr"]
            assert len(rows) == len(rows[0]) and set("".join(rows)) == {"0", "1"}
            expected = segno.make(link["url"], error="m").matrix
            assert rows == ["".join(str(m) for m in row) for row in expected]

            async with httpx.AsyncClient(base_url=server.url) as phone:
                claimed = await phone.post(CLAIM, json={"token": _token(link["url"])})
                assert claimed.status_code == 200, claimed.text
                assert claimed.json() == {"id": ada.id, "name": "Ada"}
                me = await phone.get("/api/players/me")  # the cookie it was given
                assert me.status_code == 200 and me.json()["id"] == ada.id
                again = await phone.post(CLAIM, json={"token": _token(link["url"])})
                assert again.status_code == 410 and again.json()["code"] == "link_used"
            still = await ada.get("/api/players/me")
            assert still.status_code == 200 and still.json()["id"] == ada.id

            # Another site's page cannot make a visitor's browser use a link.
            other = (await ada.post("/api/players/me/device-link")).json()
            foreign = await client.post(
                CLAIM,
                json={"token": _token(other["url"])},
                headers={"Origin": "http://evil.example"},
            )
            assert foreign.status_code == 403
            for body in ({"token": "x" * 101}, {"token": ""}, {"nope": 1}, [1]):
                odd = await client.post(CLAIM, json=body)
                assert odd.status_code == 400, (body, odd.text)
            unknown = await client.post(CLAIM, json={"token": "not-a-link"})
            assert unknown.status_code == 410

            # Two browsers with one link: exactly one becomes Ada.
            async with (
                httpx.AsyncClient(base_url=server.url) as first,
                httpx.AsyncClient(base_url=server.url) as second,
            ):
                token = _token(other["url"])
                answers = await asyncio.gather(
                    first.post(CLAIM, json={"token": token}),
                    second.post(CLAIM, json={"token": token}),
                )
                assert sorted(a.status_code for a in answers) == [200, 410]

            # An expired link.
            late = (await ada.post("/api/players/me/device-link")).json()
            engine = make_engine(database_url)
            try:
                async with engine.begin() as conn:
                    await conn.execute(
                        update(DeviceLink)
                        .where(DeviceLink.used_at.is_(None))
                        .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
                    )
            finally:
                await engine.dispose()
            expired = await client.post(CLAIM, json={"token": _token(late["url"])})
            assert expired.status_code == 410
            assert (await client.post("/api/players/me/device-link")).status_code == 401
    finally:
        server.stop()
