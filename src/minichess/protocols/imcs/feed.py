"""What happens on the server, as a stream of events that anyone in the same process may
follow: the ``observe`` command, and a web board.

Events are plain frozen dataclasses with :meth:`~Event.to_dict` for JSON. A subscriber gets
the events published after it subscribed, in order, through an async iterator::

    async with server.feed.subscribe(game_id=7) as events:
        async for event in events:
            ...  # GameStarted / MovePlayed / GameEnded of game 7; ends after GameEnded

A subscriber that falls more than ``backlog`` events behind is dropped (its iteration ends
with :class:`FeedOverflow`), so that a slow reader never holds up a game.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass, field
from types import TracebackType


@dataclass(frozen=True)
class Event:
    """Something that happened on the server."""

    def to_dict(self) -> dict:
        """The event as JSON-ready data, with its ``type``."""
        return {"type": type(self).__name__, **asdict(self)}


@dataclass(frozen=True)
class GameStarted(Event):
    """A game began (``state`` is Massey's state text of the start position)."""

    game_id: int
    variant: str
    white: str
    black: str
    white_rating: int
    black_rating: int
    white_ms: int
    black_ms: int
    fen: str
    state: str
    tournament: int | None = None
    round: int | None = None


@dataclass(frozen=True)
class MovePlayed(Event):
    """A move was played: ``move`` as IMCS writes it, ``san``, the position after it and both
    clocks (milliseconds); ``uci`` the move in the project's coordinates (``a5a6q``)."""

    game_id: int
    ply: int
    move: str
    san: str
    fen: str
    state: str
    white_ms: int
    black_ms: int
    uci: str = ""


@dataclass(frozen=True)
class GameEnded(Event):
    """A game ended: ``result`` (``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` when aborted), how,
    the text both players got (``W wins on opponent time``) and the ratings after it."""

    game_id: int
    result: str
    termination: str
    reason: str
    lines: tuple[str, ...] = ()
    """The lines the players got at the end (``= ...`` and ``231 ...``); none if aborted."""
    white_rating: int | None = None
    black_rating: int | None = None
    white_ms: int | None = None
    """Both clocks at the end (milliseconds)."""
    black_ms: int | None = None


@dataclass(frozen=True)
class RatingsChanged(Event):
    """Ratings in ``variant`` changed: the new rating of each player named."""

    variant: str
    ratings: dict[str, int] = field(default_factory=dict)


class FeedOverflow(Exception):
    """The subscriber read too slowly and was dropped."""


_OVERFLOW = object()
_END = object()


class Subscription:
    """The events of a feed from now on (only those of ``game_id``, when given), as an async
    iterator; a game's subscription ends after its GameEnded, any after :meth:`close`."""

    def __init__(self, feed: Feed, game_id: int | None, backlog: int) -> None:
        self._feed = feed
        self.game_id = game_id
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._backlog = backlog
        self._closed = False
        self._done = False

    def _offer(self, event: Event) -> None:
        if self.game_id is not None and getattr(event, "game_id", None) != self.game_id:
            return
        if self._queue.qsize() >= self._backlog:
            self._queue.put_nowait(_OVERFLOW)
            self._closed = True
            self._feed._remove(self)
            return
        self._queue.put_nowait(event)

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Event:
        if self._done:
            raise StopAsyncIteration
        item = await self._queue.get()
        if item is _END:
            self._done = True
            raise StopAsyncIteration
        if item is _OVERFLOW:
            self._done = True
            raise FeedOverflow(f"more than {self._backlog} events behind")
        if self.game_id is not None and isinstance(item, GameEnded):
            self._done = True
            self.close()
        return item  # type: ignore[return-value]

    def close(self) -> None:
        """Stop receiving events: the iteration ends after the events already queued."""
        if not self._closed:
            self._closed = True
            self._feed._remove(self)
            self._queue.put_nowait(_END)

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: TracebackType | None) -> None:
        self.close()


class Feed:
    """Publishes events to its subscribers (all in one event loop)."""

    def __init__(self) -> None:
        self._subscribers: list[Subscription] = []

    def subscribe(self, game_id: int | None = None, backlog: int = 1000) -> Subscription:
        """A new subscription to every event, or to those of one game."""
        subscription = Subscription(self, game_id, backlog)
        self._subscribers.append(subscription)
        return subscription

    def publish(self, event: Event) -> None:
        """Hand ``event`` to every subscriber (never waits)."""
        for subscriber in list(self._subscribers):
            subscriber._offer(event)

    def _remove(self, subscription: Subscription) -> None:
        if subscription in self._subscribers:
            self._subscribers.remove(subscription)

    @property
    def subscribers(self) -> int:
        """Number of subscriptions."""
        return len(self._subscribers)
