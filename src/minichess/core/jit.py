"""The decorators for compiled kernels: nopython, cached on disk, releasing the GIL.

The rules core's kernels get explicit signatures: without them numba compiles a separate copy
of a kernel for every constant a caller passes (each ``kinds`` or ``count_only`` value), which
multiplies the cold compile time. Kernels only some variants need are compiled for their
signature on demand (``on_demand_kernel``), and the engine's kernels, called with no such
constants, on first use: a command compiles only what it runs.

Kernels index arrays with non-negative indices only, so they are compiled without Python's
negative-index wraparound, which numba otherwise adds to every access of an array by a signed
index (three instructions, and a fifth of perft's time).
"""

import threading

from numba import njit, types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import register_pass
from numba.core.dispatcher import Dispatcher
from numba.core.typed_passes import NativeLowering
from numba.cpython import slicing

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


def _index_as_is(builder, index, size):
    """Instead of numba's ``slicing.fix_index``: a kernel's indices are never negative."""
    return index


@register_pass(mutates_CFG=True, analysis_only=False)
class _LoweringWithoutWraparound(NativeLowering):
    """numba's lowering, with array indices used as they are (no negative-index wraparound)."""

    _name = "native_lowering_without_wraparound"

    def run_pass(self, state):
        """Lower the function with numba's index fixing switched off meanwhile (compiling
        holds numba's global lock, so no other compilation sees the switch)."""
        fix_index = slicing.fix_index
        slicing.fix_index = _index_as_is
        try:
            return super().run_pass(state)
        finally:
            slicing.fix_index = fix_index


class KernelCompiler(CompilerBase):
    """numba's nopython pipeline with ``_LoweringWithoutWraparound`` for its lowering."""

    def define_pipelines(self):
        """The pipeline, its lowering pass replaced."""
        pipeline = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pipeline.passes = [
            (_LoweringWithoutWraparound if stage is NativeLowering else stage, description)
            for stage, description in pipeline.passes
        ]
        return [pipeline]


_OPTIONS = {
    "cache": True,
    "nogil": True,
    "_nrt": False,
    "no_cfunc_wrapper": True,
    "pipeline_class": KernelCompiler,
}


def kernel(signature=None):
    """Compile a hot-path function for exactly ``signature`` (at import), or without one on
    its first call (for kernels only some commands need).

    Without numba's runtime the arrays passed between kernels are not reference counted on
    every call, which is most of the cost of a small kernel; so a kernel may not create
    arrays: their callers in Python allocate them."""
    return njit(signature, **_OPTIONS)


_ON_DEMAND_SIGNATURES: dict[Dispatcher, object] = {}
"""The signatures of the on-demand kernels not compiled yet."""


def on_demand_kernel(signature):
    """A ``kernel`` for ``signature`` compiled only when ``compile_on_demand`` is called for
    it, before any kernel calling it is compiled: rules that only some variants have."""

    def decorate(function):
        compiled = njit(**_OPTIONS)(function)
        if isinstance(compiled, Dispatcher):  # not under NUMBA_DISABLE_JIT
            _ON_DEMAND_SIGNATURES[compiled] = signature
        return compiled

    return decorate


_ON_DEMAND_LOCK = threading.RLock()
"""Held while on-demand kernels compile: a thread that finds a kernel being compiled by another
waits for it (rather than calling it half-made, which fails with 'compilation disabled')."""


def compile_on_demand(*kernels) -> None:
    """Compile ``on_demand_kernel``s (callees before callers) for their signatures, and
    for nothing else: a caller passing a constant gets the compiled code, not a new copy.
    Safe to call from several threads at once."""
    with _ON_DEMAND_LOCK:
        for compiled in kernels:
            signature = _ON_DEMAND_SIGNATURES.pop(compiled, None)
            if signature is not None:
                compiled.compile(signature)
                compiled.disable_compile()


leaf_kernel = njit(inline="always", **_OPTIONS)
"""Compile a tiny helper (a few instructions) that numba inlines into its callers.

Calls between separately compiled kernels are not inlined by LLVM, and a call costs more than
such a helper's whole body; inlining bigger functions would multiply compile time."""
