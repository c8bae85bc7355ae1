"""The named bundles that kernel arguments travel in.

Numba passes a ``NamedTuple`` of arrays and scalars as one value, typed
field by field, so a kernel reads ``test.table`` where it took a thirteenth
positional argument.  The drivers (:mod:`solver.search`) build a bundle for
each call, since they replace arrays as they grow them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class KernelRules(NamedTuple):
    """The rules as the kernels read them."""

    ranks: int  # the deck's ranks; the top one plays the King
    empty: int  # what an empty pile takes, a ``codes.EMPTY_*``
    worry: bool  # worrying back: a foundation's top card may come back
    build: int  # how the tableau builds, a ``codes.BUILD_*``
    both_ways: bool  # ... up or down; else down
    sequences: bool  # runs move as a unit
    runs_by_spaces: bool  # ... as many cards as the empty piles allow (``codes.max_run``)
    runs_into_spaces: bool  # ... and into an empty pile; else a single card goes there
    safe: int  # the safe-move rule once no redeal is left, a ``codes.SAFE_*`` (solver/kernels/safe_moves.py)
    lone: bool  # the lone-card rule holds once no redeal is left (solver/kernels/moves.py)
    dead: bool  # the relaxed dead test holds once no redeal is left (solver/kernels/dead.py)
    trap: bool  # the first pile's trap holds, redeals left or not (solver/kernels/trap.py)


class Position(NamedTuple):
    """A position of the real game (solver/kernels/position.py, "Position", "Hash")."""

    board: np.ndarray  # board[p, i]: the card codes of pile p from the bottom
    heights: np.ndarray  # heights[p]
    found: np.ndarray  # found[s]: how many cards of suit s are on its foundation
    keys: np.ndarray  # its two hashes, kept up to date move by move


class DfsStack(NamedTuple):
    """The depth-first search's stacks (solver/kernels/dfs.py): per depth, its moves and its frame."""

    mv_start: np.ndarray  # where the depth's moves begin in moves_src/moves_dst
    mv_count: np.ndarray
    mv_next: np.ndarray  # the next move to try
    path_src: np.ndarray  # the move played at each depth, and its card
    path_dst: np.ndarray
    path_card: np.ndarray
    path_autos: np.ndarray  # safe moves played after it
    path_heights: np.ndarray  # path_heights[d]: the pile heights before a redeal played at depth d
    frame_index: np.ndarray  # Tarjan's number of the position at each depth
    frame_low: np.ndarray  # ... and its lowlink
    frame_sp: np.ndarray  # the component stack's height when it was opened
    scc: np.ndarray  # the component stack: table slots of the open positions
    moves_src: np.ndarray  # the moves of every depth
    moves_dst: np.ndarray
    auto_src: np.ndarray  # the safe moves played, in order
    auto_card: np.ndarray


class CapacityTest(NamedTuple):
    """What a capacity test (solver/kernels/capacity.py) abstracts against and keeps."""

    origin: np.ndarray  # the root's piles, against which prefixes count
    origin_heights: np.ndarray
    places: np.ndarray  # places[0, card], places[1, card]: the card's pile and height at the root
    work: np.ndarray  # the abstract position and the search's stack (its own layout)
    zobrist: np.ndarray  # the abstract positions' keys
    keys: np.ndarray  # the hash of the abstract position in ``work``
    table: np.ndarray  # the cache of verdicts
    meta: np.ndarray  # counters and the allowance (``C_*`` slots)


class Walk(NamedTuple):
    """The arrays of a walk of a suit-blind game (solver/kernels/suitblind.py)."""

    table: np.ndarray
    stack: np.ndarray  # positions waiting to be expanded
    trail: np.ndarray  # ... each one's depth and the move that made it
    path: np.ndarray  # the move to the position of each depth last expanded
    meta: np.ndarray  # ``H_*`` slots


class Level(NamedTuple):
    """One level of a beam (solver/kernels/beam.py): its positions, each with its cards in play, redeals
    left and hashes."""

    boards: np.ndarray
    heights: np.ndarray
    founds: np.ndarray
    in_play: np.ndarray
    redeals: np.ndarray
    keys: np.ndarray


class Candidates(NamedTuple):
    """A beam level's children, before it keeps the best."""

    parent: np.ndarray  # the position of the level they come from
    src: np.ndarray  # the move that made them
    dst: np.ndarray
    key: np.ndarray  # their score, with random low bits
    abstract: np.ndarray  # their abstract position's key
    chosen: np.ndarray  # the candidates kept
    abstract_slots: np.ndarray  # kept per abstract position, lossily
    abstract_counts: np.ndarray


class MoveScratch(NamedTuple):
    """The arrays a kernel that makes and unmakes moves works in."""

    moves_src: np.ndarray
    moves_dst: np.ndarray
    scratch: np.ndarray  # the scratch layout of codes.py (``SCRATCH_SIZE``)
    meta: np.ndarray  # ``codes.M_*`` slots
    auto_src: np.ndarray
    auto_card: np.ndarray
    saved: np.ndarray  # the pile heights a redeal cut, to take it back (``position.undo_redeal``)
