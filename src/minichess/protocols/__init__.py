"""Protocols through which minichess talks to other programs.

``minichess.protocols.uci`` makes the engine a UCI engine (``minichess uci``), which any program
speaking UCI with the ``UCI_Variant`` option of Fairy-Stockfish can drive. The other side, a
player that drives an external UCI engine, is :class:`minichess.players.UciPlayer`.
``minichess.protocols.imcs`` is the Internet MiniChess Server protocol: a client (``minichess
imcs``) and a compatible server (``minichess imcs-server``).
"""
