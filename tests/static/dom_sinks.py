"""A checker for the places where text becomes HTML, script or a followed URL in static/.

Used by test_dom_sinks.py. Every such sink must be given a constant (a plain string literal
without ${}), or, for a URL, a same-origin path; what a player sent must reach the page as
text (h(), fill(), morph(), textContent). The JavaScript is read with a small scanner that
blanks comments (strings and regular expressions kept apart), then each sink's argument is
cut out by balancing brackets and judged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$]|\\.|\$(?!\{))*`)"""
CONSTANT = re.compile(rf"\s*{_STRING}\s*", re.S)
# A same-origin path: a literal starting with "/" and a second character other than "/" or
# "\" (which browsers read as "//", another origin). What follows cannot make it a
# javascript: URL.
SAME_ORIGIN_PATH = re.compile(r"""\s*[`"'](?:\./|/[^/\\])""")
# withWatch(path, token) only appends ?watch=<encoded token> to its path.
URL_HELPER = re.compile(r"\s*withWatch\(")

_REGEX_MAY_FOLLOW = set("(,=:[!&|?{};+-*%<>~^")
_REGEX_KEYWORDS = ("return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await")


def blank_comments(source: str) -> str:
    """The source with every comment replaced by spaces (newlines kept, so lines still count)."""
    out = list(source)
    i, n = 0, len(source)
    last = ""  # the last significant character outside comments, to tell a regex from a division
    word = ""
    while i < n:
        c = source[i]
        if c in "\"'`":
            j = i + 1
            while j < n and source[j] != c:
                j += 2 if source[j] == "\\" else 1
            i, last, word = j + 1, c, ""
            continue
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
            continue
        if source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out[i:j] = [ch if ch == "\n" else " " for ch in source[i:j]]
            i = j
            continue
        if c == "/" and (last == "" or last in _REGEX_MAY_FOLLOW or word in _REGEX_KEYWORDS):
            j, in_class = i + 1, False
            while j < n and source[j] != "\n":
                if source[j] == "\\":
                    j += 2
                    continue
                if source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                elif source[j] == "/" and not in_class:
                    break
                j += 1
            i, last, word = j + 1, "/", ""
            continue
        if not c.isspace():
            word = word + c if (c.isalnum() or c in "_$") else ""
            last = c
        i += 1
    return "".join(out)


def argument_at(code: str, start: int, stops: str) -> str:
    """The expression from `start` up to the first of `stops` outside brackets and strings."""
    depth, i = 0, start
    while i < len(code):
        c = code[i]
        if c in "\"'`":
            j = i + 1
            while j < len(code) and code[j] != c:
                if code[j] == "\\":
                    j += 1
                elif c == "`" and code.startswith("${", j):
                    j = code.find("}", j)  # enough to step over a ${name} placeholder
                    j = len(code) if j < 0 else j
                j += 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return code[start:i]
            depth -= 1
        elif depth == 0 and c in stops:
            return code[start:i]
        i += 1
    return code[start:]


def _constant(expression: str) -> bool:
    return CONSTANT.fullmatch(expression) is not None


def _safe_url(expression: str) -> bool:
    return (
        _constant(expression)
        or SAME_ORIGIN_PATH.match(expression) is not None
        or URL_HELPER.match(expression) is not None
    )


@dataclass(frozen=True)
class Sink:
    pattern: re.Pattern[str]
    # "assign": the right-hand side of the assignment the pattern ends in; "call": argument
    # number `argument` (-1: the last) of the call whose "(" the pattern ends in; "never": the
    # sink itself is the finding, whatever it is given.
    takes: str
    message: str
    argument: int = 0
    url: bool = False  # judged as a URL (a constant or same-origin path) rather than a constant


_HTML = "takes HTML: build nodes with h()/fill()/morph() or set textContent"
_CODE = "runs a string as code"
_HANDLER = "sets an event handler from a string: pass a function"
_URL = "is a URL the browser follows: a javascript: URL would run script"
_URL_ATTRIBUTE = r"""["'`](?:xlink:)?(?:href|src|action|formaction)["'`]\s*,"""
SINKS: tuple[Sink, ...] = (
    Sink(re.compile(r"\.(innerHTML|outerHTML)\s*\+?=(?!=)"), "assign", _HTML),
    Sink(re.compile(r"\.insertAdjacentHTML\s*\("), "call", _HTML, argument=1),
    Sink(re.compile(r"\bdocument\s*\.\s*write(?:ln)?\s*\("), "call", _HTML),
    Sink(re.compile(r"\.parseFromString\s*\("), "call", _HTML),
    Sink(re.compile(r"\bDOMParser\b"), "never", "parses HTML: build nodes instead"),
    Sink(re.compile(r"\.createContextualFragment\s*\("), "call", _HTML),
    Sink(re.compile(r"\.srcdoc\s*=(?!=)"), "assign", _HTML),
    Sink(re.compile(r"""\bsrcdoc["']?\s*:"""), "never", _HTML),
    Sink(re.compile(r"(?<![.\w$])eval\s*\("), "never", _CODE),
    Sink(re.compile(r"(?<![.\w$])(?:new\s+)?Function\s*\("), "never", _CODE),
    Sink(re.compile(r"\b(?:setTimeout|setInterval)\s*\(\s*[\"'`]"), "never", _CODE),
    Sink(re.compile(r"\.on[a-z]+\s*=(?!=)\s*[\"'`]"), "never", _HANDLER),
    Sink(re.compile(r"""[{,]\s*["']?on[a-z]+["']?\s*:\s*["'`]"""), "never", _HANDLER),
    Sink(re.compile(r"""\.setAttribute(?:NS)?\s*\([^,)]*?,?\s*["'`]on[a-z]"""), "never", _HANDLER),
    Sink(
        re.compile(rf"\.setAttribute(?:NS)?\s*\(\s*(?:[^,()]+,\s*)?{_URL_ATTRIBUTE}"),
        "call",
        _URL,
        argument=-1,
        url=True,
    ),
    Sink(re.compile(r"\.(?:href|src|action|formAction)\s*=(?!=)"), "assign", _URL, url=True),
    Sink(re.compile(r"(?<![.\w$])location\s*=(?!=)"), "assign", _URL, url=True),
    Sink(re.compile(r"\blocation\s*\.\s*(?:assign|replace)\s*\("), "call", _URL, url=True),
    Sink(re.compile(r"\bwindow\s*\.\s*open\s*\("), "call", _URL, url=True),
)


def call_arguments(code: str, open_paren: int) -> list[str]:
    """The arguments of the call whose "(" is at `open_paren`."""
    arguments, i = [], open_paren + 1
    while True:
        argument = argument_at(code, i, ",")
        arguments.append(argument)
        i += len(argument)
        if i >= len(code) or code[i] != ",":
            return arguments
        i += 1


def check_javascript(source: str, path: str = "<snippet>") -> list[Finding]:
    code = blank_comments(source)
    findings = []
    for sink in SINKS:
        for match in sink.pattern.finditer(code):
            line = code.count("\n", 0, match.start()) + 1
            name = match.group(0).strip(" =(,{")
            if sink.takes == "never":
                findings.append(Finding(path, line, f"{name} {sink.message}"))
                continue
            if sink.takes == "assign":
                expression = argument_at(code, match.end(), ";\n")
            else:
                arguments = call_arguments(code, code.find("(", match.start()))
                fits = -len(arguments) <= sink.argument < len(arguments)
                expression = arguments[sink.argument] if fits else ""
            if not (_safe_url(expression) if sink.url else _constant(expression)):
                shown = " ".join(expression.split())[:60]
                findings.append(Finding(path, line, f"{name} {sink.message} (given: {shown})"))
    return findings


_INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>\s*\S", re.I)
_HANDLER_ATTRIBUTE = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)
_STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I)
_SCRIPT_URL = re.compile(
    r"""\b(?:href|src|action|formaction)\s*=\s*["']?\s*(?:javascript|vbscript|data):""", re.I
)
_UNESCAPED = re.compile(r"\|\s*safe\b|autoescape\s+false|\bMarkup\s*\(", re.I)


def check_html(source: str, path: str = "<snippet>") -> list[Finding]:
    """Pages are Jinja2 templates: no inline script or handler (the Content-Security-Policy
    refuses them), no inline style, no script URL, and no way around autoescaping."""
    rules = (
        (_INLINE_SCRIPT, "an inline script: the Content-Security-Policy refuses it; use a file"),
        (_HANDLER_ATTRIBUTE, "an on* handler attribute: use addEventListener in a script file"),
        (_STYLE_ATTRIBUTE, "an inline style attribute: the Content-Security-Policy refuses it"),
        (_SCRIPT_URL, "a script URL"),
        (_UNESCAPED, "turns autoescaping off: a value would be rendered as markup"),
    )
    findings = []
    for pattern, message in rules:
        for match in pattern.finditer(source):
            findings.append(Finding(path, source.count("\n", 0, match.start()) + 1, message))
    return findings


def check_tree(static: Path) -> list[Finding]:
    """Every .js/.mjs/.html file under static/ except the vendored libraries."""
    findings: list[Finding] = []
    for file in sorted(static.rglob("*")):
        relative = file.relative_to(static.parent).as_posix()
        if "vendor" in file.relative_to(static).parts or not file.is_file():
            continue
        if file.suffix in (".js", ".mjs"):
            findings += check_javascript(file.read_text(encoding="utf-8"), relative)
        elif file.suffix == ".html":
            findings += check_html(file.read_text(encoding="utf-8"), relative)
    return findings
