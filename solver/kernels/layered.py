"""The layered search: breadth-first by progress, holding one layer of positions at a time, not all.

The depth-first search keeps every position it has met, to know the lost
ones again; on the deals that resist it longest its table fills any memory
(Good Measure 1889: over a billion positions in 8 GiB, half its lost marks
forgotten six times).  In the games below, every move either keeps a
measure of progress or raises it, and no move lowers it, so a position of
progress P can only be met again from positions of progress P: a search
that finishes the positions of each progress in turn, lowest first, may
forget them once done.  It holds the current layer, exactly (no hash
collisions: each position is stored whole, in 256 bits), and the children
waiting in the layers above.  Measured, that is no gain: it searches the
depth-first search's positions about three times slower, and its widest
layer holds about a tenth of them at several times the bytes each, so its
memory is about the same (results/layered.md).  What it offers is an
exact check of the depth-first search's losses, with none of its
bookkeeping (benchmarks/check_lost.py --layered).

Premises (``layers_hold``): one deck; single cards move, building down one
rank at a time (by rank, by suit or by alternate colour); an empty pile
takes nothing; no worrying back; no redeal left; no face-down cards.
Baker's Dozen and Good Measure; Cruel and Ripple Fan with their redeals
spent (through the API: their boards in the CLI always have redeals left).
Checked by:
  tests/game/test_premises.py::test_each_premise_holds_for_the_games_whose_rules_meet_it[layers_apply]
  tests/search/test_layered.py::test_layered_search_is_refused_where_its_premises_fail

Hard prefixes
    Against the origin (the root, after its safe moves), each pile has its
    prefix, the longest run of bottom cards equal to the origin's, and
    every other card in it is free, lying on a card one rank higher
    (:mod:`solver.kernels.capacity`, "Seats").  Cut the prefix of length n
    lower still: its *hard* length is the least j >= 1 such that each
    origin card at heights j..n-1 builds on the one beneath (n itself when
    the prefix top does not; 0 for an empty prefix).  So a pile is its hard
    prefix with a run on it, each card one rank below the one beneath: the
    prefix's cards above the hard prefix, then the free cards.  A pile with
    an empty prefix is empty, as nothing is ever put into an empty pile.
    The hard length never grows: a move that lengthens a prefix puts a card
    back on the origin card beneath its dealt place, which it builds on
    (the move is legal), so the hard length stays; a move that shortens it
    lowers the hard length only when the card leaving is the hard top,
    which builds on nothing beneath it (or is the bottom card), and so can
    never come back there.
    Checked by:
      tests/kernels/test_layered.py::test_encoding_and_progress_along_random_walks
Progress
    P = the cards outside the hard prefixes (up or in the tableau) plus the
    cards up: the sum over piles of (origin height - hard length) plus the
    sum of the foundations.  No move lowers P (cards never come down from a
    foundation, hard lengths never grow).  So the positions reachable from
    the root fall into layers by P, and every move stays in its layer or
    goes up.  (A move that stays is reversible: its card lies above a hard
    prefix on a card it builds on, where it can go back; the search does
    not need this.)
    Checked by:
      tests/kernels/test_layered.py::test_encoding_and_progress_along_random_walks
      tests/kernels/test_layered.py::test_putting_a_card_back_on_its_dealt_host_keeps_progress
The search
    Layer by layer from the root's, lowest P first: a layer's positions are
    its children from lower layers (collected as those were searched) and
    every position they reach by moves that stay in it; each is expanded
    once (an exact set of the layer's positions), its children that stay
    join the layer, the others wait in theirs.  When a layer is done,
    nothing can reach its positions again from a layer still to come, so
    it is forgotten, but for the move that made each position, kept to
    trace a winning line back.  The moves expanded and the pruning are the
    depth-first search's: ``generate_moves`` (with the lone-card rule), the
    safe moves after each move, and no children kept of positions found
    dead by either test (:mod:`solver.kernels.dfs`, "Lost positions": from
    a position with a win, this pruned graph reaches a win).  So the search
    meets a won position exactly when the pruned graph from the root
    reaches one, and when the last layer is done without one, the deal is
    lost.
    Checked by:
      tests/kernels/test_layered.py::test_layered_search_agrees_with_reference_search
      tests/kernels/test_layered.py::test_layered_search_agrees_on_variants
      tests/kernels/test_layered.py::test_layered_search_builds_by_suit
Encoding
    A position is four 64-bit words: for each pile its hard length (4
    bits), how many cards lie on the hard prefix (4 bits) and the suit of
    each (2 bits), from the bottom; the ranks follow from the hard top's,
    the foundations from the cards missing.  Two positions are equal
    exactly when their words are.  It fits 19 piles of 52 cards at most, no
    pile of the origin higher than 15 cards (``layers_hold``): a hard length
    is at most its pile's origin height, and the cards on a hard prefix at
    most 12, a run down from the hard top.
    Checked by:
      tests/kernels/test_layered.py::test_encoding_and_progress_along_random_walks (decode(encode(x)) is x)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .capacity import C_ALLOWANCE, abstraction_moved, capacity_dead
from .codes import EMPTY_NONE, FOUNDATION, M_AUTO_TOP, M_DOWN, M_IN_PLAY, M_REDEALS, builds_on
from .dead import dead_here
from .moves import generate_moves
from .position import play, take_back
from .safe_moves import play_safe_moves, safe_moves_hold, undo_safe_moves

WORDS = 4  # a position's words
MAX_PILES = 19  # 19 * 8 + 52 * 2 = 256 bits
MAX_HEIGHT = 15  # a hard length's 4 bits
MAX_LAYER = 127
# lmeta slots: positions in the layer, the next to expand, children waiting, positions expanded (all
# layers), and the position and move that won.
L_COUNT, L_CURSOR, L_WAITING, L_EXPANDED, L_WON_ROW, L_WON_SRC, L_WON_DST, L_DEAD = range(8)
LMETA_SIZE = 8
# Statuses
LAYER_DONE, LAYER_PAUSED, LAYER_WON, LAYER_FULL = range(4)
_PARENT_LAYER, _PARENT_SRC, _PARENT_DST = 49, 44, 38
_INDEX_MASK = (1 << 38) - 1
_RETEST = 1 << 56  # the move that made the position changed its capacity abstraction


@njit(cache=True)
def layers_hold(rules, meta, found, heights):
    """Whether the module's premises hold in this game and position (the origin's pile ``heights``)."""
    return (
        found.shape[0] == 4
        and heights.shape[0] <= MAX_PILES
        and heights.max() <= MAX_HEIGHT
        and not rules.sequences
        and not rules.both_ways
        and not rules.worry
        and rules.empty == EMPTY_NONE
        and rules.lone
        and meta[M_REDEALS] == 0
        and meta[M_DOWN] == 0
    )


@njit(cache=True)
def hard_lengths(board, heights, origin, origin_heights, build, out):
    """Each pile's hard length (module text) into ``out``."""
    for p in range(board.shape[0]):
        n = 0
        while n < heights[p] and n < origin_heights[p] and board[p, n] == origin[p, n]:
            n += 1
        j = n
        while j >= 2 and builds_on(origin[p, j - 2], origin[p, j - 1], build, False):
            j -= 1
        out[p] = j


@njit(cache=True, inline="always")
def _put(row, pos, value, bits):
    word, off = pos >> 6, pos & 63
    row[word] |= np.uint64(value) << np.uint64(off)
    if off + bits > 64:
        row[word + 1] |= np.uint64(value) >> np.uint64(64 - off)
    return pos + bits


@njit(cache=True, inline="always")
def _get(row, pos, bits):
    word, off = pos >> 6, pos & 63
    value = row[word] >> np.uint64(off)
    if off + bits > 64:
        value |= row[word + 1] << np.uint64(64 - off)
    return np.int64(value & np.uint64((1 << bits) - 1))


@njit(cache=True)
def encode(board, heights, found, origin, origin_heights, build, hard, row):
    """Write the position's words into ``row``; returns its progress P (module text)."""
    hard_lengths(board, heights, origin, origin_heights, build, hard)
    row[:] = 0
    pos = 0
    progress = 0
    for p in range(board.shape[0]):
        h = hard[p]
        progress += origin_heights[p] - h
        pos = _put(row, pos, h, 4)
        pos = _put(row, pos, heights[p] - h, 4)
        for i in range(h, heights[p]):
            pos = _put(row, pos, board[p, i] % 4, 2)
    for s in range(found.shape[0]):
        progress += found[s]
    return progress


@njit(cache=True)
def decode(row, origin, nranks, board, heights, found):
    """The position of ``row`` into the arrays; returns its cards in play."""
    pos = 0
    in_play = 0
    for s in range(4):
        found[s] = nranks
    for p in range(board.shape[0]):
        h = _get(row, pos, 4)
        k = _get(row, pos + 4, 4)
        pos += 8
        for i in range(h):
            board[p, i] = origin[p, i]
            found[origin[p, i] % 4] -= 1
        rank = origin[p, h - 1] // 4 if h > 0 else 0
        for j in range(k):
            card = (rank - 1 - j) * 4 + _get(row, pos, 2)
            pos += 2
            board[p, h + j] = card
            found[card % 4] -= 1
        heights[p] = h + k
        in_play += h + k
    return in_play


@njit(cache=True, inline="always")
def _hash(row):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(WORDS):
        h ^= row[w]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True)
def admit(row, parent, states, parents, index, lmeta):
    """Add the position ``row`` to the layer unless it holds it; True if it was new."""
    mask = np.uint64(index.shape[0] - 1)
    slot = _hash(row) & mask
    while True:
        at = index[slot]
        if at == 0:
            break
        r = at - 1
        same = True
        for w in range(WORDS):
            if states[r, w] != row[w]:
                same = False
                break
        if same:
            return False
        slot = (slot + np.uint64(1)) & mask
    count = lmeta[L_COUNT]
    states[count, :] = row
    parents[count] = parent
    index[slot] = count + 1
    lmeta[L_COUNT] = count + 1
    return True


@njit(cache=True)
def admit_all(rows, row_parents, states, parents, index, lmeta):
    """Add the waiting children of a layer (some twice or more) to it, before it is searched."""
    for i in range(rows.shape[0]):
        admit(rows[i], row_parents[i], states, parents, index, lmeta)


@njit(cache=True, inline="always")
def pack_parent(layer, src, dst, row_index):
    """The position a child came from (its layer and row) and the move that made it, in one word."""
    return (layer << _PARENT_LAYER) | (src << _PARENT_SRC) | ((dst + 1) << _PARENT_DST) | row_index


@njit(cache=True)
def expand(
    layer, states, parents, index, waiting, waiting_parents, waiting_layers, lmeta, position, rules, zobrist, work,
    test, cap_limit, node_limit,
):  # fmt: skip
    """Expand the layer's positions from ``lmeta[L_CURSOR]`` on, at most ``node_limit`` of them: children
    that stay join the layer, the others wait (``waiting*``); returns a status.  LAYER_FULL: the layer's
    arrays or the waiting ones need room for one more position's children first."""
    board, heights, found, keys = position
    moves_src, moves_dst, scratch, meta, auto_src, auto_card, saved = work
    origin, origin_heights = test.origin, test.origin_heights
    row = np.zeros(WORDS, dtype=np.uint64)
    hard = np.zeros(board.shape[0], dtype=np.int64)
    capacity_meta = test.meta
    room = moves_src.shape[0]
    stop = lmeta[L_EXPANDED] + node_limit
    while lmeta[L_CURSOR] < lmeta[L_COUNT]:
        if lmeta[L_EXPANDED] >= stop:
            return LAYER_PAUSED
        if (
            lmeta[L_COUNT] + room > states.shape[0]
            or 2 * (lmeta[L_COUNT] + room) > index.shape[0]
            or lmeta[L_WAITING] + room > waiting.shape[0]
        ):
            return LAYER_FULL
        i = lmeta[L_CURSOR]
        lmeta[L_CURSOR] = i + 1
        lmeta[L_EXPANDED] += 1
        meta[M_IN_PLAY] = decode(states[i], origin, rules.ranks, board, heights, found)
        meta[M_AUTO_TOP] = 0
        # The tests of a position once, as it is expanded (a child may be met many times before).
        capacity_meta[C_ALLOWANCE] += 1  # as the depth-first search: one abstract position's work per position
        dead = dead_here(board, heights, found, rules, scratch, meta)
        if not dead and cap_limit > 0 and parents[i] & _RETEST:
            dead = capacity_dead(board, heights, found, rules, test, cap_limit)
        if dead:
            lmeta[L_DEAD] += 1
            continue
        n = generate_moves(
            board, heights, found, rules, moves_src, moves_dst, 0, scratch, 0, meta, origin, origin_heights
        )
        for m in range(n):
            src, dst = np.int64(moves_src[m]), np.int64(moves_dst[m])
            card = play(board, heights, found, zobrist, keys, meta, src, dst, saved, scratch)
            autos = 0
            # Always so where layers_hold: no redeal is left, and each of its games has a safe rule (by suit,
            # by alternate colour, or SAFE_LOW: premises.safe_rule); asked as the depth-first search asks.
            if safe_moves_hold(rules, meta):
                autos = play_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, rules.safe)
            if meta[M_IN_PLAY] == 0:
                lmeta[L_WON_ROW], lmeta[L_WON_SRC], lmeta[L_WON_DST] = i, src, dst
                return LAYER_WON
            child = encode(board, heights, found, origin, origin_heights, rules.build, hard, row)
            parent = pack_parent(layer, src, dst, i)
            # The capacity abstraction, and so the parent's verdict, stands unless a foundation or a prefix
            # changed (a child of another layer always changed one); skipping a test is always sound.
            moved = dst == FOUNDATION or autos > 0
            if moved or abstraction_moved(board, heights, origin, origin_heights, src, dst, card):
                parent |= _RETEST
            if child == layer:
                admit(row, parent, states, parents, index, lmeta)
            else:
                w = lmeta[L_WAITING]
                waiting[w, :] = row
                waiting_parents[w] = parent
                waiting_layers[w] = child
                lmeta[L_WAITING] = w + 1
            undo_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, autos)
            take_back(board, heights, found, zobrist, keys, meta, src, dst, card, saved, scratch)
    return LAYER_DONE


def unpack_parent(word: int) -> tuple[int, int, int, int]:
    """(layer, row, src, dst) of a packed parent word."""
    return (
        (word >> _PARENT_LAYER) & MAX_LAYER,
        word & _INDEX_MASK,
        (word >> _PARENT_SRC) & 31,
        ((word >> _PARENT_DST) & 63) - 1,
    )
