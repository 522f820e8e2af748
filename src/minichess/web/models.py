"""The JSON bodies of the web API, checked by pydantic (bad ones get a 422 saying what is wrong)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

MoveText = Annotated[str, Field(min_length=1, max_length=16)]
TagName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^\w+$")]
TagValue = Annotated[str, Field(max_length=200)]


def level_field(default: int = 5):
    """An engine level field."""
    return Field(default, ge=1, le=10, description="engine strength, 1 (beginner) to 10 (full)")


class Body(BaseModel):
    """A request body: unknown fields are refused rather than ignored."""

    model_config = ConfigDict(extra="forbid")


class Clock(Body):
    """A chess clock: seconds for the whole game, and seconds added after each move."""

    initial: float = Field(gt=0, le=86400, examples=[300])
    increment: float = Field(0, ge=0, le=600, examples=[2])


class Position(Body):
    """A position: the variant, a start FEN (default: the variant's start) and moves from it."""

    variant: str = Field("minitchess", max_length=40, examples=["minitchess"])
    fen: str | None = Field(None, max_length=300, description="start position; None: the usual")
    moves: list[MoveText] = Field([], max_length=2000, description="moves in any notation")


class NewGame(Body):
    """A game against the engine."""

    variant: str = Field("minitchess", max_length=40)
    fen: str | None = Field(None, max_length=300)
    color: Literal["white", "black", "random"] = "white"
    level: int = level_field()
    clock: Clock | None = None
    move_time: float = Field(1.0, gt=0, le=30, description="engine seconds a move, no clock")


class NewWatch(Body):
    """A game of the engine against itself, to watch."""

    variant: str = Field("minitchess", max_length=40)
    fen: str | None = Field(None, max_length=300)
    white_level: int = level_field()
    black_level: int = level_field()
    clock: Clock | None = None
    move_time: float = Field(0.5, gt=0, le=30, description="engine seconds a move, no clock")
    delay: float = Field(0.3, ge=0, le=10, description="least seconds between two moves")


class MoveRequest(Body):
    """A move in any notation: ``b2b3``, ``b2-b3``, ``b3``, ``a5a6q``, ``Q@d6``."""

    move: str = Field(min_length=1, max_length=16, examples=["b2b3"])


class AnalyseRequest(Position):
    """A bounded search of a position."""

    seconds: float = Field(1.0, gt=0, le=10)
    depth: int | None = Field(None, ge=1, le=64)


class PgnText(Body):
    """PGN text (one or more games)."""

    pgn: str = Field(min_length=1, max_length=1_000_000)


class PgnWrite(Position):
    """A game to write as PGN: its position, moves and tag pairs."""

    headers: dict[TagName, TagValue] = Field({}, max_length=50)
    result: Literal["1-0", "0-1", "1/2-1/2", "*"] | None = None


# --- what the watch feeds answer (documented in the OpenAPI schema) ---------------------------

Color = Literal["white", "black"]


class ClockSeconds(BaseModel):
    """Both clocks, in seconds."""

    white: float
    black: float


class RunningClock(ClockSeconds):
    """Both clocks now, and whose is running (None: neither, e.g. before White's free first
    move on IMCS, or at the end)."""

    running: Color | None = None


class FeedGameSummary(BaseModel):
    """A game of a feed, as listed."""

    id: str = Field(examples=["17"])
    variant: str
    white: str
    black: str
    white_rating: int | None = Field(None, description="before the game")
    black_rating: int | None = None
    white_change: int | None = Field(None, description="the rating change the game brought")
    black_change: int | None = None
    result: str = Field(description="1-0, 0-1, 1/2-1/2, or * while it runs or if aborted")
    termination: str | None = Field(None, examples=["time forfeit"])
    reason: str | None = Field(None, description="how it ended, in words",
                               examples=["W wins on opponent time"])
    live: bool = Field(description="in progress")
    started: float = Field(description="Unix time")
    ended: float | None = None
    plies: int = Field(description="moves played by either side")
    tournament: int | None = None
    round: int | None = None
    fen: str | None = Field(None, description="the position now (games in progress)")
    clock: RunningClock | None = None


class FeedMove(BaseModel):
    """A move of a feed's game: coordinates, SAN, the position after it, the clocks after it."""

    uci: str = Field(examples=["a2a3"])
    san: str = Field(examples=["a3"])
    fen: str
    clock: ClockSeconds | None = None


class FeedGame(FeedGameSummary):
    """A whole game of a feed: its moves, to follow or step through."""

    start_fen: str
    initial: ClockSeconds | None = Field(None, description="the clocks at the start")
    moves: list[str] = Field(description="coordinates")
    history: list[FeedMove]
    fen: str = Field(description="the position now")
    turn: Color
    check: str | None = Field(None, description="the square of a king in check")
    lastmove: str | None = None


class FeedRating(BaseModel):
    """A player's rating and the number of rated games behind it."""

    name: str
    rating: int
    games: int


class FeedState(BaseModel):
    """A feed now: its games in progress, its latest finished games, the top of its ratings."""

    name: str = Field(examples=["imcs"])
    title: str = Field(examples=["IMCS server 127.0.0.1:3589"])
    live: list[FeedGameSummary]
    finished: list[FeedGameSummary]
    ratings: list[FeedRating] = Field(description="the top ten")
    variants: list[str] = Field(description="the variants with ratings")


class EngineGameSummary(BaseModel):
    """One of this session's engine games."""

    id: str
    result: str
    variant: str | None
    white: str | None
    black: str | None


class WatchList(BaseModel):
    """Games to watch."""

    engine_games: list[EngineGameSummary]
    feeds: list[FeedState]
