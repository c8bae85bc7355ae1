"""Numba kernels of one position: its hash, moves made and undone, the safe moves, the moves
generated, and the first dead-position test.  Plain arrays in, plain arrays out.

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
    Premises, checked by ``solver.game.rules.unsupported``: single-card moves,
    build by rank regardless of suit, no worrying back (with it, the search
    plays no safe moves).  What an empty pile takes does not matter: W'
    never has fewer empty piles than W.
Lone cards stay put where spaces are useless (``generate_moves``)
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
    card per host, hosts covered; proof in :mod:`solver.kernels.capacity`), runs
    on positions whose move changed a foundation or how much of a pile is
    still as dealt; other moves leave its abstraction, so its verdict, as
    the parent's.  It is off with worrying back, which its proof excludes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.rules import MAX_PILES
from .capacity import prefix_length
from .codes import (
    BOTTOM,
    EMPTY_ANY,
    EMPTY_NONE,
    FOUNDATION,
    M_AUTO_TOP,
    M_IN_PLAY,
    M_LONE,
    MAX_MOVES_PER_NODE,
    WORRY,
    space_takes,
)


def zobrist_keys(seed: int = 20261130) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**64, size=(2, BOTTOM + 1, 52), dtype=np.uint64, endpoint=False)


@njit(cache=True)
def seed_random(seed):
    """Seed numba's generator, which perturbs the move order of restarts (``noise``) and breaks the
    beam's ties."""
    np.random.seed(seed)


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
def apply_move(board, heights, found, zob, keys, meta, src, dst):
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
def undo_move(board, heights, found, zob, keys, meta, src, dst, card):
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
                apply_move(board, heights, found, zob, keys, meta, p, FOUNDATION)
                top = meta[M_AUTO_TOP]
                auto_src[top] = p
                auto_card[top] = card
                meta[M_AUTO_TOP] = top + 1
                played += 1
                again = True
                lowest = min(found[0], found[1], found[2], found[3])
    return played


@njit(cache=True)
def undo_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card, count):
    for _ in range(count):
        top = meta[M_AUTO_TOP] - 1
        undo_move(board, heights, found, zob, keys, meta, auto_src[top], FOUNDATION, auto_card[top])
        meta[M_AUTO_TOP] = top



# Regions of the int32 scratch array: relaxed_dead's (per pile, per rank 0..15, per suit,
# per rank, per card), then generate_moves's (per pile, per pile, per move).  Numba does not
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
def generate_moves(
    board, heights, found, nranks, empty_rule, worry, out_src, out_dst, start, scratch, noise, meta,
    origin, origin_heights,
):  # fmt: skip
    """Write the moves of the position at ``out[start:]``; returns how many.

    Order (it decides how fast wins are found, never what is found):
    foundation moves first; then moves of cards still where they were dealt
    (in their pile's prefix against ``origin``, :mod:`solver.kernels.capacity`)
    before cards moved already; among those, moves off the pile that buries
    the card closest to going up; among those, onto the pile that buries
    nothing needed soon.  ``noise`` > 0 perturbs that order at random, for
    restarts.  (Dealt cards first is the order of the walk of the real game,
    :mod:`solver.kernels.suitblind`, which won deals this search missed; in this
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

