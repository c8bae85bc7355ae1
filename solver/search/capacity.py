"""The driver of the root's capacity test searched to the end (:mod:`solver.kernels.capacity`)."""

from __future__ import annotations

import time

import numpy as np

from ..kernels import capacity as C
from ..kernels.codes import LOST, UNDECIDED
from ..kernels.table import TABLE_MAX_LOAD
from ..words import CAPACITY
from ..words import LOST as LOST_WORD
from .memory import doubled, doubling_overhead, table_zeros
from .protocol import OPEN, NotSaveable
from .root import Root


class RootTest(NotSaveable):
    """The capacity test of the search's root searched to the end, in slices between depth-first runs,
    with its own table, in the walks' share of the time and memory: it runs before them and lets its
    table go when it ends.

    The search tests every position with at most ``Schedule.capacity_nodes`` abstract positions; some
    deals need far more at the root alone (Baker's Dozen 417: 3.3 million, 16 s), and then the abstract
    game, which has no cycles and forgets where moved cards lie, is the cheaper proof: the search of
    the real game had not ended after 573 million positions.  Most deals' abstract games are won
    within milliseconds, which ends this test with nothing learned.  A :class:`~.protocol.Search` whose
    outcome is ``LOST`` or ``OPEN``, never ``WON``."""

    found_by = CAPACITY
    reason = ""

    def __init__(self, root: Root, memory: int):
        self.root, self.memory, self.schedule = root, memory, root.schedule
        self.table = table_zeros(2 * self.schedule.root_test_first_slots)
        self.capacity_meta = np.zeros(C.CMETA_SIZE, dtype=np.int64)
        self.work = np.zeros(C.CAP_SIZE, dtype=np.int32)
        self.capacity_hash = np.zeros(2, dtype=np.uint64)
        self.status, self.seconds = UNDECIDED, 0.0
        self.peak = self.table.nbytes  # its table's largest size (it lets the table go when it ends)
        self.gave_up = root.capacity_limit() == 0  # capacity tests off (worrying back, or the schedule's)

    def open(self) -> bool:
        """Whether searching on may still decide something."""
        return self.status == UNDECIDED and not self.gave_up

    def lost(self) -> bool:
        return self.status == LOST

    def outcome(self) -> str:
        return LOST_WORD if self.lost() else OPEN

    def winning_line(self) -> list:
        raise ValueError("the root's capacity test finds no wins")

    def positions(self) -> int:
        return int(self.capacity_meta[C.C_NODES])

    def bytes(self) -> int:
        return self.table.nbytes

    def _room(self) -> bool:
        """Grow the table when the next slice might overfill it; False when that would pass ``memory``."""
        slots = self.table.size // 2
        if self.capacity_meta[C.C_COUNT] + self.schedule.root_test_slice + 2 <= TABLE_MAX_LOAD * slots:
            return True
        if 2 * self.table.nbytes + doubling_overhead(self.table, self.schedule.stretch_slots) > self.memory:
            return False
        self.table = doubled(self.table, self.schedule.stretch_slots)
        self.peak = self.table.nbytes
        return True

    def advance(self, deadline: float | None, up_to: int | None = None) -> None:
        """Search on until the deadline, ``up_to`` abstract positions in all, an outcome or giving up; each
        slice starts again from the root, through the verdicts the table holds, so it goes on where the last
        one stopped.  Walking back down to there counts the undecided positions on the way (at most
        ``CAP_DEPTH``), so a slice must be longer."""
        assert self.schedule.root_test_slice > C.CAP_DEPTH
        began = time.perf_counter()
        while self.open() and (deadline is None or time.perf_counter() < deadline):
            if up_to is not None and self.positions() >= up_to:
                break
            if not self._room():
                self.gave_up = True  # the deal is left to the other searches
                break
            root = self.root
            test = root.capacity_test()._replace(
                work=self.work, keys=self.capacity_hash, table=self.table, meta=self.capacity_meta
            )
            C.abstract(root.origin, root.origin_heights, root.origin_found, test)
            self.status = C.capacity_search(test, root.rule_codes, self.schedule.root_test_slice)
        self.seconds += time.perf_counter() - began
        if not self.open():
            self.table = np.zeros(0, dtype=np.uint64)  # done: let the memory go
