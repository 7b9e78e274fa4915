"""``python -m bot``: start the bot with the settings from the environment / ``.env``."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.core.settings import MissingToken, SettingsError, load_settings


def main() -> int:
    try:
        settings = load_settings()
        token = settings.require_token()
    except MissingToken:
        sys.stderr.write("DISCORD_TOKEN is not set: put your bot token in .env or the "
                         "environment (see .env.example), or run `make demo` to watch a "
                         "game without Discord.\n")
        return 2
    except SettingsError as err:
        sys.stderr.write(f"{err}\n")
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    from bot.adapter.app import build_bot

    async def run() -> None:
        bot = await build_bot(settings)
        async with bot:
            await bot.start(token)

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except Exception as err:  # e.g. an invalid token: one line, details in the log
        logging.getLogger("bot").debug("fatal", exc_info=True)
        sys.stderr.write(f"The bot stopped: {type(err).__name__}: {err}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
