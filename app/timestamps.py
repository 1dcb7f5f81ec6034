"""Timestamps on the wire: ISO 8601 with the UTC offset, always.

SQLite hands back naive datetimes (its CURRENT_TIMESTAMP is UTC); without an offset a browser
would read them as local time and show every match hours off.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


@overload
def as_utc(moment: datetime) -> datetime: ...
@overload
def as_utc(moment: None) -> None: ...
@overload
def as_utc(moment: datetime | None) -> datetime | None: ...
def as_utc(moment: datetime | None) -> datetime | None:
    """A stored time with its UTC offset: SQLite hands back naive times (UTC), PostgreSQL
    aware ones."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


def iso_utc(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return as_utc(moment).isoformat()
