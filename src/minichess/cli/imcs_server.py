"""``minichess imcs-server``: an IMCS 2.5 server (see docs/imcs.md).

    minichess imcs-server                                  # 127.0.0.1:3589, default database
    minichess imcs-server --host 0.0.0.0 --db imcs.db --admin bart --house-bot 5 --house-bot 10

The server runs until it is stopped: Ctrl-C or SIGTERM, or an administrator's ``stop``; games
in progress get the stop grace to finish and are recorded as aborted otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import sys
from dataclasses import replace

from minichess.cli.arguments import (
    UsageError,
    engine_level,
    port_number,
    positive_int,
    positive_seconds,
)
from minichess.protocols.imcs.games import Timing
from minichess.protocols.imcs.passwords import DEFAULT_COST
from minichess.protocols.imcs.protocol import DEFAULT_PORT, parse_offer_time
from minichess.protocols.imcs.server import ImcsServer, ServerConfig, default_db_path

ADMIN_PASSWORD_VARIABLE = "IMCS_ADMIN_PASSWORD"


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``imcs-server`` command."""
    parser = commands.add_parser(
        "imcs-server",
        help="run an IMCS-compatible game server (ratings, observers, tournaments)",
        description="Run a server that speaks the Internet MiniChess Server protocol 2.5 byte"
        " for byte, so that existing clients play on it unchanged, with accounts, ratings and"
        " finished games in SQLite, observers, game history and PGN, house bots and"
        " tournaments. See docs/imcs.md.",
        epilog=f"An --admin account that does not exist yet is created with the password in"
        f" ${ADMIN_PASSWORD_VARIABLE}, or a new one printed once on standard error.",
    )
    add_server_options(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="log warnings only")
    parser.set_defaults(handler=run)


def add_server_options(parser: argparse._ActionsContainer, prefix: str = "") -> None:
    """Add the server's options to ``parser``: ``--host``, ``--port`` and ``--db`` named
    with ``prefix`` (``serve`` has options of its own of those names: there they are
    ``--imcs-host``, ``--imcs-port`` and ``--imcs-db``, and without ``--imcs-port`` there is no
    IMCS server), the others as they are. :func:`server_config` reads them."""
    own = not prefix
    parser.add_argument(f"--{prefix}host", dest="imcs_host", default="127.0.0.1",
                        metavar="HOST", help="address the IMCS server listens on (default"
                        " 127.0.0.1; 0.0.0.0 for every one)")
    parser.add_argument(f"--{prefix}port", *(["-p"] if own else []), dest="imcs_port",
                        type=port_number, default=DEFAULT_PORT if own else None, metavar="PORT",
                        help=f"port of the IMCS server (the protocol's is {DEFAULT_PORT}"
                        f"{', the default' if own else ''}; 0: any free port)")
    parser.add_argument(f"--{prefix}db", dest="imcs_db", metavar="PATH",
                        help=f"the IMCS server's SQLite database (default {default_db_path()})")
    parser.add_argument("--admin", action="append", default=[], metavar="NAME",
                        help="an administrator's account (may be given several times)")
    parser.add_argument("--house-bot", action="append", default=[], type=engine_level,
                        metavar="LEVEL", help="a house bot playing at engine LEVEL (1-10), which"
                        " always keeps an offer open (may be given several times)")
    parser.add_argument("--house-time", default="5:00", metavar="T[/T2]",
                        help="the house bots' clocks, theirs and the opponent's (default 5:00)")
    parser.add_argument("--house-games", type=positive_int, default=2, metavar="N",
                        help="games each house bot plays at once at most (default 2)")
    parser.add_argument("--flag-grace", type=positive_seconds, default=10.0, metavar="S",
                        help="seconds after its time ran out that a silent side loses"
                        " (default 10, as the original)")
    parser.add_argument("--first-move", type=positive_seconds, default=60.0, metavar="S",
                        help="seconds White's free first move may take (default 60)")
    parser.add_argument("--stop-grace", type=positive_seconds, default=60.0, metavar="S",
                        help="seconds games in progress get to finish when the server stops"
                        " (default 60; a second Ctrl-C ends them at once)")
    parser.add_argument("--max-connections", type=positive_int, default=1000, metavar="N",
                        help="connections served at once at most (default 1000)")
    parser.add_argument("--hash-cost", type=_hash_cost, default=DEFAULT_COST.n_log2, metavar="K",
                        help=f"cost of the password hashes: scrypt with N = 2**K (default"
                        f" {DEFAULT_COST.n_log2}; lower only for tests)")


def server_config(args: argparse.Namespace) -> ServerConfig:
    """The server's configuration from the options of :func:`add_server_options`."""
    return ServerConfig(
        host=args.imcs_host, port=args.imcs_port, db=args.imcs_db, admins=tuple(args.admin),
        house_bots=tuple(args.house_bot), house_time_ms=_house_time(args.house_time),
        house_games=args.house_games,
        timing=Timing(round(args.first_move * 1000), round(args.flag_grace * 1000)),
        stop_grace=args.stop_grace, max_connections=args.max_connections,
        hash_cost=replace(DEFAULT_COST, n_log2=args.hash_cost))


def run(args: argparse.Namespace) -> None:
    """Run the server until it is stopped."""
    config = server_config(args)
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(message)s", stream=sys.stderr)
    asyncio.run(serve(config))


async def start_server(config: ServerConfig, sock: socket.socket | None = None) -> ImcsServer:
    """Start the server (listening on ``sock`` when given) and create the administrators'
    accounts that are missing (their passwords from ``$IMCS_ADMIN_PASSWORD``, or made up and
    printed on standard error)."""
    server = ImcsServer(config)
    try:
        await server.start(sock)
    except OSError as error:
        raise UsageError(f"cannot listen on {config.host}:{config.port}: {error.strerror}"
                         ) from None
    for name in config.admins:
        made_up = await server.ensure_account(name, os.environ.get(ADMIN_PASSWORD_VARIABLE))
        if made_up is not None and not os.environ.get(ADMIN_PASSWORD_VARIABLE):
            print(f"created the administrator account {name} with the password {made_up}",
                  file=sys.stderr)
    return server


async def serve(config: ServerConfig) -> None:
    """Start the server, stop on SIGINT/SIGTERM (a second one ends the games' grace)."""
    server = await start_server(config)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, lambda: asyncio.ensure_future(server.stop()))
    print(f"IMCS server on {server.host}:{server.port}, database {server.store.path}",
          file=sys.stderr, flush=True)
    await server.serve_forever()


def _hash_cost(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 20:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 20, not {text!r}")
    return int(text)


def _house_time(text: str) -> tuple[int, int]:
    texts = text.split("/")
    parts = [ms for ms in map(parse_offer_time, texts) if ms is not None]
    if len(texts) > 2 or len(parts) != len(texts):
        raise UsageError(f"--house-time: expected M:SS or seconds, optionally /M:SS for the"
                         f" opponent, not {text!r}")
    return parts[0], parts[-1]
