"""The driver of the beam search (:mod:`solver.kernels.beam`): two levels of positions, the
candidates, the lossy set of positions met, and the record of each level to walk a win back up."""

from __future__ import annotations

import time

import numpy as np

from ..game.engine import Move
from ..kernels import beam as kernel
from ..kernels.bundles import Candidates, Level, MoveScratch
from ..kernels.codes import M_IN_PLAY, M_REDEALS, MAX_CARDS, MAX_MOVES_PER_NODE, META_SIZE, SCRATCH_SIZE
from ..kernels.score import DEALT_WEIGHT
from ..words import BEAM
from ..words import WON as WON_WORD
from .arrays import engine_move
from .protocol import OPEN, NotSaveable
from .root import Root
from .schedule import Schedule

# Candidates (of width * branching a level) between two looks at the clock: a narrow beam makes many
# levels in one kernel call (each call from Python costs about 23 us), a beam 1,000 wide or more one a call.
LEVEL_CANDIDATES = 1 << 16


class Beam(NotSaveable):
    """One beam search from the deal's root, ``width`` positions a level: its arrays (two levels, the
    candidates, the lossy set) and the record of each level to walk a win back up.  A
    :class:`~.protocol.Search` whose outcome is ``WON`` or ``OPEN``, never ``LOST`` (see
    :mod:`solver.kernels.beam`).  ``lost_marks``: the depth-first runs' table, whose lost marks it skips."""

    found_by = BEAM
    reason = ""

    def __init__(self, root: Root, width: int, lost_marks: np.ndarray | None = None):
        self.root = root
        self.lost_marks = np.zeros(4, dtype=np.uint64) if lost_marks is None else lost_marks
        self.size = 1  # positions of the level to expand next; -1 after a win
        start = root.arrays
        board, heights, found = start.board, start.heights, start.found
        branching = root.schedule.beam_branching
        self.rule_codes, self.zobrist, self.width = root.rule_codes, root.zobrist, width
        self.origin, self.origin_heights = root.origin, root.origin_heights  # where cards were dealt, for the score
        # A redeal re-cuts the piles: where one may come, cards "still where they were dealt" mean nothing.
        self.dealt_weight = 0 if root.premises.redeals else DEALT_WEIGHT
        self.boards = np.zeros((2, width, *board.shape), dtype=board.dtype)
        self.heights = np.zeros((2, width, heights.size), dtype=heights.dtype)
        self.founds = np.zeros((2, width, found.size), dtype=found.dtype)  # two decks: eight
        self.in_play = np.zeros((2, width), dtype=np.int64)
        self.redeals = np.zeros((2, width), dtype=np.int64)
        self.keys = np.zeros((2, width, 2), dtype=np.uint64)
        self.boards[0, 0], self.heights[0, 0], self.founds[0, 0] = board, heights, found
        self.in_play[0, 0], self.redeals[0, 0] = start.meta[M_IN_PLAY], start.meta[M_REDEALS]
        self.keys[0, 0] = start.keys  # the depth-first search's keys
        room = width * branching
        slots = 1 << (2 * width - 1).bit_length()  # at most half full: few kept positions share a slot
        self.candidates = Candidates(
            parent=np.zeros(room, dtype=np.int32),
            src=np.zeros(room, dtype=np.int16),
            dst=np.zeros(room, dtype=np.int16),
            key=np.zeros(room, dtype=np.int64),
            abstract=np.zeros(room, dtype=np.uint64),
            chosen=np.zeros(width, dtype=np.int64),
            abstract_slots=np.zeros(slots, dtype=np.uint64),
            abstract_counts=np.zeros(slots, dtype=np.int32),
        )
        self.seen = np.zeros(seen_slots(width, branching), dtype=np.uint64)
        self.work = MoveScratch(
            moves_src=np.zeros(MAX_MOVES_PER_NODE, dtype=np.int16),
            moves_dst=np.zeros(MAX_MOVES_PER_NODE, dtype=np.int16),
            scratch=np.zeros(SCRATCH_SIZE, dtype=np.int32),
            meta=np.zeros(META_SIZE, dtype=np.int64),
            auto_src=np.zeros(MAX_CARDS, dtype=np.int16),  # a card goes up at most once on a path
            auto_card=np.zeros(MAX_CARDS, dtype=np.int16),
            saved=np.zeros(heights.size, dtype=np.int16),  # as the depth-first search's path_heights rows
        )
        self.stats = np.zeros(kernel.STATS_SIZE, dtype=np.int64)
        # How each level's positions were reached (row i: level i + 1's, from level i), for the winning line.
        self.max_levels = root.schedule.beam_levels_per_card * root.board.cards_in_play()
        self.records = (
            np.zeros((self.max_levels, width), dtype=np.int32),
            np.zeros((self.max_levels, width), dtype=np.int16),
            np.zeros((self.max_levels, width), dtype=np.int16),
        )
        self.levels = 0  # levels expanded

    def _level(self, i: int) -> Level:
        return Level(self.boards[i], self.heights[i], self.founds[i], self.in_play[i], self.redeals[i], self.keys[i])

    def expand(self, n: int, dfs_table: np.ndarray, count: int = 1) -> int:
        """Expand level ``levels`` (``n`` positions) into the next, and so on, ``count`` levels at most in one
        kernel call (within ``max_levels``); the last level's size, or -1 on a win."""
        last = min(self.levels + count, self.max_levels)
        n, self.levels = kernel.beam_levels(
            (self._level(0), self._level(1)), n, self.levels, last, self.records, self.rule_codes, self.zobrist,
            self.seen, dfs_table, self.candidates, self.work, self.stats, self.origin, self.origin_heights,
            self.dealt_weight,
        )  # fmt: skip
        return n

    def open(self) -> bool:
        return self.size > 0 and self.levels < self.max_levels

    def outcome(self) -> str:
        return WON_WORD if self.size < 0 else OPEN

    def positions(self) -> int:
        """Positions generated so far."""
        return int(self.stats[kernel.B_NODES])

    def bytes(self) -> int:
        root = self.root
        return beam_bytes(
            root.arrays.board, root.board.cards_in_play(), self.width, root.schedule, root.arrays.found.size
        )

    def advance(self, deadline: float | None, up_to: int | None = None) -> None:
        """Expand levels until a win, the last level, the deadline or ``up_to`` positions generated."""
        # Levels a kernel call makes: about LEVEL_CANDIDATES candidates between two looks at the clock.
        per_call = max(1, LEVEL_CANDIDATES // (self.width * self.root.schedule.beam_branching))
        while self.open():
            if deadline is not None and time.perf_counter() > deadline:
                break
            if up_to is not None and self.positions() >= up_to:
                break
            self.size = self.expand(self.size, self.lost_marks, per_call)

    def winning_line(self) -> list[Move]:
        """After a win: the line from the deal, each move with the safe moves the search played after it."""
        root = self.root
        if root.won:
            return list(root.moves)
        line_src, line_dst = self._path()
        out_src = np.zeros(line_src.size + MAX_CARDS, dtype=np.int16)  # each move, and at most every card up safely
        out_dst = np.zeros(line_src.size + MAX_CARDS, dtype=np.int16)
        start = root.copy()
        count = kernel.replay(
            start.board, start.heights, start.found, start.meta[M_IN_PLAY], start.meta[M_REDEALS], root.rule_codes,
            root.zobrist, line_src, line_dst, out_src, out_dst, self.work,
        )  # fmt: skip
        return list(root.moves) + [engine_move(out_src[i], out_dst[i]) for i in range(count)]

    def _path(self) -> tuple[np.ndarray, np.ndarray]:
        """After a win: the kernel moves from the root to it, found by walking the parents back up."""
        line = [(self.stats[kernel.B_WON_SRC], self.stats[kernel.B_WON_DST])]
        e = self.stats[kernel.B_WON_PARENT]
        parents, sources, targets = self.records
        for i in range(self.levels - 1, -1, -1):
            line.append((sources[i][e], targets[i][e]))
            e = parents[i][e]
        line.reverse()
        return np.array([m[0] for m in line], dtype=np.int16), np.array([m[1] for m in line], dtype=np.int16)


def seen_slots(width: int, branching: int) -> int:
    """Room in the lossy set of positions met for about four levels' candidates."""
    return 1 << (4 * width * branching - 1).bit_length()


def beam_bytes(board: np.ndarray, cards: int, width: int, schedule: Schedule, foundations: int = 4) -> int:
    """Memory of a beam of this width over ``board``'s arrays (and ``foundations`` of them), with the record
    of its levels."""
    branching = schedule.beam_branching
    per_position = 2 * (2 * board.size + 4 * board.shape[0] + 4 * foundations + 8 + 8 + 16)  # two levels
    per_candidate = 4 + 2 + 2 + 8 + 8  # parent, move, key, abstract key
    choosing = 8 + 4 * 12 + 8 * kernel.RANKED  # the kept, the abstract counts, the ranking's heap
    levels = 8 * schedule.beam_levels_per_card * cards
    per_width = per_position + per_candidate * branching + choosing + levels
    return width * per_width + 8 * seen_slots(width, branching)


def beam_search(
    root: Root, width: int, deadline: float | None, lost_marks: np.ndarray
) -> tuple[list[Move] | None, int]:
    """Look for a win from ``root`` with a beam of ``width`` positions a level: its winning line (or None)
    and the positions generated.  It never proves a loss (see :mod:`solver.kernels.beam`)."""
    if root.won:
        return list(root.moves), 0
    beam = Beam(root, width, lost_marks)
    beam.advance(deadline)
    return (beam.winning_line() if beam.outcome() == WON_WORD else None), beam.positions()
