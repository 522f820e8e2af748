"""Speed of the CSC111 course interface (``minichess.csc111``): what students' code does.

    python benchmarks/csc111_api.py                    # table
    python benchmarks/csc111_api.py --json             # one JSON object per library
    python benchmarks/csc111_api.py --original PATH/a2_minichess.py   # the course's own, too

Two workloads, each through the course library's interface only:

- random games: ``get_winner``, ``get_valid_moves`` and ``make_move`` until the game ends,
  moves chosen by a seeded ``random.Random`` (games per second, plies per second);
- a full minimax tree of depth 4 from the start: a node per position, built with
  ``copy_and_make_move`` for every valid move, scored +1 / -1 / 0 where the game has ended and 0
  at the depth limit, then valued by minimax (seconds for build and minimax together).

With ``--original`` the same workloads run on the course's ``a2_minichess.py`` in the same
process, for the ratio (its ``plotly`` and ``chessboard`` imports are stood in for when they
are not installed: neither is used here).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
import types
from dataclasses import dataclass, field
from typing import Any

import minichess.csc111

SCORES = {"White": 1, "Black": -1, "Draw": 0}


@dataclass
class Node:
    """A node of a game tree, as students build them: the move that led here and the
    positions after each valid move."""

    move: str | None
    white_to_move: bool
    score: int = 0
    children: list[Node] = field(default_factory=list)


def build_tree(game: Any, move: str | None, depth: int) -> Node:
    """The full tree of ``depth`` plies below ``game``, scored at its leaves."""
    node = Node(move, game.is_white_move())
    winner = game.get_winner()
    if winner is not None:
        node.score = SCORES[winner]
        return node
    if depth > 0:
        node.children = [build_tree(game.copy_and_make_move(m), m, depth - 1)
                         for m in game.get_valid_moves()]
    return node


def minimax(node: Node) -> int:
    """The node's value with best play by both sides below it."""
    if not node.children:
        return node.score
    values = [minimax(child) for child in node.children]
    return max(values) if node.white_to_move else min(values)


def count(node: Node) -> int:
    return 1 + sum(count(child) for child in node.children)


def random_games(library: Any, games: int, seed: int) -> tuple[float, int]:
    """Seconds for ``games`` random games, and the plies they took."""
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        game = library.MinichessGame()
        while game.get_winner() is None:
            game.make_move(rng.choice(game.get_valid_moves()))
            plies += 1
    return time.perf_counter() - start, plies


def tree_seconds(library: Any, depth: int, repeat: int) -> tuple[float, int, int]:
    """Best of ``repeat`` times to build and value the depth-``depth`` tree; its nodes and
    value."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        root = build_tree(library.MinichessGame(), None, depth)
        value = minimax(root)
        best = min(best, time.perf_counter() - start)
    return best, count(root), value


def measure(name: str, library: Any, games: int, depth: int, repeat: int) -> dict:
    random_games(library, 1, seed=0)  # compiled code loaded before timing
    seconds, plies = random_games(library, games, seed=1)
    tree, nodes, value = tree_seconds(library, depth, repeat)
    return {"library": name, "games": games, "games_per_second": round(games / seconds, 1),
            "plies_per_second": round(plies / seconds), "tree_depth": depth,
            "tree_nodes": nodes, "tree_value": value, "tree_seconds": round(tree, 5)}


def load_original(path: str) -> types.ModuleType:
    """The course's ``a2_minichess.py`` from ``path``, with stand-ins for the display and
    plotting modules it imports when they are not installed."""
    stand_ins = {"plotly": ("graph_objects", "subplots"), "chessboard": ("display",)}
    for package, modules in stand_ins.items():
        if package in sys.modules or importlib.util.find_spec(package) is not None:
            continue
        stand_in = sys.modules[package] = types.ModuleType(package)
        for module in modules:
            setattr(stand_in, module, types.ModuleType(f"{package}.{module}"))
            sys.modules[f"{package}.{module}"] = getattr(stand_in, module)
        if package == "plotly":
            stand_in.subplots.make_subplots = None  # type: ignore[attr-defined]
    spec = importlib.util.spec_from_file_location("a2_minichess", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.add_argument("--games", type=int, default=2000, help="random games (default 2000)")
    parser.add_argument("--depth", type=int, default=4, help="depth of the tree (default 4)")
    parser.add_argument("--repeat", type=int, default=3, help="tree builds (best is kept)")
    parser.add_argument("--original", metavar="PATH",
                        help="the course's a2_minichess.py, to measure it the same way")
    args = parser.parse_args()
    libraries = [("minichess.csc111", minichess.csc111, args.games)]
    if args.original:
        # the course library is some fifty times slower: fewer games for the same precision
        libraries.append(("a2_minichess", load_original(args.original), max(args.games // 50, 5)))
    rows = []
    for name, library, games in libraries:
        row = measure(name, library, games, args.depth, args.repeat)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{name:17} {row['games_per_second']:9.1f} random games/s"
                  f" ({row['plies_per_second']:,} plies/s);  depth-{args.depth} tree of"
                  f" {row['tree_nodes']} nodes built and valued in {row['tree_seconds']:.4f} s",
                  flush=True)
    if len(rows) == 2 and not args.json:
        ours, theirs = rows
        print(f"speed-up: {ours['games_per_second'] / theirs['games_per_second']:.0f}x on random"
              f" games, {theirs['tree_seconds'] / ours['tree_seconds']:.0f}x on the tree")


if __name__ == "__main__":
    main()
