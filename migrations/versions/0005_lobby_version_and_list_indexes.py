"""lobby changes by compare-and-swap; indexes for the paged lists and the open-lobby cap

Revision ID: 0005
Revises: 0004
"""

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


def downgrade() -> None:
    op.drop_index("ix_matches_host_id_status", table_name="matches")
    op.drop_index("ix_matches_status_private_created_at_id", table_name="matches")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("lobby_version")
