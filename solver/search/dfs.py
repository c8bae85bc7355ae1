"""The driver of the depth-first search kernel (:mod:`solver.kernels.dfs`): its arrays, grown on
demand within the memory budget, and the run loop between the kernel's slices."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..game.board import Board
from ..game.engine import Move
from ..game.rules import Rules
from ..kernels import capacity as C
from ..kernels import codes
from ..kernels import dfs as kernel
from ..kernels.bundles import CapacityTest, DfsStack, Position
from ..kernels.codes import (
    LOST,
    M_AUTO_TOP,
    M_DEPTH,
    M_IN_PLAY,
    M_NODES,
    M_PENDING,
    M_REDEALS,
    M_ROOT_AUTOS,
    M_SCC_TOP,
    M_TABLE_COUNT,
    PAUSED,
    WON,
)  # fmt: skip
from ..kernels.position import SCRATCH_SIZE, dead_here, play, play_safe_moves, position_hash, safe_moves_hold
from ..kernels.table import MAX_TABLE_SLOTS, TABLE_MAX_LOAD, forget_open, open_keys, repoint, table_evict
from ..words import REASON_MEMORY, REASON_STATES, REASON_TIME
from .arrays import (
    CAPACITY_KEYS,
    down_mask,
    engine_move,
    foundation_move,
    is_classic,
    kernel_rules,
    position_keys,
    state_arrays,
)
from .memory import doubled, doubling_overhead, table_zeros
from .result import Budget
from .schedule import Schedule


class DepthFirst:
    """One depth-first run: the arrays of the search, grown on demand within the memory budget."""

    def __init__(
        self,
        board: Board,
        rules: Rules,
        budget: Budget,
        schedule: Schedule | None = None,
        noise: int = 0,
        before: DepthFirst | None = None,
    ):
        """``before``: a run cut short, whose table (lost marks and all) this run takes over."""
        schedule = schedule or Schedule()
        self.rules, self.budget, self.schedule, self.noise = rules, budget, schedule, noise
        self.kr, self.zob = kernel_rules(rules), position_keys(rules)
        self.evictions = 0 if before is None else before.evictions
        self.board, self.heights, self.found = state_arrays(board, rules)
        self.meta = np.zeros(codes.META_SIZE, dtype=np.int64)
        self.meta[M_IN_PLAY] = board.cards_in_play()
        self.meta[M_REDEALS] = board.redeals
        self.meta[codes.M_DOWN] = down_mask(board, rules)
        self.keys = position_hash(self.board, self.heights, self.zob, board.redeals, self.meta[codes.M_DOWN])
        self.auto_src = np.zeros(codes.MAX_CARDS, dtype=np.int16)  # a card goes up at most once on a path
        self.auto_card = np.zeros(codes.MAX_CARDS, dtype=np.int16)
        self.scratch = np.zeros(SCRATCH_SIZE, dtype=np.int32)
        self._alloc_stack(1 << 10, 1 << 14)
        self.scc = np.zeros(1 << 12, dtype=np.int64)
        self.cap = np.zeros(C.CAP_SIZE, dtype=np.int32)
        self.ckeys = np.zeros(2, dtype=np.uint64)
        if before is None:
            self.ctable = np.zeros(2 * schedule.capacity_first_slots, dtype=np.uint64)
            self.cmeta = np.zeros(C.CMETA_SIZE, dtype=np.int64)
            self.cmeta[C.C_ALLOWANCE] = schedule.capacity_head_start  # then one abstract position per real one
            slots = schedule.first_table_slots
            stack = (self.mv_start.size, self.moves_src.size, self.scc.size)
            while slots > 1024 and self._bytes(slots, *stack) > budget.memory:
                slots //= 2
            self.table = table_zeros(2 * slots)
        else:
            forget_open(before.table, before.scc, before.meta)
            self.table = before.table
            self.meta[M_TABLE_COUNT] = before.meta[M_TABLE_COUNT]
            self.ctable, self.cmeta = before.ctable, before.cmeta  # verdicts of the same abstract game

    def _alloc_stack(self, depth: int, moves: int) -> None:
        def grow(name: str, size: int, dtype: type, width: int = 0) -> None:
            """``width``: a row of that many per depth."""
            new = np.zeros((size, width) if width else size, dtype=dtype)
            old = getattr(self, name, None)
            if old is not None:
                new[: old.shape[0]] = old
            setattr(self, name, new)

        for name in ("mv_start", "mv_count", "mv_next", "path_autos"):
            grow(name, depth, np.int32)
        for name in ("frame_index", "frame_low", "frame_sp"):
            grow(name, depth, np.int64)
        for name in ("path_src", "path_dst", "path_card"):
            grow(name, depth, np.int16)
        grow("path_heights", depth, np.int16, self.board.shape[0])  # the pile heights a redeal cut
        for name in ("moves_src", "moves_dst"):
            grow(name, moves, np.int16)

    def _bytes(self, slots: int, depth: int, moves: int, scc: int) -> int:
        return 16 * slots + (46 + 2 * self.board.shape[0]) * depth + 4 * moves + 8 * scc + self.ctable.nbytes

    def bytes(self) -> int:
        return self._bytes(self.table.size // 2, self.mv_start.size, self.moves_src.size, self.scc.size)

    def positions(self) -> int:
        """New positions this run has searched."""
        return int(self.meta[M_NODES])

    def grow_table(self) -> bool:
        slots, top = self.table.size // 2, self.meta[M_SCC_TOP]
        needed = self._bytes(2 * slots, self.mv_start.size, self.moves_src.size, self.scc.size)
        needed += doubling_overhead(self.table, self.schedule.stretch_slots) + 16 * top  # and the open keys
        if not self.schedule.grow_table or needed > self.budget.memory or 2 * slots > MAX_TABLE_SLOTS:
            return False
        keys = open_keys(self.table, self.scc, top)
        self.table = doubled(self.table, self.schedule.stretch_slots)
        repoint(self.table, self.scc, keys)
        return True

    def grow_stack(self) -> bool:
        depth, moves = 2 * self.mv_start.size, 2 * self.moves_src.size
        if self._bytes(self.table.size // 2, depth, moves, self.scc.size) > self.budget.memory:
            return False
        self._alloc_stack(depth, moves)
        return True

    def grow_capacity_table(self) -> None:
        """Double the capacity test's cache when it is a third full, within 1/32 of the memory budget.
        (Short of that the kernel empties it when full, which costs time, never a verdict.)"""
        slots = self.ctable.size // 2
        bigger = 32 * slots <= self.budget.memory // 32 and self.bytes() + 32 * slots <= self.budget.memory
        if self.cmeta[C.C_COUNT] > slots // 3 and bigger:
            self.ctable = doubled(self.ctable, self.schedule.stretch_slots)

    def grow_scc(self) -> bool:
        if self.bytes() + 8 * self.scc.size > self.budget.memory:
            return False
        new = np.zeros(2 * self.scc.size, dtype=np.int64)
        new[: self.scc.size] = self.scc
        self.scc = new
        return True

    def evict(self) -> bool:
        """When the table may not grow: forget its stale entries and half its lost marks (proof in
        solver/kernels/table.py); False when that leaves it over three quarters full (open positions fill it)."""
        drop_bit = 1 + self.evictions % 63  # another half each time
        left = table_evict(self.table, self.scc, self.meta[M_SCC_TOP], drop_bit)
        self.meta[M_TABLE_COUNT] = left
        self.evictions += 1
        return left <= 0.75 * TABLE_MAX_LOAD * (self.table.size // 2)

    def make_room(self, status: int) -> bool:
        """Grow what the kernel ran out of (or make room in the table); False when the memory budget forbids it."""
        if status == codes.TABLE_FULL:
            return self.grow_table() or self.evict()
        if status == codes.STACK_FULL:
            return self.grow_stack()
        if status == codes.SCC_FULL:
            return self.grow_scc()
        return True

    def start(self) -> bool:
        """Play the root's safe moves and open the root; True if that alone wins."""
        autos = 0
        if safe_moves_hold(self.kr, self.meta):  # position.py, "Safe foundation moves"
            autos = play_safe_moves(
                self.board, self.heights, self.found, self.zob, self.keys, self.meta, self.auto_src, self.auto_card,
                self.kr.safe,
            )  # fmt: skip
        self.meta[M_ROOT_AUTOS] = autos
        self.meta[M_PENDING] = 1
        # The capacity relaxation abstracts positions against the root, as it is after its safe moves.
        self.origin, self.origin_heights = self.board.copy(), self.heights.copy()
        self.origin_found = self.found.copy()
        self.where = C.origin_places(self.origin, self.origin_heights)
        if self.meta[M_IN_PLAY] == 0:
            return True
        kernel.open_root(self.table, self.keys, self.meta, self.frame_index, self.frame_low, self.frame_sp, self.scc)
        return False

    def open(self) -> int | None:
        """Start (the root's safe moves), then the root's own tests: WON, LOST, or None to search on."""
        if self.start():
            return WON
        if self.root_is_dead():
            self.meta[codes.M_DEAD] += 1
            return LOST
        return None

    def capacity_limit(self) -> int:
        """Abstract positions one capacity test may search; 0: off (its proof assumes cards never come back,
        and build by rank one card at a time, with no redeal)."""
        return 0 if self.kr.worry or not is_classic(self.rules) else self.schedule.capacity_nodes

    def capacity_test(self) -> CapacityTest:
        """The capacity test of this search's positions, against its root (after ``start``)."""
        return CapacityTest(
            self.origin, self.origin_heights, self.where, self.cap, CAPACITY_KEYS, self.ckeys, self.ctable, self.cmeta
        )

    def root_is_dead(self) -> bool:
        if dead_here(self.board, self.heights, self.found, self.kr, self.scratch, self.meta):
            return True
        limit = self.capacity_limit()
        return limit > 0 and C.capacity_dead(self.board, self.heights, self.found, self.kr, self.capacity_test(), limit)

    def step(self, node_limit: int) -> int:
        position = Position(self.board, self.heights, self.found, self.keys)
        stack = DfsStack(
            self.mv_start, self.mv_count, self.mv_next, self.path_src, self.path_dst, self.path_card,
            self.path_autos, self.path_heights, self.frame_index, self.frame_low, self.frame_sp, self.scc,
            self.moves_src, self.moves_dst, self.auto_src, self.auto_card,
        )  # fmt: skip
        return kernel.search(
            position, self.kr, self.zob, self.table, self.meta, stack, self.scratch, self.noise, node_limit,
            self.schedule.chunk_work, self.capacity_test(), self.capacity_limit(),
        )  # fmt: skip

    def root_moves(self) -> list[Move]:
        """The safe moves played at the root, which every winning line of the other searches starts with."""
        return [foundation_move(p) for p in self.auto_src[: self.meta[M_ROOT_AUTOS]].tolist()]

    def winning_line(self) -> list[Move]:
        """The moves on the stack, safe moves included, in play order."""
        moves = self.root_moves()
        autos = iter(self.auto_src[self.meta[M_ROOT_AUTOS] : self.meta[M_AUTO_TOP]].tolist())
        depth = self.meta[M_DEPTH]
        lists = (self.path_src[:depth].tolist(), self.path_dst[:depth].tolist(), self.path_autos[:depth].tolist())
        for src, dst, safe in zip(*lists, strict=True):
            moves.append(engine_move(src, dst))
            moves += [foundation_move(next(autos)) for _ in range(safe)]
        return moves

    def line_from_root(self, moves: list[tuple[int, int]]) -> list[Move]:
        """Play kernel moves ``(src, dst)`` from this fresh run's deal, each with the safe moves after it, as
        the searches do; the whole line in play order (the root's safe moves first)."""
        self.start()
        line = self.root_moves()
        saved = np.zeros(self.board.shape[0], np.int16)
        position = (self.board, self.heights, self.found, self.zob, self.keys, self.meta)
        for src, dst in moves:
            play(*position, src, dst, saved, self.scratch)
            line.append(engine_move(src, dst))
            if safe_moves_hold(self.kr, self.meta):
                before = int(self.meta[M_AUTO_TOP])
                play_safe_moves(*position, self.auto_src, self.auto_card, self.kr.safe)
                line += [foundation_move(p) for p in self.auto_src[before : self.meta[M_AUTO_TOP]].tolist()]
        return line

    def run(
        self, deadline: float | None, node_cap: int | None, tick: Callable[[DepthFirst], None] | None = None
    ) -> tuple[int, str]:
        """Search until a verdict, the deadline, ``node_cap`` positions, or the memory budget;
        ``tick`` is called between steps (a fraction of a second apart)."""
        opened = self.open()
        if opened is not None:
            return opened, ""
        status = PAUSED
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                return status, REASON_TIME
            if node_cap is not None and self.meta[M_NODES] >= node_cap:
                return status, REASON_STATES
            if not self.make_room(status):
                return status, REASON_MEMORY
            self.grow_capacity_table()
            chunk = self.schedule.chunk_nodes
            if node_cap is not None:
                chunk = min(chunk, node_cap - int(self.meta[M_NODES]))
            status = self.step(chunk)
            if status in (WON, LOST):
                return status, ""
            if tick is not None:
                tick(self)
