"""``minichess serve``: the web app, to play, analyse and watch in the browser."""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
import webbrowser
from pathlib import Path

from minichess.cli.arguments import UsageError

DEFAULT_PORT = 8000


def default_database() -> Path:
    """Where the games are kept: ``$XDG_DATA_HOME/minichess/games.sqlite3`` (by default under
    ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "minichess" / "games.sqlite3"


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535."""
    if not text.isdecimal() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0..65535, not {text!r}")
    return int(text)


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``serve`` command."""
    parser = commands.add_parser(
        "serve",
        help="the web app: play, analyse and watch in the browser",
        description="Serve the web app: play the engine, analyse positions, watch engine games;"
        " a JSON and WebSocket API documented at /docs. Games are kept in SQLite and survive a"
        " restart. Needs the web extra: pip install 'minichess[web]'.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--open", action="store_true",
                        help="open the app in the browser once it is up")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help=f"SQLite file of the games (default {default_database()})")
    parser.add_argument("--imcs-port", type=port_number, default=None, metavar="PORT",
                        help="also run the IMCS server on PORT, its games on the watch page")
    parser.set_defaults(handler=run)


def has_display() -> bool:
    """Whether a browser window can be shown here (a desktop session, or macOS/Windows)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> None:
    """Serve until interrupted."""
    try:
        import uvicorn

        from minichess.web import create_app
    except ImportError as error:
        raise UsageError(f"the web app needs its extra ({error.name} is missing):"
                         " pip install 'minichess[web]'") from None
    if args.imcs_port is not None:
        raise UsageError("--imcs-port: this minichess has no IMCS server yet")
    listener = _listen(args.host, args.port)
    port = listener.getsockname()[1]
    shown_host = args.host if args.host not in ("0.0.0.0", "::") else "127.0.0.1"
    url = f"http://{shown_host if ':' not in shown_host else f'[{shown_host}]'}:{port}/"
    database = Path(args.db) if args.db else default_database()
    app = create_app(database)
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio")
    server = uvicorn.Server(config)
    print(f"minichess web app at {url} (games in {database}); Ctrl-C stops it", flush=True)
    if args.open:
        threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
    server.run(sockets=[listener])


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
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
