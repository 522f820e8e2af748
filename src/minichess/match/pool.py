"""Where games run: worker processes on this machine (the default) or a Ray cluster.

A pool of workers plays tasks (games) given by an iterator, several at once, and yields their
results as they finish. Each worker is set up once: ``setup(stop, *setup_args)`` runs in it
before its first task (a match creates its two players there) and may return a function that
releases what it holds, called when the worker ends. ``stop`` is an event set when the pool
closes with tasks still running, so that they give up at once (a match's games check it
between moves). Tasks are pulled from the iterator only as workers become free, so it may be
endless: the caller stops by leaving the loop. A local worker also ends by itself once the
process that started it is gone (killed before it could close the pool).

    with open_pool(2, _setup, (specs,)) as pool:
        for result in pool.results(_play, tasks):
            ...

With ``ray="auto"`` the pool starts a local Ray instance (or uses the one this process has
already started) and ends it when it closes; with any other address it joins that cluster
(``ray.init(address=...)``), where every node must have minichess installed. Each worker is
then a Ray actor using one CPU. Ray is an optional extra: ``pip install minichess[ray]``.
The functions given must be importable module-level functions, as for any process pool.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from multiprocessing.util import Finalize
from typing import Any, Protocol

from minichess.errors import MinichessError

StopEvent = Any
"""An event with ``is_set()`` (a multiprocessing or threading Event)."""
Setup = Callable[..., Callable[[], None] | None]
"""``setup(stop, *args)``, run once in each worker; may return what releases its resources."""
LOCAL_RAY = "auto"
"""The ``ray`` argument that starts a local Ray instance."""
RAY_OBJECT_STORE_BYTES = 200 * 2**20
"""The object store of a local Ray instance: games exchange only small results."""
RAY_PROBE_SECONDS = 5.0
"""How long joining a Ray cluster waits for its address to answer at all."""
RAY_CLOSE_SECONDS = 30.0
"""How long closing waits for a Ray worker to end its game and release its players."""


class PoolError(MinichessError):
    """The workers could not be started (Ray missing or unreachable, bad concurrency)."""


class Pool(Protocol):
    """Workers that play tasks."""

    size: int
    """How many tasks run at once."""

    def results(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """``function(task)`` of each task, run in the workers, in the order they finish."""
        ...


@contextmanager
def open_pool(
    concurrency: int | None, setup: Setup | None = None, setup_args: tuple = (),
    ray: str | None = None, limit: int | None = None,
) -> Iterator[Pool]:
    """A pool of ``concurrency`` workers (default: one per core of this machine, or of the
    Ray cluster, at most its CPUs), at most ``limit`` (the number of tasks, when known), on
    local processes or on Ray at address ``ray``. Leaving the block stops the tasks still
    running."""
    if concurrency is not None and concurrency < 1:
        raise PoolError(f"concurrency must be at least 1, not {concurrency}")
    pool: _ProcessPool | _RayPool
    if ray is None:
        pool = _ProcessPool(_size(concurrency or os.cpu_count() or 1, limit), setup, setup_args)
    else:
        pool = _RayPool(ray, concurrency, limit, setup, setup_args)
    try:
        yield pool
    finally:
        pool.close()


def _size(workers: int, limit: int | None) -> int:
    return max(min(workers, limit or workers), 1)


# --- local processes ----------------------------------------------------------------------------


class _ProcessPool:
    """Worker processes started with ``spawn`` (a script using them must guard its main code
    with ``if __name__ == "__main__":``)."""

    def __init__(self, size: int, setup: Setup | None, setup_args: tuple) -> None:
        self.size = size
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._executor = ProcessPoolExecutor(size, mp_context=context, initializer=_set_up,
                                             initargs=(setup, self._stop, setup_args,
                                                       os.getpid()))

    def results(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """Results as tasks finish, with twice as many tasks queued as there are workers."""
        tasks = iter(tasks)
        running: set[Future] = set()
        while True:
            for task in itertools.islice(tasks, 2 * self.size - len(running)):
                running.add(self._executor.submit(function, task))
            if not running:
                return
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()

    def close(self) -> None:
        """Stop what still runs and end the workers."""
        self._stop.set()
        self._executor.shutdown(wait=True, cancel_futures=True)


def _set_up(setup: Setup | None, stop: StopEvent, setup_args: tuple, parent: int) -> None:
    """A worker process's initializer: the release it returns runs when the process ends, and
    the process ends with ``parent``, the one that started it (see ``_end_with_parent``)."""
    threading.Thread(target=_end_with_parent, args=(parent,), daemon=True).start()
    if setup is None:
        return
    release = setup(stop, *setup_args)
    if release is not None:
        Finalize(None, release, exitpriority=10)


PARENT_POLL_SECONDS = 0.5
"""How often a worker process looks whether the process that started it still lives."""


def _end_with_parent(parent: int) -> None:
    """End this worker once its parent is gone (killed, say, with no chance to close the
    pool): a worker left behind would play its game to the end for nobody, then wait for
    ever. Its UCI engines see their input close and end too."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


# --- Ray ----------------------------------------------------------------------------------------


class _RayPool:
    """One Ray actor per worker, each given one task at a time."""

    def __init__(self, address: str, concurrency: int | None, limit: int | None,
                 setup: Setup | None, setup_args: tuple) -> None:
        self._ray = _import_ray()
        self._started = _connect(self._ray, address, concurrency)
        self._actors: list[Any] = []
        self._running: dict[Any, Any] = {}
        try:
            cpus = int(self._ray.cluster_resources().get("CPU", 1))
            self.size = _size(min(concurrency or cpus, cpus), limit)  # an actor needs a CPU
            actor_class = self._ray.remote(num_cpus=1, max_concurrency=2)(RayWorker)
            self._actors = [actor_class.remote(setup, setup_args) for _ in range(self.size)]
        except BaseException:
            self.close()
            raise

    def results(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """Results as tasks finish; a task goes to the first actor that is free."""
        ray, tasks, idle = self._ray, iter(tasks), list(self._actors)
        while True:
            for actor, task in zip(list(idle), tasks, strict=False):
                idle.remove(actor)
                self._running[actor.run.remote(function, task)] = actor
            if not self._running:
                return
            done, _ = ray.wait(list(self._running), num_returns=1)
            for reference in done:
                idle.append(self._running.pop(reference))
                yield ray.get(reference)

    def close(self) -> None:
        """Stop the running tasks, let the actors release their players, end them (and the
        local Ray instance if this pool started it)."""
        ray = self._ray
        try:
            for actor in self._actors:
                actor.stop.remote()
            if self._running:
                ray.wait(list(self._running), num_returns=len(self._running),
                         timeout=RAY_CLOSE_SECONDS)
            self._running.clear()
            releases = [actor.release.remote() for actor in self._actors]
            if releases:
                ray.wait(releases, num_returns=len(releases), timeout=RAY_CLOSE_SECONDS)
            for actor in self._actors:
                ray.kill(actor)
            self._actors = []
        finally:
            if self._started:
                ray.shutdown()


class RayWorker:
    """What each Ray actor is: a worker set up once, playing one task at a time, which
    ``stop`` (run beside a task: the actor has two threads) tells to give up."""

    def __init__(self, setup: Setup | None, setup_args: tuple) -> None:
        self._stop = threading.Event()
        self._release = None if setup is None else setup(self._stop, *setup_args)

    def run(self, function: Callable[[Any], Any], task: Any) -> Any:
        """``function(task)``."""
        return function(task)

    def stop(self) -> None:
        """Make the running task give up."""
        self._stop.set()

    def release(self) -> None:
        """Release what the setup holds."""
        if self._release is not None:
            self._release()
            self._release = None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise PoolError("Ray is not installed: pip install 'minichess[ray]'") from None
    return ray


def _connect(ray: Any, address: str, concurrency: int | None) -> bool:
    """Join the cluster at ``address``, or start a local one for ``auto``, unless this process
    is connected already; return whether a local instance was started here."""
    if ray.is_initialized():
        return False
    options = {"logging_level": "ERROR", "log_to_driver": False}
    if address != LOCAL_RAY:
        _probe(address)
    try:
        if address == LOCAL_RAY:  # Ray's "local": a new instance even if a cluster runs here
            ray.init(address="local", num_cpus=concurrency or os.cpu_count() or 1,
                     object_store_memory=RAY_OBJECT_STORE_BYTES, include_dashboard=False,
                     **options)
            return True
        ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise PoolError(f"cannot join the Ray cluster at {address!r}: {error}") from None
    return False


def _probe(address: str) -> None:
    """Fail at once, not after Ray's minutes of retries, when nothing answers at the
    ``host:port`` of ``address`` (``ray://`` client addresses included)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise PoolError(f"bad Ray address {address!r}: expected HOST:PORT or 'auto'")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_PROBE_SECONDS).close()
    except OSError as error:
        raise PoolError(f"cannot join the Ray cluster at {address!r}: nothing answers there"
                        f" ({error.strerror or error})") from None
