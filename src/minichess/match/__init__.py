"""Matches between players: parallel timed games from balanced openings, with the Elo
difference they show.

>>> from minichess.match import play_match
>>> result = play_match(["level:3", "random"], "minitchess", games=4, time_control="5+0.1")
>>> result.wins + result.draws + result.losses
4
"""

from minichess.match.elo import EloEstimate, elo_estimate, elo_from_score, expected_score
from minichess.match.openings import Opening, balanced_openings
from minichess.match.runner import DEFAULT_TIME_CONTROL, GameReport, MatchResult, play_match
from minichess.match.specs import PlayerSpec, PlayerSpecError, parse_player

__all__ = [
    "DEFAULT_TIME_CONTROL",
    "EloEstimate",
    "GameReport",
    "MatchResult",
    "Opening",
    "PlayerSpec",
    "PlayerSpecError",
    "balanced_openings",
    "elo_estimate",
    "elo_from_score",
    "expected_score",
    "parse_player",
    "play_match",
]
