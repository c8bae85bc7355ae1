"""The public solving API: a board and its rules in, a verdict and a move list out.

Data flows one way: :class:`~solver.board.Board` -> state arrays -> the
kernel in :mod:`solver._kernels` -> verdict and moves -> :class:`SolveResult`.
"""

from __future__ import annotations

import math
import mmap
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from . import _beam as B
from . import _capacity as C
from . import _chains as H
from . import _common
from . import _kernels as K
from .board import Board
from .engine import Move, is_solution
from .rules import BUILD_RANK, EMPTY_ANY, EMPTY_KING, EMPTY_NONE, Rules
from .shorten import shorten

WON, LOST, UNKNOWN = "won", "lost", "unknown"

_EMPTY_CODES = {EMPTY_NONE: _common.EMPTY_NONE, EMPTY_ANY: _common.EMPTY_ANY, EMPTY_KING: _common.EMPTY_KING}
_ZOBRIST = K.zobrist_keys()
_CAPACITY_ZOBRIST = C.capacity_keys()
_CHAIN_KEYS = H.chain_keys()
_CAPACITY_FIRST_SLOTS = 1 << 17  # the capacity relaxation's cache of verdicts; grows to 1/32 of the memory
_CAPACITY_NODES = 1 << 18  # abstract positions one capacity test may search before it gives up
_CAPACITY_HEAD_START = 1 << 12  # abstract positions the tests may search before the search has any
_CHUNK_NODES = 1 << 16  # at most this many new positions between two looks at the clock
_CHUNK_WORK = 1 << 17  # ... and at most this many moves tried
_FIRST_TABLE_SLOTS = 1 << 18
_STRETCH_SLOTS = 1 << 21  # a table grows 32 MiB at a time (a multiple of the 2 MiB huge page)
_FIRST_RUN_NODES = 1 << 12  # the unit of the restart schedule; see _run_nodes()
_MAX_NOISE = 3
_BEAM_FIRST_AFTER = 1 << 16  # depth-first positions before the first beam; see _beam_due()
_BEAM_FIRST_WIDTH = 1000  # ... whose width then grows from beam to beam
_BEAM_GROWTH = 4  # ... by this factor, as does the depth-first work between beams
_BEAM_BRANCHING = 64  # room for this many candidates per kept position
_BEAM_LEVELS_PER_CARD = 2  # a beam gives up after this many levels per card in play (wins need ~1.5)
_CHAINS_AFTER = 1 << 16  # depth-first positions before the walk of the suit-blind game begins
_CHAINS_SHARE = 0.5  # ... after which it may take this share of the time, until it ends
_CHAINS_MEMORY = 0.4  # ... and of the memory budget (2 GiB: room for 14M positions)
_CHAINS_FIRST_SLOTS = 1 << 16
_CHAINS_CHUNK = 1 << 13  # positions between two looks at the clock
_CHAINS_CHUNK_WORK = 1 << 13  # ... and abstract positions its capacity tests search (together ~50 ms)
_CHAINS_CAPACITY_NODES = 1 << 14  # abstract positions one of its capacity tests may search
_ROOT_TEST_FIRST_SLOTS = 1 << 16  # the root's capacity test searched to the end (_RootTest)
_ROOT_TEST_SHARE = 2 / 3  # ... the share of the time it may take, with the walks, until it ends
_ROOT_TEST_SLICE = 1 << 13  # abstract positions between two looks at the clock (~40 ms); see _RootTest.advance
# The games walked before the real game (solver/_chains.py): how many of the lowest and of the highest ranks
# each names.  Cheap games first: most deals the walks decide are lost by the first.
_CHAINS_NAMED = ((0, 0), (5, 0), (0, 5))


def _table_zeros(words: int) -> np.ndarray:
    """A zeroed ``uint64`` array for a hash table, in huge pages where the system grants them: the
    tables are probed at random, and with 4 KiB pages most probes also miss the TLB (measured: the
    depth-first search 3-8% faster on GM 3 and 214, the suit-blind walk of GM 462 5% faster)."""
    size = 8 * words
    if size < 1 << 21 or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros(words, dtype=np.uint64)
    memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # zeroed by the system
    memory.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(memory, dtype=np.uint64)


def _mapping(table: np.ndarray) -> mmap.mmap | None:
    """The memory map under a table from ``_table_zeros``, or None (a small table)."""
    mapping = getattr(table.base, "obj", None)
    return mapping if isinstance(mapping, mmap.mmap) else None


def _doubling_overhead(table: np.ndarray) -> int:
    """Bytes that doubling ``table`` (``_doubled``) holds beyond the new table: the whole old one, or a stretch."""
    return min(16 * _STRETCH_SLOTS, table.nbytes) if _mapping(table) is not None else table.nbytes


def _doubled(old: np.ndarray) -> np.ndarray:
    """A table twice the size of ``old`` with its entries; ``old`` is spent.

    Copied a stretch at a time, each stretch of ``old`` given back to the system once copied: it lands
    in about the twice as long stretch of the new table (home slots follow the keys' high bits,
    solver/_common.py), whose untouched pages hold no memory, so the two tables never hold much more
    than the new one, where copying whole would hold both (an 8 GiB table could not grow in 18 GiB)."""
    new = _table_zeros(2 * old.size)
    mapping, slots = _mapping(old), old.size // 2
    for start in range(0, slots, _STRETCH_SLOTS):
        stop = min(start + _STRETCH_SLOTS, slots)
        _common.table_copy_range(old, new, start, stop)
        if mapping is not None:
            mapping.madvise(mmap.MADV_DONTNEED, 16 * start, 16 * (stop - start))
    return new


class UnsupportedRulesError(ValueError):
    """Rules outside what the kernel's pruning has been proved for."""


def check_supported(rules: Rules) -> None:
    """The premises of the safe-move proof in :mod:`solver._kernels`; refuse anything else."""
    if rules.build != BUILD_RANK or rules.sequence_moves or rules.redeals or rules.ranks > 13:
        raise UnsupportedRulesError(
            f"{rules.title}: the solver handles single-card, build-by-rank games without redeals"
        )
    if not 1 <= rules.piles <= K.MAX_PILES:
        raise UnsupportedRulesError(f"{rules.title}: the solver handles 1 to {K.MAX_PILES} piles, not {rules.piles}")


@dataclass(frozen=True)
class Budget:
    """Limits of one solve: wall seconds, bytes for the table and stack, positions searched."""

    seconds: float | None = 10.0
    memory: int = 2 << 30
    states: int | None = None


@dataclass
class SolveResult:
    verdict: str
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0
    reason: str = ""  # why an `unknown`: "time", "memory" or "states"
    memory: int = 0  # bytes held by the table and stack at the end
    raw_length: int = 0  # moves in the search's own path, before shortening
    dead_ends: int = 0  # positions a relaxation proved lost
    capacity_dead_ends: int = 0  # ... of them, by the capacity relaxation (solver/_capacity.py)
    lone_prunes: int = 0  # lone cards the lone-card rule kept from a host (summed over positions)
    restarts: int = 0  # runs cut short for another in a new move order (lost marks kept)
    evictions: int = 0  # times the table, full at its largest, forgot half its lost marks
    beams: int = 0  # beam searches run between depth-first runs
    won_by_beam: bool = False  # the winning line came from a beam search
    chain_positions: int = 0  # positions of the suit-blind games expanded (solver/_chains.py)
    chain_named: int = 0  # ... lowest ranks named in the last of them (all: the real game)
    chain_named_high: int = 0  # ... and highest ranks
    lost_by_chains: bool = False  # a suit-blind game of the deal cannot be won
    won_by_walk: bool = False  # the winning line came from the walk of the real game
    root_test_positions: int = 0  # abstract positions the root's capacity test searched (_RootTest)
    lost_by_root_test: bool = False  # ... and it found the abstract game lost

    @property
    def found_by(self) -> str:
        """Which search decided: "beam", "walk" (of the real game, solver/_chains.py) or "depth-first" for
        a win; "suit-blind" (a walk), "capacity" (the root's capacity test) or "depth-first" for a loss."""
        if self.verdict == WON:
            return "beam" if self.won_by_beam else "walk" if self.won_by_walk else "depth-first"
        if self.verdict == LOST:
            return "suit-blind" if self.lost_by_chains else "capacity" if self.lost_by_root_test else "depth-first"
        return ""


@dataclass(frozen=True)
class Progress:
    """Where a solve under way stands, for a report to the person waiting on it."""

    seconds: float
    states: int  # positions searched so far, every depth-first run counted
    walked: int  # positions of the relaxed games walked (solver/_chains.py)
    memory: int  # bytes held by the tables and stacks (the walks' included)
    runs: int  # depth-first runs begun (restarts + 1)


def state_arrays(board: Board, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' view of a position: piles (card codes from the bottom, room to grow), heights, foundations."""
    height = max(len(p) for p in board.piles) + rules.ranks + 1
    piles = np.zeros((rules.piles, height), dtype=np.int16)
    heights = np.zeros(rules.piles, dtype=np.int32)
    for p, pile in enumerate(board.piles):
        piles[p, : len(pile)] = pile
        heights[p] = len(pile)
    return piles, heights, np.array(board.foundations, dtype=np.int32)


class _Search:
    """The arrays of one search, grown on demand within the memory budget."""

    def __init__(self, board: Board, rules: Rules, budget: Budget, noise: int = 0, before: _Search | None = None):
        """``before``: a run cut short, whose table (lost marks and all) this run takes over."""
        self.rules, self.budget, self.noise = rules, budget, noise
        self.evictions = 0 if before is None else before.evictions
        self.board, self.heights, self.found = state_arrays(board, rules)
        self.meta = np.zeros(K.META_SIZE, dtype=np.int64)
        self.meta[K.M_IN_PLAY] = board.cards_in_play()
        self.keys = K.position_hash(self.board, self.heights, _ZOBRIST)
        self.auto_src = np.zeros(64, dtype=np.int16)
        self.auto_card = np.zeros(64, dtype=np.int16)
        self.scratch = np.zeros(K.SCRATCH_SIZE, dtype=np.int32)
        self._alloc_stack(1 << 10, 1 << 14)
        self.scc = np.zeros(1 << 12, dtype=np.int64)
        self.cap = np.zeros(C.CAP_SIZE, dtype=np.int32)
        self.ckeys = np.zeros(2, dtype=np.uint64)
        if before is None:
            self.ctable = np.zeros(2 * _CAPACITY_FIRST_SLOTS, dtype=np.uint64)
            self.cmeta = np.zeros(C.CMETA_SIZE, dtype=np.int64)
            self.cmeta[C.C_ALLOWANCE] = _CAPACITY_HEAD_START  # then one abstract position per real one
            slots = _FIRST_TABLE_SLOTS
            stack = (self.mv_start.size, self.moves_src.size, self.scc.size)
            while slots > 1024 and self._bytes(slots, *stack) > budget.memory:
                slots //= 2
            self.table = _table_zeros(2 * slots)
        else:
            K.forget_open(before.table, before.scc, before.meta)
            self.table = before.table
            self.meta[K.M_TABLE_COUNT] = before.meta[K.M_TABLE_COUNT]
            self.ctable, self.cmeta = before.ctable, before.cmeta  # verdicts of the same abstract game

    def _alloc_stack(self, depth: int, moves: int) -> None:
        def grow(name: str, size: int, dtype: type) -> None:
            new = np.zeros(size, dtype=dtype)
            old = getattr(self, name, None)
            if old is not None:
                new[: old.size] = old
            setattr(self, name, new)

        for name in ("mv_start", "mv_count", "mv_next", "path_autos"):
            grow(name, depth, np.int32)
        for name in ("frame_index", "frame_low", "frame_sp"):
            grow(name, depth, np.int64)
        for name in ("path_src", "path_dst", "path_card"):
            grow(name, depth, np.int16)
        for name in ("moves_src", "moves_dst"):
            grow(name, moves, np.int16)

    def _bytes(self, slots: int, depth: int, moves: int, scc: int) -> int:
        return 16 * slots + 46 * depth + 4 * moves + 8 * scc + self.ctable.nbytes

    def memory(self) -> int:
        return self._bytes(self.table.size // 2, self.mv_start.size, self.moves_src.size, self.scc.size)

    def grow_table(self) -> bool:
        slots, top = self.table.size // 2, self.meta[K.M_SCC_TOP]
        needed = self._bytes(2 * slots, self.mv_start.size, self.moves_src.size, self.scc.size)
        needed += _doubling_overhead(self.table) + 16 * top  # and the open positions' keys
        if needed > self.budget.memory or 2 * slots > _common.MAX_TABLE_SLOTS:
            return False
        keys = K.open_keys(self.table, self.scc, top)
        self.table = _doubled(self.table)
        K.repoint(self.table, self.scc, keys)
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
        bigger = 32 * slots <= self.budget.memory // 32 and self.memory() + 32 * slots <= self.budget.memory
        if self.cmeta[C.C_COUNT] > slots // 3 and bigger:
            self.ctable = _doubled(self.ctable)

    def grow_scc(self) -> bool:
        if self.memory() + 8 * self.scc.size > self.budget.memory:
            return False
        new = np.zeros(2 * self.scc.size, dtype=np.int64)
        new[: self.scc.size] = self.scc
        self.scc = new
        return True

    def evict(self) -> bool:
        """When the table may not grow: forget its stale entries and half its lost marks (proof in
        solver/_kernels.py); False when that leaves it over three quarters full (open positions fill it)."""
        drop_bit = 1 + self.evictions % 63  # another half each time
        left = K.table_evict(self.table, self.scc, self.meta[K.M_SCC_TOP], drop_bit)
        self.meta[K.M_TABLE_COUNT] = left
        self.evictions += 1
        return left <= 0.75 * _common.TABLE_MAX_LOAD * (self.table.size // 2)

    def make_room(self, status: int) -> bool:
        """Grow what the kernel ran out of (or make room in the table); False when the memory budget forbids it."""
        if status == K.TABLE_FULL:
            return self.grow_table() or self.evict()
        if status == K.STACK_FULL:
            return self.grow_stack()
        if status == K.SCC_FULL:
            return self.grow_scc()
        return True

    def start(self) -> bool:
        """Play the root's safe moves and open the root; True if that alone wins."""
        autos = 0
        if not self.rules.worrying_back:  # the safe-move proof assumes cards never come back
            autos = K.play_safe_moves(
                self.board, self.heights, self.found, _ZOBRIST, self.keys, self.meta, self.auto_src, self.auto_card
            )
        self.meta[K.M_ROOT_AUTOS] = autos
        self.meta[K.M_PENDING] = 1
        # The capacity relaxation abstracts positions against the root, as it is after its safe moves.
        self.origin, self.origin_heights = self.board.copy(), self.heights.copy()
        self.origin_found = self.found.copy()
        self.where = C.origin_places(self.origin, self.origin_heights)
        if self.meta[K.M_IN_PLAY] == 0:
            return True
        K.open_root(self.table, self.keys, self.meta, self.frame_index, self.frame_low, self.frame_sp, self.scc)
        return False

    def capacity_limit(self) -> int:
        """Abstract positions one capacity test may search; 0: off (its proof assumes cards never come back)."""
        return 0 if self.rules.worrying_back else _CAPACITY_NODES

    def root_is_dead(self) -> bool:
        empty = _EMPTY_CODES[self.rules.empty_pile]
        if K.relaxed_dead(
            self.board, self.heights, self.found, self.rules.ranks, empty, self.rules.worrying_back, self.scratch
        ):
            return True
        return self.capacity_limit() > 0 and C.capacity_dead(
            self.board, self.heights, self.found, self.rules.ranks, empty, self.origin, self.origin_heights,
            self.where, self.cap, _CAPACITY_ZOBRIST, self.ckeys, self.ctable, self.cmeta, self.capacity_limit(),
        )  # fmt: skip

    def step(self, node_limit: int) -> int:
        return K.search(
            self.board, self.heights, self.found, self.rules.ranks, _EMPTY_CODES[self.rules.empty_pile],
            self.rules.worrying_back, _ZOBRIST, self.keys, self.table, self.meta,
            self.mv_start, self.mv_count, self.mv_next, self.path_src, self.path_dst, self.path_card,
            self.path_autos, self.frame_index, self.frame_low, self.frame_sp, self.scc,
            self.moves_src, self.moves_dst, self.auto_src, self.auto_card, self.scratch,
            self.noise, node_limit, _CHUNK_WORK,
            self.origin, self.origin_heights, self.where, self.cap, _CAPACITY_ZOBRIST, self.ckeys, self.ctable,
            self.cmeta, self.capacity_limit(),
        )  # fmt: skip

    def winning_path(self) -> list[Move]:
        """The moves on the stack, safe moves included, in play order."""
        moves: list[Move] = []
        autos = iter(int(p) for p in self.auto_src[: self.meta[K.M_AUTO_TOP]])
        moves += [Move(next(autos)) for _ in range(self.meta[K.M_ROOT_AUTOS])]
        for d in range(self.meta[K.M_DEPTH]):
            moves.append(_move(self.path_src[d], self.path_dst[d]))
            moves += [Move(next(autos)) for _ in range(self.path_autos[d])]
        return moves

    def run(
        self, deadline: float | None, node_cap: int | None, tick: Callable[[_Search], None] | None = None
    ) -> tuple[int, str]:
        """Search until a verdict, the deadline, ``node_cap`` positions, or the memory budget;
        ``tick`` is called between steps (a fraction of a second apart)."""
        if self.start():
            return K.WON, ""
        if self.root_is_dead():
            self.meta[K.M_DEAD] += 1
            return K.LOST, ""
        status = K.PAUSED
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                return status, "time"
            if node_cap is not None and self.meta[K.M_NODES] >= node_cap:
                return status, "states"
            if not self.make_room(status):
                return status, "memory"
            self.grow_capacity_table()
            chunk = _CHUNK_NODES if node_cap is None else min(_CHUNK_NODES, node_cap - int(self.meta[K.M_NODES]))
            status = self.step(chunk)
            if status in (K.WON, K.LOST):
                return status, ""
            if tick is not None:
                tick(self)


def _move(src: int, dst: int) -> Move:
    """A kernel move in the engine's spelling."""
    src, dst = int(src), int(dst)
    src = -1 - (src - K.WORRY) if src >= K.WORRY else src
    return Move(src, None if dst == K.FOUNDATION else dst)


class _Beam:
    """The arrays of one beam search (:mod:`solver._beam`): two levels, the candidates, the lossy set."""

    def __init__(self, root: tuple[np.ndarray, np.ndarray, np.ndarray], in_play: int, rules: Rules, width: int):
        board, heights, found = root
        self.rules, self.width = rules, width
        self.origin, self.origin_heights = board.copy(), heights.copy()  # where cards were dealt, for the score
        self.boards = np.zeros((2, width, *board.shape), dtype=board.dtype)
        self.heights = np.zeros((2, width, heights.size), dtype=heights.dtype)
        self.founds = np.zeros((2, width, 4), dtype=found.dtype)
        self.in_play = np.zeros((2, width), dtype=np.int64)
        self.keys = np.zeros((2, width, 2), dtype=np.uint64)
        self.boards[0, 0], self.heights[0, 0], self.founds[0, 0] = root
        self.in_play[0, 0] = in_play
        self.keys[0, 0] = K.position_hash(board, heights, _ZOBRIST)
        room = width * _BEAM_BRANCHING
        self.cand_parent, self.cand_key = np.zeros(room, dtype=np.int32), np.zeros(room, dtype=np.int64)
        self.cand_src, self.cand_dst = np.zeros(room, dtype=np.int16), np.zeros(room, dtype=np.int16)
        self.cand_abstract, self.chosen = np.zeros(room, dtype=np.uint64), np.zeros(width, dtype=np.int64)
        slots = 1 << (2 * width - 1).bit_length()  # at most half full: few kept positions share a slot
        self.abstract_slots, self.abstract_counts = np.zeros(slots, dtype=np.uint64), np.zeros(slots, dtype=np.int32)
        self.seen = np.zeros(_Beam.seen_slots(width), dtype=np.uint64)
        self.moves = (np.zeros(K.MAX_MOVES_PER_NODE, dtype=np.int16), np.zeros(K.MAX_MOVES_PER_NODE, dtype=np.int16))
        self.scratch = np.zeros(K.SCRATCH_SIZE, dtype=np.int32)
        self.meta = np.zeros(K.META_SIZE, dtype=np.int64)
        self.autos = (np.zeros(64, dtype=np.int16), np.zeros(64, dtype=np.int16))
        self.stats = np.zeros(B.STATS_SIZE, dtype=np.int64)
        self.levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # how each level's positions were reached

    @staticmethod
    def seen_slots(width: int) -> int:
        """Room in the lossy set of positions met for about four levels' candidates."""
        return 1 << (4 * width * _BEAM_BRANCHING - 1).bit_length()

    @staticmethod
    def bytes_needed(board: np.ndarray, cards: int, width: int) -> int:
        """Memory of a beam of this width over ``board``'s arrays, with the record of its levels."""
        per_position = 2 * (2 * board.size + 4 * board.shape[0] + 16 + 8 + 16)  # two levels
        per_candidate = 4 + 2 + 2 + 8 + 8 + 1  # parent, move, key, abstract key, and a byte of the sort's mask
        choosing = 8 + 4 * 12 + 4 * 8 * B.RANKED  # the kept, the abstract counts, the sort's arrays
        levels = 8 * _BEAM_LEVELS_PER_CARD * cards
        per_width = per_position + per_candidate * _BEAM_BRANCHING + choosing + levels
        return width * per_width + 8 * _Beam.seen_slots(width)

    def expand(self, n: int, dfs_table: np.ndarray) -> int:
        """Expand level ``len(levels)`` (``n`` positions) into the next; its size, or -1 on a win."""
        cur = len(self.levels) % 2
        nxt = 1 - cur
        record = (np.zeros(self.width, dtype=np.int32), *(np.zeros(self.width, dtype=np.int16) for _ in "sd"))
        n = B.beam_level(
            self.boards[cur], self.heights[cur], self.founds[cur], self.in_play[cur], self.keys[cur], n,
            self.boards[nxt], self.heights[nxt], self.founds[nxt], self.in_play[nxt], self.keys[nxt], *record,
            self.rules.ranks, _EMPTY_CODES[self.rules.empty_pile], self.rules.worrying_back, _ZOBRIST,
            self.seen, dfs_table, self.cand_parent, self.cand_src, self.cand_dst, self.cand_key, self.cand_abstract,
            self.chosen, self.abstract_slots, self.abstract_counts, *self.moves, self.scratch, self.meta, *self.autos,
            self.stats, self.origin, self.origin_heights,
        )  # fmt: skip
        if n >= 0:
            self.levels.append(record)
        return n

    def winning_line(self) -> tuple[np.ndarray, np.ndarray]:
        """After a win: the moves from the root to it, found by walking the parents back up."""
        line = [(self.stats[B.B_WON_SRC], self.stats[B.B_WON_DST])]
        e = self.stats[B.B_WON_PARENT]
        for parent, src, dst in reversed(self.levels):
            line.append((src[e], dst[e]))
            e = parent[e]
        line.reverse()
        return np.array([m[0] for m in line], dtype=np.int16), np.array([m[1] for m in line], dtype=np.int16)


def _beam_root(board: Board, rules: Rules) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], int, list[Move]]:
    """Where beams start: the deal after its safe moves, as state arrays; the cards in play; those moves."""
    piles, heights, found = state_arrays(board, rules)
    meta = np.zeros(K.META_SIZE, dtype=np.int64)
    meta[K.M_IN_PLAY] = board.cards_in_play()
    keys = K.position_hash(piles, heights, _ZOBRIST)
    auto_src, auto_card = np.zeros(64, dtype=np.int16), np.zeros(64, dtype=np.int16)
    autos = 0
    if not rules.worrying_back:
        autos = K.play_safe_moves(piles, heights, found, _ZOBRIST, keys, meta, auto_src, auto_card)
    return (piles, heights, found), int(meta[K.M_IN_PLAY]), [Move(int(p)) for p in auto_src[:autos]]


def _beam_search(
    board: Board, rules: Rules, width: int, deadline: float | None, dfs_table: np.ndarray
) -> tuple[list[Move] | None, int]:
    """Look for a win with a beam of ``width`` positions a level; returns the winning line (or None)
    and the positions generated.  It never proves a loss (see :mod:`solver._beam`)."""
    (piles, heights, found), in_play, root_moves = _beam_root(board, rules)
    if in_play == 0:
        return root_moves, 0
    beam = _Beam((piles, heights, found), in_play, rules, width)
    n = 1
    while n > 0 and len(beam.levels) < _BEAM_LEVELS_PER_CARD * board.cards_in_play():
        if deadline is not None and time.perf_counter() > deadline:
            break
        n = beam.expand(n, dfs_table)
    generated = int(beam.stats[B.B_NODES])
    if n >= 0:
        return None, generated
    line_src, line_dst = beam.winning_line()
    out_src = np.zeros(line_src.size + 64, dtype=np.int16)  # each move, and at most 52 safe moves in all
    out_dst = np.zeros(line_src.size + 64, dtype=np.int16)
    count = B.replay(
        piles, heights, found, in_play, rules.worrying_back, _ZOBRIST, line_src, line_dst, out_src, out_dst
    )
    return root_moves + [_move(out_src[i], out_dst[i]) for i in range(count)], generated


class _RootTest:
    """The capacity test of the search's root (:mod:`solver._capacity`) searched to the end, in slices
    between depth-first runs, with its own table, in the walks' share of the time and memory: it runs
    before them and lets its table go when it ends.

    The search tests every position with at most ``_CAPACITY_NODES`` abstract positions; some deals
    need far more at the root alone (Baker's Dozen 417: 3.3 million, 16 s), and then the abstract
    game, which has no cycles and forgets where moved cards lie, is the cheaper proof: the search of
    the real game had not ended after 573 million positions.  Most deals' abstract games are won
    within milliseconds, which ends this test with nothing learned."""

    def __init__(self, run: _Search, memory: int):
        self.memory = memory
        self.table = _table_zeros(2 * _ROOT_TEST_FIRST_SLOTS)
        self.cmeta = np.zeros(C.CMETA_SIZE, dtype=np.int64)
        self.cap = np.zeros(C.CAP_SIZE, dtype=np.int32)
        self.ckeys = np.zeros(2, dtype=np.uint64)
        self.status, self.seconds = C.CAP_UNKNOWN, 0.0
        self.peak = self.table.nbytes  # its table's largest size (it lets the table go when it ends)
        self.gave_up = run.capacity_limit() == 0  # capacity tests off (worrying back, or a test's setting)

    def open(self) -> bool:
        return self.status == C.CAP_UNKNOWN and not self.gave_up

    def positions(self) -> int:
        return int(self.cmeta[C.C_NODES])

    def bytes(self) -> int:
        return self.table.nbytes

    def _room(self) -> bool:
        """Grow the table when the next slice might overfill it; False when that would pass ``memory``."""
        slots = self.table.size // 2
        if self.cmeta[C.C_COUNT] + _ROOT_TEST_SLICE + 2 <= _common.TABLE_MAX_LOAD * slots:
            return True
        if 2 * self.table.nbytes + _doubling_overhead(self.table) > self.memory:
            return False
        self.table = _doubled(self.table)
        self.peak = self.table.nbytes
        return True

    def advance(self, run: _Search, seconds: float) -> None:
        """Search on for about ``seconds``; each slice starts again from the root, through the verdicts
        the table holds, so it goes on where the last one stopped.  Walking back down to there counts
        the undecided positions on the way (at most ``CAP_DEPTH``), so a slice must be longer."""
        assert _ROOT_TEST_SLICE > C.CAP_DEPTH
        began = time.perf_counter()
        rules = run.rules
        while self.open() and time.perf_counter() - began < seconds:
            if not self._room():
                self.gave_up = True  # the deal is left to the other searches
                break
            C.abstract(run.origin, run.origin_heights, run.origin_found, run.origin, run.origin_heights,
                       self.cap, _CAPACITY_ZOBRIST, self.ckeys)  # fmt: skip
            self.status = C.capacity_search(
                run.origin, run.where, rules.ranks, _EMPTY_CODES[rules.empty_pile], self.cap, _CAPACITY_ZOBRIST,
                self.ckeys, self.table, self.cmeta, _ROOT_TEST_SLICE,
            )  # fmt: skip
        self.seconds += time.perf_counter() - began
        if not self.open():
            self.table = np.zeros(0, dtype=np.uint64)  # done: let the memory go


class _Chains:
    """The walks of the deal's suit-blind games (:mod:`solver._chains`), run in slices between
    depth-first runs, within their own share of the memory; ``status`` says where they stand.

    One game after another, each naming other ranks (``_CHAINS_NAMED``, then every rank: the real
    game): a walk that ends lost proves the deal lost; one that ends won hands over to the next
    game, and the real game's win is a winning line."""

    def __init__(self, run: _Search, memory: int):
        self.memory = memory
        ranks = run.rules.ranks
        self.stages = [(low, high) for low, high in _CHAINS_NAMED if low + high < ranks] + [(ranks, 0)]
        self.stage = -1
        self.positions = 0  # expanded in the walks before this one
        self.began, self.seconds = time.perf_counter(), 0.0
        self._next_game(run)

    def _next_game(self, run: _Search) -> None:
        self.stage += 1
        self.table = self.stack = None  # let the last game's arrays go first
        root = H.root_state(run.origin_heights, run.origin_found, run.rules.ranks, *self.named())
        slots = _CHAINS_FIRST_SLOTS
        while slots > 1024 and 16 * slots > self.memory // 4:  # room to grow before the first doubling
            slots //= 2
        self.table = _table_zeros(2 * slots)
        self.stack = np.zeros((1 << 12, root.size), dtype=np.int8)
        self.trail = np.zeros((1 << 12, 3), dtype=np.int32)
        self.path = np.zeros((1 << 12, 2), dtype=np.int32)
        self.meta = np.zeros(H.HMETA_SIZE, dtype=np.int64)
        won = H.chain_start(
            root, run.rules.piles, run.rules.ranks, _CHAIN_KEYS, self.table, self.stack, self.trail, self.meta
        )
        self.status = H.CHAIN_WON if won else H.CHAIN_PAUSED
        self.gave_up = self.bytes() > self.memory

    def named(self) -> tuple[int, int]:
        """How many of the lowest and of the highest ranks the game walked now keeps the suits of."""
        return self.stages[self.stage]

    def expanded(self) -> int:
        return self.positions + int(self.meta[H.H_NODES])

    def bytes(self) -> int:
        return self.table.nbytes + self.stack.nbytes + self.trail.nbytes + self.path.nbytes

    def _grow(self) -> bool:
        """Double the table or the stack, whichever is full; False when that would pass ``memory``."""
        if self.status == H.CHAIN_TABLE_FULL:
            needed = self.bytes() + self.table.nbytes + _doubling_overhead(self.table)
            if needed > self.memory or self.table.size > _common.MAX_TABLE_SLOTS:
                return False
            self.table = _doubled(self.table)
        else:
            if 2 * self.bytes() - self.table.nbytes > self.memory:
                return False
            self.stack = np.concatenate([self.stack, np.zeros_like(self.stack)])
            self.trail = np.concatenate([self.trail, np.zeros_like(self.trail)])
            self.path = np.concatenate([self.path, np.zeros_like(self.path)])
        return True

    def won(self) -> bool:
        """Whether the real game's walk found a win."""
        return self.status == H.CHAIN_WON and self.stage == len(self.stages) - 1

    def winning_line(self, run: _Search) -> list[Move]:
        """The real game's winning line from the deal: the root's safe moves, then the walk's."""
        moves = [Move(int(p)) for p in run.auto_src[: run.meta[K.M_ROOT_AUTOS]]]
        for src, dst in self.path[1 : self.meta[H.H_WON_DEPTH] + 1]:
            moves.append(_move(src, dst))
        return moves

    def advance(self, run: _Search, seconds: float) -> None:
        """Walk on for about ``seconds`` (with the latest search's capacity cache, which grows)."""
        began = time.perf_counter()
        rules = run.rules
        while self.open():
            if time.perf_counter() - began >= seconds:  # before growing: copying a large table takes a second
                break
            if self.status == H.CHAIN_WON:
                self.positions = self.expanded()
                self._next_game(run)
                continue
            if self.status in (H.CHAIN_TABLE_FULL, H.CHAIN_STACK_FULL):
                if not self._grow():
                    self.gave_up = True  # the deal is left to the other searches
                    break
                self.status = H.CHAIN_PAUSED
            self.status = H.chain_walk(
                run.origin, run.where, rules.ranks, _EMPTY_CODES[rules.empty_pile], _CHAIN_KEYS, self.table,
                self.stack, self.trail, self.path, self.meta, _CHAINS_CHUNK, _CHAINS_CHUNK_WORK, run.cap,
                _CAPACITY_ZOBRIST, run.ckeys, run.ctable, run.cmeta, _CHAINS_CAPACITY_NODES,
            )  # fmt: skip
        self.seconds += time.perf_counter() - began

    def open(self) -> bool:
        """Whether walking on may still decide something."""
        return self.status != H.CHAIN_LOST and not self.won() and not self.gave_up


def _take_turn(run: _Search, chains: _Chains, root_test: _RootTest, deadline: float | None) -> None:
    """Run the searches beside the depth-first runs for the time owed them: a share of the time since they
    began, this turn included.  The root's capacity test takes it first, until it ends (most deals'
    within milliseconds, Baker's Dozen 417's after 16 s), with a larger share, then the walks."""
    now = time.perf_counter()
    share = _ROOT_TEST_SHARE if root_test.open() else _CHAINS_SHARE
    owed = (share * (now - chains.began) - chains.seconds - root_test.seconds) / (1 - share)
    if deadline is not None:
        owed = min(owed, deadline - now)
    if owed <= 0:
        return
    if root_test.open():
        root_test.advance(run, owed)
    elif chains.open():
        chains.advance(run, owed)


def _root_test_lost(board: Board, rules: Rules, budget: Budget, deadline: float | None, result: SolveResult) -> bool:
    """``one_run``'s first step: the root's capacity test to the end, or to the deadline, with the whole
    memory (it lets it go before the depth-first run begins); whether it proved the deal lost."""
    probe = _Search(board, rules, budget)
    if probe.start():
        return False
    test = _RootTest(probe, budget.memory - probe.memory())
    test.advance(probe, math.inf if deadline is None else deadline - time.perf_counter())
    result.root_test_positions = test.positions()
    result.memory = probe.memory() + test.peak
    return test.status == C.CAP_LOST


def _luby(i: int) -> int:
    """Term i (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def _run_nodes(restarts: int) -> int:
    """New positions the run after ``restarts`` restarts may search before the next restart.

    Luby's schedule: many short runs in different move orders, with a long
    one now and then.  Short runs cost a proof little, since every run
    keeps what earlier runs proved lost."""
    return _FIRST_RUN_NODES * _luby(restarts + 1)


def _beam_due(beams: int) -> int:
    """Depth-first positions searched before beam number ``beams`` (from 0) runs.

    Beam k is ``_BEAM_FIRST_WIDTH * 4**k`` wide and comes after
    ``_BEAM_FIRST_AFTER * 4**k`` depth-first positions: both grow at the same
    pace and the beams take about 40% of the time.  Wide beams are what find
    the last wins (a 64,000-wide beam won 5 of 25 deals the rest left), and a
    beam 4 times wider rather than twice costs fewer, larger steps.  The first
    beam waits until the depth-first search has had a fair chance, so the many
    deals it decides in milliseconds never pay for one."""
    return _BEAM_FIRST_AFTER * _BEAM_GROWTH**beams


def _run_beam(
    board: Board, rules: Rules, result: SolveResult, run: _Search, budget: Budget, deadline: float | None, held: int
) -> list[Move] | None:
    """The next beam of the schedule, as wide as the memory left allows (``held``: bytes the walk of the
    suit-blind game holds); its winning line or None."""

    def bytes_needed(width: int) -> int:
        return _Beam.bytes_needed(run.board, board.cards_in_play(), width)

    width = _BEAM_FIRST_WIDTH * _BEAM_GROWTH**result.beams
    room = budget.memory - run.memory() - held
    while width > _BEAM_FIRST_WIDTH and bytes_needed(width) > room:
        width //= 2
    result.beams += 1
    if bytes_needed(width) > room:
        return None
    result.memory = max(result.memory, run.memory() + bytes_needed(width))
    path, _ = _beam_search(board, rules, width, deadline, run.table)
    result.won_by_beam = path is not None
    return path


def solve(
    board: Board,
    rules: Rules,
    budget: Budget | None = None,
    *,
    shorten_moves: bool = True,
    one_run: bool = False,
    report: Callable[[Progress], None] | None = None,
    report_every: float = 10.0,
) -> SolveResult:
    """Decide whether ``board`` can be won under ``rules``.

    A ``won`` result carries a move list that the reference engine has
    replayed to a full foundation; ``lost`` means the whole reachable space
    was searched, or the deal's suit-blind relaxation cannot be won;
    ``unknown`` means a budget ran out first (``reason`` says which).

    The search restarts in a perturbed move order each time a run uses up
    its position budget (``_run_nodes``), because a depth-first search that
    goes wrong early can spend a long time below that move while another
    order finds a win at once.  Each run is a complete search that skips
    only positions proved lost, so the first one that finishes gives the
    verdict: restarts change how fast a verdict comes, never which.

    Once a deal has resisted a while, beam searches of growing width run
    between the runs (``_beam_due``).  A beam finds wins only, each replayed
    like any other, so it too changes how fast a verdict comes, never which.
    From then on too, first, the capacity test of the root
    (:mod:`solver._capacity`) is searched to the end in slices that take
    two thirds of the time until it ends: when its abstract game cannot be
    won, neither can the deal.  Then the game is walked with the suits of
    moved cards forgotten (:mod:`solver._chains`), in slices that take half
    the time until it ends: when that game cannot be won, neither can the
    deal.  When it can, the walk goes on with the suits of the five lowest
    ranks kept, then with every suit kept -- the real game, whose win is a
    winning line, replayed like any other.  Both hold their own share of
    the memory, ``_CHAINS_MEMORY``, one after the other.

    ``one_run``: a single depth-first run to the end, with no restarts,
    beams or walks, and the whole memory for its table, after the root's
    capacity test to the end (Baker's Dozen 417: lost in 16 s, where the
    depth-first search had not ended after 573M positions).  It finds wins
    later, but loses no time to restarts or to walks that would need more
    memory than their share: given hours and many GiB, it settles deals
    that the default leaves unknown (Good Measure 560: lost after 351M
    positions, 31 min, 8 GiB used).

    ``report``: called with a :class:`Progress` every ``report_every``
    seconds of depth-first search (not inside a beam, which may run for
    minutes at the largest widths).
    """
    check_supported(rules)
    budget = budget or Budget()
    board.validate(rules)
    began = time.perf_counter()
    deadline = None if budget.seconds is None else began + budget.seconds
    result = SolveResult(UNKNOWN)
    walk_chains = not rules.worrying_back  # the relaxation's proof assumes cards never come back
    chain_memory = int(budget.memory * _CHAINS_MEMORY) if walk_chains and not one_run else 0
    search_budget = replace(budget, memory=budget.memory - chain_memory)
    run = None
    path = None
    chains = root_test = None
    next_report = began + report_every

    def held() -> int:
        """Bytes the searches beside the depth-first runs hold."""
        return chains.bytes() + root_test.bytes() if chains else 0

    def tick(current: _Search, counted: bool = False) -> None:
        """Report if one is due; ``counted``: ``current``'s positions are in ``result.states`` already."""
        nonlocal next_report
        now = time.perf_counter()
        if report is not None and now >= next_report:
            next_report = now + report_every
            states = result.states + (0 if counted else int(current.meta[K.M_NODES]))
            walked = chains.expanded() if chains else 0
            report(Progress(now - began, states, walked, current.memory() + held(), result.restarts + 1))

    if one_run and walk_chains and _root_test_lost(board, rules, budget, deadline, result):
        result.verdict, result.lost_by_root_test = LOST, True
        result.seconds = time.perf_counter() - began
        return result
    while True:
        cap = None if one_run else _run_nodes(result.restarts)
        if budget.states is not None and (cap is None or budget.states - result.states <= cap):
            cap = budget.states - result.states
        K.seed_random(result.restarts)
        run = _Search(board, rules, search_budget, noise=min(result.restarts, _MAX_NOISE), before=run)
        status, reason = run.run(deadline, cap, tick)
        result.states += int(run.meta[K.M_NODES])
        result.dead_ends += int(run.meta[K.M_DEAD])
        result.lone_prunes += int(run.meta[K.M_LONE])
        result.capacity_dead_ends = int(run.cmeta[C.C_DEAD])  # counted across runs
        result.memory = max(result.memory, run.memory() + held())
        result.evictions = run.evictions
        final_states = budget.states is not None and result.states >= budget.states
        if status in (K.WON, K.LOST) or reason in ("time", "memory") or final_states or one_run:
            break
        if result.states >= _beam_due(result.beams):
            path = _run_beam(board, rules, result, run, budget, deadline, held())
            if path is not None:
                status = K.WON
                break
        tick(run, counted=True)  # after a beam, which may have run long
        if walk_chains and chains is None and result.states >= _CHAINS_AFTER:
            chains = _Chains(run, chain_memory)
            root_test = _RootTest(run, chain_memory - chains.bytes())  # done before the walks need more
        if chains is not None:
            root_test_turn = root_test.open()  # then the walks do not grow this turn
            _take_turn(run, chains, root_test, deadline)
            if root_test_turn:  # at its largest, though it may have ended and let its table go
                result.memory = max(result.memory, run.memory() + chains.bytes() + root_test.peak)
            result.root_test_positions = root_test.positions()
            if root_test.status == C.CAP_LOST:
                status, result.lost_by_root_test = K.LOST, True
                break
            result.chain_positions = chains.expanded()
            result.chain_named, result.chain_named_high = chains.named()
            result.memory = max(result.memory, run.memory() + held())
            if chains.status == H.CHAIN_LOST:
                status, result.lost_by_chains = K.LOST, True
                break
            if chains.won():
                path, result.won_by_walk, status = chains.winning_line(run), True, K.WON
                break
            tick(run, counted=True)
        result.restarts += 1
    if status == K.LOST:
        result.verdict = LOST
    elif status == K.WON:
        path = path if path is not None else run.winning_path()
        result.raw_length = len(path)
        moves = shorten(board, path, rules, deadline) if shorten_moves else path
        if not is_solution(board, moves, rules):
            raise AssertionError("the solver's winning line does not replay: this is a bug, please report it")
        result.verdict, result.moves = WON, moves
    else:
        result.reason = reason
    result.seconds = time.perf_counter() - began
    return result


def warm_up() -> None:
    """Compile (or load from cache) every kernel, so that no measured time includes it."""
    from .rules import GAMES

    # No clock anywhere: on a fresh cache, compiling the first kernels takes longer than any budget,
    # and a deadline passed before the search begins would leave the search kernel for a deal to compile.
    unlimited = Budget(seconds=None)
    # A deal that needs a search, with capacity tests on the way (its root is neither won nor dead).
    rules = GAMES["bakers-dozen"].reduced(ranks=3, piles=3)
    searched = Board(((6, 7, 3, 2), (11, 10, 8, 4), (9, 1, 5, 0)), (0, 0, 0, 0))
    solve(searched, rules, unlimited)
    run = _Search(searched, rules, unlimited)  # and the walk of its suit-blind game (solve() walks none so small)
    run.start()
    _Chains(run, 1 << 24).advance(run, math.inf)
    _RootTest(run, 1 << 24).advance(run, math.inf)  # and its root's capacity test to the end
    # A deal that needs one move, so that every beam kernel runs (solve() never beams a deal this small).
    rules = GAMES["bakers-dozen"].reduced(ranks=3, piles=2)
    one_move = Board(((9, 8, 2, 5, 3, 1), (11, 10, 0, 4, 7, 6)), (0, 0, 0, 0))
    _beam_search(one_move, rules, 1, None, np.zeros(4, dtype=np.uint64))
    table, scc = np.zeros(4, dtype=np.uint64), np.zeros(1, dtype=np.int64)
    K.repoint(table, scc, K.open_keys(table, scc, 0))
    _doubled(table)
    K.table_evict(np.zeros(8, dtype=np.uint64), np.zeros(1, dtype=np.int64), 0, 1)
    K.forget_open(np.zeros(4, dtype=np.uint64), np.zeros(1, dtype=np.int64), np.zeros(K.META_SIZE, dtype=np.int64))
    _common.table_copy(np.zeros(4, dtype=np.uint64), np.zeros(8, dtype=np.uint64))
