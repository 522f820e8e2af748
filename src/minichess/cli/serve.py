"""``minichess serve``: the web app, to play, analyse and watch in the browser."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from minichess.cli.arguments import UsageError, port_number
from minichess.cli.imcs_server import add_server_options, server_config, start_server
from minichess.protocols.imcs.server import ImcsServer, ServerConfig
from minichess.protocols.imcs.store import Store

if TYPE_CHECKING:
    from fastapi import FastAPI

    from minichess.web.app import Service

DEFAULT_PORT = 8000


def default_database() -> Path:
    """Where the games are kept: ``$XDG_DATA_HOME/minichess/games.sqlite3`` (by default under
    ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "minichess" / "games.sqlite3"


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``serve`` command."""
    parser = commands.add_parser(
        "serve",
        help="the web app: play, analyse and watch in the browser",
        description="Serve the web app: play the engine, analyse positions, watch engine games"
        " (and the IMCS server's, with --imcs-port); a JSON and WebSocket API documented at"
        " /docs. Games are kept in SQLite and survive a restart. Needs the web extra: pip"
        " install 'minichess[web]'.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--open", action="store_true",
                        help="open the app in the browser once it is up")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help=f"SQLite file of the games (default {default_database()})")
    imcs = parser.add_argument_group(
        "the IMCS server", "With --imcs-port, the IMCS server (minichess imcs-server) runs in"
        " the same process: its live games, finished games and ratings are on the watch page.")
    add_server_options(imcs, prefix="imcs-")
    parser.set_defaults(handler=run, imcs_options=imcs._group_actions)


def has_display() -> bool:
    """Whether a browser window can be shown here (a desktop session, or macOS/Windows)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> None:
    """Serve until interrupted."""
    try:
        import uvicorn

        from minichess.web import create_app  # noqa: F401  (the extra is there)
    except ImportError as error:
        raise UsageError(f"the web app needs its extra ({error.name} is missing):"
                         " pip install 'minichess[web]'") from None
    stray = [action.option_strings[0] for action in args.imcs_options
             if getattr(args, action.dest) != action.default]
    if stray and args.imcs_port is None:
        raise UsageError(f"{', '.join(stray)}: options of the IMCS server, which runs only with"
                         " --imcs-port PORT")
    if args.imcs_port is not None:  # a database that cannot be opened: an error before the start
        Store(server_config(args).db_path).close()
    listener = listen(args.host, args.port)
    try:
        imcs_listener = (None if args.imcs_port is None
                         else listen(args.imcs_host, args.imcs_port))
    except UsageError:
        listener.close()
        raise
    port = listener.getsockname()[1]
    shown_host = args.host if args.host not in ("0.0.0.0", "::") else "127.0.0.1"
    url = f"http://{shown_host if ':' not in shown_host else f'[{shown_host}]'}:{port}/"
    app = build_app(args, imcs_listener)
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio")
    server = uvicorn.Server(config)
    print(f"minichess web app at {url} (games in {database_path(args)}); Ctrl-C stops it",
          flush=True)
    if args.open:
        threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[listener])
    except SystemExit:  # uvicorn's when the app's start failed (it said why)
        raise SystemExit(1) from None
    finally:
        if imcs_listener is not None:
            imcs_listener.close()


def database_path(args: argparse.Namespace) -> Path:
    """The SQLite file of the web app's games: ``--db``, or :func:`default_database`."""
    return Path(args.db) if args.db else default_database()


def build_app(args: argparse.Namespace, imcs_listener: socket.socket | None = None) -> FastAPI:
    """The web app as ``serve`` runs it: its games in ``--db`` and, with ``--imcs-port``, the
    IMCS server beside it (listening on ``imcs_listener``, a bound socket, when given;
    otherwise on ``--imcs-host`` and ``--imcs-port``), its games on the watch page."""
    from minichess.web import create_app

    services = []
    if args.imcs_port is not None:
        services.append(imcs_service(server_config(args), imcs_listener))
    return create_app(database_path(args), services=services)


def imcs_service(config: ServerConfig, listener: socket.socket | None = None) -> Service:
    """The IMCS server as a service of the web app: started with it in its event loop (on
    ``listener`` when given), its feed registered on the watch page (``app.state.imcs`` is the
    server), stopped with it as the server's ``stop`` does: games in progress get the stop
    grace to finish (a second Ctrl-C or SIGTERM ends them at once) and are recorded as
    aborted otherwise."""
    from minichess.protocols.imcs.watch import ImcsWatchFeed

    @contextlib.asynccontextmanager
    async def running(app: FastAPI) -> AsyncIterator[ImcsServer]:
        server = await start_server(config, listener)
        feed = ImcsWatchFeed(server)
        app.state.feeds.register(feed)
        app.state.imcs = server
        print(f"IMCS server on {server.host}:{server.port}, database {server.store.path};"
              " its games on the watch page", flush=True)
        try:
            yield server
        finally:
            app.state.feeds.unregister(feed)
            # The handler is in place before the message: a second signal sent on seeing it
            # ends the grace rather than reaching uvicorn, which would wait it out.
            with _on_signals(lambda: asyncio.ensure_future(server.stop())):
                games = len(server.live_games())
                if games:
                    print(f"stopping the IMCS server: {games} game(s) in progress get up to"
                          f" {config.stop_grace:g} s to finish (Ctrl-C again ends them now)",
                          flush=True)
                await server.stop()

    return running


@contextlib.contextmanager
def _on_signals(callback: Callable[[], object]) -> Iterator[None]:
    """While in the block, SIGINT and SIGTERM call ``callback`` in the running event loop
    (signals reach only the main thread: elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)
    previous = {signum: signal.signal(signum, lambda *_: loop.call_soon_threadsafe(callback))
                for signum in signals}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host:port`` (UsageError when it cannot). Its protocol is
    named, so that asyncio sets TCP_NODELAY on the connections it accepts: without it, each
    answer on a kept-alive connection waits some 40 ms for the peer's delayed acknowledgement."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    listener.listen(128)
    return listener


def _open_when_up(server: object, url: str) -> None:
    import time

    for _ in range(200):
        if getattr(server, "started", False):
            break
        time.sleep(0.05)
    if not webbrowser.open(url):
        print(f"no browser to open here: visit {url}", flush=True)
