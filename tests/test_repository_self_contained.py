"""The repository explains itself (issue 16): no file points outside it, and every ruling the
code, tests and documents cite is written down once, in the rules pages under docs/rules/.

The design notes, rulings notes and rulebooks this project started from are not part of a
clone; what a contributor needs of them lives in docs/ (docs/architecture.md,
docs/rules/README.md and the rules pages).
"""

from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "docs" / "rules"

# Built from pieces so that this file does not trip its own check.
_SHARED = "sha" + "red"
OUTSIDE = re.compile(
    "|".join(
        [
            re.escape("../" + _SHARED),
            re.escape(_SHARED + "/") + "(?:rules|design)",
            "rule" + r"books?/",
            # the rulings notes as they were cited: a rules/<name>.md that is not docs/rules/
            r"(?<![\w/])" + "rul" + r"es/[a-z0-9-]+\.(?:md|txt)",
            r"\b(?:c64-board|tube-tanks|joystick-heroes|cd-thief|tactrics-advanced)" + r"\.txt\b",
            "/wo" + "rk/",
        ]
    )
)

# A ruling ID: a family letter (C64 Board, Tank Skirmish, Joystick Heroes, CD Thief, Tactrics,
# every game), a number, an amendment letter, and optionally the item of the ruling (".6").
RULING = r"[CKHDVG]\d{1,2}[a-z]?(?:\.\d+)?"
RULING_LIST = rf"{RULING}(?:\s*(?:,|and|or|-|/)\s*{RULING})*"
# Where a token is a ruling and not a board square or a colour: after the word "ruling(s)",
# or alone (or in a list) in parentheses. Board cells such as a Tank Skirmish "K3" are never
# written that way; if one were, it would name a ruling that exists anyway.
CITED = [
    re.compile(rf"\b(?i:rulings?)\s+(?:of\s+)?({RULING_LIST})\b"),
    re.compile(rf"\(({RULING_LIST})[),;:]"),
]
DEFINED = re.compile(r"^(?:[-*]\s+)?\*\*([CKHDVG]\d{1,2}[a-z]?)\.", re.MULTILINE)
RULES_PAGE_PATH = re.compile(r"\bdocs/rules/[\w/-]+\.md\b")

TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".txt",
    ".json",
    ".js",
    ".css",
    ".html",
    ".toml",
    ".yml",
    ".yaml",
    ".cfg",
    ".ini",
    ".sh",
    ".mako",
    ".svg",
    "",
}


def tracked_text_files() -> dict[str, str]:
    """Every file git tracks that reads as UTF-8 text, by its path in the repository."""
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    texts = {}
    for name in filter(None, listing.split("\0")):
        path = ROOT / name
        if path.suffix not in TEXT_SUFFIXES or not path.is_file():
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return texts


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    found = tracked_text_files()
    assert "README.md" in found, "git ls-files found no files: is this a git checkout?"
    return found


def ruling_ids(listed: str) -> list[str]:
    """`C1-C4 and C7` -> C1, C2, C3, C4, C7 (an item such as C4.6 counts as C4)."""
    ids: list[str] = []
    tokens = re.findall(rf"{RULING}|-", listed)
    for i, token in enumerate(tokens):
        if token == "-":
            continue
        base = re.match(r"[A-Z]\d+[a-z]?", token)
        assert base is not None
        ids.append(base.group(0))
        if i >= 2 and tokens[i - 1] == "-":
            first = re.match(r"([A-Z])(\d+)$", ids[-2])
            last = re.match(r"([A-Z])(\d+)$", base.group(0))
            if first and last and first.group(1) == last.group(1):
                letter = first.group(1)
                between = range(int(first.group(2)) + 1, int(last.group(2)))
                ids[-1:-1] = [f"{letter}{n}" for n in between]
    return ids


def test_no_file_refers_to_a_place_outside_the_repository(texts: dict[str, str]) -> None:
    offenders = [
        f"{name}:{text[: match.start()].count(chr(10)) + 1}: {match.group(0)}"
        for name, text in texts.items()
        for match in OUTSIDE.finditer(text)
    ]
    assert offenders == [], "files refer to places outside the repository:\n" + "\n".join(offenders)


def test_ruling_ids_are_read_as_the_citations_mean() -> None:
    assert ruling_ids("C1-C4 and C7") == ["C1", "C2", "C3", "C4", "C7"]
    assert ruling_ids("H9a, H13a") == ["H9a", "H13a"]
    assert ruling_ids("C4.7, C5") == ["C4", "C5"]
    cited = [
        m.group(1)
        for pattern in CITED
        for m in pattern.finditer(
            "our rulings K1-K14; see (D11) and (V2, V10): a 4K screen, #C0FFEE, cells C3 C4, (E4)"
        )
    ]
    assert cited == ["K1-K14", "D11", "V2, V10"]


def defined_rulings() -> dict[str, list[str]]:
    """Ruling ID -> the files under docs/rules/ that write it bold-led (`**C7. ...`)."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(RULES_DIR.rglob("*.md")):
        for match in DEFINED.finditer(path.read_text(encoding="utf-8")):
            where[match.group(1)].append(str(path.relative_to(ROOT)))
    return where


def test_every_cited_ruling_is_written_once_under_docs_rules(texts: dict[str, str]) -> None:
    """Needs the rules pages of every family (they write the rulings)."""
    defined = defined_rulings()
    cited: dict[str, set[str]] = defaultdict(set)
    for name, text in texts.items():
        if not name.startswith(("app/", "tests/", "docs/", "static/js/", "bench/", "README")):
            continue
        for pattern in CITED:
            for match in pattern.finditer(text):
                for ruling in ruling_ids(match.group(1)):
                    cited[ruling].add(name)
    missing = {r: sorted(files)[:3] for r, files in cited.items() if r not in defined}
    assert missing == {}, f"rulings cited but written nowhere under docs/rules/: {missing}"
    twice = {r: files for r, files in defined.items() if len(files) > 1}
    assert twice == {}, f"rulings written more than once under docs/rules/: {twice}"


def test_every_rules_page_a_file_cites_exists(texts: dict[str, str]) -> None:
    """Needs the rules pages of every family."""
    cited: dict[str, set[str]] = defaultdict(set)
    for name, text in texts.items():
        for match in RULES_PAGE_PATH.finditer(text):
            cited[match.group(0)].add(name)
    missing = {
        page: sorted(files)[:3] for page, files in cited.items() if not (ROOT / page).is_file()
    }
    assert missing == {}, f"rules pages cited but missing: {missing}"


def test_no_tracked_file_is_a_symbolic_link() -> None:
    """A link points somewhere a clone may not have (a committed `.venv` link once made CI use
    a virtualenv from outside the checkout). git records a link with mode 120000."""
    staged = subprocess.run(
        ["git", "ls-files", "-s", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    links = [entry.split("\t", 1)[1] for entry in staged.split("\0") if entry.startswith("120000 ")]
    assert links == [], f"symbolic links are tracked: {links}"
