"""Numba kernels of one position: its hash, moves made and undone, the safe moves, the moves
generated, and the first dead-position test.  Plain arrays in, plain arrays out.

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
    longer hash alike; where no redeal is left, ``generate_moves`` skips
    the moves that would make such a position at once (its "twins").
Safe foundation moves (``play_safe_moves``)
    None while a redeal is left: a card that goes up changes how a redeal
    cuts the piles, so a line cannot be rearranged around it (KernelRules.safe
    holds for the rules, meta[M_REDEALS] == 0 for the position).  Then four
    rules, by how the tableau builds (SAFE_* in solver/kernels/codes.py):
    SAFE_LOW.  In these games -- one card moves at a time, tableau builds down by rank
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
    Premises: single-card moves, build down (by rank in any suit, or by
    alternate colour, where c hosts fewer cards and each x fewer still, so
    every step above holds as it stands), no worrying back (with it, the
    search plays no safe moves).  What an empty pile takes does not matter:
    W' never has fewer empty piles than W.
    SAFE_SUIT.  Building by suit, down, or up or down one card at a time, a card c
    of rank r whose foundation is at r-1 may go up at once, whatever the other
    foundations.  Building down, c hosts only the card one rank lower of its
    suit, which is up: the proof above with no x at all (and with runs, as
    in Perseverance, c is the top card of any run W moves it in, since
    nothing is ever put on it: W' moves the rest of the run, the same cards
    onto the same host, or nothing when c was the whole run).  Building up
    or down, c hosts only the card of rank r+1 of its suit.  Call removed
    the cards that W' has played up ahead of W: at first c alone; where W puts
    a card onto a removed card, or moves a removed card, W' plays that card
    up (or drops the move).  The removed cards are always the ranks r..m of
    c's suit, with the foundation of W' at m: a card put on a removed card y
    is y-1 or y+1 of the suit; y-1 is up or removed (so never moved in W'),
    and y+1 is removed already or is m+1, which goes up at once.  Everything
    W puts on a removed card is removed, so the piles of W' are W's with
    the removed cards taken off their tops, and every other move of W is
    played the same: its card is on top in both, its host is no removed
    card, an empty pile of W is empty in W', and a foundation move of a card
    that is not removed finds its foundation of W' where W's is (the card
    lies above m).  W' wins and is no longer than W (each dropped move
    stands for a foundation move of W that W' has played).
    SAFE_ALTERNATE.  Building down by alternate colour (Castles in Spain,
    Martha, Vineyard), single cards or runs -- whatever limits runs, so long
    as a run allowed is still allowed when it is shorter or when more piles
    are empty, and whatever an empty pile takes -- face-down cards or not:
    a red card c of rank r whose foundation is at r-1 may go up at once when
    both black foundations are at r-2 or more and the other red one at r-3
    or more (black c: the colours swapped).  This is Blake & Gent's rule.
    Proof: only a black r-1 card (call each x) may be put on c, only a red
    r-2 card on an x, and that is y, the other red suit's (c's own r-2 is
    up); nothing may be put on y, since every black r-3 is up.  While x is
    in the tableau its foundation is exactly at r-2, and y's at r-3, so each
    may go up whenever it is on top.  Take a winning line W.  W' plays c up,
    then follows W, keeping a set R of "removed" cards: at first c; where W
    moves cards onto a removed card (they are x or y: an x, or y, or x with
    y on it), W' plays up those not in R yet, top first, and adds them to R
    (y may be in R already, resting on an x that is not: then x alone goes); where W moves
    a card of R up, W' drops the move (the card leaves R); where W moves a
    run whose upper part is in R, W' moves the rest, the same way (nothing,
    when the whole run is in R).  Invariant: the piles of W' are W's with a
    top segment of cards of R taken off each (everything W puts on a card of
    R joins R), and each foundation of W' is W's plus the cards of R of its
    suit, which are the next ranks (R holds at most one card of each suit:
    c; an x of each black suit, when W's foundation is at r-2; y, when its
    foundation is at r-3).  So every move W' keeps is legal: its cards are
    on top in W' too and still a run, face up (a card turned up in W has
    been on top in W, so in W' too, and stays up), no longer than in W;
    its target is the same card, or an empty pile that is empty in W' too;
    every pile empty in W is empty in W', so no limit shrinks; a foundation
    move of a card z not in R finds its foundation as in W (a card of R of
    z's suit would have z's rank).  And the cards W' plays up for R go up
    legally, by the ranks above.  W' ends with the piles empty; it plays
    one foundation move per card that ever joins R and W's other moves at
    most once, while W plays each of those cards up itself: W' is no longer.
    With c's rank at most the lowest foundation + 2 (SAFE_LOW's premise)
    the premises hold, so this rule plays every move SAFE_LOW would, and
    more.
    SAFE_NO_HOSTS.  Any other rules, single-card moves: a card may go up at once
    when every card it could host is up (building up or down by alternate
    colour, rank r: the other colour's foundations at r+1 or more).  It is
    the proof above with no x: nothing is ever put on c, so W' is W with c
    played first and its moves dropped.
    Two decks (building down by rank or by suit, one card at a time, no
    worrying back: ``unsupported`` refuses the rest).  Each suit has two
    foundations and each card two copies.  Write n(k) for how many copies of
    rank k of a suit are up: each foundation holds the ranks from the Ace to
    its top, so n(k) is how many of the suit's two foundations reach k, n
    never rises with k, and a card of rank k may go up exactly when
    n(k-1) > n(k) (n(0) = 2).  SAFE_LOW and SAFE_SUIT hold with one more
    premise, checked in ``_safe``: both copies of c's rank r-1 are up, that
    is the lower foundation of c's suit is at r-1 or more.  The proofs go
    through with "the foundation of x is at r-2" read as "both copies of
    rank r-2 are up" (SAFE_LOW's premise, every foundation at r-2 or more,
    now counts all eight), which is what they use: no card may go on x, and
    x may go up when on top (n(r-2) = 2 > n(r-1), since x is not up).  Under
    SAFE_SUIT c hosts only its suit's r-1, both copies up by the premise, so
    nothing is put on c.  What is new is that the foundation moves W keeps
    must stay legal in W', whose cards up are W's plus the removed set R.
    A move of a card z (rank k) that W makes has n(k-1) > n(k) in W; in W'
    the left side gains R's copies of rank k-1 of z's suit, the right side
    R's copies of rank k.  Only when R holds a copy of z's own rank and suit
    can that break: that copy is c or an x, and z, not in R, is its other
    copy.  If it is c: n(r-1) = 2 (the premise; cards never come back), and
    n(r) = 0 in W, since c is not up in W (else it would have left R) nor
    is z (W is playing it now), so W' has n(r) = 1 < 2.  If it is an x: n(r-2)
    = 2, and in W neither x nor z is up, so n(r-1) = 0 there and 1 in W'.
    Either way the move is legal in W'.  The cards W' plays up for R go up
    legally as in one deck: c by the premise; an x because both copies of
    rank r-2 are up and at most one copy of x's rank and suit is up in W':
    x itself is neither up in W nor in R (its other copy may be either).
    W' is no longer than W, as before.
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
Dead positions (``relaxed_dead``)
    Only once no redeal is left (a redeal takes every card out of its pile);
    with runs, only where the tableau builds down (KernelRules.dead).
    Relax the game: a card may leave its pile when some card that may host
    it under the building rule (one rank higher in any suit, in Baker's
    Dozen) is the top card of another pile (of the piles as the relaxed game
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
    Where runs move as a unit (Perseverance), a card may also leave with
    the cards above it when they form a run on it, each built on the one
    beneath, and it may leave by the rules above.  Every real move takes a
    top segment of a pile, so in each real pile the cards never moved form a
    prefix from the bottom, and the relaxed game's prefix is never longer.
    A real run move whose bottom card t was placed since moves only cards
    that have left their piles already; if t was never moved, the never
    moved cards from t up lie in the run, the relaxed game's cards from t up
    (if any are still in its prefix) form a run too, and t's host is a top
    card of another real pile, so of the relaxed prefix or freed: the
    relaxed game lets t leave with the cards above it; where the real run
    goes into an empty pile (Castles in Spain), that pile is empty in the
    relaxed game too (its prefix is never longer), and t may leave by the
    empty-pile rule.  Runs are of face-up cards and limited in length in
    the real game; the relaxed game allows more, which it may.  (Building down, a
    card's host is never one of the cards above it, so "a top card of
    another pile" means what it says.)
    Two decks: the counts per card (on top, left its pile) count copies,
    and a card may go up in the relaxed game when some foundation of its
    suit may reach one rank below it from the higher foundation through
    cards that have left their piles (a copy of each rank between will do).
    A real foundation move needs a foundation at rank-1, and the cards on
    either foundation above the higher one's height here have all left
    their piles, so it is a relaxed move.
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

from ..limits import MAX_PILES
from .capacity import prefix_length
from .codes import (
    BOTTOM,
    BUILD_RANK,
    DOWN_ROW,
    EMPTY_ANY,
    EMPTY_NONE,
    FLIPPED,
    FOUNDATION,
    M_AUTO_TOP,
    M_DOWN,
    M_IN_PLAY,
    M_LONE,
    M_REDEALS,
    M_SAFE,
    MAX_CARDS,
    MAX_MOVES_PER_NODE,
    PILE_ROWS,
    POSITIONAL_ROW,
    REDEAL,
    REDEALS_ROW,
    SAFE_ALTERNATE,
    SAFE_LOW,
    SAFE_OFF,
    SAFE_SUIT,
    SEQUENCE,
    UNLIMITED,
    WORRY,
    builds_on,
    max_run,
    space_takes,
)


def zobrist_keys(ordered: bool, positional: bool = False, seed: int = 20261130) -> np.ndarray:
    """The position keys (module text, "Hash"); ``ordered``: the piles' bottom rows differ; ``positional``:
    with the rows that key a card by its place (two decks), which make the kernels key by place."""
    rng = np.random.default_rng(seed)
    zob = rng.integers(0, 2**64, size=(2, REDEALS_ROW + 1, 52), dtype=np.uint64, endpoint=False)
    if not ordered:
        zob[:, BOTTOM : BOTTOM + MAX_PILES] = zob[:, BOTTOM : BOTTOM + 1]
    down = np.random.default_rng(seed + 1).integers(0, 2**64, size=(2, 1, 52), dtype=np.uint64, endpoint=False)
    parts = [zob, down]  # row DOWN_ROW drawn apart: the older rows keep their keys
    if positional:
        places = (2, MAX_PILES * PILE_ROWS, 52)
        parts.append(np.random.default_rng(seed + 2).integers(0, 2**64, size=places, dtype=np.uint64, endpoint=False))
    return np.concatenate(parts, axis=1)


@njit(cache=True, inline="always")
def is_positional(zob):
    """Whether ``zob`` keys a card by its place, pile and height (two decks), or by the card beneath it."""
    return zob.shape[1] > POSITIONAL_ROW


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
def hash_into(board, heights, zob, redeals, keys, down=0):
    """Write the position's two hashes into ``keys`` (``down``: the face-down cards, a bit per card)."""
    keys[0] = 0
    keys[1] = 0
    positional = is_positional(zob)
    for p in range(board.shape[0]):
        for i in range(heights[p]):
            row = _row(board, p, i, positional)
            keys[0] ^= zob[0, row, board[p, i]]
            keys[1] ^= zob[1, row, board[p, i]]
    if redeals > 0:
        keys[0] ^= zob[0, REDEALS_ROW, redeals]
        keys[1] ^= zob[1, REDEALS_ROW, redeals]
    for card in range(52):
        if (down >> card) & 1:
            keys[0] ^= zob[0, DOWN_ROW, card]
            keys[1] ^= zob[1, DOWN_ROW, card]


@njit(cache=True)
def position_hash(board, heights, zob, redeals, down):
    keys = np.zeros(2, dtype=np.uint64)
    hash_into(board, heights, zob, redeals, keys, down)
    return keys


@njit(cache=True, inline="always")
def is_down(meta, card):
    return (meta[M_DOWN] >> card) & 1 == 1


@njit(cache=True)
def _turn(zob, keys, meta, card):
    """Turn ``card`` over, face up or face down again."""
    meta[M_DOWN] ^= np.int64(1) << card
    keys[0] ^= zob[0, DOWN_ROW, card]
    keys[1] ^= zob[1, DOWN_ROW, card]


@njit(cache=True)
def _turn_up_top(board, heights, zob, keys, meta, p):
    """Turn pile p's top card face up if a move has just uncovered it face down; returns FLIPPED if so."""
    if heights[p] > 0 and is_down(meta, board[p, heights[p] - 1]):
        _turn(zob, keys, meta, board[p, heights[p] - 1])
        return FLIPPED
    return 0


@njit(cache=True, inline="always")
def _toggle(board, zob, keys, p, i, positional):
    """Put the card at height i of pile p in the hash, or take it out."""
    row = _row(board, p, i, positional)
    keys[0] ^= zob[0, row, board[p, i]]
    keys[1] ^= zob[1, row, board[p, i]]


@njit(cache=True)
def _lift(board, heights, zob, keys, p):
    """Take the top card off pile p; returns it."""
    _toggle(board, zob, keys, p, heights[p] - 1, is_positional(zob))
    heights[p] -= 1
    return np.int64(board[p, heights[p]])


@njit(cache=True)
def _drop(board, heights, zob, keys, p, card):
    board[p, heights[p]] = card
    _toggle(board, zob, keys, p, heights[p], is_positional(zob))
    heights[p] += 1


@njit(cache=True)
def _move_run(board, heights, zob, keys, p, q, count):
    """Move the top ``count`` cards of pile p onto pile q as a unit; returns the run's bottom card.  Keyed by
    the card beneath, only the run's bottom card changes its key; keyed by place, every card does."""
    positional = is_positional(zob)
    start = heights[p] - count
    for i in range(count if positional else 1):
        _toggle(board, zob, keys, p, start + i, positional)
    for i in range(count):
        board[q, heights[q] + i] = board[p, start + i]
    for i in range(count if positional else 1):
        _toggle(board, zob, keys, q, heights[q] + i, positional)
    heights[q] += count
    heights[p] = start
    return board[p, start]


@njit(cache=True)
def apply_move(board, heights, found, zob, keys, meta, src, dst):
    """Play a move (not a redeal); returns the card moved (a run's bottom card), plus FLIPPED where the
    move turned up the card it uncovered (``undo_move`` turns it down again)."""
    if src >= SEQUENCE:
        card = _move_run(board, heights, zob, keys, src % SEQUENCE, dst, src // SEQUENCE + 1)
        return card + _turn_up_top(board, heights, zob, keys, meta, src % SEQUENCE)
    if src >= WORRY:
        suit = src - WORRY
        card = (found[suit] - 1) * 4 + suit
        found[suit] -= 1
        meta[M_IN_PLAY] += 1
        _drop(board, heights, zob, keys, dst, card)
        return card
    card = _lift(board, heights, zob, keys, src)
    if dst == FOUNDATION:
        found[_taking(found, card)] += 1
        meta[M_IN_PLAY] -= 1
    else:
        _drop(board, heights, zob, keys, dst, card)
    return card + _turn_up_top(board, heights, zob, keys, meta, src)


@njit(cache=True)
def undo_move(board, heights, found, zob, keys, meta, src, dst, card):
    """Take back a move; ``card`` is what ``apply_move`` returned."""
    if card >= FLIPPED:
        card -= FLIPPED
        p = src % SEQUENCE
        _turn(zob, keys, meta, board[p, heights[p] - 1])
    if src >= SEQUENCE:
        _move_run(board, heights, zob, keys, dst, src % SEQUENCE, src // SEQUENCE + 1)
        return
    if src >= WORRY:
        _lift(board, heights, zob, keys, dst)
        found[card % 4] += 1
        meta[M_IN_PLAY] -= 1
        return
    if dst == FOUNDATION:
        found[_holding(found, card)] -= 1
        meta[M_IN_PLAY] += 1
    else:
        _lift(board, heights, zob, keys, dst)
    _drop(board, heights, zob, keys, src, card)


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
def _safe(card, found, lowest, rule):
    """Whether ``card``, which a foundation takes, may go up at once under ``rule`` (module text)."""
    rank = card // 4 + 1
    if found.shape[0] > 4 and found[4 + card % 4] < rank - 1:  # two decks: both copies of rank-1 must be up
        return False
    if rule == SAFE_SUIT:
        return True
    if rule == SAFE_LOW:
        return rank <= lowest + 2
    if rule == SAFE_ALTERNATE:  # Blake & Gent's: the other colour at rank-2, the same colour's other suit at rank-3
        red = card % 4 == 1 or card % 4 == 2
        other = min(found[0], found[3]) if red else min(found[1], found[2])
        return other >= rank - 2 and found[3 - card % 4] >= rank - 3
    red = card % 4 == 1 or card % 4 == 2  # SAFE_NO_HOSTS, building up or down by alternate colour
    other = min(found[0], found[3]) if red else min(found[1], found[2])
    return other >= rank + 1


@njit(cache=True, inline="always")
def _lowest(found):
    """found.min(), written out: numba takes a second to compile numpy's."""
    lowest = found[0]
    for f in found:
        lowest = min(lowest, f)
    return lowest


@njit(cache=True)
def play_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card, rule):
    """Play every provably safe foundation move (``rule``: module text); returns how many."""
    played = 0
    again = True
    while again:
        again = False
        lowest = _lowest(found)
        for p in range(board.shape[0]):
            if heights[p] == 0:
                continue
            card = board[p, heights[p] - 1]
            if _need(card, found) == 1 and _safe(card, found, lowest, rule):
                top = meta[M_AUTO_TOP]
                auto_src[top] = p
                auto_card[top] = apply_move(board, heights, found, zob, keys, meta, p, np.int64(FOUNDATION))
                meta[M_AUTO_TOP] = top + 1
                played += 1
                again = True
                lowest = _lowest(found)
    meta[M_SAFE] += played
    return played


@njit(cache=True)
def undo_safe_moves(board, heights, found, zob, keys, meta, auto_src, auto_card, count):
    for _ in range(count):
        top = meta[M_AUTO_TOP] - 1
        src, card = np.int64(auto_src[top]), np.int64(auto_card[top])
        undo_move(board, heights, found, zob, keys, meta, src, np.int64(FOUNDATION), card)
        meta[M_AUTO_TOP] = top


# Regions of the int32 scratch array: relaxed_dead's (per pile, per rank 0..15, per suit,
# per rank, per card, per card), then generate_moves's (per pile, per pile, per move), then a
# redeal's (per card).  Numba does not check bounds, so every region must fit what it is indexed by.
_S_LEFT = 0
_S_TOPS = _S_LEFT + MAX_PILES
_S_FOUND = _S_TOPS + 16
_S_HAVE = _S_FOUND + 4
_S_FREE = _S_HAVE + 16
_S_ON_TOP = _S_FREE + 52
_S_SRC_NEED = _S_ON_TOP + 52
_S_DST_NEED = _S_SRC_NEED + MAX_PILES
_S_TWIN = _S_DST_NEED + MAX_PILES
_S_SORT = _S_TWIN + MAX_PILES
_S_DEAL = _S_SORT + MAX_MOVES_PER_NODE
SCRATCH_SIZE = _S_DEAL + MAX_CARDS


@njit(cache=True, inline="always")
def _in_fours_reversed(k, n):
    """Where the k-th of n cards goes when each four of them (the last maybe fewer) is reversed: the
    talon's order of a redeal from its reading order (solver/game/engine.py, ``redealt``), and back."""
    chunk = (k // 4) * 4
    return min(chunk + 4, n) - 1 - (k - chunk)


@njit(cache=True)
def redeal(board, heights, zob, keys, meta, saved, scratch):
    """Play a redeal, as ``redealt`` does; ``saved`` keeps the heights it cut, for ``undo_redeal``."""
    piles = board.shape[0]
    n = 0
    for p in range(piles):  # the reading: piles in order, each from its top down
        saved[p] = heights[p]
        for i in range(heights[p] - 1, -1, -1):
            scratch[_S_DEAL + n] = board[p, i]
            n += 1
    extra = max(n - 4 * piles, 0)  # four a pile; the first ones take one more each in turn if that is too few
    k = 0
    for p in range(piles):
        size = min(4 + extra // piles + (1 if p < extra % piles else 0), n - k)
        for i in range(size):
            board[p, i] = scratch[_S_DEAL + _in_fours_reversed(k, n)]
            k += 1
        heights[p] = size
    if meta[M_REDEALS] > 0:
        meta[M_REDEALS] -= 1
    hash_into(board, heights, zob, meta[M_REDEALS], keys, meta[M_DOWN])


@njit(cache=True)
def undo_redeal(board, heights, zob, keys, meta, saved, scratch):
    """Take a redeal back: the piles in order, each from the bottom up, are the talon's order; turned back
    into the reading, cut by the saved heights."""
    n = 0
    for p in range(board.shape[0]):
        for i in range(heights[p]):
            scratch[_S_DEAL + n] = board[p, i]
            n += 1
    k = 0
    for p in range(board.shape[0]):
        heights[p] = saved[p]
        for i in range(saved[p] - 1, -1, -1):
            board[p, i] = scratch[_S_DEAL + _in_fours_reversed(k, n)]
            k += 1
    if meta[M_REDEALS] != UNLIMITED:
        meta[M_REDEALS] += 1
    hash_into(board, heights, zob, meta[M_REDEALS], keys, meta[M_DOWN])


@njit(cache=True)
def play(board, heights, found, zob, keys, meta, src, dst, saved, scratch):
    """Play a move or a redeal (whose heights before ``saved`` keeps); returns the card moved (-1: a redeal)."""
    if src == REDEAL:
        redeal(board, heights, zob, keys, meta, saved, scratch)
        return -1
    return apply_move(board, heights, found, zob, keys, meta, src, dst)


@njit(cache=True)
def take_back(board, heights, found, zob, keys, meta, src, dst, card, saved, scratch):
    """Undo ``play``."""
    if src == REDEAL:
        undo_redeal(board, heights, zob, keys, meta, saved, scratch)
    else:
        undo_move(board, heights, found, zob, keys, meta, src, dst, card)


@njit(cache=True, inline="always")
def _host_ready(card, nranks, build, both_ways, scratch):
    """Whether some card that may host ``card`` is a top card or has left its pile (relaxed_dead)."""
    rank = card // 4 + 1
    for step in (1, -1):
        r = rank + step
        if (step == -1 and not both_ways) or r < 1 or r > nranks:
            continue
        for suit in range(4):
            host = (r - 1) * 4 + suit
            if builds_on(host, card, build, both_ways) and (
                scratch[_S_ON_TOP + host] > 0 or scratch[_S_FREE + host] > 0
            ):
                return True
    return False


@njit(cache=True, inline="always")
def _may_leave(card, rules, by_rank, emptied, scratch):
    """Whether the relaxed game lets ``card`` leave its pile, were it the top card (relaxed_dead)."""
    rank = card // 4 + 1
    if by_rank:  # a top of rank+1 is on another pile: this pile's top is `card` itself
        ok = rank < rules.ranks and (scratch[_S_HAVE + rank + 1] > 0 or scratch[_S_TOPS + rank + 1] > 0)
    else:
        ok = _host_ready(card, rules.ranks, rules.build, rules.both_ways, scratch)
    ok = ok or scratch[_S_FOUND + card % 4] >= rank - 1
    return ok or (emptied and space_takes(rank, rules.ranks, rules.empty))


@njit(cache=True)
def safe_moves_hold(rules, meta):
    """Whether the rules' safe-move rule may be played here: it has one, and no redeal is left."""
    return rules.safe != SAFE_OFF and meta[M_REDEALS] == 0


@njit(cache=True)
def dead_here(board, heights, found, rules, scratch, meta):
    """``relaxed_dead`` where its proof holds (the rules allow it, no redeal left); else False."""
    return rules.dead and meta[M_REDEALS] == 0 and relaxed_dead(board, heights, found, rules, scratch)


@njit(cache=True)
def relaxed_dead(board, heights, found, rules, scratch):
    """True when even the relaxed game (module text) cannot be won from here.

    ``scratch`` holds, per pile, how many cards are still in it; per rank, how
    many piles show it on top and whether a card of it has left its pile or is
    up; per suit, the foundation the freed cards allow; per card, freed, and
    on top of its pile (counts: two decks have each card twice)."""
    nranks, worry, build, both_ways = rules.ranks, rules.worry, rules.build, rules.both_ways
    by_rank = build == BUILD_RANK and not both_ways
    piles = board.shape[0]
    scratch[:_S_SRC_NEED] = 0
    emptied = False
    remaining = 0
    for suit in range(4):
        scratch[_S_FOUND + suit] = found[suit]  # two decks: the higher of the suit's two foundations
        if worry:  # a card that is up may come back and host
            for rank in range(1, found[suit] + 1):
                scratch[_S_HAVE + rank] = 1
    for p in range(piles):
        scratch[_S_LEFT + p] = heights[p]
        remaining += heights[p]
        if heights[p] > 0:
            top = board[p, heights[p] - 1]
            scratch[_S_TOPS + top // 4 + 1] += 1
            scratch[_S_ON_TOP + top] += 1
        else:
            emptied = True
    progress = True
    while progress and remaining > 0:
        progress = False
        for p in range(piles):
            while scratch[_S_LEFT + p] > 0:
                left = scratch[_S_LEFT + p]
                leave = 1 if _may_leave(board[p, left - 1], rules, by_rank, emptied, scratch) else 0
                if leave == 0 and rules.sequences and not both_ways:  # a run whose bottom card may leave
                    i = left - 1
                    while i > 0 and builds_on(board[p, i - 1], board[p, i], build, both_ways):
                        i -= 1
                        if _may_leave(board[p, i], rules, by_rank, emptied, scratch):
                            leave = left - i
                            break
                if leave == 0:
                    break
                for _ in range(leave):
                    card = board[p, scratch[_S_LEFT + p] - 1]
                    rank = card // 4 + 1
                    suit = card % 4
                    scratch[_S_LEFT + p] -= 1
                    scratch[_S_TOPS + rank] -= 1
                    scratch[_S_ON_TOP + card] -= 1
                    scratch[_S_HAVE + rank] = 1
                    scratch[_S_FREE + card] += 1
                    while scratch[_S_FOUND + suit] < nranks and scratch[_S_FREE + scratch[_S_FOUND + suit] * 4 + suit]:
                        scratch[_S_FOUND + suit] += 1
                    remaining -= 1
                    if scratch[_S_LEFT + p] > 0:
                        below = board[p, scratch[_S_LEFT + p] - 1]
                        scratch[_S_TOPS + below // 4 + 1] += 1
                        scratch[_S_ON_TOP + below] += 1
                    else:
                        emptied = True
                progress = True
    return remaining > 0


@njit(cache=True, inline="always")
def _need(card, found):
    """How many cards of its suit must go up before this one can (two decks: onto the higher foundation
    of its suit, unless that one holds the card's rank already)."""
    rank = card // 4 + 1
    top = found[card % 4]
    if top >= rank and found.shape[0] > 4:
        top = found[4 + card % 4]
    return rank - top


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
    than the rules' limit (``codes.max_run``)."""
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
        scratch[_S_TWIN + p] = 1 if twins and h > 0 and _has_twin_before(board, heights, p) else 0
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
        if h == 0:
            spaces += 1
            if first_empty < 0:
                first_empty = p
    onto_card, into_space = max_run(rules, spaces, False), max_run(rules, spaces, True)
    for p in range(piles):
        if heights[p] > 0 and scratch[_S_TWIN + p] == 0 and _need(board[p, heights[p] - 1], found) == 1:
            out_src[n] = p
            out_dst[n] = FOUNDATION
            n += 1
    n_found = n
    for p in range(piles):
        h = heights[p]
        if h == 0 or scratch[_S_TWIN + p] == 1:
            continue
        card = board[p, h - 1]
        moved = (1 << 12) if prefix_length(board, heights, origin, origin_heights, p) < h else 0
        src_need = scratch[_S_SRC_NEED + p]
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
                    and scratch[_S_TWIN + q] == 0
                    and builds_on(board[q, heights[q] - 1], card, build, both_ways)
                ):
                    out_src[n] = p + SEQUENCE * (count - 1)
                    out_dst[n] = q
                    scratch[_S_SORT + n - start] = _order_key(moved, src_need, scratch[_S_DST_NEED + q], noise)
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
                    scratch[_S_SORT + n - start] = _order_key(moved, src_need, 0, noise)
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
    if redeals != 0:
        out_src[n] = REDEAL
        out_dst[n] = 0
        scratch[_S_SORT + n - start] = 1 << 21
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
