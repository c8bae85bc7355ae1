"""The numba layer: jitted kernels over plain arrays and scalars, no Python objects.

Private to the package: :mod:`solver.search` drives them.  One room per concern:

- :mod:`.codes`: the numbers kernels and drivers agree on (rules, moves, statuses, ``meta``, the scratch layout);
- :mod:`.bundles`: the named tuples that kernel arguments travel in;
- :mod:`.table`: the open-addressing transposition table, its growth and forgetting;
- :mod:`.position`: a position's hash, moves made and undone, redeals;
- :mod:`.safe_moves`: the safe foundation moves, played without search;
- :mod:`.moves`: move generation, with the lone-card rule;
- :mod:`.dead`: the first dead test, a greedy relaxation;
- :mod:`.dfs`: the depth-first search with Tarjan's lost marks;
- :mod:`.trap`: the first piles' traps, which prove a deal with redeals lost at its root;
- :mod:`.capacity`: the capacity relaxation, a second dead test, and the root's test to the end;
- :mod:`.suitblind`: the walks of the suit-blind relaxation (and of the real game);
- :mod:`.layered`: the layered search, breadth-first by progress, one layer of exact positions at a time;
- :mod:`.score`: a position's score by a cheap count, and the move order it gives;
- :mod:`.beam`: the beam search, a win-finder;
- :mod:`.cache`: numba's cache of compiled kernels, kept apart for each version of this folder.

Each pruning rule is proved in the text of the module that applies it, and each proof names the tests
that check it (``Checked by:``; a module's tests are in tests/kernels/test_<module>.py).

No reference counting (``_nrt=False``)
    Numba counts references to every array with atomic instructions: at
    each view (``a[i]`` of a 2-D array, a slice), each array bound to a
    new name (every argument of a function it inlines) and its end of
    life.  In the search loops its pruning left most of them, and they
    took 40-45% of the time (``perf`` on Good Measure 462's suit-blind
    walk and on 560's depth-first search).  The hot loops (``search``
    in :mod:`.dfs`, ``capacity_search``, the beam's level, the walk) are compiled
    with numba's ``_nrt=False``: no counts at all.  Such a kernel may not
    allocate, so its callers hand it every array it needs; the arrays it
    sees are the caller's and outlive the call, so nothing is freed early.
    Nothing else changes: the same moves in the same order, the same
    positions met.
    No test checks this claim: the tests run these kernels as compiled, and none compiles them with
    reference counts to compare the positions met.
"""

from .cache import use_versioned_cache

use_versioned_cache()  # before any kernel module is compiled or loaded (see cache.py)
