"""Rounds: the PLAY phase turn by turn, the questions asked mid-turn, the simultaneous POWER UP
phase, All-Play Tournaments and the end of the game (rulebook; rulings H7-H15).

State keys used here, on top of `decks.py` and `plays.py`:
- ``phase``: "setup" | "play" | "powerup" | "tournament" | "over"; ``round`` (1-based).
- ``order`` / ``order_index``: this round's turn order (clockwise from the pizza slice) and
  whose slot is being played.
- ``turn``: None | {"seat", "step": "start" | "play", "free", "favorite", "spot",
  "challenger", "queue": [seats still to play this card], "scores": {seat: score},
  "high_score"}.
- ``question``: None | {"kind": "versus" | "coop", "seat": the asked seat, "queue": seats to ask
  next, "asker", ...} | {"kind": "tilt" | "thief", "asker", "seats": every seat asked at once,
  "answers": {seat: bool} (private), "amount" (thief)}: see `plays.reaction_seats`.
- ``blocked``: {spot: seat} Out of Order cards on the arcade.
- ``powerup``: None | {"final", "carts": [[action, ...] per seat], "done": [bool per seat]}.
- ``tournament``: None | {"card", "kind": "all_play" | "sudden_death", "entrants",
  "index", "scores": {seat: score}, "replay"}.
- ``history``: Prizes of every seat after each round, for the end-of-game chart.
"""

from __future__ import annotations

from typing import Any

from app.engine.contract import Event, State
from app.engine.dice import Dice
from app.games.joystick_heroes.content import (
    COLUMN_NAMES,
    GAMES_CARDS,
    RULES,
    amended,
    count,
    cube_cost,
    hero,
    kind_of,
    power_name,
    tally,
)
from app.games.joystick_heroes.decks import (
    discard_power,
    draw_power_card,
    draw_tournament_card,
    retire_card,
)
from app.games.joystick_heroes.plays import (
    REACTION_KINDS,
    ask_thief,
    clockwise_from,
    collect,
    gain,
    holds,
    start_play,
    steal,
    tilt,
)


def sentence(words: str) -> str:
    """`words` ending in a full stop, unless a card name already ends it ("Tilt!")."""
    return words if words.endswith(("!", "?", ".")) else f"{words}."


def update_player(state: State, seat: int, **changes: Any) -> None:
    players = list(state["players"])
    players[seat] = {**players[seat], **changes}
    state["players"] = players


# --- where pawns may go ---------------------------------------------------------------------
def occupied_spots(state: State) -> set[int]:
    return {p["spot"] for p in state["players"] if p["spot"] is not None}


def open_spots(state: State, seat: int) -> list[int]:
    """H8: spots with a card, no pawn, no Out of Order card, other than your own spot."""
    taken = occupied_spots(state)
    blocked = {int(s) for s in state["blocked"]}
    here = state["players"][seat]["spot"]
    return [
        spot
        for spot, entry in enumerate(state["arcade"])
        if entry["card"] is not None and spot not in taken and spot not in blocked and spot != here
    ]


def may_stay(state: State, seat: int) -> bool:
    """Favorite Cabinet: stay and play the card at your current spot again."""
    here = state["players"][seat]["spot"]
    return here is not None and state["arcade"][here]["card"] is not None


# --- the PLAY phase ---------------------------------------------------------------------------
def begin_round(state: State, events: list[Event]) -> None:
    n = len(state["players"])
    state["phase"] = "play"
    state["order"] = clockwise_from(state, state["pizza"])
    state["order_index"] = -1
    for seat in range(n):
        update_player(state, seat, played=False)
    events.append(
        {
            "type": "round",
            "round": state["round"],
            "seat": state["pizza"],
            "text": f"Round {state['round']}: {hero(state['pizza'])} has the pizza slice "
            "and plays first.",
        }
    )


def next_turn(state: State, rng: Dice, events: list[Event]) -> None:
    """Gives the next seat of the round its turn, skipping those who cannot play (H8)."""
    while True:
        state["order_index"] += 1
        if state["order_index"] >= len(state["order"]):
            end_play_phase(state, rng, events)
            return
        seat = state["order"][state["order_index"]]
        player = state["players"][seat]
        if player["played"]:
            # She already played this round as a Versus challenger (H9): that was her turn, so
            # a sign she put up then stays until her next one.
            continue
        _lift_out_of_order(state, seat, events)
        if player["tokens"] <= 0:
            events.append(
                {
                    "type": "skip",
                    "seat": seat,
                    "text": f"{hero(seat)} has no tokens left and skips this round.",
                }
            )
            continue
        has_favorite = any(kind_of(c) == "favorite_cabinet" for c in player["hand"])
        if not open_spots(state, seat) and not (has_favorite and may_stay(state, seat)):
            events.append(
                {
                    "type": "skip",
                    "seat": seat,
                    "text": f"{hero(seat)} finds no free game and skips this turn, "
                    "keeping the token.",
                }
            )
            continue
        state["turn"] = {
            "seat": seat,
            "step": "start",
            "free": False,
            "favorite": False,
            "spot": None,
            "challenger": None,
            "queue": [],
            "scores": {},
            "high_score": False,
        }
        events.append({"type": "turn", "seat": seat, "text": f"{hero(seat)}'s turn."})
        return


def _lift_out_of_order(state: State, seat: int, events: list[Event]) -> None:
    mine = [spot for spot, owner in state["blocked"].items() if owner == seat]
    if not mine:
        return
    state["blocked"] = {s: o for s, o in state["blocked"].items() if o != seat}
    for _spot in mine:
        events.append(
            {
                "type": "unblock",
                "seat": seat,
                "spot": int(_spot),
                "text": f"{hero(seat)}'s Out of Order sign comes off spot {int(_spot) + 1}.",
            }
        )


def start_moves(state: State) -> list[dict[str, Any]]:
    """The turn's first step: Start-of-turn cards, Out of Order, discards, then a move."""
    turn = state["turn"]
    seat = turn["seat"]
    hand = state["players"][seat]["hand"]
    spots = open_spots(state, seat)
    moves: list[dict[str, Any]] = [{"type": "move_to", "spot": s} for s in spots]
    here = state["players"][seat]["spot"]
    if turn["favorite"] and may_stay(state, seat) and here not in spots:
        moves.append({"type": "move_to", "spot": here})
    seen: set[str] = set()
    for card in hand:
        kind = kind_of(card)
        if kind in seen:
            continue
        seen.add(kind)
        if kind == "free_play" and not turn["free"]:
            moves.append({"type": "play_card", "card": card})
        elif kind == "favorite_cabinet" and not turn["favorite"] and may_stay(state, seat):
            moves.append({"type": "play_card", "card": card})
        elif kind == "out_of_order":
            moves.extend({"type": "play_card", "card": card, "spot": s} for s in spots)
    moves.extend({"type": "discard", "card": c} for c in hand)
    if not any(m["type"] == "move_to" for m in moves):
        moves.append({"type": "done"})  # nowhere left to go: skip the turn, keep the token
    return moves


def apply_start_move(state: State, move: dict[str, Any], rng: Dice, events: list[Event]) -> None:
    turn = state["turn"]
    seat = turn["seat"]
    name = hero(seat)
    kind = move["type"]
    if kind == "discard":
        discard(state, seat, move["card"], events)
    elif kind == "play_card":
        card = move["card"]
        card_kind = kind_of(card)
        _spend_card(state, seat, card)
        if card_kind == "free_play":
            turn["free"] = True
            text = f"{name} plays Free Play: this game costs no token."
        elif card_kind == "favorite_cabinet":
            turn["favorite"] = True
            text = f"{name} plays Favorite Cabinet and may stay at her game."
        else:
            state["blocked"] = {**state["blocked"], str(move["spot"]): seat}
            text = (
                f"{name} puts Out of Order on spot {move['spot'] + 1}: nobody may move there "
                f"until {name}'s next turn."
            )
        events.append({"type": "card", "seat": seat, "kind": card_kind, "text": text})
    elif kind == "done":
        events.append(
            {
                "type": "skip",
                "seat": seat,
                "text": f"{name} finds no free game and skips this turn, keeping the token.",
            }
        )
        update_player(state, seat, played=True)
        state["turn"] = None
        next_turn(state, rng, events)
    else:
        _move_to(state, seat, move["spot"], rng, events)


def discard(state: State, seat: int, card: str, events: list[Event]) -> None:
    """H13, H13a: a card dropped from the hand, whoever is to move. A seat asked a reaction
    question that said yes and discards its last such card can no longer play it: its answer
    turns to no (answers stay private, so nobody learns more than the public discard)."""
    _spend_card(state, seat, card)
    events.append(
        {
            "type": "discard",
            "seat": seat,
            "kind": kind_of(card),
            "text": f"{hero(seat)} discards {power_name(card)}.",
        }
    )
    question = state["question"]
    if question is None or question["kind"] not in REACTION_KINDS:
        return
    if question["answers"].get(str(seat)) and not holds(
        state, seat, REACTION_KINDS[question["kind"]]
    ):
        state["question"] = {**question, "answers": {**question["answers"], str(seat): False}}


def _spend_card(state: State, seat: int, card: str) -> None:
    hand = list(state["players"][seat]["hand"])
    hand.remove(card)
    update_player(state, seat, hand=hand)
    discard_power(state, card)


def _move_to(state: State, seat: int, spot: int, rng: Dice, events: list[Event]) -> None:
    turn = state["turn"]
    player = state["players"][seat]
    tokens = player["tokens"] - (0 if turn["free"] else 1)
    update_player(state, seat, spot=spot, tokens=tokens, played=True)
    turn["spot"] = spot
    turn["step"] = "play"
    card = state["arcade"][spot]["card"]
    paid = "plays for free" if turn["free"] else "inserts a token"
    events.append(
        {
            "type": "move",
            "seat": seat,
            "spot": spot,
            "card": card,
            "text": f"{hero(seat)} goes to {GAMES_CARDS[card]['name']} (spot {spot + 1}) "
            f"and {paid}.",
        }
    )
    if GAMES_CARDS[card]["mode"] == "versus":
        challengers = [
            s
            for s in clockwise_from(state, seat)[1:]
            if not state["players"][s]["played"] and state["players"][s]["tokens"] >= 1
        ]
        if challengers:
            state["question"] = {
                "kind": "versus",
                "seat": challengers[0],
                "queue": challengers[1:],
                "asker": seat,
                "spot": spot,
            }
            return
    start_play(state, seat, card, "arcade", events)


# --- questions -----------------------------------------------------------------------------
def answer(state: State, seat: int, accept: bool, rng: Dice, events: list[Event]) -> None:
    """Applies an answer of the asked seat; declining passes the question on (H9-H10)."""
    question = state["question"]
    kind = question["kind"]
    name = hero(seat)
    if kind in REACTION_KINDS:
        _answer_reaction(state, seat, accept, rng, events)
        return
    if not accept:
        words = {"versus": "does not challenge", "coop": "does not lend a cube"}[kind]
        events.append(
            {"type": "decline", "seat": seat, "question": kind, "text": f"{name} {words}."}
        )
        if question["queue"]:
            state["question"] = {
                **question,
                "seat": question["queue"][0],
                "queue": question["queue"][1:],
            }
            return
        state["question"] = None
        _after_question(state, kind, rng, events)
        return
    state["question"] = None
    if kind == "versus":
        asker = question["asker"]
        player = state["players"][seat]
        _lift_out_of_order(state, seat, events)
        update_player(state, seat, tokens=player["tokens"] - 1, spot=question["spot"], played=True)
        state["turn"]["challenger"] = seat
        state["turn"]["queue"] = [seat]
        events.append(
            {
                "type": "challenge",
                "seat": seat,
                "target": asker,
                "text": f"{name} pays a token and challenges {hero(asker)} (Versus)!",
            }
        )
        _after_question(state, kind, rng, events)
    elif kind == "coop":
        asker = question["asker"]
        fee = int(RULES["coop_fee_tickets"])
        gain(state, asker, tickets=-fee)
        gain(state, seat, tickets=fee)
        state["play"]["coop"] = {"lender": seat, "column": question["column"]}
        events.append(
            {
                "type": "coop",
                "seat": seat,
                "target": asker,
                "column": question["column"],
                "text": f"{name} lends a {COLUMN_NAMES[question['column']]} cube to "
                f"{hero(asker)} for 1 ticket: +1 Scoring die.",
            }
        )


def _answer_reaction(state: State, seat: int, accept: bool, rng: Dice, events: list[Event]) -> None:
    """A reaction question is answered by every asked seat privately; nothing is resolved (and
    nothing is told to the others) until the last answer is in. Until then a seat may change
    its answer, so the asked seats stay on the clock together and nobody learns who is slow."""
    question = state["question"]
    kind = question["kind"]
    answers = {**question["answers"], str(seat): accept}
    state["question"] = {**question, "answers": answers}
    card = "Tilt!" if kind == "tilt" else "Ticket Thief"
    if len(answers) < len(question["seats"]):
        words = f"play {card}" if accept else "pass"
        events.append(
            {
                "type": "answered",
                "seat": seat,
                "only": [seat],
                "text": f"You {words}; waiting for the others to answer.",
            }
        )
        return
    state["question"] = None
    takers = [
        s for s in question["seats"] if answers[str(s)] and holds(state, s, REACTION_KINDS[kind])
    ]
    if not takers:
        events.append(
            {"type": "no_reaction", "question": kind, "text": sentence(f"Nobody plays {card}")}
        )
    elif kind == "tilt":
        tilt(state, takers[0], rng, events)
    else:
        steal(state, question, takers[0], events)
    _after_question(state, kind, rng, events)


def _after_question(state: State, kind: str, rng: Dice, events: list[Event]) -> None:
    if kind == "versus":
        turn = state["turn"]
        card = state["arcade"][turn["spot"]]["card"]
        start_play(state, turn["seat"], card, "arcade", events)
    elif kind == "thief":
        after_play(state, rng, events)


def finish_play(state: State, rng: Dice, events: list[Event]) -> None:
    """Collect the ended play, ask the Ticket Thieves, then go on."""
    result = collect(state, events)
    state["last_result"] = result
    if result["context"] == "arcade":
        spot = state["turn"]["spot"]
        arcade = [dict(s) for s in state["arcade"]]
        arcade[spot]["plays"] += 1  # H7: every play adds a marker, tournaments excepted
        state["arcade"] = arcade
        turn = state["turn"]
        turn["scores"] = {**turn["scores"], str(result["seat"]): result["score"]}
        if result.get("levels") is not None:
            turn["levels"] = {**turn.get("levels", {}), str(result["seat"]): result["levels"]}
        turn["high_score"] = turn["high_score"] or result["high_score"]
    elif state["tournament"] is not None:
        tour = state["tournament"]
        tour["scores"] = {**tour["scores"], str(result["seat"]): result["score"]}
    if ask_thief(state, result):
        return
    after_play(state, rng, events)


def after_play(state: State, rng: Dice, events: list[Event]) -> None:
    if state["phase"] == "tournament":
        next_tournament_play(state, rng, events)
        return
    turn = state["turn"]
    if turn["queue"]:
        challenger = turn["queue"][0]
        turn["queue"] = turn["queue"][1:]
        start_play(state, challenger, state["arcade"][turn["spot"]]["card"], "arcade", events)
        return
    _end_turn(state, rng, events)


def _end_turn(state: State, rng: Dice, events: list[Event]) -> None:
    turn = state["turn"]
    if turn["challenger"] is not None:
        _versus_bonus(state, turn, events)
    spot = turn["spot"]
    entry = state["arcade"][spot]
    if turn["high_score"]:
        retire_card(state, spot, rng, events, "its High Score was beaten")
    elif entry["plays"] >= RULES["plays_before_retirement"]:
        retire_card(state, spot, rng, events, "it was played 3 times")
    state["turn"] = None
    next_turn(state, rng, events)


def _versus_bonus(state: State, turn: dict[str, Any], events: list[Event]) -> None:
    """H9: the top scorer takes 2 extra tickets, a tie none. H9a: on a Premium card more Levels
    passed is on top; with as many Levels (none included), the last Level's score decides."""
    if not amended(state):
        _versus_bonus_by_score(state, turn, events)
        return
    a, b = turn["seat"], turn["challenger"]
    scores = {s: turn["scores"][str(s)] for s in (a, b)}
    levels = turn.get("levels", {})
    passed = {s: levels.get(str(s)) for s in (a, b)}
    premium = passed[a] is not None
    standing = {s: (passed[s] or 0, scores[s]) for s in (a, b)}
    if standing[a] == standing[b]:
        how = f"tie at {scores[a]}"
        if premium:
            how = f"tie: {_levels_text(passed[a])} each, {scores[a]} on the last Level rolled"
        events.append(
            {
                "type": "versus",
                "seat": a,
                "text": f"Versus: {hero(a)} and {hero(b)} {how}; no extra tickets.",
            }
        )
        return
    top, low = (a, b) if standing[a] > standing[b] else (b, a)
    bonus = int(RULES["versus_bonus_tickets"])
    gain(state, top, tickets=bonus)
    if premium and passed[top] != passed[low]:
        why = f"passes more Levels ({passed[top]} to {passed[low]})"
    elif premium:
        why = (
            f"has the top score on the last Level rolled ({scores[top]} to {scores[low]}, "
            f"{_levels_text(passed[top])} each)"
        )
    else:
        why = f"has the top score ({scores[top]} to {scores[low]})"
    events.append(
        {
            "type": "versus",
            "seat": top,
            "tickets": bonus,
            "text": f"Versus: {hero(top)} {why} and takes {count(bonus, 'extra ticket')}.",
        }
    )


def _versus_bonus_by_score(state: State, turn: dict[str, Any], events: list[Event]) -> None:
    """Rules version 1, before H9a: the single (last) score decides on every card."""
    a, b = turn["seat"], turn["challenger"]
    sa, sb = turn["scores"][str(a)], turn["scores"][str(b)]
    if sa == sb:
        events.append(
            {
                "type": "versus",
                "seat": a,
                "text": f"Versus: {hero(a)} and {hero(b)} tie at {sa}; no extra tickets.",
            }
        )
        return
    top = a if sa > sb else b
    bonus = int(RULES["versus_bonus_tickets"])
    gain(state, top, tickets=bonus)
    events.append(
        {
            "type": "versus",
            "seat": top,
            "tickets": bonus,
            "text": f"Versus: {hero(top)} has the top score "
            f"({max(sa, sb)} to {min(sa, sb)}) and takes {bonus} extra tickets.",
        }
    )


def _levels_text(passed: int) -> str:
    if passed == 0:
        return "no Level passed"
    return f"{passed} Level{'s' if passed != 1 else ''} passed"


def end_play_phase(state: State, rng: Dice, events: list[Event]) -> None:
    final = all(p["tokens"] <= 0 for p in state["players"])
    state["phase"] = "powerup"
    n = len(state["players"])
    state["powerup"] = {"final": final, "carts": [[] for _ in range(n)], "done": [False] * n}
    if final:
        text = "Everyone is out of tokens: the arcade closes. Final POWER UP (no Power card draws)."
    else:
        text = "POWER UP: everyone shops at once; purchases are revealed together."
    events.append({"type": "powerup", "final": final, "text": text})


# --- POWER UP ---------------------------------------------------------------------------------
def cart_totals(state: State, seat: int) -> dict[str, Any]:
    """What the seat's shopping list costs and adds so far, and the coupons still waiting."""
    spent = 0
    cubes: dict[str, int] = {}
    prizes = 0
    pending: list[str] = []
    used: list[str] = []
    for action in state["powerup"]["carts"][seat]:
        if action["kind"] == "coupon":
            pending.append(action["card"])
            used.append(action["card"])
            continue
        spent += action["cost"]
        if action["item"] == "prize":
            prizes += 1
        else:
            cubes[action["item"]] = cubes.get(action["item"], 0) + 1
        if pending:
            pending.pop(0)
    return {"spent": spent, "cubes": cubes, "prizes": prizes, "pending": pending, "used": used}


def _base_cost(item: str) -> int:
    return int(RULES["prize_cost"]) if item == "prize" else cube_cost(item)


def powerup_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """H14: cubes only in the last game's 3 columns (max 5 each), Prizes, Coupons, undo, done."""
    powerup = state["powerup"]
    if powerup["done"][seat]:
        return []
    player = state["players"][seat]
    totals = cart_totals(state, seat)
    budget = player["tickets"] - totals["spent"]
    discount = 1 if totals["pending"] else 0
    moves: list[dict[str, Any]] = []
    items: list[str] = []
    if player["last_game"] is not None:
        card = GAMES_CARDS[player["last_game"]]
        for column in [*card["skills"], card["genre"]]:
            have = player["cubes"][column] + totals["cubes"].get(column, 0)
            if have < RULES["column_max"]:
                items.append(column)
    items.append("prize")
    for item in items:
        if budget >= max(0, _base_cost(item) - discount):
            moves.append({"type": "buy", "item": item})
    for card in player["hand"]:
        if kind_of(card) == "coupon" and card not in totals["used"]:
            moves.append({"type": "use_coupon", "card": card})
            break
    if powerup["carts"][seat]:
        moves.append({"type": "undo"})
    moves.append({"type": "done"})
    return moves


def apply_powerup_move(
    state: State, seat: int, move: dict[str, Any], rng: Dice, events: list[Event]
) -> None:
    powerup = state["powerup"]
    carts = [list(c) for c in powerup["carts"]]
    cart = carts[seat]
    kind = move["type"]
    if kind == "buy":
        totals = cart_totals(state, seat)
        discount = 1 if totals["pending"] else 0
        cart.append(
            {
                "kind": "buy",
                "item": move["item"],
                "cost": max(0, _base_cost(move["item"]) - discount),
            }
        )
    elif kind == "use_coupon":
        cart.append({"kind": "coupon", "card": move["card"]})
    elif kind == "undo":
        cart.pop()
    state["powerup"] = {**powerup, "carts": carts}
    if kind != "done":
        return
    done = list(powerup["done"])
    done[seat] = True
    state["powerup"] = {**state["powerup"], "done": done}
    events.append({"type": "ready", "seat": seat, "text": f"{hero(seat)} is done shopping."})
    if all(done):
        _settle_powerup(state, rng, events)


def _settle_powerup(state: State, rng: Dice, events: list[Event]) -> None:
    """Everyone is done: apply every shopping list together, then the free draws (H13-H14)."""
    powerup = state["powerup"]
    for seat in range(len(state["players"])):
        totals = cart_totals(state, seat)
        player = state["players"][seat]
        cubes = dict(player["cubes"])
        bought = []
        for column, cubes_bought in totals["cubes"].items():
            cubes[column] += cubes_bought
            plural = "s" if cubes_bought > 1 else ""
            bought.append(f"{cubes_bought} {COLUMN_NAMES[column]} cube{plural}")
        if totals["prizes"]:
            bought.append(f"{totals['prizes']} Prize{'s' if totals['prizes'] > 1 else ''}")
        hand = [c for c in player["hand"] if c not in totals["used"]]
        update_player(
            state,
            seat,
            cubes=cubes,
            hand=hand,
            tickets=player["tickets"] - totals["spent"],
            prizes=player["prizes"] + totals["prizes"],
        )
        for card in totals["used"]:
            discard_power(state, card)
        used = len(totals["used"])
        coupons = f" with {tally(state, used, 'Coupon', was='Coupon(s)')}" if used else ""
        text = f"{hero(seat)} buys nothing."
        if bought:
            spent = tally(state, totals["spent"], "ticket", was="tickets")
            text = f"{hero(seat)} buys {', '.join(bought)} for {spent}{coupons}."
        events.append(
            {
                "type": "purchase",
                "seat": seat,
                "cubes": totals["cubes"],
                "prizes": totals["prizes"],
                "spent": totals["spent"],
                "text": text,
            }
        )
    if not powerup["final"]:
        for seat in clockwise_from(state, state["pizza"]):
            if len(state["players"][seat]["hand"]) < RULES["hand_max"]:
                draw_power_card(state, seat, rng, events)
    state["history"] = [
        *state["history"],
        {"round": state["round"], "prizes": [p["prizes"] for p in state["players"]]},
    ]
    state["powerup"] = None
    if powerup["final"]:
        finish_game(state, rng, events)
    elif state["tournaments_queued"] > 0:
        start_tournament(state, "all_play", clockwise_from(state, state["pizza"]), rng, events)
    else:
        new_round(state, rng, events)


def new_round(state: State, rng: Dice, events: list[Event]) -> None:
    if not state["pizza_claimed"]:
        state["pizza"] = (state["pizza"] + 1) % len(state["players"])
    state["pizza_claimed"] = False
    state["round"] += 1
    begin_round(state, events)
    next_turn(state, rng, events)


# --- tournaments ---------------------------------------------------------------------------
def start_tournament(
    state: State, kind: str, entrants: list[int], rng: Dice, events: list[Event]
) -> None:
    """H11: reveal the next Standard card; everybody plays it free in turn order."""
    card = draw_tournament_card(state, rng, events)
    if kind == "all_play":
        state["tournaments_queued"] -= 1
    if card is None:
        events.append(
            {
                "type": "tournament",
                "text": "No Standard Games card is left, so the tournament is called off.",
            }
        )
        _after_tournament(state, kind, entrants, rng, events)
        return
    title = "All-Play Tournament" if kind == "all_play" else "Sudden-death tournament"
    events.append(
        {
            "type": "tournament",
            "card": card,
            "kind": kind,
            "text": f"{title} on {GAMES_CARDS[card]['name']}: "
            f"{', '.join(hero(s) for s in entrants)} play it for free.",
        }
    )
    state["phase"] = "tournament"
    state["tournament"] = {
        "card": card,
        "kind": kind,
        "entrants": entrants,
        "index": -1,
        "scores": {},
        "replay": False,
    }
    next_tournament_play(state, rng, events)


def next_tournament_play(state: State, rng: Dice, events: list[Event]) -> None:
    tour = state["tournament"]
    tour["index"] += 1
    if tour["index"] < len(tour["entrants"]):
        seat = tour["entrants"][tour["index"]]
        winnings = tour["kind"] == "all_play" and not tour["replay"]
        start_play(state, seat, tour["card"], "tournament" if winnings else "tiebreak", events)
        return
    scores = {int(s): v for s, v in tour["scores"].items()}
    best = max(scores.values())
    top = [s for s in tour["entrants"] if scores[s] == best]
    if len(top) > 1:
        events.append(
            {
                "type": "tournament_tie",
                "seats": top,
                "text": f"{' and '.join(hero(s) for s in top)} tie at {best} and replay.",
            }
        )
        state["tournament"] = {**tour, "entrants": top, "index": -1, "scores": {}, "replay": True}
        next_tournament_play(state, rng, events)
        return
    winner = top[0]
    state["games_discard"] = [*state["games_discard"], tour["card"]]
    state["tournament"] = None
    if tour["kind"] == "all_play":
        bonus = int(RULES["tournament_bonus_prizes"])
        gain(state, winner, prizes=bonus)
        events.append(
            {
                "type": "tournament_win",
                "seat": winner,
                "text": f"{hero(winner)} wins the tournament with {best} and takes "
                f"{tally(state, bonus, 'bonus Prize', was='bonus Prize')}.",
            }
        )
    else:
        events.append(
            {
                "type": "tournament_win",
                "seat": winner,
                "text": f"{hero(winner)} wins the after-hours tournament with {best}!",
            }
        )
    _after_tournament(state, tour["kind"], [winner], rng, events)


def _after_tournament(
    state: State, kind: str, winners: list[int], rng: Dice, events: list[Event]
) -> None:
    if kind == "sudden_death":
        how = "the after-hours tournament won" if len(winners) == 1 else None
        _declare(state, winners, how, events)
        return
    if state["tournaments_queued"] > 0:
        start_tournament(state, "all_play", clockwise_from(state, state["pizza"]), rng, events)
    else:
        new_round(state, rng, events)


# --- the end ---------------------------------------------------------------------------------
def finish_game(state: State, rng: Dice, events: list[Event]) -> None:
    """H15: most Prizes; tie: most tickets; still tied: a sudden-death tournament."""
    players = state["players"]
    best = max(p["prizes"] for p in players)
    tied = [p["seat"] for p in players if p["prizes"] == best]
    how = "the most Prizes"
    if len(tied) > 1:
        most = max(players[s]["tickets"] for s in tied)
        tied = [s for s in tied if players[s]["tickets"] == most]
        how = "the most Prizes, then the most tickets"
    if len(tied) > 1:
        order = [s for s in clockwise_from(state, state["pizza"]) if s in tied]
        # Without a Standard card left, `_after_tournament` declares the shared win.
        start_tournament(state, "sudden_death", order, rng, events)
        return
    _declare(state, tied, how, events)


def _declare(state: State, winners: list[int], how: str | None, events: list[Event]) -> None:
    players = state["players"]
    names = " and ".join(hero(s) for s in winners)
    if len(players) == 1:
        prizes = tally(state, players[0]["prizes"], "Prize", was="Prizes")
        reason = f"The arcade closes with {prizes} collected."
    elif how is None:
        reason = f"{names} share the win: nothing could break the tie."
    elif len(winners) == 1:
        reason = f"{names} is the new Joystick Hero, with {how}!"
    else:
        reason = f"{names} share the win."
    # "The player with the least is the Joystick Zero. Everyone else... just played."
    least = min(p["prizes"] for p in players)
    zeros = [p["seat"] for p in players if p["prizes"] == least and p["seat"] not in winners]
    if len(players) > 1 and zeros:
        reason += (
            f" {' and '.join(hero(s) for s in zeros)} "
            f"{'is the Joystick Zero' if len(zeros) == 1 else 'are the Joystick Zeros'}."
        )
    state["phase"] = "over"
    state["turn"] = None
    state["play"] = None
    state["question"] = None
    state["outcome"] = {
        "winners": sorted(winners),
        "reason": reason,
        "scores": {str(p["seat"]): p["prizes"] for p in players},
        "details": {
            "tickets": {str(p["seat"]): p["tickets"] for p in players},
            "history": state["history"],
            "joystick_zero": zeros,
        },
    }
    events.append({"type": "game_over", "winners": sorted(winners), "text": reason})
