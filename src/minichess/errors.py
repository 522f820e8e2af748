"""Exceptions raised by minichess. All derive from :class:`MinichessError` and ``ValueError``."""

from __future__ import annotations


class MinichessError(ValueError):
    """Base class of every error minichess raises on bad input."""


class UnknownVariantError(MinichessError):
    """A variant name that is neither a known name nor an alias."""


class InvalidFenError(MinichessError):
    """A FEN (or Massey state text) that does not describe a valid position of the variant."""


class InvalidMoveError(MinichessError):
    """Move text that cannot be parsed."""


class IllegalMoveError(MinichessError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(IllegalMoveError):
    """SAN that matches more than one legal move."""


class InvalidPgnError(MinichessError):
    """PGN text that cannot be read."""
