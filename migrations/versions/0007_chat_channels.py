"""chat in two channels: the players' table talk and the watchers' chat

Revision ID: 0007
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("channel", sa.String(length=8), nullable=False, server_default="players")
        )
    # What someone who was not seated wrote is watchers' talk: it stays readable by everyone
    # (players read the watchers' channel), while the players' own talk becomes theirs alone.
    op.execute(
        "UPDATE chat_messages SET channel = 'watchers' WHERE player_id IS NULL OR NOT EXISTS ("
        "SELECT 1 FROM match_seats WHERE match_seats.match_id = chat_messages.match_id "
        "AND match_seats.player_id = chat_messages.player_id)"
    )


def downgrade() -> None:
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_column("channel")
