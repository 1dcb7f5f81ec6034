"""players' acceptance of the host's options (custom Tank Skirmish zones)

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("accepted", sa.JSON(), nullable=True))
    op.execute("UPDATE matches SET accepted = '[]'")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.alter_column("accepted", existing_type=sa.JSON(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("accepted")
