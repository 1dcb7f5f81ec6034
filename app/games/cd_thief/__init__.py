"""CD Thief (Retro Gaming RoundUp board game): steal the CDs from the Expo hotel's Casino and
escape (the CD Thief rulebook, rulings D1-D11 in docs/rules/cd-thief.md). `game.CdThief`
registers itself."""

from app.games.cd_thief import game as game
