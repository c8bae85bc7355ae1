"""Table memory: hash tables in huge pages, doubled a stretch at a time.

The tables are the kernels' (:mod:`solver.kernels.table`); the drivers own
them and grow them here, within their budgets.
"""

from __future__ import annotations

import mmap

import numpy as np

from ..kernels.table import table_copy_range

STRETCH_SLOTS = 1 << 21  # a table grows 32 MiB at a time (a multiple of the 2 MiB huge page)


def table_zeros(words: int) -> np.ndarray:
    """A zeroed ``uint64`` array for a hash table, in huge pages where the system grants them: the
    tables are probed at random, and with 4 KiB pages most probes also miss the TLB (measured: the
    depth-first search 3-8% faster on GM 3 and 214, the suit-blind walk of GM 462 5% faster)."""
    size = 8 * words
    if size < 1 << 21 or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros(words, dtype=np.uint64)
    memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # zeroed by the system
    memory.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(memory, dtype=np.uint64)


def mapping(table: np.ndarray) -> mmap.mmap | None:
    """The memory map under a table from ``table_zeros``, or None (a small table)."""
    under = getattr(table.base, "obj", None)
    return under if isinstance(under, mmap.mmap) else None


def doubling_overhead(table: np.ndarray, stretch_slots: int = STRETCH_SLOTS) -> int:
    """Bytes that doubling ``table`` (``doubled``) holds beyond the new table: the whole old one, or a stretch."""
    return min(16 * stretch_slots, table.nbytes) if mapping(table) is not None else table.nbytes


def doubled(old: np.ndarray, stretch_slots: int = STRETCH_SLOTS) -> np.ndarray:
    """A table twice the size of ``old`` with its entries; ``old`` is spent.

    Copied a stretch at a time, each stretch of ``old`` given back to the system once copied: it lands
    in about the twice as long stretch of the new table (home slots follow the keys' high bits,
    solver/kernels/table.py), whose untouched pages hold no memory, so the two tables never hold much more
    than the new one, where copying whole would hold both (an 8 GiB table could not grow in 18 GiB)."""
    new = table_zeros(2 * old.size)
    under, slots = mapping(old), old.size // 2
    for start in range(0, slots, stretch_slots):
        stop = min(start + stretch_slots, slots)
        table_copy_range(old, new, start, stop)
        if under is not None:
            under.madvise(mmap.MADV_DONTNEED, 16 * start, 16 * (stop - start))
    return new
