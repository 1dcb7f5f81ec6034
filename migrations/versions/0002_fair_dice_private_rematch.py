"""fair dice nonces, private matches, rematch link

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("nonces", sa.JSON(), nullable=True))
        batch_op.add_column(
            sa.Column("private", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("watch_token", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("rematch_id", sa.String(length=32), nullable=True))
    op.execute("UPDATE matches SET nonces = '[]'")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.alter_column("nonces", existing_type=sa.JSON(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("rematch_id")
        batch_op.drop_column("watch_token")
        batch_op.drop_column("private")
        batch_op.drop_column("nonces")
