"""Which process owns which guild's periodic work: Discord's shard rule."""

from __future__ import annotations

import pytest

from bot.core.shards import Shards


def test_discords_rule_places_a_guild_by_its_timestamp_bits() -> None:
    shards = Shards(2, frozenset({1}))
    on_zero, on_one = 6 << 22 | 12345, 7 << 22 | 12345  # the low 22 bits do not count
    assert (shards.shard_of(on_zero), shards.shard_of(on_one)) == (0, 1)
    assert not shards.owns(on_zero) and shards.owns(on_one)
    assert shards.shard_of(None) == 0 and not shards.owns(None)  # no guild: the home shard's
    assert not shards.home and not shards.everything


def test_one_process_owns_everything() -> None:
    for shards in (Shards(), Shards.of_process(None, None), Shards.of_process(3, None)):
        assert shards.everything and shards.home
        assert all(shards.owns(g << 22) for g in range(10)) and shards.owns(None)
    assert Shards.of_process(3, (0, 2)) == Shards(3, frozenset({0, 2}))


@pytest.mark.parametrize(("count", "ids"), [(0, {0}), (2, {2}), (2, set()), (2, {-1})])
def test_impossible_shards_are_refused(count: int, ids: set[int]) -> None:
    with pytest.raises(ValueError):
        Shards(count, frozenset(ids))


def test_the_same_rule_in_sql() -> None:
    import sqlite3

    shards = Shards(3, frozenset({0, 2}))
    condition, values = shards.where("guild_id")
    with sqlite3.connect(":memory:") as db:
        guilds = [None, *(n << 22 | 99 for n in range(12))]
        for guild in guilds:
            row = db.execute(f"SELECT {condition} FROM (SELECT ? AS guild_id)",
                             [*values, guild]).fetchone()
            assert bool(row[0]) == shards.owns(guild), guild
    assert Shards().where("g.guild_id") == ("1 = 1", [])
