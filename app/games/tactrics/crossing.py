"""Tactrics: Crossing. Turn towers to carry all your routers from your start to your goal.

Rules: the Tactrics Advanced rulebook, "#1 Crossing", with the getting-started rules that our
rulings reconstruct (V1, V2, V10 in docs/rules/families/tactrics-rulings.md, V3-V6 in
docs/rules/families/tactrics-crossing-rulings.md; start layouts in `data/crossing.json`). An action
turns one tower one position either way (V2), allowed when you have a router there and no other
player has more (V3), or, with the minority-rotation option, by spending one of your two reserve
controllers when you have at least one router there (V6). Turns have 1, 2, 3, then 4 actions (V4).
The game ends at once when an action finishes a player, or with teams the second member of a team
(V5).

State (on top of `turns.py`): ``players``: per seat {"seat", "colour", "start" (a tower, or
"S"/"N" for the line start), "goal" (its slots), "team" (index or None), "routers"};
``options``: the lobby options as played (after falling back for player counts they do not
fit). No chance, no hidden information. Set-ups are data: `data/crossing.json`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.engine.contract import Event, IllegalMove, Move, Outcome, State
from app.engine.dice import Dice
from app.engine.registry import register
from app.games.tactrics.board import DATA, EDGES, SLOT_TOWERS, TOWER_SLOTS, TOWERS, distances_to
from app.games.tactrics.turns import TurnGame, colour_counts, rotate_board, rotate_move

CROSSING = json.loads((DATA / "crossing.json").read_text())


class CrossingOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    minority_rotation: bool = Field(
        default=False,
        description="Minority rotation rule: two reserve controllers each; spending one turns "
        "a tower where you are outnumbered (you need one router there).",
    )
    teams: bool = Field(
        default=False,
        description="Teams of two (4 or 6 players): partners sit and play one after the other "
        "and win together when both are finished.",
    )
    routers: int = Field(
        default=6, ge=3, le=7, description="Routers per player (3-6; 7 only with the line start)."
    )
    line: bool = Field(
        default=False,
        description="Line variant (2 players): start on your edge row, finish on the opposite one.",
    )

    @model_validator(mode="after")
    def _line_routers(self) -> CrossingOptions:
        if self.routers == 7 and not self.line:
            raise ValueError("7 routers need the line start (red, yellow and blue have 7)")
        if self.line and self.routers < 6:
            raise ValueError("the line start uses 6 or 7 routers")
        return self


def _corner_start(tower: str, count: int) -> list[str]:
    """`count` slots of the start tower, the outermost first (slots of fewest towers)."""
    ring = TOWER_SLOTS[tower]
    return sorted(ring, key=lambda s: (len(SLOT_TOWERS[s]), ring.index(s)))[:count]


@lru_cache(maxsize=64)
def _distances(goal: tuple[str, ...]) -> dict[str, int]:
    return distances_to(goal)


def player_colour(state: State, seat: int) -> str:
    return str(state["players"][seat]["colour"])


def finished(state: State, seat: int) -> bool:
    """V5: all her routers are in her goal area."""
    player = state["players"][seat]
    goal = set(player["goal"])
    colour = player["colour"]
    return all(slot in goal for slot, c in state["routers"].items() if c == colour)


def in_goal(state: State, seat: int) -> int:
    player = state["players"][seat]
    goal = set(player["goal"])
    return sum(1 for slot, c in state["routers"].items() if c == player["colour"] and slot in goal)


def teammates(state: State, seat: int) -> list[int]:
    team = state["players"][seat]["team"]
    if team is None:
        return [seat]
    return [p["seat"] for p in state["players"] if p["team"] == team]


@register
class Crossing(TurnGame):
    id = "tactrics-crossing"
    title = "Tactrics: Crossing"
    min_players = 2
    max_players = 6
    rules_version = "1"
    game_key = "crossing"
    goal = "Be the first to bring all your routers from your start into your goal area."
    Options = CrossingOptions

    def check_start(self, players: int, options: BaseModel) -> str | None:
        """The lobby refuses what set-up would otherwise quietly drop (V10: teams are for 4
        or 6 players, the line start for 2)."""
        assert isinstance(options, CrossingOptions)
        if options.teams and str(players) not in CROSSING["teams"]:
            return f"Teams are played by 4 or 6 players, not {players}; turn teams off or wait."
        if options.line and players != 2:
            return f"The line start is for 2 players, not {players}; turn it off to start."
        return None

    # --- set-up --------------------------------------------------------------------------------
    def setup(self, players: int, options: BaseModel, rng: Dice) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for 2-6 players, not {players}")
        assert isinstance(options, CrossingOptions)
        line = options.line and players == 2
        count = options.routers if line else min(options.routers, 6)
        teams = options.teams and str(players) in CROSSING["teams"]
        colours = CROSSING["colours"][str(players)]
        team_of = {}
        if teams:
            for index, members in enumerate(CROSSING["teams"][str(players)]):
                for member in members:
                    team_of[member] = index
        routers: dict[str, str] = {}
        entries = []
        for seat in range(players):
            if line:
                layout = CROSSING["line"][str(count)][seat]
                start_slots = list(layout["start"])
                start: str = "S" if seat == 0 else "N"
                goal = list(EDGES[layout["goal"]])
            else:
                start, goal_tower = CROSSING["layouts"][str(players)][seat]
                start_slots = _corner_start(start, count)
                goal = list(TOWER_SLOTS[goal_tower])
            for slot in start_slots:
                routers[slot] = colours[seat]
            entries.append(
                {
                    "seat": seat,
                    "colour": colours[seat],
                    "start": start,
                    "goal_tower": None if line else goal_tower,
                    "goal": goal,
                    "team": team_of.get(seat),
                    "routers": count,
                }
            )
        state: State = {
            "game": self.id,
            "phase": "play",
            "seats": players,
            "routers": routers,
            "controllers": {},
            "claims": {},
            "reserve": [2 if options.minority_rotation else 0] * players,
            "players": entries,
            "options": {
                "minority_rotation": options.minority_rotation,
                "teams": teams,
                "routers": count,
                "line": line,
            },
            "turn": None,
            "outcome": None,
        }
        self.start_turn(state, 0, 0)
        self.setup_extra(state)
        return state

    def setup_extra(self, state: State) -> None:
        """Crossing Advanced adds its controller set-up."""

    # --- permission (V3, V6, V7) ----------------------------------------------------------------
    def rotation_kind(self, state: State, seat: int, tower: str) -> str | None:
        """How `seat` may turn `tower`: "normal", "reserve" (the minority rule, V6) or None."""
        counts = colour_counts(state, tower)
        mine = counts.get(player_colour(state, seat), 0)
        if mine == 0:
            return None
        majority = all(
            mine >= counts.get(player_colour(state, other), 0)
            for other in range(state["seats"])
            if other != seat
        )
        claimant = state["claims"].get(tower)
        if majority and claimant in (None, seat):
            return "normal"
        if state["options"]["minority_rotation"] and state["reserve"][seat] > 0:
            return "reserve"
        return None

    def rotation_moves(self, state: State, seat: int) -> list[Move]:
        moves = []
        for tower in TOWERS:
            kind = self.rotation_kind(state, seat, tower)
            if kind is not None:
                for direction in ("cw", "ccw"):
                    moves.append(rotate_move(tower, direction, reserve=kind == "reserve"))
        return moves

    # --- hooks ----------------------------------------------------------------------------------
    def colour_of(self, state: State, seat: int) -> str:
        return player_colour(state, seat).capitalize()

    def actions(self, state: State, seat: int) -> list[Move]:
        return self.rotation_moves(state, seat)

    def perform(self, state: State, seat: int, move: Move, events: list[Event]) -> None:
        if move["type"] != "rotate":
            raise IllegalMove("In Crossing the only action is turning a tower.")
        if move.get("reserve"):
            state["reserve"][seat] -= 1
        rotate_board(state, move["tower"], move["direction"])
        events.append(self.rotation_event(state, seat, move))

    def check_end(self, state: State, seat: int) -> Outcome | None:
        """V5: after every action. Solo: the active player if finished, else the first
        finished player after her in turn order. Teams: the same for complete teams."""
        seats = state["seats"]
        order = [(seat + i) % seats for i in range(seats)]
        for candidate in order:
            team = teammates(state, candidate)
            if all(finished(state, member) for member in team):
                return self._win(state, tuple(sorted(team)))
        return None

    def _win(self, state: State, winners: tuple[int, ...]) -> Outcome:
        names = " and ".join(self.colour_of(state, w) for w in winners)
        if len(winners) > 1:
            reason = f"{names} have all their routers in their goal areas and win as a team."
        else:
            count = state["players"][winners[0]]["routers"]
            reason = f"{names} has all {count} routers in the goal area and wins."
        return Outcome(
            winners=winners,
            reason=reason,
            scores={p["seat"]: in_goal(state, p["seat"]) for p in state["players"]},
            details={"scores_are": "routers in the goal area"},
        )

    def refusal(self, state: State, seat: int, move: Move) -> str:
        kind = move.get("type")
        if kind == "rotate":
            tower = move.get("tower", "")
            counts = colour_counts(state, tower)
            mine = counts.get(player_colour(state, seat), 0)
            if mine == 0:
                return f"You have no router on {tower}, so you may not turn it."
            kind_now = self.rotation_kind(state, seat, tower)
            claimant = state["claims"].get(tower)
            if kind_now == "reserve" and not move.get("reserve"):
                return (
                    f"You are outnumbered on {tower}"
                    + (" or it is claimed by an opponent" if claimant is not None else "")
                    + ": turning it costs a reserve controller."
                )
            if kind_now == "normal" and move.get("reserve"):
                return f"You may turn {tower} without spending a reserve controller."
            if kind_now is None and state["options"]["minority_rotation"]:
                why = (
                    f"{tower} is claimed by {self.colour_of(state, claimant)}"
                    if claimant is not None and claimant != seat
                    else f"another player has more routers on {tower}"
                )
                return (
                    f"You have no reserve controller left (the minority rule is used at "
                    f"most twice a game), and {why}."
                )
            if claimant is not None and claimant != seat:
                owner = self.colour_of(state, claimant)
                return f"{tower} is claimed by {owner}; you may not turn it."
            return f"Another player has more routers on {tower} than you, so you may not turn it."
        if kind == "confirm":
            return "You cannot end your turn now."
        return "In Crossing the only action is turning a tower."

    def playout_score(self, state: State, seat: int) -> float | None:
        outcome = state.get("outcome")
        if outcome is not None:
            return 1000.0 if seat in outcome["winners"] else -1000.0
        total = 0.0
        for member in teammates(state, seat):
            player = state["players"][member]
            dist = _distances(tuple(player["goal"]))
            colour = player["colour"]
            total -= sum(dist[s] for s, c in state["routers"].items() if c == colour)
        return total

    def extra_view(self, state: State, board: dict[str, Any]) -> None:
        board["options"] = dict(state["options"])
        board["players"] = [
            {
                "seat": p["seat"],
                "colour": p["colour"],
                "start": p["start"],
                "goal_tower": p["goal_tower"],
                "goal": list(p["goal"]),
                "team": p["team"],
                "routers": p["routers"],
                "in_goal": in_goal(state, p["seat"]),
                "finished": finished(state, p["seat"]),
                "reserve": state["reserve"][p["seat"]],
                "controllers": sum(1 for s in state["controllers"].values() if s == p["seat"]),
            }
            for p in state["players"]
        ]
