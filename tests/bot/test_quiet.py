"""Quiet hours: parsing, periods that wrap midnight, time zones and daylight saving."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.core.models import UserSettings
from bot.core.quiet_hours import format_time, parse_time, quiet_until
from tests.bot.conftest import both_backends

pytestmark = both_backends  # the repository-level parts run on SQLite and PostgreSQL

PARIS = ZoneInfo("Europe/Paris")


def _at(*args: int) -> float:
    return datetime(*args, tzinfo=PARIS).timestamp()


def _sleeper(start: str, end: str, tz: str = "Europe/Paris") -> UserSettings:
    return UserSettings(1, timezone=tz, quiet_start=parse_time(start), quiet_end=parse_time(end))


def test_parse_and_format() -> None:
    assert parse_time("22:30") == 22 * 60 + 30 and parse_time("7") == 420
    assert parse_time("7h15") == 435 and format_time(435) == "07:15"
    for bad in ("24:00", "7:60", "noon", ""):
        with pytest.raises(ValueError):
            parse_time(bad)


def test_a_period_that_wraps_midnight() -> None:
    night = _sleeper("23:00", "08:00")
    assert quiet_until(night, _at(2024, 3, 5, 22, 59)) is None
    assert quiet_until(night, _at(2024, 3, 5, 23, 0)) == _at(2024, 3, 6, 8, 0)
    assert quiet_until(night, _at(2024, 3, 6, 7, 59)) == _at(2024, 3, 6, 8, 0)
    assert quiet_until(night, _at(2024, 3, 6, 8, 0)) is None


def test_a_period_within_one_day_and_no_period() -> None:
    nap = _sleeper("13:00", "15:00")
    assert quiet_until(nap, _at(2024, 3, 5, 14, 0)) == _at(2024, 3, 5, 15, 0)
    assert quiet_until(nap, _at(2024, 3, 5, 16, 0)) is None
    assert quiet_until(UserSettings(1), _at(2024, 3, 5, 3, 0)) is None
    assert quiet_until(_sleeper("08:00", "08:00"), _at(2024, 3, 5, 8, 0)) is None


def test_the_wake_up_time_follows_daylight_saving() -> None:
    night = _sleeper("23:00", "08:00")
    # The night of 30-31 March 2024 is one hour shorter in Paris: 08:00 local still.
    wake = quiet_until(night, _at(2024, 3, 30, 23, 30))
    assert wake == _at(2024, 3, 31, 8, 0)
    assert wake is not None and wake - _at(2024, 3, 30, 23, 30) == 7.5 * 3600


def test_an_unknown_zone_falls_back_to_utc() -> None:
    settings = UserSettings(1, timezone="Nowhere/Atlantis", quiet_start=0, quiet_end=60)
    assert quiet_until(settings, datetime(2024, 1, 1, 0, 30, tzinfo=ZoneInfo("UTC"))
                       .timestamp()) == datetime(2024, 1, 1, 1, 0,
                                                 tzinfo=ZoneInfo("UTC")).timestamp()
