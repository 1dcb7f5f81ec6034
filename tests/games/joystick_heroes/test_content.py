"""Joystick Heroes content as data (docs/rules/joystick-heroes.md): the 48 Games cards, the 44
Power cards in 19 kinds, the Game die (H5) and the numbers of H2/H3/H14, all in data files."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path

import app.games.joystick_heroes.plays as plays_module
from app.games.joystick_heroes import content
from app.games.joystick_heroes.content import GAMES_CARDS, POWER_CARDS, POWER_KINDS, RULES

DATA = Path(content.__file__).parent / "data"


def test_there_are_48_games_cards_32_standard_and_16_premium():
    """2(d): "Games cards (48): 32 Standard (S, silver) + 16 Premium (P, gold)"."""
    tiers = Counter(c["tier"] for c in GAMES_CARDS.values())
    assert len(GAMES_CARDS) == 48
    assert tiers == {"standard": 32, "premium": 16}


def test_each_genre_has_12_cards_using_each_skill_pair_twice():
    """2(d): "12 per genre; each genre uses each of the 6 skill pairs twice"."""
    for genre in content.GENRES:
        cards = [c for c in GAMES_CARDS.values() if c["genre"] == genre]
        assert len(cards) == 12
        pairs = Counter(tuple(sorted(c["skills"])) for c in cards)
        assert pairs == {tuple(sorted(p)): 2 for p in combinations(content.SKILLS, 2)}


def test_every_games_card_has_the_fields_the_rules_read():
    """H4: 3 icons (2 different skills + 1 genre); H6: chart and High Score; difficulty 1-3."""
    for card in GAMES_CARDS.values():
        assert set(card) >= {
            "id",
            "name",
            "tier",
            "genre",
            "skills",
            "difficulty",
            "mode",
            "chart",
            "high_score",
        }
        assert len(set(card["skills"])) == 2
        assert card["difficulty"] in (1, 2, 3)
        assert card["mode"] in (None, "versus", "coop")
        assert len(card["chart"]) == (4 if card["tier"] == "standard" else 3)
        for entry in [*card["chart"], card["high_score"]]:
            assert entry["tickets"] >= 0 and entry["prizes"] >= 0 and entry["score"] > 0


def test_tbob_keeps_the_rulebook_icons_and_its_chart_row():
    """Rulebook example: Tbob is a Classic game needing Joystick and Shooting; 2(d) row 5."""
    tbob = GAMES_CARDS[5]
    assert tbob["name"] == "Tbob" and tbob["genre"] == "classic"
    assert tbob["skills"] == ["joystick", "shooting"] and tbob["mode"] == "versus"
    assert [e["score"] for e in tbob["chart"]] == [450, 700, 950, 1150]
    assert tbob["high_score"] == {"score": 1450, "tickets": 0, "prizes": 2}


def test_a_premium_row_reads_levels_and_mixed_rewards():
    """2(d) row 6 Bug Blaster: L1 350:2T / L2 600:4T / L3 850:1P+2T, High Score 1150:2P+2T."""
    card = GAMES_CARDS[6]
    assert card["chart"] == [
        {"score": 350, "tickets": 2, "prizes": 0},
        {"score": 600, "tickets": 4, "prizes": 0},
        {"score": 850, "tickets": 2, "prizes": 1},
    ]
    assert card["high_score"] == {"score": 1150, "tickets": 2, "prizes": 2}


def test_there_are_44_power_cards_in_19_kinds_with_the_listed_copies_and_keys():
    """2(d) Power cards: 19 kinds, copies adding up to 44, Key values as listed."""
    assert len(POWER_KINDS) == 19
    assert len(POWER_CARDS) == 44
    copies = {k: v["copies"] for k, v in POWER_KINDS.items()}
    assert copies["ticket_thief"] == 2 and copies["all_play_tournament"] == 3
    assert copies["coupon"] == 3 and copies["tilt"] == 2
    assert POWER_KINDS["cheat_code"]["key"] == 300
    assert POWER_KINDS["all_play_tournament"]["key"] is None
    assert POWER_KINDS["on_the_button"]["key"] is None
    assert POWER_KINDS["second_wind"]["premium_only"] is True


def test_every_power_card_kind_is_implemented():
    """Issue item 1: every Power card kind has rules code behind it."""
    source = (
        "\n".join(Path(m.__file__).read_text() for m in (plays_module,))
        + (Path(content.__file__).parent / "flow.py").read_text()
    )
    source += (Path(content.__file__).parent / "decks.py").read_text()
    for kind in POWER_KINDS:
        assert f'"{kind}"' in source, f"{kind} has no rule"


def test_the_game_die_and_the_scoring_die_are_data():
    """H5: +100, +200, -100, Key, Heart, Bomb; rulebook: Scoring die 0-100-100-200-200-300."""
    rules = json.loads((DATA / "rules.json").read_text())
    assert rules["game_die"] == ["+100", "+200", "-100", "key", "heart", "bomb"]
    assert rules["scoring_die"] == [0, 100, 100, 200, 200, 300]
    assert sum(rules["scoring_die"]) / 6 == 150


def test_the_rulings_numbers_are_in_one_place():
    """H2 players + 3 cards, H3 column max 5, H14 costs 3/2/5, rulebook 10 tokens, 3 cards."""
    assert RULES["arcade_extra_cards"] == 3 and RULES["solo_arcade_cards"] == 4
    assert RULES["column_max"] == 5
    assert (RULES["skill_cube_cost"], RULES["genre_cube_cost"], RULES["prize_cost"]) == (3, 2, 5)
    assert RULES["start_tokens"] == 10 and RULES["start_hand"] == 3 and RULES["hand_max"] == 3
    assert RULES["max_scoring_dice"] == 9
