"""A load generator for IMCS servers: many players at once, each game played by random movers
through the client, while another connection, in a process of its own (so that the players'
work does not delay it), times ``list``.

    report = await run_load("127.0.0.1", 3589, games=100, clock_seconds=30)
    print(report.to_dict())

Used by the load test and ``benchmarks/imcs_load.py``. Point it only at a server you run: it
registers ``2 * games`` accounts named ``<prefix><n>``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from minichess.move import Move
from minichess.protocols.imcs.client import GameReport, ImcsClient, ImcsError, ServerClocks

PASSWORD = "load-test"


@dataclass
class LoadReport:
    """What a load run did and how fast the server answered."""

    games: int
    connections: int = 0
    """Connections open at the peak (players and the ``list`` probe)."""
    finished: int = 0
    plies: int = 0
    seconds: float = 0.0
    """From the first offer to the last game's end."""
    list_ms: list[float] = field(default_factory=list)
    """Time to each complete ``list`` reply during the games."""
    errors: list[str] = field(default_factory=list)
    results: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The figures, JSON-ready."""
        latencies = sorted(self.list_ms) or [0.0]
        return {
            "games": self.games, "connections": self.connections, "finished": self.finished,
            "plies": self.plies, "seconds": round(self.seconds, 3),
            "games_per_second": round(self.finished / self.seconds, 2) if self.seconds else 0,
            "plies_per_second": round(self.plies / self.seconds, 1) if self.seconds else 0,
            "list_requests": len(self.list_ms),
            "list_ms_median": round(statistics.median(latencies), 2),
            "list_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 2),
            "list_ms_max": round(latencies[-1], 2),
            "results": self.results, "errors": self.errors[:10],
        }


async def run_load(host: str, port: int, games: int = 100, clock_seconds: int = 30,
                   prefix: str = "load", seed: int = 0, timeout: float = 120.0) -> LoadReport:
    """Play ``games`` games at once between ``2 * games`` random movers and time ``list``
    meanwhile."""
    rng = random.Random(seed)
    report = LoadReport(games)
    names = [f"{prefix}{n}" for n in range(2 * games)]
    clients = await asyncio.gather(*(_logged_in(host, port, name) for name in names))
    probe, results = _start_probe(host, port)
    report.connections = len(clients) + 1
    started = time.perf_counter()
    pairs = [(clients[2 * n], clients[2 * n + 1]) for n in range(games)]
    outcomes = await asyncio.wait_for(
        asyncio.gather(*(_game(a, b, clock_seconds, rng.random()) for a, b in pairs),
                       return_exceptions=True), timeout)
    report.seconds = time.perf_counter() - started
    probe.send("stop")
    report.list_ms, errors = await asyncio.to_thread(probe.recv)
    report.errors += errors
    await asyncio.to_thread(results.join, 30)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            report.errors.append(f"{type(outcome).__name__}: {outcome}")
            continue
        report.finished += 1
        report.plies += len(outcome.game.moves)
        report.results[outcome.result] = report.results.get(outcome.result, 0) + 1
    for client in clients:
        client.close()
    return report


async def _logged_in(host: str, port: int, name: str) -> ImcsClient:
    client = await ImcsClient.connect(host, port, timeout=30)
    await client.login(name, PASSWORD, register=True)
    return client


async def _game(offerer: ImcsClient, accepter: ImcsClient, clock_seconds: int,
                seed: float) -> GameReport:
    game_id = await offerer.offer("W" if seed < 0.5 else "B", clock_seconds)
    waiting = asyncio.ensure_future(offerer.wait_for_start(timeout=30))
    start = await accepter.accept(game_id)
    rng = random.Random(seed)
    offerer_report, _ = await asyncio.gather(
        offerer.play(await waiting, _random_mover(rng), game_id=game_id),
        accepter.play(start, _random_mover(rng), game_id=game_id))
    return offerer_report


def _random_mover(rng: random.Random):
    async def choose(view: ServerClocks) -> Move:
        return rng.choice(view.board.legal_moves)

    return choose


def _start_probe(host: str, port: int) -> tuple[Connection, BaseProcess]:
    """The ``list`` probe in a process of its own, connected once this returns; send it
    ``stop`` to get its (reply times, errors)."""
    ours, theirs = multiprocessing.Pipe()
    process = multiprocessing.get_context("spawn").Process(
        target=_probe_process, args=(host, port, theirs), daemon=True)
    process.start()
    ours.recv()  # connected
    return ours, process


def _probe_process(host: str, port: int, pipe: Connection) -> None:
    asyncio.run(_probe(host, port, pipe))


async def _probe(host: str, port: int, pipe: Connection) -> None:
    client = await ImcsClient.connect(host, port, timeout=30)
    pipe.send("connected")
    times: list[float] = []
    errors: list[str] = []
    while not pipe.poll():
        asked = time.perf_counter()
        try:
            await client.request_lines("list", "211", timeout=30)
        except ImcsError as error:
            errors.append(f"list: {error}")
            break
        times.append((time.perf_counter() - asked) * 1000)
        await asyncio.sleep(0.02)
    client.close()
    pipe.recv()
    pipe.send((times, errors))
