"""The numbers the kernels and their drivers (:mod:`solver.search`) agree on.

Rule codes (what an empty pile takes), move codes (a kernel move is a pair
of small integers: a source pile, or ``WORRY + suit`` for a card coming back
from its foundation; a target pile, or ``FOUNDATION``), the one status enum
that every kernel returns, and the ``meta`` slots that carry a depth-first
search between calls.  Each kernel's own flat layouts keep their named
offsets beside the kernel that reads them.
"""

from __future__ import annotations

from numba import njit

from ..game.rules import MAX_PILES

EMPTY_NONE, EMPTY_ANY, EMPTY_KING = 0, 1, 2  # what an empty pile takes: nothing, any card, a King
FOUNDATION = -1  # the target of a move to the foundations, in the kernels' moves
WORRY = 100  # source WORRY + s: the top card of suit s's foundation comes back (worrying back)
BOTTOM = 52  # the "card beneath" a pile's bottom card, for the hash

# What a kernel call returns.  UNDECIDED: a capacity verdict not reached (being decided, or given up on);
# PAUSED: a slice ended with nothing decided; *_FULL: the caller must grow that array and call again.
UNDECIDED, WON, LOST, PAUSED, TABLE_FULL, STACK_FULL, SCC_FULL = range(7)

# Slots of the ``meta`` array that carry the depth-first search between calls.
M_DEPTH, M_NODES, M_TABLE_COUNT, M_AUTO_TOP, M_ROOT_AUTOS, M_PENDING, M_IN_PLAY, M_DEAD, M_LONE = range(9)
M_SCC_TOP, M_NEXT_INDEX, M_CLOSED = range(9, 12)  # the component stack's height, the next number, positions closed
META_SIZE = 12

# A top card has at most 4 hosts (one per suit of the next rank), one space and its foundation.
MAX_MOVES_PER_NODE = 6 * MAX_PILES + 4 * (4 + 1)  # ... and worrying back: 4 suits x (4 hosts + a space)


@njit(cache=True, inline="always")
def space_takes(rank, nranks, empty_rule):
    """Whether an empty pile may take a card of this rank."""
    return empty_rule == EMPTY_ANY or (empty_rule == EMPTY_KING and rank == nranks)
