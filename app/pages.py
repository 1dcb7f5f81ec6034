"""The HTML pages as served, rendered once with Jinja2 when the app is created.

The site header is written once, as a macro in static/partials/site-header.html, and each
page calls it with what differs (its nav link, the brand link's label, what goes into the
"You:" chip). There is no build step, yet the header has to be in the HTML as served (no
flash of a missing header, links that work before any script runs), so the server renders the
pages; they do not change while it runs.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from app.static_files import load_static_tree

PAGES = ("index", "match", "replay", "history", "404", "docs")


def page_environment(static: Path) -> Environment:
    """The Jinja2 environment of the pages under `static`.

    Templates name their files with `static_url("css/arcade.css")` (the versioned, immutable
    URL, app/static_files.py) and preload a script's imports with
    `module_preloads("js/match.js")`."""
    tree = load_static_tree(static)
    environment = Environment(
        loader=FileSystemLoader(static),
        # Every template is HTML. Nothing a client sends is rendered here (the pages get no
        # variables but our own texts; names and chat are filled in by the page's script, as
        # text), and escaping stays on so that a value passed in cannot become markup.
        autoescape=True,
        undefined=StrictUndefined,  # a misspelt name stops the start, not a page
        keep_trailing_newline=True,
    )
    environment.globals.update(static_url=tree.url, module_preloads=tree.module_preloads)
    return environment


def match_page_name(game_id: str) -> str:
    return f"match:{game_id}"


def assemble_pages(static: Path) -> dict[str, str]:
    """Each page of PAGES (by file name without .html), rendered, and one match page per game
    renderer under `match_page_name(game id)`: it preloads that renderer and everything it
    imports, so a match page fetches its whole module graph at once and nothing another game
    draws with. `match` itself (a match that does not exist, say) preloads no renderer."""
    environment = page_environment(static)
    pages = {
        name: environment.get_template(f"{name}.html").render(game_modules=()) for name in PAGES
    }
    match = environment.get_template("match.html")
    for renderer in sorted((static / "js" / "games").glob("*.js")):
        pages[match_page_name(renderer.stem)] = match.render(
            game_modules=(f"js/games/{renderer.name}",)
        )
    return pages
