"""computer players, absent friends and the turn timer

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_level", sa.String(length=8), nullable=True))
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("turn_timer", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("stand_ins", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("seat_changes", sa.JSON(), nullable=True))
        batch_op.add_column(
            sa.Column("has_computer", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_index("ix_matches_status_has_computer", ["status", "has_computer"])
    with op.batch_alter_table("match_seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.drop_column("bot")
    with op.batch_alter_table("match_seats", schema=None) as batch_op:
        batch_op.drop_column("seen_at")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index("ix_matches_status_has_computer")
        batch_op.drop_column("has_computer")
        batch_op.drop_column("seat_changes")
        batch_op.drop_column("stand_ins")
        batch_op.drop_column("turn_timer")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("bot_level")
