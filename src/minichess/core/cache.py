"""Where compiled kernels are cached on disk: one directory per version of the package's
source.

Numba checks a cached kernel against the time stamp of its own source file only, not against
the constants and kernels it takes from other modules: a kernel compiled before a change to
``layout.py``, or to a kernel it calls in another file, would load stale from a cache next to
its source. So the cache lives in a directory named by a digest of all the package's sources
(under ``NUMBA_CACHE_DIR`` when that is set, else the user's cache directory), and only the
few most recent such directories are kept.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numba

KEPT_VERSIONS = 4
"""Cache directories of other source versions kept (the most recently used)."""


def source_digest(package: Path) -> str:
    """A digest of every Python source file under ``package`` (names and contents)."""
    digest = hashlib.sha1()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def user_cache_dir() -> Path:
    """The package's directory in the user's cache (``$XDG_CACHE_HOME/minichess``, by default
    ``~/.cache/minichess``): compiled kernels, endgame tables."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "minichess"


def cache_root() -> Path:
    """The directory holding the caches of all source versions."""
    explicit = os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return user_cache_dir() / "numba"


def use_source_keyed_cache() -> Path:
    """Point numba's cache at this source version's directory, drop old versions' caches
    beyond KEPT_VERSIONS, and return the directory."""
    root = cache_root()
    directory = root / source_digest(Path(__file__).resolve().parent.parent)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        os.utime(directory)
        others = sorted((path for path in root.iterdir() if path.is_dir() and path != directory),
                        key=lambda path: path.stat().st_mtime, reverse=True)
        for stale in others[KEPT_VERSIONS:]:
            shutil.rmtree(stale, ignore_errors=True)
    except OSError:  # no writable cache: numba then compiles without caching
        pass
    numba.config.CACHE_DIR = str(directory)  # type: ignore[attr-defined]  # set at import by numba
    return directory
