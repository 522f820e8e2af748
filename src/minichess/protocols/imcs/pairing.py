"""Tournament arithmetic: round-robin schedules, Swiss pairings, standings with tie-breaks.

Everything here is pure: functions of players and results. A board is ``(white, black)``,
``black`` None for a bye. A result is ``1-0``, ``0-1``, ``1/2-1/2``, ``0-0`` (neither player
came), ``bye``, or None while the game is to be played.

Scoring: a win 1, a draw 1/2, a loss or a no-show 0; a bye 1 in a Swiss tournament (someone
has to sit out, by no fault of theirs) and 0 in a round robin (everyone sits out once).

Tie-breaks, in order: round robin -- Sonneborn-Berger (the points of the opponents one beat,
and half those of the opponents one drew), then wins; Swiss -- Buchholz (the sum of the
opponents' points), then Sonneborn-Berger, then wins. Players still level share the rank.

>>> round_robin(["a", "b", "c", "d"])[0]
[('a', 'd'), ('b', 'c')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

ROUND_ROBIN = "round-robin"
SWISS = "swiss"
FORMATS = (ROUND_ROBIN, SWISS)

Board = tuple[str, str | None]
_POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5), "0-0": (0.0, 0.0)}
SEARCH_LIMIT = 20_000
"""Pairing attempts a Swiss round may try before it allows a rematch."""


def round_robin(players: Sequence[str], cycles: int = 1) -> list[list[Board]]:
    """Every round of a round robin (the circle method: everyone meets everyone once per
    cycle, colours alternating; a second cycle swaps the colours of the first)."""
    seats: list[str | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    count = len(seats)
    rounds: list[list[Board]] = []
    for number in range(count - 1):
        boards = []
        for index in range(count // 2):
            first, second = seats[index], seats[count - 1 - index]
            if index == 0 and number % 2:
                first, second = second, first
            boards.append(_board(first, second))
        rounds.append(boards)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    cycle = rounds
    for repeat in range(1, cycles):
        rounds = rounds + [[_swap(board) if repeat % 2 else board for board in boards]
                           for boards in cycle]
    return rounds


def _board(first: str | None, second: str | None) -> Board:
    if first is None:
        return second, None  # type: ignore[return-value]
    return first, second


def _swap(board: Board) -> Board:
    white, black = board
    return board if black is None else (black, white)


@dataclass
class Record:
    """A player's tournament so far."""

    name: str
    rating: int = 0
    points: float = 0.0
    wins: int = 0
    games: int = 0
    opponents: list[str] = field(default_factory=list)
    """Opponents met (games played or forfeited), in order."""
    colors: list[str] = field(default_factory=list)
    """``W`` or ``B`` of each game."""
    byes: int = 0
    beaten: list[str] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    rank: int = 0


def records(format: str, players: Sequence[str], ratings: dict[str, int],
            results: Sequence[tuple[str, str | None, str | None]]) -> dict[str, Record]:
    """Each player's record from the boards played so far: ``(white, black, result)``."""
    table = {name: Record(name, ratings.get(name, 0)) for name in players}
    for white, black, result in results:
        if black is None:
            if result == "bye" and white in table:
                table[white].byes += 1
                table[white].points += 1.0 if format == SWISS else 0.0
            continue
        if result not in _POINTS or white not in table or black not in table:
            continue
        for name, opponent, color, points in ((white, black, "W", _POINTS[result][0]),
                                              (black, white, "B", _POINTS[result][1])):
            record = table[name]
            record.opponents.append(opponent)
            record.colors.append(color)
            record.points += points
            record.games += 1
            if points == 1.0:
                record.wins += 1
                record.beaten.append(opponent)
            elif points == 0.5:
                record.drawn.append(opponent)
    for record in table.values():
        record.buchholz = sum(table[name].points for name in record.opponents)
        record.sonneborn_berger = (sum(table[name].points for name in record.beaten)
                                   + sum(table[name].points for name in record.drawn) / 2)
    return table


def standings(format: str, table: dict[str, Record]) -> list[Record]:
    """The records in order, best first, with their ranks (level players share one)."""
    ordered = sorted(table.values(), key=lambda r: (_key(format, r), r.name))
    for index, record in enumerate(ordered):
        level = index and _key(format, ordered[index - 1]) == _key(format, record)
        record.rank = ordered[index - 1].rank if level else index + 1
    return ordered


def _key(format: str, record: Record) -> tuple[float, ...]:
    if format == SWISS:
        return (-record.points, -record.buchholz, -record.sonneborn_berger, -record.wins)
    return (-record.points, -record.sonneborn_berger, -record.wins)


def swiss_round(table: dict[str, Record], round_number: int) -> list[Board]:
    """The next Swiss round: players ranked by points, then rating; each paired with the
    nearest player of its score group (the top half against the bottom half) whom it has not
    met, lower groups when its own has no one; the bye to the lowest-ranked player who has
    not had one. Rematches only when no pairing avoids them."""
    ranked = sorted(table.values(), key=lambda r: (-r.points, -r.rating, r.name))
    for allow_rematch in (False, True):
        budget = [SEARCH_LIMIT]
        if len(ranked) % 2:
            for bye in sorted(ranked, key=lambda r: (r.byes, -ranked.index(r))):
                rest = [r for r in ranked if r is not bye]
                pairs = _pair(rest, allow_rematch, budget)
                if pairs is not None:
                    return [*(_colors(a, b, round_number) for a, b in pairs), (bye.name, None)]
        else:
            pairs = _pair(ranked, allow_rematch, budget)
            if pairs is not None:
                return [_colors(a, b, round_number) for a, b in pairs]
    raise AssertionError("a pairing with rematches always exists")


def _pair(players: list[Record], allow_rematch: bool, budget: list[int]
          ) -> list[tuple[Record, Record]] | None:
    if not players:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    top, rest = players[0], players[1:]
    for opponent in _candidates(top, rest):
        if not allow_rematch and opponent.name in top.opponents:
            continue
        remaining = [r for r in rest if r is not opponent]
        pairs = _pair(remaining, allow_rematch, budget)
        if pairs is not None:
            return [(top, opponent), *pairs]
    return None


def _candidates(top: Record, rest: list[Record]) -> list[Record]:
    """Opponents for ``top`` in order of preference: its score group from the middle (the
    Dutch system's top half against bottom half), then the players below."""
    group = [r for r in rest if r.points == top.points]
    below = [r for r in rest if r.points != top.points]
    middle = (len(group) + 1) // 2 - 1 if group else 0
    ordered = sorted(range(len(group)), key=lambda i: (abs(i - middle), i))
    return [group[i] for i in ordered] + below


def _colors(a: Record, b: Record, round_number: int) -> Board:
    """White to the player who had it less often, then to the one who had Black last, then
    alternately to the higher-ranked player."""
    balance_a = a.colors.count("W") - a.colors.count("B")
    balance_b = b.colors.count("W") - b.colors.count("B")
    if balance_a != balance_b:
        return (a.name, b.name) if balance_a < balance_b else (b.name, a.name)
    last_a = a.colors[-1] if a.colors else None
    last_b = b.colors[-1] if b.colors else None
    if last_a != last_b and None not in (last_a, last_b):
        return (a.name, b.name) if last_a == "B" else (b.name, a.name)
    return (a.name, b.name) if round_number % 2 else (b.name, a.name)
