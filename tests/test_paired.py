"""benchmarks/paired.py: two matches against one opponent, compared game by game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PAIRED = Path(__file__).resolve().parents[1] / "benchmarks" / "paired.py"


OPENING = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR b - - 0 1"
OTHER_OPENING = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"


def match_pgn(path: Path, player: str, results: list[str], starts: list[str] | None = None) -> str:
    """A PGN of games between ``player`` and fairy-stockfish, colours alternating by round,
    from ``starts`` (FENs; default OPENING for every round)."""
    games = []
    for number, result in enumerate(results, start=1):
        white, black = (player, "fairy-stockfish") if number % 2 else ("fairy-stockfish", player)
        fen = (starts or [OPENING] * len(results))[number - 1]
        games.append(f'[Event "m"]\n[Round "{number}"]\n[White "{white}"]\n[Black "{black}"]\n'
                     f'[Result "{result}"]\n[Variant "losalamos"]\n[SetUp "1"]\n[FEN "{fen}"]\n'
                     f'\n{result}\n')
    path.write_text("\n".join(games))
    return str(path)


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(PAIRED), *arguments], capture_output=True,
                          text=True, timeout=120, check=False)


def test_the_difference_is_taken_game_by_game(tmp_path):
    # round 1: we win as White with the change, draw without; round 2: we lose as Black with
    # it and draw without; round 3: a win as White both times; round 4 has no partner
    new = match_pgn(tmp_path / "new.pgn", "level:10,weights=new", ["1-0", "1-0", "1-0", "1-0"])
    old = match_pgn(tmp_path / "old.pgn", "level:10", ["1/2-1/2", "1/2-1/2", "1-0"])
    completed = run("--with", new, "--without", old, "--json")
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["games"] == 3
    assert report["score_with"] == (1 + 0 + 1) / 3 and report["score_without"] == 2 / 3
    assert report["difference"] == 0  # +1/2, -1/2, 0
    # the differences vary by (1/4 + 1/4 + 0) / (3 - 1) = 1/4: standard error (1/4 / 3) ** 0.5
    assert round(report["standard_error"], 6) == round((0.25 / 3) ** 0.5, 6)
    assert report["left_out"] == 1  # round 4


def test_games_pair_by_how_they_started(tmp_path):
    # with the change: round 1 from the other opening, rounds 2 and 3 from the usual one;
    # without it: round 1 from the usual opening, round 3 from the other one (we are White in
    # rounds 1 and 3, Black in round 2)
    new = match_pgn(tmp_path / "new.pgn", "level:10,weights=new", ["1-0", "0-1", "1-0"],
                    [OTHER_OPENING, OPENING, OPENING])
    old = match_pgn(tmp_path / "old.pgn", "level:10", ["1/2-1/2", "1/2-1/2", "0-1"],
                    [OPENING, OPENING, OTHER_OPENING])
    completed = run("--with", new, "--without", old, "--json")
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    # new 1 pairs with old 3 (1 - 0), new 2 with old 2, Black both times (1 - 1/2), and new 3
    # with old 1 (1 - 1/2)
    assert report["games"] == 3 and report["left_out"] == 0
    assert report["difference"] == (1 + 0.5 + 0.5) / 3
    partial = match_pgn(tmp_path / "partial.pgn", "level:10", ["1/2-1/2", "1/2-1/2"],
                        [OTHER_OPENING, OPENING])
    completed = run("--with", new, "--without", partial)
    assert "no partner started the same way: 1" in completed.stdout  # new 3


def test_files_that_do_not_pair_are_refused(tmp_path):
    new = match_pgn(tmp_path / "new.pgn", "level:10", ["1-0", "0-1"])
    completed = run("--with", new, new, "--without", new)
    assert completed.returncode == 2
    assert "--with and --without need as many files each" in completed.stderr
    completed = run("--with", new, "--without", new, "--opponent", "stockfish")
    assert completed.returncode == 2
    assert "'stockfish' plays neither side of round 1" in completed.stderr
