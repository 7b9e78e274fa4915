"""Settings come from the environment and .env; bad values fail with one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.settings import MissingToken, Settings, SettingsError, load_settings


def test_defaults_with_an_empty_environment() -> None:
    s = load_settings({}, env_file=None)
    assert s == Settings()
    assert s.database == Path("data/ludotheque.sqlite3")
    assert (s.default_locale, s.reminder_hours, s.ai_delay, s.dev_guild_id, s.log_level) == (
        "en", 24.0, 1.5, None, "INFO")


def test_every_variable_is_read() -> None:
    s = load_settings({"DISCORD_TOKEN": "abc", "LUDO_DATABASE": "/tmp/x.db",
                       "LUDO_DEFAULT_LOCALE": "FR", "LUDO_REMINDER_HOURS": "12.5",
                       "LUDO_AI_DELAY": "0", "LUDO_DEV_GUILD_ID": "1234",
                       "LUDO_LOG_LEVEL": "debug", "LUDO_AI_LEVEL": "Strong"}, env_file=None)
    assert s == Settings("abc", Path("/tmp/x.db"), "fr", 12.5, 0.0, 1234, "DEBUG", "strong")


def test_dotenv_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nLUDO_AI_DELAY=3\nLUDO_DEV_GUILD_ID=\n")
    s = load_settings({"LUDO_AI_DELAY": "0.5"}, env_file=env_file)
    assert s.discord_token == "from-file"
    assert s.ai_delay == 0.5
    assert s.dev_guild_id is None  # empty means default


@pytest.mark.parametrize(("name", "value"), [
    ("LUDO_DEFAULT_LOCALE", "de"), ("LUDO_REMINDER_HOURS", "soon"),
    ("LUDO_REMINDER_HOURS", "-1"), ("LUDO_AI_DELAY", "nan"), ("LUDO_DEV_GUILD_ID", "abc"),
    ("LUDO_LOG_LEVEL", "LOUD"), ("LUDO_AI_LEVEL", "grandmaster"),
])
def test_bad_values_name_the_variable(name: str, value: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings({name: value}, env_file=None)
    message = str(info.value)
    assert name in message and "\n" not in message


def test_the_token_is_required_to_run() -> None:
    s = load_settings({"DISCORD_TOKEN": "  "}, env_file=None)
    with pytest.raises(MissingToken, match="DISCORD_TOKEN"):
        s.require_token()
    assert issubclass(MissingToken, SettingsError)  # the start-up catches both as one line
    assert load_settings({"DISCORD_TOKEN": "t"}, env_file=None).require_token() == "t"


def test_shard_settings() -> None:
    assert (Settings().shard_count, Settings().shard_ids) == (None, None)  # unsharded
    s = load_settings({"LUDO_SHARD_COUNT": "4", "LUDO_SHARD_IDS": "3, 1"}, env_file=None)
    assert (s.shard_count, s.shard_ids) == (4, (1, 3))
    s = load_settings({"LUDO_SHARD_COUNT": "2"}, env_file=None)
    assert (s.shard_count, s.shard_ids) == (2, None)  # every shard in this process


@pytest.mark.parametrize(("env", "named"), [
    ({"LUDO_SHARD_COUNT": "0"}, "LUDO_SHARD_COUNT"),
    ({"LUDO_SHARD_COUNT": "two"}, "LUDO_SHARD_COUNT"),
    ({"LUDO_SHARD_IDS": "0"}, "LUDO_SHARD_COUNT"),  # ids without the total
    ({"LUDO_SHARD_COUNT": "2", "LUDO_SHARD_IDS": "2"}, "LUDO_SHARD_IDS"),
    ({"LUDO_SHARD_COUNT": "2", "LUDO_SHARD_IDS": "0,0"}, "LUDO_SHARD_IDS"),
    ({"LUDO_SHARD_COUNT": "2", "LUDO_SHARD_IDS": "0;1"}, "LUDO_SHARD_IDS"),
])
def test_bad_shard_settings_name_the_variable(env: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match=named):
        load_settings(env, env_file=None)
