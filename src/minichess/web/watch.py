"""Outside sources of games to watch, beside the web app's own engine games.

A feed (:class:`WatchFeed`) is a server whose games the watch page shows: the IMCS server, when
it runs in the same process (``minichess serve --imcs-port``, see
:class:`minichess.protocols.imcs.watch.ImcsWatchFeed`). It speaks JSON:

- a game in a list (a *summary*): ``id`` (text), ``variant``, ``white``, ``black``, their
  ratings before the game and, once it is rated, the changes (``white_rating``,
  ``white_change``, ...), ``result`` (``*`` while it runs or when it was aborted),
  ``termination`` and ``reason`` (how it ended, in words), ``live``, ``started`` and ``ended``
  (Unix seconds), ``plies``, ``tournament`` and ``round``, ``fen`` (the position, for games in
  progress) and ``clock`` (``{"white": s, "black": s, "running": "white" | "black" | null}``,
  seconds left now);
- a whole game: a summary with ``start_fen``, ``initial`` (the clocks at the start), ``moves``
  (coordinates: ``a2a3``) and ``clocks`` (``{"white", "black"}`` after each move);
- ratings: ``{"name", "rating", "games"}``, best first;
- changes: ``{"type": "start", "game": summary}``, ``{"type": "move", "game_id", "ply", "move",
  "clock"}``, ``{"type": "end", "game_id", "game": summary}``, ``{"type": "ratings",
  "variant", "ratings": {name: rating}}``, each stream starting with the state now
  (``{"type": "state", ...}``).

The app adds to a whole game what a board needs (:func:`game_view`: each move's SAN and FEN,
the last move, a check) and follows one game move by move (:func:`follow_game`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from minichess.board import Board
from minichess.errors import MinichessError
from minichess.web.positions import board_view, push, replay


class WatchFeed(Protocol):
    """A source of games to watch (the JSON it speaks: see the module's documentation)."""

    name: str
    """Its name in addresses (``/api/watch/feeds/{name}``)."""

    @property
    def title(self) -> str:
        """What the page calls it."""
        ...

    def describe(self) -> dict:
        """``{"title", "live": [summary], "finished": [summary] (the latest), "ratings": [...]
        (the top), "variants": [...] (those with ratings)}``."""
        ...

    def games(self, limit: int, player: str | None = None) -> list[dict]:
        """The latest ``limit`` finished games (``player``'s only), latest first."""
        ...

    def game(self, game_id: str) -> dict | None:
        """A whole game, in progress or finished; None if there is none."""
        ...

    def pgn(self, game_id: str) -> str | None:
        """A game as PGN; None if there is none."""
        ...

    def ratings(self, variant: str) -> list[dict]:
        """The ratings in ``variant`` (a MinichessError for an unknown variant)."""
        ...

    def updates(self, game_id: str | None = None) -> AsyncIterator[dict]:
        """The state, then each change as it happens (of one game: its moves and its end,
        and then the iteration ends)."""
        ...


class UnknownFeed(MinichessError):
    """No feed has that name."""


class UnknownFeedGame(MinichessError):
    """The feed has no game of that id."""


class WatchFeeds:
    """The registered feeds, by name."""

    def __init__(self) -> None:
        self._feeds: dict[str, WatchFeed] = {}

    def register(self, feed: WatchFeed) -> None:
        """Add ``feed`` (replacing one of the same name)."""
        self._feeds[feed.name] = feed

    def unregister(self, feed: WatchFeed) -> None:
        """Remove ``feed`` (its server has stopped)."""
        if self._feeds.get(feed.name) is feed:
            del self._feeds[feed.name]

    def get(self, name: str) -> WatchFeed:
        """The feed called ``name``; UnknownFeed when there is none."""
        if name not in self._feeds:
            raise UnknownFeed(f"no watch feed {name!r} (feeds: {', '.join(self._feeds) or 'none'})")
        return self._feeds[name]

    def describe(self) -> list[dict]:
        """Every feed's state, with its name."""
        return [{"name": name, **feed.describe()} for name, feed in self._feeds.items()]


def feed_game(feed: WatchFeed, game_id: str) -> dict:
    """The game ``game_id`` of ``feed`` as :func:`game_view` shows it; UnknownFeedGame when
    there is none."""
    game = feed.game(game_id)
    if game is None:
        raise UnknownFeedGame(f"{feed.title} has no game {game_id!r}")
    return game_view(game)


def game_view(game: dict) -> dict:
    """A feed's whole game with, for a board: each move's SAN, FEN and clocks (``history``),
    the position now, the side to move, a check and the last move."""
    return _view_and_board(game)[0]


def _view_and_board(game: dict) -> tuple[dict, Board]:
    board, history = replay(game["variant"], game["start_fen"], game["moves"])
    for entry, clock in zip(history, game["clocks"], strict=False):
        entry["clock"] = clock
    view = {**game, **board_view(board), "moves": [entry["uci"] for entry in history],
            "history": history}
    return view, board


async def follow_game(feed: WatchFeed, game_id: str) -> AsyncIterator[dict]:
    """The game ``game_id`` as it goes on: ``{"type": "state", "game": view}`` (see
    :func:`game_view`), then each move (``{"type": "move", "ply", "uci", "san", "fen", "check",
    "lastmove", "turn", "clock"}``) and the end (``{"type": "end", "game": summary}``). A move
    that does not follow from the moves seen sends the whole game again."""
    board: Board | None = None
    async for message in feed.updates(game_id):
        kind = message["type"]
        if kind == "move" and board is not None and message["ply"] == len(board.move_stack) + 1:
            try:
                entry = push(board, board.parse_uci(message["move"]))
            except MinichessError:
                board = None
            else:
                yield {"type": "move", "ply": message["ply"], **entry, **board_view(board),
                       "clock": message["clock"]}
                continue
        if kind == "end":
            yield message
        elif kind == "state" or kind == "move":
            game = message.get("game") or feed.game(game_id)
            if game is None:
                return
            view, board = _view_and_board(game)
            yield {"type": "state", "game": view}
