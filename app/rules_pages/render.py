"""Markdown to HTML for the rules pages (markdown-it-py, CommonMark with tables).

Raw HTML in the source is off: a page is text, tables and links, so the Markdown cannot put
markup of its own on the site. A ```diagram block becomes a <figure> holding the played
position as JSON for static/js/rules.js, and its caption as text, which is what a reader
without JavaScript gets.
"""

from __future__ import annotations

import html
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from app.engine.contract import Game
from app.rules_pages.diagrams import DiagramError, drawing, parse_diagram, run_scenario
from app.rules_pages.source import PageSource

log = logging.getLogger(__name__)


def _json_for_html(data: Any) -> str:
    # Inside <script type="application/json">: no "</script>" or markup can close it early.
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


@dataclass(frozen=True)
class RenderedPage:
    html: str
    sections: list[tuple[str, str]]
    """(anchor, title) of each `##` section, for the page's table of contents."""
    diagram_errors: list[str]


def render_page(game: Game, source: PageSource) -> RenderedPage:
    md = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(
        ["table", "replacements", "smartquotes"]
    )
    errors: list[str] = []
    sections: list[tuple[str, str]] = []

    def fence(_renderer: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        if token.info.strip() != "diagram":
            return f"<pre><code>{html.escape(token.content)}</code></pre>\n"
        return _figure(game, token.content, errors)

    md.add_render_rule("fence", fence)
    tokens = md.parse(source.markdown)
    used: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        title = tokens[index + 1].content
        anchor = slug(title)
        while anchor in used:
            anchor += "-more"
        used.add(anchor)
        token.attrSet("id", anchor)
        if token.tag == "h2":
            sections.append((anchor, title))
    return RenderedPage(md.renderer.render(tokens, md.options, {}), sections, errors)


def _figure(game: Game, text: str, errors: list[str]) -> str:
    try:
        diagram = parse_diagram(text)
        data = drawing(run_scenario(game, diagram))
    except DiagramError as exc:
        errors.append(str(exc))
        log.error("rules page of %s: %s", game.id, exc)
        return '<p class="muted">(A diagram could not be drawn here.)</p>\n'
    caption = html.escape(diagram.caption)
    return (
        f'<figure class="rules-diagram" data-testid="rules-diagram" '
        f'data-game="{html.escape(game.id)}" data-diagram="{html.escape(diagram.id)}">\n'
        f'<div class="rules-diagram-board" data-diagram-board></div>\n'
        f'<script type="application/json" data-diagram-data>{_json_for_html(data)}</script>\n'
        f"<figcaption>{caption}</figcaption>\n</figure>\n"
    )
