"""Numba kernels of one position: its hash, and moves made and undone on it (runs, redeals, face-down
cards turned).  Plain arrays in, plain arrays out.  What the searches do with a position is proved
beside the code that does it: the safe moves in :mod:`solver.kernels.safe_moves`, the moves generated
in :mod:`solver.kernels.moves`, the first dead-position test in :mod:`solver.kernels.dead`.

Position
    ``board[p, i]`` card codes of pile p from the bottom, ``heights[p]``,
    ``found[s]`` how many cards of suit s are on its foundation, and
    ``meta[M_REDEALS]`` the redeals left.  Two decks (Unusual, Baker's Dozen
    (2 decks)): the two copies of a card have the same code, so nothing
    tells them apart, and ``found`` has eight entries, the heights of suit
    s's two foundations, the higher at s and the lower at 4 + s; a card goes
    onto the higher one when it takes it, else onto the lower one (which
    keeps the higher one the higher), and a move taken back takes the card
    off the lower one when its top card is that card, else off the higher
    one (``_taking``, ``_holding``: each undoes the other in both cases).  Where foundations build down from
    the King (Royal Family), the driver hands the kernels every rank turned
    over (rank r plays rank R + 1 - r): their foundations then build up, and
    building up or down, the only building rule of those games, reads the
    same both ways.
    Checked by:
      tests/kernels/test_moves.py::test_kernel_moves_are_the_engine_s_and_play_alike (moves made and taken back)
      tests/search/test_arrays.py::test_royal_family_cards_turn_over_for_the_kernel
Hash
    Two independent 64-bit Zobrist hashes, each the XOR over the cards in
    the tableau of a random key for the pair (card, the card directly beneath
    it, or row ``BOTTOM + p`` for the bottom card of pile p), and, while
    redeals are left and run out, a key for their number.  The pairs fix
    every pile and which pile each is, and a move changes two pairs (a run
    moving as a unit too: only its bottom card changes what it rests on),
    O(1) per move; a redeal hashes the position anew.  In games without
    redeals the driver hands the kernels keys whose rows ``BOTTOM + p`` are
    all the same, so positions that differ only by pile order hash alike:
    without a redeal, the order of the piles changes nothing that any move
    can do.  A redeal reads the piles in order, so where one may come the
    keys tell the piles apart.
    Face-down cards (Castles in Spain, Martha) add a key each, row DOWN_ROW,
    while they are face down: whether a card is face down changes which
    runs may move, so it is part of the position (``meta[M_DOWN]`` holds
    them, a bit per card).  A move that uncovers one turns it up, and its
    undo turns it down again.  The table stores 95 bits of the
    pair (the first hash but its lowest bit, the second's high half);
    treating equal keys as equal positions errs with chance about n^2 / 2^96
    for n stored positions (below 10^-12 for the 10^8 that fit in 2 GiB).
    Two decks key a card by its place instead, the pair (card, pile p and
    height i: row POSITIONAL_ROW + p * PILE_ROWS + i).  Keyed by the card
    beneath, two copies would make different positions hash alike: piles
    "a 6S 5H" and "b 6S" hold the same pairs as "a 6S" and "b 6S 5H".  Keyed
    by place, the key is the XOR over the cards of a key per (card, place):
    each place holds at most one card, so the set of (card, place) pairs is
    the position and equal positions hash alike whichever copy lies where,
    as nothing tells the copies apart.  The keys carry the choice: those
    with the positional rows (``zobrist_keys(positional=True)``) key by
    place.  The price is that positions differing only by pile order no
    longer hash alike; where no redeal is left, ``generate_moves``
    (:mod:`solver.kernels.moves`) skips the moves that would make such a
    position at once (its "twins").
    Checked by:
      tests/kernels/test_moves.py::test_kernel_moves_are_the_engine_s_and_play_alike (the hash kept = the hash anew)
      tests/kernels/test_position.py::test_keys_tell_apart_what_a_redeal_tells_apart
      tests/kernels/test_position.py::test_keys_tell_a_face_down_card_from_a_face_up_one
      tests/kernels/test_position.py::test_positional_keys_tell_apart_what_pairs_cannot
      (The chance that two positions share a key is not tested.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..limits import MAX_PILES, PILE_ROWS
from .codes import (
    BOTTOM,
    BUILD_ALTERNATE,
    BUILD_SUIT,
    DOWN_ROW,
    FLIPPED,
    FOUNDATION,
    M_DOWN,
    M_IN_PLAY,
    M_REDEALS,
    POSITIONAL_ROW,
    REDEAL,
    REDEALS_ROW,
    S_DEAL,
    SEQUENCE,
    UNLIMITED,
    WORRY,
)


def zobrist_keys(ordered: bool, positional: bool = False, seed: int = 20261130) -> np.ndarray:
    """The position keys (module text, "Hash"); ``ordered``: the piles' bottom rows differ; ``positional``:
    with the rows that key a card by its place (two decks), which make the kernels key by place."""
    rng = np.random.default_rng(seed)
    zobrist = rng.integers(0, 2**64, size=(2, REDEALS_ROW + 1, 52), dtype=np.uint64, endpoint=False)
    if not ordered:
        zobrist[:, BOTTOM : BOTTOM + MAX_PILES] = zobrist[:, BOTTOM : BOTTOM + 1]
    down = np.random.default_rng(seed + 1).integers(0, 2**64, size=(2, 1, 52), dtype=np.uint64, endpoint=False)
    parts = [zobrist, down]  # row DOWN_ROW drawn apart: the older rows keep their keys
    if positional:
        places = (2, MAX_PILES * PILE_ROWS, 52)
        parts.append(np.random.default_rng(seed + 2).integers(0, 2**64, size=places, dtype=np.uint64, endpoint=False))
    return np.concatenate(parts, axis=1)


def streamlined_keys(zobrist: np.ndarray, build: int) -> np.ndarray:
    """Keys that know a position only by what the building rule reads of each card (its rank; with
    alternate colours its rank and colour), keyed by place: from the positional keys ``zobrist``, each card's
    column becomes that of the first card alike.

    Keyed by place, equal keys mean the same cards-as-the-rule-reads-them in every place of every pile;
    keyed by the card beneath (the pairs of "Hash"), forgetting suits would not: a 5 moved from one 6
    onto another leaves the same pairs and another position.  Positions equal under these keys are not
    equivalent -- which suits are up differs -- so a search under them is incomplete: it finds real wins
    (its moves are the real game's) and proves nothing lost (:mod:`solver.search.streamline`).  The
    redeal and face-down rows are kept whole: their columns are counts and cards turned, not places."""
    alike = np.arange(52)
    if build == BUILD_ALTERNATE:
        alike = (alike // 4) * 4 + np.isin(alike % 4, (1, 2))  # red: diamonds and hearts (codes.is_red)
    elif build != BUILD_SUIT:
        alike = (alike // 4) * 4
    keys = zobrist.copy()
    keys[:, POSITIONAL_ROW:] = zobrist[:, POSITIONAL_ROW:][:, :, alike]
    return keys


@njit(cache=True, inline="always")
def is_positional(zobrist):
    """Whether ``zobrist`` keys a card by its place, pile and height (two decks), or by the card beneath it."""
    return zobrist.shape[1] > POSITIONAL_ROW


@njit(cache=True, inline="always")
def _row(board, p, i, positional):
    """The hash row of a card at height i of pile p: its place, or the card beneath it (module text, "Hash")."""
    if positional:
        return POSITIONAL_ROW + p * PILE_ROWS + i
    return board[p, i - 1] if i >= 1 else BOTTOM + p


@njit(cache=True)
def seed_random(seed):
    """Seed numba's generator, which perturbs the move order of restarts (``noise``) and breaks the
    beam's ties."""
    np.random.seed(seed)


@njit(cache=True)
def hash_into(board, heights, zobrist, redeals, keys, down=0):
    """Write the position's two hashes into ``keys`` (``down``: the face-down cards, a bit per card)."""
    keys[0] = 0
    keys[1] = 0
    positional = is_positional(zobrist)
    for p in range(board.shape[0]):
        for i in range(heights[p]):
            row = _row(board, p, i, positional)
            keys[0] ^= zobrist[0, row, board[p, i]]
            keys[1] ^= zobrist[1, row, board[p, i]]
    if redeals > 0:
        keys[0] ^= zobrist[0, REDEALS_ROW, redeals]
        keys[1] ^= zobrist[1, REDEALS_ROW, redeals]
    for card in range(52):
        if (down >> card) & 1:
            keys[0] ^= zobrist[0, DOWN_ROW, card]
            keys[1] ^= zobrist[1, DOWN_ROW, card]


@njit(cache=True)
def position_hash(board, heights, zobrist, redeals, down):
    keys = np.zeros(2, dtype=np.uint64)
    hash_into(board, heights, zobrist, redeals, keys, down)
    return keys


@njit(cache=True, inline="always")
def is_down(meta, card):
    return (meta[M_DOWN] >> card) & 1 == 1


@njit(cache=True)
def _turn(zobrist, keys, meta, card):
    """Turn ``card`` over, face up or face down again."""
    meta[M_DOWN] ^= np.int64(1) << card
    keys[0] ^= zobrist[0, DOWN_ROW, card]
    keys[1] ^= zobrist[1, DOWN_ROW, card]


@njit(cache=True)
def _turn_up_top(board, heights, zobrist, keys, meta, p):
    """Turn pile p's top card face up if a move has just uncovered it face down; returns FLIPPED if so."""
    if heights[p] > 0 and is_down(meta, board[p, heights[p] - 1]):
        _turn(zobrist, keys, meta, board[p, heights[p] - 1])
        return FLIPPED
    return 0


@njit(cache=True, inline="always")
def _toggle(board, zobrist, keys, p, i, positional):
    """Put the card at height i of pile p in the hash, or take it out."""
    row = _row(board, p, i, positional)
    keys[0] ^= zobrist[0, row, board[p, i]]
    keys[1] ^= zobrist[1, row, board[p, i]]


@njit(cache=True)
def _lift(board, heights, zobrist, keys, p):
    """Take the top card off pile p; returns it."""
    _toggle(board, zobrist, keys, p, heights[p] - 1, is_positional(zobrist))
    heights[p] -= 1
    return np.int64(board[p, heights[p]])


@njit(cache=True)
def _drop(board, heights, zobrist, keys, p, card):
    board[p, heights[p]] = card
    _toggle(board, zobrist, keys, p, heights[p], is_positional(zobrist))
    heights[p] += 1


@njit(cache=True)
def _move_run(board, heights, zobrist, keys, p, q, count):
    """Move the top ``count`` cards of pile p onto pile q as a unit; returns the run's bottom card.  Keyed by
    the card beneath, only the run's bottom card changes its key; keyed by place, every card does."""
    positional = is_positional(zobrist)
    start = heights[p] - count
    for i in range(count if positional else 1):
        _toggle(board, zobrist, keys, p, start + i, positional)
    for i in range(count):
        board[q, heights[q] + i] = board[p, start + i]
    for i in range(count if positional else 1):
        _toggle(board, zobrist, keys, q, heights[q] + i, positional)
    heights[q] += count
    heights[p] = start
    return board[p, start]


@njit(cache=True)
def apply_move(board, heights, found, zobrist, keys, meta, src, dst):
    """Play a move (not a redeal); returns the card moved (a run's bottom card), plus FLIPPED where the
    move turned up the card it uncovered (``undo_move`` turns it down again)."""
    if src >= SEQUENCE:
        card = _move_run(board, heights, zobrist, keys, src % SEQUENCE, dst, src // SEQUENCE + 1)
        return card + _turn_up_top(board, heights, zobrist, keys, meta, src % SEQUENCE)
    if src >= WORRY:
        f = src - WORRY  # a foundation; two decks: a suit's higher one first (found[s] >= found[4 + s])
        if f < 4 and found.shape[0] > 4 and found[f] == found[f + 4]:
            f += 4  # the same card from the lower one keeps the higher one the higher
        card = (found[f] - 1) * 4 + f % 4
        found[f] -= 1
        meta[M_IN_PLAY] += 1
        _drop(board, heights, zobrist, keys, dst, card)
        return card
    card = _lift(board, heights, zobrist, keys, src)
    if dst == FOUNDATION:
        found[_taking(found, card)] += 1
        meta[M_IN_PLAY] -= 1
    else:
        _drop(board, heights, zobrist, keys, dst, card)
    return card + _turn_up_top(board, heights, zobrist, keys, meta, src)


@njit(cache=True)
def undo_move(board, heights, found, zobrist, keys, meta, src, dst, card):
    """Take back a move; ``card`` is what ``apply_move`` returned."""
    if card >= FLIPPED:
        card -= FLIPPED
        p = src % SEQUENCE
        _turn(zobrist, keys, meta, board[p, heights[p] - 1])
    if src >= SEQUENCE:
        _move_run(board, heights, zobrist, keys, dst, src % SEQUENCE, src // SEQUENCE + 1)
        return
    if src >= WORRY:
        _lift(board, heights, zobrist, keys, dst)
        found[_taking(found, card)] += 1  # back where it came from: the foundation that takes it, as it was
        meta[M_IN_PLAY] -= 1
        return
    if dst == FOUNDATION:
        found[_holding(found, card)] -= 1
        meta[M_IN_PLAY] += 1
    else:
        _lift(board, heights, zobrist, keys, dst)
    _drop(board, heights, zobrist, keys, src, card)


@njit(cache=True, inline="always")
def _taking(found, card):
    """The foundation that takes ``card``, which one does: its suit's (two decks: the higher of its suit's
    two, found[s], if that one takes it, else the lower, found[4 + s], so the higher stays the higher)."""
    suit = card % 4
    return suit if found.shape[0] == 4 or found[suit] == card // 4 else suit + 4


@njit(cache=True, inline="always")
def _holding(found, card):
    """The foundation whose top card is ``card``, which one is: the one ``_taking`` put it on (two decks:
    the lower one if it is there, which undoes either case of ``_taking``)."""
    suit = card % 4
    return suit + 4 if found.shape[0] > 4 and found[suit + 4] == card // 4 + 1 else suit


@njit(cache=True, inline="always")
def need(card, found):
    """How many cards of its suit must go up before this one can (two decks: onto the higher foundation
    of its suit, unless that one holds the card's rank already)."""
    rank = card // 4 + 1
    top = found[card % 4]
    if top >= rank and found.shape[0] > 4:
        top = found[4 + card % 4]
    return rank - top


@njit(cache=True)
def prefix_length(board, heights, origin, origin_heights, p):
    """How many bottom cards of pile p are the origin's: its prefix (:mod:`solver.kernels.capacity`,
    "Abstract position"), which the capacity test abstracts to and the move order reads."""
    n = 0
    while n < heights[p] and n < origin_heights[p] and board[p, n] == origin[p, n]:
        n += 1
    return n


@njit(cache=True, inline="always")
def _in_fours_reversed(k, n):
    """Where the k-th of n cards goes when each four of them (the last maybe fewer) is reversed: the
    talon's order of a redeal from its reading order (solver/game/engine.py, ``redealt``), and back."""
    chunk = (k // 4) * 4
    return min(chunk + 4, n) - 1 - (k - chunk)


@njit(cache=True)
def redeal(board, heights, zobrist, keys, meta, saved, scratch):
    """Play a redeal, as ``redealt`` does; ``saved`` keeps the heights it cut, for ``undo_redeal``."""
    piles = board.shape[0]
    n = 0
    for p in range(piles):  # the reading: piles in order, each from its top down
        saved[p] = heights[p]
        for i in range(heights[p] - 1, -1, -1):
            scratch[S_DEAL + n] = board[p, i]
            n += 1
    extra = max(n - 4 * piles, 0)  # four a pile; the first ones take one more each in turn if that is too few
    k = 0
    for p in range(piles):
        size = min(4 + extra // piles + (1 if p < extra % piles else 0), n - k)
        for i in range(size):
            board[p, i] = scratch[S_DEAL + _in_fours_reversed(k, n)]
            k += 1
        heights[p] = size
    if meta[M_REDEALS] > 0:
        meta[M_REDEALS] -= 1
    hash_into(board, heights, zobrist, meta[M_REDEALS], keys, meta[M_DOWN])


@njit(cache=True)
def undo_redeal(board, heights, zobrist, keys, meta, saved, scratch):
    """Take a redeal back: the piles in order, each from the bottom up, are the talon's order; turned back
    into the reading, cut by the saved heights."""
    n = 0
    for p in range(board.shape[0]):
        for i in range(heights[p]):
            scratch[S_DEAL + n] = board[p, i]
            n += 1
    k = 0
    for p in range(board.shape[0]):
        heights[p] = saved[p]
        for i in range(saved[p] - 1, -1, -1):
            board[p, i] = scratch[S_DEAL + _in_fours_reversed(k, n)]
            k += 1
    if meta[M_REDEALS] != UNLIMITED:
        meta[M_REDEALS] += 1
    hash_into(board, heights, zobrist, meta[M_REDEALS], keys, meta[M_DOWN])


@njit(cache=True)
def play(board, heights, found, zobrist, keys, meta, src, dst, saved, scratch):
    """Play a move or a redeal (whose heights before ``saved`` keeps); returns the card moved (-1: a redeal)."""
    if src == REDEAL:
        redeal(board, heights, zobrist, keys, meta, saved, scratch)
        return -1
    return apply_move(board, heights, found, zobrist, keys, meta, src, dst)


@njit(cache=True)
def take_back(board, heights, found, zobrist, keys, meta, src, dst, card, saved, scratch):
    """Undo ``play``."""
    if src == REDEAL:
        undo_redeal(board, heights, zobrist, keys, meta, saved, scratch)
    else:
        undo_move(board, heights, found, zobrist, keys, meta, src, dst, card)
