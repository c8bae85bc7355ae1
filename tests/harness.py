"""Calls into the kernels with fresh arrays, and the checks the agreement tests share."""

from __future__ import annotations

import numpy as np
from naive import rank
from numba import njit

from solver.game.board import Board
from solver.game.engine import is_solution
from solver.game.rules import Rules
from solver.kernels import capacity as C
from solver.kernels import codes
from solver.kernels import position as P
from solver.kernels import suitblind as H
from solver.kernels.bundles import CapacityTest, Walk
from solver.kernels.table import INFO_BITS, KEY_HIGH, LOST_MARK, table_find
from solver.search import LOST, WON, Budget, Schedule, memory, solve
from solver.search.arrays import CAPACITY_KEYS, WALK_KEYS, kernel_rules, position_keys, state_arrays


def check_agreement(deals, schedule: Schedule | None = None, one_run: bool = False, layered: bool = False) -> dict:
    """Solve each corpus deal under ``schedule``; assert the reference's verdict and a replayed win;
    count verdicts, restarts and how each was found."""
    counts = {WON: 0, LOST: 0, "restarted": 0, "by beam": 0, "results": []}
    for d in deals:
        result = solve(d.board, d.rules, Budget(seconds=None), schedule=schedule, one_run=one_run, layered=layered)
        assert result.verdict == (WON if d.won else LOST), f"{d.rules}\n{d.board.to_text()}"
        if result.verdict == WON:
            assert is_solution(d.board, result.moves, d.rules)
        counts[result.verdict] += 1
        counts["restarted"] += result.restarts > 0
        counts["by beam"] += result.found_by == "beam"
        counts["results"].append(result)
    return counts


def capacity_test(origin: Board, rules: Rules, table_words: int, allowance: int = 0) -> CapacityTest:
    """A capacity test against ``origin`` with a fresh cache of ``table_words`` words."""
    ob, oh, _ = state_arrays(origin, rules)
    cmeta = np.zeros(C.CMETA_SIZE, dtype=np.int64)
    cmeta[C.C_ALLOWANCE] = allowance
    cap, ckeys = np.zeros(C.CAP_SIZE, dtype=np.int32), np.zeros(2, dtype=np.uint64)
    table = np.zeros(table_words, dtype=np.uint64)
    return CapacityTest(ob, oh, C.origin_places(ob, oh), cap, CAPACITY_KEYS, ckeys, table, cmeta)


def kernel_verdict(board: Board, origin: Board, rules, node_limit: int = 1 << 20) -> int:
    """The kernel's verdict on the abstraction of ``board`` against ``origin``, with a fresh table."""
    test = capacity_test(origin, rules, 1 << 22)
    C.abstract(*state_arrays(board, rules), test)
    return C.capacity_search(test, kernel_rules(rules), node_limit)


def kernel_verdict_of(prefix, found, origin: Board, rules) -> int:
    """The kernel's verdict on the abstract position given by its prefix lengths and foundations."""
    test = capacity_test(origin, rules, 1 << 17)
    lengths, found = np.array(prefix, dtype=np.int32), np.array(found, dtype=np.int32)
    C.abstract_prefixes(lengths, found, test.origin, rules.ranks, test.cap)
    C._hash(lengths, found, CAPACITY_KEYS, test.keys)
    return C.capacity_search(test, kernel_rules(rules), 1 << 15)


def kernel_dead(board: Board, origin: Board, rules) -> bool:
    return kernel_verdict(board, origin, rules) == codes.LOST


def kernel_state(piles, found, nranks: int, board: Board | None = None, low: int = 0, high: int = 0) -> np.ndarray:
    """The kernel's abstract position; with the suits of the board's free cards of the ``low`` lowest
    and the ``high`` highest ranks too (kept per pile, low ranks first, each in ascending order)."""
    named = [t for t in range(1, nranks + 1) if t <= low or t > max(nranks - high, low)]
    names = [0] * (len(piles) * len(named))
    for p, (n, _, _) in enumerate(piles):
        for card in board.piles[p][n:] if named else ():
            if rank(card) in named:
                names[p * len(named) + named.index(rank(card))] = card % 4 + 1
    header = [low, max(nranks - high, low) + 1]
    values = [p[0] for p in piles] + [p[1] for p in piles] + [p[2] for p in piles] + list(found) + header + names
    return np.array(values, np.int8)


def kernel_walk(state: np.ndarray, origin: Board, rules, capacity: bool = True, met: list | None = None) -> int:
    """The kernel's verdict on an abstract position, with fresh tables (WON or LOST, kernel status codes);
    appends to ``met`` how many positions it met."""
    table = np.zeros(1 << 21, dtype=np.uint64)
    stack = np.zeros((1 << 14, state.size), dtype=np.int8)
    trail, path = np.zeros((1 << 14, 3), dtype=np.int32), np.zeros((1 << 14, 2), dtype=np.int32)
    meta = np.zeros(H.HMETA_SIZE, dtype=np.int64)
    walk = Walk(table, stack, trail, path, meta)
    if H.walk_start(state, rules.piles, rules.ranks, WALK_KEYS, walk):
        return codes.WON
    test = capacity_test(origin, rules, 1 << 18, allowance=1 << 20)
    status = H.walk_step(walk, kernel_rules(rules), WALK_KEYS, test, 1 << 30, 1 << 60, (1 << 14) if capacity else 0)
    assert status in (codes.WON, codes.LOST), status
    if met is not None:
        met.append(int(meta[H.H_COUNT]))
    return status


def table_key(board: Board, rules: Rules) -> tuple[int, int]:
    """The key the search's table stores for this position."""
    piles, heights, _ = state_arrays(board, rules)
    h = P.position_hash(piles, heights, position_keys(rules), board.redeals, 0)
    return int(h[0] | np.uint64(1)), int(h[1] & KEY_HIGH)


def marked_lost(table: np.ndarray) -> list[tuple[int, int]]:
    occupied = table[0::2] != 0
    lost = (table[1::2] & INFO_BITS) == LOST_MARK
    rows = np.nonzero(occupied & lost)[0]
    return [(int(table[2 * r]), int(table[2 * r + 1] & KEY_HIGH)) for r in rows]


@njit
def _store(table, keys):
    for k in range(keys.shape[0]):
        table_find(table, keys[k, 0], keys[k, 1], k)


def filled(slots: int, load: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A table from ``memory.table_zeros`` (memory-mapped when 2 MiB or more) and the keys it holds,
    the k-th with information k."""
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 2**64, size=(int(load * slots), 2), dtype=np.uint64, endpoint=False)
    table = memory.table_zeros(2 * slots)
    _store(table, keys)
    return table, keys
