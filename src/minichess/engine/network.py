"""A small neural network added to the evaluation: learnt corrections to the weighted sum.

The network sees the pieces on their squares twice, once from each side's point of view (the
board flipped for Black), as the efficiently updatable networks of the strong engines do:

- input features: ``colour seen from the viewer (own 0, enemy 1) * 384 + (type - 1) * 64 +
  square seen from the viewer``, 768 in all (boards up to 8x8 share the layout);
- for each viewer an accumulator of ``hidden`` units: a bias plus one column of the input
  weights per piece on the board, clipped to 0..1 (``ACTIVATION``);
- the output: the side to move's units and then the other side's, times their output weights,
  plus a bias, in centipawns for the side to move. A network may have several outputs
  ("buckets"), each for the positions with a range of numbers of pieces on the board, as the
  strong engines' networks have: what a unit means for the score changes as the board empties.

Its parameters are integers (inputs and biases times ``ACTIVATION``, output weights times
``OUTPUT``), stored after the linear weights in the evaluation's one parameter array, as a
block that starts with the number of hidden units (0: no network). ``training.py`` fits them.
The search reads the weights from a copy in 16-bit integers (``search_network``) and keeps its
hidden units in them too: the arithmetic is the same, four times as wide per vector
instruction, and the weights take a quarter of the cache.
"""

import numpy as np

from minichess.core.bits import ctz, popcount
from minichess.core.jit import kernel, leaf_kernel
from minichess.core.layout import BB, DROP, F_RANKS, FLAGS, MAILBOX, PAWN, STM

INPUTS = 768
"""Input features: 2 colours (own, enemy) times 6 piece types times 64 squares."""
ACTIVATION = 256
"""A hidden unit's value 1 (where it is clipped) in the integer network."""
OUTPUT = 64
"""Output weights are stored times this."""
MAX_HIDDEN = 512
"""The most hidden units per viewer a network may have."""
MAX_BUCKETS = 8
"""The most outputs a network may have."""
UNIT_TYPE = np.int16
"""The integers of the search's network (``search_network``) and of its hidden units: vector
instructions work on four times as many of them at once as on 64-bit integers."""
UNIT_LIMIT = int(np.iinfo(UNIT_TYPE).max)

# The block, from its start: the hidden units per viewer (0: no network, the block's only
# field), the number of outputs B, B - 1 increasing piece counts (a position's output is the
# number of them at or below its number of pieces), B outputs of a bias (times ACTIVATION *
# OUTPUT) and 2 * hidden weights (the side to move's units, then the other side's), the
# hidden units' biases, and the input weights (INPUTS rows of hidden).
N_HIDDEN = 0
N_BUCKETS = 1
N_EDGES = 2


def block_size(hidden: int, buckets: int = 1) -> int:
    """Length of the parameter block of a network with ``hidden`` units per viewer and
    ``buckets`` outputs."""
    return N_EDGES + buckets - 1 + buckets * (2 * hidden + 1) + hidden + INPUTS * hidden \
        if hidden else 1


def block_parts(block: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A network's block as numpy arrays, in its integers: the piece counts where outputs
    start (B - 1), the outputs (B rows of a bias and 2 * hidden weights), the hidden units'
    biases and the input weights (INPUTS x hidden)."""
    hidden, buckets = int(block[N_HIDDEN]), int(block[N_BUCKETS])
    outputs = N_EDGES + buckets - 1
    biases = outputs + buckets * (2 * hidden + 1)
    return (block[N_EDGES:outputs], block[outputs:biases].reshape(buckets, 2 * hidden + 1),
            block[biases:biases + hidden], block[biases + hidden:].reshape(INPUTS, hidden))


@leaf_kernel
def _outputs(params, start):
    """Where the outputs of the block at ``start`` begin (each a bias and 2 * hidden
    weights)."""
    return start + N_EDGES + params[start + N_BUCKETS] - 1


def input_feature(viewer, colour, piece_type, square, ranks):  # type: ignore[no-untyped-def]
    """The input feature of a ``colour`` piece of ``piece_type`` on ``square`` seen by
    ``viewer`` (0 White, 1 Black) on a board of ``ranks`` ranks: integers, or numpy arrays
    of them (the kernels below compute the same).

    >>> input_feature(0, 0, 1, 8, 6), input_feature(1, 0, 1, 8, 6)  # White's pawn on a2
    (8, 416)
    """
    seen = square + viewer * (ranks - 1 - 2 * (square >> 3)) * 8  # Black sees the board flipped
    return (colour ^ viewer) * 384 + (piece_type - 1) * 64 + seen


# --- accumulators: one row per ply of the search, kept up to date move by move -----------------
A_STATE = 0  # how the row's units relate to the position at its ply (A_*)
A_MOVED = 1  # the move into the ply: the moving piece's code * 64 + origin (-1: a drop)
A_TAKEN = 2  # the captured piece's code * 64 + square (-1: none)
A_PLACED = 3  # the piece's code * 64 + target after the move (a promotion's new piece)
A_UNITS = 4  # the units seen by White, then those seen by Black
ACCUMULATOR_ROW = A_UNITS + 2 * MAX_HIDDEN
"""The length of a row of the accumulators, an array of ``UNIT_TYPE``."""
UNITS = ACCUMULATOR_ROW
"""Room for the accumulators of one position (``network_score``'s ``units``)."""
A_VALID, A_SAME, A_AFTER_MOVE = range(3)
"""The row's units are the position's; are the row above's (a null move, or the same position
searched again); are the row above's after the move recorded."""
MAX_UPDATES = 12
"""Beyond this many moves back to the last computed row, computing afresh is cheaper."""


@leaf_kernel
def _columns(hidden, code, square, ranks):
    """Where the input weights of the piece ``code`` on ``square`` start in a search network
    (``search_network``), as White sees it and as Black does."""
    colour = code >> 3
    kind = (code & 7) - 1
    flipped = (ranks - 1 - (square >> 3)) * 8 + (square & 7)
    inputs = hidden  # after the hidden units' biases
    return (inputs + (colour * 384 + kind * 64 + square) * hidden,
            inputs + ((1 - colour) * 384 + kind * 64 + flipped) * hidden)


@leaf_kernel
def _refresh(pos, tab, net, hidden, units, at):
    """Compute the units of both viewers of ``pos`` into ``units[at:]``."""
    black = at + hidden
    for unit in range(hidden):
        units[at + unit] = net[unit]
        units[black + unit] = net[unit]
    ranks = tab[FLAGS, F_RANKS]
    for colour in range(2):
        for piece_type in range(1, 7):
            pieces = pos[BB + colour * 8 + piece_type]
            while pieces != 0:
                square = ctz(pieces)
                pieces &= pieces - 1
                white_view, black_view = _columns(hidden, colour * 8 + piece_type, square, ranks)
                for unit in range(hidden):
                    units[at + unit] += net[white_view + unit]
                    units[black + unit] += net[black_view + unit]


@leaf_kernel
def _apply_move(net, hidden, ranks, row, above):
    """The units of ``row`` from those of ``above``, the row of the ply before it, by the
    move ``row`` records: the moved piece's columns taken away, a captured piece's too, and
    the placed piece's added, in one pass over the units."""
    white, black = A_UNITS, A_UNITS + hidden
    placed = row[A_PLACED]
    placed_white, placed_black = _columns(hidden, placed >> 6, placed & 63, ranks)
    moved, taken = row[A_MOVED], row[A_TAKEN]
    if moved < 0:  # a drop
        for unit in range(hidden):
            row[white + unit] = above[white + unit] + net[placed_white + unit]
            row[black + unit] = above[black + unit] + net[placed_black + unit]
        return
    moved_white, moved_black = _columns(hidden, moved >> 6, moved & 63, ranks)
    if taken < 0:
        for unit in range(hidden):
            row[white + unit] = (above[white + unit] + net[placed_white + unit]
                                 - net[moved_white + unit])
            row[black + unit] = (above[black + unit] + net[placed_black + unit]
                                 - net[moved_black + unit])
        return
    taken_white, taken_black = _columns(hidden, taken >> 6, taken & 63, ranks)
    for unit in range(hidden):
        row[white + unit] = (above[white + unit] + net[placed_white + unit]
                             - net[moved_white + unit] - net[taken_white + unit])
        row[black + unit] = (above[black + unit] + net[placed_black + unit]
                             - net[moved_black + unit] - net[taken_black + unit])


@leaf_kernel
def _output(pos, params, start, net, units, at):
    """The network's score for the side to move of ``pos`` from the units at ``units[at:]``,
    by the output of its number of pieces."""
    hidden = params[start + N_HIDDEN]
    buckets = params[start + N_BUCKETS]
    pieces = popcount(pos[BB] | pos[BB + 8])
    bucket = 0
    for edge in range(start + N_EDGES, start + N_EDGES + buckets - 1):
        if pieces >= params[edge]:
            bucket += 1
    total = params[_outputs(params, start) + bucket * (2 * hidden + 1)]  # the bias
    weights = hidden + INPUTS * hidden + bucket * 2 * hidden
    own = at + pos[STM] * hidden
    # a product of a unit (at most ACTIVATION) and a 16-bit weight fits in 32 bits
    for unit in range(hidden):
        total += (np.int32(net[weights + unit])
                  * np.int32(min(max(units[own + unit], 0), ACTIVATION)))
    other = at + (1 - pos[STM]) * hidden
    weights += hidden
    for unit in range(hidden):
        total += (np.int32(net[weights + unit])
                  * np.int32(min(max(units[other + unit], 0), ACTIVATION)))
    return total // (ACTIVATION * OUTPUT)


@kernel()
def network_score(pos, tab, params, start, net, units):
    """The network's score in centipawns for the side to move (0 without a network) computed
    afresh; its block starts at ``params[start]``, ``net`` is its ``search_network`` and
    ``units`` (16-bit) has room for ``UNITS``."""
    hidden = params[start + N_HIDDEN]
    if hidden == 0:
        return 0
    _refresh(pos, tab, net, hidden, units, A_UNITS)
    return _output(pos, params, start, net, units, A_UNITS)


@leaf_kernel
def record_move(accumulators, ply, pos, move, captured):
    """The move into ``ply`` was just played (``captured``: the piece code it took, 0 for
    none): its changes, for the units of ``ply`` to be computed from those of the ply above."""
    row = accumulators[ply]
    target = (move >> 6) & 63
    placed = pos[MAILBOX + target]
    row[A_STATE] = A_AFTER_MOVE
    if move & DROP:
        row[A_MOVED] = -1
    else:
        moved = placed if (move >> 12) & 7 == 0 else (placed & 8) + PAWN
        row[A_MOVED] = moved * 64 + (move & 63)
    row[A_TAKEN] = captured * 64 + target if captured != 0 else -1
    row[A_PLACED] = placed * 64 + target


@leaf_kernel
def record_same(accumulators, ply):
    """The position at ``ply`` has the pieces of the ply above (a null move, or the same
    position searched again)."""
    accumulators[ply, A_STATE] = A_SAME


@kernel()
def record_root(pos, tab, params, start, net, accumulators, ply):
    """The position at ``ply`` is the root of a search: its units are computed afresh, for
    every position below to be brought up to date from (the root's evaluation often comes
    from the transposition table, which would leave them uncomputed)."""
    hidden = params[start + N_HIDDEN]
    if hidden != 0:
        _refresh(pos, tab, net, hidden, accumulators[ply], A_UNITS)
    accumulators[ply, A_STATE] = A_VALID


@kernel()
def network_score_at(pos, tab, params, start, net, accumulators, ply):
    """``network_score`` in the search, from the accumulators of ``ply``: brought up to date
    from the nearest row above that holds its position's units, move by move, or computed
    afresh where that is nearer."""
    hidden = params[start + N_HIDDEN]
    if hidden == 0:
        return 0
    top = ply
    while (top > 0 and ply - top < MAX_UPDATES
           and (accumulators[top, A_STATE] == A_SAME
                or accumulators[top, A_STATE] == A_AFTER_MOVE)):
        top -= 1
    if accumulators[top, A_STATE] != A_VALID:
        _refresh(pos, tab, net, hidden, accumulators[ply], A_UNITS)
        accumulators[ply, A_STATE] = A_VALID
        return _output(pos, params, start, net, accumulators[ply], A_UNITS)
    ranks = tab[FLAGS, F_RANKS]
    for below in range(top + 1, ply + 1):
        row = accumulators[below]
        above = accumulators[below - 1]
        if row[A_STATE] == A_AFTER_MOVE:
            _apply_move(net, hidden, ranks, row, above)
        else:
            for unit in range(A_UNITS, A_UNITS + 2 * hidden):
                row[unit] = above[unit]
        row[A_STATE] = A_VALID
    return _output(pos, params, start, net, accumulators[ply], A_UNITS)


def network_block(input_weights: np.ndarray, biases: np.ndarray, output_weights: np.ndarray,
                  output_biases: np.ndarray, edges: np.ndarray | None = None) -> np.ndarray:
    """The integer block of a network given in floats: ``input_weights`` (INPUTS x hidden),
    ``biases`` (hidden), ``output_weights`` (B x 2 * hidden, centipawns per unit),
    ``output_biases`` (B, centipawns) and, with more than one output, ``edges``: the B - 1
    increasing piece counts where the next output starts. Raises ValueError for parameters
    that do not fit the search's integers (``search_fit_error``)."""
    hidden = biases.shape[0]
    output_weights = np.atleast_2d(output_weights)
    output_biases = np.atleast_1d(output_biases)
    buckets = len(output_biases)
    edges = np.zeros(0) if edges is None else np.asarray(edges)
    if not 0 < hidden <= MAX_HIDDEN or input_weights.shape != (INPUTS, hidden):
        raise ValueError(f"a network needs 1 to {MAX_HIDDEN} hidden units and "
                         f"{INPUTS} x hidden input weights")
    if (not 0 < buckets <= MAX_BUCKETS or output_weights.shape != (buckets, 2 * hidden)
            or edges.shape != (buckets - 1,) or np.any(np.diff(edges) <= 0)):
        raise ValueError(f"a network needs 1 to {MAX_BUCKETS} outputs of 2 x hidden weights "
                         "and one increasing piece count fewer than outputs")
    outputs = np.column_stack([np.round(output_biases * ACTIVATION * OUTPUT),
                               np.round(output_weights * OUTPUT)])
    block = np.concatenate([
        [hidden, buckets], edges,
        outputs.reshape(-1),
        np.round(biases * ACTIVATION),
        np.round(input_weights * ACTIVATION).reshape(-1),
    ]).astype(np.int64)
    _check_search_fit(block)
    return block


def network_ensemble(blocks: list[np.ndarray]) -> np.ndarray:
    """One network that scores as the mean of the networks of ``blocks``: their hidden units
    side by side, each output's weights divided by their number. The outputs' piece counts are
    those of all of them together (each output takes, from every network, the output of its
    numbers of pieces). An ensemble's errors are smaller than its members' where theirs differ.
    Raises ValueError where the sum of their units exceeds ``MAX_HIDDEN``, the outputs
    ``MAX_BUCKETS``, or its integers the search's (``search_fit_error``).

    >>> one = network_block(np.ones((INPUTS, 2)), np.zeros(2), np.full((1, 4), 2.0), np.ones(1))
    >>> two = network_block(np.ones((INPUTS, 3)), np.zeros(3), np.zeros((2, 6)), np.ones(2), [9])
    >>> both = network_ensemble([one, two])
    >>> int(both[N_HIDDEN]), int(both[N_BUCKETS]), block_parts(both)[1][:, 1].tolist()
    (5, 2, [64, 64])
    """
    if not blocks or any(block[N_HIDDEN] == 0 for block in blocks):
        raise ValueError("an ensemble needs one or more networks")
    parts = [block_parts(block) for block in blocks]
    edges = np.array(sorted({int(edge) for part in parts for edge in part[0]}), np.int64)
    if sum(int(block[N_HIDDEN]) for block in blocks) > MAX_HIDDEN or len(edges) >= MAX_BUCKETS:
        raise ValueError(f"an ensemble has at most {MAX_HIDDEN} hidden units and "
                         f"{MAX_BUCKETS} outputs")
    rows = []
    for pieces in [0, *edges]:  # a number of pieces that each output covers
        chosen = [part[1][np.searchsorted(part[0], pieces, side="right")] for part in parts]
        mover = [row[1:1 + len(part[2])] for row, part in zip(chosen, parts, strict=True)]
        waiter = [row[1 + len(part[2]):] for row, part in zip(chosen, parts, strict=True)]
        rows.append(np.concatenate([[sum(row[0] for row in chosen)], *mover, *waiter]))
    outputs = np.array(rows, np.float64) / len(blocks)
    # back to the floats network_block takes: it multiplies them again, exactly
    return network_block(np.concatenate([part[3] for part in parts], axis=1) / ACTIVATION,
                         np.concatenate([part[2] for part in parts]) / ACTIVATION,
                         outputs[:, 1:] / OUTPUT, outputs[:, 0] / (ACTIVATION * OUTPUT), edges)


def search_fit_error(block: np.ndarray) -> str | None:
    """Why the network of ``block`` does not fit the search's 16-bit integers, or None: a
    hidden unit, its bias plus the input weights of a piece on every one of the 64 squares,
    and every output weight must lie within ``UNIT_LIMIT``."""
    if block[N_HIDDEN] == 0:
        return None
    _, outputs, biases, inputs = block_parts(block)
    largest_unit = (np.abs(biases) + np.sort(np.abs(inputs), axis=0)[-64:].sum(axis=0)).max()
    if largest_unit > UNIT_LIMIT:
        return f"a hidden unit may reach {largest_unit}, beyond {UNIT_LIMIT}"
    largest_output = np.abs(outputs[:, 1:]).max()
    if largest_output > UNIT_LIMIT:
        return f"an output weight is {largest_output}, beyond {UNIT_LIMIT}"
    return None


def _check_search_fit(block: np.ndarray) -> None:
    error = search_fit_error(block)
    if error is not None:
        raise ValueError(f"the network does not fit the search's integers: {error}")


def search_network(block: np.ndarray) -> np.ndarray:
    """The network of ``block`` as the search reads it, in ``UNIT_TYPE``: the hidden units'
    biases, the input weights (INPUTS rows of hidden) and the outputs' weights (B rows of 2 *
    hidden); no entries without a network. The block's header, piece counts and output biases
    are read from the block itself. Raises ValueError where ``search_fit_error`` says why.

    >>> network = search_network(network_block(np.ones((INPUTS, 2)), np.zeros(2),
    ...                                        np.ones((1, 4)), np.zeros(1)))
    >>> network.dtype, len(network), int(network[2])  # the first input weight, times ACTIVATION
    (dtype('int16'), 1542, 256)
    """
    if block[N_HIDDEN] == 0:
        return np.zeros(0, UNIT_TYPE)
    _check_search_fit(block)
    _, outputs, biases, inputs = block_parts(block)
    return np.concatenate([biases, inputs.reshape(-1),
                           outputs[:, 1:].reshape(-1)]).astype(UNIT_TYPE)
