"""A server's and a player's preferences: languages, DMs, reminder intervals, quiet hours,
the yearly vacation allowance. Checked here (or by :mod:`bot.core.absence_policies` for the
timing rules) before they are written.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bot.core import errors
from bot.core.i18n import LOCALES
from bot.core.models import GuildSettings, UserSettings
from bot.core.service.base import ServiceBase, check_hours

log = logging.getLogger(__name__)

QUIET_HOUR_SETTINGS = frozenset({"timezone", "quiet_start", "quiet_end", "notify_before"})


def _check_locale(locale: str | None) -> str | None:
    if locale is not None and locale not in LOCALES:
        raise errors.InvalidOption(key="service.invalid_locale", locale=locale,
                                   choices=", ".join(LOCALES))
    return locale


class Preferences(ServiceBase):
    # --- a server's --------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.repo.guild_settings(guild_id)

    async def set_guild_settings(self, guild_id: int, *, locale: str | None = None,
                                 reminder_hours: float | None = None) -> GuildSettings:
        """Set the given overrides (None = leave unchanged)."""
        values: dict[str, Any] = {}
        if locale is not None:
            values["locale"] = _check_locale(locale)
        if reminder_hours is not None:
            values["reminder_hours"] = check_hours(reminder_hours)
        if not values:
            return await self.repo.guild_settings(guild_id)
        settings = await self.repo.update_guild_settings(guild_id, values, now=self.clock())
        log.info("guild %d settings: %s", guild_id, values)
        return settings

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> GuildSettings:
        """Set the server's language, or clear the override (None)."""
        return await self.repo.update_guild_settings(
            guild_id, {"locale": _check_locale(locale)}, now=self.clock())

    async def set_vacation_days(self, guild_id: int, days: int) -> GuildSettings:
        """The server's yearly vacation allowance (checked by bot/core/absence_policies.py)."""
        return await self.repo.update_guild_settings(guild_id, {"vacation_days": days},
                                                     now=self.clock())

    # --- a player's --------------------------------------------------------------------
    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.repo.user_settings(user_id)

    async def user_locales(self) -> dict[int, str]:
        """Every player's chosen language (loaded once at start)."""
        return await self.repo.user_locales()

    async def set_user_settings(self, user_id: int, *, locale: str | None = None,
                                dm_opt_in: bool | None = None,
                                reminder_hours: float | None = None) -> UserSettings:
        """Set the given preferences (None = leave unchanged)."""
        values: dict[str, Any] = {}
        if locale is not None:
            values["locale"] = _check_locale(locale)
        if dm_opt_in is not None:
            values["dm_opt_in"] = bool(dm_opt_in)
        if reminder_hours is not None:
            values["reminder_hours"] = check_hours(reminder_hours)
        if not values:
            return await self.repo.user_settings(user_id)
        settings = await self.repo.update_user_settings(user_id, values, now=self.clock())
        log.info("user %d settings: %s", user_id, values)
        return settings

    async def set_user_locale(self, user_id: int, locale: str | None) -> UserSettings:
        """Set the player's language, or clear their choice (None)."""
        return await self.repo.update_user_settings(
            user_id, {"locale": _check_locale(locale)}, now=self.clock())

    async def set_quiet_hours(self, user_id: int, values: Mapping[str, Any]) -> UserSettings:
        """Quiet-hour preferences, already checked by bot/core/absence_policies.py."""
        unknown = set(values) - QUIET_HOUR_SETTINGS
        if unknown:
            raise ValueError(f"not a quiet-hour setting: {sorted(unknown)}")
        return await self.repo.update_user_settings(user_id, dict(values), now=self.clock())
