"""The rules pages as served: each game's page rendered once, on its first request."""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from app.engine.registry import all_games, get_game
from app.pages import page_environment
from app.rules_pages.render import render_page
from app.rules_pages.source import page_source
from app.tutorials import FAMILY_TITLES, Tutorial, all_tutorials, tutorial, tutorial_for_game


def players_text(low: int, high: int) -> str:
    if low == high:
        return "1 player" if low == 1 else f"{low} players"
    return f"{low}-{high} players"


class RulesPages:
    def __init__(self, static: Path) -> None:
        self._template = page_environment(static).get_template("rules.html")
        self._rendered: dict[tuple[str, bool], str] = {}

    def page(self, game_id: str, *, embed: bool) -> str | None:
        """The HTML of a game's rules page, or None when there is no such page."""
        key = (game_id, embed)
        cached = self._rendered.get(key)
        if cached is not None:
            return cached
        game = get_game(game_id)
        source = page_source(game_id)
        if game is None or source is None:
            return None
        rendered = render_page(game, source)
        tutorial = tutorial_for_game(game_id)
        text = self._template.render(
            title=source.meta.get("title", game.title),
            tagline=source.meta.get("tagline", game.goal),
            game_id=game.id,
            players=players_text(game.min_players, game.max_players),
            sections=rendered.sections,
            # Our own Markdown, rendered with raw HTML off (app/rules_pages/render.py).
            content=Markup(rendered.html),  # noqa: S704
            learn_url=f"/learn/{tutorial.family}" if tutorial is not None else None,
            embed=embed,
        )
        self._rendered[key] = text
        return text


class LessonPages:
    """/learn (every lesson) and /learn/{family} (one lesson, with its Start button)."""

    def __init__(self, static: Path) -> None:
        environment = page_environment(static)
        self._index = environment.get_template("learn.html")
        self._lesson = environment.get_template("lesson.html")
        self._rendered: dict[str, str] = {}

    @staticmethod
    def _family_games(family: str) -> list[dict[str, str]]:
        games = []
        for game in all_games():
            source = page_source(game.id)
            if source is not None and source.meta.get("family") == family:
                games.append({"id": game.id, "title": source.meta.get("title", game.title)})
        return games

    def _lesson_facts(self, lesson: Tutorial) -> dict[str, object]:
        return {
            **lesson.model_dump(),
            "family_title": FAMILY_TITLES[lesson.family],
            "games": self._family_games(lesson.family),
        }

    def index(self) -> str:
        if "" not in self._rendered:
            lessons = [self._lesson_facts(lesson) for lesson in all_tutorials().values()]
            self._rendered[""] = self._index.render(lessons=lessons)
        return self._rendered[""]

    def lesson(self, family: str) -> str | None:
        cached = self._rendered.get(family)
        if cached is not None:
            return cached
        lesson = tutorial(family)
        game = get_game(lesson.game) if lesson is not None else None
        if lesson is None or game is None:
            return None
        text = self._lesson.render(lesson=self._lesson_facts(lesson), game_title=game.title)
        self._rendered[family] = text
        return text
