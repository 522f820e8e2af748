"""Variant definitions: each variant is data (board, pieces, rule switches)."""

from minichess.variants.catalog import VARIANTS, get_variant
from minichess.variants.definition import (
    MoveSet,
    PieceDefinition,
    Result,
    Royalty,
    VariantDefinition,
)

__all__ = [
    "VARIANTS",
    "MoveSet",
    "PieceDefinition",
    "Result",
    "Royalty",
    "VariantDefinition",
    "get_variant",
]
