"""A change's effect on the score against a common opponent, compared game by game.

Two matches against the same opponent with the same ``--seed`` give game N the same opening
and colours. Played at the same time, one by the engine with a change and one without it,
their PGNs are compared pair by pair (the ``Round`` header): the mean difference of our score
per game, with its standard error, is the change's effect on the score against that opponent
(docs/engine.md, "Testing a change"). Pairing removes the openings' share of the noise.

    python benchmarks/paired.py --with new46.pgn new47.pgn --without old46.pgn old47.pgn

The files pair in order (the first of ``--with`` with the first of ``--without``); our player
is the one that is not ``--opponent`` (default fairy-stockfish). Games pair only where both
start from the same position with our player on the same side, by round where the two matches
agree: the openings a seed gives are judged by the engine's evaluation, so a match run while
another network was installed may have some others, or the same in another order. Games of the
first with no partner are left out (and counted). Exit status 2 for files that cannot be read
or that do not pair.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass

from minichess.errors import MinichessError
from minichess.notation.pgn import read_pgn_file
from minichess.outcome import WHITE_SCORES


@dataclass(frozen=True)
class Paired:
    """The comparison of the two sides' scores over their common games."""

    games: int
    score_with: float
    score_without: float
    difference: float
    """Mean score per game with the change minus without it (points per game)."""
    standard_error: float
    left_out: int
    """Games with the change that no game without it started like (opening and our colour)."""


Scores = dict[int, tuple[tuple[str, bool], float]]
"""Our points in each game, by round, with how the game started (first position, we had White)."""


def our_scores(path: str, opponent: str) -> Scores:
    """Our points in each finished game of the PGN file at ``path``, by round, each with how
    the game started: its first position (FEN, empty for the variant's start) and whether we
    had White."""
    scores: Scores = {}
    for game in read_pgn_file(path):
        headers = game.headers
        result = headers.get("Result", "*")
        if result not in WHITE_SCORES:
            continue
        if opponent not in (headers.get("White"), headers.get("Black")):
            raise MinichessError(f"{path}: {opponent!r} plays neither side of round "
                                 f"{headers.get('Round', '?')}")
        white = WHITE_SCORES[result]
        we_are_white = headers["White"] != opponent
        start = (headers.get("FEN", ""), we_are_white)
        scores[int(headers.get("Round", "0"))] = (start, white if we_are_white else 1 - white)
    return scores


def compare(with_change: list[Scores], without: list[Scores]) -> Paired:
    """Pair each game of a match with the change with a game of its partner that started the
    same way (the same round where the rounds agree, else the next such game by round)."""
    first, second, left_out = [], [], 0
    for a, b in zip(with_change, without, strict=True):
        partners: dict[tuple[str, bool], list[float]] = {}
        for number in sorted(b):
            start, score = b[number]
            partners.setdefault(start, []).append(score)
        for number in sorted(a):
            start, score = a[number]
            if partners.get(start):
                first.append(score)
                second.append(partners[start].pop(0))
            else:
                left_out += 1
    n = len(first)
    if n < 2:
        raise MinichessError(f"{n} paired games: at least 2 are needed")
    differences = [x - y for x, y in zip(first, second, strict=True)]
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return Paired(n, sum(first) / n, sum(second) / n, mean, math.sqrt(variance / n), left_out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--with", dest="with_change", nargs="+", required=True, metavar="PGN",
                        help="the matches of the engine with the change")
    parser.add_argument("--without", nargs="+", required=True, metavar="PGN",
                        help="the matches without it, in the same order")
    parser.add_argument("--opponent", default="fairy-stockfish",
                        help="the common opponent's name in the PGNs (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if len(args.with_change) != len(args.without):
        parser.error("--with and --without need as many files each")
    try:
        paired = compare([our_scores(path, args.opponent) for path in args.with_change],
                         [our_scores(path, args.opponent) for path in args.without])
    except (MinichessError, OSError) as error:
        print(f"paired.py: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(asdict(paired)))
    else:
        low = paired.difference - 1.96 * paired.standard_error
        high = paired.difference + 1.96 * paired.standard_error
        print(f"{paired.games} paired games: {100 * paired.score_with:.1f}% with the change, "
              f"{100 * paired.score_without:.1f}% without; difference "
              f"{100 * paired.difference:+.1f} points (standard error "
              f"{100 * paired.standard_error:.1f}; 95%: {100 * low:+.1f} to {100 * high:+.1f})"
              + (f"; games left out, no partner started the same way: {paired.left_out}"
                 if paired.left_out else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
