"""Quiet hours: a player's local night, during which reminders, warnings and DMs wait.

Times are minutes after local midnight in the player's IANA time zone (``Europe/Paris``);
a period may wrap midnight (22:00-07:00). Deadlines themselves never move for quiet hours:
only the messages wait, until the period ends (docs/ASYNC.md).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.models import UserSettings

_HHMM = re.compile(r"^\s*(\d{1,2})(?:[:h](\d{2}))?\s*$")
DAY_MINUTES = 24 * 60


def parse_time(text: str) -> int:
    """``"22:30"``, ``"7"``, ``"7h15"`` -> minutes after midnight; ValueError otherwise."""
    match = _HHMM.match(text)
    if not match:
        raise ValueError(text)
    hours, minutes = int(match.group(1)), int(match.group(2) or 0)
    if hours > 23 or minutes > 59:
        raise ValueError(text)
    return hours * 60 + minutes


def format_time(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def zone(name: str) -> ZoneInfo:
    """The time zone called ``name``; ValueError if unknown."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise ValueError(name) from err


def quiet_until(settings: UserSettings, now: float) -> float | None:
    """When the player's current quiet period ends, or None if they are not in one."""
    if settings.quiet_start is None or settings.quiet_end is None:
        return None
    start, end = settings.quiet_start, settings.quiet_end
    if start == end:
        return None
    try:
        tz = zone(settings.timezone or "UTC")
    except ValueError:
        tz = zone("UTC")
    local = datetime.fromtimestamp(now, tz)
    minute = local.hour * 60 + local.minute
    inside = start <= minute < end if start < end else (minute >= start or minute < end)
    if not inside:
        return None
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    days = 1 if start > end and minute >= start else 0
    wake = (midnight + timedelta(days=days)).replace(hour=end // 60, minute=end % 60)
    # replace() keeps the wall clock; re-attaching the zone handles a DST change overnight.
    return datetime(wake.year, wake.month, wake.day, wake.hour, wake.minute,
                    tzinfo=tz).timestamp()
