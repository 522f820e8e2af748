"""Bit operations on int64 bitboards: one machine instruction each when compiled.

With ``NUMBA_DISABLE_JIT=1`` the same names are plain Python functions.
"""

from numba import config, njit, types
from numba.extending import intrinsic

MASK64 = (1 << 64) - 1

if config.DISABLE_JIT:

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

else:
    from llvmlite import ir

    @intrinsic
    def _ctpop(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def _cttz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctlz(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

        return types.int64(types.int64), codegen

    @njit(inline="always", cache=True)
    def popcount(x):
        """Number of set bits."""
        return _ctpop(x)

    @njit(inline="always", cache=True)
    def ctz(x):
        """Index of the lowest set bit (x must not be 0)."""
        return _cttz(x)

    @njit(inline="always", cache=True)
    def clz(x):
        """Number of zero bits above the highest set bit (x must not be 0)."""
        return _ctlz(x)
