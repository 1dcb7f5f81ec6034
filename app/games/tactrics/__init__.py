"""Tactrics (Vortex): four games on one dynamic board of 19 turning towers (rulings V1-V10).

`board.py` builds the lattice (towers, router slots, adjacency, rotation); `turns.py` holds
the turn, undo and confirm machinery; each game is a module that registers itself:
`crossing.py`, `crossing_advanced.py`, `cat_mouse.py`, `solitary.py`. Set-ups are data under
`data/`.
"""
