"""The decorators for compiled kernels: nopython, cached on disk, releasing the GIL."""

from numba import njit

kernel = njit(cache=True, nogil=True, _nrt=False)
"""Compile a hot-path function that allocates no arrays.

Without numba's runtime the arrays passed between kernels are not reference counted on every
call, which is most of the cost of a small kernel; such a kernel may not create arrays."""

allocating_kernel = njit(cache=True, nogil=True)
"""Compile a function that creates arrays (move buffers): an entry point, not a helper."""
