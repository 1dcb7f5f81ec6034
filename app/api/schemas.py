"""Request and response bodies of the REST API."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints


class PlayerCreate(BaseModel):
    name: str = Field(min_length=1, max_length=40)


class PlayerPublic(BaseModel):
    id: str
    name: str


class TurnWaiting(BaseModel):
    """A match where it is your move."""

    match_id: str
    game: str
    game_name: str
    version: int
    seat: int
    opponents: list[str] = Field(description="the other seated players' names, in seat order")
    since: datetime = Field(description="when it became your turn (the last move, or the start)")
    deadline: datetime | None = Field(
        description="when the turn timer runs out for you; null without a turn timer"
    )


class TurnsWaiting(BaseModel):
    turns: list[TurnWaiting] = Field(
        description="a running clock first, the soonest first; then the longest waiting first"
    )
    count: int


class FriendPublic(BaseModel):
    """Someone you shared a table with."""

    id: str
    name: str
    last_played_at: datetime
    last_game: str
    last_game_name: str
    matches: int = Field(description="tables shared (lessons not counted)")


class FriendsPublic(BaseModel):
    friends: list[FriendPublic] = Field(description="the most recent table first, at most 20")


class InvitationPublic(BaseModel):
    """An open lobby a friend invited you to."""

    match_id: str
    game: str
    game_name: str
    host: str = Field(description="the name of who invited you")
    invited_at: datetime


class InvitationsPublic(BaseModel):
    invitations: list[InvitationPublic] = Field(description="the newest first")


class DeviceLinkCreated(BaseModel):
    url: str = Field(description="open it on the other device; one use, within minutes")
    expires_at: datetime
    qr: list[str] = Field(
        description="the url as a QR code: rows of modules, 1 dark and 0 light, no quiet zone"
    )


class DeviceLinkClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=100, description="the #device= part of the link")


class PlayerCreated(PlayerPublic):
    token: str


class GamePublic(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    options_schema: dict[str, Any]
    goal: str
    has_chance: bool = Field(
        description="the game rolls dice or shuffles: the pages show the dice seal only then",
    )
    hidden_information: bool
    record_order: str | None = Field(
        default=None,
        description='"low" or "high": the outcome score is a personal record (best kept)',
    )
    tagline: str | None = Field(
        default=None, description="what the game is like, in one line (its rules page)"
    )
    learn: str | None = Field(
        default=None, description='how hard it is to learn: "easy", "medium" or "hard"'
    )
    minutes: int | None = Field(
        default=None,
        description="how long a match takes at its usual player count, measured from seeded "
        "playouts (app/rules_pages/durations.json)",
    )
    rules_url: str | None = Field(default=None, description="its rules page, once it has one")
    learn_url: str | None = Field(
        default=None, description="the guided first match of its family, when there is one"
    )


NONCE = Field(
    default=None,
    description="64 hex characters from the browser's random source; "
    "mixed into the dice (see docs/replays.md)",
)


class MatchCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int | None = Field(default=None, ge=1, le=8)
    private: bool = False
    nonce: str | None = NONCE
    invite: list[Annotated[str, StringConstraints(min_length=1, max_length=32)]] = Field(
        default_factory=list,
        max_length=7,
        description="ids of people you played with recently (GET /api/players/me/friends) to "
        "invite to this lobby",
    )


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    nonce: str | None = NONCE


class MatchUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    private: bool | None = Field(default=None, description="only players and invited watch")
    turn_timer: int | None = Field(
        default=None,
        description="seconds per turn: live 30, 60, 120, 300 or 600, or null for none; "
        "turn-based 3600, 28800, 86400, 259200 or 604800; while the lobby is open",
    )
    pace: Literal["live", "turn-based"] | None = Field(
        default=None,
        description="live (everyone at the table) or turn-based (a time per move of an hour to "
        "a week, nobody needs to be online); follows from turn_timer, which it checks or, "
        "alone, sets (turn-based: a day; live: none)",
    )


class ComputerAdd(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: Literal["easy", "normal"] = Field(description="how well the computer plays")
    seat: int | None = Field(
        default=None, ge=0, le=63, description="the seat; default: the first free one"
    )


class OptionsChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any] = Field(
        description="The new options; validated like the options of a new match"
    )


class OptionsAccept(BaseModel):
    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any] = Field(
        description="The options you accept, as you saw them; refused if the host changed them"
    )


class MoveSubmit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: Any
    id: str | None = Field(default=None, max_length=64)
    version: int | None = None


class MoveAccepted(BaseModel):
    version: int


class MatchesPublic(BaseModel):
    matches: list[dict[str, Any]]
    count: int
    # Added for paging: `count` stops at a cap (then `count_capped`); `next` is the `after`
    # of the following page, None on the last.
    count_capped: bool = False
    next: str | None = None


class LogEntry(BaseModel):
    seq: int
    # None for another seat's secret answer while the match is being played (see
    # Game.hides_mover); `at` is None then too.
    seat: int | None
    move: dict[str, Any]
    events: list[dict[str, Any]]
    at: str | None
    # A computer made it (its own seat, or standing in for an absent player).
    bot: bool = False


class MatchLog(BaseModel):
    moves: list[LogEntry]
    # seat_change frames as they were sent, oldest first (protocol, section 4.3).
    seat_changes: list[dict[str, Any]] = []


class Problem(BaseModel):
    code: str
    message: str
