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


BOARDS_IN_THREADS = """
import threading
from minichess import Board
errors = []
def first_moves(variant):
    try:
        Board(variant).legal_moves
    except Exception as error:
        errors.append(repr(error))
threads = [threading.Thread(target=first_moves, args=(v,))
           for v in ("chess36", "csc111", "antichess", "minitchess") * 3]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(errors)
"""


def test_threads_may_build_the_first_boards_at_once():
    # the web server does: its engine threads and its event loop, right after it starts
    result = subprocess.run([sys.executable, "-c", BOARDS_IN_THREADS], capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "[]"
