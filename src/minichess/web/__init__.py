"""The web app (``minichess serve``): play the engine, analyse, watch; a JSON and WebSocket API.

Needs the ``web`` extra (FastAPI, uvicorn): ``pip install 'minichess[web]'``.
"""

from minichess.web.app import create_app

__all__ = ["create_app"]
