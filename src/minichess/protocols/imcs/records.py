"""Stored games as :class:`~minichess.game.Game` objects and PGN.

A game whose two clocks started equal gets them in the PGN (``TimeControl`` and ``[%clk]``
after each move); one with unequal clocks names them in ``WhiteClock`` and ``BlackClock``
tags. Resignations, time forfeits and disconnects (``forfeit``) end the game so; an aborted
game or a tournament no-show keeps its result and termination in the tags.
"""

from __future__ import annotations

import datetime

from minichess.game import Game, TimeControl
from minichess.notation.pgn import write_pgn
from minichess.outcome import Termination
from minichess.protocols.imcs.protocol import format_offer_time
from minichess.protocols.imcs.store import GameRow, Store

_ENDINGS = {
    Termination.RESIGNATION.value: Game.resign,
    Termination.TIME_FORFEIT.value: Game.forfeit_on_time,
    Termination.FORFEIT.value: Game.forfeit,
}


def stored_game(store: Store, game_id: int, site: str = "IMCS") -> Game | None:
    """The game ``game_id`` with its moves, clocks and ending; None if there is none."""
    row = store.game(game_id)
    if row is None:
        return None
    clock = TimeControl(row.white_ms / 1000) if row.white_ms == row.black_ms > 0 else None
    game = Game(row.variant, clock=clock, headers=_headers(row, store, site))
    for move in store.moves(game_id):
        game.push(game.board.parse_uci(move.move), seconds=move.used_ms / 1000)
    _end(game, row)
    return game


def game_pgn(store: Store, game_id: int, site: str = "IMCS") -> str | None:
    """The game ``game_id`` as PGN text; None if there is none."""
    game = stored_game(store, game_id, site)
    return None if game is None else write_pgn(game)


def _headers(row: GameRow, store: Store, site: str) -> dict[str, str]:
    started = datetime.datetime.fromtimestamp(row.started, datetime.UTC)
    headers = {
        "Event": f"IMCS game {row.id}",
        "Site": site,
        "Date": started.strftime("%Y.%m.%d"),
        "Round": "-",
        "White": row.white,
        "Black": row.black,
        "UTCTime": started.strftime("%H:%M:%S"),
    }
    if row.tournament is not None:
        tournament = store.tournament(row.tournament)
        headers["Event"] = tournament.name if tournament else f"tournament {row.tournament}"
        headers["Round"] = str(row.round)
    if row.white_rating is not None:
        headers["WhiteElo"] = str(row.white_rating)
        headers["BlackElo"] = str(row.black_rating)
    if row.white_ms != row.black_ms:
        headers["WhiteClock"] = format_offer_time(row.white_ms)
        headers["BlackClock"] = format_offer_time(row.black_ms)
    if row.reason:
        headers["ImcsResult"] = row.reason
    return headers


def _end(game: Game, row: GameRow) -> None:
    if row.result is None or row.termination is None or game.is_game_over():
        return
    end = _ENDINGS.get(row.termination)
    if end is not None and row.result in ("1-0", "0-1"):
        end(game, row.result == "0-1")
        return
    game.headers["Result"] = row.result
    game.headers["Termination"] = row.termination
