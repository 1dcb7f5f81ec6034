"""Pages in their own browser contexts, one friend each, for the browser tests' fixtures
(conftest's `new_page` on the shared server, and fixtures on a module's own server).

(Named browser_pages because tests have no __init__ files and pytest's rootdir imports need
helper module names that are unique across the whole tests tree.)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def page_maker(
    browser: Any, base_url: str, size: tuple[int, int] = (1280, 900)
) -> Iterator[Callable[..., Any]]:
    """make(width, height, player=None) -> a page on `base_url` in its own browser context;
    when the block ends the contexts close, and any JavaScript error in a page fails."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(
        width: int = size[0], height: int = size[1], player: dict[str, str] | None = None
    ) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=base_url
        )
        context.set_default_timeout(10_000)
        if player is not None:
            context.add_init_script(
                f"localStorage.setItem('arcade.player', {json.dumps(json.dumps(player))});"
            )
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
