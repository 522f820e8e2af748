"""Tune the search's constants by games (SPSA, as the large engine-testing frameworks do).

Simultaneous perturbation stochastic approximation: at each step every constant is moved by
its perturbation ``c`` up or down at random (one sign per constant), the engine with the
constants moved one way plays a pair of games from one opening (each side once) against the
engine with them moved the other way, and every constant moves towards the side that scored,
by ``a / c`` times the pair's result (its wins less its losses) in the direction it was
perturbed. ``c`` and ``a`` shrink over the run as ``1 / step ** 0.101`` and ``1 / (A + step)
** 0.602`` (``A`` a tenth of the steps), from values chosen so that the last step perturbs each
constant by its ``--step`` and moves it at most ``--rate`` times that per unit of result:
the schedule of fishtest's SPSA. The pairs run ``--concurrency`` at once on local processes,
or on a Ray cluster (``--ray``); each new pair takes the constants as they are when a worker
is free.

    python -m minichess.engine.spsa --variant losalamos --games 2000 --time 2+0.02 \\
        --tune razor_margin futility_margin reduction_scale --output spsa.json

tunes the named constants (by default all of :data:`~minichess.engine.search.SEARCH_CONSTANTS`)
from the variant's values, each perturbed by a tenth of its start unless ``NAME=START:STEP``
says otherwise. ``--output`` is rewritten (atomically) after every pair with the constants so
far, their history and the player spec that plays with them (``level:10,razor_margin=...``),
so a run stopped at any moment keeps what it learnt, and ``--resume`` goes on from it. The
result is a proposal, not a change: a constant set by SPSA is kept only if a match shows it
gains (docs/engine.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from minichess.engine.engine import Techniques
from minichess.engine.progress import progress_reports
from minichess.engine.search import SEARCH_CONSTANTS
from minichess.errors import MinichessError
from minichess.game import TimeControl, parse_time_control
from minichess.match.openings import Opening, opening_cycle
from minichess.match.pool import StopEvent, open_pool
from minichess.match.runner import GameTask, play_game
from minichess.players import EnginePlayer
from minichess.variants import VariantDefinition, get_variant

ALPHA = 0.602
GAMMA = 0.101
"""The exponents of the learning rate's and the perturbation's decay (Spall's values)."""
STABILITY = 0.1
"""``A``, the learning rate's offset, as a share of the steps."""
RATE = 0.002
"""Default ``r``: at the last step a constant moves ``r * c`` per unit of a pair's result."""
DEFAULT_STEP_SHARE = 0.1
"""Default perturbation at the last step: this share of the constant's start."""


class SpsaError(MinichessError):
    """A bad tuning request: an unknown constant, a bad step or a file that is no run."""


@dataclass
class Constant:
    """One constant being tuned."""

    name: str
    value: float
    """Where the run has brought it (real-valued; the engine plays with it rounded)."""
    step: float
    """Its perturbation at the last step (``c_end``)."""


@dataclass
class SpsaRun:
    """A tuning run: its settings, the constants and what the pairs played so far said."""

    variant: str
    time_control: str
    pairs: int
    """Steps (game pairs) planned."""
    seed: int
    rate: float
    constants: list[Constant]
    done: int = 0
    """Pairs played so far."""
    score: float = 0.0
    """The perturbed-up engines' points less the perturbed-down engines', over all pairs."""
    history: list[dict[str, float]] = field(default_factory=list)
    """The constants after every tenth of the pairs."""

    def perturbation(self, step: int) -> float:
        """The factor of each constant's ``step`` (its ``c_end``) at ``step`` (from 0)."""
        return (self.pairs / (step + 1)) ** GAMMA

    def learning_rate(self, step: int) -> float:
        """The factor of ``rate * step**2`` (``a_end``) at ``step``."""
        offset = STABILITY * self.pairs
        return ((offset + self.pairs) / (offset + step + 1)) ** ALPHA

    def spec(self) -> str:
        """The player spec that plays with the constants as they stand."""
        return "level:10" + "".join(f",{c.name}={_playable(c.value)}" for c in self.constants)

    def to_dict(self) -> dict:
        """The run as JSON: its settings, constants, history and player spec."""
        return {**asdict(self), "spec": self.spec()}

    @classmethod
    def from_dict(cls, data: dict) -> SpsaRun:
        """The run that ``to_dict`` wrote."""
        try:
            fields = {key: value for key, value in data.items() if key != "spec"}
            fields["constants"] = [Constant(**item) for item in fields["constants"]]
            return cls(**fields)
        except (KeyError, TypeError) as error:
            raise SpsaError(f"not a tuning run: {error}") from None


@dataclass(frozen=True)
class PairTask:
    """One step: the constants moved up and down, and the opening and clock of its pair."""

    step: int
    variant: str
    opening: Opening
    clock: TimeControl
    signs: tuple[int, ...]
    up: dict[str, int]
    down: dict[str, int]


def new_run(variant: VariantDefinition, games: int, time_control: str, seed: int,
            tune: Sequence[str] = (), rate: float = RATE) -> SpsaRun:
    """A run of ``games // 2`` pairs that tunes the constants ``tune`` names (``NAME`` or
    ``NAME=START:STEP``; none: all of them) from the variant's values."""
    if games < 2:
        raise SpsaError(f"a tuning run needs at least one pair of games, not {games}")
    parse_time_control(time_control)
    start = Techniques.for_variant(variant)
    constants = []
    for item in tune or list(SEARCH_CONSTANTS):
        name, _, setting = item.partition("=")
        if name not in SEARCH_CONSTANTS:
            raise SpsaError(f"unknown search constant {name!r}: expected one of "
                            f"{', '.join(SEARCH_CONSTANTS)}")
        value, step = _setting(item, setting, float(getattr(start, name)))
        constants.append(Constant(name, value, step))
    return SpsaRun(variant.name, time_control, games // 2, seed, rate, constants)


def _setting(item: str, setting: str, value: float) -> tuple[float, float]:
    """START and STEP of ``NAME=START:STEP`` (either or both may be left out: the start is
    then ``value``, the step a tenth of the start)."""
    first, _, second = setting.partition(":")
    try:
        start = float(first) if first else value
        step = float(second) if second else max(start * DEFAULT_STEP_SHARE, 1.0)
    except ValueError:
        raise SpsaError(f"bad constant {item!r}: expected NAME=START:STEP") from None
    if start < 1 or step <= 0:
        raise SpsaError(f"bad constant {item!r}: the start must be at least 1, the step above 0")
    return start, step


def _playable(value: float) -> int:
    """A constant as the engine takes it: a positive integer."""
    return max(round(value), 1)


def tasks(run: SpsaRun, chooser: random.Random) -> Iterator[PairTask]:
    """The run's remaining steps, each drawn from the constants as they are when it is
    taken."""
    variant = get_variant(run.variant)
    clock = parse_time_control(run.time_control)
    openings = opening_cycle(variant, run.seed, None)
    for _ in range(run.done):  # a resumed run goes on with new openings
        next(openings)
    for step in range(run.done, run.pairs):
        factor = run.perturbation(step)
        signs = tuple(chooser.choice((-1, 1)) for _ in run.constants)
        up, down = {}, {}
        for constant, sign in zip(run.constants, signs, strict=True):
            shift = sign * constant.step * factor
            up[constant.name] = _playable(constant.value + shift)
            down[constant.name] = _playable(constant.value - shift)
        yield PairTask(step, run.variant, next(openings), clock, signs, up, down)


def learn(run: SpsaRun, task: PairTask, result: float) -> None:
    """Move the constants by a pair's ``result`` (the up engine's points less the down
    engine's, -2 to 2)."""
    factor = run.learning_rate(task.step) / run.perturbation(task.step)
    for constant, sign in zip(run.constants, task.signs, strict=True):
        constant.value = max(constant.value + run.rate * constant.step * factor * result * sign,
                             1.0)
    run.done += 1
    run.score += result
    if run.done % max(run.pairs // 10, 1) == 0 or run.done == run.pairs:
        run.history.append({c.name: round(c.value, 2) for c in run.constants})


# --- in the worker processes --------------------------------------------------------------------

_stop: list[StopEvent] = []


def _start_worker(stop: StopEvent) -> None:
    _stop[:] = [stop]


def _play_pair(task: PairTask) -> tuple[PairTask, float]:
    """Play a step's two games; return it with the up engine's points less the down
    engine's."""
    players = [EnginePlayer(techniques=task.up), EnginePlayer(techniques=task.down)]
    names = ("up", "down")
    points = 0.0
    for game in range(2):
        report = play_game(GameTask(2 * task.step + game + 1, task.variant, task.opening,
                                    game == 0, task.clock, names, (0, 0)),
                           players, _stop[0] if _stop else None)
        points += 2 * report.first_player_score - 1
    for player in players:
        player.close()
    return task, points


# --- the run ------------------------------------------------------------------------------------


def tune(run: SpsaRun, output: Path | None, concurrency: int | None = None,
         ray: str | None = None) -> SpsaRun:
    """Play the run's remaining pairs, learning from each; rewrite ``output`` after each."""
    chooser = random.Random(f"{run.seed}:{run.done}")
    if output is not None:
        _write(output, run)  # a path that cannot be written fails now, not after a pair
    with progress_reports(run.pairs, "SPSA game pairs") as report, \
            open_pool(concurrency, _start_worker, (), ray, limit=run.pairs - run.done) as pool:
        report(run.done)
        for task, result in pool.results(_play_pair, tasks(run, chooser)):
            learn(run, task, result)
            if output is not None:
                _write(output, run)
            report(run.done)
    return run


def _write(path: Path, run: SpsaRun) -> None:
    """Write the run to ``path`` so that a crash leaves the old file or the new one."""
    partial = path.with_name(f".{path.name}.partial")
    with partial.open("w") as file:
        file.write(json.dumps(run.to_dict(), indent=1) + "\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: tune a variant's search constants by SPSA."""
    parser = argparse.ArgumentParser(
        prog="python -m minichess.engine.spsa",
        description="Tune the search's constants by self-play game pairs (SPSA).")
    parser.add_argument("--variant", help="the variant (not needed with --resume)")
    parser.add_argument("--games", type=int, default=2000, help="games, in pairs (default"
                        " %(default)s)")
    parser.add_argument("--time", default="2+0.02", metavar="TC",
                        help="time control of the games (default %(default)s)")
    parser.add_argument("--tune", nargs="+", default=(), metavar="NAME[=START:STEP]",
                        help="the constants to tune (default: all): "
                        + ", ".join(SEARCH_CONSTANTS))
    parser.add_argument("--rate", type=float, default=RATE,
                        help="the last step's learning rate r (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=None, metavar="N",
                        help="pairs played at once (default: one per core)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play on the Ray cluster at ADDRESS ('auto': a local Ray)")
    parser.add_argument("--output", type=Path, help="the run's file, rewritten after each pair")
    parser.add_argument("--resume", type=Path, metavar="FILE",
                        help="go on with the run in FILE (its settings; --output defaults to it)")
    parser.add_argument("--json", action="store_true", help="print the run as JSON at the end")
    args = parser.parse_args(argv)
    try:
        if args.resume is not None:
            run = SpsaRun.from_dict(json.loads(args.resume.read_text()))
            output = args.output or args.resume
        elif args.variant is None:
            parser.error("--variant is needed unless --resume is given")
        else:
            run = new_run(get_variant(args.variant), args.games, args.time, args.seed,
                          args.tune, args.rate)
            output = args.output
        tune(run, output, args.concurrency, args.ray)
    except (MinichessError, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(run.to_dict(), indent=1))
    else:
        print(f"{run.done} pairs, score of the up engines {run.score:+g}")
        for constant in run.constants:
            print(f"{constant.name:24} {constant.value:10.2f}")
        print(run.spec())
    return 0


if __name__ == "__main__":
    sys.exit(main())
