"""`has_chance` in GET /api/games tells the pages whether a game rolls or shuffles: the match
and replay pages show the dice seal, the seed and "How are dice checked?" only when it does
(issue 14, item 9: they appeared on Tactrics tables, which have no dice). A game saying it has
no chance must never draw from the dice it is handed."""

from __future__ import annotations

import httpx
import pytest

from app.engine.contract import Game
from app.engine.dice import Dice
from app.engine.registry import all_games
from tests.conftest import LiveServer

# Tactrics rulebook: Crossing, Crossing Advanced and Cat & Mouse start from a fixed board and
# have no dice; Solitary deals its routers onto the board at random (its set-up shuffles).
WITHOUT_CHANCE = {"tactrics-crossing", "tactrics-crossing-advanced", "tactrics-cat-mouse"}


async def test_the_game_list_says_which_games_roll_or_shuffle(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        games = (await client.get("/api/games")).json()
    chance = {g["id"]: g["has_chance"] for g in games}
    assert {game for game, has in chance.items() if not has} == WITHOUT_CHANCE
    assert chance["tactrics-solitary"] is True
    assert chance["c64-maze"] is True


class NoDice(Dice):
    """Dice that fail the test the moment anything draws from them."""

    __slots__ = ()

    def below(self, n: int) -> int:
        raise AssertionError("a game without chance drew from the dice")


@pytest.mark.parametrize(
    "game", [g for g in all_games() if not g.has_chance], ids=lambda g: str(g.id)
)
def test_a_game_without_chance_never_draws_from_the_dice(game: Game) -> None:
    for players in range(game.min_players, game.max_players + 1):
        options = game.parse_options({})
        if game.check_start(players, options) is not None:
            continue
        state = game.setup(players, options, NoDice("seed", 0))
        for number in range(1, 60):  # the first legal move of whoever is to move, a while
            if game.outcome(state) is not None:
                break
            seat = min(game.active_seats(state))
            move = game.legal_moves(state, seat)[0]
            state, _events = game.apply(state, seat, move, NoDice("seed", number))
