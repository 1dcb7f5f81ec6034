"""an index on match_seats.seen_at: the away sweep reads the seats last seen in a window of a
few seconds, every second, and must not scan every seat of every active match

Revision ID: 0014
Revises: 0013
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_match_seats_seen_at", "match_seats", ["seen_at"])


def downgrade() -> None:
    op.drop_index("ix_match_seats_seen_at", table_name="match_seats")
