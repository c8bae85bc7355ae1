"""What the kernel modules share: the rule codes and the hash table.

The table is where the kernels keep what they know of positions: a flat
``uint64`` array of two-word entries, the first hash with its low bit set
(0 marks an empty slot), then the second hash's high 32 bits over 32 bits of
information about the position.  The slot count is a power of two, at most
``MAX_TABLE_SLOTS``; the caller keeps the load below ``TABLE_MAX_LOAD`` so
probing ends quickly.  The key is 95 bits: two different positions share it
with chance about n^2 / 2^96 among n stored ones.

A position's home slot comes from the high bits of its first hash, so that
the table is in key order but for probing, and a stretch of a table copied
into one twice its size lands in about the twice as long stretch there:
``table_copy_range`` lets a table grow a stretch at a time, giving each
copied stretch of the old one back to the system.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY_NONE, EMPTY_ANY, EMPTY_KING = 0, 1, 2  # what an empty pile takes: nothing, any card, a King
MAX_PILES = 32  # the kernels' scratch layouts have room for this many piles
FOUNDATION = -1  # the target of a move to the foundations, in the kernels' moves
TABLE_MAX_LOAD = 0.7
MAX_TABLE_SLOTS = 1 << 32  # 64 GiB: the home slot is 32 high bits of the key scaled to the table
KEY_HIGH = np.uint64(0xFFFFFFFF00000000)
INFO_BITS = np.uint64(0xFFFFFFFF)
# Values of the information word that the search gives a meaning of their own.
LOST_MARK = 0xFFFFFFFF  # proven lost
STALE_MARK = 0xFFFFFFFE  # open in a run that was cut short: known nothing of


@njit(cache=True, inline="always")
def _probe(table, h0, h1):
    """The slot that holds the position, or else the empty slot where it would go; and which of the two."""
    key0 = h0 | np.uint64(1)
    key1 = h1 & KEY_HIGH
    slots = np.uint64(table.shape[0] // 2)
    mask = slots - np.uint64(1)
    slot = ((key0 >> np.uint64(32)) * slots) >> np.uint64(32)  # slots <= 2^32: no overflow
    while True:
        i = 2 * np.int64(slot)
        if table[i] == 0:
            return np.int64(slot), False
        if table[i] == key0 and (table[i + 1] & KEY_HIGH) == key1:
            return np.int64(slot), True
        slot = (slot + np.uint64(1)) & mask


@njit(cache=True)
def table_find(table, h0, h1, info):
    """The slot of the position; a new position is stored with ``info`` and its slot returned as -1 - slot."""
    slot, held = _probe(table, h0, h1)
    if held:
        return slot
    table[2 * slot] = h0 | np.uint64(1)
    table[2 * slot + 1] = (h1 & KEY_HIGH) | np.uint64(info)
    return -1 - slot


@njit(cache=True)
def table_lookup(table, h0, h1):
    """The slot of the position, or -1 if the table does not hold it (nothing is stored)."""
    slot, held = _probe(table, h0, h1)
    return slot if held else np.int64(-1)


@njit(cache=True, inline="always")
def table_info(table, slot):
    return np.int64(table[2 * slot + 1] & INFO_BITS)


@njit(cache=True, inline="always")
def set_info(table, slot, info):
    table[2 * slot + 1] = (table[2 * slot + 1] & KEY_HIGH) | np.uint64(info)


@njit(cache=True)
def table_copy_range(old, new, start, stop):
    """Store the entries of slots ``start`` to ``stop`` of ``old`` in the (larger) table ``new``."""
    for i in range(2 * start, 2 * stop, 2):
        if old[i] != 0:
            table_find(new, old[i], old[i + 1], np.int64(old[i + 1] & INFO_BITS))


@njit(cache=True)
def table_copy(old, new):
    """Store every entry of ``old`` in the (larger) table ``new``."""
    table_copy_range(old, new, 0, old.shape[0] // 2)


@njit(cache=True, inline="always")
def space_takes(rank, nranks, empty_rule):
    """Whether an empty pile may take a card of this rank."""
    return empty_rule == EMPTY_ANY or (empty_rule == EMPTY_KING and rank == nranks)
