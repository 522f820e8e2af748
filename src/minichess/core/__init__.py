"""The compiled rules core: tables built from a definition, and numba kernels over them."""

from minichess.core.cache import use_source_keyed_cache

use_source_keyed_cache()  # before any kernel is defined: see cache.py
