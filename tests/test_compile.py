"""What a program compiles: only the rules its variants need."""

import subprocess
import sys

ONLY_MINITCHESS = """
from minichess import Board
from minichess.core import legality
board = Board("minitchess")
assert board.perft(3) == 473
assert board.legal_moves
print(len(getattr(legality.legal_moves_of_kinds, "signatures", [])))
"""


def test_a_variant_without_royal_king_never_compiles_the_check_rules():
    result = subprocess.run([sys.executable, "-c", ONLY_MINITCHESS], capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "0"
