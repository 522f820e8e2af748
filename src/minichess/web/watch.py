"""Outside sources of games to watch, beside the web app's own engine games.

A feed is anything with a ``name``, a ``describe()`` that returns its state as JSON (live games,
finished games, ratings) and an async iterator ``updates()`` of changes. The IMCS server, when it
runs in the same process (``minichess serve --imcs-port``), is meant to be one: its observer
feed adapted to this interface and registered with :meth:`WatchFeeds.register`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from minichess.errors import MinichessError


class WatchFeed(Protocol):
    """A source of games to watch."""

    name: str

    def describe(self) -> dict:
        """The feed's state as JSON: its live and finished games, its ratings."""
        ...

    def updates(self) -> AsyncIterator[dict]:
        """Each change as JSON, as it happens."""
        ...


class UnknownFeed(MinichessError):
    """No feed has that name."""


class WatchFeeds:
    """The registered feeds, by name."""

    def __init__(self) -> None:
        self._feeds: dict[str, WatchFeed] = {}

    def register(self, feed: WatchFeed) -> None:
        """Add ``feed`` (replacing one of the same name)."""
        self._feeds[feed.name] = feed

    def get(self, name: str) -> WatchFeed:
        """The feed called ``name``; UnknownFeed when there is none."""
        if name not in self._feeds:
            raise UnknownFeed(f"no watch feed {name!r} (feeds: {', '.join(self._feeds) or 'none'})")
        return self._feeds[name]

    def describe(self) -> list[dict]:
        """Every feed's state, with its name."""
        return [{"name": name, **feed.describe()} for name, feed in self._feeds.items()]
