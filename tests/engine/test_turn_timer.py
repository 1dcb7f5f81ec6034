"""The lobby's turn timer (issue 15, part 3): each position's active seats get a deadline;
a seat still to move after a step of its own turn keeps the one it had, a seat whose turn
begins gets a fresh one, and running out is what lets the others call a computer in."""

from __future__ import annotations

from app.engine.dice import Dice
from app.engine.registry import get_game
from app.engine.runtime import LiveMatch


def _match(game_id: str, players: int, timer: int | None) -> LiveMatch:
    game = get_game(game_id)
    assert game is not None
    options = game.parse_options({})
    state = game.setup(players, options, Dice("timer", 0))
    live = LiveMatch(
        id="m",
        game=game,
        options=options,
        seed="timer",
        players=["a", "b"][:players],
        names=["Ada", "Bob"][:players],
        state=state,
        version=0,
        status="active",
        outcome=None,
        turn_timer=timer,
    )
    live.remember(0, state, [])
    return live


def _play(live: LiveMatch, move: dict, at_ms: int) -> None:
    seat = min(live.game.active_seats(live.state))
    state, events = live.game.apply(live.state, seat, move, Dice("timer", live.version + 1))
    live.state, live.version = state, live.version + 1
    live.remember(live.version, state, events)
    live.start_turn(live.version, at_ms)


def test_a_turn_of_several_steps_keeps_its_deadline_and_the_next_turn_gets_a_fresh_one() -> None:
    live = _match("tactrics-crossing", 2, 60)
    live.start_turn(0, 1_000)
    assert live.turn_deadlines[0] == 61_000
    game = live.game
    # Red turns a tower: still Red's turn (she may undo or end it), the same deadline.
    rotate = next(m for m in game.legal_moves(live.state, 0) if m["type"] == "rotate")
    _play(live, rotate, 30_000)
    assert game.active_seats(live.state) == {0}
    assert live.turn_deadlines[1] == 61_000
    assert not live.turn_ran_out(0, 60_999) and live.turn_ran_out(0, 61_000)
    assert not live.turn_ran_out(1, 70_000)  # not Bob's turn: his timer is not running
    while game.active_seats(live.state) == frozenset({0}):
        moves = game.legal_moves(live.state, 0)
        ending = [m for m in moves if m["type"] not in ("rotate", "undo")]
        _play(live, (ending or moves)[0], 40_000)
    assert game.active_seats(live.state) == {1}
    assert live.turn_deadlines[live.version] == 100_000


def test_no_timer_no_deadline() -> None:
    live = _match("tactrics-crossing", 2, None)
    live.start_turn(0, 1_000)
    assert live.turn_deadlines == {}
    assert live.viewer_state(0, 0)["turn_deadline"] is None
    timed = _match("tactrics-crossing", 2, 30)
    timed.start_turn(0, 1_000)
    assert timed.viewer_state(0, 0)["turn_deadline"] == 31_000
