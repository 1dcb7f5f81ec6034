"""Steps every C64 browser test takes: reading the page's mode and version, the set-up take,
a turn, waiting for whoever may move, reading the log, the turns played in every browser with
each move checked in the others, a match over the REST API and a driver playing chosen faces
through it. One copy for all six games."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.e2e.lobby_flow import FRIENDS, api_match, auth
from tests.e2e.lobby_flow import api_player as api_player  # still imported from here
from tests.e2e.lobby_flow import choose_game as choose_game  # still imported from here
from tests.e2e.phone import PHONE, assert_phone_table

MINE = '[data-testid="joystick-mine"]'


def mode(page: Any) -> str:
    return page.get_by_test_id("my-joystick").get_attribute("data-mode") or ""


def version(page: Any) -> int:
    return int(page.get_by_test_id("game-root").get_attribute("data-version") or -1)


def take_two_cards(page: Any, *, flip: bool = True) -> None:
    """Set-up: two cards of one row or column, faces from the chooser. With `flip` the second
    card is turned to its other face when it has one, like a player would; without, the
    chooser's first offer is kept."""
    expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    page.locator(f'{MINE} [data-testid="joy-card"][data-legal="true"]').first.click()
    page.locator(
        f'{MINE} [data-testid="joy-card"][data-legal="true"][data-selected="false"]'
    ).first.click()
    chooser = page.get_by_test_id("face-chooser")
    expect(chooser).to_be_visible()
    faces = chooser.locator(".ch-card").last.get_by_test_id("face-option")
    if flip and faces.count() > 1:
        faces.last.click()
        expect(faces.last).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("confirm-move").click()
    expect(page.get_by_test_id("my-joystick")).not_to_have_attribute("data-mode", "take")


def _pick_space_and_confirm(page: Any) -> None:
    page.locator(f'{MINE} [data-testid="joy-space"][data-legal="true"]').first.click()
    chooser = page.get_by_test_id("face-chooser")
    if chooser.is_visible():  # the last active card: choose the next two cards' faces
        page.get_by_test_id("confirm-move").click()


def play_or_return(page: Any) -> str:
    """The page's player makes its legal move (a set-up return or a turn). Returns the mode."""
    kind = mode(page)
    assert kind in ("return", "play"), kind
    if page.locator(f'{MINE} [data-testid="active-card"][data-selected="true"]').count() == 0:
        page.locator(f'{MINE} [data-testid="active-card"][data-legal="true"]').first.click()
    _pick_space_and_confirm(page)
    return kind


def play_a_move_card(page: Any, shot: Path | None = None) -> str:
    """Like play_or_return, but in a turn it prefers a move card (so that snakes grow and
    trains drive) and checks that the board previews what the selected card will do (a
    picture of the board to `shot`). Returns the mode."""
    kind = mode(page)
    assert kind in ("return", "play"), kind
    if page.locator(f'{MINE} [data-testid="active-card"][data-selected="true"]').count() == 0:
        cards = page.locator(f'{MINE} [data-testid="active-card"][data-legal="true"]')
        choice = cards.first
        if kind == "play":
            for i in range(cards.count()):
                if "button" not in (cards.nth(i).get_attribute("data-face") or ""):
                    choice = cards.nth(i)
                    break
        choice.click()
    if kind == "play":  # the board previews what the selected card will do
        expect(page.locator('[data-testid="board-highlight"][data-point]').first).to_be_attached()
        if shot is not None:
            page.get_by_test_id("board").screenshot(path=str(shot))
    _pick_space_and_confirm(page)
    return kind


def wait_for_mover(pages: list[Any], timeout_s: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for page in pages:
            if mode(page) in ("return", "play"):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody got a move to make")


def animations_done(page: Any) -> None:
    """Waits until every animation with an end has ended (the live dot's endless pulse aside),
    e.g. a drive or a shot, before a picture is taken."""
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running'"
        " || a.effect?.getComputedTiming().endTime === Infinity)"
    )


def log_texts(page: Any, seq: int) -> list[str]:
    return page.locator(f'[data-testid="log-entry"][data-seq="{seq}"] .text').all_inner_texts()


def log_entry(page: Any, seq: int) -> Any:
    return page.locator(f'[data-testid="log-entry"][data-seq="{seq}"]').first


def row_attributes(page: Any, testid: str, keys: Sequence[str]) -> list[tuple[str, ...]]:
    """The `keys` attributes of every row (`testid`) of a panel, in order."""
    rows = page.get_by_test_id(testid)
    return [tuple(rows.nth(i).get_attribute(k) or "" for k in keys) for i in range(rows.count())]


def same_squares(mover: Any, other: Any, pieces: Sequence[str]) -> None:
    """`other` shows each of the `pieces` (selectors) on the square `mover` shows it on."""
    for piece in pieces:
        square = mover.locator(piece).get_attribute("data-square") or ""
        expect(other.locator(piece)).to_have_attribute("data-square", square)


def seats_of(pages: Sequence[Any]) -> dict[int, int]:
    """id(page) -> the seat that page plays; every seat is played by one page."""
    seat_of = {
        id(p): int(p.get_by_test_id("game-root").get_attribute("data-you") or -1) for p in pages
    }
    assert sorted(seat_of.values()) == list(range(len(pages)))
    return seat_of


def set_up_in_every_browser(pages: Sequence[Any], *, flip: bool = True) -> dict[int, int]:
    """Set-up, all at once: every page takes two cards. Returns seats_of(pages)."""
    for page in pages:
        take_two_cards(page, flip=flip)
    return seats_of(pages)


def play_until_each_seat_played(
    pages: Sequence[Any],
    seat_of: dict[int, int],
    rounds: int,
    same: Callable[[Any, Any, int], None],
    *,
    play: Callable[[Any, bool], str] | None = None,
    over: Callable[[], bool] | None = None,
) -> None:
    """Moves by whoever may move (set-up returns, then turns) until every seat has played a
    card (or `over()`, or `rounds` moves). After each move the mover's version changed and her
    log shows the move; every other browser shows the same log lines and `same(mover, other,
    seat)` checks that it shows the same board. `play(page, first)` makes the move (default
    play_or_return); `first` is true until some seat has played a card."""
    everyone = set(range(len(pages)))
    played: set[int] = set()
    for _ in range(rounds):
        mover = wait_for_mover(list(pages))
        seat = seat_of[id(mover)]
        before = version(mover)
        kind = play(mover, not played) if play else play_or_return(mover)
        expect(mover.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))
        seq = version(mover)
        expect(log_entry(mover, seq)).to_be_visible()
        lines = log_texts(mover, seq)
        assert lines, "the mover's log shows the move"
        for other in pages:
            if other is mover:
                continue
            # Everybody else saw it: the same log lines and the same board.
            expect(log_entry(other, seq)).to_be_visible()
            assert log_texts(other, seq) == lines
            same(mover, other, seat)
        if kind == "play":
            played.add(seat)
        if played == everyone or (over is not None and over()):
            break
    assert played == everyone, "each seat played a card that the other browsers saw"


def turn_titles_agree(pages: Sequence[Any]) -> Any:
    """All turn banners agree on whose turn it is now. Returns the page whose turn it is."""
    mover = wait_for_mover(list(pages))
    expect(mover.get_by_test_id("turn-title")).to_have_text("Your turn")
    for page in pages:
        if page is not mover:
            expect(page.get_by_test_id("turn-title")).to_contain_text("Waiting for")
    return mover


def screenshots(pages: Sequence[Any], artifacts: Path, game: str) -> None:
    """A full-page picture of every friend's browser: <game>-ada.png, <game>-bea.png, ..."""
    for page, name in zip(pages, FRIENDS, strict=False):
        page.screenshot(path=str(artifacts / f"{game}-{name.lower()}.png"), full_page=True)


def c64_match(base: str, game: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """A match of `game` for two, started through the REST API: (id, host, guest)."""
    match_id, (host, guest) = api_match(base, game)
    return match_id, host, guest


class Driver:
    """Plays chosen faces for both seats through the REST API (what a player would click)."""

    def __init__(self, base: str, match_id: str, players: list[dict[str, str]]) -> None:
        self.client = httpx.Client(base_url=base)
        self.match_id = match_id
        self.players = players
        self.sent = 0

    def state(self, who: int) -> dict[str, Any]:
        response = self.client.get(f"/api/matches/{self.match_id}", headers=auth(self.players[who]))
        return dict(response.json()["view"])

    def send(self, who: int, move: dict[str, Any]) -> None:
        self.sent += 1
        response = self.client.post(
            f"/api/matches/{self.match_id}/moves",
            json={"move": move, "id": f"drv-{self.sent}"},
            headers=auth(self.players[who]),
        )
        assert response.status_code == 200, response.text

    def take(self, who: int, faces: set[str]) -> None:
        legal = self.state(who)["legal_moves"]
        move = next(m for m in legal if {c["face"] for c in m["cards"]} == faces)
        self.send(who, move)

    def play(self, who: int, face: str) -> None:
        view = self.state(who)
        seat = view["you"]
        active = {a["id"]: a["face"] for a in view["board"]["joysticks"][seat]["active"]}
        move = next(m for m in view["legal_moves"] if active.get(m["card"]) == face)
        self.send(who, move)

    def close(self) -> None:
        self.client.close()


def played_to_the_end(base: str, game: str, seats: int, seed: int) -> tuple[str, list[Any]]:
    """A match of `game` for `seats` (Ada, Bea, ...), started and played to its end through
    the REST API with seeded random legal moves (move cards twice as likely, so the board
    fills up): (id, players by seat)."""
    chooser = random.Random(seed)
    match_id, people = api_match(base, game, FRIENDS[:seats])
    headers = [auth(p) for p in people]
    with httpx.Client(base_url=base) as client:
        for number in range(5000):
            view = client.get(f"/api/matches/{match_id}", headers=headers[0]).json()
            if view["status"] == "finished":
                return match_id, people
            seat = view["view"]["active_seats"][0]
            legal = client.get(f"/api/matches/{match_id}", headers=headers[seat]).json()["view"][
                "legal_moves"
            ]
            faces = {a["id"]: a["face"] for a in view["view"]["board"]["joysticks"][seat]["active"]}
            weights = [1 if "button" in faces.get(m.get("card"), "button") else 2 for m in legal]
            move = chooser.choices(legal, weights)[0]
            moved = client.post(
                f"/api/matches/{match_id}/moves",
                json={"move": move, "id": f"m{number}"},
                headers=headers[seat],
            )
            assert moved.status_code == 200, moved.text
    raise AssertionError("the random game did not finish")


def the_final_score(
    new_page: Callable[..., Any], base: str, game: str, seats: int, panel: str, title: str
) -> tuple[Any, Any, str]:
    """A match of `game` played to its end (played_to_the_end, seed 7), opened by its first
    player: the board, the winner and the game-over banner with the outcome's reason show, and
    the score panel (test id `panel`) is titled `title` and in its "over" phase.
    Returns (page, panel, reason)."""
    match_id, people = played_to_the_end(base, game, seats, seed=7)
    with httpx.Client(base_url=base) as client:
        outcome = client.get(f"/api/matches/{match_id}").json()["view"]["outcome"]
    reason = str(outcome["reason"])
    page = new_page(player=people[0])
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("winner")).to_be_visible()
    expect(page.get_by_test_id("game-over")).to_contain_text(reason)
    score = page.get_by_test_id(panel)
    expect(score.locator("h3")).to_have_text(title)
    expect(score).to_have_attribute("data-phase", "over")
    return page, score, reason


# ------------------------------------------------------------------ what a card says
ARROW_WORDS = {"↑": "Up", "↓": "Down", "←": "Left", "→": "Right"}

_CARD_WORDS = """
() => [...document.querySelectorAll('.jcard')].map((card) => {
  const pair = card.querySelector('.f-pair');
  const arrows = pair
    ? [...pair.children].filter((s) => !s.classList.contains('sep'))
        .map((s) => s.textContent.trim())
    : [card.querySelector('.f-icon').textContent.trim()];
  const name = card.querySelector('.f-name');
  return { arrows, words: name ? name.textContent.trim().split('/') : [] };
})
"""


def cards_disagreeing(page: Any) -> list[str]:
    """Every joystick card on the page (the viewer's and the others') whose words and arrows
    disagree, e.g. a "Left" under an ↑; a button (L, R) has no arrow to disagree with."""
    wrong = []
    for card in page.evaluate(_CARD_WORDS):
        for arrow, word in zip(card["arrows"], card["words"], strict=False):
            if arrow in ARROW_WORDS and card["words"] and ARROW_WORDS[arrow] != word:
                wrong.append(f"{word} under {arrow}")
    return wrong


# ------------------------------------------------------------------ phone first
def _others_move(base: str, match_id: str, people: Sequence[dict[str, str]], page: Any) -> None:
    """Whoever may move but the page's player makes her first legal move over the API, and
    the page shows it."""
    with httpx.Client(base_url=base) as client:
        view = client.get(f"/api/matches/{match_id}", headers=auth(people[0])).json()["view"]
        for seat in view["active_seats"]:
            if seat == 0:
                continue
            before = version(page)
            mine = client.get(f"/api/matches/{match_id}", headers=auth(people[seat])).json()
            move = mine["view"]["legal_moves"][0]
            sent = client.post(
                f"/api/matches/{match_id}/moves",
                json={"move": move, "id": f"phone-{seat}-{before}"},
                headers=auth(people[seat]),
            )
            assert sent.status_code == 200, sent.text
            expect(page.get_by_test_id("game-root")).not_to_have_attribute(
                "data-version", str(before)
            )


def _controls_inside_the_screen(page: Any) -> None:
    """No button of the joystick panel (cards, spaces, faces, confirm) sticks out of the
    screen: phone.py checks the panel's box, this its buttons (a long face name can push one
    out of a panel that still fits)."""
    outside = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="my-joystick"] button')]
            .map((b) => [b.textContent.trim(), b.getBoundingClientRect()])
            .filter(([, r]) => r.left < -1 || r.right > innerWidth + 1)
            .map(([text, r]) => `${text}: ${Math.round(r.left)}..${Math.round(r.right)}`)"""
    )
    assert outside == [], outside


def _check_phone(page: Any) -> None:
    # Measured once the page has drawn the change (banners and the board re-fit in the
    # rendering step after it): two animation frames, not a timeout.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert_phone_table(page)
    _controls_inside_the_screen(page)


def phone_first_through_set_up_and_play(
    new_page: Callable[..., Any], base: str, game: str, seats: int, artifacts: Path
) -> None:
    """Issue 14 item 5 at 390x844: the board and the controls of every kind of decision
    (choosing set-up cards, their faces, a card to put back, a card to play, the space for it
    and the faces of the next two cards) are on screen together, tap targets >= 40px
    (tests/e2e/phone.py). The first seat plays in the browser, the others over the API."""
    match_id, people = api_match(base, game, FRIENDS[:seats])
    page = new_page(width=PHONE["width"], height=PHONE["height"], player=people[0])
    page.goto(f"/match/{match_id}")
    expect(page.get_by_test_id("my-joystick")).to_have_attribute("data-mode", "take")
    _check_phone(page)
    page.locator(f'{MINE} [data-testid="joy-card"][data-legal="true"]').first.click()
    page.locator(
        f'{MINE} [data-testid="joy-card"][data-legal="true"][data-selected="false"]'
    ).first.click()
    expect(page.get_by_test_id("face-chooser")).to_be_visible()
    _check_phone(page)
    page.screenshot(path=str(artifacts / f"{game}-phone-setup.png"))
    page.get_by_test_id("confirm-move").click()
    expect(page.get_by_test_id("my-joystick")).not_to_have_attribute("data-mode", "take")

    chose_next = False
    for _ in range(4 * seats + 4):
        kind = mode(page)
        if kind not in ("return", "play"):
            _others_move(base, match_id, people, page)
            continue
        _check_phone(page)
        if page.locator(f'{MINE} [data-testid="active-card"][data-selected="true"]').count() == 0:
            page.locator(f'{MINE} [data-testid="active-card"][data-legal="true"]').first.click()
        expect(
            page.locator(f'{MINE} [data-testid="joy-space"][data-legal="true"]').first
        ).to_be_visible()
        _check_phone(page)
        before = version(page)
        page.locator(f'{MINE} [data-testid="joy-space"][data-legal="true"]').first.click()
        if page.get_by_test_id("face-chooser").is_visible():  # her last card: the next faces
            _check_phone(page)
            page.screenshot(path=str(artifacts / f"{game}-phone-next.png"))
            chose_next = True
            page.get_by_test_id("confirm-move").click()
        expect(page.get_by_test_id("game-root")).not_to_have_attribute("data-version", str(before))
        if chose_next or page.get_by_test_id("game-over").is_visible():
            break
    assert chose_next, "the page's player played her last active card and chose the next faces"
    assert_phone_table(page, controls=mode(page) != "idle")


_OVERLAPS = """
([words, pieces]) => {
  const box = (el) => el.getBoundingClientRect();
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const hits = [];
  for (const w of document.querySelectorAll(words)) {
    for (const p of document.querySelectorAll(pieces)) {
      const owner = p.closest('[data-point], [data-piece]');
      const name = owner ? owner.dataset.point || owner.dataset.piece : '?';
      if (meet(box(w), box(p))) hits.push(`${w.textContent} under ${name}`);
    }
  }
  return hits;
}
"""


def words_under_pieces(page: Any, words: str, pieces: str) -> list[str]:
    """Every pair of a word (`words` selector) and a piece (`pieces`) whose boxes overlap."""
    return list(page.evaluate(_OVERLAPS, [words, pieces]))
