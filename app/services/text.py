"""The rules for text other people will read: player names and chat messages.

Both are NFC-normalised and refused, with a sentence saying why, when they are empty after
trimming, show nothing visible, carry control characters (NUL included: PostgreSQL refuses it
in text, which answered 500) or reorder the text around them (bidirectional overrides and
isolates can make a name read as someone else's), or stack more combining marks on one
character than any script needs (so-called Zalgo text, which paints over its neighbours).
"""

from __future__ import annotations

import unicodedata

from app.errors import ArcadeError

NAME_MAX_CHARS = 40  # players.name is String(40)
MAX_MARKS_PER_CHARACTER = 2

# Overrides U+202A-202E and isolates U+2066-2069.
BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
# Letters by category that every font draws as nothing (Hangul fillers, the braille blank).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Categories that are never visible on their own: format characters (zero-width spaces and
# joiners, U+2060, U+FEFF...), separators and combining marks without a base.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Zs", "Zl", "Zp", "Mn", "Me", "Mc"})


def clean_name(raw: str) -> str:
    """A display name as stored: trimmed, inner runs of spaces made one, at most 40 characters."""
    text = " ".join(_checked(_normalised(raw).strip(), what="A name").split())
    if len(text) > NAME_MAX_CHARS:
        raise ArcadeError("bad_request", f"A name may have at most {NAME_MAX_CHARS} characters.")
    return text


def clean_chat(raw: str, *, max_chars: int) -> str:
    """A chat message as stored and sent: trimmed, at most `max_chars` characters."""
    text = _checked(_normalised(raw).strip(), what="A chat message")
    if len(text) > max_chars:
        raise ArcadeError("too_large", f"Chat messages may be at most {max_chars} characters.")
    return text


def _normalised(raw: str) -> str:
    if any(unicodedata.category(c) == "Cs" for c in raw):
        # A lone surrogate (JSON allows "\ud800") cannot be stored or sent as UTF-8.
        raise ArcadeError("bad_request", "That text is not valid Unicode.")
    return unicodedata.normalize("NFC", raw)


def _checked(text: str, *, what: str) -> str:
    if not text:
        raise ArcadeError("bad_request", f"{what} needs some text.")
    if any(unicodedata.category(c) == "Cc" for c in text):
        raise ArcadeError(
            "bad_request",
            f"{what} may not contain control characters (line breaks, tabs, NUL and the like).",
        )
    if any(c in BIDI_CONTROLS for c in text):
        raise ArcadeError(
            "bad_request",
            f"{what} may not contain characters that reverse the direction of the text.",
        )
    if all(_invisible(c) for c in text):
        raise ArcadeError("bad_request", f"{what} needs at least one visible character.")
    marks = 0
    for c in text:
        marks = marks + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if marks > MAX_MARKS_PER_CHARACTER:
            raise ArcadeError(
                "bad_request",
                f"{what} may have at most {MAX_MARKS_PER_CHARACTER} accents or marks "
                "on one character.",
            )
    return text


def _invisible(c: str) -> bool:
    return c in BLANK_LETTERS or unicodedata.category(c) in INVISIBLE_CATEGORIES
