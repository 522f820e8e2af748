"""Selectivity: the nodes our engine and another need to finish the same depth, position by
position (a measurement to read, not a test).

    python benchmarks/selectivity.py                  # against ../shared/bin/fairy-stockfish
    python benchmarks/selectivity.py --depth 10 --variants losalamos,antichess --json
    python benchmarks/selectivity.py --opponent "uci:/old/.venv/bin/minichess uci" --kinds all

Two engines that search alike need about as many nodes for a depth; where ours needs many
times more, it prunes and reduces less (or extends more) than the other, and its depth costs
more time. The positions are those of the search signature (``engine/bench.py``; by default
the openings and middlegames, ``--kinds`` chooses), each searched by a fresh level-10 engine
of ours and by the opponent with ``go depth D``. Engines count depth a little differently,
and Fairy-Stockfish's counts vary by up to a fifth from run to run: read the ratios across
variants, not one number. The opponent is ``--opponent SPEC`` (a
``uci:`` player as ``minichess match`` takes it), else Fairy-Stockfish, which cannot play
chess36 (left out then).
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table

from minichess import Board
from minichess.engine.bench import POSITIONS, BenchPosition, bench
from minichess.errors import MinichessError
from minichess.match import parse_player
from minichess.players.uci import UciEngineError, UciPlayer
from minichess.variants import get_variant
from versus import fairy_stockfish_spec

KINDS = ("opening", "middlegame", "tactics", "endgame")
FAIRY_STOCKFISH_CANNOT = ("chess36",)


def chosen_positions(variants: str | None, kinds: str, with_fairy: bool) -> list[BenchPosition]:
    """The signature's positions of the ``variants`` (comma-separated, all when None) and
    ``kinds`` (comma-separated, or ``all``)."""
    wanted_kinds = KINDS if kinds == "all" else tuple(kind.strip() for kind in kinds.split(","))
    unknown = set(wanted_kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown kind {sorted(unknown)[0]!r}: choose among {', '.join(KINDS)}")
    names = None if variants is None else {get_variant(v.strip()).name for v in variants.split(",")}
    return [position for position in POSITIONS
            if (names is None or position.variant in names) and position.kind in wanted_kinds
            and not (with_fairy and position.variant in FAIRY_STOCKFISH_CANNOT)]


def their_nodes(opponent: UciPlayer, position: BenchPosition, depth: int) -> int | None:
    """Nodes of the opponent's search of ``position`` to ``depth`` (after ``ucinewgame``)."""
    opponent.new_game(position.variant)
    return opponent.evaluate(Board(position.variant, position.fen), depth).nodes


def measure(positions: list[BenchPosition], opponent: UciPlayer, depth: int) -> list[dict]:
    """One row per position: its variant, kind, both node counts and their ratio (ours as
    ``minichess bench`` searches it)."""
    rows = []
    for searched in bench(depth, positions).searches:
        position, ours = searched.position, searched.nodes
        theirs = their_nodes(opponent, position, depth)
        rows.append({"variant": position.variant, "kind": position.kind, "fen": position.fen,
                     "ours": ours, "theirs": theirs,
                     "ratio": round(ours / theirs, 2) if theirs else None})
    return rows


def print_table(rows: list[dict], opponent: str, depth: int) -> None:
    """The rows as a table."""
    table = Table(title=f"nodes to finish depth {depth}: level 10 and {opponent}")
    for column in ("variant", "kind", "level 10", opponent, "ratio"):
        table.add_column(column, justify="left" if column in ("variant", "kind") else "right")
    for row in rows:
        ratio = "n/a" if row["ratio"] is None else f"{row['ratio']:.2f}"
        theirs = "n/a" if row["theirs"] is None else f"{row['theirs']:,}"
        table.add_row(row["variant"], row["kind"], f"{row['ours']:,}", theirs, ratio)
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--depth", type=int, default=12, help="depth searched (default 12)")
    parser.add_argument("--variants", help="comma-separated variants (default: all)")
    parser.add_argument("--kinds", default="opening,middlegame",
                        help=f"comma-separated kinds of position ({', '.join(KINDS)}) or all"
                             " (default: opening,middlegame)")
    parser.add_argument("--opponent", metavar="SPEC",
                        help="a uci: player spec (default: ../shared/bin/fairy-stockfish)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.depth < 1:
        parser.error("--depth must be at least 1")
    spec_text = args.opponent or fairy_stockfish_spec()
    if spec_text is None:
        parser.error("no --opponent given and no Fairy-Stockfish in ../shared/bin")
    try:
        spec = parse_player(spec_text)
        positions = chosen_positions(args.variants, args.kinds, args.opponent is None)
    except (ValueError, MinichessError) as error:
        parser.error(str(error))
    player = spec.create()
    if not isinstance(player, UciPlayer):
        parser.error(f"the opponent must be a uci: player, not {spec_text!r}")
    try:
        with player:
            rows = measure(positions, player, args.depth)
    except UciEngineError as error:
        print(f"selectivity: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"depth": args.depth, "opponent": spec.display_name, "rows": rows}))
    else:
        print_table(rows, spec.display_name, args.depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
