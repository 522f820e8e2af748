"""Players named by text, as the command line and :func:`~minichess.match.play_match` take them.

A player spec is one of

- ``level:N``: the engine at level N (one of ``minichess.engine.LEVELS``, 1..10);
- ``random``: uniformly random legal moves;
- ``greedy``: the materially best move one ply ahead;
- ``uci:COMMAND``: an external UCI engine started with COMMAND, which may include arguments
  (``uci:minichess uci``; quote it as one word in a shell: ``"uci:minichess uci"``; a program
  path with spaces is quoted inside: ``'uci:"/opt/my engine/run" --fast'``).

``level:N`` and ``uci:COMMAND`` may end in ``,time=F`` (0 < F <= 1): the player then thinks as
if its clock showed only that share of the time (time odds, e.g. ``level:10,time=0.5`` against
``level:10`` is a match of time t against 2t). Any player may end in ``,name=TEXT``: the name
that reports and PGN headers give it (default: the spec's text).

``uci:COMMAND`` also takes ``option.NAME=VALUE`` (sent as ``setoption name NAME value VALUE``
once the engine has started, in the order given) and ``variant=NAME``, the engine's name for
the match's variant (default: the first of the variant's Fairy-Stockfish name, its own name
and its aliases that the engine's ``UCI_Variant`` option offers). Fairy-Stockfish, which learns
our variants from a file, plays a match with nothing else::

    uci:/path/to/fairy-stockfish,option.VariantPath=/path/to/fairy.ini,name=fairy-stockfish

``level:N`` also takes engine options, to measure what a technique is worth by matches:
``nullmove=0|1``, ``reductions=0|1``, ``pruning=0|1``, ``singular=0|1``, ``forced=0|1``,
``correction=0|1`` (null-move pruning, late-move reductions, pruning at shallow depth, singular
extensions, the only legal move searched a ply deeper, the correction history of the static
evaluation), ``quiescence=N`` (how many plies quiescence follows captures, 1 to 32;
default: the variant's choice), ``forced_span=N`` (how many times the root's depth the only
legal move is extended within, 1 to 8; default 2) and ``weights=start`` or ``weights=FILE``
(the untuned starting weights of the evaluation, or those in a weights file as ``tuning.py`` writes
them) and ``network=none`` or ``network=FILE`` (the evaluation without the variant's network, or
with the one in a file as ``training.py`` writes it) and ``book=none`` or ``book=FILE`` (without the
variant's opening book, or with the one in a file as ``minichess book --build`` writes it) and
``endgame=none`` (without the endgame tables that ``minichess endgame --build`` makes), e.g.
``level:10,nullmove=0`` against ``level:10``. The search's constants are set by the names of their
fields in :class:`~minichess.engine.Techniques`, as positive integers:
``level:10,razor_margin=250``.

>>> spec = parse_player("level:10,time=0.5")
>>> spec.kind, spec.argument, spec.time_factor
('level', '10', 0.5)
>>> str(parse_player("uci:python3   -m minichess.cli.main uci"))
'uci:python3 -m minichess.cli.main uci'
>>> parse_player("uci:python3 engine.py,option.Hash=32,name=ours").display_name
'ours'
"""

from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minichess.engine import LEVELS, MAX_LEVEL
from minichess.engine.search import SEARCH_CONSTANTS
from minichess.errors import MinichessError
from minichess.players import (
    EnginePlayer,
    GreedyPlayer,
    Player,
    RandomPlayer,
    TimeOddsPlayer,
    UciPlayer,
)

_OPTION = r",(?:\w+|option\.[^=,]+)=[^,]*"
_SPEC = re.compile(
    rf"^(?P<kind>level|random|greedy|uci)(?::(?P<argument>.+?))?(?P<options>(?:{_OPTION})*)$",
    re.DOTALL,
)
SPEC_HELP = (
    f"level:N (N = {LEVELS[0]}..{MAX_LEVEL}), random, greedy or uci:COMMAND, the engine players"
    " optionally followed by ,time=F (0 < F <= 1) to use only that share of the clock, level:N"
    " also by ,nullmove=0|1 ,reductions=0|1 ,pruning=0|1 ,singular=0|1 ,forced=0|1 ,correction=0|1"
    " ,quiescence=1..32 ,forced_span=1..8 ,weights=start|FILE ,network=none|FILE ,book=none|FILE"
    " ,endgame=none"
    " and a search constant's name =N (razor_margin=250),"
    " uci:COMMAND by"
    " ,variant=ENGINES_NAME"
    " and ,option.NAME=VALUE (UCI options), any player by ,name=DISPLAY_NAME"
)
_TECHNIQUE_OPTIONS = {"nullmove": "null_move", "reductions": "reductions", "pruning": "pruning",
                      "singular": "singular", "forced": "forced",
                      "correction": "correction"}
"""``level:`` options that switch a search technique, and the Techniques field each sets."""
_NUMBER_OPTIONS = {"quiescence": ("quiescence_plies", range(1, 33)),
                   "forced_span": ("forced_span", range(1, 9))}
"""``level:`` options that set a Techniques field to a whole number: the field and its range."""
_ENGINE_OPTIONS = {**{name: ("0", "1") for name in _TECHNIQUE_OPTIONS},
                   **{name: tuple(map(str, values))
                      for name, (_, values) in _NUMBER_OPTIONS.items()},
                   "weights": ("start",), "network": ("none",), "book": ("none",),
                   "endgame": ("none",)}
SEARCH_CONSTANT_LIMIT = 1 << 20
"""The largest value a search constant may be given."""
UCI_OPTION_PREFIX = "option."
"""How a ``uci:`` spec's options that go to the engine begin."""


class PlayerSpecError(MinichessError):
    """Text that does not name a player."""


@dataclass(frozen=True)
class PlayerSpec:
    """A player described by text (see the module's documentation); :meth:`create` makes it."""

    kind: str
    """``level``, ``random``, ``greedy`` or ``uci``."""
    argument: str | None = None
    """The level, or the UCI engine's command."""
    time_factor: float = 1.0
    engine_options: tuple[tuple[str, str], ...] = ()
    """``(name, value)`` pairs of the options that only ``level:`` or only ``uci:`` takes
    (``("nullmove", "0")``, ``("variant", "antichess-mit")``, ``("option.Hash", "64")``)."""
    name: str | None = None
    """The name given with ``name=``."""

    @property
    def display_name(self) -> str:
        """The player's name in reports: the one given, else the spec's text."""
        return self.name or str(self)

    def create(self) -> Player:
        """A new player as described (for ``uci:``, the engine starts with its first game)."""
        player: Player
        if self.kind == "random":
            player = RandomPlayer()
        elif self.kind == "greedy":
            player = GreedyPlayer()
        else:
            assert self.argument is not None, "parse_player gives level: and uci: an argument"
            if self.kind == "level":
                options = dict(self.engine_options)
                techniques: dict[str, Any] = {
                    field: options[name] == "1"
                    for name, field in _TECHNIQUE_OPTIONS.items() if name in options}
                techniques.update({field: int(options[name])
                                   for name, (field, _) in _NUMBER_OPTIONS.items()
                                   if name in options})
                techniques.update({name: int(value) for name, value in options.items()
                                   if name in SEARCH_CONSTANTS})
                player = EnginePlayer(level=int(self.argument), techniques=techniques,
                                      weights=options.get("weights"),
                                      network=options.get("network"),
                                      book=options.get("book"),
                                      endgame=options.get("endgame"))
            else:
                uci_options = [(name.removeprefix(UCI_OPTION_PREFIX), value)
                               for name, value in self.engine_options
                               if name.startswith(UCI_OPTION_PREFIX)]
                player = UciPlayer(self.argument, name=self.display_name, options=uci_options,
                                   variant=dict(self.engine_options).get("variant"))
        if self.time_factor != 1:
            player = TimeOddsPlayer(player, self.time_factor)
        return player

    def __str__(self) -> str:
        text = self.kind if self.argument is None else f"{self.kind}:{self.argument}"
        if self.time_factor != 1:
            text += f",time={self.time_factor:g}"
        text += "".join(f",{name}={value}" for name, value in self.engine_options)
        return text if self.name is None else f"{text},name={self.name}"


def parse_player(text: str) -> PlayerSpec:
    """The PlayerSpec that ``text`` describes; raises PlayerSpecError saying what is wrong."""
    match = _SPEC.match(text.strip())
    if not match:
        raise PlayerSpecError(f"bad player {text!r}: expected {SPEC_HELP}")
    kind, argument = match["kind"], match["argument"]
    options = [item.split("=", 1) for item in match["options"].split(",")[1:]]
    if kind in ("random", "greedy") and argument is not None:
        raise PlayerSpecError(f"bad player {text!r}: {kind} takes no argument")
    factor = display_name = None
    engine_options = []
    for name, value in options:
        if name == "time" and kind in ("level", "uci"):
            factor = value
        elif name == "name" and value.strip():
            display_name = value.strip()
        elif _takes_option(kind, name, value):
            engine_options.append((name, value))
        else:
            raise PlayerSpecError(f"bad player {text!r}: unknown option {name}={value}")
    if kind == "level":
        argument = _level(text, argument)
    elif kind == "uci":
        argument = _uci_command(text, argument)
    return PlayerSpec(kind, argument, 1.0 if factor is None else _time_factor(text, factor),
                      tuple(engine_options), display_name)


def _takes_option(kind: str, name: str, value: str) -> bool:
    """Whether a ``kind`` player takes the option ``name=value`` (besides time and name)."""
    if kind == "level":
        if name in ("weights", "network", "book") and Path(value).is_file():
            return True
        if name in SEARCH_CONSTANTS:
            return value.isdigit() and 0 < int(value) <= SEARCH_CONSTANT_LIMIT
        return value in _ENGINE_OPTIONS.get(name, ())
    if kind == "uci":
        return bool(value) and (name == "variant" or name.startswith(UCI_OPTION_PREFIX))
    return False


def _level(text: str, argument: str | None) -> str:
    if argument is None or not argument.isdigit() or int(argument) not in LEVELS:
        raise PlayerSpecError(
            f"bad player {text!r}: the level must be {LEVELS[0]}..{MAX_LEVEL}"
        )
    return str(int(argument))


def _uci_command(text: str, argument: str | None) -> str:
    try:
        command = shlex.split(argument or "")
    except ValueError as error:
        raise PlayerSpecError(f"bad player {text!r}: {error}") from None
    if not command:
        raise PlayerSpecError(f"bad player {text!r}: uci: needs the engine's command")
    if shutil.which(command[0]) is None:
        raise PlayerSpecError(
            f"bad player {text!r}: no program {command[0]!r} (not found, or not executable)"
        )
    return shlex.join(command)


def _time_factor(text: str, factor: str) -> float:
    try:
        value = float(factor)
    except ValueError:
        value = 0.0
    if not 0 < value <= 1:
        raise PlayerSpecError(
            f"bad player {text!r}: time={factor} must be a number above 0 and at most 1"
        )
    return value
