"""Numba kernel of the first pile's trap: a proof that a position of Cruel or Ripple Fan is lost, redeals
left or not.  Plain arrays in, a truth value out.

A redeal reads the piles in order, each from its top down, and deals that reading out again in fours from
the first pile (``solver.game.engine.redealt``): the first pile always gets the first four cards of the
reading, in the same order.  So what lies near the first pile's top stays there, whatever the redeals.

The rule (``first_pile_trapped``).  Let the first pile's top card be T, of suit s and rank t; let T's host
H (rank t + 1, suit s) lie under T in the first pile, at depth e (e = 1: directly beneath T), or let T be
a King (e = 0: no host); and let b be a card of suit s, of a rank below t, under T at depth d.  If
(t - 1 - rank(b)) + max(d, e) <= 3, then b never becomes the top card of a pile, never goes up, and the
position is lost.

Proof, under ``premises.first_pile_trap_applies`` (one deck; the tableau builds down by suit, one card at
a time; an empty pile stays empty; no card comes back from a foundation; all face up; foundations up from
the Ace; at most four cards to a pile at a redeal, so that the first pile gets the first min(4, n) cards
of the reading of the n cards in play).  Call C the cards lying on T (none here).  Claim: from here on,
after every move, the first pile's top cards are C, then T, then the same max(d, e) cards under T as here,
and C is a run of suit s down from rank t - 1, one card on the next, all of ranks above rank(b).
1. T never moves while the claim holds: it goes onto no pile (its only host, H, lies under it and is no
   top card; a King has no host, and an empty pile takes nothing), and not up (b, of its suit and lower,
   is under it and not up).  So no card under T moves, and none is put between them: cards land only on
   top cards.
2. A card put on the first pile goes onto C's top card, or onto T when C is empty: by suit, one rank
   down, so C stays such a run.  Its card of rank(b) would be b, which lies under T: C stops above it,
   so C holds at most t - 1 - rank(b) cards.  A card taken off the first pile is C's top card.
3. A redeal reads C, T and the max(d, e) cards under T first: at most (t - 1 - rank(b)) + 1 + max(d, e)
   <= 4 cards, all in play, so the first pile gets them back in the same order, on top (with the cards
   that follow in the reading beneath them, if any).
So b never becomes a top card; and in one deck b is its suit's only card of its rank, which must go up
for the game to be won.  The rule needs H only to keep T from moving: with H elsewhere, T may move onto
it, the cards under T come free, and nothing follows.  Where a redeal may give the first pile five cards
the proof fails, and so does the rule: the talon deals the fifth card on top of the first four (a Cruel
test deck of 6 ranks on 4 piles, deal 17, is won though the rule with "the first pile's size - 1" for 3
would fire); the premise keeps it off such decks.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def first_pile_trapped(board, heights, ranks):
    """True when the first pile's trap (module text) holds: the position is lost."""
    height = heights[0]
    if height < 2:
        return False
    top = board[0, height - 1]
    rank, suit = top // 4 + 1, top % 4
    window = min(height - 1, 3)  # the cards under the top that a redeal keeps under it
    host_depth = 0  # a King has no host
    if rank < ranks:
        host_depth = -1
        for depth in range(1, window + 1):
            if board[0, height - 1 - depth] == top + 4:  # rank + 1, the same suit
                host_depth = depth
        if host_depth < 0:
            return False
    for depth in range(1, window + 1):
        card = board[0, height - 1 - depth]
        lower = card % 4 == suit and card < top  # b: the same suit, a lower rank
        if lower and rank - 1 - (card // 4 + 1) + max(depth, host_depth) <= 3:
            return True
    return False
