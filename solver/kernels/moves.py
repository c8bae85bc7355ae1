"""Numba kernel of move generation: the moves of a position, in the order the searches try them, under
every building rule, with the lone-card rule.  Plain arrays in, plain arrays out.

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
    move, and pruning it loses no win.  The mirror holds whatever the
    building rule (c hosts the same cards in both), but not with worrying
    back, runs (in T' a run could take y along below c) or a redeal left
    (moving c changes how a redeal cuts the piles).  It speaks of places,
    never of which card is which, so it holds with two decks as well.
    Checked by:
      tests/kernels/test_moves.py::test_the_lone_card_rule_leaves_a_win_wherever_there_is_one (the claim)
      tests/kernels/test_moves.py::test_generated_moves_are_the_plain_rules_s (the kernel is the statement)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .codes import (
    EMPTY_ANY,
    EMPTY_NONE,
    FOUNDATION,
    M_LONE,
    M_REDEALS,
    REDEAL,
    S_DST_NEED,
    S_SORT,
    S_SRC_NEED,
    S_TWIN,
    SEQUENCE,
    WORRY,
    builds_on,
    max_run,
    space_takes,
)
from .position import is_down, need, prefix_length


@njit(cache=True, inline="always")
def _has_twin_before(board, heights, p):
    """Whether a pile before pile p holds exactly its cards (only two decks make such twins)."""
    h = heights[p]
    for q in range(p):
        if heights[q] != h:
            continue
        i = h - 1
        while i >= 0 and board[q, i] == board[p, i]:
            i -= 1
        if i < 0:
            return True
    return False


@njit(cache=True, inline="always")
def sort_moves(out_src, out_dst, scratch, start, first, end):
    """Sort the moves ``out[first:end]`` by their keys ``scratch[S_SORT + i - start]``, least first, ties in
    the order they have (an insertion sort: a position has a few dozen moves)."""
    for i in range(first + 1, end):
        s, d, key = out_src[i], out_dst[i], scratch[S_SORT + i - start]
        j = i - 1
        while j >= first and scratch[S_SORT + j - start] > key:
            out_src[j + 1] = out_src[j]
            out_dst[j + 1] = out_dst[j]
            scratch[S_SORT + j + 1 - start] = scratch[S_SORT + j - start]
            j -= 1
        out_src[j + 1] = s
        out_dst[j + 1] = d
        scratch[S_SORT + j + 1 - start] = key


@njit(cache=True, inline="always")
def _order_key(moved, src_need, dst_need, noise):
    key = moved + src_need * 32 + 31 - dst_need
    return key * 8 + (np.random.randint(0, 8 * noise + 1) if noise else 0)


@njit(cache=True)
def generate_moves(board, heights, found, rules, out_src, out_dst, start, scratch, noise, meta, origin, origin_heights):
    """Write the moves of the position at ``out[start:]``; returns how many.

    Order (it decides how fast wins are found, never what is found):
    foundation moves first; then moves of cards still where they were dealt
    (in their pile's prefix against ``origin``, :mod:`solver.kernels.capacity`)
    before cards moved already; among those, moves off the pile that buries
    the card closest to going up; among those, onto the pile that buries
    nothing needed soon; a redeal last.  ``noise`` > 0 perturbs that order at
    random, for restarts.  (Dealt cards first is the order of the walk of the
    real game, :mod:`solver.kernels.suitblind`, which won deals this search
    missed; in this search it won Good Measure 876, 710 and 712 at 60 s, by
    depth-first search, where the old order left them unknown or to a late
    beam or walk.)

    While a redeal is left, a card may go into any empty pile, even from a
    pile of its own (a redeal reads the piles in order, so which pile holds
    what matters); else a card (or a run, where the rules let one into an
    empty pile) goes into the first empty pile only, from a pile where it
    leaves a card beneath it (the other moves make the same position up to
    pile order).  Two decks, no redeal left: of piles that hold exactly the
    same cards ("twins"), only the first is a source or a target; a move
    from or onto a later twin makes the position of the same move from or
    onto the first one with the two piles swapped, and with no redeal
    left the order of the piles changes nothing that any move can do.  A
    run is of face-up cards, each built on the one beneath, and no longer
    than the rules' limit (``codes.max_run``).

    A card back from a foundation (worrying back) goes where any card may,
    by the same two rules: into the first empty pile only once no redeal is
    left, and onto no later twin.  Two decks: a suit's lower foundation
    gives back its top card only where the higher one's top is of another
    rank; where both show the same card, taking it from either leaves the
    same position (``position.apply_move`` takes it from the lower one, so
    that the higher one stays the higher)."""
    nranks, empty_rule, worry, build, both_ways = rules.ranks, rules.empty, rules.worry, rules.build, rules.both_ways
    piles = board.shape[0]
    redeals = meta[M_REDEALS]
    n = start
    first_empty = -1
    spaces = 0
    spaces_useless = empty_rule != EMPTY_ANY and rules.lone and redeals == 0
    twins = found.shape[0] > 4 and redeals == 0
    for p in range(piles):
        h = heights[p]
        scratch[S_TWIN + p] = 1 if twins and h > 0 and _has_twin_before(board, heights, p) else 0
        buried, whole = 99, 99
        for i in range(h):
            k = need(board[p, i], found)
            if i < h - 1:
                buried = min(buried, k)
            whole = min(whole, k)
            if i > 0 and board[p, i] // 4 + 1 == nranks:
                spaces_useless = spaces_useless and empty_rule == EMPTY_NONE
        scratch[S_SRC_NEED + p] = min(buried, 20)
        scratch[S_DST_NEED + p] = min(whole, 20)
        if h == 0:
            spaces += 1
            if first_empty < 0:
                first_empty = p
    onto_card, into_space = max_run(rules, spaces, False), max_run(rules, spaces, True)
    for p in range(piles):
        if heights[p] > 0 and scratch[S_TWIN + p] == 0 and need(board[p, heights[p] - 1], found) == 1:
            out_src[n] = p
            out_dst[n] = FOUNDATION
            n += 1
    n_found = n
    for p in range(piles):
        h = heights[p]
        if h == 0 or scratch[S_TWIN + p] == 1:
            continue
        card = board[p, h - 1]
        moved = (1 << 12) if prefix_length(board, heights, origin, origin_heights, p) < h else 0
        src_need = scratch[S_SRC_NEED + p]
        if h == 1 and spaces_useless:
            for q in range(piles):
                if heights[q] > 0 and builds_on(board[q, heights[q] - 1], card, build, both_ways):
                    meta[M_LONE] += 1  # a move pruned by the lone-card rule (counted for the tests)
                    break
            continue
        count = 1
        while True:  # the runs off the top of the pile, one card first, each of face-up cards within the limit
            for q in range(piles):
                if (
                    q != p
                    and heights[q] > 0
                    and scratch[S_TWIN + q] == 0
                    and builds_on(board[q, heights[q] - 1], card, build, both_ways)
                ):
                    out_src[n] = p + SEQUENCE * (count - 1)
                    out_dst[n] = q
                    scratch[S_SORT + n - start] = _order_key(moved, src_need, scratch[S_DST_NEED + q], noise)
                    n += 1
            if count == h or count >= onto_card:
                break
            below = board[p, h - count - 1]
            if is_down(meta, below) or not builds_on(below, card, build, both_ways):
                break
            count += 1
            card = board[p, h - count]
        if first_empty < 0:
            continue
        for size in range(1, min(count, into_space) + 1):  # into an empty pile: the first only, but a redeal left
            card = board[p, h - size]
            if not space_takes(card // 4 + 1, nranks, empty_rule):
                continue
            for q in range(first_empty, piles):
                if heights[q] == 0 and (redeals != 0 or (q == first_empty and h > size)):
                    out_src[n] = p + SEQUENCE * (size - 1)
                    out_dst[n] = q
                    scratch[S_SORT + n - start] = _order_key(moved, src_need, 0, noise)
                    n += 1
    if worry:  # last in the order: a card that is up is rarely needed back
        for f in range(found.shape[0]):
            rank = found[f]
            # Two decks: a suit's lower foundation only where its top is another rank than the higher's (else
            # the same card comes back to the same position: position.py, ``apply_move``).
            if rank == 0 or (f >= 4 and rank == found[f - 4]):
                continue
            card = (rank - 1) * 4 + f % 4
            for q in range(piles):
                if heights[q] > 0:
                    fits = scratch[S_TWIN + q] == 0 and builds_on(board[q, heights[q] - 1], card, build, both_ways)
                else:  # into the first empty pile, or any while a redeal is left (the order of piles counts)
                    fits = (q == first_empty or redeals != 0) and space_takes(rank, nranks, empty_rule)
                if fits:
                    out_src[n] = WORRY + f
                    out_dst[n] = q
                    scratch[S_SORT + n - start] = 1 << 20
                    n += 1
    if redeals != 0:
        out_src[n] = REDEAL
        out_dst[n] = 0
        scratch[S_SORT + n - start] = 1 << 21
        n += 1
    sort_moves(out_src, out_dst, scratch, start, n_found, n)
    return n - start
