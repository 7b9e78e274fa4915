"""Discord's documented payload limits, checked the way the real API would reject them.

The fake Discord runs these checks on every command sync and every message it receives and
answers ``400 Invalid Form Body`` like Discord does, so a limit broken by the bot fails the
end-to-end tests instead of failing in production. The functions return human-readable
problems (empty list = fine) so a test can show all of them at once.

Sources: Discord developer documentation, "Application Commands" (names, descriptions, option
counts), "Message Components" / "Component Reference" (rows, buttons, selects, custom_id),
"Embed Limits" and "Create Message" (content, embeds, files).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
})
MAX_GLOBAL_COMMANDS = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_TOTAL_CHARS = 4000
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
V2_FLAG = 1 << 15
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
SELECT_TYPES = {3, 5, 6, 7, 8}


def valid_name(name: object) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}]{1,32}$``, lowercase where a lowercase form exists."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    if name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)


def _length_ok(text: object, low: int, high: int) -> bool:
    return isinstance(text, str) and low <= len(text) <= high


def _localisations(where: str, data: Mapping[str, Any], problems: list[str]) -> None:
    for key, is_name in (("name_localizations", True), ("description_localizations", False)):
        for locale, text in (data.get(key) or {}).items():
            if locale not in LOCALES:
                problems.append(f"{where}: unknown locale {locale!r} in {key}")
            elif is_name and not valid_name(text):
                problems.append(f"{where}: localised name {text!r} ({locale}) is invalid")
            elif not is_name and not _length_ok(text, 1, 100):
                problems.append(f"{where}: localised description ({locale}) not 1-100 chars")


def _option_problems(where: str, options: list[Mapping[str, Any]], depth: int) -> list[str]:
    problems: list[str] = []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{where}: {len(options)} options (max {MAX_OPTIONS})")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: duplicate option names {names}")
    seen_optional = False
    for option in options:
        path = f"{where} {option.get('name')}"
        kind = option.get("type")
        if not valid_name(option.get("name")):
            problems.append(f"{path}: invalid option name")
        if not _length_ok(option.get("description"), 1, 100):
            problems.append(f"{path}: description not 1-100 chars")
        _localisations(path, option, problems)
        if kind in (SUBCOMMAND, SUBCOMMAND_GROUP):
            if depth >= (1 if kind == SUBCOMMAND_GROUP else 2):
                problems.append(f"{path}: subcommand nested too deep")
            children = option.get("options") or []
            if kind == SUBCOMMAND_GROUP and any(c.get("type") != SUBCOMMAND for c in children):
                problems.append(f"{path}: a group may only hold subcommands")
            problems += _option_problems(path, children, depth + 1)
            continue
        if not isinstance(kind, int) or not 3 <= kind <= 11:
            problems.append(f"{path}: unknown option type {kind!r}")
        if option.get("required"):
            if seen_optional:
                problems.append(f"{path}: required option after an optional one")
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(f"{path}: {len(choices)} choices (max {MAX_CHOICES})")
        if choices and option.get("autocomplete"):
            problems.append(f"{path}: choices and autocomplete are exclusive")
        for choice in choices:
            if not _length_ok(choice.get("name"), 1, 100):
                problems.append(f"{path}: choice name {choice.get('name')!r} not 1-100 chars")
            value = choice.get("value")
            if isinstance(value, str) and not 1 <= len(value) <= 100:
                problems.append(f"{path}: choice value {value!r} not 1-100 chars")
            for locale, text in (choice.get("name_localizations") or {}).items():
                if locale not in LOCALES or not _length_ok(text, 1, 100):
                    problems.append(f"{path}: choice localisation {locale}={text!r} invalid")
        for key in ("min_length", "max_length"):
            if key in option and not 0 <= int(option[key]) <= 6000:
                problems.append(f"{path}: {key} out of 0-6000")
    return problems


def _command_chars(command: Mapping[str, Any]) -> int:
    """Characters counted against the 4000 limit: names, descriptions, choice names/values."""

    def walk(option: Mapping[str, Any]) -> int:
        total = len(option.get("name", "")) + len(option.get("description", ""))
        for choice in option.get("choices") or []:
            total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
        return total + sum(walk(child) for child in option.get("options") or [])

    return walk(command)


def command_problems(commands: Iterable[Mapping[str, Any]], *, guild: bool = False) -> list[str]:
    """Everything Discord would refuse in a bulk-overwrite of application commands."""
    commands = list(commands)
    problems: list[str] = []
    chat_input = [c for c in commands if c.get("type", 1) == 1]
    if len(chat_input) > MAX_GLOBAL_COMMANDS:
        scope = "guild" if guild else "global"
        problems.append(f"{len(chat_input)} {scope} slash commands (max {MAX_GLOBAL_COMMANDS})")
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    if len(set(names)) != len(names):
        problems.append(f"duplicate command names {names}")
    for command in commands:
        where = f"/{command.get('name')}"
        if command.get("type", 1) == 1:
            if not valid_name(command.get("name")):
                problems.append(f"{where}: invalid command name")
            if not _length_ok(command.get("description"), 1, 100):
                problems.append(f"{where}: description not 1-100 chars")
        elif not _length_ok(command.get("name"), 1, 32):
            problems.append(f"{where}: context-menu name not 1-32 chars")
        _localisations(where, command, problems)
        problems += _option_problems(where, list(command.get("options") or []), 0)
        if _command_chars(command) > MAX_COMMAND_TOTAL_CHARS:
            problems.append(f"{where}: more than {MAX_COMMAND_TOTAL_CHARS} characters in total")
    return problems


def _walk_components(components: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), Mapping):
                yield from _walk_components([component[key]])


def _interactive_problems(component: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    kind = component.get("type")
    custom_id = component.get("custom_id")
    label = f"component type {kind} {custom_id!r}"
    if kind == 2:
        if component.get("style") == 5:
            if not component.get("url") or custom_id is not None:
                problems.append(f"{label}: link buttons need a url and no custom_id")
        elif component.get("style") != 6 and not _length_ok(custom_id, 1, MAX_CUSTOM_ID):
            problems.append(f"{label}: custom_id not 1-{MAX_CUSTOM_ID} chars")
        if component.get("label") is not None and len(component["label"]) > 80:
            problems.append(f"{label}: button label over 80 chars")
        bare = not component.get("label") and not component.get("emoji")
        if bare and component.get("style") != 6:
            problems.append(f"{label}: a button needs a label or an emoji")
    elif kind in SELECT_TYPES:
        if not _length_ok(custom_id, 1, MAX_CUSTOM_ID):
            problems.append(f"{label}: custom_id not 1-{MAX_CUSTOM_ID} chars")
        if len(component.get("placeholder") or "") > 150:
            problems.append(f"{label}: placeholder over 150 chars")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high):
            problems.append(f"{label}: min/max values {low}/{high} invalid")
        if kind == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                problems.append(f"{label}: {len(options)} options (1-{MAX_SELECT_OPTIONS})")
            if high > len(options):
                problems.append(f"{label}: max_values {high} > {len(options)} options")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                problems.append(f"{label}: duplicate option values")
            for option in options:
                for key, limit in (("label", 100), ("value", 100)):
                    if not _length_ok(option.get(key), 1, limit):
                        problems.append(f"{label}: option {key} {option.get(key)!r} not 1-{limit}")
                if len(option.get("description") or "") > 100:
                    problems.append(f"{label}: option description over 100 chars")
    return problems


def components_problems(components: list[Mapping[str, Any]], *, v2: bool = False) -> list[str]:
    """Rows, buttons per row, selects, custom_id lengths and uniqueness."""
    problems: list[str] = []
    if not v2 and len(components) > MAX_ACTION_ROWS:
        problems.append(f"{len(components)} action rows (max {MAX_ACTION_ROWS})")
    if not v2 and any(row.get("type") != 1 for row in components):
        problems.append("top-level components must be action rows without the v2 flag")
    every = list(_walk_components(components))
    if v2 and len(every) > 40:
        problems.append(f"{len(every)} components (max 40 with components v2)")
    for row in (c for c in every if c.get("type") == 1):
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if not children:
            problems.append("empty action row")
        elif selects and len(children) > 1:
            problems.append("a select menu must be alone in its action row")
        elif len(children) > MAX_ROW_BUTTONS:
            problems.append(f"{len(children)} buttons in a row (max {MAX_ROW_BUTTONS})")
    ids = [c["custom_id"] for c in every if c.get("custom_id") is not None]
    if len(set(ids)) != len(ids):
        problems.append(f"duplicate custom_ids {ids}")
    for component in every:
        problems += _interactive_problems(component)
    return problems


def embed_problems(embeds: list[Mapping[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{len(embeds)} embeds (max {MAX_EMBEDS})")
    total = 0
    for index, embed in enumerate(embeds):
        parts = {
            "title": (embed.get("title") or "", 256),
            "description": (embed.get("description") or "", 4096),
            "footer": ((embed.get("footer") or {}).get("text") or "", 2048),
            "author": ((embed.get("author") or {}).get("name") or "", 256),
        }
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"embed {index}: {len(fields)} fields (max 25)")
        for field in fields:
            parts[f"field {field.get('name')!r} name"] = (field.get("name") or "", 256)
            parts[f"field {field.get('name')!r} value"] = (field.get("value") or "", 1024)
        for name, (text, limit) in parts.items():
            total += len(text)
            if len(text) > limit:
                problems.append(f"embed {index}: {name} over {limit} chars")
    if total > 6000:
        problems.append(f"embeds total {total} chars (max 6000)")
    return problems


def message_problems(body: Mapping[str, Any], file_sizes: Iterable[int] = ()) -> list[str]:
    """What Discord would refuse in a create/edit message (or interaction response) body."""
    problems: list[str] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(f"content is {len(content)} chars (max {MAX_CONTENT})")
    problems += embed_problems(list(body.get("embeds") or []))
    v2 = bool(int(body.get("flags") or 0) & V2_FLAG)
    problems += components_problems(list(body.get("components") or []), v2=v2)
    if v2 and (content or body.get("embeds")):
        problems.append("components v2 messages cannot have content or embeds")
    sizes = list(file_sizes)
    if len(sizes) > MAX_FILES:
        problems.append(f"{len(sizes)} files (max {MAX_FILES})")
    problems += [f"file of {s} bytes over {MAX_FILE_BYTES}" for s in sizes if s > MAX_FILE_BYTES]
    return problems


def modal_problems(modal: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    if not _length_ok(modal.get("title"), 1, 45):
        problems.append("modal title not 1-45 chars")
    if not _length_ok(modal.get("custom_id"), 1, MAX_CUSTOM_ID):
        problems.append("modal custom_id not 1-100 chars")
    components = list(modal.get("components") or [])
    if not 1 <= len(components) <= 5:
        problems.append(f"modal has {len(components)} top-level components (1-5)")
    for component in _walk_components(components):
        if component.get("type") == 4 and len(component.get("label") or "") > 45:
            problems.append(f"text input {component.get('custom_id')!r}: label over 45 chars")
    return problems
