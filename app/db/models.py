"""Tables: players (guest identities), matches (lobby -> active -> finished), moves (the log).

The moves log is the truth; a match's live state is a cache rebuilt from it. The primary key
(match_id, seq) is what makes concurrent submissions safe across processes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # "easy" or "normal" for a computer player (one record per seat it takes); None: a person.
    bot_level: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Match(Base):
    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_status_created_at", "status", "created_at"),
        # The lists of lobbies and games: one status, public or not, newest first, a page at a
        # time (keyset on created_at, id), so a poll reads a page however many matches exist.
        Index("ix_matches_status_private_created_at_id", "status", "private", "created_at", "id"),
        # The cap on a host's open lobbies counts them without reading every match.
        Index("ix_matches_host_id_status", "host_id", "status"),
        # The history: finished matches, the last to end first, a page at a time.
        Index("ix_matches_status_finished_at_id", "status", "finished_at", "id"),
        # The computer players' sweep: active matches where a computer holds or minds a seat.
        Index("ix_matches_status_has_computer", "status", "has_computer"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    rules_version: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    # One entry per seat: a player id, or None while the seat is empty.
    seats: Mapped[list[str | None]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    # The server's secret, committed to (sha256) when the lobby opens and revealed at the end.
    seed: Mapped[str] = mapped_column(String(64))
    seed_commitment: Mapped[str] = mapped_column(String(64))
    # One browser-made nonce per seat (None until given); the dice mix them with the seed.
    nonces: Mapped[list[str | None]] = mapped_column(JSON, default=list)
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Players who accepted the current options, for games whose options need everyone's
    # agreement (Game.options_need_agreement); any change to the options empties it.
    accepted: Mapped[list[str]] = mapped_column(JSON, default=list)
    watch_token: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The player who ended the match while it was being played (status "abandoned").
    ended_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Bumped by every lobby change: a change is written only if the version it read is still
    # the row's (compare-and-swap), which holds on SQLite too, where FOR UPDATE locks nothing.
    lobby_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The last change to the lobby (a seat taken or given up, the options, the privacy): an
    # open lobby untouched for `open_lobby_ttl_minutes` closes. Moves are not written here;
    # a match's last move is read from the moves table.
    last_activity_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    # Why a match was abandoned: "left" (everyone left the lobby), "ended" (a player ended
    # it), "expired" (the lobby stood untouched too long). None on rows older than 0006.
    abandoned_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Seconds each turn may take before the others may let a computer move for the player;
    # None: no turn timer.
    turn_timer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Seats of absent players a computer plays for until they return:
    # {"<seat>": {"level": "normal", "by": player id, "since": ISO time}}.
    stand_ins: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # What happened to seats while the match was played, oldest first (a computer stood in,
    # she came back, a win was claimed): [{"at", "seat", "change", "by", "text"}], bounded.
    seat_changes: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    # Whether a computer player holds a seat or stands in for someone (kept with seats and
    # stand_ins): lets the sweep after a restart find such matches without reading them all.
    has_computer: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The family whose guided first match this is (app/tutorials/<family>.json): its script
    # decides the computers' moves and which of the learner's moves it accepts. None: a match.
    tutorial: Mapped[str | None] = mapped_column(String(32), nullable=True)


class MatchSeat(Base):
    """The players seated in each match (its JSON `seats`, as rows): a player's own matches
    are found through this key rather than by reading every match's seats."""

    __tablename__ = "match_seats"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    # When the player last had a socket open on the match (refreshed while she has one, and
    # set as her last one closes): shared by every server process and kept over a restart,
    # it is what tells an absent player from one who reloads. Indexed: the away sweep reads
    # the seats last seen within a few seconds' window, every second.
    seen_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )


class Move(Base):
    __tablename__ = "moves"
    __table_args__ = (
        UniqueConstraint("match_id", "client_id", name="uq_moves_match_id_client_id"),
    )

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Made by a computer player (its own seat, or standing in for an absent player).
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # "players" (the seated talk among themselves) or "watchers" (app/services/chat.py).
    channel: Mapped[str] = mapped_column(String(8), default="players", server_default="players")
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Invitation(Base):
    """A friend invited to an open lobby ("Play again with them"): she finds it among her
    invitations until she joins, the lobby closes or starts."""

    __tablename__ = "invitations"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    invited_by: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class PlayerToken(Base):
    """A further credential of a player, for another device she continued on (a device link,
    a passkey sign-in): each device keeps its own token, so none signs the others out. Only
    the SHA-256 is stored, as for `Player.token_hash`."""

    __tablename__ = "player_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class DeviceLink(Base):
    """A one-time "continue on another device" link: its token (hashed) lets one browser
    become the player who made it, once, within minutes."""

    __tablename__ = "device_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PushKey(Base):
    """The server's VAPID key pair for Web Push (docs/protocol.md, section 17), made once and
    shared by every server process unless the VAPID_PRIVATE_KEY setting gives one."""

    __tablename__ = "push_keys"

    name: Mapped[str] = mapped_column(String(16), primary_key=True)
    # The P-256 private value, 32 bytes in unpadded base64url.
    private_key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class PushSubscription(Base):
    """A browser's Web Push subscription (its PushSubscription JSON) for a player."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Passkey(Base):
    """A WebAuthn credential (a passkey) a player registered: signing in with it anywhere makes
    that browser hers. The public key is COSE-encoded, as py_webauthn returns it."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    # The authenticator's credential id, base64url without padding (at most 1023 bytes raw).
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    # The WebAuthn user handle (random, base64url): the same for all of a player's passkeys.
    user_handle: Mapped[str] = mapped_column(String(128))
    label: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallenge(Base):
    """A challenge handed out with passkey options: kept here so that every server process
    sees it, used at most once (the row is deleted by its use) and only until `expires_at`."""

    __tablename__ = "passkey_challenges"

    # SHA-256 (hex) of the challenge's bytes: the browser sends the challenge back inside
    # clientDataJSON, which is how the answer finds its row.
    challenge_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    # "register" or "login".
    purpose: Mapped[str] = mapped_column(String(8))
    # Registration: whose passkey it will be, and her user handle.
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), nullable=True
    )
    user_handle: Mapped[str | None] = mapped_column(String(128), nullable=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
