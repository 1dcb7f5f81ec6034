"""lobby changes by compare-and-swap; indexes for the paged lists and the open-lobby cap;
the seated players as rows (match_seats) for a player's own list

Revision ID: 0005
Revises: 0004
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("lobby_version", sa.Integer(), nullable=False, server_default="0")
        )
    op.create_index(
        "ix_matches_status_private_created_at_id",
        "matches",
        ["status", "private", "created_at", "id"],
    )
    op.create_index("ix_matches_host_id_status", "matches", ["host_id", "status"])
    seats_table = op.create_table(
        "match_seats",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id", "match_id"),
    )
    op.create_index("ix_match_seats_match_id", "match_seats", ["match_id"])
    rows = []
    for match_id, seats in op.get_bind().execute(sa.text("SELECT id, seats FROM matches")):
        players = json.loads(seats) if isinstance(seats, str) else seats
        rows += [{"player_id": p, "match_id": match_id} for p in set(players or []) if p]
    if rows:
        op.bulk_insert(seats_table, rows)


def downgrade() -> None:
    op.drop_index("ix_match_seats_match_id", table_name="match_seats")
    op.drop_table("match_seats")
    op.drop_index("ix_matches_host_id_status", table_name="matches")
    op.drop_index("ix_matches_status_private_created_at_id", table_name="matches")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("lobby_version")
