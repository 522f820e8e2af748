"""``minichess analyse``: search a position and print what each completed depth finds."""

from __future__ import annotations

import argparse
import json
import queue
import signal
from collections.abc import Iterator

from minichess.board import Board
from minichess.cli.arguments import (
    add_position_arguments,
    board_from_args,
    positive_int,
    positive_seconds,
)
from minichess.engine import LEVELS, MAX_LEVEL, Engine, Info, Limit
from minichess.engine.thread import SearchThread
from minichess.move import Move

DEFAULT_SECONDS = 5.0
TABLE_HEADER = f"{'depth':>5}  {'score':<9}  {'nodes':>10}  {'nps':>9}  {'time':>8}  pv"


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``analyse`` command."""
    parser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="search a position and show the best line per depth",
        description="Search a position with the engine and print, for each completed depth, the"
        " score for the side to move (centipawns, or mate in N moves: negative when losing),"
        f" nodes, speed, time and the best line. Default limit: --time {DEFAULT_SECONDS:g}."
        " Ctrl-C ends the search early, keeping what it found.",
    )
    add_position_arguments(parser)
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=positive_int, metavar="D", help="search D plies deep")
    limit.add_argument("--time", type=positive_seconds, metavar="S", help="search S seconds")
    limit.add_argument("--nodes", type=positive_int, metavar="N", help="search N nodes")
    parser.add_argument("--level", type=int, choices=LEVELS, default=MAX_LEVEL, metavar="L",
                        help=f"engine level {LEVELS[0]} (weakest) to {MAX_LEVEL} (full strength,"
                        " the default)")
    parser.add_argument("--hash", type=positive_int, default=16, metavar="MB",
                        help="transposition table size in MB (default 16)")
    parser.add_argument("--notation", "-n", choices=("san", "uci"), default="san",
                        help="how the table writes the line: san (Nc3, the default) or uci (b1c3)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per depth (its pv always in uci)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Search and print a line per completed depth; Ctrl-C ends the search early."""
    board = board_from_args(args)
    limit = Limit(depth=args.depth, nodes=args.nodes, time=args.time)
    if limit == Limit():
        limit = Limit(time=DEFAULT_SECONDS)
    engine = Engine(level=args.level, hash_mb=args.hash)
    last = None
    for info in search_in_background(engine, board, limit):
        if last is None and not args.json:
            print(TABLE_HEADER)
        last = info
        line = json.dumps(info_record(info)) if args.json else table_row(board, info, args.notation)
        print(line, flush=True)
    if last is not None and not args.json:
        print(f"best move: {write_line(board, last.pv[:1], args.notation)}")


def search_in_background(engine: Engine, board: Board, limit: Limit) -> Iterator[Info]:
    """Yield the completed depths of a search that runs in a background thread. Ctrl-C stops
    the search: the depths found so far end the iteration as if the limit had been reached.
    An error of the search (say, the game is over) is raised."""
    results: queue.SimpleQueue[Info | SearchThread | None] = queue.SimpleQueue()
    search = SearchThread(engine, board, limit, on_info=results.put, on_end=results.put)
    previous_handler = signal.signal(signal.SIGINT, lambda signum, frame: results.put(None))
    try:
        while not isinstance(item := results.get(), SearchThread):
            if item is None:  # Ctrl-C
                search.stop()
            else:
                yield item
    finally:
        signal.signal(signal.SIGINT, previous_handler)
        search.stop()
    if search.error is not None:
        raise search.error


def info_record(info: Info) -> dict:
    """A completed depth as a JSON-ready dict: depth, score, mate, nodes, nps, time, pv."""
    return {
        "depth": info.depth,
        "score": info.score,
        "mate": info.mate,
        "nodes": info.nodes,
        "nps": info.nps,
        "time": round(info.time, 6),
        "pv": [move.uci() for move in info.pv],
    }


def table_row(board: Board, info: Info, notation: str) -> str:
    """A completed depth as a line of the table under :data:`TABLE_HEADER`."""
    score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score:+d}"
    return (f"{info.depth:>5}  {score:<9}  {info.nodes:>10}  {info.nps:>9}"
            f"  {info.time:>7.3f}s  {write_line(board, info.pv, notation)}")


def write_line(board: Board, moves: list[Move], notation: str) -> str:
    """``moves`` played from ``board`` written in ``notation`` (san or uci)."""
    if notation == "uci":
        return " ".join(move.uci() for move in moves)
    line = board.copy()
    written = []
    for move in moves:
        written.append(line.san(move))
        line.push(move)
    return " ".join(written)
