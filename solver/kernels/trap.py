"""Numba kernels of the first pile's trap and of the first piles' game that grows it to a few piles: proofs
that a position of Cruel or Ripple Fan is lost, redeals left or not.  Plain arrays in, the cards a trap
keeps down out (bits of a uint64; the dead test's yes or no: ``first_pile_trapped``).

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
Checked by:
  tests/kernels/test_trap.py::test_every_position_the_trap_calls_lost_has_no_win (along random walks)
  tests/kernels/test_trap.py::test_the_trap_never_fires_on_a_position_that_can_be_won (whole position graphs)
  tests/kernels/test_trap.py::test_every_corpus_deal_the_trap_calls_lost_is_lost_by_the_reference
  tests/kernels/test_trap.py::test_the_kernel_agrees_with_the_plain_model (the kernel plays the game above)
  tests/kernels/test_trap.py::test_each_move_of_the_first_pile_s_game_is_needed
  tests/kernels/test_trap.py::test_the_trap_needs_each_premise
  tests/kernels/test_trap.py::test_the_trap_says_nothing_with_more_than_four_a_pile_in_play

The first piles' game (``first_piles_trap_cards``), the same argument over the first m piles (m <= 4): a
deadlock between piles, such as a Ten of clubs over the Four of diamonds on the first pile and the Five of
diamonds over the Jack and Nine of clubs on the second, which no card of the first pile alone shows.  Its
positions say what is known of the reading's start: piles 0..k-1 (k <= m), each top first, all known
whole but the last, which may be known only from its top down (a prefix); it starts from the first m
piles, all whole.  The known cards are the region.  Its moves, from the top card c of a known pile:
  onto  c onto its host, when the host is the top of another known pile;
  take  c off the known piles (it leaves the region), when its host is not in the region or no lower card
        of its suit is (a top card whose host lies under a known top and a lower card of its suit in the
        region can neither move nor go up);
  put   the card one rank below c, of its suit, onto c, when that card is not up (here) and not in the
        region;
and the redeal: the region read pile after pile, top first, cut in fours; the first m fours kept (the
last known whole where it is four cards, a prefix where fewer), the cards past them forgotten (they leave
the region).  A last pile known only from its top with no card left is dropped.
The rule: if some card of the first position is, in every position of this game reachable from it, in the
region -- it is never taken nor forgotten -- the real position is lost.

Proof, under the same premises (one deck, builds down by suit, single cards, spaces stay empty, cards stay
up, all face up, foundations up from the Ace, at most four cards a pile in play).  A game position
describes a real one when the real piles 0..k-1 are its known piles, the last perhaps only as a prefix of
the real pile, top first.  Claim: after every line of real moves from here, some reachable game position
describes the real one.  It holds here.  Suppose position G describes real position P, and a real move is
made; every card of the region is in play in P.
1. A card c goes up from a real pile i < k.  If G knows a card of pile i, c is its top; all lower cards
   of c's suit are up, so none is in the region: the game may take c, and G less c describes the new
   position.  (If G knows no card of pile i, pile i is the prefix pile with none known: nothing changes.)
2. A card c moves from real pile i onto its host h, the top of real pile j.  If both piles are known in
   G with cards, c and h are their tops: the game's "onto".  If only pile i is, h is not in the region
   (it is the top of a pile G does not know, or the unknown part of the prefix pile, under no known
   card): the game's take.  If only pile j is, c is not in the region (it is a real top card, and every
   known top card is known as a top), not up: the game's put.  If neither is, nothing changes.  Empty
   known piles take nothing: a space stays empty.
3. A redeal deals the reading out in fours from the first pile (at most four cards a pile in play); the
   region is the reading's start, so each four of it that the region covers is a whole real pile after
   it, and a last, shorter part of the region is the top of the next real pile: the game's redeal
   describes the new position, and keeping only the first m of its piles still does.
4. Any other move leaves the described piles as they were.
A card leaves the region of a game position only by a take or by a redeal that forgets it; a card that
never does is in play in every real position that follows, so never up: lost.
The kernel searches the game's positions (at most ``PILES_GAME_POSITIONS``; beyond, it gives up and says
nothing) and stops as soon as every card of the first position has been taken or forgotten.
Checked by:
  tests/kernels/test_trap.py::test_every_position_the_piles_game_calls_lost_has_no_win
  tests/kernels/test_trap.py::test_the_piles_game_never_fires_on_a_position_that_can_be_won
  tests/kernels/test_trap.py::test_every_corpus_deal_the_piles_game_calls_lost_is_lost_by_the_reference
  tests/kernels/test_trap.py::test_the_piles_game_kernel_agrees_with_the_plain_model
  tests/kernels/test_trap.py::test_each_move_of_the_first_piles_game_is_needed
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
        return -1  # never from first_pile_trap_cards: its game stays far smaller (see its "too many positions")
    game[count, :length] = cards[:length]
    lengths[count] = length
    return count + 1


@njit(cache=True, inline="always")
def _never_freed(first, freed):
    """The cards of ``first`` not ``freed``, bit ``card`` of a uint64."""
    cards = np.uint64(0)
    for card in range(first.shape[0]):
        if first[card] and not freed[card]:
            cards |= np.uint64(1) << np.uint64(card)
    return cards


@njit(cache=True)
def first_pile_trapped(board, heights, found, ranks):
    """True when the first pile's trap (module text) holds: the position is lost."""
    return first_pile_trap_cards(board, heights, found, ranks) != 0


@njit(cache=True, inline="always")  # inlined: the dead test calls first_pile_trapped at every position
def first_pile_trap_cards(board, heights, found, ranks):
    """The cards the first pile's trap (module text) keeps from ever coming up, bit ``card`` of a uint64
    (one deck: at most 52 cards); 0 where it does not hold."""
    in_play = 0
    for height in heights:
        in_play += height
    height = heights[0]
    if in_play > 4 * heights.shape[0] or height < 2 or height > GAME_CARDS:
        return np.uint64(0)
    pile = board[0, :height][::-1]  # K0, top first: a view, so that most positions allocate nothing
    held = False
    for i in range(min(height, 4)):
        held = held or _held(pile, i, min(height, 4), ranks)
    if not held:
        return np.uint64(0)
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
        if length == 0:  # never met: only a take from a K of one card makes the empty K, and when that K is
            continue  # played from, every card of K0 has been the top or cut, and the search has returned
        top = cards[0]
        if in_k0[top] and not freed[top]:  # the top: never trapped
            freed[top] = True
            left -= 1
        for i in range(4, length):  # what a cut would take off
            if in_k0[cards[i]] and not freed[cards[i]]:
                freed[cards[i]] = True
                left -= 1
        if left == 0:
            return np.uint64(0)
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
            return np.uint64(0)  # a K too long to search: nothing follows
        if length > 4 and count >= 0:  # cut
            count = _add(game, lengths, count, cards, 4)
        if count < 0:
            # Never reached, a guard: until the search ends, every K played from holds the card of K0 freed
            # last (or one never freed) at index 1 to 3, else it would be freed; above it a run put on what
            # is left of K0's cards above it (6 ways at most), below it K0's cards below it, cut or not (4
            # ways).  So at most 25 K are played from and 76 stored, far fewer than GAME_POSITIONS.
            return np.uint64(0)  # too many positions: nothing follows
    return _never_freed(in_k0, freed)


# The first piles' game: the first pile's game grown to the first few piles (module text of
# ``first_piles_trap_cards``).  A position is a row of int16: how many piles it knows, whether the last of
# them is known only from its top down (a prefix), each pile's length, then the cards, pile by pile, top first.
MAX_TRACKED = 4  # the most piles the game follows
PILES_GAME_POSITIONS = 1 << 14  # its positions searched at most, by default (beyond, it gives up: nothing follows)
_KNOWN, _PREFIX, _LENGTHS = 0, 1, 2
_CARDS = _LENGTHS + MAX_TRACKED


@njit(cache=True, inline="always")
def _used(row):
    """How many leading entries of ``row`` say what the position is."""
    used = _CARDS
    for i in range(row[_KNOWN]):
        used += row[_LENGTHS + i]
    return used


@njit(cache=True)
def _store(positions, hashes, slots, count, row):
    """Add ``row`` to the game's positions unless it is there, as number ``count``; the new count (-1: full)."""
    used = _used(row)
    h = np.uint64(14695981039346656037)
    for i in range(used):
        h = (h ^ np.uint64(row[i] + 1)) * np.uint64(1099511628211)
    mask = slots.shape[0] - 1
    slot = np.int64(h >> np.uint64(40)) & mask
    while slots[slot] > 0:
        other = slots[slot] - 1
        if hashes[other] == h:
            same = True
            for i in range(used):
                if positions[other, i] != row[i]:
                    same = False
                    break
            if same:
                return count
        slot = (slot + 1) & mask
    if count == positions.shape[0]:
        return -1
    positions[count, :] = row
    hashes[count] = h
    slots[slot] = count + 1
    return count + 1


@njit(cache=True)
def _moved(row, out, source, target, card):
    """``row`` with the top card of pile ``source`` taken off (-1: none) and ``card`` put on pile ``target``
    (-1: none), into ``out``; a last pile known only from its top that has no known card left is dropped."""
    out[:] = 0
    known = row[_KNOWN]
    out[_KNOWN] = known
    out[_PREFIX] = row[_PREFIX]
    read = _CARDS
    write = _CARDS
    for i in range(known):
        length = row[_LENGTHS + i]
        if i == target:
            out[write] = card
            write += 1
        start = read + 1 if i == source else read
        for j in range(start, read + length):
            out[write] = row[j]
            write += 1
        out[_LENGTHS + i] = length + (i == target) - (i == source)
        read += length
    if out[_PREFIX] and out[_LENGTHS + known - 1] == 0:
        out[_KNOWN] = known - 1
        out[_PREFIX] = 0


@njit(cache=True)
def first_piles_trap_cards(board, heights, found, ranks, tracked, most=PILES_GAME_POSITIONS):
    """The cards the first ``tracked`` piles' game (module text) traps, bit ``card`` of a uint64: any, and
    the position is lost; 0 where it traps none or gives up, past ``most`` positions of the game."""
    piles = heights.shape[0]
    in_play = 0
    for height in heights:
        in_play += height
    if in_play > 4 * piles or tracked < 1 or tracked > min(MAX_TRACKED, piles):
        return np.uint64(0)
    deck = 4 * ranks
    width = _CARDS + deck
    row = np.zeros(width, dtype=np.int16)
    row[_KNOWN] = tracked
    in_root = np.zeros(deck, dtype=np.bool_)
    left = 0  # cards of the first position not yet taken nor forgotten
    for i in range(tracked):
        height = heights[i]
        row[_LENGTHS + i] = height
        for j in range(height):
            card = board[i, height - 1 - j]
            row[_CARDS + left] = card
            in_root[card] = True
            left += 1
    if left == 0:
        return np.uint64(0)
    positions = np.empty((most, width), dtype=np.int16)
    hashes = np.zeros(most, dtype=np.uint64)
    size = 1
    while size < 2 * most:
        size *= 2
    slots = np.zeros(size, dtype=np.int32)  # a power of two, at least twice ``most``: probes end soon
    freed = np.zeros(deck, dtype=np.bool_)
    count = _store(positions, hashes, slots, 0, row)
    in_region = np.zeros(deck, dtype=np.bool_)
    top_of = np.empty(deck, dtype=np.int32)
    starts = np.zeros(MAX_TRACKED, dtype=np.int32)
    out = np.zeros(width, dtype=np.int16)
    waiting = np.empty(most, dtype=np.int32)  # positions not yet played from, newest last
    waiting[0] = 0
    depth = 1
    while depth > 0:
        depth -= 1
        row[:] = positions[waiting[depth]]
        stored = count
        known = row[_KNOWN]
        in_region[:] = False
        top_of[:] = -1
        total = 0
        for i in range(known):
            starts[i] = _CARDS + total
            length = row[_LENGTHS + i]
            for j in range(length):
                in_region[row[_CARDS + total + j]] = True
            if length > 0:
                top_of[row[_CARDS + total]] = i
            total += length
        # redeal: the known cards cut in fours; past the tracked piles, forgotten.  (A position always knows a
        # card: every card of the first position is freed as it leaves the known ones, so the take that leaves
        # none frees the last of them, and the search returns at once.)
        if total > 0:
            keep = min(total, 4 * tracked)
            for j in range(_CARDS + keep, _CARDS + total):
                if in_root[row[j]] and not freed[row[j]]:
                    freed[row[j]] = True
                    left -= 1
                    if left == 0:
                        return np.uint64(0)
            out[:] = 0
            out[_KNOWN] = (keep + 3) // 4
            out[_PREFIX] = keep % 4 != 0
            for i in range(out[_KNOWN]):
                out[_LENGTHS + i] = min(4, keep - 4 * i)
            out[_CARDS : _CARDS + keep] = row[_CARDS : _CARDS + keep]
            count = _store(positions, hashes, slots, count, out)
        for taking in (False, True):  # the takes stored last, so played first: most cards are soon taken
            for i in range(known):
                if row[_LENGTHS + i] == 0 or count < 0:
                    continue
                card = row[starts[i]]
                host = card + 4 if card // 4 + 1 < ranks else -1
                if taking:
                    lower_known = False  # a lower card of its suit among the known cards: it cannot go up
                    for j in range(_CARDS, _CARDS + total):
                        lower_known = lower_known or (row[j] % 4 == card % 4 and row[j] < card)
                    if (host >= 0 and not in_region[host]) or not lower_known:  # off to where it is not known
                        if in_root[card] and not freed[card]:
                            freed[card] = True
                            left -= 1
                            if left == 0:
                                return np.uint64(0)
                        _moved(row, out, i, -1, 0)
                        count = _store(positions, hashes, slots, count, out)
                    continue
                if host >= 0 and top_of[host] >= 0:  # onto its host, the top of another known pile
                    _moved(row, out, i, top_of[host], card)
                    count = _store(positions, hashes, slots, count, out)
                put = card - 4  # the next lower card of its suit, from where it is not known
                if card >= 4 and count >= 0 and put // 4 + 1 > found[put % 4] and not in_region[put]:
                    _moved(row, out, -1, i, put)
                    count = _store(positions, hashes, slots, count, out)
        if count < 0:
            return np.uint64(0)  # too many positions: nothing follows
        for new in range(stored, count):
            waiting[depth] = new
            depth += 1
    return _never_freed(in_root, freed)
