"""The driver of the walks of the deal's suit-blind games (:mod:`solver.kernels.suitblind`)."""

from __future__ import annotations

import time

import numpy as np

from ..game.engine import Move
from ..kernels import suitblind as kernel
from ..kernels.bundles import Walk
from ..kernels.codes import LOST, PAUSED, STACK_FULL, TABLE_FULL, WON
from ..kernels.table import MAX_TABLE_SLOTS
from ..words import LOST as LOST_WORD
from ..words import SUIT_BLIND, WALK
from ..words import WON as WON_WORD
from .arrays import WALK_KEYS, engine_move
from .memory import doubled, doubling_overhead, table_zeros
from .protocol import OPEN, NotSaveable
from .root import Root


class Walks(NotSaveable):
    """The walks of the deal's suit-blind games, run in slices between depth-first runs, within their
    own share of the memory; ``status`` says where they stand.

    One game after another, each naming other ranks (``Schedule.walk_games``, then every rank: the real
    game): a walk that ends lost proves the deal lost; one that ends won hands over to the next
    game, and the real game's win is a winning line.  A :class:`~.protocol.Search`."""

    reason = ""

    def __init__(self, root: Root, memory: int):
        self.root, self.memory, self.schedule = root, memory, root.schedule
        ranks = root.rules.ranks
        self.stages = [(low, high) for low, high in self.schedule.walk_games if low + high < ranks] + [(ranks, 0)]
        self.stage = -1
        self.earlier = 0  # positions expanded in the walks before this one
        self.began, self.seconds = time.perf_counter(), 0.0
        self._next_game()

    def _next_game(self) -> None:
        self.stage += 1
        self.table = self.stack = None  # let the last game's arrays go first
        root, rules = self.root, self.root.rules
        start = kernel.root_state(root.origin_heights, root.origin_found, rules.ranks, *self.named())
        slots = self.schedule.walk_first_slots
        while slots > 1024 and 16 * slots > self.memory // 4:  # room to grow before the first doubling
            slots //= 2
        self.table = table_zeros(2 * slots)
        self.stack = np.zeros((1 << 12, start.size), dtype=np.int8)
        self.trail = np.zeros((1 << 12, 3), dtype=np.int32)
        self.path = np.zeros((1 << 12, 2), dtype=np.int32)
        self.meta = np.zeros(kernel.HMETA_SIZE, dtype=np.int64)
        won = kernel.walk_start(start, rules.piles, rules.ranks, WALK_KEYS, self.arrays())
        self.status = WON if won else PAUSED
        self.gave_up = self.bytes() > self.memory

    def arrays(self) -> Walk:
        return Walk(self.table, self.stack, self.trail, self.path, self.meta)

    def named(self) -> tuple[int, int]:
        """How many of the lowest and of the highest ranks the game walked now keeps the suits of."""
        return self.stages[self.stage]

    def positions(self) -> int:
        """Positions expanded in all the walks so far."""
        return self.earlier + int(self.meta[kernel.H_NODES])

    def bytes(self) -> int:
        return self.table.nbytes + self.stack.nbytes + self.trail.nbytes + self.path.nbytes

    def _grow(self) -> bool:
        """Double the table or the stack, whichever is full; False when that would pass ``memory``."""
        if self.status == TABLE_FULL:
            needed = self.bytes() + self.table.nbytes + doubling_overhead(self.table, self.schedule.stretch_slots)
            if needed > self.memory or self.table.size > MAX_TABLE_SLOTS:
                return False
            self.table = doubled(self.table, self.schedule.stretch_slots)
        else:
            if 2 * self.bytes() - self.table.nbytes > self.memory:
                return False
            self.stack = np.concatenate([self.stack, np.zeros_like(self.stack)])
            self.trail = np.concatenate([self.trail, np.zeros_like(self.trail)])
            self.path = np.concatenate([self.path, np.zeros_like(self.path)])
        return True

    def won(self) -> bool:
        """Whether the real game's walk found a win."""
        return self.status == WON and self.stage == len(self.stages) - 1

    def lost(self) -> bool:
        return self.status == LOST

    def outcome(self) -> str:
        return WON_WORD if self.won() else LOST_WORD if self.lost() else OPEN

    @property
    def found_by(self) -> str:
        """A loss is a relaxed game's; a win, the real game's walk."""
        return WALK if self.won() else SUIT_BLIND

    def winning_line(self) -> list[Move]:
        """The real game's winning line from the deal: the root's safe moves, then the walk's."""
        moves = list(self.root.moves)
        for src, dst in self.path[1 : self.meta[kernel.H_WON_DEPTH] + 1]:
            moves.append(engine_move(src, dst))
        return moves

    def step(self) -> None:
        """One slice of the walk under way, after growing what it ran out of or moving to the next game
        (with the root's capacity cache, which the depth-first runs grow)."""
        if self.status == WON:
            self.earlier = self.positions()
            self._next_game()
            return
        if self.status in (TABLE_FULL, STACK_FULL) and not self._grow():
            self.gave_up = True  # the deal is left to the other searches
            return
        self.status = kernel.walk_step(
            self.arrays(), self.root.rule_codes, WALK_KEYS, self.root.capacity_test(), self.schedule.walk_chunk,
            self.schedule.walk_chunk_work, self.schedule.walk_capacity_nodes,
        )  # fmt: skip

    def advance(self, deadline: float | None, up_to: int | None = None) -> None:
        """Walk on until the deadline, ``up_to`` positions in all, an outcome or giving up."""
        began = time.perf_counter()
        while self.open():
            if deadline is not None and time.perf_counter() >= deadline:  # before growing: copying takes a while
                break
            if up_to is not None and self.positions() >= up_to:
                break
            self.step()
        self.seconds += time.perf_counter() - began

    def open(self) -> bool:
        """Whether walking on may still decide something."""
        return self.status != LOST and not self.won() and not self.gave_up
