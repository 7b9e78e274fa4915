"""The game service: every game operation the front ends need, without Discord.

One call does load -> check the player -> apply -> save -> render, and returns plain records
(:mod:`bot.core.models`). The service is the only writer of games, so its invariants hold for
every front end (slash commands, buttons, the demo, tests):

* a move is durable before anyone hears of it (one transaction: log row + snapshot);
* a per-game ``asyncio.Lock`` serialises calls in this process and the storage version check
  guards against other processes: two identical clicks apply once; the second gets
  :class:`~bot.core.errors.StaleVersion` (with ``expected_version``) or the engine's own error;
* the public channel only ever sees spectator views, and hears of a turn once, when it ends
  (``MoveResult.turn_completed``) with all the public events of that turn;
* rules errors (:class:`engines.base.GameError`) pass through unchanged; everything else is a
  :class:`bot.core.errors.ServiceError` with a translation key.

The operations live in one module per kind, each a part of :class:`GameService` sharing
:class:`~bot.core.service.base.ServiceBase` (one repository, clock and set of game locks):

* :mod:`~bot.core.service.lobby` — create, join, leave, AI seats, start, cancel, import;
* :mod:`~bot.core.service.moves` — a player's move, a move on timeout, the AI seats' moves;
* :mod:`~bot.core.service.undo_votes` — the table's votes and undo;
* :mod:`~bot.core.service.clocks` — deadline policies, pauses, vacations, abandoned seats;
* :mod:`~bot.core.service.reads` — panels, views, boards, the log, a player's games;
* :mod:`~bot.core.service.preferences` — a server's and a player's settings;
* :mod:`~bot.core.service.outbox` — the messages a change owes, written with it.
"""

from __future__ import annotations

from bot.core.service.clocks import Clocks
from bot.core.service.lobby import Lobby
from bot.core.service.moves import Moves
from bot.core.service.preferences import Preferences
from bot.core.service.reads import Reads
from bot.core.service.undo_votes import UndoVotes

__all__ = ["GameService"]


class GameService(Lobby, Moves, UndoVotes, Clocks, Reads, Preferences):
    """Every game operation, reached as ``service.<operation>``; each is defined once, in
    the part named after what it does."""
