"""Timestamps on the wire: ISO 8601 with the UTC offset, always.

SQLite hands back naive datetimes (its CURRENT_TIMESTAMP is UTC); without an offset a browser
would read them as local time and show every match hours off.
"""

from __future__ import annotations

from datetime import UTC, datetime


def iso_utc(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()
