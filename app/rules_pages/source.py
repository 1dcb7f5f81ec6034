"""A rules page's source: docs/rules/<game id>.md, its front matter and its includes.

The front matter is a few `key: value` lines between `---` lines (title, family, tagline,
learn). A line holding only `{{include families/<name>.md}}` is replaced by that file, so
text a family of games shares is written once and read the same on every page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
SECTIONS = (
    "What you are trying to do",
    "Set-up",
    "A turn",
    "The rules",
    "Options in the lobby",
    "How it ends and scores",
    "Questions our rulings settled",
)
"""The `##` sections every page has, in this order."""

_INCLUDE = re.compile(r"^\{\{include (families/[a-z0-9-]+\.md)\}\}\s*$")
_GAME_ID = re.compile(r"^[a-z0-9-]{1,64}$")


@dataclass(frozen=True)
class PageSource:
    game_id: str
    meta: dict[str, str]
    markdown: str
    """The page's Markdown with its includes in place and without the front matter."""


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return {}, text
    meta: dict[str, str] = {}
    for index, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            return meta, "".join(lines[index + 1 :])
        key, sep, value = line.partition(":")
        if sep and key.strip():
            meta[key.strip()] = value.strip()
    raise ValueError("the front matter has no closing ---")


def with_includes(markdown: str, rules_dir: Path = RULES_DIR) -> str:
    out: list[str] = []
    for line in markdown.splitlines(keepends=True):
        found = _INCLUDE.match(line)
        if found is None:
            out.append(line)
            continue
        included = (rules_dir / found.group(1)).read_text(encoding="utf-8")
        out.append(included if included.endswith("\n") else included + "\n")
    return "".join(out)


@cache
def page_source(game_id: str) -> PageSource | None:
    """The page of `game_id`, or None when it has none (or the id cannot be a game's)."""
    if not _GAME_ID.match(game_id):
        return None
    path = RULES_DIR / f"{game_id}.md"
    if not path.is_file():
        return None
    meta, body = split_front_matter(path.read_text(encoding="utf-8"))
    return PageSource(game_id=game_id, meta=meta, markdown=with_includes(body))
