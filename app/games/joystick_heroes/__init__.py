"""Joystick Heroes (rulings in docs/rules/joystick-heroes.md): `game.JoystickHeroes`.

Modules by concern: `content` (data files), `moves`, `scoring`, `decks` (arcade and Power
deck), `plays` (one play of a card), `flow` (rounds, questions, Power Up, tournaments, end)
and `game` (the contract and the views).
"""

from app.games.joystick_heroes import game as game  # noqa: F401  (registers the game)
