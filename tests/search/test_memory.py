"""The hash table grows a stretch at a time (solver/kernels/table.py, solver/search/memory.py ``doubled``).

Doubling must keep every entry with its information, and hold little more
memory than the new table: the old one's copied stretches go back to the
system as the new one fills.
"""

import subprocess
import sys

import numpy as np
import pytest
from harness import filled

import solver
from solver.game.deals import deal
from solver.game.rules import GAMES
from solver.kernels import table as T
from solver.kernels.table import INFO_BITS, table_lookup
from solver.search import LOST, Budget, Schedule, memory, solve


@pytest.mark.parametrize("slots", [1 << 12, 1 << 18])
def test_a_table_doubled_a_stretch_at_a_time_holds_every_entry_as_a_whole_copy_would(slots):
    """Stretches of 4,096 slots: the 2^18-slot table is memory-mapped, so each copied stretch is given back."""
    table, keys = filled(slots, T.TABLE_MAX_LOAD, seed=slots)
    whole = np.zeros(2 * table.size, dtype=np.uint64)
    T.table_copy_range(table, whole, 0, table.size // 2)
    mapped = memory.mapping(table) is not None
    assert mapped == (slots == 1 << 18)
    doubled = memory.doubled(table, stretch_slots=1 << 12)
    assert doubled.size == 2 * table.size and np.array_equal(doubled, whole)  # same entries, same order
    for k, (h0, h1) in enumerate(keys):
        slot = table_lookup(doubled, h0, h1)
        assert slot >= 0 and int(doubled[2 * slot + 1] & INFO_BITS) == k
    assert int(np.count_nonzero(doubled[0::2])) == len(keys)
    if mapped:  # the old table's memory was given back: it reads as zeros now
        assert not table.any()


_PEAK = """
import sys
import numpy as np
sys.path[:0] = sys.argv[1:2]
from harness import filled
from solver.kernels import table as T
from solver.search import memory

def status(field):  # bytes
    return next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith(field))

STRETCH = 1 << 18  # 4 MiB stretches
table, _ = filled(1 << 22, T.TABLE_MAX_LOAD, seed=7)  # 64 MiB, 2.9M entries
memory.doubled(np.zeros(4, dtype=np.uint64))  # compiled before measuring
open("/proc/self/clear_refs", "w").write("5")  # the peak so far (compiling, filling) is not this test's
before = status("VmRSS:")
grown = memory.doubled(table, STRETCH) if sys.argv[2] == "stretches" else None
if grown is None:
    grown = memory.table_zeros(2 * table.size)
    T.table_copy_range(table, grown, 0, table.size // 2)
print(max(0, status("VmHWM:") - before) / grown.nbytes)
"""


@pytest.mark.slow
def test_doubling_a_stretch_at_a_time_holds_about_half_the_memory_a_whole_copy_does():
    """Peak resident memory over what the old table held: about half the new table (its new half,
    and a stretch), where a whole copy holds all of it while the old one lives."""
    here = str(solver.__file__).rsplit("/solver/", 1)[0]

    def peak_share(how: str) -> float:
        run = [sys.executable, "-c", _PEAK, here, how]
        out = subprocess.run(run, check=True, capture_output=True, text=True, cwd=here + "/tests")
        return float(out.stdout.split()[-1])

    stretches, whole = peak_share("stretches"), peak_share("whole")
    assert stretches < 0.6 and whole > 0.9, (stretches, whole)


def test_a_search_whose_old_and_new_tables_would_not_fit_together_grows_instead_of_forgetting():
    """Good Measure 836 is lost in about 166,000 positions, past the 91,750 entries of 2^17 slots. In
    7 MiB (one run: all of it for the search) the 2^18-slot table fits (4 MiB, a 64 KiB stretch, and
    2 MiB of capacity cache) but not beside the 2^17-slot one: copied whole, the search forgot 3 times."""
    schedule = Schedule(stretch_slots=1 << 12, first_table_slots=1 << 17, capacity_first_slots=1 << 17)
    rules = GAMES["good-measure"]
    result = solve(deal(rules, 836), rules, Budget(seconds=None, memory=7 << 20), schedule=schedule, one_run=True)
    assert result.verdict == LOST and result.evictions == 0, (result.verdict, result.evictions)
    assert result.memory > 6 << 20, result.memory
