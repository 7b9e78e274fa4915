"""Futures whose awaiter may be gone (cancelled): their outcome is marked as seen, so an
error that belongs to that awaiter is not logged again as "exception never retrieved"."""

from __future__ import annotations

import asyncio
from typing import Any


def mark_seen(future: asyncio.Future[Any]) -> None:
    """A done-callback: retrieve the outcome (the awaiters, if any, still get it)."""
    if not future.cancelled():
        future.exception()
