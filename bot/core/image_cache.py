"""Rendered images kept by what they depend on, so a crowd asking for one board costs one drawing.

An image of a game depends only on (game, version, viewer, locale) — plus the seat names
drawn on it, which a takeover changes without a new version — so it never goes stale: a move
makes a new version, hence a new key. The cache keeps the most recently used images within a
byte budget, and concurrent requests for a key that is being drawn wait for that one drawing
(single-flight) instead of starting their own.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable

from bot.core.futures import mark_seen

DEFAULT_MAX_BYTES = 48 * 2 ** 20  # ~700 boards of ~70 kB
ENTRY_OVERHEAD = 200  # bytes counted per entry besides the image (key, bookkeeping)


class ImageCache:
    """PNG bytes by key: least recently used evicted beyond ``max_bytes``; one drawing per key.

    ``draws`` counts drawings started and ``hits`` answers served without drawing (stored or
    shared with a drawing in flight): the tests and the benchmark read them.
    """

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.draws = 0
        self.hits = 0
        self._entries: OrderedDict[Hashable, bytes] = OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    async def get(self, key: Hashable, draw: Callable[[], Awaitable[bytes]]) -> bytes:
        """The image of ``key``, drawn by ``draw()`` only if nobody has drawn or is drawing it.

        A failed drawing is not kept: every request waiting on it gets the error and the next
        one draws again. A waiter that is cancelled does not cancel the drawing of the others.
        """
        data = self._entries.get(key)
        if data is not None:
            self._entries.move_to_end(key)
            self.hits += 1
            return data
        pending = self._drawing.get(key)
        if pending is None:
            self.draws += 1
            pending = asyncio.ensure_future(self._draw(key, draw))
            pending.add_done_callback(mark_seen)  # no "exception never retrieved" if all left
            self._drawing[key] = pending
        else:
            self.hits += 1
        return await asyncio.shield(pending)

    async def _draw(self, key: Hashable, draw: Callable[[], Awaitable[bytes]]) -> bytes:
        try:
            data = await draw()
            self._store(key, data)
            return data
        finally:
            del self._drawing[key]

    def _store(self, key: Hashable, data: bytes) -> None:
        cost = len(data) + ENTRY_OVERHEAD
        if cost > self.max_bytes:
            return  # larger than the whole budget: served, never kept
        self._entries[key] = data
        self.size += cost
        while self.size > self.max_bytes:
            _, evicted = self._entries.popitem(last=False)
            self.size -= len(evicted) + ENTRY_OVERHEAD

    def clear(self) -> None:
        self._entries.clear()
        self.size = 0
