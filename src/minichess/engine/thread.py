"""An engine search in a background thread, so that the caller stays free to stop it: the UCI
engine answers ``stop`` and ``isready`` while it searches, ``minichess analyse`` stops it on
Ctrl-C.

>>> from minichess import Board
>>> from minichess.engine import Engine, Limit
>>> depths = []
>>> search = SearchThread(Engine(seed=1), Board("minitchess"), Limit(depth=3),
...                       on_info=lambda info: depths.append(info.depth),
...                       on_end=lambda search: None)
>>> search.join()
>>> depths, search.last.depth, search.error
([1, 2, 3], 3, None)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

from minichess.board import Board
from minichess.engine.engine import Engine, Info, Limit


class SearchThread:
    """One engine search in a background thread.

    ``on_info`` gets each completed depth and ``on_end`` the finished search (both are called
    in the search thread). With ``until_stopped`` a search that ends by itself (say on finding a
    forced win) waits for :meth:`stop` before its end is reported, as UCI's ``go infinite``
    requires. :attr:`finished` is set just before ``on_end`` is called.
    """

    def __init__(
        self,
        engine: Engine,
        board: Board,
        limit: Limit,
        on_info: Callable[[Info], None],
        on_end: Callable[[SearchThread], None],
        until_stopped: bool = False,
        playing: bool = False,
    ) -> None:
        self.engine = engine
        self.last: Info | None = None
        """The deepest completed depth so far."""
        self.error: Exception | None = None
        """Why the search failed, if it did."""
        self.finished = threading.Event()
        self._stop_requested = threading.Event()
        iterations: Iterator[Info] = iter(())
        try:  # set up here, so that a stop right after this is not lost
            iterations = engine.iter_analysis(board, limit, playing)
        except Exception as error:  # reported through on_end: a GUI always gets its bestmove
            self.error = error
        self._thread = threading.Thread(
            target=self._run, args=(iterations, on_info, on_end, until_stopped), daemon=True
        )
        self._thread.start()

    def _run(
        self,
        iterations: Iterator[Info],
        on_info: Callable[[Info], None],
        on_end: Callable[[SearchThread], None],
        until_stopped: bool,
    ) -> None:
        try:
            for info in iterations:
                self.last = info
                on_info(info)
                if self._stop_requested.is_set():
                    break
        except Exception as error:  # reported through on_end: a GUI always gets its bestmove
            self.error = error
        if until_stopped:
            self._stop_requested.wait()
        self.finished.set()
        on_end(self)

    def stop(self) -> None:
        """End the search at once and wait until its end has been reported."""
        self._stop_requested.set()
        self.engine.stop()
        self.join()

    def join(self) -> None:
        """Wait for the search thread to end (interruptible by Ctrl-C in the main thread)."""
        self._thread.join()
