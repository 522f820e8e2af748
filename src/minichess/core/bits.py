"""Bit operations on int64 bitboards: one machine instruction each when compiled.

With ``NUMBA_DISABLE_JIT=1`` the same names are plain Python functions.
"""

import platform

from llvmlite import binding
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

MASK64 = (1 << 64) - 1

_SLOW_PEXT_CPUS = ("znver1", "znver2")  # PEXT is microcoded there: slower than ray lookups
HAS_FAST_PEXT = bool(
    not config.DISABLE_JIT
    and binding.get_host_cpu_features().get("bmi2", False)
    and binding.get_host_cpu_name() not in _SLOW_PEXT_CPUS
)
"""Whether slider attacks come from PEXT-indexed tables (else from rays, see movegen)."""


def _py_pext(x: int, mask: int) -> int:
    """Parallel bit extract: the bits of ``x`` selected by ``mask``, packed low."""
    x, mask = int(x) & MASK64, int(mask) & MASK64
    result, bit = 0, 0
    while mask:
        low = mask & -mask
        if x & low:
            result |= 1 << bit
        bit += 1
        mask ^= low
    return result


if config.DISABLE_JIT:
    import warnings

    # Bitboards wrap around bit 63 on purpose (h8 is the sign bit); compiled code wraps
    # silently, and so should the interpreted kernels.
    warnings.filterwarnings(
        "ignore", "overflow encountered", RuntimeWarning, module=r"minichess\."
    )

    def popcount(x: int) -> int:
        """Number of set bits."""
        return (int(x) & MASK64).bit_count()

    def ctz(x: int) -> int:
        """Index of the lowest set bit (x must not be 0)."""
        v = int(x) & MASK64
        return (v & -v).bit_length() - 1

    def clz(x: int) -> int:
        """Number of zero bits above the highest set bit (x must not be 0)."""
        return 64 - (int(x) & MASK64).bit_length()

    pext = _py_pext

    def prefetch(rows, row: int) -> None:
        """Start loading ``rows[row]`` into the cache (a hint: does nothing here)."""

else:
    from llvmlite import ir

    _I64 = ir.IntType(64)
    _NONZERO = ir.Constant(ir.IntType(1), 1)  # the operand is never 0: no special case

    @intrinsic
    def _ctpop(typingctx, x):
        return types.int64(types.int64), lambda ctx, builder, sig, args: builder.ctpop(args[0])

    @intrinsic
    def _cttz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], _NONZERO)

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctlz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctlz(args[0], _NONZERO)

        return types.int64(types.int64), codegen

    binding.initialize_native_asmparser()  # for the inline assembly in _pext

    @intrinsic
    def _pext(typingctx, x, mask):
        # Numba's LLVM crashes on the intrinsic llvm.x86.bmi2.pext.64: emit the instruction.
        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(_I64, [_I64, _I64])
            return builder.asm(fnty, "pextq $2, $1, $0", "=r,r,r", args, side_effect=False)

        return types.int64(types.int64, types.int64), codegen

    # the intrinsics themselves: no function of numba's to type and inline at every use
    popcount = _ctpop
    ctz = _cttz
    clz = _ctlz

    pext = _pext if HAS_FAST_PEXT else njit(cache=True)(_py_pext)

    _PREFETCH = platform.machine().lower() in ("x86_64", "amd64")

    @intrinsic
    def prefetch(typingctx, rows, row):
        """Start loading row ``row`` of the 2-D array ``rows`` into the cache, so that a read
        of it soon after does not wait for memory (a hint; nothing where not x86-64)."""

        def codegen(context, builder, signature, args):
            if _PREFETCH:
                array_type = signature.args[0]
                array = context.make_array(array_type)(context, builder, args[0])
                zero = context.get_constant(types.intp, 0)
                pointer = cgutils.get_item_pointer(
                    context, builder, array_type, array, [args[1], zero], wraparound=False
                )
                address = builder.ptrtoint(pointer, _I64)
                fnty = ir.FunctionType(ir.VoidType(), [_I64])
                builder.asm(fnty, "prefetcht0 ($0)", "r", [address], side_effect=True)
            return context.get_dummy_value()

        return types.void(rows, types.int64), codegen
