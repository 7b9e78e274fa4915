"""Replays, export and import (bot/core/history.py) for every registered game: a replay of the
effective log gives the stored snapshot at every step, and export -> import reproduces the
game exactly (same final state, same log)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.core import errors
from bot.core.history import (
    MAX_IMPORT_BYTES,
    History,
    digest,
    sample,
    sign,
)
from bot.core.i18n import t
from bot.core.replay import effective, state_at, states
from bot.core.service import GameService
from engines import registry
from tests.bot.conftest import both_backends
from tests.bot.playout import USERS, new_table, play_out

GAMES = sorted(registry.games())


async def _finished(service: GameService, key: str, seed: int = 11) -> int:
    game_id = await new_table(service, key, 2, seed=seed)
    await play_out(service, game_id, seed=seed, undo_every=7)
    assert (await service.get(game_id)).status == "finished"
    return game_id


@both_backends  # the whole log written back by import_game, read by history
@pytest.mark.parametrize("key", GAMES)
async def test_export_import_reproduces_the_game(service: GameService, key: str) -> None:
    game_id = await _finished(service, key)
    history = History(service)
    rows = await service.repo.history(game_id)
    assert any(r.is_undo for r in rows)  # the playout took some moves back
    data = await history.export(game_id)
    document = json.loads(data)
    assert document["seed"] == (await service.get(game_id)).seed
    copy = await history.import_game(data, guild_id=2, channel_id=900, user_id=USERS[1])
    assert copy.id != game_id and copy.status == "finished" and copy.guild_id == 2
    original, imported = (await service.repo.load_game(game_id),
                          await service.repo.load_game(copy.id))
    assert original is not None and imported is not None
    assert imported[1] == original[1]  # identical final state
    copied_rows = await service.repo.history(copy.id)
    assert [(r.seq, r.seat, r.action, r.rewind_to, r.undone, r.irreversible, r.public)
            for r in copied_rows] == [
        (r.seq, r.seat, r.action, r.rewind_to, r.undone, r.irreversible, r.public) for r in rows]
    again = json.loads(await history.export(copy.id))
    for field in ("log", "seed", "options", "seats", "state_sha256", "status", "game"):
        assert again[field] == document[field]
    assert await service.repo.is_imported(copy.id)
    assert not await service.ratings.rate_game(copy.id)  # imported games are never rated


@pytest.mark.parametrize("key", GAMES)
async def test_replay_matches_every_snapshot(service: GameService, key: str) -> None:
    game_id = await new_table(service, key, 2, seed=5)
    snapshots = []
    for _ in range(25):
        loaded = await service.repo.load_game(game_id)
        assert loaded is not None
        snapshots.append(loaded[1])
        await play_out(service, game_id, seed=len(snapshots), max_moves=1)
    game, engine, moves = await History(service).moves(game_id)
    replayed = [engine.to_dict(s) for s in states(engine, game, moves)]
    assert replayed[:len(snapshots)] == snapshots  # no undo here: version = position
    again = [digest(engine, s) for s in states(engine, game, moves)]
    assert again == [digest(engine, engine.from_dict(d)) for d in replayed]  # deterministic
    frame = await History(service).frame(game_id, 3, "en")
    assert frame.position == 3 and frame.move == moves[2]
    assert frame.view == engine.view(state_at(engine, game, moves, 3), None)
    assert frame.image is not None and frame.image.startswith(b"PNG")  # the fake renderer


async def test_tampered_or_running_exports_are_refused(service: GameService) -> None:
    game_id = await new_table(service, "havana", 2, seed=3)
    history = History(service)
    with pytest.raises(errors.ServiceError) as err:  # the seed would tell future cards
        await history.export(game_id)
    assert err.value.key == "history.export_running"
    await service.cancel(game_id, USERS[0], is_admin=True)
    document = json.loads(await history.export(game_id))
    assert document["status"] == "cancelled"
    copy = await history.import_game(json.dumps(document).encode(), guild_id=1,
                                     channel_id=501, user_id=USERS[0])
    assert copy.status == "cancelled"
    document["seed"] += 1  # another seed: the signature no longer matches
    with pytest.raises(errors.ServiceError) as err:
        await history.import_game(json.dumps(document).encode(), guild_id=1, channel_id=501,
                                  user_id=USERS[0])
    assert err.value.key == "history.import_tampered"
    resigned = sign(document, await history.signing_key())  # even signed by the bot itself,
    with pytest.raises(errors.ServiceError) as err:  # another game: the digest differs
        await history.import_game(json.dumps(resigned).encode(), guild_id=1, channel_id=501,
                                  user_id=USERS[0])
    assert err.value.key == "history.import_mismatch"
    for bad in (b"not json", b"[]", json.dumps({"format": "other"}).encode()):
        with pytest.raises(errors.ServiceError):
            await history.import_game(bad, guild_id=1, channel_id=501, user_id=USERS[0])


async def test_history_pages_and_resolve(service: GameService) -> None:
    history = History(service)
    ids = []
    for n in range(3):
        game_id = await new_table(service, "race", 2, seed=n, channel_id=600 + n)
        await play_out(service, game_id, seed=n)
        ids.append(game_id)
    page = await history.ended_games(1, 0, size=2)
    assert page.total == 3 and page.pages == 2 and len(page.games) == 2
    assert {g.id for g in page.games} | {g.id for g in (await history.ended_games(1, 1, 2)).games} \
        == set(ids)
    assert (await history.resolve(guild_id=1, channel_id=601)).id == ids[1]
    with pytest.raises(errors.ServiceError):  # another server's game is not shown
        await history.resolve(guild_id=2, channel_id=1, game_id=ids[0])
    log = await history.log_page(ids[0], None, size=4)
    assert log.page == log.pages - 1 and 0 < len(log.rows) <= 4
    assert [g.id for g in await history.search(1, "#" + str(ids[2]))] == [ids[2]]


def test_sample_keeps_ends() -> None:
    assert sample(list(range(100)), 5) == [0, 25, 50, 74, 99]
    assert sample([0, 1, 2], 10) == [0, 1, 2]
    assert effective([]) == []


@pytest.mark.parametrize("key", GAMES)
async def test_animated_replay_fits_discord(service: GameService, key: str) -> None:
    import importlib.util

    from bot.core.history import animation
    from renderers.animation import DISCORD_LIMIT

    if importlib.util.find_spec(f"renderers.{key}") is None:
        pytest.skip(f"{key} has no renderer")
    game_id = await _finished(service, key, seed=4)
    made = await animation(History(service), game_id, "fr")
    assert made.data[:6] == b"GIF89a" and made.frames > 2
    assert len(made.data) < min(DISCORD_LIMIT, 4 * 1024 * 1024)
    print(f"\n{key}: {made.frames} frames, {len(made.data)} bytes, {made.seconds:.2f} s")


# ------------------------------------------------------------------ hostile imports

async def _export(service: GameService, seed: int = 11) -> tuple[History, dict[str, Any]]:
    game_id = await _finished(service, "havana", seed)
    history = History(service)
    return history, json.loads(await history.export(game_id))


async def _refusal(history: History, data: bytes) -> str:
    before = await history.repo.count_games()
    with pytest.raises(errors.ServiceError) as err:
        await history.import_game(data, guild_id=1, channel_id=777, user_id=USERS[0])
    assert await history.repo.count_games() == before  # nothing stored
    assert t(err.value.key, "en", **err.value.params) != err.value.key  # a translated text
    return err.value.key


async def test_forged_exports_are_refused(service: GameService) -> None:
    """A genuine export with its seats given to other users (or any other change) is refused:
    exports carry an HMAC signature by a key only this bot holds."""
    history, document = await _export(service)
    assert len(document["signature"]) == 64
    forged = json.loads(json.dumps(document))
    forged["seats"][0]["user_id"], forged["seats"][1]["user_id"] = 555, 556
    assert await _refusal(history, json.dumps(forged).encode()) == "history.import_tampered"
    unsigned = {k: v for k, v in document.items() if k != "signature"}
    assert await _refusal(history, json.dumps(unsigned).encode()) == "history.import_unsigned"
    other_key = sign(forged, b"another bot's key" * 2)
    assert await _refusal(history, json.dumps(other_key).encode()) == "history.import_tampered"
    key = await history.signing_key()
    assert key == await history.signing_key() and len(key) == 32  # made once, then kept


async def test_imported_games_count_nowhere(service: GameService) -> None:
    history, document = await _export(service)
    players = [s["user_id"] for s in document["seats"]]
    before = {u: (await service.reliability(u)).finished for u in players}
    copy = await history.import_game(json.dumps(document).encode(), guild_id=2,
                                     channel_id=901, user_id=USERS[2])
    assert copy.imported and copy.status == "finished"
    assert {u: (await service.reliability(u)).finished for u in players} == before
    assert not await service.ratings.rate_game(copy.id)
    for user in players:  # only the original game was rated
        assert all(r.games <= 1 for r in await service.ratings.profile(user, 0))
    assert [g.imported for g in (await history.ended_games(2)).games] == [True]


@pytest.mark.parametrize("field,value,key", [
    ("seed", 10 ** 30, "history.import_big_number"),
    ("seed", -1, "history.import_invalid"),
    ("options", {"unknown": 1}, "service.unknown_option"),
    ("exported_at", -5.0, "history.import_not_finite"),
])
async def test_signed_but_invalid_fields_are_refused(service: GameService, field: str,
                                                     value: Any, key: str) -> None:
    """Even a file signed by this bot is validated field by field (seeds and ids within 64
    bits, known options, finite times), before any replay."""
    history, document = await _export(service)
    document[field] = value
    text = json.dumps(sign(document, await history.signing_key()))
    assert await _refusal(history, text.encode()) == key


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "bad\x00name", "line\nbreak"])
async def test_seat_names_are_validated(service: GameService, name: str) -> None:
    history, document = await _export(service)
    document["seats"][1]["name"] = name
    text = json.dumps(sign(document, await history.signing_key()))
    assert await _refusal(history, text.encode()) == "history.import_invalid"


async def test_hostile_files_get_a_clear_refusal(service: GameService) -> None:
    history, document = await _export(service)
    body = json.dumps(document)
    hostile = {
        "history.import_nested": ("[" * 100_000 + "]" * 100_000).encode(),
        "history.import_big_number": ('{"seed": ' + "9" * 5000 + "}").encode(),
        "history.import_not_finite": body.replace('"at": ', '"at": 1e999, "x": ', 1).encode(),
        "history.import_invalid": b"\xff\xfe not utf-8",
        "history.import_too_big": b" " * (MAX_IMPORT_BYTES + 1),
    }
    for key, data in hostile.items():
        assert await _refusal(history, data) == key, key
    for constant in ("NaN", "Infinity", "-Infinity"):
        data = body.replace('"at": ', f'"at": {constant}, "x": ', 1).encode()
        assert await _refusal(history, data) == "history.import_not_finite"
    beyond = json.loads(body)
    beyond["seats"][0]["user_id"] = 2 ** 64
    assert await _refusal(history, json.dumps(beyond).encode()) == "history.import_big_number"


async def test_a_large_import_of_take_backs_is_replayed_linearly(service: GameService) -> None:
    """Thousands of take-backs at the end of a long log (the file that took 110 s when every
    undo entry rebuilt a set of the live entries): imported whole and exact, with the replay
    snapshots of its effective moves."""
    from bot.bench_history import inflate

    game_id = await new_table(service, "havana", 2, seed=21)
    await play_out(service, game_id, seed=21, max_moves=90)
    await service.cancel(game_id, USERS[0], is_admin=True)
    history = History(service)
    document = json.loads(await history.export(game_id))
    unsigned = {k: v for k, v in document.items() if k != "signature"}
    big = sign(inflate(unsigned, 600_000), await history.signing_key())
    assert len(big["log"]) > len(document["log"]) + 5_000
    copy = await history.import_game(json.dumps(big).encode(), guild_id=1, channel_id=990,
                                     user_id=USERS[0])
    original = await service.get(game_id)
    assert copy.moves == original.moves and copy.version == len(big["log"])
    loaded, again = await service.repo.load_game(game_id), await service.repo.load_game(copy.id)
    assert loaded is not None and again is not None and again[1] == loaded[1]
    frame = await history.frame(copy.id, original.moves - 1, "en")
    _game, engine, moves = await history.moves(game_id)
    assert frame.view == engine.view(state_at(engine, original, moves, original.moves - 1),
                                     None)
