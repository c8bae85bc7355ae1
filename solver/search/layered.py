"""The driver of the layered search (:mod:`solver.kernels.layered`): a layer at a time, lowest progress
first, each forgotten once done but for the moves that made its positions, kept on disk to trace a win."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..game.board import Board
from ..game.engine import Move
from ..game.rules import Rules
from ..kernels import codes
from ..kernels import layered as kernel
from ..kernels.bundles import MoveScratch, Position
from ..kernels.codes import LOST, PAUSED, SCRATCH_SIZE, WON
from ..words import LAYERS, REASON_MEMORY, REASON_STATES, REASON_TIME
from ..words import LOST as LOST_WORD
from ..words import WON as WON_WORD
from .plan import Premises, layers_fit
from .protocol import OPEN
from .result import Budget
from .root import Root

_ROW_BYTES = 8 * kernel.WORDS + 8  # a position and its parent word


def fits(board: Board) -> bool:
    """Whether the board fits the layered search's encoding: no redeal left, piles few and low enough."""
    return layers_fit(board)


def can_search(rules: Rules, board: Board) -> bool:
    """Whether the layered search's premises hold for these rules (solver/game/premises.py) and the board fits."""
    return Premises.of(rules).layers and layers_fit(board)


def _distinct(chunks: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The waiting children of one layer, each position once (with one of its parent words: any traces a line
    back to the root).  A position reached from many parents waited once per parent: on Good Measure 1889,
    40 million rows for a layer of 13 million positions."""
    rows = np.concatenate([rows for rows, _ in chunks])
    parents = np.concatenate([parents for _, parents in chunks])
    _, first = np.unique(rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))), return_index=True)
    return rows[first], parents[first]


class Layered:
    """One layered search from a deal's root (with no redeal left), within a memory budget.  A
    :class:`~.protocol.Search` advanced once, to its end, the deadline or the budget: a checkpoint holds it
    between two slices, and a new search restored from it goes on from there."""

    found_by = LAYERS
    saveable = True

    def __init__(self, root: Root, budget: Budget, compact_rows: int = 1 << 20, folder: Path | None = None):
        """``compact_rows``: a layer's waiting children are made distinct once this many wait, and again at
        each doubling.  ``folder``: where the finished layers' parent words are kept (a temporary folder if
        None), which a checkpoint needs beside it."""
        self.root, self.budget, self.compact_rows = root, budget, compact_rows
        self.keep_in, self.saved = folder, None
        self.up_to: int | None = None  # positions in all at which ``advance`` pauses, besides the budget's
        self.status: int | None = None  # the last ``search``'s; None before
        self.reason = ""
        self.on_slice: Callable[[Layered], None] | None = None  # called between slices (reports, checkpoints)
        self.line: list[Move] = []
        self.position = self.root.copy()  # the arrays each position is decoded into and expanded from
        self.scratch = np.zeros(SCRATCH_SIZE, np.int32)
        self.sizes: dict[int, int] = {}  # positions of each layer done
        self.peak = 0
        self.lmeta = np.zeros(kernel.LMETA_SIZE, np.int64)
        self.compacted: dict[int, int] = {}  # rows of each layer's waiting children when last made distinct
        self.states = self.parents = self.index = np.zeros(0, np.int64)  # no layer open yet
        self.waiting = np.zeros((0, kernel.WORDS), np.uint64)
        self.waiting_parents, self.waiting_layers = np.zeros(0, np.int64), np.zeros(0, np.int16)
        self.pending: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}

    def positions(self) -> int:
        """Positions expanded so far, every layer counted."""
        return int(self.lmeta[kernel.L_EXPANDED])

    def open(self) -> bool:
        return self.status is None

    def advance(self, deadline: float | None, up_to: int | None = None) -> None:
        """Search to a verdict, the deadline, the budget's positions (or ``up_to``) or its memory, once."""
        self.up_to = up_to
        self.status, self.reason = self.search(deadline, self.on_slice, self.keep_in, self.saved)
        self.saved = None

    def outcome(self) -> str:
        return {WON: WON_WORD, LOST: LOST_WORD}.get(self.status, OPEN)

    def winning_line(self) -> list[Move]:
        return self.line

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Go on from a state that ``state`` gave, when next advanced (the search sets its arrays up first)."""
        self.saved = arrays

    @property
    def dead(self) -> int:
        """Positions found dead as they came to be expanded."""
        return int(self.lmeta[kernel.L_DEAD])

    def bytes(self) -> int:
        """What the search holds: its layer, the children waiting, and the root's capacity cache."""
        held = self.root.bytes() + self.states.nbytes + self.parents.nbytes + self.index.nbytes + self.waiting.nbytes
        held += self.waiting_parents.nbytes + self.waiting_layers.nbytes
        return held + sum(rows.nbytes + parents.nbytes for chunks in self.pending.values() for rows, parents in chunks)

    def search(
        self,
        deadline: float | None,
        tick: Callable[[Layered], None] | None = None,
        folder: Path | None = None,
        saved: dict[str, np.ndarray] | None = None,
    ) -> tuple[int, str]:
        """Search to a verdict, the deadline or the memory budget: (status, reason of an unknown).

        ``folder``: where the finished layers' parent words are kept (a temporary folder if None), which a
        checkpoint needs beside it; ``saved``: a state ``state`` gave, from which the search goes on."""
        root, start = self.root, self.position
        if root.won:
            self.line = list(root.moves)
            return WON, ""
        if root.is_dead():
            return LOST, ""
        if not kernel.layers_hold(root.rule_codes, start.meta, start.found, start.heights):
            raise ValueError("the layered search's premises do not hold (solver/kernels/layered.py)")
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            if saved is None:  # a fresh search: no layer of another one may be read back
                for old in folder.glob("*.npy"):
                    old.unlink()
            self.folder = folder
            return self._search(deadline, tick, saved)
        with tempfile.TemporaryDirectory(prefix="bakers-layers-") as temporary:
            self.folder = Path(temporary)
            return self._search(deadline, tick, saved)

    # What a checkpoint holds of the search besides its pending children (solver/search/checkpoint.py).
    _SAVED = ("lmeta", "states", "parents", "index")

    def state(self) -> dict[str, np.ndarray]:
        """The search's whole state between two slices (the finished layers' parent words are in its folder)."""
        arrays = {name: getattr(self, name) for name in self._SAVED}
        arrays.update({f"position_{name}": value for name, value in self.position._asdict().items()})
        layers = sorted(self.pending)
        chunks = [chunk for layer in layers for chunk in self.pending[layer]]
        arrays["pending_layers"] = np.array([[layer, sum(len(p) for _, p in self.pending[layer])] for layer in layers],
                                            np.int64).reshape(-1, 2)  # fmt: skip
        none = [(np.zeros((0, kernel.WORDS), np.uint64), np.zeros(0, np.int64))]
        arrays["pending_rows"] = np.concatenate([rows for rows, _ in chunks or none])
        arrays["pending_parents"] = np.concatenate([parents for _, parents in chunks or none])
        arrays["sizes"] = np.array(sorted(self.sizes.items()), np.int64).reshape(-1, 2)
        arrays["compacted"] = np.array(sorted(self.compacted.items()), np.int64).reshape(-1, 2)
        arrays["counters"] = np.array([self.layer, self.peak], np.int64)
        arrays["root_ctable"], arrays["root_cmeta"] = self.root.capacity_table, self.root.capacity_meta
        return arrays

    def _restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Take up a state that ``state`` gave (the pending children as one chunk a layer, which every use of
        them -- admitting them in order, making them distinct -- reads as the chunks they were)."""
        for name in self._SAVED:
            setattr(self, name, arrays[name].copy())
        for name, value in self.position._asdict().items():
            value[...] = arrays[f"position_{name}"]
        self.pending, at = {}, 0
        for layer, count in arrays["pending_layers"].tolist():
            rows, parents = arrays["pending_rows"][at : at + count], arrays["pending_parents"][at : at + count]
            self.pending[layer] = [(rows.copy(), parents.copy())]
            at += count
        self.sizes = dict(arrays["sizes"].tolist())
        self.compacted = dict(arrays["compacted"].tolist())
        self.layer, self.peak = (int(v) for v in arrays["counters"])
        self.root.capacity_table = arrays["root_ctable"].copy()
        self.root.capacity_meta[:] = arrays["root_cmeta"]

    def _search(
        self, deadline: float | None, tick: Callable[[Layered], None] | None, saved: dict[str, np.ndarray] | None
    ) -> tuple[int, str]:
        root, start = self.root, self.position
        moves = codes.MAX_MOVES_PER_NODE
        self.work = MoveScratch(
            np.zeros(moves, np.int16), np.zeros(moves, np.int16), self.scratch, start.meta, start.auto_src,
            start.auto_card, np.zeros(start.board.shape[0], np.int16),
        )  # fmt: skip
        self.waiting = np.zeros((1 << 16, kernel.WORDS), np.uint64)
        self.waiting_parents = np.zeros(1 << 16, np.int64)
        self.waiting_layers = np.zeros(1 << 16, np.int16)
        self.pending = {}
        if saved is not None:  # the saved layer goes on first
            self._restore(saved)
            status, reason = self._search_layer(deadline, tick)
            if status != LOST:
                return status, reason
            self._finish_layer(tick)
        else:
            row = np.zeros(kernel.WORDS, np.uint64)
            hard = np.zeros(start.board.shape[0], np.int64)
            root_layer = kernel.encode(
                start.board, start.heights, start.found, root.origin, root.origin_heights, root.rule_codes.build, hard,
                row,
            )  # fmt: skip
            self.pending[root_layer] = [(row[None, :].copy(), np.full(1, -1, np.int64))]
            self.states = self.parents = self.index = np.zeros(0, np.int64)  # no layer open yet
        while self.pending:
            self.layer = min(self.pending)
            if self.layer > kernel.MAX_LAYER:
                raise ValueError("more layers than the parent words can name")
            if not self._open_layer(sum(len(p) for _, p in self.pending[self.layer])):
                return PAUSED, REASON_MEMORY
            for rows, parents in self.pending.pop(self.layer):
                kernel.admit_all(rows, parents, self.states, self.parents, self.index, self.lmeta)
            status, reason = self._search_layer(deadline, tick)
            if status != LOST:
                return status, reason
            self._finish_layer(tick)
        return LOST, ""

    def _finish_layer(self, tick: Callable[[Layered], None] | None) -> None:
        """A layer expanded with no win: count it, and keep its parent words to trace a win back later; then
        ``tick`` (a state saved here goes on by finding the layer done, which changes nothing)."""
        self.sizes[self.layer] = int(self.lmeta[kernel.L_COUNT])
        np.save(self.folder / f"{self.layer}.npy", self.parents[: self.lmeta[kernel.L_COUNT]])
        if tick is not None:
            tick(self)

    def _search_layer(self, deadline: float | None, tick: Callable[[Layered], None] | None) -> tuple[int, str]:
        """Expand the layer to its end (LOST: no win in it), a win, the deadline or the budget."""
        root, start = self.root, self.position
        position = Position(start.board, start.heights, start.found, start.keys)
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                return PAUSED, REASON_TIME
            if any(limit is not None and self.positions() >= limit for limit in (self.budget.positions, self.up_to)):
                return PAUSED, REASON_STATES
            status = kernel.expand(
                self.layer, self.states, self.parents, self.index, self.waiting, self.waiting_parents,
                self.waiting_layers, self.lmeta, position, root.rule_codes, root.zobrist, self.work,
                root.capacity_test(), root.capacity_limit(), 1 << 14,
            )  # fmt: skip
            self._collect_waiting()
            self.peak = max(self.peak, self.bytes())
            if status == kernel.LAYER_WON:
                self.line = self._winning_line()
                return WON, ""
            if status == kernel.LAYER_DONE:
                return LOST, ""
            if status == kernel.LAYER_FULL and not self._grow():
                return PAUSED, REASON_MEMORY
            root.grow_capacity_table(self.bytes(), self.budget.memory)
            if tick is not None:
                tick(self)

    def _open_layer(self, entries: int) -> bool:
        """Fresh arrays for a layer of at least ``entries`` positions; False past the memory budget."""
        size = 1 << max(16, (2 * entries + codes.MAX_MOVES_PER_NODE).bit_length())
        self.states = self.parents = self.index = np.zeros(0, np.int64)  # the last layer's go first
        if self.bytes() + size * _ROW_BYTES + 2 * size * 8 > self.budget.memory:
            return False
        self.states = np.zeros((size, kernel.WORDS), np.uint64)
        self.parents = np.zeros(size, np.int64)
        self.index = np.zeros(2 * size, np.int64)
        self.lmeta[kernel.L_COUNT] = self.lmeta[kernel.L_CURSOR] = 0
        return True

    def _grow(self) -> bool:
        """Room for one more position's children in the layer: its arrays doubled, the positions admitted
        again.  (The waiting children always have room: they are collected after every slice.)"""
        if self.lmeta[kernel.L_COUNT] + codes.MAX_MOVES_PER_NODE > self.states.shape[0]:
            size = 2 * self.states.shape[0]
            if self.bytes() + size * _ROW_BYTES + 2 * size * 8 > self.budget.memory:
                return False
            count = int(self.lmeta[kernel.L_COUNT])
            states, parents = self.states[:count], self.parents[:count]
            self.states = np.zeros((size, kernel.WORDS), np.uint64)
            self.parents = np.zeros(size, np.int64)
            self.index = np.zeros(2 * size, np.int64)
            self.lmeta[kernel.L_COUNT] = 0
            kernel.admit_all(states, parents, self.states, self.parents, self.index, self.lmeta)
        return True

    def _collect_waiting(self) -> None:
        """Move the waiting children into the layers they wait for."""
        count = int(self.lmeta[kernel.L_WAITING])
        if count == 0:
            return
        layers = self.waiting_layers[:count]
        for layer in np.unique(layers).tolist():
            chosen = layers == layer
            chunk = (self.waiting[:count][chosen].copy(), self.waiting_parents[:count][chosen].copy())
            chunks = self.pending.setdefault(layer, [])
            chunks.append(chunk)
            rows = sum(len(parents) for _, parents in chunks)
            if rows >= self.compact_rows and rows >= 2 * self.compacted.get(layer, 0):
                chunks[:] = [_distinct(chunks)]
                self.compacted[layer] = len(chunks[0][1])
        self.lmeta[kernel.L_WAITING] = 0

    def _parents_of(self, layer: int) -> np.ndarray:
        if layer == self.layer:
            return self.parents
        return np.load(self.folder / f"{layer}.npy", mmap_mode="r")

    def _winning_line(self) -> list[Move]:
        """Trace the win back to the root by the parent words, then play it with its safe moves."""
        moves = [(int(self.lmeta[kernel.L_WON_SRC]), int(self.lmeta[kernel.L_WON_DST]))]
        layer, row = self.layer, int(self.lmeta[kernel.L_WON_ROW])
        while True:
            word = int(self._parents_of(layer)[row])
            if word < 0:
                break
            layer, row, src, dst = kernel.unpack_parent(word)
            moves.append((src, dst))
        moves.reverse()
        return self.root.line(moves)
