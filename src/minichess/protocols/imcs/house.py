"""House bots: the engine as a sparring partner that always has an offer open.

A house bot is an ordinary client of the server it belongs to (it connects over the loopback
and speaks the protocol like anyone), so its games are listed, rated, observed and stored like
all others. It keeps one offer open (colour ``?``, the server's house clocks); when someone
takes it, it opens the next one at once, up to ``max_games`` games at a time. Its engine
searches in a thread, off the server's event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from minichess.players import EnginePlayer
from minichess.protocols.imcs.client import (
    GameStart,
    ImcsClient,
    ImcsError,
    OfferCountermanded,
    player_chooser,
)

log = logging.getLogger("minichess.imcs")

RETRY_SECONDS = 1.0


class HouseBot:
    """The engine at ``level`` playing as ``name`` on the server at ``host:port``."""

    def __init__(self, name: str, password: str, level: int, host: str, port: int,
                 times_ms: tuple[int, int], max_games: int = 2) -> None:
        self.name = name
        self.password = password
        self.level = level
        self.host = host
        self.port = port
        self.times_ms = times_ms
        self.max_games = max_games
        self.games: set[asyncio.Task] = set()
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        """Start offering."""
        self._task = asyncio.ensure_future(self._run())

    def stop(self) -> None:
        """Stop offering (games in progress go on until the server ends them)."""
        if self._task is not None:
            self._task.cancel()

    async def wait(self) -> None:
        """Wait for the bot's games to end."""
        with contextlib.suppress(asyncio.CancelledError):
            if self._task is not None:
                await self._task
        if self.games:
            await asyncio.gather(*self.games, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            if len(self.games) >= self.max_games:
                await asyncio.wait(self.games, return_when=asyncio.FIRST_COMPLETED)
                continue
            try:
                client, game_id, start = await self._offer()
            except (ImcsError, OSError) as error:
                if not isinstance(error, OfferCountermanded):
                    log.warning("house bot %s: %s", self.name, error)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            game = asyncio.ensure_future(self._play(client, game_id, start))
            self.games.add(game)
            game.add_done_callback(self.games.discard)

    async def _offer(self) -> tuple[ImcsClient, int, GameStart]:
        client = await ImcsClient.connect(self.host, self.port)
        try:
            await client.login(self.name, self.password)
            own, opponent = (ms // 1000 for ms in self.times_ms)
            game_id = await client.offer("?", own, opponent)
            return client, game_id, await client.wait_for_start()
        except BaseException:
            client.close()
            raise

    async def _play(self, client: ImcsClient, game_id: int, start: GameStart) -> None:
        player = EnginePlayer(level=self.level)
        try:
            report = await client.play(start, player_chooser(player), game_id=game_id)
            log.info("house bot %s: game %d: %s", self.name, game_id, report.text)
        except ImcsError as error:
            log.warning("house bot %s: game %d: %s", self.name, game_id, error)
        finally:
            client.close()
