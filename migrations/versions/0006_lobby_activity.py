"""open lobbies expire: the last lobby activity of each match and why a match was abandoned;
the history pages by end time

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "last_activity_at",
                sa.DateTime(timezone=True),
                nullable=False,
                server_default=sa.func.now(),
            )
        )
        batch_op.add_column(sa.Column("abandoned_reason", sa.String(length=16), nullable=True))
    # Existing lobbies count from their creation: the oldest close at the first sweep.
    op.execute("UPDATE matches SET last_activity_at = created_at")
    # No index on last_activity_at: the sweeper reads the open lobbies (few, as it closes the
    # stale ones) through the status index, and the open list keeps its created_at order.
    # Every finished match has an end time to be sorted by (older rows might lack one).
    op.execute(
        "UPDATE matches SET finished_at = COALESCE(started_at, created_at) "
        "WHERE status = 'finished' AND finished_at IS NULL"
    )
    op.create_index("ix_matches_status_finished_at_id", "matches", ["status", "finished_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_matches_status_finished_at_id", table_name="matches")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("abandoned_reason")
        batch_op.drop_column("last_activity_at")
