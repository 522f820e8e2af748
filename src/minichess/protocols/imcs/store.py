"""The server's storage in SQLite: accounts, ratings, games with their moves and clocks,
tournaments.

Every change is one transaction, committed before the server reports it to anyone (a move
before the opponent sees it, a result and the new ratings before the players read them). The
database runs in WAL mode with ``synchronous=NORMAL``: a committed transaction survives the
server process being killed at any instant (a power failure may lose the last ones). On
opening, games that were in progress when the server stopped are recorded as aborted.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from minichess.errors import MinichessError
from minichess.outcome import WHITE_SCORES
from minichess.protocols.imcs.protocol import BASE_RATING, rating_change

SCHEMA_VERSION = 1
ABORTED = "aborted"
"""The termination of a game the server stopped (or lost in a crash) before its end."""
NO_SHOW = "no-show"
"""The termination of a tournament game a player did not come to."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    password TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    name TEXT NOT NULL REFERENCES players(name),
    variant TEXT NOT NULL,
    rating INTEGER NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (name, variant)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    result TEXT,
    termination TEXT,
    reason TEXT,
    white_rating INTEGER,
    black_rating INTEGER,
    white_change INTEGER,
    black_change INTEGER,
    tournament INTEGER,
    round INTEGER
);
CREATE INDEX IF NOT EXISTS games_white ON games (white, id);
CREATE INDEX IF NOT EXISTS games_black ON games (black, id);
CREATE TABLE IF NOT EXISTS moves (
    game INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    used_ms INTEGER NOT NULL,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    PRIMARY KEY (game, ply)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    format TEXT NOT NULL,
    variant TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    grace REAL NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS entrants (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    name TEXT NOT NULL REFERENCES players(name),
    joined REAL NOT NULL,
    PRIMARY KEY (tournament, name)
);
CREATE TABLE IF NOT EXISTS pairings (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    white TEXT NOT NULL,
    black TEXT,
    game INTEGER,
    result TEXT,
    PRIMARY KEY (tournament, round, board)
);
"""


class StoreError(MinichessError):
    """The database cannot be opened (a path that cannot be made, a file that is not one)."""


@dataclass(frozen=True)
class GameRow:
    """A game as stored: who, what, when and how it ended (``result`` None while it runs)."""

    id: int
    variant: str
    white: str
    black: str
    white_ms: int
    black_ms: int
    started: float
    ended: float | None = None
    result: str | None = None
    termination: str | None = None
    reason: str | None = None
    white_rating: int | None = None
    black_rating: int | None = None
    white_change: int | None = None
    black_change: int | None = None
    tournament: int | None = None
    round: int | None = None


@dataclass(frozen=True)
class MoveRow:
    """A move as stored: its text, the milliseconds charged and both clocks after it."""

    ply: int
    move: str
    used_ms: int
    white_ms: int
    black_ms: int


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in a variant and the number of rated games it comes from."""

    name: str
    rating: int
    games: int


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored."""

    id: int
    name: str
    format: str
    variant: str
    rounds: int
    white_ms: int
    black_ms: int
    grace: float
    status: str
    round: int
    created: float


@dataclass(frozen=True)
class PairingRow:
    """One board of a tournament round (``black`` None: a bye)."""

    tournament: int
    round: int
    board: int
    white: str
    black: str | None
    game: int | None
    result: str | None




class Store:
    """The server's database at ``path`` (``":memory:"`` for one that is not kept)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._ratings: dict[tuple[str, str], int] = {}
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
            with self.transaction():
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                                 (SCHEMA_VERSION,))
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('next_id', 1)")
        except (OSError, ValueError, sqlite3.Error) as error:  # (ValueError: a NUL in the path)
            raise StoreError(f"cannot open the database {self.path}:"
                             f" {getattr(error, 'strerror', None) or error}") from None

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, committed at the end of the block (rolled back on an error)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # --- recovery -----------------------------------------------------------------------------

    def abort_unfinished(self, reason: str) -> list[int]:
        """Record every game without a result as aborted (``*``) for ``reason``; its ids."""
        with self.transaction() as db:
            ids = [row[0] for row in db.execute("SELECT id FROM games WHERE result IS NULL")]
            db.execute("UPDATE games SET result='*', termination=?, reason=?, ended=?"
                       " WHERE result IS NULL", (ABORTED, f"aborted: {reason}", time.time()))
        return ids

    # --- ids ----------------------------------------------------------------------------------

    def next_id(self) -> int:
        """A new game id (offers and games share them; never given twice)."""
        with self.transaction() as db:
            value = db.execute("SELECT value FROM meta WHERE key='next_id'").fetchone()[0]
            db.execute("UPDATE meta SET value=? WHERE key='next_id'", (value + 1,))
        return value

    # --- players ------------------------------------------------------------------------------

    def add_player(self, name: str, password_hash: str) -> bool:
        """Register ``name``; False if the name is taken."""
        try:
            with self.transaction() as db:
                db.execute("INSERT INTO players VALUES (?, ?, ?)",
                           (name, password_hash, time.time()))
        except sqlite3.IntegrityError:
            return False
        return True

    def password_hash(self, name: str) -> str | None:
        """The stored hash of ``name``'s password; None for no such player."""
        row = self._db.execute("SELECT password FROM players WHERE name=?", (name,)).fetchone()
        return None if row is None else row[0]

    def set_password(self, name: str, password_hash: str) -> bool:
        """Store a new password hash; False for no such player."""
        with self.transaction() as db:
            changed = db.execute("UPDATE players SET password=? WHERE name=?",
                                 (password_hash, name)).rowcount
        return changed == 1

    def player_count(self) -> int:
        """Number of registered players."""
        return self._db.execute("SELECT COUNT(*) FROM players").fetchone()[0]

    # --- ratings ------------------------------------------------------------------------------

    def rating(self, name: str, variant: str) -> int:
        """``name``'s rating in ``variant`` (the starting rating before any rated game);
        remembered, as this store is the only writer of its database."""
        key = (name, variant)
        if key not in self._ratings:
            row = self._db.execute("SELECT rating FROM ratings WHERE name=? AND variant=?",
                                   key).fetchone()
            self._ratings[key] = BASE_RATING if row is None else row[0]
        return self._ratings[key]

    def ratings(self, variant: str, every_player: bool = True) -> list[tuple[str, int]]:
        """(name, rating) by rating, best first, ties in the order of registration; with
        ``every_player`` also those without a game in ``variant`` (at the starting rating)."""
        return [(row.name, row.rating) for row in self.rating_rows(variant, every_player)]

    def rating_rows(self, variant: str, every_player: bool = True) -> list[RatingRow]:
        """The ratings as :meth:`ratings` orders them, each with its number of rated games."""
        join = "LEFT JOIN" if every_player else "JOIN"
        rows = self._db.execute(
            f"SELECT p.name, COALESCE(r.rating, ?) AS rating, COALESCE(r.games, 0) FROM players"
            f" p {join} ratings r ON r.name = p.name AND r.variant = ?"
            " ORDER BY rating DESC, p.rowid", (BASE_RATING, variant))
        return [RatingRow(*row) for row in rows]

    def rated_variants(self) -> list[str]:
        """The variants in which someone has a rating, in alphabetical order."""
        return [row[0] for row in
                self._db.execute("SELECT DISTINCT variant FROM ratings ORDER BY variant")]

    def reset_ratings(self, name: str) -> None:
        """Put ``name`` back at the starting rating in every variant."""
        with self.transaction() as db:
            db.execute("DELETE FROM ratings WHERE name=?", (name,))
        self._ratings = {key: value for key, value in self._ratings.items() if key[0] != name}

    # --- games --------------------------------------------------------------------------------

    def start_game(self, game: GameRow) -> None:
        """Record a game that begins (its id from :meth:`next_id`)."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO games (id, variant, white, black, white_ms, black_ms, started,"
                " tournament, round) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game.id, game.variant, game.white, game.black, game.white_ms, game.black_ms,
                 game.started, game.tournament, game.round))

    def add_move(self, game_id: int, move: MoveRow) -> None:
        """Record a move of a game in progress."""
        with self.transaction() as db:
            db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)",
                       (game_id, move.ply, move.move, move.used_ms, move.white_ms, move.black_ms))

    def finish_game(self, game_id: int, result: str, termination: str, reason: str,
                    rated: bool) -> GameRow:
        """Record the end of a game and, when ``rated`` (and the players differ), both
        players' new ratings, in one transaction; the finished game."""
        with self.transaction() as db:
            game = _game_row(db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone())
            variant = game.variant
            white_rating = self._rating_in(db, game.white, variant)
            black_rating = self._rating_in(db, game.black, variant)
            white_change = black_change = 0
            if rated and game.white != game.black and result in WHITE_SCORES:
                score = WHITE_SCORES[result]
                white_change = rating_change(white_rating, black_rating, score)
                black_change = rating_change(black_rating, white_rating, 1.0 - score)
                for name, rating, change in ((game.white, white_rating, white_change),
                                             (game.black, black_rating, black_change)):
                    db.execute(
                        "INSERT INTO ratings VALUES (?, ?, ?, 1) ON CONFLICT (name, variant)"
                        " DO UPDATE SET rating=excluded.rating, games=games+1",
                        (name, variant, rating + change))
            db.execute(
                "UPDATE games SET ended=?, result=?, termination=?, reason=?, white_rating=?,"
                " black_rating=?, white_change=?, black_change=? WHERE id=?",
                (time.time(), result, termination, reason, white_rating, black_rating,
                 white_change, black_change, game_id))
            row = db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        self._ratings[(game.white, variant)] = white_rating + white_change
        self._ratings[(game.black, variant)] = black_rating + black_change
        return _game_row(row)

    def _rating_in(self, db: sqlite3.Connection, name: str, variant: str) -> int:
        row = db.execute("SELECT rating FROM ratings WHERE name=? AND variant=?",
                         (name, variant)).fetchone()
        return BASE_RATING if row is None else row[0]

    def game(self, game_id: int) -> GameRow | None:
        """The game ``game_id`` (finished or not); None if there is none."""
        row = self._db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        return None if row is None else _game_row(row)

    def moves(self, game_id: int) -> list[MoveRow]:
        """The moves of a game, in order."""
        rows = self._db.execute("SELECT ply, move, used_ms, white_ms, black_ms FROM moves"
                                " WHERE game=? ORDER BY ply", (game_id,))
        return [MoveRow(*row) for row in rows]

    def ply_counts(self, game_ids: list[int]) -> dict[int, int]:
        """The number of moves stored for each of ``game_ids`` (those with none left out)."""
        marks = ",".join("?" * len(game_ids))
        rows = self._db.execute(f"SELECT game, COUNT(*) FROM moves WHERE game IN ({marks})"
                                " GROUP BY game", game_ids)
        return dict(rows.fetchall())

    def finished_games(self, limit: int, player: str | None = None) -> list[GameRow]:
        """The latest finished games (of ``player`` when given), latest first."""
        if player is None:
            rows = self._db.execute("SELECT * FROM games WHERE result IS NOT NULL"
                                    " ORDER BY ended DESC, id DESC LIMIT ?", (limit,))
        else:
            rows = self._db.execute(
                "SELECT * FROM games WHERE result IS NOT NULL AND (white=? OR black=?)"
                " ORDER BY ended DESC, id DESC LIMIT ?", (player, player, limit))
        return [_game_row(row) for row in rows]

    def game_count(self, finished: bool = True) -> int:
        """Number of stored games (finished ones, or all)."""
        where = " WHERE result IS NOT NULL" if finished else ""
        return self._db.execute(f"SELECT COUNT(*) FROM games{where}").fetchone()[0]

    # --- tournaments --------------------------------------------------------------------------

    def add_tournament(self, name: str, format: str, variant: str, rounds: int, white_ms: int,
                       black_ms: int, grace: float) -> TournamentRow:
        """Open a new tournament for entries."""
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO tournaments (name, format, variant, rounds, white_ms, black_ms,"
                " grace, status, created) VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?)",
                (name, format, variant, rounds, white_ms, black_ms, grace, time.time()))
            tournament_id = cursor.lastrowid
        tournament = self.tournament(tournament_id or 0)
        assert tournament is not None
        return tournament

    def tournament(self, tournament_id: int) -> TournamentRow | None:
        """The tournament ``tournament_id``; None if there is none."""
        row = self._db.execute("SELECT * FROM tournaments WHERE id=?",
                               (tournament_id,)).fetchone()
        return None if row is None else TournamentRow(**dict(row))

    def tournaments(self) -> list[TournamentRow]:
        """All tournaments, oldest first."""
        rows = self._db.execute("SELECT * FROM tournaments ORDER BY id")
        return [TournamentRow(**dict(row)) for row in rows]

    def update_tournament(self, tournament_id: int, status: str, round_number: int,
                          rounds: int | None = None) -> None:
        """Set a tournament's status and current round (and its number of rounds)."""
        with self.transaction() as db:
            db.execute("UPDATE tournaments SET status=?, round=?, rounds=COALESCE(?, rounds)"
                       " WHERE id=?", (status, round_number, rounds, tournament_id))

    def add_entrant(self, tournament_id: int, name: str) -> bool:
        """Enter ``name``; False if already entered."""
        try:
            with self.transaction() as db:
                db.execute("INSERT INTO entrants VALUES (?, ?, ?)",
                           (tournament_id, name, time.time()))
        except sqlite3.IntegrityError:
            return False
        return True

    def remove_entrant(self, tournament_id: int, name: str) -> bool:
        """Withdraw ``name``; False if not entered."""
        with self.transaction() as db:
            removed = db.execute("DELETE FROM entrants WHERE tournament=? AND name=?",
                                 (tournament_id, name)).rowcount
        return removed == 1

    def entrants(self, tournament_id: int) -> list[str]:
        """The players entered, in the order they joined."""
        rows = self._db.execute("SELECT name FROM entrants WHERE tournament=? ORDER BY joined,"
                                " rowid", (tournament_id,))
        return [row[0] for row in rows]

    def add_round(self, tournament_id: int, round_number: int,
                  boards: list[tuple[str, str | None]], game_ids: list[int | None]) -> None:
        """Store a round's pairings (a bye has no black and the result ``bye``) and make it
        the tournament's current round, in one transaction."""
        with self.transaction() as db:
            for number, ((white, black), game_id) in enumerate(zip(boards, game_ids,
                                                                    strict=True), start=1):
                db.execute("INSERT INTO pairings VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (tournament_id, round_number, number, white, black, game_id,
                            "bye" if black is None else None))
            db.execute("UPDATE tournaments SET status='running', round=? WHERE id=?",
                       (round_number, tournament_id))

    def pairings(self, tournament_id: int, round_number: int | None = None) -> list[PairingRow]:
        """A tournament's pairings: one round's, or all, in order."""
        if round_number is None:
            rows = self._db.execute("SELECT * FROM pairings WHERE tournament=?"
                                    " ORDER BY round, board", (tournament_id,))
        else:
            rows = self._db.execute("SELECT * FROM pairings WHERE tournament=? AND round=?"
                                    " ORDER BY board", (tournament_id, round_number))
        return [PairingRow(**dict(row)) for row in rows]

    def set_pairing(self, tournament_id: int, round_number: int, board: int,
                    game_id: int | None, result: str | None) -> None:
        """Record a board's game and result."""
        with self.transaction() as db:
            db.execute("UPDATE pairings SET game=?, result=? WHERE tournament=? AND round=?"
                       " AND board=?", (game_id, result, tournament_id, round_number, board))

    def record_no_show(self, game: GameRow, result: str) -> GameRow:
        """Record a tournament game that was not played (a player did not come), unrated."""
        self.start_game(game)
        return self.finish_game(game.id, result, NO_SHOW, NO_SHOW, rated=False)


def _game_row(row: sqlite3.Row) -> GameRow:
    return GameRow(**dict(row))
