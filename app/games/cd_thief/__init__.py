"""CD Thief (Retro Gaming RoundUp board game): steal the CDs from the Expo hotel's Casino and
escape (rulebooks/cd-thief.txt, rulings cd-thief.md D1-D11). `game.CdThief` registers itself."""

from app.games.cd_thief import game as game
