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

__all__ = [
    "LEVELS",
    "MAX_LEVEL",
    "Engine",
    "Info",
    "Limit",
    "PlayResult",
    "Techniques",
    "time_budget",
]
