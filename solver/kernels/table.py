"""The hash table: where the kernels keep what they know of positions.

A flat
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
Checked by:
  tests/search/test_memory.py::test_a_table_doubled_a_stretch_at_a_time_holds_every_entry_as_a_whole_copy_would

Forgetting when memory is short (``table_evict``)
    When the table may not grow, the search forgets every stale entry and
    about half the lost marks, keeping every open position.  A forgotten
    position is searched again as new if met, which costs time, never a
    verdict: the closing argument (solver/kernels/dfs.py, "Lost positions") needs every position reachable from
    a closing component to be in it, in one closed before, or marked lost,
    and a position searched again is in one of the first two like any
    other.  Open positions keep their numbers and slots on the component
    stack, so the bookkeeping of the open components is untouched.
    Checked by:
      tests/kernels/test_table.py::test_evict_keeps_open_positions_and_drops_half_the_lost_marks
      tests/kernels/test_table.py::test_a_table_that_may_not_grow_forgets_and_still_agrees_with_reference_search
      tests/kernels/test_table.py::test_a_full_lost_deal_is_still_proved_lost_after_forgetting
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .codes import M_SCC_TOP

TABLE_MAX_LOAD = 0.7
MAX_TABLE_SLOTS = 1 << 32  # 64 GiB: the home slot is 32 high bits of the key scaled to the table
KEY_HIGH = np.uint64(0xFFFFFFFF00000000)
INFO_BITS = np.uint64(0xFFFFFFFF)
# Values of the information word that the depth-first search gives a meaning of their own: LOST_MARK;
# STALE_MARK, open in a run that was cut short; or else the Tarjan number of a position of this run
# whose strongly connected component is still open (solver/kernels/dfs.py, "Lost positions").
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
def open_keys(table, scc, scc_top):
    """The keys of the open positions ``scc[:scc_top]`` (slots of ``table``), to find them again once
    the table has moved (``repoint``)."""
    keys = np.empty((scc_top, 2), dtype=np.uint64)
    for k in range(scc_top):
        keys[k, 0], keys[k, 1] = table[2 * scc[k]], table[2 * scc[k] + 1]
    return keys


@njit(cache=True)
def repoint(table, scc, keys):
    """Point ``scc`` at the slots of ``table`` that hold ``keys`` (stored there already)."""
    for k in range(keys.shape[0]):
        scc[k] = table_find(table, keys[k, 0], keys[k, 1], np.int64(0))


@njit(cache=True)
def table_evict(table, scc, scc_top, drop_bit):
    """Forget, in place, every stale entry and the lost marks whose key has bit ``drop_bit`` set
    (about half); keep every open position and re-point ``scc`` at its slot.  Returns the entries left.

    Emptying slots breaks linear probing's chains, so the entries left are stored again, in
    circular order from a slot that was empty before: no chain crosses that slot, so each entry
    finds every slot from its home to its old place already settled and lands in that stretch,
    behind settled entries only, which never move again."""
    slots = table.shape[0] // 2
    kept = open_keys(table, scc, scc_top)
    start = 0
    while table[2 * start] != 0:
        start += 1
    bit = np.uint64(drop_bit)
    for s in range(slots):
        info = table_info(table, s)
        if table[2 * s] != 0 and (info == STALE_MARK or (info == LOST_MARK and (table[2 * s] >> bit) & np.uint64(1))):
            table[2 * s], table[2 * s + 1] = 0, 0
    left = 0
    for step in range(1, slots + 1):
        i = 2 * ((start + step) % slots)
        if table[i] != 0:
            key0, key1 = table[i], table[i + 1]
            table[i], table[i + 1] = 0, 0
            table_find(table, key0, key1, np.int64(key1 & INFO_BITS))
            left += 1
    repoint(table, scc, kept)
    return left


@njit(cache=True)
def forget_open(table, scc, meta):
    """After a run is cut short: its open positions are known nothing of (their search was cut)."""
    for k in range(meta[M_SCC_TOP]):
        set_info(table, scc[k], STALE_MARK)
    meta[M_SCC_TOP] = 0
