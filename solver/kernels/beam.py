"""Numba kernels of the beam search, the solver's second way to look for a win.

The depth-first search (:mod:`solver.kernels.dfs`) is complete but can spend
minutes below one early wrong move.  A beam search goes breadth-first
instead and keeps, at each depth, only the ``width`` most promising
positions by a score; it often finds in a second the win a depth-first
search needs a minute for.  It is incomplete -- a position it drops may be
the only way to a win -- so it never proves a loss: it only ever says "won",
and its line is replayed by the reference engine like every other.

It prunes with what is already proved: safe foundation moves are played
after every move (as in the depth-first search, where their rule holds: no
worrying back, no redeal left), positions the first relaxation calls dead
are dropped (where its proof holds: no redeal left), and so are positions
the depth-first search's table marks lost (its keys are the beam's).  None
of that can turn a win into a loss; it only saves the beam room.
Checked by:
  tests/search/test_beam.py::test_beam_wins_replay_and_only_on_won_deals
  tests/search/test_beam.py::test_beams_with_two_copies_of_each_card_find_real_wins_and_leave_verdicts_alone
  tests/kernels/test_beam.py::test_beam_skips_positions_the_depth_first_search_proved_lost

It runs in every game without face-down cards (``solver.game.premises.beams_apply``):
its moves are the depth-first search's (``moves.generate_moves``: any
building rule, runs, a redeal with the redeals left each position keeps;
with two copies of each card, its foundations are the depth-first search's
eight, and the score reads a suit's higher one).
Where a redeal may come, the score drops its term for cards still where they
were dealt, since a redeal re-cuts every pile.

Score: :mod:`solver.kernels.score` (cards up, cards above a lower card of
their suit or above the card of their pile nearest to going up, cards still
where they were dealt against the beam's root).  Random low bits break ties,
so two beams of the same width differ.

Diversity: a level keeps at most ``PER_ABSTRACT`` positions of one abstract
position (the prefix lengths and foundations of :mod:`solver.kernels.capacity`).
Without that, a level fills with one position's shuffles of moved cards
among hosts of equal rank, which all score alike, and the beam cycles
through them until it gives up.  Measured on 14 Good Measure deals whose wins
came late (beams 16,000 to 256,000 wide, after 10 s to more than 60 s): the
old beam (no limit, no dealt-card term) won none 4,000 wide, 7 at 16,000.
With both, trying widths 1,000, 4,000, 16,000, 64,000 until a win (beam time
for all 14): at most 1 position per abstract position, 23.9 s, the last win
at 16,000; 2, 18.0 s, all won by 4,000; 4, 27.0 s, 12 by 4,000; 8, 38.3 s,
four at 16,000.  Yet over Good Measure deals 1-1000 at 60 s a deal, 2 only
traded wins with 4 (947 in 2.8 s, not 15.3 s; 992, 955, 548 in 17-18 s, not
1-4 s) for more solver time in all (393 s against 377 s), so 4 it is.
(Capacity tests on each child, tried too, won no more and cost the beam
1.5x.)
Checked by:
  tests/kernels/test_beam.py::test_a_level_keeps_the_best_few_of_each_abstract_position (the measures: benchmarks)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .codes import FOUNDATION, M_AUTO_TOP, M_IN_PLAY, M_REDEALS, copy_into
from .dead import dead_here
from .moves import generate_moves
from .position import play, prefix_length, take_back
from .safe_moves import play_safe_moves, safe_moves_hold, undo_safe_moves
from .score import score
from .table import LOST_MARK, table_info, table_lookup

TIE_BITS = 10  # low bits of a candidate's key that break ties at random
PER_ABSTRACT = 4  # positions a level keeps of one abstract position (module text)
RANKED = 8  # a level picks among its RANKED * width best candidates

# Slots of the ``stats`` array a level call fills.
B_WON_PARENT, B_WON_SRC, B_WON_DST, B_NODES = range(4)
STATS_SIZE = 4


@njit(cache=True)
def dealt_cards(board, heights, found, origin, origin_heights):
    """Cards still where they were dealt, and a 64-bit key of the abstract position (prefix lengths, foundations)."""
    dealt = 0
    key = np.uint64(1469598103934665603)  # FNV-1a: collisions merge two abstract positions' counts, nothing worse
    for p in range(board.shape[0]):
        n = prefix_length(board, heights, origin, origin_heights, p)
        dealt += n
        key = (key ^ np.uint64(n)) * np.uint64(1099511628211)
    for f in range(found.shape[0]):
        key = (key ^ np.uint64(found[f])) * np.uint64(1099511628211)
    return dealt, key


@njit(cache=True)
def _seen(cache, key):
    """A lossy set of the positions met: True if ``key`` is in it; stores it otherwise.

    A slot holds the last key stored there, so a position whose slot was taken
    since counts as new again (the beam may keep it twice: room wasted, nothing
    wrong), and a position that shares a 64-bit key with one met is dropped
    (a candidate lost, never a wrong verdict: the beam proves nothing lost)."""
    slot = np.int64(key & np.uint64(cache.shape[0] - 1))
    if cache[slot] == key:
        return True
    cache[slot] = key
    return False


@njit(cache=True)
def beam_level(
    level, n, next_level, record, rules, zobrist, seen, dfs_table, cands, work, stats, origin, origin_heights,
    dealt_weight,
):  # fmt: skip
    """Expand the ``n`` positions of ``level``; keep the best ``width`` children as ``next_level``.

    Returns the next level's size, or -1 when a move wins (``stats`` then says
    which position and move).  ``record`` (parent, source, target) says how
    each kept child was reached, for the winning line.  ``origin``: the beam's
    root, against which prefixes count; ``dealt_weight``: the score's points off per card still
    where it was dealt (0 where a redeal may come: it re-cuts the piles, and the prefixes mean nothing)."""
    here, lowest = np.zeros(2, dtype=np.uint64), np.zeros(4, dtype=np.int32)
    count = _candidates(
        level, n, rules, zobrist, seen, dfs_table, cands, work, stats, origin, origin_heights, here, lowest,
        dealt_weight,
    )  # fmt: skip
    if count < 0:
        return -1
    kept = _choose(cands.key, cands.abstract, count, cands.chosen, cands.abstract_slots, cands.abstract_counts)
    parent, move_src, move_dst = record
    for k in range(kept):
        c = cands.chosen[k]
        e, src, dst = cands.parent[c], cands.src[c], cands.dst[c]
        _keep(level, next_level, k, e, src, dst, rules, zobrist, work)
        parent[k], move_src[k], move_dst[k] = e, src, dst
    return kept


@njit(cache=True)
def beam_levels(
    levels, n, first, last, records, rules, zobrist, seen, dfs_table, cands, work, stats, origin, origin_heights,
    dealt_weight,
):  # fmt: skip
    """Expand level ``first`` (its ``n`` positions in ``levels[first % 2]``) into the next, and so on, up to
    level ``last`` (not expanded), in one call: narrow beams make levels in microseconds, less than a call
    from Python costs.  Level i's record (``beam_level``) is row i of each of ``records``.

    Returns (the size of the last level made, the index of the next level to expand); the size is -1 when
    a move of level i wins (the index is then i), and 0 when a level has no child worth keeping."""
    parents, sources, targets = records
    i = first
    while i < last and n > 0:
        record = (parents[i], sources[i], targets[i])
        n = beam_level(
            levels[i % 2], n, levels[1 - i % 2], record, rules, zobrist, seen, dfs_table, cands, work, stats, origin,
            origin_heights, dealt_weight,
        )  # fmt: skip
        if n < 0:
            return n, i
        i += 1
    return n, i


@njit(cache=True)
def _play(board, hs, found, rules, zobrist, keys, meta, src, dst, work):
    """Play a move of the beam (a redeal too), then the safe moves it lets through where they hold (no
    worrying back, no redeal left: solver/kernels/safe_moves.py); returns the card moved and how many safe
    moves were played, for ``_take_back``."""
    card = play(board, hs, found, zobrist, keys, meta, src, dst, work.saved, work.scratch)
    meta[M_AUTO_TOP] = 0
    autos = np.int64(0)
    if safe_moves_hold(rules, meta):  # (no safe rule with worrying back: premises.safe_rule)
        autos = play_safe_moves(board, hs, found, zobrist, keys, meta, work.auto_src, work.auto_card, rules.safe)
    return card, autos


@njit(cache=True)
def _take_back(board, hs, found, zobrist, keys, meta, src, dst, card, autos, work):
    """Undo ``_play``."""
    undo_safe_moves(board, hs, found, zobrist, keys, meta, work.auto_src, work.auto_card, autos)
    take_back(board, hs, found, zobrist, keys, meta, src, dst, card, work.saved, work.scratch)


@njit(cache=True, _nrt=False)  # no reference counts: solver/kernels/__init__.py, "No reference counting"
def _candidates(
    level, n, rules, zobrist, seen, dfs_table, cands, work, stats, origin, origin_heights, here, lowest, dealt_weight
):
    """The level's children worth keeping, scored, as candidates; how many, or -1 when a move wins."""
    boards, heights, founds, in_play, redeals, keys = level
    cand_parent, cand_src, cand_dst = cands.parent, cands.src, cands.dst
    cand_key, cand_abstract = cands.key, cands.abstract
    moves_src, moves_dst, scratch, meta = work.moves_src, work.moves_dst, work.scratch, work.meta
    count = 0
    for e in range(n):
        board, hs, found = boards[e], heights[e], founds[e]
        meta[M_IN_PLAY] = in_play[e]
        meta[M_REDEALS] = redeals[e]
        # The position as its own origin: every card counts as dealt, since the beam ranks children itself.
        start = noise = np.int64(0)
        m = generate_moves(board, hs, found, rules, moves_src, moves_dst, start, scratch, noise, meta, board, hs)
        for i in range(m):
            src, dst = np.int64(moves_src[i]), np.int64(moves_dst[i])
            here[0], here[1] = keys[e, 0], keys[e, 1]
            card, autos = _play(board, hs, found, rules, zobrist, here, meta, src, dst, work)
            stats[B_NODES] += 1
            if meta[M_IN_PLAY] == 0:
                stats[B_WON_PARENT], stats[B_WON_SRC], stats[B_WON_DST] = e, src, dst
                _take_back(board, hs, found, zobrist, here, meta, src, dst, card, autos, work)
                return -1
            fresh = not _seen(seen, here[0])
            if fresh:
                slot = table_lookup(dfs_table, here[0], here[1])
                fresh = slot < 0 or table_info(dfs_table, slot) != LOST_MARK
            room = count < cand_key.shape[0]
            if fresh and room and not dead_here(board, hs, found, rules, scratch, meta):
                dealt, cand_abstract[count] = dealt_cards(board, hs, found, origin, origin_heights)
                cand_parent[count], cand_src[count], cand_dst[count] = e, src, dst
                tie = np.random.randint(0, 1 << TIE_BITS)
                cand_key[count] = (np.int64(score(board, hs, found, dealt, lowest, dealt_weight)) << TIE_BITS) + tie
                count += 1
            _take_back(board, hs, found, zobrist, here, meta, src, dst, card, autos, work)
    return count


@njit(cache=True)
def _choose(cand_key, cand_abstract, count, chosen, abstract_slots, abstract_counts):
    """Write into ``chosen`` the candidates a level keeps: best key first, at most ``PER_ABSTRACT`` of one
    abstract position, at most ``chosen.size``; returns how many.

    Only the ``RANKED * width`` best are ranked, so a level crowded with few abstract positions may keep
    fewer than ``width``.  ``abstract_slots``/``abstract_counts`` count kept positions per abstract key,
    lossily: a key that lands on a slot taken by another starts again from 0 (a few more of it kept)."""
    width = chosen.shape[0]
    order = np.empty(min(count, RANKED * width), dtype=np.int64)
    _best_first(cand_key, count, order)
    abstract_slots[:] = 0
    mask = np.uint64(abstract_slots.shape[0] - 1)
    kept = 0
    for c in order:
        if kept == width:
            break
        slot = np.int64(cand_abstract[c] & mask)
        if abstract_slots[slot] != cand_abstract[c]:
            abstract_slots[slot], abstract_counts[slot] = cand_abstract[c], 0
        if abstract_counts[slot] < PER_ABSTRACT:
            abstract_counts[slot] += 1
            chosen[kept] = c
            kept += 1
    return kept


@njit(cache=True)
def _best_first(keys, count, order):
    """Write into ``order`` the indexes of the ``order.size`` largest of ``keys[:count]``, largest first.

    A min-heap of the best met so far, then sorted in place by popping its least to the back.  Written
    out because numba compiles each of numpy's sorts and partitions anew, some seconds apiece."""
    size = order.shape[0]
    for i in range(size):
        order[i] = i
    for i in range(size // 2 - 1, -1, -1):
        _sift_down(order, keys, i, size)
    for c in range(size, count):
        if keys[c] > keys[order[0]]:
            order[0] = c
            _sift_down(order, keys, np.int64(0), size)
    for end in range(size - 1, 0, -1):
        order[0], order[end] = order[end], order[0]
        _sift_down(order, keys, np.int64(0), end)


@njit(cache=True)
def _sift_down(heap, keys, i, size):
    """Restore the min-heap ``heap[:size]`` (of indexes into ``keys``) below position i."""
    while True:
        child = 2 * i + 1
        if child >= size:
            return
        if child + 1 < size and keys[heap[child + 1]] < keys[heap[child]]:
            child += 1
        if keys[heap[child]] >= keys[heap[i]]:
            return
        heap[i], heap[child] = heap[child], heap[i]
        i = child


@njit(cache=True)
def _keep(level, next_level, slot, e, src, dst, rules, zobrist, work):
    """Write position ``e``'s child by move src -> dst (and the safe moves after it) at ``slot`` of the next level."""
    boards, heights, founds, in_play, redeals, keys = level
    next_boards, next_heights, next_founds, next_in_play, next_redeals, next_keys = next_level
    meta = work.meta
    _copy_2d(next_boards[slot], boards[e])
    copy_into(next_heights[slot], heights[e])
    copy_into(next_founds[slot], founds[e])
    copy_into(next_keys[slot], keys[e])
    meta[M_IN_PLAY] = in_play[e]
    meta[M_REDEALS] = redeals[e]
    board, hs, found, here = next_boards[slot], next_heights[slot], next_founds[slot], next_keys[slot]
    _play(board, hs, found, rules, zobrist, here, meta, np.int64(src), np.int64(dst), work)
    next_in_play[slot] = meta[M_IN_PLAY]
    next_redeals[slot] = meta[M_REDEALS]


@njit(cache=True)
def _copy_2d(dst, src):
    for i in range(src.shape[0]):
        copy_into(dst[i], src[i])


@njit(cache=True)
def replay(board, heights, found, in_play, redeals, rules, zobrist, line_src, line_dst, out_src, out_dst, work):
    """Play a line of the beam's moves from the root, writing each move and then the safe moves it
    lets through (``out_dst`` -1: to a foundation); returns how many moves were written."""
    meta = work.meta
    meta[:] = 0
    meta[M_IN_PLAY] = in_play
    meta[M_REDEALS] = redeals
    keys = np.zeros(2, dtype=np.uint64)
    n = 0
    for i in range(line_src.shape[0]):
        _, autos = _play(
            board, heights, found, rules, zobrist, keys, meta, np.int64(line_src[i]), np.int64(line_dst[i]), work
        )
        out_src[n], out_dst[n] = line_src[i], line_dst[i]
        n += 1
        for a in range(autos):
            out_src[n], out_dst[n] = work.auto_src[a], FOUNDATION
            n += 1
    return n
