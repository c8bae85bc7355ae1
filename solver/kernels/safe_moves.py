"""Numba kernels of the safe foundation moves: the cards that may go up at once, played without search,
with the proof that playing them loses no win.  Plain arrays in, plain arrays out; the moves themselves
are made by :mod:`solver.kernels.position`.

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
    Checked by:
      tests/kernels/test_safe_moves.py::test_a_won_position_is_still_won_after_its_safe_moves (the claim),
        for each rule: SAFE_LOW [bakers-dozen], SAFE_SUIT [cruel], with runs [perseverance], both ways
        [indefatigable], SAFE_ALTERNATE [vineyard], with runs [castles-in-spain], SAFE_NO_HOSTS
        [royal-family], two decks [bakers-dozen-2-decks] [unusual]; not that W' is no longer than W
      tests/kernels/test_safe_moves.py::test_safe_moves_are_the_plain_rule_s (the kernel is the statement)
      tests/kernels/test_safe_moves.py::test_the_one_deck_safe_rule_would_lose_a_two_deck_win (two decks' premise)

SAFE_ANY is not a safe rule: it plays every foundation move at once, as
Solvitaire's "auto-foundations" streamliner does (with two decks, every one
that the premise on both copies of rank r-1 lets through).  A search under it may
miss every win, so only the streamlined search uses it, whose exhaustion
proves nothing (:mod:`solver.search.streamline`); no game's rules name it.
Checked by:
  tests/search/test_streamline.py::test_a_streamlined_search_that_ends_without_a_win_decides_nothing
  tests/search/test_streamline.py::test_the_streamlined_search_wins_only_real_wins_and_most_of_them
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .codes import FOUNDATION, M_AUTO_TOP, M_REDEALS, M_SAFE, SAFE_ALTERNATE, SAFE_ANY, SAFE_LOW, SAFE_OFF, SAFE_SUIT
from .position import apply_move, need, undo_move


@njit(cache=True)
def safe_moves_hold(rules, meta):
    """Whether the rules' safe-move rule may be played here: it has one, and no redeal is left."""
    return rules.safe != SAFE_OFF and meta[M_REDEALS] == 0


@njit(cache=True, inline="always")
def _safe(card, found, lowest, rule):
    """Whether ``card``, which a foundation takes, may go up at once under ``rule`` (module text)."""
    rank = card // 4 + 1
    if found.shape[0] > 4 and found[4 + card % 4] < rank - 1:  # two decks: both copies of rank-1 must be up
        return False
    if rule == SAFE_SUIT:
        return True
    if rule == SAFE_ANY:
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
def play_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, rule):
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
            if need(card, found) == 1 and _safe(card, found, lowest, rule):
                top = meta[M_AUTO_TOP]
                auto_src[top] = p
                auto_card[top] = apply_move(board, heights, found, zobrist, keys, meta, p, np.int64(FOUNDATION))
                meta[M_AUTO_TOP] = top + 1
                played += 1
                again = True
                lowest = _lowest(found)
    meta[M_SAFE] += played
    return played


@njit(cache=True)
def undo_safe_moves(board, heights, found, zobrist, keys, meta, auto_src, auto_card, count):
    for _ in range(count):
        top = meta[M_AUTO_TOP] - 1
        src, card = np.int64(auto_src[top]), np.int64(auto_card[top])
        undo_move(board, heights, found, zobrist, keys, meta, src, np.int64(FOUNDATION), card)
        meta[M_AUTO_TOP] = top
