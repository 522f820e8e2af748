"""The IMCS server as a feed of the web app's watch page (a
:class:`minichess.web.watch.WatchFeed`): its games in progress, its latest finished games and its
ratings as JSON, and each event as it happens.

    feed = ImcsWatchFeed(server)        # a started ImcsServer in the web app's event loop
    create_app(..., feeds=[feed])       # or WatchFeeds.register(feed)
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import asdict

from minichess.protocols.imcs.server import ImcsServer

DEFAULT_VARIANT = "minitchess"


class ImcsWatchFeed:
    """The games and ratings of ``server`` for watchers (``finished``: how many of the latest
    finished games :meth:`describe` lists)."""

    name = "imcs"

    def __init__(self, server: ImcsServer, finished: int = 20) -> None:
        self.server = server
        self.finished = finished

    def describe(self) -> dict:
        """``{"live": [...], "finished": [...], "ratings": [...]}``: the games in progress as
        they stand, the latest finished games, the minitchess ratings, best first."""
        store = self.server.store
        return {
            "live": [game.to_dict() for game in self.server.live_games()],
            "finished": [asdict(row) for row in store.finished_games(self.finished)],
            "ratings": [{"name": name, "rating": rating}
                        for name, rating in store.ratings(DEFAULT_VARIANT)],
        }

    async def updates(self) -> AsyncIterator[dict]:
        """Each event of the server (games starting, moves, ends, rating changes) as JSON."""
        async with self.server.feed.subscribe() as events:
            async for event in events:
                yield event.to_dict()
