"""Settings: each server's and each user's choices, and the keys the bot keeps."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.core.models import GuildSettings, UserSettings
from bot.core.storage.db import Conn, Database

_GUILD_FIELDS = ("locale", "reminder_hours", "vacation_days")
_USER_FIELDS = ("locale", "dm_opt_in", "reminder_hours", "timezone", "quiet_start", "quiet_end",
                "notify_before")
_INTEGER_FIELDS = ("dm_opt_in", "notify_before")  # stored 0/1


class SettingsStore(ABC):
    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    @abstractmethod
    async def update_guild_settings(self, guild_id: int, values: Mapping[str, Any], *,
                                    now: float) -> GuildSettings:
        """Upsert ``locale`` / ``reminder_hours`` / ``vacation_days`` (None clears one)."""

    @abstractmethod
    async def user_settings(self, user_id: int) -> UserSettings: ...

    @abstractmethod
    async def update_user_settings(self, user_id: int, values: Mapping[str, Any], *,
                                   now: float) -> UserSettings:
        """Upsert ``locale`` / ``dm_opt_in`` / ``reminder_hours`` / quiet hours fields."""

    @abstractmethod
    async def user_locales(self) -> dict[int, str]:
        """Every user's language override (loaded once at start-up by the bot)."""

    @abstractmethod
    async def secret(self, name: str, make: Callable[[], bytes]) -> bytes:
        """A key the bot keeps: made by ``make`` the first time, the same ever after."""


class SqlSettings(SettingsStore):
    db: Database

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self.db.read(lambda c: c.fetchrow(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)))
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, row["locale"], row["reminder_hours"],
                             row["vacation_days"])

    async def update_guild_settings(self, guild_id: int, values: Mapping[str, Any], *,
                                    now: float) -> GuildSettings:
        await self._upsert("guild_settings", "guild_id", guild_id, _GUILD_FIELDS, values, now)
        return await self.guild_settings(guild_id)

    async def user_settings(self, user_id: int) -> UserSettings:
        row = await self.db.read(lambda c: c.fetchrow(
            "SELECT * FROM user_settings WHERE user_id = ?", (user_id,)))
        if row is None:
            return UserSettings(user_id)
        return UserSettings(user_id, row["locale"], bool(row["dm_opt_in"]),
                            row["reminder_hours"], row["timezone"], row["quiet_start"],
                            row["quiet_end"], bool(row["notify_before"]))

    async def update_user_settings(self, user_id: int, values: Mapping[str, Any], *,
                                   now: float) -> UserSettings:
        await self._upsert("user_settings", "user_id", user_id, _USER_FIELDS, values, now)
        return await self.user_settings(user_id)

    async def _upsert(self, table: str, key: str, key_value: int, allowed: Sequence[str],
                      values: Mapping[str, Any], now: float) -> None:
        unknown = set(values) - set(allowed)
        if unknown:
            raise ValueError(f"unknown {table} fields: {sorted(unknown)}")
        names = list(values)
        columns = ", ".join([key, *names, "updated_at"])
        places = ", ".join("?" * (len(names) + 2))
        updates = ", ".join(f"{n} = excluded.{n}" for n in [*names, "updated_at"])
        sql = (f"INSERT INTO {table} ({columns}) VALUES ({places}) "
               f"ON CONFLICT ({key}) DO UPDATE SET {updates}")
        params = [key_value, *(int(values[n]) if n in _INTEGER_FIELDS and values[n] is not None
                               else values[n] for n in names), now]

        async def tx(conn: Conn) -> None:
            await conn.execute(sql, params)

        await self.db.write(tx)

    async def user_locales(self) -> dict[int, str]:
        rows = await self.db.read(lambda c: c.fetch(
            "SELECT user_id, locale FROM user_settings WHERE locale IS NOT NULL"))
        return {r[0]: r[1] for r in rows}

    async def secret(self, name: str, make: Callable[[], bytes]) -> bytes:
        async def tx(conn: Conn) -> bytes:
            await conn.execute("INSERT INTO bot_secrets (name, value, created_at) "
                               "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                               (name, make(), time.time()))
            return bytes(await conn.fetchval("SELECT value FROM bot_secrets WHERE name = ?",
                                             (name,)))

        return await self.db.write(tx)
