"""Protocols through which minichess talks to other programs.

``minichess.protocols.uci`` makes the engine a UCI engine (``minichess uci``), which any program
speaking UCI with the ``UCI_Variant`` option of Fairy-Stockfish can drive;
``minichess.protocols.uci_client`` drives external UCI engines. ``minichess.protocols.imcs`` is
the Internet MiniChess Server protocol: a client (``minichess imcs``) and a compatible server
(``minichess imcs-server``).
"""
