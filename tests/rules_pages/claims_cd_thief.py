"""The claims of the CD Thief rules page's diagrams (docs/rules/cd-thief.md), checked through
the rules module. Where a caption counts steps, the claim counts them again with its own
breadth-first search instead of trusting the engine's list of end squares."""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Callable

from app.games.cd_thief.board import (
    ENTRANCE,
    Square,
    is_exit,
    item_home,
    orthogonal_neighbours,
    sq,
    terrain,
    thief_start,
)
from app.games.cd_thief.movement import Walker
from app.games.cd_thief.pieces import character_squares
from tests.rules_pages.claims import ScenarioRun, claim


def marked_squares(run: ScenarioRun, kind: str | None = None) -> set[Square]:
    found: set[Square] = set()
    for mark in run.diagram.highlight:
        if kind is not None and mark.get("kind", "hint") != kind:
            continue
        if "square" in mark:
            found.add(sq(mark["square"]))
        found.update(sq(s) for s in mark.get("squares", []))
    return found


def steps_from(start: Square, passable: Callable[[Square], bool]) -> dict[Square, int]:
    distance = {start: 0}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        for nxt in orthogonal_neighbours(square):
            if nxt not in distance and passable(nxt):
                distance[nxt] = distance[square] + 1
                queue.append(nxt)
    return distance


def rolled(run: ScenarioRun) -> tuple[int, int]:
    """The seat that just rolled and her total."""
    turn = run.final["turn"]
    assert turn["phase"] == "move", "the diagram ends on a roll, before the move is chosen"
    assert run.events[-1][0]["type"] == "roll"
    return turn["seat"], sum(turn["dice"])


@claim("cd-thief", "exact-movement")
def the_lit_squares_are_where_exactly_the_roll_can_end(run: ScenarioRun) -> None:
    seat, total = rolled(run)
    assert (seat, run.final["turn"]["dice"]) == (1, [1, 3])  # "Green rolled 1 and 3"
    assert run.final["thieves"][seat]["colour"] == "green"
    start = sq(run.final["thieves"][seat]["pos"])
    lit = marked_squares(run, "target")
    engine = {sq(t) for t in run.final["turn"]["targets"]}
    assert lit == engine, "the lit squares are exactly the engine's legal end squares"
    assert {sq(m["to"]) for m in run.game.legal_moves(run.final, seat)} == lit
    # Counted again: up to 4 steps away with the roll's evenness, free to stop on.
    walker = Walker(run.final, seat)
    distance = steps_from(start, walker.passable)
    again = {
        s for s, d in distance.items() if d <= total and (total - d) % 2 == 0 and walker.landable(s)
    }
    assert lit == again
    assert start in lit, "her own square: one step out and one back"
    assert {d for s, d in distance.items() if s in lit} == {0, 2, 4}
    assert not any(distance[s] in (1, 3) for s in lit)
    assert any(d in (1, 3) for d in distance.values())  # such squares exist, unlit


@claim("cd-thief", "locked-casino")
def without_her_key_the_casino_is_a_wall(run: ScenarioRun) -> None:
    seat, total = rolled(run)
    red = run.final["thieves"][seat]
    assert (red["colour"], total) == ("red", 4)
    assert "key" not in red["backpack"] and "casino" not in red["opened"]
    door = sq((4, 6))
    assert terrain(door) == "C" and door in marked_squares(run, "blocked")
    start = sq(red["pos"])
    assert max(abs(start[0] - door[0]), abs(start[1] - door[1])) == 1  # just outside it
    targets = {sq(t) for t in run.final["turn"]["targets"]}
    assert not any(terrain(t) in "cC" for t in targets), "nothing in the Casino is lit"
    # The door is what stops her: with her Key the same roll would reach in.
    keyed = copy.deepcopy(run.final)
    keyed["thieves"][seat]["backpack"] = ["key"]
    inside = {t for t in Walker(keyed, seat).targets(total) if terrain(t) in "cC"}
    assert door in inside and len(inside) >= 3
    key = sq(run.final["items"]["red-key"])
    assert key == item_home("red-key") and key in targets
    assert key == (start[0] - 4, start[1]), "her Key lies exactly 4 steps west"


@claim("cd-thief", "battle")
def without_a_zapper_three_hit_points_is_caught(run: ScenarioRun) -> None:
    before, after = run.states[-2], run.final
    assert run.diagram.moves[-1] == (1, {"type": "battle"})
    green = before["thieves"][1]
    assert green["colour"] == "green" and "zapper" not in green["backpack"]
    # SoCal Mike came next to her on the card of Red's turn (the move before).
    came = [e for e in run.events[-2] if e["type"] == "podcaster"]
    assert any(e["podcaster"] == "socal_mike" and len(e["path"]) > 1 for e in came)
    assert run.diagram.moves[-2][0] == 0 and before["thieves"][0]["colour"] == "red"
    mike, where = sq(before["podcasters"]["socal_mike"]), sq(green["pos"])
    assert max(abs(mike[0] - where[0]), abs(mike[1] - where[1])) == 1
    assert before["turn"]["phase"] == "battle"  # before rolling
    (battle,) = [e for e in run.events[-1] if e["type"] == "battle"]
    assert battle["opponent"] == "socal_mike" and battle["zapper"] is False
    assert battle["hits"] == sum(battle["dice"]) == 3 and battle["result"] == "caught"
    assert where in marked_squares(run)
    assert sq(after["thieves"][1]["pos"]) == thief_start("green")
    assert is_exit(sq(after["thieves"][1]["pos"]))
    assert after["turn"]["seat"] == 1 and after["turn"]["phase"] == "roll"


@claim("cd-thief", "entrance")
def outside_nobody_blocks_and_the_entrance_is_three_wide(run: ScenarioRun) -> None:
    seat, total = rolled(run)
    assert (run.final["thieves"][seat]["colour"], run.final["turn"]["dice"]) == ("blue", [2, 2])
    entrance = {s for s in marked_squares(run, "hint")}
    assert entrance == {(8, 14), (9, 14), (10, 14)}
    assert all(terrain(s) == ENTRANCE for s in entrance)
    assert [x for x in range(21) if run.view["map"][14][x] == ENTRANCE] == [8, 9, 10]
    targets = {sq(t) for t in run.final["turn"]["targets"]}
    green = sq(run.final["thieves"][1]["pos"])
    assert green == thief_start("green") and green in targets, "she may stop on Green's square"
    # (7,15) is 4 steps away only by walking through Yellow, Green and Red.
    far = (7, 15)
    assert far in targets and far in marked_squares(run, "target")
    start = sq(run.final["thieves"][seat]["pos"])
    others = character_squares(run.final) - {start}
    around = steps_from(start, lambda s: terrain(s) != "#" and s not in others)
    assert around.get(far, 99) > total
    line = [sq(run.final["thieves"][i]["pos"]) for i in (2, 1, 0)]
    assert line == [(10, 15), (9, 15), (8, 15)]
