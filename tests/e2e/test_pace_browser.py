"""Pace in the browser (issue 18, item 1): the host of a lobby picks turn-based with a time
per move from the same select as the live turn timer; a friend who joins reads it; the match
page counts the long clock down in hours and minutes. At phone size."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.lobby_flow import open_table, take_seat
from tests.e2e.phone import PHONE

pytestmark = pytest.mark.browser


def test_a_turn_based_table_is_chosen_read_and_counted_down(new_page: Any) -> None:
    ada = new_page(width=PHONE["width"], height=PHONE["height"])
    invite = open_table(ada, "Ada", "c64-maze", 2)
    pace = ada.get_by_test_id("turn-timer")
    expect(pace.locator("optgroup")).to_have_count(2)
    pace.select_option(label="1 day")
    expect(pace).to_have_value("86400")

    bea = new_page(width=PHONE["width"], height=PHONE["height"])
    take_seat(bea, invite, "Bea", 1, ada)
    expect(bea.get_by_test_id("turn-timer-text")).to_have_text(
        "Turn-based: 1 day per move. Nobody needs to be online."
    )
    ada.get_by_test_id("start-match").click()
    # Both choose their set-up at once: each sees her own clock, about a day.
    for page in (ada, bea):
        expect(page.get_by_test_id("turn-countdown")).to_have_text(
            re.compile(r"^(23 h \d\d min|1 d 0 h)$")
        )
