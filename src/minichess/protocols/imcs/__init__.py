"""The Internet MiniChess Server protocol (IMCS 2.5): a client and a compatible server.

- :mod:`.protocol`: the protocol's lines, times, moves and state block, shared by both ends;
- :mod:`.server`: the asyncio server (:class:`ImcsServer`), with :mod:`.session` (the
  commands), :mod:`.games` (the referee), :mod:`.store` (SQLite), :mod:`.passwords`,
  :mod:`.feed` (events for observers and a web board), :mod:`.tournaments` and :mod:`.pairing`,
  :mod:`.records` (stored games as PGN), :mod:`.house` (the house bots);
- :mod:`.client`: the asyncio client (:class:`ImcsClient`) and its game loop.

Start a server in a program that runs an asyncio loop (a web app, a test)::

    server = ImcsServer(ServerConfig(port=0, db=":memory:"))
    await server.start()
    async with server.feed.subscribe() as events:
        async for event in events:
            print(event.to_dict())
"""

from minichess.protocols.imcs.client import (
    GameReport,
    GameStart,
    ImcsClient,
    ImcsError,
    player_chooser,
)
from minichess.protocols.imcs.feed import (
    Event,
    Feed,
    GameEnded,
    GameStarted,
    MovePlayed,
    RatingsChanged,
)
from minichess.protocols.imcs.protocol import DEFAULT_PORT, VERSION
from minichess.protocols.imcs.server import ImcsServer, ServerConfig

__all__ = [
    "DEFAULT_PORT",
    "VERSION",
    "Event",
    "Feed",
    "GameEnded",
    "GameReport",
    "GameStart",
    "GameStarted",
    "ImcsClient",
    "ImcsError",
    "ImcsServer",
    "MovePlayed",
    "RatingsChanged",
    "ServerConfig",
    "player_chooser",
]
