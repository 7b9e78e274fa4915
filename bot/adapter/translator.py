"""Localised command names and descriptions through discord.py's ``Translator``.

Commands are declared with :func:`L` (English text + catalogue key); Discord receives the
French form from ``bot/locales/fr/commands.json`` at sync time.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.core.i18n import catalogue

_DISCORD_TO_OURS = {discord.Locale.french: "fr"}


def L(english: str, key: str) -> app_commands.locale_str:  # noqa: N802 - reads like a marker
    """A translatable command string: ``english`` is what Discord shows by default."""
    return app_commands.locale_str(english, key=key)


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        ours = _DISCORD_TO_OURS.get(locale)
        key = string.extras.get("key")
        if ours is None or key is None:
            return None
        entry = catalogue(ours).get(key)
        return entry if isinstance(entry, str) else None
