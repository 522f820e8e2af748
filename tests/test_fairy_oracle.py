"""Tests of the pyffish oracle wrapper itself (tests/fairy_oracle.py, with the definitions of
tests/data/fairy.ini), not of the project; and, where ``../shared/oracle/fairy.ini`` is beside
the checkout, that its definitions give the same moves as the repository's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyffish
import pytest

from fairy_oracle import (
    ORACLE_VARIANTS,
    load,
    oracle_moves,
    oracle_perft,
    random_playout_fens,
    start_fen,
)

DATA = Path(__file__).parent / "data" / "oracle_perft.json"
SHARED_FAIRY_INI = Path(__file__).resolve().parents[2] / "shared" / "oracle" / "fairy.ini"
"""The definitions in the ``shared/`` folder beside the checkout, where there is one."""

# RULES.md reference counts from the start position, depths 1..3.
REFERENCE = {
    "minitchess": [7, 49, 473],
    "minichess-classic": [7, 49, 452],
    "antichess": [20, 400, 8067],
    "csc111": [6, 21, 112],
}


@pytest.mark.parametrize("variant", sorted(REFERENCE))
def test_reference_start_counts(variant: str) -> None:
    fen = start_fen(variant)
    counts = [oracle_perft(variant, fen, depth) for depth in (1, 2, 3)]
    assert counts == REFERENCE[variant]


def test_start_fens_and_move_text() -> None:
    assert start_fen("minitchess") == "kqbnr/ppppp/5/5/PPPPP/RNBQK w - - 0 1"
    assert start_fen("csc111") == "rqkr/pppp/PPPP/RQKR w - - 0 1"
    assert start_fen("antichess") == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    assert oracle_moves("minitchess", start_fen("minitchess")) == [
        "a2a3", "b1a3", "b1c3", "b2b3", "c2c3", "d2d3", "e2e3",
    ]  # fmt: skip
    assert oracle_moves("minitchess", "k4/2P2/5/5/5/4K w - - 0 1") == [
        "c5c6q", "e1d1", "e1d2", "e1e2",
    ]  # fmt: skip
    assert oracle_moves("antichess", "8/8/8/8/8/8/p7/7K b - - 0 1") == ["a2a1q"]
    assert oracle_moves("losalamos", "k5/2P3/6/6/6/5K w - - 0 1") == [
        "c5c6n", "c5c6q", "c5c6r", "f1e1", "f1e2", "f1f2",
    ]  # fmt: skip


def test_invalid_fen_is_an_error() -> None:
    with pytest.raises(ValueError, match="invalid losalamos FEN"):
        oracle_moves("losalamos", "k5/6/6/6/6/4BK w - - 0 1")  # no bishops in losalamos
    with pytest.raises(ValueError, match="no oracle"):
        oracle_moves("chess36", "rbkqnr/pppppp/6/6/PPPPPP/RNQKBR[] w - - 0 1")


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        # The white queen has just captured the black king.
        ("minitchess", "Q4/5/5/5/5/4K b - - 0 1"),
        ("minichess-classic", "Q4/5/5/5/5/4K b - - 0 1"),
        # Black's pieces are all blocked (stalemate: a loss in minitchess, a draw in classic).
        ("minitchess", "kpppp/ppppp/ppppp/ppppp/pprrp/rrrbK b - - 0 1"),
        ("minichess-classic", "kpppp/ppppp/ppppp/ppppp/pprrp/rrrbK b - - 0 1"),
        # 40 moves each played: ply 80.
        ("minitchess", "k4/5/5/5/5/4K w - - 10 41"),
        ("minichess-classic", "kq3/5/5/5/5/4K w - - 10 41"),
        # Insufficient material in minichess-classic: K v K, K v KN, KB v K.
        ("minichess-classic", "k4/5/5/5/5/4K w - - 0 1"),
        ("minichess-classic", "kn3/5/5/5/5/4K w - - 0 1"),
        ("minichess-classic", "k4/5/5/5/5/3BK b - - 0 1"),
        # csc111: 50 plies played; checkmate; stalemate.
        ("csc111", "k3/4/4/K2R w - - 0 26"),
        ("csc111", "k3/1Q2/1K2/4 b - - 0 1"),
        ("csc111", "k3/2Q1/1K2/4 b - - 0 1"),
        # antichess: no pieces; all blocked; halfmove clock at 100.
        ("antichess", "8/8/8/8/8/8/1K6/8 b - - 0 1"),
        ("antichess", "8/8/8/8/8/p7/P7/8 w - - 0 1"),
        ("antichess", "8/8/1bB5/8/1p6/1P6/8/8 w - - 100 109"),
        # gardner, losalamos: checkmate; stalemate; insufficient material; halfmove clock 100.
        ("gardner", "k4/1Q3/2K2/5/5 b - - 0 1"),
        ("gardner", "k4/2Q2/1K3/5/5 b - - 0 1"),
        ("gardner", "k4/5/5/5/3NK w - - 0 1"),
        ("losalamos", "k5/6/6/6/6/5K w - - 0 1"),
        ("gardner", "k4/5/5/5/3RK w - - 100 60"),
    ],
)
def test_finished_games_have_no_moves(variant: str, fen: str) -> None:
    assert oracle_moves(variant, fen) == []
    assert oracle_perft(variant, fen, 2) == 0


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("minitchess", "k4/5/5/5/5/4K b - - 10 40"),  # ply 79: Black's 40th move is still due
        ("minitchess", "k4/5/5/5/5/4K w - - 0 1"),  # lone kings play on in minitchess
        ("minichess-classic", "k4/5/5/5/5/2NBK w - - 0 1"),  # K+N+B v K is no draw
        ("minichess-classic", "kn3/5/5/5/5/3NK w - - 0 1"),  # KN v KN is no draw
        ("csc111", "k3/4/4/K2R b - - 0 25"),  # ply 49
        ("antichess", "8/8/1bB5/8/1p6/1P6/8/8 w - - 99 109"),
        ("gardner", "k4/5/5/5/3RK w - - 99 60"),
        ("gardner", "kb3/5/5/5/3BK w - - 0 1"),  # two bishops
    ],
)
def test_games_not_yet_over_have_moves(variant: str, fen: str) -> None:
    assert oracle_moves(variant, fen)


def test_move_caps_cut_perft() -> None:
    # Ply 79: one more move, then the game is drawn.
    fen = "k4/5/5/5/5/4K b - - 10 40"
    assert oracle_perft("minitchess", fen, 1) == 3
    assert oracle_perft("minitchess", fen, 2) == 0
    # In minichess-classic the capture d1c3 leaves K+N v K, drawn at once; in minitchess the
    # black king still has its three moves there.
    fen = "k4/5/5/2r2/5/3NK w - - 0 1"
    assert "d1c3" in oracle_moves("minichess-classic", fen)
    assert oracle_perft("minichess-classic", fen, 2) == oracle_perft("minitchess", fen, 2) - 3


def test_random_playouts_are_deterministic() -> None:
    first = random_playout_fens("csc111", 30, seed=5)
    assert first == random_playout_fens("csc111", 30, seed=5)
    assert len(first) == len(set(first)) == 30
    assert first != random_playout_fens("csc111", 30, seed=6)


def test_data_file_shape() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    assert set(data) == set(ORACLE_VARIANTS)
    for cases in data.values():
        assert len(cases) >= 10
        for case in cases:
            assert set(case) == {"fen", "depth", "nodes"}


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(ORACLE_VARIANTS))
def test_data_file_reproduced(variant: str) -> None:
    cases = json.loads(DATA.read_text(encoding="utf-8"))[variant]
    assert [oracle_perft(variant, c["fen"], c["depth"]) for c in cases] == [
        c["nodes"] for c in cases
    ]


def renamed_sections(config: str, prefix: str) -> str:
    """A Fairy-Stockfish configuration with each variant it defines renamed ``prefix + name``
    (also where another of its variants inherits from it), so that it loads beside others."""
    defined = set(re.findall(r"^\[([^:\]]+)", config, flags=re.MULTILINE))

    def rename(header: re.Match[str]) -> str:
        name, parent = header.group(1), header.group(2)
        if parent:
            parent = prefix + parent if parent in defined else parent
            return f"[{prefix}{name}:{parent}]"
        return f"[{prefix}{name}]"

    return re.sub(r"^\[([^:\]]+)(?::([^\]]+))?\]", rename, config, flags=re.MULTILINE)


@pytest.mark.skipif(not SHARED_FAIRY_INI.is_file(), reason=f"{SHARED_FAIRY_INI} not found")
@pytest.mark.parametrize("variant", ["minitchess", "minichess-classic", "csc111", "antichess"])
def test_shared_definitions_give_the_same_moves(variant: str) -> None:
    load()
    shared = renamed_sections(SHARED_FAIRY_INI.read_text(encoding="utf-8"), "shared-")
    pyffish.load_variant_config(shared)
    name = ORACLE_VARIANTS[variant]
    for fen in [start_fen(variant), *random_playout_fens(variant, 150, seed=9)]:
        assert sorted(pyffish.legal_moves(name, fen, [])) == sorted(
            pyffish.legal_moves("shared-" + name, fen, [])), fen


def test_renamed_sections_keep_inheritance_inside_the_file() -> None:
    config = "[a]\nx = 1\n[b:a]\ny = 2\n[c:chess]\n"
    assert renamed_sections(config, "p-") == "[p-a]\nx = 1\n[p-b:p-a]\ny = 2\n[p-c:chess]\n"
