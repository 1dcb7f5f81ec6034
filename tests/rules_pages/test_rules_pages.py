"""Rules pages (issue 16): every game has one, with the sections a newcomer needs, rendered
from docs/rules/ with raw HTML off, diagrams played by the rules module."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from app.engine.contract import Game
from app.engine.registry import all_games, get_game
from app.rules_pages.diagrams import Diagram, DiagramError, merge_patch, run_scenario
from app.rules_pages.render import render_page
from app.rules_pages.source import SECTIONS, PageSource, page_source, with_includes
from app.tutorials import FAMILY_TITLES
from tests.conftest import LiveServer

GAMES = [game.id for game in all_games()]


def maze() -> Game:
    game = get_game("c64-maze")
    assert game is not None
    return game


def first_legal_move(game: Game, seed: str) -> tuple[int, dict[str, object]]:
    diagram = Diagram(id="probe", caption="probe", players=2, seed=seed)
    state = run_scenario(game, diagram).final
    seat = min(game.active_seats(state))
    return seat, game.legal_moves(state, seat)[0]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_rules_page_with_every_section(game_id: str) -> None:
    game = get_game(game_id)
    source = page_source(game_id)
    assert game is not None and source is not None, f"docs/rules/{game_id}.md is missing"
    assert source.meta.get("family") in FAMILY_TITLES
    assert 10 <= len(source.meta.get("tagline", "")) <= 100
    assert source.meta.get("learn") in {"easy", "medium", "hard"}
    page = render_page(game, source)
    assert page.diagram_errors == []
    titles = [title for _anchor, title in page.sections]
    in_order = [title for title in titles if title in SECTIONS]
    assert in_order == list(SECTIONS), f"sections found: {titles}"
    assert page.html.count('data-testid="rules-diagram"') >= 1, "a page shows the board"


def test_raw_html_and_script_links_in_the_source_stay_text() -> None:
    source = PageSource(
        game_id="c64-maze",
        meta={},
        markdown='## A\n\n<script>alert(1)</script> <img src=x onerror="alert(2)">\n\n'
        "[click](javascript:alert(3))\n",
    )
    html = render_page(maze(), source).html
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    assert 'href="javascript' not in html


def test_a_diagram_is_embedded_as_json_that_cannot_close_its_script() -> None:
    seat, move = first_legal_move(maze(), "rules:test")
    diagram = {
        "id": "first",
        "caption": "</script><b>bold</b> & more",
        "players": 2,
        "seed": "rules:test",
        "moves": [[seat, move]],
        "viewer": seat,
        "highlight": [{"note": "</script><script>alert(1)</script>"}],
    }
    source = PageSource("c64-maze", {}, f"```diagram\n{json.dumps(diagram)}\n```\n")
    page = render_page(maze(), source)
    assert page.diagram_errors == []
    assert page.html.count("</script>") == 1  # only the data block's own end
    assert "<figcaption>&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp; more</figcaption>" in page.html
    data = re.search(
        r"<script type=\"application/json\" data-diagram-data>(.*?)</script>", page.html
    )
    assert data is not None
    drawn = json.loads(data.group(1))
    assert drawn["after"]["version"] == 1 and drawn["before"]["version"] == 0
    assert drawn["after"]["board"] == maze().view(
        run_scenario(maze(), Diagram.model_validate(diagram)).final, seat
    )
    assert drawn["highlight"] == diagram["highlight"]


def test_a_diagram_with_an_illegal_move_is_not_drawn() -> None:
    game = maze()
    seat, move = first_legal_move(game, "rules:test")
    other = 1 - seat
    bad = Diagram(id="bad", caption="x", players=2, seed="rules:test", moves=[(other, move)])
    with pytest.raises(DiagramError, match="not legal"):
        run_scenario(game, bad)
    source = PageSource("c64-maze", {}, f"```diagram\n{bad.model_dump_json()}\n```\n")
    page = render_page(game, source)
    assert page.diagram_errors and "rules-diagram" not in page.html


def test_a_position_is_a_json_merge_patch() -> None:
    target = {"a": {"b": 1, "c": [1, 2]}, "d": 4}
    patch = {"a": {"b": None, "c": [3]}, "e": {"f": 5}}
    assert merge_patch(target, patch) == {"a": {"c": [3]}, "d": 4, "e": {"f": 5}}
    assert target == {"a": {"b": 1, "c": [1, 2]}, "d": 4}


def test_family_files_are_included(tmp_path: object) -> None:
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / "families").mkdir()
    (root / "families" / "shared.md").write_text("### Shared\n\nOnce for all.")
    text = with_includes("## A\n\n{{include families/shared.md}}\n\nafter\n", root)
    assert text == "## A\n\n### Shared\n\nOnce for all.\n\nafter\n"
    # Only a line of its own, naming a family file, is an include.
    assert with_includes("see {{include families/shared.md}}\n", root).startswith("see {{")


async def test_the_rules_page_is_served_as_html_that_works_without_script(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        page = await client.get("/games/c64-maze/rules")
        embed = await client.get("/games/c64-maze/rules?embed=1")
        missing = await client.get("/games/no-such-game/rules")
        odd = await client.get("/games/..%2F..%2Fetc/rules")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "What you are trying to do" in page.text and 'class="site-header"' in page.text
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert embed.status_code == 200 and 'class="site-header"' not in embed.text
    assert "frame-ancestors 'self'" in embed.headers["content-security-policy"]
    assert "script-src 'self'" in embed.headers["content-security-policy"]
    assert embed.headers["x-frame-options"] == "SAMEORIGIN"
    assert missing.status_code == 404 and odd.status_code == 404
