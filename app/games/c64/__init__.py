"""C64 Board: six games on one 8x8 board, all played with joystick cards (rulings C1-C10).

`base.C64Game` holds the shared joystick engine and turn machinery; each game is a module
that registers itself (`maze.py`: C64 Maze).
"""
