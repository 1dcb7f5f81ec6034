"""Names others will read: the text rules over the real REST API, on SQLite and PostgreSQL
(NUL in a name answered 500 on PostgreSQL), and the rules themselves."""

from __future__ import annotations

import httpx
import pytest

from app.errors import ArcadeError
from app.services.text import clean_chat, clean_name
from tests.conftest import LiveServer

REFUSED_NAMES = {
    "nul": ("Ada\x00", "control characters"),
    "escape": ("Ada\x1b[31m", "control characters"),
    "delete": ("Ada\x7f", "control characters"),
    "bidi override": ("Ada\u202eevoL", "direction"),
    "bidi embedding": ("\u202aAda", "direction"),
    "bidi isolate": ("Ada\u2067x\u2069", "direction"),
    "empty after trimming": ("   ", "needs some text"),
    "zero-width only": ("\u200b\u200c\u200d", "visible"),
    "word joiner and BOM": ("\u2060\ufeff", "visible"),
    "hangul fillers": ("\u3164\u115f", "visible"),
    "zalgo": ("Z\u0336\u0335\u0334algo", "marks"),
    "too long": ("A" * 41, "40"),
}


@pytest.mark.parametrize("case", list(REFUSED_NAMES))
async def test_a_name_breaking_a_rule_is_refused_with_a_reason(
    server: LiveServer, case: str
) -> None:
    name, reason = REFUSED_NAMES[case]
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post("/api/players", json={"name": name})
        assert created.status_code == 400, created.text
        assert created.json()["code"] == "bad_request"
        assert reason in created.json()["message"]
        ada = (await client.post("/api/players", json={"name": "Ada"})).json()
        renamed = await client.patch(
            "/api/players/me",
            json={"name": name},
            headers={"Authorization": f"Bearer {ada['token']}"},
        )
        assert renamed.status_code == 400 and reason in renamed.json()["message"]
        me = await client.get(
            "/api/players/me", headers={"Authorization": f"Bearer {ada['token']}"}
        )
        assert me.json()["name"] == "Ada", "a refused rename changes nothing"


async def test_names_are_nfc_normalised_and_trimmed(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post("/api/players", json={"name": "  Zoe\u0308   Ba\u0301n  "})
        assert created.status_code == 201
        assert created.json()["name"] == "Zo\u00eb B\u00e1n"
        kept = await client.post(
            "/api/players", json={"name": "Ma\u0301\u0323rta \u05e9\u05c1\u05b8"}
        )
        assert kept.status_code == 201, "two marks on a character are ordinary accents"
        joined = await client.post("/api/players", json={"name": "\U0001f469\u200d\U0001f4bb Dev"})
        assert joined.status_code == 201, "a joiner between visible characters is fine"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("  hi  ", "hi"), ("Cafe\u0301", "Caf\u00e9"), ("a\u200bb", "a\u200bb")],
)
def test_chat_text_is_trimmed_and_normalised(raw: str, expected: str) -> None:
    assert clean_chat(raw, max_chars=500) == expected


@pytest.mark.parametrize(
    "raw", ["", "\x00", "a\nb", "\u202d", "\u2069", "\u200b", "e\u0301\u0302\u0303\u0304", "\ud800"]
)
def test_chat_and_names_share_the_refusals(raw: str) -> None:
    for check in (clean_name, lambda text: clean_chat(text, max_chars=500)):
        with pytest.raises(ArcadeError) as refused:
            check(raw)
        assert refused.value.code == "bad_request" and refused.value.message.endswith(".")


def test_the_length_limits_count_after_normalisation() -> None:
    assert clean_name("e\u0301" * 40) == "\u00e9" * 40
    with pytest.raises(ArcadeError):
        clean_name("\u00e9" * 41)
    with pytest.raises(ArcadeError) as long_chat:
        clean_chat("x" * 501, max_chars=500)
    assert long_chat.value.code == "too_large"
