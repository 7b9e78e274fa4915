"""Bot settings from the environment and an optional ``.env`` file.

Only the Discord token is needed to run; everything else has a default that suits a small
server. Bad values fail at start-up with one English line naming the variable, so a typo in
``.env`` never turns into a confusing error deep inside the bot.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from engines.ai import DEFAULT_LEVEL, LEVELS

LOCALES = ("en", "fr")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(Exception):
    """A setting has a value the bot cannot use; the message is one line for the operator."""


class MissingToken(SettingsError):
    """``DISCORD_TOKEN`` is not set (it is the only required setting)."""


@dataclass(frozen=True, slots=True)
class Settings:
    discord_token: str | None = None
    database: Path | str = Path("data/ludotheque.sqlite3")  # a file, or postgresql://…
    default_locale: str = "en"
    reminder_hours: float = 24.0
    ai_delay: float = 1.5
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    ai_level: str = DEFAULT_LEVEL  # of an AI seat added without a level, and of takeovers
    shard_count: int | None = None  # None: one unsharded connection (Discord's default)
    shard_ids: tuple[int, ...] | None = None  # None with a count: every shard in this process

    def require_token(self) -> str:
        if not self.discord_token:
            raise MissingToken(
                "DISCORD_TOKEN is not set: put it in the environment or in .env "
                "(see .env.example)."
            )
        return self.discord_token


def _database(raw: str) -> Path | str:
    """A PostgreSQL address stays as written; anything else is a SQLite file's path."""
    return raw if raw.startswith(("postgresql://", "postgres://")) else Path(raw)


def _number(name: str, raw: str, *, unit: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of {unit} >= 0, got {raw!r}.") from None
    if value < 0 or value != value or value == float("inf"):
        raise SettingsError(f"{name} must be a number of {unit} >= 0, got {raw!r}.")
    return value


def load_settings(env: Mapping[str, str] | None = None, *,
                  env_file: str | Path | None = ".env") -> Settings:
    """Read settings: real environment variables win over the ``.env`` file.

    Empty values (``LUDO_DEV_GUILD_ID=`` in ``.env.example``) mean "use the default".
    """
    merged: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        merged.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    merged.update(os.environ if env is None else env)
    values = {k: v.strip() for k, v in merged.items() if isinstance(v, str) and v.strip()}

    defaults = Settings()
    locale = values.get("LUDO_DEFAULT_LOCALE", defaults.default_locale).lower()
    if locale not in LOCALES:
        raise SettingsError(f"LUDO_DEFAULT_LOCALE must be one of {', '.join(LOCALES)}, "
                            f"got {locale!r}.")
    level = values.get("LUDO_LOG_LEVEL", defaults.log_level).upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LUDO_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, "
                            f"got {level!r}.")
    ai_level = values.get("LUDO_AI_LEVEL", defaults.ai_level).lower()
    if ai_level not in LEVELS:
        raise SettingsError(f"LUDO_AI_LEVEL must be one of {', '.join(LEVELS)}, "
                            f"got {ai_level!r}.")
    guild: int | None = None
    if "LUDO_DEV_GUILD_ID" in values:
        raw = values["LUDO_DEV_GUILD_ID"]
        if not raw.isdigit() or int(raw) == 0:
            raise SettingsError(f"LUDO_DEV_GUILD_ID must be a Discord server id (digits), "
                                f"got {raw!r}.")
        guild = int(raw)
    shard_count, shard_ids = _shards(values)
    return Settings(
        discord_token=values.get("DISCORD_TOKEN"),
        database=_database(values.get("LUDO_DATABASE", str(defaults.database))),
        default_locale=locale,
        reminder_hours=_number("LUDO_REMINDER_HOURS",
                               values.get("LUDO_REMINDER_HOURS", "24"), unit="hours"),
        ai_delay=_number("LUDO_AI_DELAY", values.get("LUDO_AI_DELAY", "1.5"), unit="seconds"),
        ai_level=ai_level,
        dev_guild_id=guild,
        log_level=level,
        shard_count=shard_count,
        shard_ids=shard_ids,
    )


def _shards(values: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``LUDO_SHARD_COUNT`` and ``LUDO_SHARD_IDS`` (``0,1``): the shards this process holds."""
    count: int | None = None
    if "LUDO_SHARD_COUNT" in values:
        raw = values["LUDO_SHARD_COUNT"]
        if not raw.isdigit() or int(raw) < 1:
            raise SettingsError(f"LUDO_SHARD_COUNT must be a whole number >= 1, got {raw!r}.")
        count = int(raw)
    if "LUDO_SHARD_IDS" not in values:
        return count, None
    raw = values["LUDO_SHARD_IDS"]
    if count is None:
        raise SettingsError("LUDO_SHARD_IDS needs LUDO_SHARD_COUNT (the total number of "
                            "shards of every process).")
    parts = [p.strip() for p in raw.split(",")]
    if not all(p.isdigit() and int(p) < count for p in parts) or len(set(parts)) != len(parts):
        raise SettingsError(f"LUDO_SHARD_IDS must be distinct shard numbers from 0 to "
                            f"{count - 1}, separated by commas, got {raw!r}.")
    return count, tuple(sorted(int(p) for p in parts))
