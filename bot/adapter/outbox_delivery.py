"""The outbox deliverer: posts the channel messages moves owe, each exactly once.

A move writes its turn message into the ``outbox`` table in the move's own transaction
(:func:`bot.core.service.outbox.turn_message`). One deliverer per process sends pending rows
in order and marks each sent — with several processes, only the rows of games in its own shards'
guilds (:mod:`bot.core.shards`); at start every row still pending (the process died between
the commit and the post) is sent; a row a failure left pending, or written by another
process, is sent by the periodic pass (:mod:`bot.adapter.periodic`), in order. A post
carries the row's nonce with ``enforce_nonce``, so Discord answers a second post of the same
row (sent just before a crash, again after it) with the first message instead of a duplicate.

The message is built at delivery: text and board image in the channel's language, one rule
for both (:func:`bot.adapter.replies.public_locale`). Besides turn messages, the outbox
carries what the deadline pass owes: public notices (a missed deadline, an abandoned seat)
and messages to one player (a warning, "you're next": by DM when asked, a mention in the
channel when DMs are closed), each written in the transaction of the state change that
causes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Any

import discord

from bot.adapter import replies
from bot.adapter.client import LudoBot
from bot.adapter.components import turn_message_view
from bot.core import messages
from bot.core.deadlines import stamp
from bot.core.errors import ServiceError
from bot.core.i18n import t
from bot.core.service.outbox import ANNOUNCEMENT, NOTICE, TURN_MESSAGE
from bot.core.storage.base import OutboxRow
from engines.base import Event

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 20  # then give the message up (logged), so one row cannot block the rest


class Deliverer:
    def __init__(self, bot: LudoBot) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self._closed = False

    def kick(self) -> asyncio.Task[None] | None:
        """Deliver what is pending, in the background (one delivery task at a time)."""
        if self._closed:
            return None
        self._again = True
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="outbox")
        return self._task

    async def flush(self) -> None:
        """Deliver what is pending now and wait for it (a move's caller keeps its order:
        the turn message goes out before the next move is taken up)."""
        task = self.kick()
        # Before the gateway is ready (a deadline pass in ``setup_hook``) nothing can be
        # sent yet: waiting would hold up the start itself. The rows go out once ready.
        if task is not None and self.bot.is_ready():
            await asyncio.shield(task)

    async def retry(self) -> None:
        """The periodic pass (:mod:`bot.adapter.periodic`): send what a failure left
        pending, in order."""
        self.kick()

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        # Before the gateway is ready the guilds' languages are unknown.
        await self.bot.wait_until_ready()
        while self._again and not self._closed:
            self._again = False
            try:
                await self._deliver_pending()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("outbox delivery failed; the periodic pass retries it")
                return

    async def _deliver_pending(self) -> None:
        repo = self.bot.service.repo
        # Its own guilds' rows, claimed: a row another process is posting is left to it
        # (docs/STORAGE.md).
        while rows := await repo.claim_outbox(self.bot.service.clock(),
                                                 shards=self.bot.served):
            undelivered = list(rows)
            try:
                while undelivered and await self._deliver(undelivered[0]):
                    undelivered.pop(0)
            finally:  # a failed post gives its rows back: any process's next pass retries
                for row in undelivered:
                    await repo.release_outbox(row.id)
            if undelivered:
                return  # kept, in order, for the periodic pass

    async def _deliver(self, row: OutboxRow) -> bool:
        """Send one row; False when it should be tried again later (order is kept)."""
        repo, now = self.bot.service.repo, self.bot.service.clock
        if row.attempts >= MAX_ATTEMPTS:
            log.error("outbox %d (game %d v%d) given up after %d attempts", row.id,
                      row.game_id, row.version, row.attempts)
            await repo.outbox_done(row.id, now=now(), failure="attempts")
            return True
        await repo.outbox_attempt(row.id)
        try:
            message = await self._send(row)
        except (discord.NotFound, discord.Forbidden) as err:  # channel gone, or no right
            log.warning("outbox %d: cannot post in the channel of game %d: %s", row.id,
                        row.game_id, err)
            await repo.outbox_done(row.id, now=now(), failure=f"{type(err).__name__}")
            return True
        except ServiceError as err:  # the game is gone
            log.warning("outbox %d: %s", row.id, err)
            await repo.outbox_done(row.id, now=now(), failure=type(err).__name__)
            return True
        except (TimeoutError, discord.HTTPException, OSError) as err:
            log.warning("outbox %d (game %d v%d): post failed (%s); retried by the periodic "
                        "pass", row.id, row.game_id, row.version, err)
            return False
        await repo.outbox_done(row.id, now=now(), message_id=message.id)
        log.info("outbox %d: game %d v%d posted as message %d", row.id, row.game_id,
                 row.version, message.id)
        if not self.bot.served.everything:  # the move may have been taken by another
            self.bot.schedule_ai(row.game_id)  # process, which leaves AI turns to this one
        return True

    async def _direct(self, row: OutboxRow, game_id: int,
                      public: str) -> discord.Message | None:
        """A notice by DM, in the player's own language; None when DMs are closed (the
        channel mention is the fallback)."""
        user_id = int(row.payload["user"])
        locale = self.bot.user_locales.get(user_id) or public
        event = Event.from_dict(row.payload["message"])
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            return await user.send(messages.clip(t(event.key, locale, **event.params)),
                                   view=turn_message_view(game_id, locale), nonce=row.nonce)
        except (discord.Forbidden, discord.NotFound) as err:
            log.info("outbox %d: DM %s to %d failed (%s): in the channel instead", row.id,
                     event.key, user_id, err)
            return None

    async def _send(self, row: OutboxRow) -> discord.Message:
        if row.kind not in (TURN_MESSAGE, ANNOUNCEMENT, NOTICE):
            raise ServiceError(f"unknown outbox kind {row.kind!r}")
        bot = self.bot
        game = await bot.service.get(row.game_id)
        locale = await replies.public_locale(bot, game.guild_id)
        payload: dict[str, Any] = dict(row.payload)
        if row.kind == NOTICE and payload["dm"]:
            sent = await self._direct(row, game.id, locale)
            if sent is not None:
                return sent
        channel = bot.get_channel(game.channel_id) or await bot.fetch_channel(game.channel_id)
        if row.kind == ANNOUNCEMENT:  # a notice: text only, no one pinged
            return await channel.send(  # type: ignore[union-attr]
                content=messages.clip(t(payload["key"], locale, **payload["params"])),
                allowed_mentions=discord.AllowedMentions.none(), nonce=row.nonce)
        if row.kind == NOTICE:  # to one player, in the channel: they are pinged
            event = Event.from_dict(payload["message"])
            return await channel.send(  # type: ignore[union-attr]
                content=messages.clip(t(event.key, locale, **event.params)),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(payload["user"])], roles=False, everyone=False),
                nonce=row.nonce)
        names = [s.name for s in game.seats]
        awaited = [game.seat(s) for s in payload["awaited"]]
        lines = []
        if payload.get("started"):
            lines.append(t("ui.started", locale, game=t(f"{game.game_key}.name", locale),
                           players=", ".join(names)))
        events = [Event.from_dict(e) for e in payload["events"]]
        account = messages.account(events, messages.spec_of(game), names, locale)
        if account:
            lines.append(account)
        if payload["over"]:
            result = bot.service.final_result(game, payload["state"])
            if result is not None:  # a final state always has standings
                lines.append(messages.standings(game, result, locale))
        elif awaited:
            lines.append(t("ui.next", locale,
                           players=messages.mentions(game, [s.seat for s in awaited])))
            deadlines = payload.get("deadlines") or {}
            if deadlines:
                lines.append(t("deadline.turn_due", locale,
                               deadline=stamp(min(deadlines.values()))))
        image = await bot.service.turn_board(game, payload["state"], locale,
                                             version=row.version)
        kwargs: dict[str, Any] = {
            "content": messages.clip("\n".join(lines)) or None,
            "allowed_mentions": discord.AllowedMentions(
                users=[discord.Object(s.user_id) for s in awaited if s.user_id is not None],
                roles=False, everyone=False),
            "nonce": row.nonce,  # discord.py adds enforce_nonce: a repeat is not a duplicate
        }
        if image is not None:
            kwargs["file"] = discord.File(io.BytesIO(image), filename=f"{game.game_key}.png")
        if not payload["over"]:
            kwargs["view"] = turn_message_view(game.id, locale)
        return await channel.send(**kwargs)  # type: ignore[union-attr]
