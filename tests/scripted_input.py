"""Input and output for tests of interactive play: typed lines from a script, plain text out."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console


def scripted(*lines: str) -> Callable[[str], str]:
    """An input function that types ``lines`` and then ends the input."""
    typed = iter(lines)

    def read_line(prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    return read_line


def plain_console() -> Console:
    """A console writing plain text to a string (``console.file.getvalue()``)."""
    return Console(file=io.StringIO(), width=100, color_system=None)
