"""Forced wins: the nodes our engine and another need to see a forced win, position by
position (a measurement to read, not a test).

    python benchmarks/forced_wins.py                    # against ../shared/bin/fairy-stockfish
    python benchmarks/forced_wins.py --no-opponent --json
    PYTHONPATH=OTHER/src python benchmarks/forced_wins.py --no-opponent   # another checkout

In antichess captures are compulsory, so a few well-placed offers can force reply after reply
until a side has nothing left: a search that proves such a win sooner steers away from one
against it sooner, and the more so the longer the clock. The positions
(``antichess_forced_wins.txt``, or ``--positions FILE``, read as ``minichess match
--openings`` reads its file) each have a forced win for the side to move: the first such
position, by Fairy-Stockfish's search, of games of level 10 against it. Each is searched by a
fresh level-10 engine of ours until an iteration reports the win (its nodes, all iterations
counted) or ``--nodes`` run out, and by the opponent with ``go depth 1, 2, ...`` after
``ucinewgame`` until its search reports the win (the nodes of that search). The geometric mean
of each engine's counts (a position not solved counts as the limit) is the figure to compare.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from contextlib import nullcontext
from pathlib import Path

from rich.console import Console
from rich.table import Table

from minichess import Board
from minichess.engine import Engine, Limit
from minichess.errors import MinichessError
from minichess.match import parse_player
from minichess.match.openings import read_openings
from minichess.players.uci import UciEngineError, UciPlayer
from versus import fairy_stockfish_spec

VARIANT = "antichess"
POSITIONS = Path(__file__).with_name("antichess_forced_wins.txt")
NODE_LIMIT = 4_000_000
"""Nodes of our search before a position counts as not solved."""
DEPTH_LIMIT = 30
"""The opponent's deepest search before a position counts as not solved."""


def our_nodes(fen: str, limit: int) -> int | None:
    """Nodes our search takes until an iteration reports a forced win, or None within
    ``limit`` nodes."""
    engine = Engine(level=10, seed=1, endgame=False)
    for info in engine.iter_analysis(Board(VARIANT, fen), Limit(nodes=limit)):
        if info.nodes > limit:  # the search looks at the limit only now and then
            break
        if info.mate is not None and info.mate > 0:
            return info.nodes
    return None


def their_nodes(opponent: UciPlayer, fen: str) -> int | None:
    """Nodes of the opponent's first search (``go depth D``, D = 1, 2, ...) that reports a
    forced win, or None by ``DEPTH_LIMIT``."""
    board = Board(VARIANT, fen)
    for depth in range(1, DEPTH_LIMIT + 1):
        opponent.new_game(VARIANT)
        evaluation = opponent.evaluate(board, depth, timeout=600)
        if evaluation.mate is not None and evaluation.mate > 0:
            return evaluation.nodes
    return None


def geometric_mean(counts: list[int | None], unsolved: int) -> int:
    """The geometric mean of ``counts``, a None counting as ``unsolved``."""
    logs = [math.log(max(count if count is not None else unsolved, 1)) for count in counts]
    return round(math.exp(sum(logs) / len(logs)))


def measure(fens: list[str], opponent: UciPlayer | None, limit: int) -> list[dict]:
    """One row per position: its FEN and both engines' nodes (None: not solved)."""
    return [{"fen": fen, "ours": our_nodes(fen, limit),
             "theirs": their_nodes(opponent, fen) if opponent is not None else None}
            for fen in fens]


def means(rows: list[dict], opponent: str | None, limit: int) -> dict[str, int | None]:
    """The geometric means of both engines' counts (None for the opponent when there is none)."""
    return {"ours": geometric_mean([row["ours"] for row in rows], limit),
            "theirs": geometric_mean([row["theirs"] for row in rows], limit) if opponent else None}


def _shown(count: int | None) -> str:
    return "not solved" if count is None else f"{count:,}"


def print_table(rows: list[dict], opponent: str | None, mean: dict[str, int | None]) -> None:
    """The rows as a table, and the geometric means."""
    table = Table(title="nodes to see a forced win")
    columns = ("position", "level 10", *((opponent,) if opponent else ()))
    for column in columns:
        table.add_column(column, justify="left" if column == "position" else "right")
    for row in rows:
        table.add_row(row["fen"], _shown(row["ours"]),
                      *((_shown(row["theirs"]),) if opponent else ()))
    Console().print(table)
    print(f"geometric mean: level 10 {mean['ours']:,}"
          + (f", {opponent} {mean['theirs']:,}" if opponent else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--positions", type=Path, default=POSITIONS, metavar="FILE",
                        help="one FEN a line, or a PGN's start positions"
                             " (default: antichess_forced_wins.txt)")
    parser.add_argument("--nodes", type=int, default=NODE_LIMIT,
                        help=f"our search's node limit a position (default {NODE_LIMIT:,})")
    parser.add_argument("--opponent", metavar="SPEC",
                        help="a uci: player spec (default: ../shared/bin/fairy-stockfish)")
    parser.add_argument("--no-opponent", action="store_true", help="measure our engine alone")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.nodes < 1:
        parser.error("--nodes must be at least 1")
    try:
        fens = [opening.fen for opening in read_openings(args.positions, VARIANT)]
    except MinichessError as error:
        parser.error(str(error))
    player: UciPlayer | None = None
    name = None
    if not args.no_opponent:
        spec_text = args.opponent or fairy_stockfish_spec()
        if spec_text is None:
            parser.error("no --opponent given and no Fairy-Stockfish in ../shared/bin"
                         " (or --no-opponent)")
        try:
            spec = parse_player(spec_text)
        except MinichessError as error:
            parser.error(str(error))
        created = spec.create()
        if not isinstance(created, UciPlayer):
            parser.error(f"the opponent must be a uci: player, not {spec_text!r}")
        player, name = created, spec.display_name
    try:
        with player if player is not None else nullcontext():
            rows = measure(fens, player, args.nodes)
    except UciEngineError as error:
        print(f"forced_wins: {error}", file=sys.stderr)
        return 1
    mean = means(rows, name, args.nodes)
    if args.json:
        print(json.dumps({"positions": len(rows), "node_limit": args.nodes, "opponent": name,
                          **mean, "rows": rows}))
    else:
        print_table(rows, name, mean)
    return 0


if __name__ == "__main__":
    sys.exit(main())
