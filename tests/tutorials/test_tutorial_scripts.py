"""Every guided first match (app/tutorials/*.json) plays through the rules module from its
seed exactly as its match will (issue 16, part 3): each step one legal move in order, every
learner step says what to do, outlines what to click and has a hint for a wrong move."""

from __future__ import annotations

import pytest

from app.engine.dice import SETUP_MOVE_NUMBER, Dice
from app.engine.registry import get_game
from app.tutorials import FAMILY_TITLES, Tutorial, all_tutorials

LESSONS = list(all_tutorials().values())


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.family for lesson in LESSONS])
def test_the_script_is_legal_move_by_move_from_its_seed(lesson: Tutorial) -> None:
    game = get_game(lesson.game)
    assert game is not None
    options = game.parse_options(lesson.options)
    assert game.check_start(lesson.players, options) is None
    state = game.begin(lesson.players, options, Dice(lesson.seed, SETUP_MOVE_NUMBER))
    for number, step in enumerate(lesson.steps, start=1):
        assert game.outcome(state) is None, f"the match ended before step {number}"
        move = game.parse_move(step.move)
        assert step.seat in game.active_seats(state), f"step {number}: seat {step.seat} waits"
        assert move in game.legal_moves(state, step.seat), f"step {number} is not legal: {move}"
        state, _events = game.apply(state, step.seat, move, Dice(lesson.seed, number))


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.family for lesson in LESSONS])
def test_every_learner_step_teaches(lesson: Tutorial) -> None:
    learner_steps = [step for step in lesson.steps if step.seat == lesson.learner]
    assert len(learner_steps) >= 3 and len(lesson.steps) <= 40
    for step in learner_steps:
        assert step.say and step.hint and step.highlight, step
    for step in lesson.steps:
        if step.seat != lesson.learner:
            assert not step.highlight and not step.hint, "only the learner clicks"
    assert lesson.ready


def test_the_five_families_have_a_lesson() -> None:
    assert list(all_tutorials()) == list(FAMILY_TITLES)
