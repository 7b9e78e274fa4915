"""Every registered game speaks both languages: each message key its engine emits or shows
in seeded random games — events, menu labels and effect lines, select options, end-of-game
details, option descriptions, nested messages — is in the English and French catalogues.
The per-game locale tests keep only what this cannot see (keys named in error checks)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.ai import random_action
from engines.base import TURN_END, Engine, Event, Message, MultiChoice

ROOT = Path(__file__).resolve().parents[2]
MAX_STEPS = 20_000  # a random game of any registered game ends well within this


def catalogue(key: str, loc: str) -> dict[str, Any]:
    """The game's catalogue and the shared error catalogue of ``loc``."""
    found: dict[str, Any] = {}
    for name in (key, "errors"):
        found |= json.loads((ROOT / "bot" / "locales" / loc / f"{name}.json").read_text("utf-8"))
    return found


def keys_of(message: Message | Event | None) -> set[str]:
    """A message's key and those of the messages nested in its parameters."""
    if message is None:
        return set()
    keys = {message.key}
    for value in dict(message.params).values():
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(v, Message):
                keys |= keys_of(v)
    return keys


def played_keys(engine: Engine[Any], games: int) -> set[str]:
    """The keys a few seeded random games of every player count emit or show."""
    spec = engine.spec
    used: set[str] = set()
    for option in spec.options:
        used |= keys_of(option.description)
    for n in range(spec.min_players, spec.max_players + 1):
        for seed in range(games):
            rng = random.Random(seed)
            s = engine.new_game(n, seed)
            for _ in range(MAX_STEPS):
                if engine.is_over(s):
                    break
                seat = rng.choice(sorted(engine.active_players(s)))
                for c in engine.choices(s, seat):
                    used |= keys_of(c.label) | keys_of(c.description)
                    if isinstance(c, MultiChoice):
                        for m in c.option_labels:
                            used |= keys_of(m)
                out = engine.apply(s, seat, random_action(engine, s, seat, rng))
                for e in out.events:
                    used |= keys_of(e)
                s = out.state
            result = engine.result(s)
            assert result is not None, f"{spec.key}: random game {n}/{seed} did not end"
            for m in result.details:
                used |= keys_of(m)
    used.discard(TURN_END)  # rendered by the bot, not a catalogue key
    return used


@pytest.mark.parametrize("key", [e.key for e in registry.entries()])
def test_every_played_key_is_in_both_catalogues(key: str) -> None:
    engine = registry.get(key)
    used = played_keys(engine, games=2)
    assert any(k.startswith(f"{key}.ev.") for k in used)  # the games did play
    for loc in ("en", "fr"):
        known = catalogue(key, loc)
        assert {f"{key}.name", f"{key}.rules"} <= set(known), loc
        assert 0 < len(known[f"{key}.rules"]) <= 1800, loc  # a summary fits one message
        missing = sorted(k for k in used if k not in known)
        assert not missing, (loc, missing)
