"""The decorators for compiled kernels: nopython, cached on disk, releasing the GIL.

The rules core's kernels get explicit signatures: without them numba compiles a separate copy
of a kernel for every constant a caller passes (each ``kinds`` or ``count_only`` value), which
multiplies the cold compile time. The engine's kernels, called with no such constants, compile
on first use, so commands that need no engine never compile it.
"""

from numba import njit, types

POSITION = types.int64[::1]
"""A position array (see layout.py)."""
TABLES = types.int64[:, ::1]
"""A variant's tables."""
MOVES = types.int64[::1]
"""A move buffer."""
UNDO = types.int64[:, ::1]
"""An undo stack."""
INT = types.int64
BOOL = types.boolean
NONE = types.none


def kernel(signature=None):
    """Compile a hot-path function that allocates no arrays, for exactly ``signature`` (at
    import), or without one on its first call (for kernels only some commands need).

    Without numba's runtime the arrays passed between kernels are not reference counted on
    every call, which is most of the cost of a small kernel; such a kernel may not create
    arrays."""
    return njit(signature, cache=True, nogil=True, _nrt=False, no_cfunc_wrapper=True)


def allocating_kernel(signature=None):
    """Compile a function that creates arrays (move buffers): an entry point, not a helper.

    Its own array accesses are reference counted, so it should hand the arrays it creates to
    a ``kernel`` that does the work."""
    return njit(signature, cache=True, nogil=True, no_cfunc_wrapper=True)


leaf_kernel = njit(cache=True, nogil=True, _nrt=False, inline="always")
"""Compile a tiny helper (a few instructions) that numba inlines into its callers.

Calls between separately compiled kernels are not inlined by LLVM, and a call costs more than
such a helper's whole body; inlining bigger functions would multiply compile time."""
