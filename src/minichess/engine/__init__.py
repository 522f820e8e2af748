"""The adversary: search, evaluation, time management and strength levels."""

from minichess.engine.engine import (
    LEVELS,
    Engine,
    Info,
    Limit,
    PlayResult,
    Techniques,
    time_budget,
)

__all__ = ["LEVELS", "Engine", "Info", "Limit", "PlayResult", "Techniques", "time_budget"]
