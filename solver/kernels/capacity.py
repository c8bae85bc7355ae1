"""The capacity relaxation: a dead-position test that counts hosts.

The relaxation in :mod:`solver.kernels.dead` (``relaxed_dead``) lets any number
of cards sit on one host and never covers a host.  This one keeps both
limits and forgets instead where the moved cards lie, so that its positions
are few and shared by the many real positions that differ only by where
moved cards were shuffled to.

Abstract position
    Compare each pile with the same pile at the root of the search (the
    *origin*): its *prefix* is the longest run of bottom cards equal to the
    origin's, its *prefix top* the highest of them.  Every other card in
    the tableau is *free*.  The abstract position is the prefix lengths and
    the foundations; the free cards follow from them (every card above a
    foundation and outside the prefixes).
Seats
    A free card of rank r must lie on a card of rank r+1 that is free or a
    prefix top, or alone in a pile with an empty prefix where the rules let a
    space take rank r; each card or empty pile holds one card.  An abstract
    position *fits* when the free cards can be placed so.
    Every real position fits, placed as they lie (the search only meets
    positions reachable from the origin): a card outside the prefix
    has moved since the origin (had it not, nor had any card beneath it,
    and it would be in the prefix), so it lies where its last move put it,
    on a card of rank r+1 (which cannot have moved while covered, so is
    free or the prefix top) or into an empty pile (whose bottom card then
    is no origin card: an empty prefix).
    Fitting is a matching problem that counting decides: the cards of rank
    r compete only for the seats of rank r+1 and for the empty piles, and
    any empty pile serves any card it may take.
    Checked by:
      tests/kernels/test_capacity.py::test_every_pile_met_is_its_prefix_with_free_cards_one_rank_down_on_it
      tests/kernels/test_capacity.py::test_kernel_decides_the_abstract_game_as_the_plain_model (every one fits)
The abstract game
    From a position that fits, to one that fits: a free card goes up, when
    its foundation is one below it; a prefix top goes up, likewise; a
    prefix top leaves (its pile's prefix shrinks by one, the card is free),
    where the placement after it seats that card neither on the card it
    left nor in the pile it emptied, and seats no card on it (it was a top
    card as it moved; the position after it counts it as a seat again, since
    later moves may cover it).  Won when every card is up.
Claim: if a real position P can be won, so can its abstraction A(P).
    Induction on the length of a winning line; the empty tableau is won in
    both.  Let P -> P' be the first move of the line, so A(P') can be won.
    A move of card c:
    - up from a prefix or from the free cards: an abstract move up, to A(P').
    - off a prefix top, onto a host or into an empty pile of another pile:
      an abstract leave to A(P'); the real placement of P' seats c
      elsewhere than where it came from, and nothing on c, the top card of
      its new pile.
    - of a free card, to anywhere but its origin place: A(P') = A(P).
    - of a free card c onto its origin place (the pile's prefix top, or
      the bottom of its origin pile): A(P') is A(P) with c in the prefix.
      Then A(P) can be won too: play A(P')'s winning line from A(P),
      leaving out the leave of c (and playing c up as a free card, not as
      a prefix top).  Each position met is the one of A(P')'s line with c
      free and seated on the card beneath it in the origin (one rank above
      c, since a real move put c there, and which, covered by c in the
      line, is no prefix top and seats nothing else there; or on the bottom
      of its pile, which holds nothing else there), so it fits,
      and every other move is the same move: until c leaves, no move of
      A(P')'s line touches c's pile beneath c.  (A leave of another card d
      seats nothing on d in both: c stays on the card beneath it, which is
      not d, since that card is covered by c in A(P')'s line.)  From where
      A(P')'s line has c leave, the two lines are at the same position.
    So an abstract position that cannot be won means the real one is lost.
    Checked by:
      tests/kernels/test_capacity.py::test_dead_positions_are_lost
      tests/kernels/test_capacity.py::test_a_leaving_card_holding_nothing_proves_more
Deciding the abstract game
    Every abstract move shrinks a prefix or raises a foundation, so the
    abstract game has no cycles: a depth-first search with a table of
    decided positions (won or lost) decides it exactly, and its verdicts
    hold for every search node whose abstraction meets them.  Two rules
    skip moves that cannot turn a lost position into a won one; the
    verdicts stay the abstract game's exact values.
    Checked by:
      tests/kernels/test_capacity.py::test_kernel_decides_the_abstract_game_as_the_plain_model
Safe moves up
    Let card c, of rank r, be able to go up (a free card or a prefix top,
    its foundation at r-1) with every foundation at r-2 or more, and let
    A' be A after c goes up (fitting).  If A can be won, so can A': then
    trying only that move loses no win.  Every card of rank r-1 still out
    is of a suit whose foundation is at r-2, so it may go up whenever it
    is free or a prefix top.  From A', first put every free card of rank
    r-1 up; then play A's winning line, leaving out the moves of c and of
    those cards, and playing each card of rank r-1 up, not off, when the
    line has it leave its prefix.  Every move stays legal (a foundation is
    never lower than in A's line, and a suit's next card up is the same
    card), and each position is the line's one with c and some cards of
    rank r-1 up, the rest of those still in their prefixes: fewer free
    cards to seat, and seats lost only of ranks r-1 and r-2, which no card
    still out needs (every card of rank r-2 is up, and none of rank r-1 is
    free), while a prefix shorter by c shows one more seat or space.  So
    every position fits.  (With every foundation at r-1 or more this is
    the plain rule that no card still out can sit on c.)
    Checked by:
      tests/kernels/test_capacity.py::test_kernel_decides_every_abstract_position_of_a_deal_as_the_plain_model
Pointless leaves
    Where a space takes nothing, the bottom card of a pile never leaves its
    prefix.  If the position A' after it leaves can be won, so can A: play
    A''s line with the card kept in its prefix until the line puts it up
    (from its prefix top, with the same foundation).  Each position is the
    line's one with that card in its prefix rather than free: one card less
    to seat, the same seats, and no space lost, since spaces take nothing.
    Checked by:
      tests/kernels/test_capacity.py::test_kernel_decides_every_abstract_position_of_a_deal_as_the_plain_model
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..limits import MAX_PILES
from .codes import EMPTY_NONE, LOST, UNDECIDED, WON, space_takes
from .position import prefix_length
from .table import TABLE_MAX_LOAD, set_info, table_find, table_info, table_lookup

# A table entry's information is a status: UNDECIDED (being decided, or given up on), WON or LOST.
CAP_DEPTH = 2 * 52 + 2  # each abstract move puts a card up or shrinks a prefix
# Slots of ``capacity_meta``: table entries, abstract positions searched, tests, tests that found the position dead,
# and the abstract positions the tests may still search (the search adds one for each real position).
C_COUNT, C_NODES, C_CALLS, C_DEAD, C_ALLOWANCE = range(5)
CMETA_SIZE = 5

# Regions of the int32 array ``work``: the abstract position, its counts, the search's stack.
_LEN = 0  # per pile: the prefix length
_FOUND = _LEN + MAX_PILES  # per suit: the foundation
_FREE = _FOUND + 4  # per rank: free cards
_SEATS = _FREE + 16  # per rank: free cards and prefix tops (the seats for the rank below)
_SPACES = _SEATS + 16  # piles with an empty prefix
_MOVE = _SPACES + 1  # per depth: the move that led there
_NEXT = _MOVE + CAP_DEPTH  # per depth: the next move to try
CAP_SIZE = _NEXT + CAP_DEPTH


def capacity_keys(seed: int = 20261201) -> np.ndarray:
    """Zobrist keys: rows 0..MAX_PILES-1 a pile's prefix length, then a suit's foundation."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**64, size=(2, MAX_PILES + 4, 64), dtype=np.uint64, endpoint=False)


def origin_places(origin: np.ndarray, origin_heights: np.ndarray) -> np.ndarray:
    """``places[0, card]`` the card's origin pile (-1: up at the origin), ``places[1, card]`` its height there."""
    places = np.full((2, 52), -1, dtype=np.int16)
    for p in range(origin.shape[0]):
        for i in range(origin_heights[p]):
            places[0, origin[p, i]] = p
            places[1, origin[p, i]] = i
    return places


@njit(cache=True, inline="always")
def _rank(card):
    return card // 4 + 1


@njit(cache=True, inline="always")
def _set_prefix(work, origin, p, n):
    """Pile p's prefix is n long: its length, and its top as a seat (or the pile as a space)."""
    work[_LEN + p] = n
    if n == 0:
        work[_SPACES] += 1
    else:
        work[_SEATS + _rank(origin[p, n - 1])] += 1


@njit(cache=True)
def _hash(lengths, found, zobrist, capacity_hash):
    """The hash of the abstract position with these prefix lengths and foundations, into ``capacity_hash``."""
    capacity_hash[0] = 0
    capacity_hash[1] = 0
    for p in range(lengths.shape[0]):
        capacity_hash[0] ^= zobrist[0, p, lengths[p]]
        capacity_hash[1] ^= zobrist[1, p, lengths[p]]
    for s in range(4):
        capacity_hash[0] ^= zobrist[0, MAX_PILES + s, found[s]]
        capacity_hash[1] ^= zobrist[1, MAX_PILES + s, found[s]]


@njit(cache=True)
def abstract(board, heights, found, test):
    """Write the abstraction of the real position into ``test.work`` and its hash into ``test.keys``."""
    origin, origin_heights, work = test.origin, test.origin_heights, test.work
    zobrist, capacity_hash = test.zobrist, test.keys
    work[_FREE : _SPACES + 1] = 0
    piles = board.shape[0]
    for p in range(piles):
        n = prefix_length(board, heights, origin, origin_heights, p)
        _set_prefix(work, origin, p, n)
        for i in range(n, heights[p]):
            work[_FREE + _rank(board[p, i])] += 1
            work[_SEATS + _rank(board[p, i])] += 1
    for s in range(4):  # a loop, not a slice assignment: numba compiles that one's shape check for seconds
        work[_FOUND + s] = found[s]
    _hash(work[_LEN : _LEN + piles], found, zobrist, capacity_hash)


@njit(cache=True)
def fits(work, nranks, empty_rule, left_rank, left_seat, left_space):
    """Whether the free cards can be seated (module text).

    ``left_rank`` > 0: a card of that rank has just left a prefix and may
    not be seated where it came from -- ``left_seat``, the new prefix top
    beneath it, is one of the seats of its rank; ``left_space``, it emptied
    its pile's prefix."""
    short_total = 0
    for rank in range(1, nranks + 1):
        free = work[_FREE + rank]
        if free == 0:
            continue
        seats = work[_SEATS + rank + 1] if rank < nranks else 0
        short = free - seats if free > seats else 0
        # The card that left must go to a space when no seat but the one it came from is left for it.
        forced = rank == left_rank and (seats == 0 or (seats == 1 and left_seat))
        if forced and free == 1:
            short = 1
        if short > 0:
            if not space_takes(rank, nranks, empty_rule):
                return False
            short_total += short
            if forced and left_space and work[_SPACES] < 2:  # ... a space other than the one it made
                return False
    return short_total <= work[_SPACES]


@njit(cache=True)
def _free_card_up(work, places, suit, nranks):
    """The free card of ``suit`` that may go up, or -1."""
    rank = work[_FOUND + suit] + 1
    if rank > nranks:
        return -1
    card = (rank - 1) * 4 + suit
    p = places[0, card]
    return card if p >= 0 and places[1, card] >= work[_LEN + p] else -1


@njit(cache=True)
def _shrink(work, origin, zobrist, capacity_hash, p, back):
    """The prefix of pile p loses its top (``back``: gains it again); fixes spaces and seats of the new top."""
    n = work[_LEN + p]
    new = n + 1 if back else n - 1
    capacity_hash[0] ^= zobrist[0, p, n] ^ zobrist[0, p, new]
    capacity_hash[1] ^= zobrist[1, p, n] ^ zobrist[1, p, new]
    low = min(n, new)  # the prefix length without the card that moves
    step = -1 if back else 1
    if low == 0:
        work[_SPACES] += step
    else:
        work[_SEATS + _rank(origin[p, low - 1])] += step
    work[_LEN + p] = new


@njit(cache=True)
def _raise(work, zobrist, capacity_hash, suit, step):
    f = work[_FOUND + suit]
    capacity_hash[0] ^= zobrist[0, MAX_PILES + suit, f] ^ zobrist[0, MAX_PILES + suit, f + step]
    capacity_hash[1] ^= zobrist[1, MAX_PILES + suit, f] ^ zobrist[1, MAX_PILES + suit, f + step]
    work[_FOUND + suit] = f + step


@njit(cache=True)
def _play(work, origin, places, zobrist, capacity_hash, move, nranks, empty_rule):
    """Play abstract move ``move`` if it is legal and leads to a position that fits; returns whether it did.

    Moves: 0-3, suit s's free card up; 4 + p, pile p's prefix top up; 4 + piles + p, it leaves."""
    piles = origin.shape[0]
    if move < 4:
        card = _free_card_up(work, places, move, nranks)
        if card < 0:
            return False
        work[_FREE + _rank(card)] -= 1
        work[_SEATS + _rank(card)] -= 1
        _raise(work, zobrist, capacity_hash, move, np.int64(1))
        if fits(work, nranks, empty_rule, np.int64(0), np.bool_(False), np.bool_(False)):
            return True
        _unplay(work, origin, places, zobrist, capacity_hash, move)
        return False
    p = (move - 4) % piles
    n = work[_LEN + p]
    if n == 0:
        return False
    card = origin[p, n - 1]
    rank = _rank(card)
    if move < 4 + piles:
        if work[_FOUND + card % 4] != rank - 1:
            return False
        work[_SEATS + rank] -= 1
        _raise(work, zobrist, capacity_hash, np.int64(card % 4), np.int64(1))
        _shrink(work, origin, zobrist, capacity_hash, p, np.bool_(False))
        if fits(work, nranks, empty_rule, np.int64(0), np.bool_(False), np.bool_(False)):
            return True
    else:
        if n == 1 and empty_rule == EMPTY_NONE:
            return False  # a pointless leave (module text, "Pointless leaves")
        work[_FREE + rank] += 1
        _shrink(work, origin, zobrist, capacity_hash, p, np.bool_(False))
        left_seat = n >= 2 and _rank(origin[p, n - 2]) == rank + 1
        work[_SEATS + rank] -= 1  # the card holds nothing as it moves: it was a top card
        ok = fits(work, nranks, empty_rule, np.int64(rank), np.bool_(left_seat), np.bool_(n == 1))
        work[_SEATS + rank] += 1
        if ok:
            return True
    _unplay(work, origin, places, zobrist, capacity_hash, move)
    return False


@njit(cache=True)
def _unplay(work, origin, places, zobrist, capacity_hash, move):
    piles = origin.shape[0]
    if move < 4:
        _raise(work, zobrist, capacity_hash, move, np.int64(-1))
        card = (work[_FOUND + move]) * 4 + move
        work[_FREE + _rank(card)] += 1
        work[_SEATS + _rank(card)] += 1
        return
    p = (move - 4) % piles
    _shrink(work, origin, zobrist, capacity_hash, p, np.bool_(True))
    card = origin[p, work[_LEN + p] - 1]
    if move < 4 + piles:
        _raise(work, zobrist, capacity_hash, np.int64(card % 4), np.int64(-1))
        work[_SEATS + _rank(card)] += 1
    else:
        work[_FREE + _rank(card)] -= 1


@njit(cache=True)
def _all_up(work, nranks):
    return min(work[_FOUND], work[_FOUND + 1], work[_FOUND + 2], work[_FOUND + 3]) >= nranks


@njit(cache=True)
def _mark_path(work, origin, places, zobrist, capacity_hash, capacity_table, depth, info):
    """Mark the positions on the stack with ``info``, unplaying the moves down to the root."""
    while True:
        set_info(capacity_table, table_find(capacity_table, capacity_hash[0], capacity_hash[1], np.int64(0)), info)
        if depth == 0:
            return
        _unplay(work, origin, places, zobrist, capacity_hash, np.int64(work[_MOVE + depth]))
        depth -= 1


@njit(cache=True)
def _first_move(work, origin, places, nranks, moves):
    """Where a position's moves start: 0 (all of them in turn), or ``moves + 1 + m`` when move m is a
    safe move up (module text), the only move worth trying; of several, the lowest card's."""
    low = min(work[_FOUND], work[_FOUND + 1], work[_FOUND + 2], work[_FOUND + 3])
    best, best_rank = 0, low + 3  # safe: a card at most two ranks above every foundation
    for suit in range(4):
        rank = work[_FOUND + suit] + 1
        if rank < best_rank and _free_card_up(work, places, suit, nranks) >= 0:
            best, best_rank = moves + 1 + suit, rank
    for p in range(origin.shape[0]):
        n = work[_LEN + p]
        if n > 0:
            card = origin[p, n - 1]
            rank = _rank(card)
            if rank < best_rank and work[_FOUND + card % 4] == rank - 1:
                best, best_rank = moves + 1 + 4 + p, rank
    return best


@njit(cache=True, _nrt=False)  # no reference counts: solver/kernels/__init__.py, "No reference counting"
def capacity_search(test, rules, node_limit):
    """Decide the abstract position in ``test.work``: WON, LOST, or UNDECIDED after ``node_limit`` positions.

    Every position decided goes into ``test.table``; ``test.work`` is left in an unspecified state."""
    origin, places, work, zobrist, capacity_hash = test.origin, test.places, test.work, test.zobrist, test.keys
    capacity_table, capacity_meta = test.table, test.meta
    nranks, empty_rule = rules.ranks, rules.empty
    slot = table_find(capacity_table, capacity_hash[0], capacity_hash[1], np.int64(UNDECIDED))
    if slot >= 0 and table_info(capacity_table, slot) != UNDECIDED:
        return table_info(capacity_table, slot)
    if slot < 0:
        capacity_meta[C_COUNT] += 1
    if _all_up(work, nranks):
        set_info(capacity_table, table_find(capacity_table, capacity_hash[0], capacity_hash[1], np.int64(0)), WON)
        return WON
    moves = 4 + 2 * origin.shape[0]
    depth = 0
    work[_NEXT] = _first_move(work, origin, places, nranks, moves)
    nodes = 0
    while True:
        move = work[_NEXT + depth]
        if move > moves:  # a safe move up, the only one tried
            move -= moves + 1
            work[_NEXT + depth] = moves
        if move < moves:
            if work[_NEXT + depth] < moves:
                work[_NEXT + depth] = move + 1
            if not _play(work, origin, places, zobrist, capacity_hash, move, nranks, empty_rule):
                # Never so from the drivers, a guard: every position searched fits (the abstraction of a real
                # position, "Seats", or of a walk's, suitblind.py; the others by _play), and a safe move up
                # keeps it fitting.  Its card is the lowest that may go up (_first_move), so no card one rank
                # below it is free (it could go up too) to need the seat it takes away; and it leaves one
                # free card less, or a seat or a space more.
                if work[_NEXT + depth] == moves and move < 4 + origin.shape[0]:
                    work[_NEXT + depth] = 0  # from a position that does not fit: try them all, as before
                continue
            slot = table_find(capacity_table, capacity_hash[0], capacity_hash[1], np.int64(UNDECIDED))
            if slot < 0:
                capacity_meta[C_COUNT] += 1
            info = UNDECIDED if slot < 0 else table_info(capacity_table, slot)
            if info == WON or _all_up(work, nranks):
                work[_MOVE + depth + 1] = move
                _mark_path(work, origin, places, zobrist, capacity_hash, capacity_table, depth + 1, WON)
                return WON
            if info == LOST:
                _unplay(work, origin, places, zobrist, capacity_hash, move)
                continue
            nodes += 1
            capacity_meta[C_NODES] += 1
            if nodes > node_limit:
                return UNDECIDED
            depth += 1
            work[_MOVE + depth] = move
            work[_NEXT + depth] = _first_move(work, origin, places, nranks, moves)
        else:
            set_info(capacity_table, table_find(capacity_table, capacity_hash[0], capacity_hash[1], np.int64(0)), LOST)
            if depth == 0:
                return LOST
            _unplay(work, origin, places, zobrist, capacity_hash, np.int64(work[_MOVE + depth]))
            depth -= 1


@njit(cache=True)
def abstraction_moved(board, heights, origin, origin_heights, src, dst, card):
    """Whether the move just played of ``card`` from pile ``src`` to pile ``dst`` changed the abstract
    position: whether the card left its origin place or came back to it.  Most moves do neither
    (a free card moves between hosts), and then the parent's verdict stands."""
    h = heights[src]  # the card's height before the move
    left = h < origin_heights[src] and origin[src, h] == card
    if left and prefix_length(board, heights, origin, origin_heights, src) == h:
        return True
    return prefix_length(board, heights, origin, origin_heights, dst) == heights[dst]  # the card, on top, is in it


@njit(cache=True)
def abstract_prefixes(lengths, found, origin, nranks, work):
    """Like ``abstract`` (but for the hash), for a position given by its prefix lengths and foundations
    alone (a position of the suit-blind game, :mod:`solver.kernels.suitblind`): every card neither up nor in a
    prefix is free."""
    work[_FREE : _SPACES + 1] = 0
    for s in range(4):
        work[_FOUND + s] = found[s]
        for rank in range(found[s] + 1, nranks + 1):
            work[_FREE + rank] += 1
    for p in range(origin.shape[0]):
        n = lengths[p]
        _set_prefix(work, origin, p, n)
        for i in range(n):
            work[_FREE + _rank(origin[p, i])] -= 1
    for rank in range(1, nranks + 1):
        work[_SEATS + rank] += work[_FREE + rank]


@njit(cache=True)
def _test_limit(capacity_table, capacity_meta, node_limit):
    """Abstract positions the next test may search (module text of ``capacity_dead``); empties a full cache."""
    room = np.int64(TABLE_MAX_LOAD * (capacity_table.shape[0] // 2))
    node_limit = min(node_limit, room // 2, capacity_meta[C_ALLOWANCE])  # a search adds at most node_limit + 2 entries
    if node_limit > 0 and capacity_meta[C_COUNT] + node_limit + 2 > room:
        capacity_table[:] = 0
        capacity_meta[C_COUNT] = 0
    return node_limit


@njit(cache=True)
def _test(test, rules, node_limit):
    """Decide the abstract position in ``test.work``: True when it cannot be won."""
    capacity_meta = test.meta
    capacity_meta[C_CALLS] += 1
    before = capacity_meta[C_NODES]
    verdict = capacity_search(test, rules, node_limit)
    capacity_meta[C_ALLOWANCE] -= capacity_meta[C_NODES] - before
    if verdict == LOST:
        capacity_meta[C_DEAD] += 1
        return True
    return False


@njit(cache=True)
def capacity_dead(board, heights, found, rules, test, node_limit):
    """True when the abstraction of the position cannot be won, so neither can the position (module text).

    Gives up (False) after ``node_limit`` abstract positions, or when the allowance ``test.meta[C_ALLOWANCE]``
    runs out, so that the tests never cost much more than the search they serve.  The table is a cache of
    exact verdicts: when it would overfill it is emptied, which costs time, never a verdict."""
    node_limit = _test_limit(test.table, test.meta, node_limit)
    if node_limit <= 0:
        return False
    abstract(board, heights, found, test)
    return _test(test, rules, node_limit)


@njit(cache=True)
def capacity_dead_prefixes(lengths, found, rules, test, node_limit):
    """``capacity_dead`` for a position of the suit-blind game, given by its prefix lengths and foundations.

    Most of these positions share their abstraction with one decided before: look it up first."""
    capacity_table, capacity_hash = test.table, test.keys
    _hash(lengths, found, test.zobrist, capacity_hash)
    slot = table_lookup(capacity_table, capacity_hash[0], capacity_hash[1])
    if slot >= 0 and table_info(capacity_table, slot) != UNDECIDED:
        return table_info(capacity_table, slot) == LOST
    node_limit = _test_limit(capacity_table, test.meta, node_limit)
    if node_limit <= 0:
        return False
    abstract_prefixes(lengths, found, test.origin, rules.ranks, test.work)
    return _test(test, rules, node_limit)
