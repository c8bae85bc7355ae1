"""The driver of the depth-first search kernel (:mod:`solver.kernels.dfs`): its arrays, grown on
demand within the memory budget, and the run loop between the kernel's slices."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..game.engine import Move
from ..kernels import codes
from ..kernels import dfs as kernel
from ..kernels.bundles import DfsStack, KernelRules, Position
from ..kernels.codes import (
    LOST,
    M_AUTO_TOP,
    M_DEPTH,
    M_DOWN,
    M_NODES,
    M_PENDING,
    M_REDEALS,
    M_ROOT_AUTOS,
    M_SCC_TOP,
    M_TABLE_COUNT,
    PAUSED,
    SCRATCH_SIZE,
    WON,
)
from ..kernels.position import position_hash
from ..kernels.table import MAX_TABLE_SLOTS, TABLE_MAX_LOAD, forget_open, open_keys, repoint, table_evict
from ..words import DEPTH_FIRST, REASON_MEMORY, REASON_STATES, REASON_TIME
from ..words import LOST as LOST_WORD
from ..words import WON as WON_WORD
from .arrays import engine_move, foundation_move
from .memory import doubled, doubling_overhead, table_zeros
from .protocol import OPEN
from .result import Budget
from .root import Root


class DepthFirst:
    """One depth-first run from the deal's root: the arrays of the search, grown on demand within the memory
    budget (which the root's capacity cache shares).  A :class:`~.protocol.Search`: its ``LOST`` is every
    position reachable from the root searched, but those proved lost (solver/kernels/dfs.py)."""

    found_by = DEPTH_FIRST
    saveable = True

    def __init__(
        self, root: Root, budget: Budget, noise: int = 0, before: DepthFirst | None = None,
        keys: np.ndarray | None = None, kernel_rules: KernelRules | None = None, probe: bool = False,
        scored: bool = False,
    ) -> None:  # fmt: skip
        """``before``: a run cut short, whose table (lost marks and all) this run takes over; ``keys``,
        ``kernel_rules``: others than the root's; ``probe``: a run beside the others (the streamlined
        search, :mod:`.streamline`), whose budget pays for its own arrays only, not the root's cache;
        ``scored``: each position's moves in the order of their children's score (``kernels.score``), not the
        move generator's (either order finds the same verdict)."""
        self.root, self.budget, self.schedule, self.noise = root, budget, root.schedule, noise
        self.probe, self.scored = probe, scored
        self.status: int | None = None  # the kernel's last status; None before the root is opened
        self.reason = ""  # why the last ``advance`` stopped short of an outcome
        self.on_slice: Callable[[DepthFirst], None] | None = None  # called between slices (reports, checkpoints)
        self.rules, self.rule_codes, self.zobrist = (
            root.rules,
            kernel_rules or root.rule_codes,
            root.zobrist if keys is None else keys,
        )
        self.evictions = 0 if before is None else before.evictions
        self.board, self.heights, self.found, self.keys, self.meta, self.auto_src, self.auto_card = root.copy()
        if keys is not None:
            self.keys[:] = position_hash(self.board, self.heights, keys, self.meta[M_REDEALS], self.meta[M_DOWN])
        self.scratch = np.zeros(SCRATCH_SIZE, dtype=np.int32)
        self._alloc_stack(1 << 10, 1 << 14)
        self.scc = np.zeros(1 << 12, dtype=np.int64)
        if before is None:
            slots = self.schedule.first_table_slots
            stack = (self.mv_start.size, self.moves_src.size, self.scc.size)
            while slots > 1024 and not self._fits(self._bytes(slots, *stack)):
                slots //= 2
            self.table = table_zeros(2 * slots)
        else:
            forget_open(before.table, before.scc, before.meta)
            self.table = before.table
            self.meta[M_TABLE_COUNT] = before.meta[M_TABLE_COUNT]

    # What a checkpoint holds of a run (solver/search/checkpoint.py): its position, stacks and table.
    SAVED = (
        "board", "heights", "found", "keys", "meta", "auto_src", "auto_card", "mv_start", "mv_count", "mv_next",
        "path_autos", "frame_index", "frame_low", "frame_sp", "path_src", "path_dst", "path_card", "path_heights",
        "moves_src", "moves_dst", "scc", "table",
    )  # fmt: skip

    def state(self) -> dict[str, np.ndarray]:
        """The run's whole state between two slices, with the root's capacity cache it shares."""
        arrays = {name: getattr(self, name) for name in self.SAVED}
        arrays["evictions"] = np.array(self.evictions)
        arrays["root_ctable"], arrays["root_cmeta"] = self.root.capacity_table, self.root.capacity_meta
        return arrays

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Take up a state that ``state`` gave (a fresh run from the same root)."""
        for name in self.SAVED:
            if name != "table":  # copied once, below, into its own memory
                setattr(self, name, arrays[name].copy())
        self.table = table_zeros(arrays["table"].size)  # in huge pages where granted, as the run's own
        self.table[:] = arrays["table"]
        self.evictions = int(arrays["evictions"])
        self.root.capacity_table = table_zeros(arrays["root_ctable"].size)
        self.root.capacity_table[:] = arrays["root_ctable"]
        self.root.capacity_meta[:] = arrays["root_cmeta"]

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
        """What the run would hold with arrays of these sizes."""
        return 16 * slots + (46 + 2 * self.board.shape[0]) * depth + 4 * moves + 8 * scc

    def bytes(self) -> int:
        """What the run holds (the root's capacity cache, which its budget also pays for, is the root's)."""
        return self._bytes(self.table.size // 2, self.mv_start.size, self.moves_src.size, self.scc.size)

    def _fits(self, held: int) -> bool:
        """Whether ``held`` bytes of the run, with the root's cache (but for a probe), fit its budget."""
        return held + (0 if self.probe else self.root.bytes()) <= self.budget.memory

    def positions(self) -> int:
        """New positions this run has searched."""
        return int(self.meta[M_NODES])

    def outcome(self) -> str:
        return {WON: WON_WORD, LOST: LOST_WORD}.get(self.status, OPEN)

    def open(self) -> bool:
        return self.outcome() == OPEN and self.reason != REASON_MEMORY

    def advance(self, deadline: float | None, up_to: int | None = None) -> None:
        """Search on (opening the root first) to an outcome, the deadline, ``up_to`` new positions of this run,
        or the memory budget (then ``reason`` says which)."""
        self.status, self.reason = self.run(deadline, up_to, self.on_slice, self.status)

    def grow_table(self) -> bool:
        slots, top = self.table.size // 2, self.meta[M_SCC_TOP]
        needed = self._bytes(2 * slots, self.mv_start.size, self.moves_src.size, self.scc.size)
        needed += doubling_overhead(self.table, self.schedule.stretch_slots) + 16 * top  # and the open keys
        if not self.schedule.grow_table or not self._fits(needed) or 2 * slots > MAX_TABLE_SLOTS:
            return False
        keys = open_keys(self.table, self.scc, top)
        self.table = doubled(self.table, self.schedule.stretch_slots)
        repoint(self.table, self.scc, keys)
        return True

    def grow_stack(self) -> bool:
        depth, moves = 2 * self.mv_start.size, 2 * self.moves_src.size
        if not self._fits(self._bytes(self.table.size // 2, depth, moves, self.scc.size)):
            return False
        self._alloc_stack(depth, moves)
        return True

    def grow_scc(self) -> bool:
        if not self._fits(self.bytes() + 8 * self.scc.size):
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

    def open_root(self) -> int | None:
        """Open the root (its safe moves played already), then its own tests: WON, LOST, or None to search on."""
        self.meta[M_PENDING] = 1
        if self.root.won:
            return WON
        kernel.open_root(self.table, self.keys, self.meta, self.frame_index, self.frame_low, self.frame_sp, self.scc)
        if self.root.is_dead():
            self.meta[codes.M_DEAD] += 1
            return LOST
        return None

    def step(self, node_limit: int) -> int:
        position = Position(self.board, self.heights, self.found, self.keys)
        stack = DfsStack(
            self.mv_start, self.mv_count, self.mv_next, self.path_src, self.path_dst, self.path_card,
            self.path_autos, self.path_heights, self.frame_index, self.frame_low, self.frame_sp, self.scc,
            self.moves_src, self.moves_dst, self.auto_src, self.auto_card,
        )  # fmt: skip
        return kernel.search(
            position, self.rule_codes, self.zobrist, self.table, self.meta, stack, self.scratch, self.noise, node_limit,
            self.schedule.chunk_work, self.root.capacity_test(), self.root.capacity_limit(), self.scored,
        )  # fmt: skip

    def winning_line(self) -> list[Move]:
        """The moves on the stack, safe moves included, in play order."""
        moves = list(self.root.moves)
        autos = iter(self.auto_src[self.meta[M_ROOT_AUTOS] : self.meta[M_AUTO_TOP]].tolist())
        depth = self.meta[M_DEPTH]
        lists = (self.path_src[:depth].tolist(), self.path_dst[:depth].tolist(), self.path_autos[:depth].tolist())
        for src, dst, safe in zip(*lists, strict=True):
            moves.append(engine_move(src, dst))
            moves += [foundation_move(next(autos)) for _ in range(safe)]
        return moves

    def run(
        self,
        deadline: float | None,
        node_cap: int | None,
        tick: Callable[[DepthFirst], None] | None = None,
        resume: int | None = None,
    ) -> tuple[int, str]:
        """Search until a verdict, the deadline, ``node_cap`` positions, or the memory budget;
        ``tick`` is called between steps (a fraction of a second apart), with ``self.status`` the last
        step's.  ``resume``: go on from a restored state whose last step returned this status."""
        if resume is None:
            opened = self.open_root()
            if opened is not None:
                return opened, ""
        status = self.status = PAUSED if resume is None else resume
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                return status, REASON_TIME
            if node_cap is not None and self.meta[M_NODES] >= node_cap:
                return status, REASON_STATES
            if not self.make_room(status):
                return status, REASON_MEMORY
            if not self.probe:
                self.root.grow_capacity_table(self.bytes() + self.root.bytes(), self.budget.memory)
            chunk = self.schedule.chunk_nodes
            if node_cap is not None:
                chunk = min(chunk, node_cap - int(self.meta[M_NODES]))
            status = self.status = self.step(chunk)
            if status in (WON, LOST):
                return status, ""
            if tick is not None:
                tick(self)
