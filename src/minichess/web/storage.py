"""Games in SQLite: one row per game, its moves, clocks and result kept as PGN.

Every change is one committed transaction (SQLite's journal makes it atomic), so a game survives
a crash or a restart of the server at any instant as it was after its last complete move.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    pgn TEXT NOT NULL,
    result TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_owner ON games (owner, updated);
"""


@dataclass
class StoredGame:
    """A row of the games table."""

    id: str
    owner: str
    """The browser session that created the game."""
    kind: str
    """``play`` (a person against the engine) or ``watch`` (engine against engine)."""
    settings: dict
    """Who plays which side, at what level, with which clock (see ``live.GameSettings``)."""
    pgn: str
    result: str
    created: float
    updated: float

    def tag(self, name: str) -> str | None:
        """The value of the game's PGN tag ``name`` (None if it has none).

        >>> StoredGame("g", "o", "play", {}, '[Variant "gardner"]', "*", 0, 0).tag("Variant")
        'gardner'
        """
        marker = f'[{name} "'
        start = self.pgn.find(marker)
        if start < 0:
            return None
        start += len(marker)
        return self.pgn[start:self.pgn.find('"]', start)]


class GameStore:
    """The games of the web app in the SQLite file ``path`` (``:memory:`` for a throwaway one).

    Safe to use from several threads: one connection, one lock."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._connection = sqlite3.connect(str(path), check_same_thread=False,
                                           isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute("PRAGMA synchronous=NORMAL")
            self._connection.executescript(_SCHEMA)

    def save(self, game: StoredGame) -> None:
        """Insert or replace ``game`` (its ``updated`` time is set now)."""
        game.updated = time.time()
        with self._lock:
            self._connection.execute(
                "INSERT INTO games (id, owner, kind, settings, pgn, result, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET"
                " settings = excluded.settings, pgn = excluded.pgn, result = excluded.result,"
                " updated = excluded.updated",
                (game.id, game.owner, game.kind, json.dumps(game.settings), game.pgn,
                 game.result, game.created, game.updated),
            )

    def load(self, game_id: str) -> StoredGame | None:
        """The game ``game_id``, or None."""
        rows = self._query("SELECT * FROM games WHERE id = ?", (game_id,))
        return rows[0] if rows else None

    def owned_by(self, owner: str, limit: int = 100) -> list[StoredGame]:
        """``owner``'s games, the most recently changed first."""
        return self._query("SELECT * FROM games WHERE owner = ? ORDER BY updated DESC LIMIT ?",
                           (owner, limit))

    def unfinished(self) -> list[StoredGame]:
        """Games whose result is still open (to take up again after a restart)."""
        return self._query("SELECT * FROM games WHERE result = '*'", ())

    def delete(self, game_id: str) -> None:
        """Remove the game ``game_id`` (nothing when there is none)."""
        with self._lock:
            self._connection.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._connection.close()

    def _query(self, sql: str, parameters: tuple) -> list[StoredGame]:
        with self._lock:
            rows = self._connection.execute(sql, parameters).fetchall()
        return [StoredGame(row[0], row[1], row[2], json.loads(row[3]), *row[4:]) for row in rows]
