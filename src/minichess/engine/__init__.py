"""The adversary: search, evaluation, time management and strength levels."""

from minichess.engine.engine import (
    LEVELS,
    MAX_LEVEL,
    Engine,
    Info,
    Limit,
    PlayResult,
    Techniques,
    time_budget,
)
from minichess.engine.thread import SearchThread

__all__ = [
    "LEVELS",
    "MAX_LEVEL",
    "Engine",
    "Info",
    "Limit",
    "PlayResult",
    "SearchThread",
    "Techniques",
    "time_budget",
]
