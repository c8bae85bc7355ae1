"""Numba kernel of the first pile's trap: a proof that a position of Cruel or Ripple Fan is lost, redeals
left or not.  Plain arrays in, a truth value out.

A redeal reads the piles in order, each from its top down, and deals that reading out again in fours from
the first pile (``solver.game.engine.redealt``): while at most four cards a pile are in play, the first
pile gets the first min(4, n) cards of the reading of the n in play, in the same order.  So what lies near
the first pile's top stays there, whatever the redeals, and a card held under cards that can never move
never comes up.

The first pile's game.  Its positions are sequences K of cards, what is known of the first pile's top,
top first; it starts from the whole first pile, K0.  Its moves from a K that is not empty:
  take   K -> K[1:], unless K[0] is held: (K[0] is a King, or its host -- one rank higher, its suit --
         lies in K[1:]) and a lower card of its suit lies in K[1:];
  put    K -> (y,) + K, where y is the card one rank below K[0], of its suit, if y is not up (here) and
         not in K;
  cut    K -> K[:4], when K holds more than four cards.
The rule (``first_pile_trapped``): if some card of K0 is, in every position of this game reachable from
K0, in K and not K[0] -- it is never the top nor cut -- the real position is lost.

Proof, under ``premises.first_pile_trap_applies`` (one deck; the tableau builds down by suit, one card at
a time; an empty pile stays empty; no card comes back from a foundation; all face up; foundations up from
the Ace) and where at most four cards a pile are in play (checked here, per position: a board may hold
more, with Aces not yet up; then a redeal deals the first piles five, the fifth on top of the first four,
and the rule fails -- a full Cruel board with AS in play, trapped here, is won after a redeal; cards in
play never grow again, so at most four a pile hold at every position that follows).

Claim: after every line of real moves from here, some position K of the first pile's game reachable from
K0 is a prefix of the first pile's reading, top first (the empty K is a prefix of anything).  It holds
here (K0).  Suppose it holds, with K, and a real move is made:
1. A card c taken off the first pile (onto a pile, or up) is its top card: c = K[0] if K is not empty.
   c is not held: were it held, its host would lie under it in the first pile, no top card (a King has
   no host, and an empty pile takes nothing), and a lower card of its suit would lie under it, not up,
   so c could go nowhere.  So the game may take, and K[1:] is a prefix after the move.
2. A card y put on the first pile goes onto its top card by suit one rank down: onto K[0] if K is not
   empty.  y is in play, so not up here (no card comes back), and it was a top card elsewhere, so not in
   K.  So the game may put, and (y,) + K is a prefix after the move.
3. A redeal gives the first pile the first min(4, n) cards of the reading, which starts with K: K[:4] is
   a prefix after it (the cut), and K itself where K holds at most four cards (no move of the game).
4. Any other move leaves the first pile as it was.
A card leaves K only by a take, as K[0], or by a cut.  So a card b of K0 that is never K[0] nor cut lies
in the first pile under its top for good: it never goes up, and the game is lost.

The game's positions are few (K0 and runs put on it, cut to four); the kernel searches them all, up to
``GAME_POSITIONS`` (beyond that it gives up: nothing follows), and stops as soon as every card of K0 has
been the top or cut.  The game cannot trap a card unless one of the first pile's top four cards is held
by the cards beneath it among the top four: else it cuts K0 to four and takes them one by one, so the
kernel tries that first.  (This rests on PySolFC's redeal as it is since 2022, the reading dealt back
top first; bottom first, a short first pile would get the next pile's bottom card on its top.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

GAME_POSITIONS = 512  # the first pile's game positions searched at most (module text)
GAME_CARDS = 32  # the longest K searched (a first pile of 16 cards with a run of 12 put on it fits)


@njit(cache=True, inline="always")
def _held(cards, start, end, ranks):
    """Whether ``cards[start]`` is held (module text) by the cards ``cards[start + 1 : end]`` under it."""
    card = cards[start]
    no_host = card // 4 + 1 == ranks  # a King: no card takes it
    blocked = False  # it cannot go up
    for i in range(start + 1, end):
        under = cards[i]
        no_host = no_host or under == card + 4  # its host lies under it
        blocked = blocked or (under % 4 == card % 4 and under < card)
    return no_host and blocked


@njit(cache=True, inline="always")
def _add(game, lengths, count, cards, length):
    """Add position ``cards[:length]`` to the game's positions unless it is there; the new count (-1: full)."""
    for s in range(count):
        if lengths[s] == length:
            same = True
            for i in range(length):
                if game[s, i] != cards[i]:
                    same = False
                    break
            if same:
                return count
    if count == game.shape[0]:
        return -1
    game[count, :length] = cards[:length]
    lengths[count] = length
    return count + 1


@njit(cache=True)
def first_pile_trapped(board, heights, found, ranks):
    """True when the first pile's trap (module text) holds: the position is lost."""
    in_play = 0
    for height in heights:
        in_play += height
    height = heights[0]
    if in_play > 4 * heights.shape[0] or height < 2 or height > GAME_CARDS:
        return False
    pile = board[0, :height][::-1]  # K0, top first: a view, so that most positions allocate nothing
    held = False
    for i in range(min(height, 4)):
        held = held or _held(pile, i, min(height, 4), ranks)
    if not held:
        return False
    game = np.empty((GAME_POSITIONS, GAME_CARDS), dtype=np.int16)
    lengths = np.empty(GAME_POSITIONS, dtype=np.int32)
    freed = np.zeros(4 * ranks, dtype=np.bool_)  # cards that have been the top or cut
    in_k0 = np.zeros(4 * ranks, dtype=np.bool_)
    for i in range(height):
        in_k0[pile[i]] = True
    left = height  # cards of K0 not yet taken nor cut
    count = _add(game, lengths, 0, pile, height)
    step = np.empty(GAME_CARDS, dtype=np.int16)
    head = 0
    while head < count:
        length = lengths[head]
        cards = game[head]
        head += 1
        if length == 0:
            continue
        top = cards[0]
        if in_k0[top] and not freed[top]:  # the top: never trapped
            freed[top] = True
            left -= 1
        for i in range(4, length):  # what a cut would take off
            if in_k0[cards[i]] and not freed[cards[i]]:
                freed[cards[i]] = True
                left -= 1
        if left == 0:
            return False
        if not _held(cards, 0, length, ranks):  # take
            count = _add(game, lengths, count, cards[1:], length - 1)
        if top >= 4 and length < GAME_CARDS:  # put
            put = top - 4
            fits = put // 4 + 1 > found[put % 4]
            for i in range(length):
                fits = fits and cards[i] != put
            if fits:
                step[0] = put
                step[1 : length + 1] = cards[:length]
                count = _add(game, lengths, count, step, length + 1) if count >= 0 else count
        elif top >= 4:
            return False  # a K too long to search: nothing follows
        if length > 4 and count >= 0:  # cut
            count = _add(game, lengths, count, cards, 4)
        if count < 0:
            return False  # too many positions: nothing follows
    return left > 0
