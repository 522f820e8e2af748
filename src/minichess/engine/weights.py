"""Evaluation weights per variant: tuned weights shipped as data, or a starting point.

Tuned weights live in ``weights/<variant>.json`` (written by ``tuning.py``); a variant without
such a file starts from ``starting_weights``, built from its definition. A variant's network
(``network.py``), where it has one, lives in ``weights/<variant>.npz`` (written by
``training.py``); its block follows the linear weights in the array the engine uses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
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
from minichess.engine.network import (
    MAX_BUCKETS,
    MAX_HIDDEN,
    N_BUCKETS,
    N_EDGES,
    N_HIDDEN,
    block_size,
    search_fit_error,
    search_network,
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


NO_NETWORK = "none"
"""``variant_weights``' ``network`` for an evaluation without the variant's network."""


def variant_weights(variant: str | VariantDefinition, path: str | Path | None = None,
                    network: str | Path | None = None) -> np.ndarray:
    """The evaluation parameters the engine uses for ``variant`` (a fresh array): the weights
    in its weights file, or in the weights file at ``path`` (as ``tuning.py`` writes them),
    followed by the block of its network, or of the network in the file ``network``
    (``NO_NETWORK``: none). Raises MinichessError for a file that does not hold them."""
    definition = get_variant(variant)
    weights = starting_weights(definition)
    tuned = _load(Path(path) if path is not None else WEIGHTS_DIR / f"{definition.name}.json")
    if tuned is not None and len(tuned) in (FIRST_THREAT_FEATURE, WEIGHT_COUNT):
        weights[: len(tuned)] = tuned  # older files lack the newer features: they start at 0
    elif path is not None:
        raise MinichessError(f"{path}: no {WEIGHT_COUNT} evaluation weights there")
    if network == NO_NETWORK:
        return weights
    block = _load_network(Path(network) if network is not None
                          else WEIGHTS_DIR / f"{definition.name}.npz")
    if block is None:
        if network is not None:
            raise MinichessError(f"{network}: no network there")
        return weights
    return np.concatenate([weights, block])


@cache
def _load_network(path: Path) -> np.ndarray | None:
    """The network block in a file as ``training.py`` writes it (None without the file)."""
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            block = np.asarray(data["block"], dtype=np.int64)
    except (OSError, ValueError, KeyError) as error:
        raise MinichessError(f"{path}: not a network file ({error})") from None
    if not _complete(block):
        raise MinichessError(f"{path}: the network's parameters are incomplete")
    too_large = search_fit_error(block)
    if too_large is not None:
        raise MinichessError(f"{path}: the network does not fit the search's integers "
                             f"({too_large})")
    return block


def _complete(block: np.ndarray) -> bool:
    """Whether ``block`` has the length its numbers of hidden units and outputs give it, and
    increasing piece counts between its outputs."""
    if block.ndim != 1 or len(block) == 0 or not 0 <= block[N_HIDDEN] <= MAX_HIDDEN:
        return False
    if block[N_HIDDEN] == 0:
        return len(block) == 1
    buckets = int(block[N_BUCKETS]) if len(block) > N_BUCKETS else 0
    if not 0 < buckets <= MAX_BUCKETS or len(block) != block_size(int(block[N_HIDDEN]), buckets):
        return False
    edges = block[N_EDGES:N_EDGES + buckets - 1]
    return bool(np.all(np.diff(edges) > 0))


@dataclass(frozen=True)
class EvaluationParameters:
    """The evaluation as the search reads it: ``weights``, the linear weights followed by the
    block of the network (as ``variant_weights`` gives them), and ``network``, that network in
    the search's 16-bit integers (``network.search_network``; no entries without one)."""

    weights: np.ndarray
    network: np.ndarray

    @classmethod
    def of(cls, weights: np.ndarray) -> EvaluationParameters:
        """The parameters of ``weights`` (an array as ``variant_weights`` gives it)."""
        weights = np.ascontiguousarray(weights, dtype=np.int64)
        block = weights[WEIGHT_COUNT:] if len(weights) > WEIGHT_COUNT else np.zeros(1, np.int64)
        return cls(weights, search_network(block))
