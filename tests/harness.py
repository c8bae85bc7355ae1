"""Calls into the kernels with fresh arrays, and the checks the agreement tests share.

The kernels of one position (solver/kernels/position.py, safe_moves.py, moves.py, dead.py) are reached
through ``KernelPosition`` only, so that a move of them to other modules is followed here alone."""

from __future__ import annotations

import numpy as np
import pytest
from naive import rank
from numba import njit

from solver.game.board import Board
from solver.game.engine import is_solution
from solver.game.rules import Rules
from solver.kernels import capacity as C
from solver.kernels import codes
from solver.kernels import dead as D
from solver.kernels import moves as MV
from solver.kernels import position as P
from solver.kernels import safe_moves as SM
from solver.kernels import suitblind as H
from solver.kernels.bundles import CapacityTest, Walk
from solver.kernels.table import INFO_BITS, KEY_HIGH, LOST_MARK, table_find
from solver.search import LOST, WON, Budget, Schedule, memory, solve
from solver.search.arrays import (
    CAPACITY_KEYS,
    WALK_KEYS,
    down_mask,
    kernel_card,
    kernel_rules,
    position_keys,
    state_arrays,
)

# No streamlined search (solver/search/streamline.py): for the tests of what the other searches do, which
# it would otherwise often win before them.
PLAIN = Schedule(streamline_slices=())


class KernelPosition:
    """A position in the kernels' arrays, with what generating, playing and taking back moves needs, and
    the safe moves and dead test (solver/kernels/safe_moves.py, dead.py)."""

    def __init__(self, board: Board, rules):
        self.rules, self.rule_codes, self.zobrist = rules, kernel_rules(rules), position_keys(rules)
        self.board, self.heights, self.found = state_arrays(board, rules)
        self.meta = np.zeros(codes.META_SIZE, dtype=np.int64)
        self.meta[codes.M_IN_PLAY] = board.cards_in_play()
        self.meta[codes.M_REDEALS] = board.redeals
        self.meta[codes.M_DOWN] = down_mask(board, rules)
        self.keys = P.position_hash(self.board, self.heights, self.zobrist, board.redeals, self.meta[codes.M_DOWN])
        self.scratch = np.zeros(codes.SCRATCH_SIZE, dtype=np.int32)
        self.saved = np.zeros(self.board.shape[0], dtype=np.int16)

    def moves(self) -> list[tuple[int, int]]:
        src = np.zeros(codes.MAX_MOVES_PER_NODE, dtype=np.int16)
        dst = np.zeros(codes.MAX_MOVES_PER_NODE, dtype=np.int16)
        n = MV.generate_moves(
            self.board, self.heights, self.found, self.rule_codes, src, dst, 0, self.scratch, 0, self.meta,
            self.board.copy(), self.heights.copy(),
        )  # fmt: skip
        return [(int(src[i]), int(dst[i])) for i in range(n)]

    def play(self, src: int, dst: int) -> int:
        args = (self.board, self.heights, self.found, self.zobrist, self.keys, self.meta, src, dst)
        return P.play(*args, self.saved, self.scratch)

    def take_back(self, src: int, dst: int, card: int) -> None:
        args = (self.board, self.heights, self.found, self.zobrist, self.keys, self.meta, src, dst, card)
        P.take_back(*args, self.saved, self.scratch)

    def play_safe_moves(self) -> int:
        """Play the safe foundation moves where they hold (rules and position); returns how many."""
        if not SM.safe_moves_hold(self.rule_codes, self.meta):
            return 0
        auto_src = np.zeros(codes.MAX_CARDS, dtype=np.int16)
        auto_card = np.zeros(codes.MAX_CARDS, dtype=np.int16)
        args = (self.board, self.heights, self.found, self.zobrist, self.keys, self.meta)
        return SM.play_safe_moves(*args, auto_src, auto_card, self.rule_codes.safe)

    def relaxed_dead(self) -> bool:
        return bool(D.relaxed_dead(self.board, self.heights, self.found, self.rule_codes, self.scratch))

    def dead_here(self) -> bool:
        """The dead test where the search applies it (rules and position)."""
        return bool(D.dead_here(self.board, self.heights, self.found, self.rule_codes, self.scratch, self.meta))

    def engine_board(self) -> Board:
        """The position as the engine writes it (kernel cards turned back where foundations build down)."""
        rules = self.rules
        back = {kernel_card(c, rules): c for c in range(rules.cards)}
        piles = tuple(tuple(back[int(c)] for c in self.board[p, : self.heights[p]]) for p in range(rules.piles))
        tops = []
        for count in self.found:
            ranks = [r for r in range(1, rules.ranks + 1) if len(rules.founded_ranks(r)) == count]
            tops.append(ranks[0] if count else 0)
        down = frozenset(back[c] for c in range(rules.cards) if (int(self.meta[codes.M_DOWN]) >> c) & 1)
        return Board(piles, tuple(tops), redeals=int(self.meta[codes.M_REDEALS]), down=down)

    def snapshot(self):
        """What the position is (cells above a pile's top hold leftovers, which mean nothing)."""
        piles = [self.board[p, : self.heights[p]].copy() for p in range(self.rules.piles)]
        return (*piles, self.heights.copy(), self.found.copy(), self.keys.copy(), self.meta.copy())


def fast_sample(values, fast) -> list:
    """``values`` to parametrize a test with (a tuple: one value per name), each not in ``fast`` marked slow:
    the fast tier (``pytest -m "not slow"``, README) runs the sample ``fast``, the full suite all of them."""
    slow = pytest.mark.slow
    return [v if v in fast else pytest.param(*v if isinstance(v, tuple) else (v,), marks=slow) for v in values]


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
    capacity_meta = np.zeros(C.CMETA_SIZE, dtype=np.int64)
    capacity_meta[C.C_ALLOWANCE] = allowance
    work, capacity_hash = np.zeros(C.CAP_SIZE, dtype=np.int32), np.zeros(2, dtype=np.uint64)
    table = np.zeros(table_words, dtype=np.uint64)
    return CapacityTest(ob, oh, C.origin_places(ob, oh), work, CAPACITY_KEYS, capacity_hash, table, capacity_meta)


def kernel_verdict(board: Board, origin: Board, rules, node_limit: int = 1 << 20) -> int:
    """The kernel's verdict on the abstraction of ``board`` against ``origin``, with a fresh table."""
    test = capacity_test(origin, rules, 1 << 22)
    C.abstract(*state_arrays(board, rules), test)
    return C.capacity_search(test, kernel_rules(rules), node_limit)


def kernel_verdict_of(prefix, found, origin: Board, rules) -> int:
    """The kernel's verdict on the abstract position given by its prefix lengths and foundations."""
    test = capacity_test(origin, rules, 1 << 17)
    lengths, found = np.array(prefix, dtype=np.int32), np.array(found, dtype=np.int32)
    C.abstract_prefixes(lengths, found, test.origin, rules.ranks, test.work)
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
