"""Numba kernel of the first pile's trap: a proof that a position of Cruel or Ripple Fan is lost, redeals
left or not.  Plain arrays in, a truth value out.

A redeal reads the piles in order, each from its top down, and deals that reading out again in fours from
the first pile (``solver.game.engine.redealt``): while there are at most four cards in play a pile, the
first pile gets the first min(4, n) cards of the reading of the n in play, in the same order.  So what
lies near the first pile's top stays there, whatever the redeals.

The rule (``first_pile_trapped``).  Read the first pile from its top down.  Let T, of suit s and rank t,
be its card at index k (k = 0: the top card), under the k cards x_0 (the top), ..., x_{k-1}; let T's host
H (rank t + 1, suit s) lie under T at depth e (e = 1: directly beneath T), or let T be a King (e = 0: no
host); let b, of suit s and a rank below t, lie under T at depth d; and let m = max(d, e).  Call the
zone the first k + m + 1 cards (from x_0 down to the deeper of b and H).  For each x_j above T, let r_j be
rank(x_j) - 1 - f_j, where f_j is the highest of: its suit's foundation height, and the ranks of the
lower cards of its suit that lie under x_j in the zone.  If

    (t - 1 - rank(b)) + m <= 3,  and  (k - j) + r_j + m <= 3 for every j < k,

then b never becomes the top card of a pile, never goes up, and the position is lost.

Proof, under ``premises.first_pile_trap_applies`` (one deck; the tableau builds down by suit, one card at
a time; an empty pile stays empty; no card comes back from a foundation; all face up; foundations up from
the Ace) and where at most four cards a pile are in play (checked here, per position: a board may hold
more, with Aces not yet up; then a redeal deals the first piles five, the fifth on top of the first four,
and the rule fails -- a full Cruel board with AS in play, trapped here, is won after a redeal; cards in
play never grow again, so at most four a pile holds at every position that follows).

Claim: after every move, the first pile read from its top down is a run C, then x_j, ..., x_{k-1} for some
j <= k (none of them when j = k), then T and the same m cards under T as here, where C is a run built on
x_j (on T when j = k): of its suit, down from one rank below it, one card on the next.  It holds here
(j = 0, C empty).  While it holds:
1. C holds at most r_j cards (t - 1 - rank(b) when j = k).  Its cards are not up (none comes back) and,
   one deck, none is a card lying under x_j: those lie in the zone, under x_j, and do not move (3 below).
   So C stops above the highest of them and above the foundation: for T, above b.
2. So at most (k - j) + r_j (or t - 1 - rank(b)) <= 3 - m cards lie above T, and the zone's cards from
   x_j down are among the first four of the reading.
3. Only a pile's top card moves.  T is the top only when j = k and C is empty; then it goes onto no pile
   (its only host, H, lies under it, no top; a King has none, and an empty pile takes nothing) and not up
   (b, of its suit and lower, lies under it, not up).  So T and the cards under it never move, nor does
   a card under x_j: none but C's top, or x_j when C is empty, leaves the first pile.
4. A card put on the first pile goes onto its top, C's or x_j's (T's when j = k): by suit, one rank down,
   so C stays such a run.  Taking C's top keeps the claim; taking x_j (C empty) makes j one more.
5. A redeal gives the first pile the first four cards of the reading in order (2: the zone from x_j down,
   with C, is among them), with the cards that follow beneath them, if any: the claim holds after it.
So b never becomes a top card; and in one deck b is its suit's only card of its rank, which must go up
for the game to be won.  The rule needs H only to keep T from moving: with H elsewhere, T may move onto
it, the cards under T come free, and nothing follows.  It reads only cards of the zone under x_j for f_j:
a card deeper may be dealt away by a redeal and come back onto C.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def _run_room(board, top, j, zone, found):
    """r_j (module text): the most cards a run built on the first pile's card at index j may ever hold,
    reading the lower cards of its suit under it down to index ``zone`` (the zone's last); ``top``: the
    top card's place in the pile."""
    card = board[0, top - j]
    suit = card % 4
    floor = found[suit]
    for i in range(j + 1, zone + 1):
        under = board[0, top - i]
        if under % 4 == suit and under < card:
            floor = max(floor, under // 4 + 1)
    return card // 4 - floor  # rank - 1 - floor


@njit(cache=True, inline="always")
def first_pile_trapped(board, heights, found, ranks):
    """True when the first pile's trap (module text) holds: the position is lost."""
    in_play = 0
    for height in heights:
        in_play += height
    if in_play > 4 * heights.shape[0]:  # a redeal would deal the first pile five: nothing follows
        return False
    top = heights[0] - 1  # the top card's place; the card at index i from the top is board[0, top - i]
    for k in range(min(top, 3)):  # T at index k, with a card under it
        card = board[0, top - k]
        rank, suit = card // 4 + 1, card % 4
        deepest = min(top - k, 3 - k)  # the depths under T that may lie in a zone of four
        host_depth = 0  # a King has no host
        if rank < ranks:
            host_depth = -1
            for depth in range(1, deepest + 1):
                if board[0, top - k - depth] == card + 4:  # rank + 1, the same suit
                    host_depth = depth
            if host_depth < 0:
                continue
        for depth in range(1, deepest + 1):
            b = board[0, top - k - depth]
            if b % 4 != suit or b > card:  # b: the same suit, a lower rank
                continue
            m = max(depth, host_depth)
            trapped = rank - 1 - (b // 4 + 1) + m <= 3
            for j in range(k):
                trapped = trapped and (k - j) + _run_room(board, top, j, k + m, found) + m <= 3
            if trapped:
                return True
    return False
