"""Numba kernels of the score, a position's promise by a cheap count, and the move order it gives.

The beam search (:mod:`.beam`) keeps the best-scored children of each level; the depth-first search's
first run (``Schedule.scored_run``) tries each position's moves best-scored child first.  An order never
changes what a search finds, only how fast: every move is still tried.

Score (higher is better): four points per card up, minus four per card that lies above a lower card of
its own suit in its pile (it must find a host before that card can go up), minus one per card above the
card of its pile nearest to going up, minus ``dealt_weight`` per card still where it was dealt (in its
pile's prefix against the search's root, :mod:`solver.kernels.capacity`; 0 where a redeal may come, since
a redeal re-cuts every pile: the depth-first search orders its moves by score only in games without one).
Checked by:
  tests/kernels/test_score.py::test_moves_go_best_scored_child_first_and_the_position_is_left_alone (every move)
  tests/kernels/test_score.py::test_the_kernel_s_score_is_the_plain_count
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .codes import FOUNDATION, M_SAFE, S_LOWEST, S_SORT
from .moves import sort_moves
from .position import play, prefix_length, take_back
from .safe_moves import play_safe_moves, safe_moves_hold, undo_safe_moves

DEALT_WEIGHT = 2  # the score's points off per card still where it was dealt


@njit(cache=True)
def score(board, heights, found, dealt, lowest, dealt_weight):
    """The position's score (module text); ``dealt``: its cards still where they were dealt; ``lowest``:
    room for 4 ints."""
    up = 0
    for f in range(found.shape[0]):  # two decks: all eight
        up += found[f]
    blocked = 0
    dig = 0
    for p in range(board.shape[0]):
        h = heights[p]
        lowest[:] = 99
        nearest, at = 99, 0
        for i in range(h):
            card = board[p, i]
            rank, suit = card // 4 + 1, card % 4
            if lowest[suit] < rank:
                blocked += 1
            lowest[suit] = min(lowest[suit], rank)
            need = rank - found[suit]
            if need < nearest:
                nearest, at = need, i
        if h > 0:
            dig += h - 1 - at
    return 4 * up - 4 * blocked - dig - dealt_weight * dealt


@njit(cache=True, _nrt=False)  # called from the depth-first search, which counts no references
def order_by_score(position, rules, zobrist, meta, moves, start, count, scratch, saved, autos, origin):
    """Sort the moves ``moves[start:start + count]`` after the foundation moves (which stay first) by the
    score of the child each makes, safe moves played, best first; ties keep their order.  ``saved``: a
    row of pile heights (for the rules' sake: in games without redeals, which alone this order is for, no
    move uses it); ``autos``: the safe moves' stack; ``origin``: the root's board
    and heights, against which cards count as dealt.  The position, ``meta`` and the stack are left as
    they were."""
    board, heights, found, keys = position
    out_src, out_dst = moves
    auto_src, auto_card = autos
    origin_board, origin_heights = origin
    end = start + count
    first = start
    while first < end and out_dst[first] == FOUNDATION:
        first += 1
    lowest = scratch[S_LOWEST : S_LOWEST + 4]
    safe_count = meta[M_SAFE]  # a statistic of moves played, which trying them here must not change
    for i in range(first, end):
        src, dst = np.int64(out_src[i]), np.int64(out_dst[i])
        card = play(board, heights, found, zobrist, keys, meta, src, dst, saved, scratch)
        played = 0
        if safe_moves_hold(rules, meta):
            played = play_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, rules.safe)
        dealt = 0
        for p in range(board.shape[0]):
            dealt += prefix_length(board, heights, origin_board, origin_heights, p)
        value = score(board, heights, found, dealt, lowest, DEALT_WEIGHT)
        undo_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, played)
        take_back(board, heights, found, zobrist, keys, meta, src, dst, card, saved, scratch)
        scratch[S_SORT + i - start] = -value * 512 + (i - first)  # best first, then the generator's order
    meta[M_SAFE] = safe_count
    sort_moves(out_src, out_dst, scratch, start, first, end)
