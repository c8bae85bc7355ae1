"""Compiling the kernels, once per version: ``warm_up()``.

Numba compiles a kernel the first time it is called and keeps the machine
code in its cache (:mod:`solver.kernels.cache`), from which later processes
load it in milliseconds.  ``warm_up()`` calls every kernel a solve may use on
small positions, so that no deal's measured time ever includes compiling:
``solve()`` calls it once per process before its clock starts, a batch
before it forks its workers.

On a fresh cache the kernels take about 40 s of CPU to compile (numba's
typing and LLVM, one function after another).  Two independent halves -- the
depth-first search with its dead tests, and the walks with the beams --
compile in two child processes at once, each filling the cache; this process
then loads them.  A child that fails costs only time: whatever the cache
still lacks compiles here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

from ..game.board import Board
from ..game.rules import GAMES, with_worrying_back
from ..kernels import codes
from ..kernels.cache import PACKAGE, is_warm
from ..kernels.position import seed_random
from ..kernels.table import forget_open, open_keys, repoint, table_evict
from ..kernels.trap import first_pile_trap_cards, first_piles_trap_cards
from ..processes import die_with_parent
from .beam import beam_search
from .capacity import RootTest
from .dfs import DepthFirst
from .layered import Layered
from .memory import doubled
from .result import Budget
from .root import Root
from .suitblind import Walks

# A deal that needs a search, with capacity tests on the way (its root is neither won nor dead).
_RULES_3X3 = GAMES["bakers-dozen"].reduced(ranks=3, piles=3)
_SEARCHED_3X3 = Board(((6, 7, 3, 2), (11, 10, 8, 4), (9, 1, 5, 0)), (0, 0, 0, 0))


def _search_kernels() -> None:
    """The depth-first search, its safe moves and dead tests, redeals and runs, the table's upkeep, and the
    layered search."""
    unlimited = Budget(seconds=None)
    seed_random(0)  # the restarts' move-order noise
    root = Root(_SEARCHED_3X3, _RULES_3X3)
    DepthFirst(root, unlimited).run(None, None)
    RootTest(root, 1 << 24).advance(None)  # and its root's capacity test to the end
    Layered(Root(_SEARCHED_3X3, _RULES_3X3), unlimited).search(None)  # the layered search's kernels
    # A deal with redeals and runs (Perseverance), whose search plays, takes back and hashes them.
    rules = GAMES["perseverance"].reduced(ranks=4, piles=3)
    board = Board(((12, 9, 5, 6), (14, 13, 10, 11), (7, 15, 4, 8)), (1, 1, 1, 1), redeals=2)
    DepthFirst(Root(board, rules), unlimited).run(None, None)
    table, scc = np.zeros(4, dtype=np.uint64), np.zeros(1, dtype=np.int64)
    repoint(table, scc, open_keys(table, scc, 0))
    doubled(table)
    table_evict(np.zeros(8, dtype=np.uint64), np.zeros(1, dtype=np.int64), 0, 1)
    forget_open(np.zeros(4, dtype=np.uint64), np.zeros(1, dtype=np.int64), np.zeros(codes.META_SIZE, np.int64))
    _trap_kernels()


def _trap_kernels() -> None:
    """The traps of the first piles (solver/kernels/trap.py), which the root of a game with redeals asks
    before any search: Cruel's first solve otherwise compiled them in its own time (6.7 s of a 10 s budget)."""
    rules = GAMES["cruel"].reduced(ranks=4, piles=4)
    start = Root(Board(((0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)), (0, 0, 0, 0)), rules).arrays
    first_pile_trap_cards(start.board, start.heights, start.found, rules.ranks)
    first_piles_trap_cards(start.board, start.heights, start.found, rules.ranks, 2)


def load_search_kernels() -> None:
    """Load the depth-first search's kernels from a warm cache: a solve of a small deal, in a millisecond."""
    DepthFirst(Root(_SEARCHED_3X3, _RULES_3X3), Budget(seconds=None)).run(None, None)


def _walk_and_beam_kernels() -> None:
    """The suit-blind walks and the beams (``solve()`` uses neither on a deal this small)."""
    # Worrying back turns the root's safe moves off, which the other part compiles meanwhile.
    Walks(Root(_SEARCHED_3X3, with_worrying_back(_RULES_3X3)), 1 << 24).advance(None)
    # A deal that needs one move, so that every beam kernel runs.
    rules = GAMES["bakers-dozen"].reduced(ranks=3, piles=2)
    one_move = Board(((9, 8, 2, 5, 3, 1), (11, 10, 0, 4, 7, 6)), (0, 0, 0, 0))
    beam_search(Root(one_move, rules), 1, None, np.zeros(4, dtype=np.uint64))


PARTS: dict[str, tuple[str, Callable[[], None]]] = {
    "search": ("the depth-first search and its dead tests", _search_kernels),
    "walks": ("the walks and the beams", _walk_and_beam_kernels),
}

_warmed = False  # whether this process has run warm_up()


def warm_up(report: Callable[[str], None] | None = None) -> None:
    """Compile (or load from the cache) every kernel, so that no measured time includes it.

    ``report``: called with a line as each half of a fresh compile ends.  No clock limits anything
    here: a deadline passed while compiling would leave a kernel for a deal's own time to compile."""
    global _warmed
    if _warmed:
        return
    _warmed = True
    if not is_warm() and (os.cpu_count() or 1) > 1:
        compile_in_children(report or (lambda line: None))
    for _, kernels in PARTS.values():
        kernels()


def compile_part(name: str) -> None:
    """A child's work: one part's kernels, into the cache (and no children of its own)."""
    global _warmed
    _warmed = True
    PARTS[name][1]()


def compile_in_children(report: Callable[[str], None]) -> None:
    """Fill the cache from one child process per part, all at once; the children never outlive this call,
    nor this process however it ends."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE.parent), env.get("PYTHONPATH")]))
    if env.get("NUMBA_CACHE_DIR"):  # the children work in another folder: the same cache, wherever given
        env["NUMBA_CACHE_DIR"] = os.path.abspath(env["NUMBA_CACHE_DIR"])
    began = time.perf_counter()
    children = {
        name: subprocess.Popen(
            [sys.executable, "-c", f"from solver.search.warm import compile_part; compile_part({name!r})"],
            env=env,
            cwd=PACKAGE.parent,  # `-c` puts the working folder first on the path: let it be this package's
            preexec_fn=die_with_parent,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in PARTS
    }
    try:
        while children:
            for name, child in list(children.items()):
                if child.poll() is not None:
                    del children[name]
                    done = "compiled" if child.returncode == 0 else "failed (compiling it here)"
                    report(f"  {PARTS[name][0]}: {done} in {time.perf_counter() - began:.0f} s")
            time.sleep(0.05)
    finally:
        for child in children.values():
            child.kill()
            child.wait()
