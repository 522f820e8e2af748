"""Matches between players: parallel timed games from balanced openings, with the Elo
difference they show, and the SPRT that stops a match once it decides.

>>> from minichess.match import Sprt, play_match
>>> result = play_match(["level:3", "random"], "minitchess", games=4, time_control="5+0.1")
>>> result.wins + result.draws + result.losses
4
>>> result = play_match(["random", "greedy"], "minitchess", games=None, time_control="5+0.1",
...                     sprt=Sprt(0, 200))
>>> result.decision, result.llr <= result.sprt.lower
(<Decision.H0: 'H0'>, True)
"""

from minichess.match.elo import EloEstimate, elo_estimate, elo_from_score, expected_score
from minichess.match.openings import Opening, balanced_openings, read_openings
from minichess.match.runner import DEFAULT_TIME_CONTROL, GameReport, MatchResult, play_match
from minichess.match.specs import PlayerSpec, PlayerSpecError, parse_player
from minichess.match.sprt import Decision, Sprt, SprtError, parse_sprt

__all__ = [
    "DEFAULT_TIME_CONTROL",
    "Decision",
    "EloEstimate",
    "GameReport",
    "MatchResult",
    "Opening",
    "PlayerSpec",
    "PlayerSpecError",
    "Sprt",
    "SprtError",
    "balanced_openings",
    "elo_estimate",
    "elo_from_score",
    "expected_score",
    "parse_player",
    "parse_sprt",
    "play_match",
    "read_openings",
]
