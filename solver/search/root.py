"""The root of a deal's searches: what every driver starts from, made once per solve.

A :class:`Root` holds the rules decoded into kernel codes, the position
keys, the root's arrays after its safe moves (the position every search
opens), the capacity test's cache (shared by every run, walk and test of
the deal, since the abstract game's verdicts are the same for all), and
the lines that start from it.  The drivers (:mod:`.dfs`, :mod:`.capacity`,
:mod:`.suitblind`, :mod:`.beam`, :mod:`.layered`) each take the root and keep
only their own arrays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..game.board import Board
from ..game.engine import Move
from ..game.rules import Rules
from ..kernels import capacity as C
from ..kernels import codes
from ..kernels.bundles import CapacityTest
from ..kernels.codes import M_AUTO_TOP, M_IN_PLAY, M_REDEALS, M_ROOT_AUTOS, SCRATCH_SIZE
from ..kernels.dead import dead_here
from ..kernels.position import play, position_hash
from ..kernels.safe_moves import play_safe_moves, safe_moves_hold
from ..kernels.trap import MAX_TRACKED, first_pile_trap_cards, first_piles_trap_cards
from ..words import PILES_TRAP, TRAP
from .arrays import CAPACITY_KEYS, down_mask, engine_move, foundation_move, kernel_rules, position_keys, state_arrays
from .memory import doubled
from .plan import Premises
from .schedule import Schedule


class Arrays(NamedTuple):
    """A position as the kernels search it, with what a search keeps beside it."""

    board: np.ndarray
    heights: np.ndarray
    found: np.ndarray
    keys: np.ndarray  # its two hashes
    meta: np.ndarray  # ``codes.M_*`` slots
    auto_src: np.ndarray  # the safe moves played on the way, in order (a card goes up at most once on a path)
    auto_card: np.ndarray


class Root:
    """A deal's root, opened once: its safe moves played, and what every search of it shares."""

    def __init__(
        self, board: Board, rules: Rules, schedule: Schedule | None = None, premises: Premises | None = None
    ) -> None:
        """``premises``: the rules' premises, as the solve's plan asked them (asked here where not given)."""
        self.board, self.rules = board, rules
        self.schedule = schedule = schedule or Schedule()
        self.premises = premises or Premises.of(rules)
        self.rule_codes, self.zobrist = kernel_rules(rules), position_keys(rules)
        piles, heights, found = state_arrays(board, rules)
        meta = np.zeros(codes.META_SIZE, dtype=np.int64)
        meta[M_IN_PLAY] = board.cards_in_play()
        meta[M_REDEALS] = board.redeals
        meta[codes.M_DOWN] = down_mask(board, rules)
        keys = position_hash(piles, heights, self.zobrist, board.redeals, meta[codes.M_DOWN])
        auto_src, auto_card = np.zeros(codes.MAX_CARDS, dtype=np.int16), np.zeros(codes.MAX_CARDS, dtype=np.int16)
        if safe_moves_hold(self.rule_codes, meta):  # solver/kernels/safe_moves.py
            meta[M_ROOT_AUTOS] = play_safe_moves(
                piles, heights, found, self.zobrist, keys, meta, auto_src, auto_card, self.rule_codes.safe
            )  # fmt: skip
        self.arrays = Arrays(piles, heights, found, keys, meta, auto_src, auto_card)
        self.won = meta[M_IN_PLAY] == 0  # the safe moves alone win
        self.moves = [foundation_move(p) for p in auto_src[: meta[M_ROOT_AUTOS]].tolist()]
        self.scratch = np.zeros(SCRATCH_SIZE, dtype=np.int32)
        # The capacity relaxation abstracts positions against the root, as it is after its safe moves.
        self.origin, self.origin_heights, self.origin_found = piles.copy(), heights.copy(), found.copy()
        self.places = C.origin_places(self.origin, self.origin_heights)
        self.capacity_table = np.zeros(2 * schedule.capacity_first_slots, dtype=np.uint64)
        self.capacity_meta = np.zeros(C.CMETA_SIZE, dtype=np.int64)
        self.capacity_meta[C.C_ALLOWANCE] = schedule.capacity_head_start  # then one abstract position per real one
        self.work = np.zeros(C.CAP_SIZE, dtype=np.int32)
        self.capacity_hash = np.zeros(2, dtype=np.uint64)

    def copy(self) -> Arrays:
        """The root's arrays, for a search to play on."""
        return Arrays(*(a.copy() for a in self.arrays))

    def bytes(self) -> int:
        """What the root holds that grows: the capacity test's cache (the rest is under a kilobyte)."""
        return self.capacity_table.nbytes

    def capacity_limit(self) -> int:
        """Abstract positions one capacity test may search; 0: off where its proof does not hold
        (solver/game/premises.py, ``relaxations_apply``)."""
        return self.schedule.capacity_nodes if self.premises.relaxations else 0

    def capacity_test(self) -> CapacityTest:
        """The capacity test of positions of this deal, against the root, with the shared cache."""
        return CapacityTest(
            self.origin, self.origin_heights, self.places, self.work, CAPACITY_KEYS, self.capacity_hash,
            self.capacity_table, self.capacity_meta,
        )  # fmt: skip

    def grow_capacity_table(self, held: int, memory: int) -> None:
        """Double the capacity test's cache when it is a third full, within 1/32 of ``memory`` and with the
        searches holding ``held`` bytes in all.  (Short of that the kernel empties it when full, which costs
        time, never a verdict.)"""
        slots = self.capacity_table.size // 2
        bigger = 32 * slots <= memory // 32 and held + 32 * slots <= memory
        if self.capacity_meta[C.C_COUNT] > slots // 3 and bigger:
            self.capacity_table = doubled(self.capacity_table, self.schedule.stretch_slots)

    def trap(self) -> tuple[str, tuple[int, ...]] | None:
        """Which trap of solver/kernels/trap.py holds at the root, if one does (then the deal is lost), and
        the cards it keeps from coming up.  The first pile's, then the first piles' game over two, three
        and four piles (about a millisecond a Cruel deal in all, where none holds)."""
        a, ranks = self.arrays, self.rule_codes.ranks
        if not self.rule_codes.trap:
            return None
        cards = int(first_pile_trap_cards(a.board, a.heights, a.found, ranks))
        if cards:
            return TRAP, _cards_of(cards, ranks)
        for tracked in range(2, MAX_TRACKED + 1):
            cards = int(first_piles_trap_cards(a.board, a.heights, a.found, ranks, tracked))
            if cards:
                return PILES_TRAP, _cards_of(cards, ranks)
        return None

    def is_dead(self) -> bool:
        """The root's own tests: the greedy dead test, then a capacity test within the usual limit."""
        a = self.arrays
        if dead_here(a.board, a.heights, a.found, self.rule_codes, self.scratch, a.meta):
            return True
        limit = self.capacity_limit()
        return limit > 0 and C.capacity_dead(a.board, a.heights, a.found, self.rule_codes, self.capacity_test(), limit)

    def line(self, moves: list[tuple[int, int]]) -> list[Move]:
        """Play kernel moves ``(src, dst)`` from the root, each with the safe moves after it, as the searches
        do; the whole line from the deal in play order (the root's safe moves first)."""
        a = self.copy()
        line = list(self.moves)
        saved = np.zeros(a.board.shape[0], np.int16)
        position = (a.board, a.heights, a.found, self.zobrist, a.keys, a.meta)
        for src, dst in moves:
            play(*position, src, dst, saved, self.scratch)
            line.append(engine_move(src, dst))
            if safe_moves_hold(self.rule_codes, a.meta):
                before = int(a.meta[M_AUTO_TOP])
                play_safe_moves(*position, a.auto_src, a.auto_card, self.rule_codes.safe)
                line += [foundation_move(p) for p in a.auto_src[before : a.meta[M_AUTO_TOP]].tolist()]
        return line


def _cards_of(bits: int, ranks: int) -> tuple[int, ...]:
    """The cards of a trap kernel's answer, bit ``card`` set for each."""
    return tuple(card for card in range(4 * ranks) if bits >> card & 1)
