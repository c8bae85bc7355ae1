"""When the table may not grow, the search forgets stale entries and half its lost marks (solver/kernels/table.py).

Forgetting must keep every open position where the component stack points,
find every kept entry again, and never change a verdict.
"""

import random

import numpy as np
import pytest

from solver.game.deals import deal, random_deal
from solver.game.engine import is_solution, reference_search
from solver.game.rules import GAMES
from solver.kernels import table as T
from solver.kernels.table import INFO_BITS, KEY_HIGH, LOST_MARK, STALE_MARK, table_find, table_lookup
from solver.search import LOST, UNKNOWN, WON, Budget, Schedule, solve


@pytest.mark.parametrize("seed", range(5))
def test_evict_keeps_open_positions_and_drops_half_the_lost_marks(seed):
    rng = np.random.default_rng(seed)
    slots = 1 << 10
    table = np.zeros(2 * slots, dtype=np.uint64)
    keys = rng.integers(1, 2**63, size=(700, 2), dtype=np.uint64)  # load ~0.7: long probe chains
    kinds = rng.choice(["open", "lost", "stale"], size=700, p=[0.2, 0.6, 0.2])
    scc = []
    for k, ((h0, h1), kind) in enumerate(zip(keys, kinds, strict=True)):
        info = {"open": k, "lost": LOST_MARK, "stale": STALE_MARK}[kind]
        slot = table_find(table, h0, h1, info)
        assert slot < 0
        if kind == "open":
            scc.append(-1 - slot)
    scc_array = np.array(scc + [0] * 5, dtype=np.int64)
    bit = 1 + seed
    left = T.table_evict(table, scc_array, len(scc), bit)
    kept = lost_kept = 0
    for k, ((h0, h1), kind) in enumerate(zip(keys, kinds, strict=True)):
        slot = table_lookup(table, h0, h1)
        dropped = kind == "stale" or (kind == "lost" and (int(h0 | np.uint64(1)) >> bit) & 1)
        assert (slot < 0) == dropped, (k, kind)
        if slot >= 0:
            kept += 1
            lost_kept += kind == "lost"
            assert int(table[2 * slot + 1] & INFO_BITS) == {"open": k, "lost": LOST_MARK}[kind]
    assert left == kept == int(np.count_nonzero(table[0::2]))
    # The component stack points at the open positions, in order.
    opened = [k for k, kind in enumerate(kinds) if kind == "open"]
    for slot, k in zip(scc_array[: len(scc)], opened, strict=True):
        assert table[2 * slot] == keys[k, 0] | np.uint64(1)
        assert table[2 * slot + 1] & KEY_HIGH == keys[k, 1] & KEY_HIGH
    assert 0.3 < lost_kept / sum(kind == "lost" for kind in kinds) < 0.7


def test_a_table_that_may_not_grow_forgets_and_still_agrees_with_reference_search():
    """A 64-slot table that never grows: deals of more than ~45 positions forget, many times over.
    (Deals whose open positions alone fill the table end `unknown`, for memory.)  The deals are as
    large as the reference search allows, since most smaller lost deals are proved at the root."""
    schedule = Schedule(first_table_slots=1 << 6, grow_table=False)
    counts = {WON: 0, LOST: 0, UNKNOWN: 0, "evicted": 0, "evicted and lost": 0}
    for game in ["bakers-dozen", "good-measure", "portuguese-solitaire", "spanish-patience"]:
        rng = random.Random(f"evict-{game}")
        for i in range(400):
            rules = GAMES[game].reduced(*[(6, 4), (6, 5), (7, 4)][i % 3])
            board = random_deal(rules, rng)
            result = solve(board, rules, Budget(seconds=None, positions=200_000), schedule=schedule)
            counts[result.verdict] += 1
            if result.verdict == UNKNOWN or not result.evictions:
                continue  # a deal that never forgot is the plain search, which tests/test_agreement.py checks
            expected = WON if reference_search(board, rules) is not None else LOST
            assert result.verdict == expected, board.to_text()
            if result.verdict == WON:
                assert is_solution(board, result.moves, rules)
            counts["evicted"] += result.evictions > 0
            counts["evicted and lost"] += result.evictions > 0 and result.verdict == LOST
    assert counts["evicted"] >= 15 and counts["evicted and lost"] >= 5, counts


@pytest.mark.parametrize("number", [98, 836])
def test_a_full_lost_deal_is_still_proved_lost_after_forgetting(number):
    """Good Measure 98 and 836 are lost (a table free to grow: 215,929 and 160,300 positions);
    with a table of 2^17 slots (~92,000 entries) that never grows, still lost."""
    # The depth-first search's proof: no walks (the walk finds 836's first).
    schedule = Schedule(first_table_slots=1 << 17, grow_table=False, walks_after=1 << 62, streamline_slices=())
    rules = GAMES["good-measure"]
    result = solve(deal(rules, number), rules, Budget(seconds=None, positions=5_000_000), schedule=schedule)
    assert result.verdict == LOST and result.evictions >= 2, (result.verdict, result.evictions)
