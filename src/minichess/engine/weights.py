"""Evaluation weights per variant: tuned weights shipped as data, or a starting point.

Tuned weights live in ``weights/<variant>.json`` (written by ``tuning.py``); a variant without
such a file starts from ``starting_weights``, built from its definition.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from minichess.core import layout as L
from minichess.engine.evaluation import (
    FIRST_THREAT_FEATURE,
    W_MATERIAL,
    W_MOBILITY,
    W_PLACEMENT,
    W_RESERVE,
    W_TEMPO,
    WEIGHT_COUNT,
)
from minichess.errors import MinichessError
from minichess.variants import VariantDefinition, get_variant
from minichess.variants.definition import Royalty

WEIGHTS_DIR = Path(__file__).with_name("weights")
_CLASSICAL_VALUES = {L.PAWN: 100, L.KNIGHT: 300, L.BISHOP: 320, L.ROOK: 500, L.QUEEN: 900}
_MOBILITY = {L.KNIGHT: 4, L.BISHOP: 5, L.ROOK: 3, L.QUEEN: 2}


def starting_weights(variant: VariantDefinition) -> np.ndarray:
    """Plausible weights from the rules alone: the start for tuning."""
    weights = np.zeros(WEIGHT_COUNT, dtype=np.int64)
    losing = variant.royalty == Royalty.NONE and variant.compulsory_capture
    for piece_type, value in _CLASSICAL_VALUES.items():
        weights[W_MATERIAL + piece_type] = -value // 4 if losing else value
        weights[W_MOBILITY + piece_type] = _MOBILITY.get(piece_type, 0)
        weights[W_RESERVE + piece_type] = value * 4 // 5 if variant.has_reserves else 0
    if losing:
        weights[W_MATERIAL + L.KING] = -50
    weights[W_TEMPO] = 10
    last = variant.ranks - 1
    for rank in range(variant.ranks):
        for file in range(variant.files):
            sq = rank * 8 + file
            advance = rank / max(last, 1)
            if variant.promotion or rank < last:
                weights[W_PLACEMENT + L.PAWN * 64 + sq] = round(60 * advance * advance)
            centre = abs(file - (variant.files - 1) / 2) + abs(rank - last / 2)
            for piece_type in (L.KNIGHT, L.BISHOP):
                weights[W_PLACEMENT + piece_type * 64 + sq] = round(12 - 5 * centre)
    return weights


@cache
def _load(path: Path) -> tuple[int, ...] | None:
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return tuple(data["weights"])


def variant_weights(variant: str | VariantDefinition, path: str | Path | None = None) -> np.ndarray:
    """The evaluation weights the engine uses for ``variant`` (a fresh array): those in its
    weights file, or in the weights file at ``path`` (as ``tuning.py`` writes them).
    Raises MinichessError for a file at ``path`` that does not hold weights."""
    definition = get_variant(variant)
    weights = starting_weights(definition)
    tuned = _load(Path(path) if path is not None else WEIGHTS_DIR / f"{definition.name}.json")
    if tuned is not None and len(tuned) in (FIRST_THREAT_FEATURE, WEIGHT_COUNT):
        weights[: len(tuned)] = tuned  # older files lack the newer features: they start at 0
    elif path is not None:
        raise MinichessError(f"{path}: no {WEIGHT_COUNT} evaluation weights there")
    return weights
