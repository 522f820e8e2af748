"""The web app's routes, one module per part of the API (each an ``APIRouter``)."""
