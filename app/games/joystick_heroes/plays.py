"""One play of a Games card: the steps before the roll, the roll, the steps after it and the
collection of the winnings (rulebook "How To Play", rulings H4-H6, H10, H13, H16).

A play in progress is ``state["play"]``::

    {"seat": s, "card": id, "context": "arcade" | "tournament" | "tiebreak",
     "step": "before" | "after" | "marking",
     "level": 1..3, "passed": Levels passed (Premium), "level3": Level 3 score or None,
     "dice": [Scoring die faces], "face": Game die face or None, "face_mod": None |
     "ignored" (Lucky Charm) | "doubled" (Combo Breaker),
     "key_open": a Key may be spent now, "life_open": the Heart's extra life may be taken,
     "key_points": points from spent Keys, "continued": None | {"die", "face"} ("Continue?"),
     "boosts": {"extra_quarter": n, "genre_fan": n, "skill_boost": {skill: n}},
     "hunters": High Score Hunters played, "bonanza": Ticket Bonanzas played,
     "coop": None | {"lender", "column"}, "coop_asked": bool, "second_wind_used": bool,
     "marked": [die indexes marked for a Do-Over], "last_die": "main" | "continue",
     "tilted": the latest Game die roll was already tilted}

Tournament plays (context "tournament") collect winnings; tie-break replays and the sudden
death (context "tiebreak") only decide a winner. Functions mutate the fresh state they get.
"""

from __future__ import annotations

from typing import Any

from app.engine.contract import Event, IllegalMove, Move, State
from app.engine.dice import Dice
from app.games.joystick_heroes.content import (
    COLUMN_NAMES,
    GAME_DIE,
    GAME_DIE_NAMES,
    GAMES_CARDS,
    RULES,
    SCORING_DIE,
    amended,
    card_columns,
    hero,
    key_value,
    kind_of,
    power_name,
    tally,
)
from app.games.joystick_heroes.decks import build_power_deck, discard_power, set_hand
from app.games.joystick_heroes.scoring import (
    dice_count,
    high_score_target,
    is_premium,
    level_target,
    premium_result,
    reward_text,
    roll_score,
    standard_result,
)

BEFORE_KINDS = ("extra_quarter", "genre_fan", "skill_boost", "high_score_hunter")
AFTER_KINDS = (
    "do_over",
    "turbo",
    "lucky_charm",
    "combo_breaker",
    "cheat_code",
    "second_wind",
    "ticket_bonanza",
)


def new_play(seat: int, card: int, context: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "card": card,
        "context": context,
        "step": "before",
        "level": 1,
        "passed": 0,
        "level3": None,
        "dice": [],
        "face": None,
        "face_mod": None,
        "key_open": False,
        "life_open": False,
        "key_points": 0,
        "continued": None,
        "boosts": {"extra_quarter": 0, "genre_fan": 0, "skill_boost": {}},
        "hunters": 0,
        "bonanza": 0,
        "coop": None,
        "coop_asked": False,
        "second_wind_used": False,
        "marked": [],
        "last_die": "main",
        "tilted": False,
    }


def start_play(state: State, seat: int, card: int, context: str, events: list[Event]) -> None:
    state["play"] = new_play(seat, card, context)
    columns = ", ".join(COLUMN_NAMES[c] for c in card_columns(card))
    dice = dice_count(state["players"][seat]["cubes"], state["play"])
    tier = "Premium" if is_premium(card) else "Standard"
    events.append(
        {
            "type": "play",
            "seat": seat,
            "card": card,
            "context": context,
            "text": f"{hero(seat)} plays {GAMES_CARDS[card]['name']} ({tier}; {columns}): "
            f"{tally(state, dice, 'Scoring die', 'Scoring dice', was='Scoring dice')} so far.",
        }
    )


# --- legal moves ---------------------------------------------------------------------------
def _hand(state: State, seat: int) -> list[str]:
    return list(state["players"][seat]["hand"])


def _first_of_each_kind(hand: list[str]) -> list[str]:
    """One card per kind: two copies of a card do the same, so the list stays short."""
    seen: set[str] = set()
    out = []
    for card in hand:
        if kind_of(card) not in seen:
            seen.add(kind_of(card))
            out.append(card)
    return out


def play_moves(state: State) -> list[Move]:
    """The acting player's moves during a play (the seat is ``state["play"]["seat"]``)."""
    play = state["play"]
    seat = play["seat"]
    hand = _hand(state, seat)
    card = play["card"]
    moves: list[Move] = []
    if play["step"] == "marking":
        moves = [
            {"type": "mark_die", "die": i}
            for i in range(len(play["dice"]))
            if i not in play["marked"]
        ]
        return [*moves, {"type": "reroll"}]
    if play["step"] == "before":
        for instance in _first_of_each_kind(hand):
            kind = kind_of(instance)
            if kind == "skill_boost":
                for skill in GAMES_CARDS[card]["skills"]:
                    moves.append({"type": "play_card", "card": instance, "skill": skill})
            elif kind in BEFORE_KINDS:
                moves.append({"type": "play_card", "card": instance})
        moves.extend(_coop_moves(state))
        moves.extend(_out_of_order_moves(state, hand))
        moves.extend({"type": "discard", "card": c} for c in hand)
        moves.append({"type": "roll"})
        return moves
    # after the roll
    if play["life_open"]:
        moves.append({"type": "take_life"})
    if play["key_open"]:
        moves.extend(
            {"type": "use_key", "card": c}
            for c in _first_of_each_kind(hand)
            if key_value(c) is not None
        )
    continued = play["continued"] is not None
    for instance in _first_of_each_kind(hand):
        kind = kind_of(instance)
        if kind == "ticket_bonanza":
            moves.append({"type": "play_card", "card": instance})
        if continued:
            continue
        if kind == "do_over" and play["dice"]:
            moves.append({"type": "play_card", "card": instance})
        elif kind == "turbo":
            moves.extend(
                {"type": "play_card", "card": instance, "die": i} for i in range(len(play["dice"]))
            )
        elif kind == "lucky_charm" and play["face"] in ("-100", "bomb") and not play["face_mod"]:
            moves.append({"type": "play_card", "card": instance})
        elif kind == "combo_breaker" and play["face"] in ("+100", "+200") and not play["face_mod"]:
            moves.append({"type": "play_card", "card": instance})
        elif kind == "cheat_code":
            moves.extend({"type": "play_card", "card": instance, "face": f} for f in GAME_DIE)
        elif kind == "second_wind" and _failing_level(play):
            moves.append({"type": "play_card", "card": instance})
    if _may_continue(state):
        moves.append({"type": "continue_game"})
    moves.extend(_out_of_order_moves(state, hand))
    moves.extend({"type": "discard", "card": c} for c in hand)
    moves.append({"type": "done"})
    return moves


def _out_of_order_moves(state: State, hand: list[str]) -> list[Move]:
    """Out of Order's timing is "Your turn" (not "Start of your turn"): during her own play of
    an arcade game (a Versus challenge is her turn too, H9), not in a tournament."""
    if state["play"]["context"] != "arcade":
        return []
    card = next((c for c in hand if kind_of(c) == "out_of_order"), None)
    if card is None:
        return []
    return [{"type": "play_card", "card": card, "spot": s} for s in sign_spots(state)]


def sign_spots(state: State) -> list[int]:
    """Where an Out of Order sign may go: a Games card with no pawn and no sign."""
    taken = {p["spot"] for p in state["players"] if p["spot"] is not None}
    blocked = {int(s) for s in state["blocked"]}
    return [
        spot
        for spot, entry in enumerate(state["arcade"])
        if entry["card"] is not None and spot not in taken and spot not in blocked
    ]


def _failing_level(play: dict[str, Any]) -> bool:
    return is_premium(play["card"]) and roll_score(play) < level_target(play["card"], play["level"])


def _may_continue(state: State) -> bool:
    """H16: with the option on, once per play, after the final score (Premium: Level 3)."""
    play = state["play"]
    if not state["options"]["continue_rule"] or play["continued"] is not None:
        return False
    if is_premium(play["card"]) and play["level"] != 3:
        return False
    return state["players"][play["seat"]]["tickets"] >= RULES["continue_cost_tickets"]


def _coop_moves(state: State) -> list[Move]:
    """H10: before rolling on a Co-op card, ask one other player for a cube of one of the card's
    columns where she has at least one; the asker needs the ticket to pay her."""
    play = state["play"]
    seat = play["seat"]
    card = GAMES_CARDS[play["card"]]
    if play["context"] != "arcade" or card["mode"] != "coop" or play["coop_asked"]:
        return []
    if state["players"][seat]["tickets"] < RULES["coop_fee_tickets"]:
        return []
    moves: list[Move] = []
    for lender in clockwise_from(state, seat)[1:]:
        for column in card_columns(play["card"]):
            if state["players"][lender]["cubes"][column] >= 1:
                moves.append({"type": "ask_coop", "lender": lender, "column": column})
    return moves


def clockwise_from(state: State, seat: int) -> list[int]:
    n = len(state["players"])
    return [(seat + i) % n for i in range(n)]


# --- rolling -------------------------------------------------------------------------------
def _roll_scoring(rng: Dice, count: int) -> list[int]:
    return [SCORING_DIE[rng.below(len(SCORING_DIE))] for _ in range(count)]


def _roll_face(rng: Dice) -> str:
    return GAME_DIE[rng.below(len(GAME_DIE))]


def roll_level(state: State, rng: Dice, events: list[Event]) -> None:
    """Roll all the Scoring dice and the Game die for the current roll (or Level)."""
    play = state["play"]
    seat = play["seat"]
    dice = dice_count(state["players"][seat]["cubes"], play)
    play["dice"] = _roll_scoring(rng, dice)
    play["face_mod"] = None
    play["key_points"] = 0
    play["continued"] = None
    play["marked"] = []
    play["step"] = "after"
    _set_face(play, _roll_face(rng))
    level = f" for Level {play['level']}" if is_premium(play["card"]) else ""
    events.append(
        {
            "type": "roll",
            "seat": seat,
            "dice": list(play["dice"]),
            "face": play["face"],
            "level": play["level"],
            "score": roll_score(play),
            "text": f"{hero(seat)} rolls "
            f"{tally(state, dice, 'Scoring die', 'Scoring dice', was='Scoring dice')}{level}: "
            f"{_dice_text(play['dice'])} and {GAME_DIE_NAMES[play['face']]} on the Game die, "
            f"scoring {roll_score(play)}.",
        }
    )
    ask_tilt(state, "main", events)


def _dice_text(dice: list[int]) -> str:
    return ", ".join(str(d) for d in dice) if dice else "no dice"


def _set_face(play: dict[str, Any], face: str) -> None:
    play["face"] = face
    play["face_mod"] = None
    play["key_open"] = face == "key"
    play["life_open"] = face == "heart"
    play["last_die"] = "main"
    play["tilted"] = False


REACTION_KINDS = {"tilt": "tilt", "thief": "ticket_thief"}


def holds(state: State, seat: int, kind: str) -> bool:
    return any(kind_of(c) == kind for c in state["players"][seat]["hand"])


def reaction_seats(state: State, question: str, actor: int) -> list[int]:
    """The seats asked at a reaction moment, clockwise from the actor: every other seat that,
    from what the table knows, could hold the card (a card in hand while some copy of it is
    not publicly in the discards). Who really holds it never decides who is asked, so being
    asked reveals nothing; non-holders can only answer no."""
    kind = REACTION_KINDS[question]
    copies = sum(1 for c in build_power_deck(len(state["players"]) == 1) if kind_of(c) == kind)
    if copies <= sum(1 for c in state["power_discard"] if kind_of(c) == kind):
        return []
    return [s for s in clockwise_from(state, actor)[1:] if state["players"][s]["hand"]]


def ask_tilt(state: State, which: str, events: list[Event]) -> None:
    """Tilt! (Reaction): after a Game die roll, the other players who could hold a Tilt! are
    asked together; the first taker clockwise makes the roller reroll it once."""
    play = state["play"]
    play["last_die"] = which
    play["tilted"] = False
    asked = reaction_seats(state, "tilt", play["seat"])
    if asked:
        state["question"] = {"kind": "tilt", "asker": play["seat"], "seats": asked, "answers": {}}


def tilt(state: State, holder: int, rng: Dice, events: list[Event]) -> None:
    play = state["play"]
    card = next(c for c in state["players"][holder]["hand"] if kind_of(c) == "tilt")
    _spend(state, holder, card)
    face = _roll_face(rng)
    if play["last_die"] == "continue":
        play["continued"] = {**play["continued"], "face": face}
        play["key_open"] = face == "key"
    else:
        _set_face(play, face)
    play["tilted"] = True
    events.append(
        {
            "type": "tilt",
            "seat": holder,
            "target": play["seat"],
            "face": face,
            "score": roll_score(play),
            "text": f"{hero(holder)} plays Tilt! {hero(play['seat'])} must reroll the Game die: "
            f"{GAME_DIE_NAMES[face]}, now scoring {roll_score(play)}.",
        }
    )


# --- card plays ----------------------------------------------------------------------------
def _spend(state: State, seat: int, card: str) -> None:
    hand = list(state["players"][seat]["hand"])
    hand.remove(card)
    set_hand(state, seat, hand)
    discard_power(state, card)


def apply_play_move(state: State, move: Move, rng: Dice, events: list[Event]) -> bool:
    """Applies a move of the acting player during a play. True when the play has ended (the
    caller collects)."""
    play = state["play"]
    seat = play["seat"]
    name = hero(seat)
    kind = move["type"]
    if kind == "roll":
        roll_level(state, rng, events)
    elif kind == "discard":
        _spend(state, seat, move["card"])
        events.append(
            {
                "type": "discard",
                "seat": seat,
                "kind": kind_of(move["card"]),
                "text": f"{name} discards {power_name(move['card'])}.",
            }
        )
    elif kind == "ask_coop":
        play["coop_asked"] = True
        lender = move["lender"]
        state["question"] = {
            "kind": "coop",
            "seat": lender,
            "queue": [],
            "asker": seat,
            "column": move["column"],
        }
        events.append(
            {
                "type": "ask_coop",
                "seat": seat,
                "lender": lender,
                "column": move["column"],
                "text": f"{name} asks {hero(lender)} to lend a "
                f"{COLUMN_NAMES[move['column']]} cube for 1 ticket (Co-op).",
            }
        )
    elif kind == "play_card":
        _play_card(state, move, rng, events)
    elif kind == "mark_die":
        play["marked"] = sorted([*play["marked"], move["die"]])
    elif kind == "reroll":
        _do_over(state, rng, events)
    elif kind == "take_life":
        _take_life(state, rng, events)
    elif kind == "use_key":
        value = key_value(move["card"]) or 0
        _spend(state, seat, move["card"])
        play["key_points"] += value
        play["key_open"] = False
        events.append(
            {
                "type": "key",
                "seat": seat,
                "kind": kind_of(move["card"]),
                "points": value,
                "text": f"{name} spends {power_name(move['card'])} on the Key for "
                f"{value} points: {roll_score(play)}.",
            }
        )
    elif kind == "continue_game":
        _continue(state, rng, events)
    elif kind == "done":
        return _done(state, rng, events)
    else:  # pragma: no cover - legal_moves guards the kinds
        raise IllegalMove("That move does not fit this moment of the game.")
    return False


def _play_card(state: State, move: Move, rng: Dice, events: list[Event]) -> None:
    play = state["play"]
    seat = play["seat"]
    card = move["card"]
    kind = kind_of(card)
    name = hero(seat)
    title = power_name(card)
    _spend(state, seat, card)
    text = f"{name} plays {title}."
    if kind == "extra_quarter":
        play["boosts"]["extra_quarter"] += 1
        text = f"{name} plays {title}: +1 Scoring die."
    elif kind == "genre_fan":
        play["boosts"]["genre_fan"] += 1
        text = (
            f"{name} plays {title}: {COLUMN_NAMES[GAMES_CARDS[play['card']]['genre']]} cubes "
            "count twice."
        )
    elif kind == "skill_boost":
        boost = play["boosts"]["skill_boost"]
        boost[move["skill"]] = boost.get(move["skill"], 0) + 1
        text = f"{name} plays {title}: {COLUMN_NAMES[move['skill']]} cubes count twice."
    elif kind == "high_score_hunter":
        play["hunters"] += 1
        target = high_score_target(play["card"], play["hunters"])
        text = f"{name} plays {title}: the High Score is {target} this turn."
    elif kind == "do_over":
        play["step"] = "marking"
        play["marked"] = []
        text = f"{name} plays {title} and picks the dice to reroll."
    elif kind == "turbo":
        play["dice"][move["die"]] = 300
        text = f"{name} plays {title}: a Scoring die turns to 300, scoring {roll_score(play)}."
    elif kind == "lucky_charm":
        play["face_mod"] = "ignored"
        text = (
            f"{name} plays {title}: the {GAME_DIE_NAMES[play['face']]} is ignored, scoring "
            f"{roll_score(play)}."
        )
    elif kind == "combo_breaker":
        play["face_mod"] = "doubled"
        text = (
            f"{name} plays {title}: the Game die's {play['face']} counts double, scoring "
            f"{roll_score(play)}."
        )
    elif kind == "cheat_code":
        _set_face(play, move["face"])
        text = (
            f"{name} plays {title} and turns the Game die to {GAME_DIE_NAMES[move['face']]}, "
            f"scoring {roll_score(play)}."
        )
    elif kind == "second_wind":
        play["second_wind_used"] = True
        events.append(
            {
                "type": "card",
                "seat": seat,
                "kind": kind,
                "text": f"{name} plays {title} and rolls Level {play['level']} again.",
            }
        )
        roll_level(state, rng, events)
        return
    elif kind == "ticket_bonanza":
        play["bonanza"] += 1
        text = f"{name} plays {title}: 2 more tickets if this game pays tickets."
    elif kind == "out_of_order":
        state["blocked"] = {**state["blocked"], str(move["spot"]): seat}
        text = (
            f"{name} puts Out of Order on spot {move['spot'] + 1}: nobody may move there "
            f"until {name}'s next turn."
        )
    events.append({"type": "card", "seat": seat, "kind": kind, "text": text})


def _do_over(state: State, rng: Dice, events: list[Event]) -> None:
    play = state["play"]
    for index in play["marked"]:
        play["dice"][index] = SCORING_DIE[rng.below(len(SCORING_DIE))]
    count = len(play["marked"])
    play["marked"] = []
    play["step"] = "after"
    events.append(
        {
            "type": "reroll",
            "seat": play["seat"],
            "dice": list(play["dice"]),
            "text": f"{hero(play['seat'])} rerolls {count} Scoring "
            f"{'die' if count == 1 else 'dice'}: {_dice_text(play['dice'])}, scoring "
            f"{roll_score(play)}.",
        }
    )


def _take_life(state: State, rng: Dice, events: list[Event]) -> None:
    play = state["play"]
    die = SCORING_DIE[rng.below(len(SCORING_DIE))]
    play["dice"] = [*play["dice"], die]
    _set_face(play, _roll_face(rng))
    events.append(
        {
            "type": "life",
            "seat": play["seat"],
            "die": die,
            "face": play["face"],
            "dice": list(play["dice"]),
            "text": f"{hero(play['seat'])} takes the extra life: one more Scoring die "
            f"shows {die} and the Game die shows {GAME_DIE_NAMES[play['face']]}, "
            f"scoring {roll_score(play)}.",
        }
    )
    ask_tilt(state, "main", events)


def _continue(state: State, rng: Dice, events: list[Event]) -> None:
    play = state["play"]
    seat = play["seat"]
    _pay_tickets(state, seat, int(RULES["continue_cost_tickets"]))
    die = SCORING_DIE[rng.below(len(SCORING_DIE))]
    face = _roll_face(rng)
    play["continued"] = {"die": die, "face": face}
    play["key_open"] = face == "key"
    play["life_open"] = False
    events.append(
        {
            "type": "continue",
            "seat": seat,
            "die": die,
            "face": face,
            "text": f"{hero(seat)} pays 2 tickets to continue: {die} and "
            f"{GAME_DIE_NAMES[face]}, scoring {roll_score(play)}.",
        }
    )
    ask_tilt(state, "continue", events)


def _pay_tickets(state: State, seat: int, amount: int) -> None:
    players = list(state["players"])
    players[seat] = {**players[seat], "tickets": players[seat]["tickets"] - amount}
    state["players"] = players


def gain(state: State, seat: int, tickets: int = 0, prizes: int = 0) -> None:
    players = list(state["players"])
    p = players[seat]
    players[seat] = {**p, "tickets": p["tickets"] + tickets, "prizes": p["prizes"] + prizes}
    state["players"] = players


def _done(state: State, rng: Dice, events: list[Event]) -> bool:
    """Premium: a passed Level below 3 goes straight on to the next Level (H6)."""
    play = state["play"]
    if not is_premium(play["card"]):
        return True
    score = roll_score(play)
    target = level_target(play["card"], play["level"])
    name = hero(play["seat"])
    if score < target:
        events.append(
            {
                "type": "level",
                "seat": play["seat"],
                "level": play["level"],
                "passed": False,
                "text": f"{name} misses Level {play['level']} ({score} < {target}).",
            }
        )
        return True
    play["passed"] = play["level"]
    if play["level"] == 3:
        play["level3"] = score
        events.append(
            {
                "type": "level",
                "seat": play["seat"],
                "level": 3,
                "passed": True,
                "text": f"{name} passes Level 3 ({score} ≥ {target})!",
            }
        )
        return True
    events.append(
        {
            "type": "level",
            "seat": play["seat"],
            "level": play["level"],
            "passed": True,
            "text": f"{name} passes Level {play['level']} ({score} ≥ {target}) and "
            f"rolls for Level {play['level'] + 1}.",
        }
    )
    play["level"] += 1
    play["second_wind_used"] = False
    roll_level(state, rng, events)
    return False


# --- collecting -----------------------------------------------------------------------------
def collect(state: State, events: list[Event]) -> dict[str, Any]:
    """Pays the finished play's winnings and returns its result {seat, score, high_score,
    tickets}; the play is cleared (H6, H10, Ticket Bonanza)."""
    play = state["play"]
    seat = play["seat"]
    card = play["card"]
    name = hero(seat)
    if is_premium(card):
        score = play["level3"] if play["level3"] is not None else roll_score(play)
        reward, high, words = premium_result(card, play["passed"], play["level3"], play["hunters"])
    else:
        score = roll_score(play)
        reward, high, words = standard_result(card, score, play["hunters"])
    result = {
        "seat": seat,
        "card": card,
        "score": score,
        "high_score": high,
        "tickets": 0,
        "context": play["context"],
        "coop": play["coop"],
    }
    if amended(state):  # H9a needs the Levels passed; version 1 kept no such field
        result["levels"] = play["passed"] if is_premium(card) else None
    state["play"] = None
    if play["context"] == "tiebreak":
        events.append(
            {"type": "score", "seat": seat, "score": score, "text": f"{name} scores {score}."}
        )
        return result
    tickets = reward["tickets"]
    if tickets and play["bonanza"]:
        tickets += int(RULES["ticket_bonanza_tickets"]) * play["bonanza"]
    gain(state, seat, tickets=tickets, prizes=reward["prizes"])
    result["tickets"] = tickets
    paid = {"tickets": tickets, "prizes": reward["prizes"]}
    hs = " HIGH SCORE!" if high else ""
    events.append(
        {
            "type": "collect",
            "seat": seat,
            "score": score,
            "high_score": high,
            "tickets": tickets,
            "prizes": reward["prizes"],
            "text": f"{name} scores {score} on {GAMES_CARDS[card]['name']} and wins "
            f"{reward_text(paid)} ({words}).{hs}",
        }
    )
    coop = play["coop"]
    if high and coop is not None:
        bonus = int(RULES["coop_high_score_tickets"])
        gain(state, coop["lender"], tickets=bonus)
        events.append(
            {
                "type": "coop_bonus",
                "seat": coop["lender"],
                "tickets": bonus,
                "text": f"{hero(coop['lender'])} lent the cube for that High Score and "
                f"takes {tally(state, bonus, 'ticket', was='tickets')}.",
            }
        )
    players = list(state["players"])
    players[seat] = {**players[seat], "last_game": card}
    state["players"] = players
    return result


def ask_thief(state: State, result: dict[str, Any]) -> bool:
    """Ticket Thief (Reaction): after a collection with tickets, the other players who could
    hold a Ticket Thief are asked together; the first taker clockwise from the collector takes
    up to 2 of those tickets. True when the question was asked."""
    if result["tickets"] <= 0:
        return False
    asked = reaction_seats(state, "thief", result["seat"])
    if not asked:
        return False
    state["question"] = {
        "kind": "thief",
        "asker": result["seat"],
        "seats": asked,
        "answers": {},
        "amount": min(int(RULES["ticket_thief_max"]), result["tickets"]),
    }
    return True


def steal(state: State, question: dict[str, Any], thief: int, events: list[Event]) -> None:
    victim = question["asker"]
    card = next(c for c in state["players"][thief]["hand"] if kind_of(c) == "ticket_thief")
    _spend(state, thief, card)
    amount = min(question["amount"], state["players"][victim]["tickets"])
    gain(state, victim, tickets=-amount)
    gain(state, thief, tickets=amount)
    events.append(
        {
            "type": "thief",
            "seat": thief,
            "victim": victim,
            "tickets": amount,
            "text": f"{hero(thief)} plays Ticket Thief and takes {amount} of "
            f"{hero(victim)}'s tickets.",
        }
    )
