"""Numba kernels of the search: plain arrays in, plain arrays out.

Everything the depth-first search needs lives in arrays owned by the caller
(:mod:`solver.search`), so a kernel call can stop at any node -- after a
number of nodes, when the transposition table or the stack needs room --
and a later call resumes exactly where it stopped.

Position
    ``board[p, i]`` card codes of pile p from the bottom, ``heights[p]``,
    ``found[s]`` the top rank of suit s's foundation.
Hash
    Two independent 64-bit Zobrist hashes, each the XOR over the cards in
    the tableau of a random key for the pair (card, the card directly beneath
    it, or ``BOTTOM``).  That set of pairs fixes every pile up to the order of
    the piles, so positions that differ only by pile order hash alike, and a
    move changes two pairs: O(1) per move.  The table stores 95 bits of the
    pair (the first hash but its lowest bit, the second's high half);
    treating equal keys as equal positions errs with chance about n^2 / 2^96
    for n stored positions (below 10^-12 for the 10^8 that fit in 2 GiB).
Safe foundation moves (``play_safe_moves``)
    In these games -- one card moves at a time, tableau builds down by rank
    in any suit, foundations up by suit and never give cards back -- a card
    of rank r whose foundation is at r-1 may go up at once when every
    foundation is at least r-2.  Proof: take any winning line W from the
    position.  The card c can only ever serve as host to cards of rank r-1.
    Each such card x is still in the tableau, so its foundation is exactly
    at r-2 (at least r-2 by premise, below r-1 since x is not there) and x
    itself may go up whenever it is on top.  No card can ever be put on x:
    every rank r-2 card is already up.  Build W' from W: play c up first;
    where W puts some x on c, put x up instead; drop every later move of c
    and of those x.  At every step W's piles equal W''s piles with c and
    what lies on c removed, so each remaining move of W is still legal:
    its card is on top in both, its host is the same card (a host in the
    removed part would be c or an x, excluded above), an empty target pile
    is empty in both and may be filled under the same rule, and each
    foundation of W' is at W's height or at most one card above it only when
    that one card is c or an x, whose later moves were dropped.  W' wins.
    Premises, checked by ``search.check_supported``: single-card moves,
    build by rank regardless of suit, no worrying back (with it, the search
    plays no safe moves).  What an empty pile takes does not matter: W'
    never has fewer empty piles than W.
Lone cards stay put where spaces are useless (``_generate``)
    Where an empty pile takes nothing -- or takes only a King and every King
    left in the tableau is the bottom card of its pile, so that moving one
    into a space is a mere change of pile order, which a shortest line never
    makes -- a card alone in its pile never moves onto another pile (it may
    still go up).  Proof: let T' follow from T by moving lone card c from
    pile a onto y, top of pile b.  Any line from T' is mirrored from T move
    for move: the cards that lie on c in T' lie on
    c in pile a in T, every move of one of them (or onto one of them) is
    played the same from or to pile a, y is exposed in T whenever it is in
    T', and once c's stack has gone the two positions are equal (pile a is
    empty and dead in both).  So a shortest winning line never makes such a
    move, and pruning it loses no win.  (Not used with worrying back, which
    the mirror argument does not cover.)
Dead positions (``relaxed_dead``)
    Relax the game: a card may leave its pile when some card one rank
    higher is the top card of another pile (of the piles as the relaxed game
    has left them) or has itself left its pile since this position
    (wherever it went, even up), or when every lower
    card of its suit is up or has left its pile, or, where the rules let an
    empty pile take it, when some pile has been emptied.  Every real move
    from this position is a relaxed move: a real host is a top card or a
    card that has moved since; a real foundation move needs the lower cards
    of the suit up; a real empty-pile move needs an empty pile.  So when the
    relaxed game cannot clear every pile, the real game cannot be won.
    Cards already up at this position host nothing: they never come back.
    With worrying back they may, so there every card that is up counts as
    a card that has left its pile (a host from the start); a move back from
    a foundation takes no card out of its pile, so it is no relaxed move at
    all, and every other real move is still a relaxed one.
    In the relaxed game letting a card leave never hurts (it only adds
    hosts and foundation progress), so one greedy pass to a fixed point
    decides it: no search is needed.
    Where it finds nothing, a second test, the capacity relaxation (one
    card per host, hosts covered; proof in :mod:`solver._capacity`), runs
    on positions whose move changed a foundation or how much of a pile is
    still as dealt; other moves leave its abstraction, so its verdict, as
    the parent's.  It is off with worrying back, which its proof excludes.
Lost positions (``search``)
    Call the graph the search walks the pruned graph: its edges are the
    moves ``_generate`` makes, each followed by the safe moves, and it has
    no edges out of dead positions (found dead by either test, so lost).
    From a position with a win, the pruned graph reaches a win: take a
    shortest winning line W; its first move is no lone-card move (proof
    above), so it is generated; after it and the safe moves, which never
    lengthen a winning line (the W' above is no longer than W), a winning
    line shorter than W is left, so the child is not dead; induct on the
    length.  Hence a position from which the
    pruned graph reaches no win is lost.
    The search numbers each new position and keeps Tarjan's bookkeeping of
    strongly connected components: the table holds each open position's
    number, a stack holds the open positions, and each frame of the path
    its lowlink (the least number of an open position that its subtree
    reaches).  When a frame ends with lowlink equal to its own number, its
    component closes: every position reachable from it is in the
    component, in a component closed before, or marked lost, and none was
    a win (the search would have stopped), so all of them are lost and
    the table marks them so.  A restart keeps those marks and forgets what
    it knew of the open positions (their search was cut short: they are
    marked stale, which a later run treats as new), so a later run never
    searches a proven-lost position again.  Lowlinks are exact, not
    bounds: an open position met again gives its own number, as in
    Tarjan's algorithm, so no component closes early.
Forgetting when memory is short (``table_evict``)
    When the table may not grow, the search forgets every stale entry and
    about half the lost marks, keeping every open position.  A forgotten
    position is searched again as new if met, which costs time, never a
    verdict: the closing argument above needs every position reachable from
    a closing component to be in it, in one closed before, or marked lost,
    and a position searched again is in one of the first two like any
    other.  Open positions keep their numbers and slots on the component
    stack, so the bookkeeping of the open components is untouched.
No reference counting (``_nrt=False``)
    Numba counts references to every array with atomic instructions: at
    each view (``a[i]`` of a 2-D array, a slice), each array bound to a
    new name (every argument of a function it inlines) and its end of
    life.  In the search loops its pruning left most of them, and they
    took 40-45% of the time (``perf`` on Good Measure 462's suit-blind
    walk and on 560's depth-first search).  The hot loops (``search``
    here, ``capacity_search``, the beam's level, the walk) are compiled
    with numba's ``_nrt=False``: no counts at all.  Such a kernel may not
    allocate, so its callers hand it every array it needs; the arrays it
    sees are the caller's and outlive the call, so nothing is freed early.
    Nothing else changes: the same moves in the same order, the same
    positions met.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._capacity import C_ALLOWANCE, C_NODES, abstraction_moved, capacity_dead, prefix_length
from ._common import (
    EMPTY_ANY,
    EMPTY_NONE,
    FOUNDATION,
    INFO_BITS,
    LOST_MARK,
    MAX_PILES,
    STALE_MARK,
    TABLE_MAX_LOAD,
    set_info,
    space_takes,
    table_find,
    table_info,
)

# The information word of a table entry (solver/_common.py): LOST_MARK; STALE_MARK, open in a
# run that was cut short; or the Tarjan number of a position of this run whose strongly
# connected component is still open (module text, "Lost positions").

BOTTOM = 52  # the "card beneath" a pile's bottom card, for the hash
WORRY = 100  # source WORRY + s: the top card of suit s's foundation comes back (worrying back)

# Status codes a search call returns.
WON, LOST, PAUSED, TABLE_FULL, STACK_FULL, SCC_FULL = 1, 2, 3, 4, 5, 6

# Slots of the ``meta`` array that carry the search between calls.
M_DEPTH, M_NODES, M_TABLE_COUNT, M_AUTO_TOP, M_ROOT_AUTOS, M_PENDING, M_IN_PLAY, M_DEAD, M_LONE = range(9)
M_SCC_TOP, M_NEXT_INDEX, M_CLOSED = range(9, 12)  # the component stack's height, the next number, positions closed
META_SIZE = 12

# A top card has at most 4 hosts (one per suit of the next rank), one space and its foundation.
MAX_MOVES_PER_NODE = 6 * MAX_PILES + 4 * (4 + 1)  # ... and worrying back: 4 suits x (4 hosts + a space)


def zobrist_keys(seed: int = 20261130) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**64, size=(2, BOTTOM + 1, 52), dtype=np.uint64, endpoint=False)


@njit(cache=True)
def position_hash(board, heights, zob):
    h = np.zeros(2, dtype=np.uint64)
    for p in range(board.shape[0]):
        below = BOTTOM
        for i in range(heights[p]):
            card = board[p, i]
            h[0] ^= zob[0, below, card]
            h[1] ^= zob[1, below, card]
            below = card
    return h


@njit(cache=True, inline="always")
def _top_below(board, heights, p):
    return board[p, heights[p] - 2] if heights[p] >= 2 else BOTTOM


@njit(cache=True)
def _lift(board, heights, zob, keys, p):
    """Take the top card off pile p; returns it."""
    card = board[p, heights[p] - 1]
    below = _top_below(board, heights, p)
    keys[0] ^= zob[0, below, card]
    keys[1] ^= zob[1, below, card]
    heights[p] -= 1
    return card


@njit(cache=True)
def _drop(board, heights, zob, keys, p, card):
    below = board[p, heights[p] - 1] if heights[p] >= 1 else BOTTOM
    keys[0] ^= zob[0, below, card]
    keys[1] ^= zob[1, below, card]
    board[p, heights[p]] = card
    heights[p] += 1


@njit(cache=True)
def _apply(board, heights, found, zob, keys, meta, src, dst):
    if src >= WORRY:
        suit = src - WORRY
        card = (found[suit] - 1) * 4 + suit
        found[suit] -= 1
        meta[M_IN_PLAY] += 1
        _drop(board, heights, zob, keys, dst, card)
        return card
    card = _lift(board, heights, zob, keys, src)
    if dst == FOUNDATION:
        found[card % 4] += 1
        meta[M_IN_PLAY] -= 1
    else:
        _drop(board, heights, zob, keys, dst, card)
    return card


@njit(cache=True)
def _undo(board, heights, found, zob, keys, meta, src, dst, card):
    if src >= WORRY:
        _lift(board, heights, zob, keys, dst)
        found[card % 4] += 1
        meta[M_IN_PLAY] -= 1
        return
    if dst == FOUNDATION:
        found[card % 4] -= 1
        meta[M_IN_PLAY] += 1
    else:
        _lift(board, heights, zob, keys, dst)
    _drop(board, heights, zob, keys, src, card)


@njit(cache=True)
def play_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card):
    """Play every provably safe foundation move (proof in the module text); returns how many."""
    played = 0
    again = True
    while again:
        again = False
        lowest = min(found[0], found[1], found[2], found[3])
        for p in range(board.shape[0]):
            if heights[p] == 0:
                continue
            card = board[p, heights[p] - 1]
            rank = card // 4 + 1
            if found[card % 4] == rank - 1 and rank <= lowest + 2:
                _apply(board, heights, found, zob, keys, meta, p, FOUNDATION)
                top = meta[M_AUTO_TOP]
                auto_src[top] = p
                auto_card[top] = card
                meta[M_AUTO_TOP] = top + 1
                played += 1
                again = True
                lowest = min(found[0], found[1], found[2], found[3])
    return played


@njit(cache=True)
def _undo_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card, count):
    for _ in range(count):
        top = meta[M_AUTO_TOP] - 1
        _undo(board, heights, found, zob, keys, meta, auto_src[top], FOUNDATION, auto_card[top])
        meta[M_AUTO_TOP] = top


@njit(cache=True)
def seed_random(seed):
    np.random.seed(seed)


@njit(cache=True)
def open_keys(table, scc, scc_top):
    """The keys of the open positions ``scc[:scc_top]`` (slots of ``table``), to find them again once
    the table has moved (``repoint``)."""
    keys = np.empty((scc_top, 2), dtype=np.uint64)
    for k in range(scc_top):
        keys[k, 0], keys[k, 1] = table[2 * scc[k]], table[2 * scc[k] + 1]
    return keys


@njit(cache=True)
def repoint(table, scc, keys):
    """Point ``scc`` at the slots of ``table`` that hold ``keys`` (stored there already)."""
    for k in range(keys.shape[0]):
        scc[k] = table_find(table, keys[k, 0], keys[k, 1], 0)


@njit(cache=True)
def table_evict(table, scc, scc_top, drop_bit):
    """Forget, in place, every stale entry and the lost marks whose key has bit ``drop_bit`` set
    (about half); keep every open position and re-point ``scc`` at its slot.  Returns the entries left.

    Emptying slots breaks linear probing's chains, so the entries left are stored again, in
    circular order from a slot that was empty before: no chain crosses that slot, so each entry
    finds every slot from its home to its old place already settled and lands in that stretch,
    behind settled entries only, which never move again."""
    slots = table.shape[0] // 2
    kept = open_keys(table, scc, scc_top)
    start = 0
    while table[2 * start] != 0:
        start += 1
    bit = np.uint64(drop_bit)
    for s in range(slots):
        info = table_info(table, s)
        if table[2 * s] != 0 and (info == STALE_MARK or (info == LOST_MARK and (table[2 * s] >> bit) & np.uint64(1))):
            table[2 * s], table[2 * s + 1] = 0, 0
    left = 0
    for step in range(1, slots + 1):
        i = 2 * ((start + step) % slots)
        if table[i] != 0:
            key0, key1 = table[i], table[i + 1]
            table[i], table[i + 1] = 0, 0
            table_find(table, key0, key1, np.int64(key1 & INFO_BITS))
            left += 1
    repoint(table, scc, kept)
    return left


@njit(cache=True)
def forget_open(table, scc, meta):
    """After a run is cut short: its open positions are known nothing of (their search was cut)."""
    for k in range(meta[M_SCC_TOP]):
        set_info(table, scc[k], STALE_MARK)
    meta[M_SCC_TOP] = 0


# Regions of the int32 scratch array: relaxed_dead's (per pile, per rank 0..15, per suit,
# per rank, per card), then _generate's (per pile, per pile, per move).  Numba does not
# check bounds, so every region must fit what it is indexed by.
_S_LEFT = 0
_S_TOPS = _S_LEFT + MAX_PILES
_S_FOUND = _S_TOPS + 16
_S_HAVE = _S_FOUND + 4
_S_FREE = _S_HAVE + 16
_S_SRC_NEED = _S_FREE + 52
_S_DST_NEED = _S_SRC_NEED + MAX_PILES
_S_SORT = _S_DST_NEED + MAX_PILES
SCRATCH_SIZE = _S_SORT + MAX_MOVES_PER_NODE


@njit(cache=True)
def relaxed_dead(board, heights, found, nranks, empty_rule, worry, scratch):
    """True when even the relaxed game (module text) cannot be won from here.

    ``scratch`` holds, per pile, how many cards are still in it; per rank, how
    many piles show it on top and whether a card of it has left its pile or is
    up; per suit, the foundation the freed cards allow; per card, freed."""
    piles = board.shape[0]
    scratch[:_S_SRC_NEED] = 0
    emptied = False
    remaining = 0
    for suit in range(4):
        scratch[_S_FOUND + suit] = found[suit]
        if worry:  # a card that is up may come back and host
            for rank in range(1, found[suit] + 1):
                scratch[_S_HAVE + rank] = 1
    for p in range(piles):
        scratch[_S_LEFT + p] = heights[p]
        remaining += heights[p]
        if heights[p] > 0:
            scratch[_S_TOPS + board[p, heights[p] - 1] // 4 + 1] += 1
        else:
            emptied = True
    progress = True
    while progress and remaining > 0:
        progress = False
        for p in range(piles):
            while scratch[_S_LEFT + p] > 0:
                card = board[p, scratch[_S_LEFT + p] - 1]
                rank = card // 4 + 1
                suit = card % 4
                # A top of rank+1 is on another pile: this pile's top is `card` itself.
                ok = rank < nranks and (scratch[_S_HAVE + rank + 1] > 0 or scratch[_S_TOPS + rank + 1] > 0)
                ok = ok or scratch[_S_FOUND + suit] == rank - 1
                ok = ok or (emptied and space_takes(rank, nranks, empty_rule))
                if not ok:
                    break
                scratch[_S_LEFT + p] -= 1
                scratch[_S_TOPS + rank] -= 1
                scratch[_S_HAVE + rank] = 1
                scratch[_S_FREE + card] = 1
                while scratch[_S_FOUND + suit] < nranks and scratch[_S_FREE + scratch[_S_FOUND + suit] * 4 + suit]:
                    scratch[_S_FOUND + suit] += 1
                remaining -= 1
                progress = True
                if scratch[_S_LEFT + p] > 0:
                    scratch[_S_TOPS + board[p, scratch[_S_LEFT + p] - 1] // 4 + 1] += 1
                else:
                    emptied = True
    return remaining > 0


@njit(cache=True, inline="always")
def _need(card, found):
    """How many cards of its suit must go up before this one can."""
    return card // 4 + 1 - found[card % 4]


@njit(cache=True)
def _generate(
    board, heights, found, nranks, empty_rule, worry, out_src, out_dst, start, scratch, noise, meta,
    origin, origin_heights,
):  # fmt: skip
    """Write the moves of the position at ``out[start:]``; returns how many.

    Order (it decides how fast wins are found, never what is found):
    foundation moves first; then moves of cards still where they were dealt
    (in their pile's prefix against ``origin``, :mod:`solver._capacity`)
    before cards moved already; among those, moves off the pile that buries
    the card closest to going up; among those, onto the pile that buries
    nothing needed soon.  ``noise`` > 0 perturbs that order at random, for
    restarts.  (Dealt cards first is the order of the walk of the real game,
    :mod:`solver._chains`, which won deals this search missed; in this
    search it won Good Measure 876, 710 and 712 at 60 s, by depth-first
    search, where the old order left them unknown or to a late beam or walk.)"""
    piles = board.shape[0]
    n = start
    first_empty = -1
    spaces_useless = empty_rule != EMPTY_ANY and not worry
    for p in range(piles):
        h = heights[p]
        buried, whole = 99, 99
        for i in range(h):
            k = _need(board[p, i], found)
            if i < h - 1:
                buried = min(buried, k)
            whole = min(whole, k)
            if i > 0 and board[p, i] // 4 + 1 == nranks:
                spaces_useless = spaces_useless and empty_rule == EMPTY_NONE
        scratch[_S_SRC_NEED + p] = min(buried, 20)
        scratch[_S_DST_NEED + p] = min(whole, 20)
        if h == 0 and first_empty < 0:
            first_empty = p
    for p in range(piles):
        if heights[p] > 0 and _need(board[p, heights[p] - 1], found) == 1:
            out_src[n] = p
            out_dst[n] = FOUNDATION
            n += 1
    n_found = n
    for p in range(piles):
        h = heights[p]
        if h == 0:
            continue
        rank = board[p, h - 1] // 4 + 1
        moved = (1 << 12) if prefix_length(board, heights, origin, origin_heights, p) < h else 0
        if h == 1 and spaces_useless:
            for q in range(piles):
                if heights[q] > 0 and board[q, heights[q] - 1] // 4 + 1 == rank + 1:
                    meta[M_LONE] += 1  # a move pruned by the lone-card rule (counted for the tests)
                    break
            continue
        for q in range(piles):
            if q != p and heights[q] > 0 and board[q, heights[q] - 1] // 4 + 1 == rank + 1:
                out_src[n] = p
                out_dst[n] = q
                key = moved + scratch[_S_SRC_NEED + p] * 32 + 31 - scratch[_S_DST_NEED + q]
                scratch[_S_SORT + n - start] = key * 8 + (np.random.randint(0, 8 * noise + 1) if noise else 0)
                n += 1
        fills = space_takes(rank, nranks, empty_rule)
        if first_empty >= 0 and h > 1 and fills:
            out_src[n] = p
            out_dst[n] = first_empty
            key = moved + scratch[_S_SRC_NEED + p] * 32 + 31
            scratch[_S_SORT + n - start] = key * 8 + (np.random.randint(0, 8 * noise + 1) if noise else 0)
            n += 1
    if worry:  # last in the order: a card that is up is rarely needed back
        for suit in range(4):
            if found[suit] == 0:
                continue
            rank = found[suit]
            for q in range(piles):
                if heights[q] > 0:
                    fits = board[q, heights[q] - 1] // 4 + 1 == rank + 1
                else:
                    fits = q == first_empty and space_takes(rank, nranks, empty_rule)
                if fits:
                    out_src[n] = WORRY + suit
                    out_dst[n] = q
                    scratch[_S_SORT + n - start] = 1 << 20
                    n += 1
    for i in range(n_found + 1, n):
        s, d, key = out_src[i], out_dst[i], scratch[_S_SORT + i - start]
        j = i - 1
        while j >= n_found and scratch[_S_SORT + j - start] > key:
            out_src[j + 1] = out_src[j]
            out_dst[j + 1] = out_dst[j]
            scratch[_S_SORT + j + 1 - start] = scratch[_S_SORT + j - start]
            j -= 1
        out_src[j + 1] = s
        out_dst[j + 1] = d
        scratch[_S_SORT + j + 1 - start] = key
    return n - start


@njit(cache=True)
def open_root(table, keys, meta, frame_index, frame_low, frame_sp, scc):
    """Store the root as the first open position of a run.  A run before it that was cut
    short left the root stale (its component is the last to close, which ends a search)."""
    slot = table_find(table, keys[0], keys[1], 0)
    if slot >= 0:
        set_info(table, slot, 0)
    else:
        slot = -1 - slot
        meta[M_TABLE_COUNT] += 1
    frame_index[0] = 0
    frame_low[0] = 0
    frame_sp[0] = 0
    scc[0] = slot
    meta[M_SCC_TOP] = 1
    meta[M_NEXT_INDEX] = 1


@njit(cache=True, _nrt=False)  # module text, "No reference counting"
def search(
    board, heights, found, nranks, empty_rule, worry, zob, keys, table, meta,
    mv_start, mv_count, mv_next, path_src, path_dst, path_card, path_autos,
    frame_index, frame_low, frame_sp, scc,
    moves_src, moves_dst, auto_src, auto_card, scratch, noise, node_limit, work_limit,
    origin, origin_heights, where, cap, cz, ckeys, ctable, cmeta, cap_limit,
):  # fmt: skip
    """Run the depth-first search for at most ``node_limit`` new positions and ``work_limit``
    moves tried and abstract positions searched by capacity tests (most tries meet a known
    position, so positions alone do not bound the time);
    returns a status.  Each closed strongly connected component is marked lost in the table
    (module text, "Lost positions"), where later runs find it."""
    depth = meta[M_DEPTH]
    stop = meta[M_NODES] + node_limit
    work = 0
    table_limit = np.int64(TABLE_MAX_LOAD * (table.shape[0] // 2))
    while True:
        if meta[M_PENDING]:
            start = mv_start[depth - 1] + mv_count[depth - 1] if depth > 0 else 0
            if depth + 1 >= mv_start.shape[0] or start + MAX_MOVES_PER_NODE > moves_src.shape[0]:
                meta[M_DEPTH] = depth
                return STACK_FULL
            mv_start[depth] = start
            mv_count[depth] = _generate(
                board, heights, found, nranks, empty_rule, worry, moves_src, moves_dst, start, scratch, noise, meta,
                origin, origin_heights,
            )  # fmt: skip
            mv_next[depth] = 0
            meta[M_PENDING] = 0
        work += 1
        if meta[M_NODES] >= stop or work > work_limit or meta[M_TABLE_COUNT] >= table_limit:
            meta[M_DEPTH] = depth
            return TABLE_FULL if meta[M_TABLE_COUNT] >= table_limit else PAUSED
        if meta[M_SCC_TOP] >= scc.shape[0]:
            meta[M_DEPTH] = depth
            return SCC_FULL
        i = mv_next[depth]
        if i < mv_count[depth]:
            mv_next[depth] = i + 1
            src = moves_src[mv_start[depth] + i]
            dst = moves_dst[mv_start[depth] + i]
            card = _apply(board, heights, found, zob, keys, meta, src, dst)
            autos = 0 if worry else play_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card)
            path_src[depth] = src
            path_dst[depth] = dst
            path_card[depth] = card
            path_autos[depth] = autos
            if meta[M_IN_PLAY] == 0:
                meta[M_DEPTH] = depth + 1
                return WON
            index = meta[M_NEXT_INDEX]
            slot = table_find(table, keys[0], keys[1], index)
            if slot < 0:
                slot = -1 - slot
                meta[M_TABLE_COUNT] += 1
            elif table_info(table, slot) == STALE_MARK:  # met by a run cut short: new to this one
                set_info(table, slot, index)
            else:  # known: lost, or open in this run (an edge into the component stack)
                info = table_info(table, slot)
                if info != LOST_MARK and info < frame_low[depth]:
                    frame_low[depth] = info
                _undo_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card, autos)
                _undo(board, heights, found, zob, keys, meta, src, dst, card)
                continue
            meta[M_NODES] += 1
            cmeta[C_ALLOWANCE] += 1
            dead = relaxed_dead(board, heights, found, nranks, empty_rule, worry, scratch)
            if not dead and cap_limit > 0:
                # The abstraction, and so the parent's verdict, stands unless a foundation or a prefix changed.
                moved = dst == FOUNDATION or autos > 0
                if moved or abstraction_moved(board, heights, origin, origin_heights, src, dst, card):
                    work -= cmeta[C_NODES]  # its abstract positions count as work too, to keep the clock
                    dead = capacity_dead(
                        board, heights, found, nranks, empty_rule, origin, origin_heights, where, cap, cz, ckeys,
                        ctable, cmeta, cap_limit,
                    )  # fmt: skip
                    work += cmeta[C_NODES]
            if dead:
                meta[M_DEAD] += 1
                set_info(table, slot, LOST_MARK)
                _undo_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card, autos)
                _undo(board, heights, found, zob, keys, meta, src, dst, card)
                continue
            meta[M_NEXT_INDEX] = index + 1
            depth += 1
            frame_index[depth] = index
            frame_low[depth] = index
            frame_sp[depth] = meta[M_SCC_TOP]
            scc[meta[M_SCC_TOP]] = slot
            meta[M_SCC_TOP] += 1
            meta[M_PENDING] = 1
        else:
            if frame_low[depth] == frame_index[depth]:  # a component closes: every position in it is lost
                for k in range(frame_sp[depth], meta[M_SCC_TOP]):
                    set_info(table, scc[k], LOST_MARK)
                meta[M_CLOSED] += meta[M_SCC_TOP] - frame_sp[depth]
                meta[M_SCC_TOP] = frame_sp[depth]
            if depth == 0:
                meta[M_DEPTH] = 0
                return LOST
            low = frame_low[depth]
            depth -= 1
            if low < frame_low[depth]:
                frame_low[depth] = low
            _undo_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card, path_autos[depth])
            _undo(board, heights, found, zob, keys, meta, path_src[depth], path_dst[depth], path_card[depth])
