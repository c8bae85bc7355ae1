"""The suit-blind relaxation: a whole-deal lost test that forgets only the suits of moved cards.

(Over 500 lines with its reason: the proof below is a third of it, and it belongs beside the walk
it justifies; the walk, its hash and its moves are one layout read by one loop.)

The capacity relaxation (:mod:`solver.kernels.capacity`) forgets where moved cards
lie; this one keeps where they lie and forgets only which suit each is.  It
is far tighter, and its game is far larger, so it decides the root only, by
an exhaustive search of its own that a long search runs beside its own.

Origin, prefix, free cards
    As in :mod:`solver.kernels.capacity`: compare each pile with the same pile at
    the *origin* (the root); its *prefix* is the longest run of bottom cards
    equal to the origin's, every other card in the tableau is *free*.  Every
    pile of a real position reachable from the origin is its prefix with a
    run of free cards on it, each one rank below the card beneath it: a free
    card has moved since the origin, so it lies where its last move put it,
    on a card one rank higher (which has not moved since, being covered) or
    alone in a pile that was empty (the capacity module's text has this
    argument in full).  So the ranks of a pile's free cards follow from the
    prefix, how many free cards lie on it and, on an empty prefix, the rank
    of the bottom card; only their suits are open.
    Checked by:
      tests/kernels/test_capacity.py::test_every_pile_met_is_its_prefix_with_free_cards_one_rank_down_on_it
Abstract position
    Per pile: the prefix length n, the count k of free cards on it, and when
    n = 0 < k the rank b of its bottom card; per suit: the foundation.  The
    free cards themselves follow (every card above its foundation and outside
    the prefixes); each pile's slots have ranks, not suits.
The abstract game
    From a position, one of:
    - the top slot of a pile (rank t) goes up as suit s, when the foundation
      of s is at t - 1 and the card (t, s) is free;
    - a prefix top goes up, when its foundation is one below it;
    - the top card or slot of a pile (rank t) moves onto a pile whose top
      has rank t + 1, or into an empty pile where the rules let a space take
      rank t (its pile then has n = 0, k = 1, b = t).
    Won when every card is up.  Two restrictions (below) leave some
    positions fewer moves: a *ripe* prefix top goes up at once, and a pile
    of one card moves it nowhere but up where spaces are useless.
    Checked by:
      tests/kernels/test_suitblind.py::test_kernel_decides_the_suit_blind_game_as_the_plain_model
Claim 1: if a real position P can be won, so can its abstraction A(P) in
the game without the restrictions.
    Along a line from P call a card *settled* while it lies in a prefix of
    P and has not moved since P.  The settled cards of a pile are a run at
    its bottom that starts the pile's prefix (nothing is taken from under
    a card that does not move), and every other card of the tableau lies
    on a card one rank higher or alone at the bottom of a pile: a card free
    at P by the argument of "Origin, prefix, free cards", a card moved
    since P where that move put it (its host has not moved since, being
    covered).  So the position at the end of the line, with the settled
    runs as prefixes, is an abstract position H; H = A(P) at P.  Every real
    move is an abstract move from H to the next H: a prefix top (settled,
    nothing on it) going up or elsewhere is the prefix top's move (the
    prefix shrinks, the target gains a slot of rank t); any other card is
    the top slot of its pile and free in H (it has moved, or was free at
    P), so going up as its suit or onto a card of rank t + 1 or into an
    empty pile is the slot's move.  (A card put back on its dealt place is
    a slot there: prefixes never grow.)  So a winning line from P is,
    step by step, a winning abstract line from A(P).
    Checked by:
      tests/kernels/test_suitblind.py::test_a_real_line_maps_to_positions_the_plain_model_can_win
      tests/kernels/test_suitblind.py::test_positions_the_suit_blind_game_loses_are_lost
Claim 2: the same holds in the game with the restrictions.
    Ripe: a prefix top c with no slots on it is ripe when the foundation of
    its suit is at rank(c) - 1 and every foundation is at least
    rank(c) - 2.  A position with a ripe prefix top has one move: the ripe
    prefix top of the first such pile goes up.  Lone: where spaces are
    useless -- an empty pile takes nothing, or only a King and no prefix
    holds a King above its bottom card (a free King always lies at the
    bottom of its pile: nothing hosts it) -- a pile of one card (n + k = 1)
    moves that card only up.  Proof: build a real winning line from P step
    by step, keeping a winnable position.  If H has a ripe prefix top, play
    that card up: in the real position it is the top card of its pile, with
    the foundations of H, so the move is a safe foundation move
    (:mod:`solver.kernels.safe_moves`, "Safe foundation moves") and the position stays
    winnable.  Otherwise play the first move of a shortest winning line;
    it moves no lone card but up where spaces are useless
    (:mod:`solver.kernels.moves`, "Lone cards stay put"; its condition on Kings
    is the one above, since a King above the bottom of its pile is a
    settled one).  Each step sends a card up or shortens the shortest
    winning line (cards in the tableau, then the length of a shortest
    winning line, fall lexicographically), so the line ends, won.  By
    Claim 1's map it is a winning abstract line from A(P), and it obeys
    both restrictions.  So an
    abstract position that cannot be won, with the restrictions, means the
    real one is lost.  (The restrictions depend on the position alone and
    touch piles with a prefix or every pile alike, so the symmetry below
    keeps them.)
    Checked by:
      tests/kernels/test_suitblind.py::test_a_real_line_maps_to_positions_the_plain_model_can_win (ripe, lone)
      tests/kernels/test_suitblind.py::test_positions_the_suit_blind_game_loses_are_lost
Named ranks: from the suit-blind game to the real one
    The game may keep the suits of the free cards of some ranks, any set of
    them; the walks use the l lowest and the h highest: a slot of such a
    rank is *named* by its suit.  A named slot goes up as its own suit only
    and moves with its name; a prefix top of such a rank that leaves
    becomes a slot named by its suit.  Claims 1 and 2 hold as they stand,
    H naming each slot of a named rank by its real card's suit: every real
    move is still one abstract move (a named slot goes up as its card does,
    an unnamed one as any free card of its rank may), and a named top slot
    whose card is ripe is the real top card, a safe move, so the ripe rule
    takes it too with the same proof.  Nothing in either claim asks which
    ranks are named.  With none named this is the suit-blind game; with
    every rank named it is the real game itself (each free card is known),
    so a win of its walk is a real winning line.  A loss with any set named
    proves the deal lost; a larger set loses more positions and meets
    more.  Low ranks named tell which Ace or Two a slot is, so which suit
    can climb first; high ranks named tell which Queen lies on which King,
    so which must go up before which (Good Measure 560's suit-blind game
    and its game with Aces to Fives named are won, its game with Nines to
    Kings named is lost).  The capacity test prunes every one of these
    games (forget the names: a winning line stays a suit-blind winning
    line).
    Checked by:
      tests/kernels/test_suitblind.py::test_positions_a_game_with_named_ranks_loses_are_lost
      tests/kernels/test_suitblind.py::test_with_every_rank_named_the_walk_decides_the_real_game
      tests/kernels/test_suitblind.py::test_naming_the_highest_ranks_loses_positions_the_suit_blind_game_wins
Piles without a prefix are interchangeable
    A prefix never grows in the abstract game, and a pile with n = 0 is
    seen only through (k, b): the origin's cards of that pile are free
    wherever they are.  Two positions that differ by swapping the (k, b) of
    two such piles are the same game up to renaming piles, so they share a
    verdict: their keys leave out the pile index and are added up (the
    hash is the XOR of the keys of the foundations and of the piles with a
    prefix, XOR the sum of the keys of the piles without one), the table
    treats them as one, and a card goes into the first empty pile only (a
    lone slot into another empty pile changes nothing).  The ripe rule's
    "first such pile" does not tell them apart either: a ripe card stays
    ripe until it goes up (foundations only rise), so several go up in any
    order to the same position.
    Checked by:
      tests/kernels/test_suitblind.py::
        test_the_hash_ignores_the_order_of_piles_without_a_prefix_and_a_child_hash_is_the_full_one
      tests/kernels/test_suitblind.py::test_kernel_decides_the_suit_blind_game_as_the_plain_model
The capacity test prunes the walk
    Write C(X) for the capacity abstraction (:mod:`solver.kernels.capacity`) of a
    position X of this game: its prefix lengths and foundations.  Claim: if
    X can be won here (with the restrictions or without: a restricted
    winning line is a winning line), C(X) can be won in the capacity game.
    Induction on a winning line, as there: C(X) fits (seat each free card
    in a slot of its rank, in any order of suits: a slot lies on a slot one
    rank higher, on a prefix top, or at the bottom of a pile without a
    prefix), and a move of X is a capacity move to C(X') or leaves C(X) as
    it is.  A slot or prefix top up is the capacity move up (the card is
    free, or the prefix top, and next on its foundation), and C(X') fits.  A
    prefix top leaving is the capacity leave: in X' it is the top slot of
    another pile (so seated neither on the card it left nor in the pile it
    emptied, and holding nothing), which seats every free card.  A slot
    moving changes neither prefixes nor foundations.  So where the capacity
    test finds C(X) lost, X is lost here too, and the walk expands it no
    further.
    Checked by:
      tests/kernels/test_suitblind.py::test_kernel_decides_the_suit_blind_game_as_the_plain_model (with it, without)
Deciding the abstract game
    A depth-first walk from the abstract root, with the restrictions, and a
    table of positions met.  It stops at the first won position; when no
    position is left to expand, every position reachable from the root has
    been met (or lies beyond one the capacity test proved lost) and none is
    won, so the root, and with it the deal, is lost.  The walk keeps its
    stack in arrays and can stop and resume at any time.  With each
    position on the stack it keeps its depth and the move that made it: a
    position on the stack is a child of the last one expanded one level up
    (those pushed before that one lie below its children), so the moves to
    the last positions expanded at each depth are the line to the one
    expanded now, and once won, to the win.  Its table stores 95-bit keys,
    as the search's does (:mod:`solver.kernels.position`, "Hash"): two positions
    taken for one err with chance about n^2 / 2^96 for n stored.
    Checked by:
      tests/kernels/test_suitblind.py::test_kernel_decides_the_suit_blind_game_as_the_plain_model
      tests/search/test_suitblind.py::test_good_measure_538_is_won_by_the_walk_of_the_real_game (the line to the win)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..limits import MAX_PILES
from .capacity import C_ALLOWANCE, C_NODES, capacity_dead_prefixes
from .codes import EMPTY_ANY, EMPTY_KING, FOUNDATION, LOST, PAUSED, STACK_FULL, TABLE_FULL, WON, copy_into, space_takes
from .table import TABLE_MAX_LOAD, table_find

# Slots of ``meta``: the stack's height, the table's entries, positions expanded, positions the
# capacity relaxation found dead, the length of the winning line in ``path`` once won.
H_TOP, H_COUNT, H_NODES, H_DEAD, H_WON_DEPTH = range(5)
HMETA_SIZE = 5
# Layout of a walk position, one int8 row: three blocks of one entry a pile -- the prefix length n,
# the slots k on it, and the bottom rank b of a pile without a prefix -- then the header: the four
# foundations, how many of the lowest ranks it names, the first of the highest ranks it names; then
# the suits (plus one; 0: no slot) of each pile's slots of the named ranks (module text, "Named ranks").
_PREFIX, _SLOTS, _BOTTOM, _HEADER = 0, 1, 2, 3  # each block begins at this times ``piles``
_H_FOUND, _H_LOW, _H_FIRST_HIGH, _H_NAMES = 0, 4, 5, 6  # from the header's start
# Rows of the key array: (pile, prefix length), (pile, slots) over a prefix, (slots, bottom rank)
# of a pile without a prefix, (suit, foundation), then (pile, named slot) and (piles without a
# prefix, named slot), a named slot indexed by 4 * (rank - 1) + suit.
_KN = 0
_KK = _KN + MAX_PILES
_KS = _KK + MAX_PILES
_KF = _KS + 16
_KM = _KF + 4
_KEY_ROWS = _KM + MAX_PILES + 1


def walk_keys(seed: int = 20261202) -> np.ndarray:
    """The walks' Zobrist keys, two words of each: the rows of the key array above."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**64, size=(2, _KEY_ROWS, 64), dtype=np.uint64, endpoint=False)


def root_state(origin_heights: np.ndarray, found: np.ndarray, nranks: int, low: int = 0, high: int = 0) -> np.ndarray:
    """The abstract root: every pile its whole prefix, no slots; the foundations; room for the
    suits of slots of the ``low`` lowest and the ``high`` highest ranks (module text, "Named ranks")."""
    piles = origin_heights.shape[0]
    high = min(high, nranks - low)
    state = np.zeros(_HEADER * piles + _H_NAMES + piles * (low + high), dtype=np.int8)
    state[_PREFIX * piles : (_PREFIX + 1) * piles] = origin_heights
    state[_HEADER * piles + _H_FOUND : _HEADER * piles + _H_FOUND + 4] = found
    state[_HEADER * piles + _H_LOW], state[_HEADER * piles + _H_FIRST_HIGH] = low, nranks - high + 1
    return state


@njit(cache=True, inline="always")
def _named(state, piles):
    """How many ranks the position names (its width tells)."""
    return (state.shape[0] - _HEADER * piles - _H_NAMES) // piles


@njit(cache=True, inline="always")
def _named_rank(state, piles, i):
    """The rank of the i-th named rank: the low ones first, then the high ones."""
    low = state[_HEADER * piles + _H_LOW]
    return i + 1 if i < low else state[_HEADER * piles + _H_FIRST_HIGH] + i - low


@njit(cache=True, inline="always")
def _name_at(state, piles, p, t):
    """Where the position keeps the suit (plus one; 0: no slot) of pile p's slot of rank t; -1 when
    it does not name rank t."""
    low, first_high = state[_HEADER * piles + _H_LOW], state[_HEADER * piles + _H_FIRST_HIGH]
    if t <= low:
        i = t - 1
    elif t >= first_high:
        i = low + t - first_high
    else:
        return -1
    return _HEADER * piles + _H_NAMES + p * _named(state, piles) + i


@njit(cache=True, inline="always")
def _pile_key(state, piles, zk, w, p):
    """Pile p's key in word w: its pile index counts only when it has a prefix."""
    n, k = state[_PREFIX * piles + p], state[_SLOTS * piles + p]
    g = zk[w, _KN + p, n] ^ zk[w, _KK + p, k] if n > 0 else zk[w, _KS + k, state[_BOTTOM * piles + p]]
    row = _KM + (p if n > 0 else MAX_PILES)
    m = _named(state, piles)
    for i in range(m):
        t = _named_rank(state, piles, i)
        suit = state[_HEADER * piles + _H_NAMES + p * m + i]
        if suit:
            g ^= zk[w, row, 4 * (t - 1) + suit - 1]
    return g


@njit(cache=True, inline="always")
def _with_pile(state, piles, zk, w, p, x, a, sign):
    """The parts (x, a) with pile p's key put in (``sign`` 1) or taken out (-1): XORed when it has a
    prefix, else added up."""
    g = _pile_key(state, piles, zk, w, p)
    if state[_PREFIX * piles + p] > 0:
        return x ^ g, a
    return x, a + g if sign > 0 else a - g


@njit(cache=True)
def _hash_parts(state, piles, zk, parts):
    """The two parts of the hash, per word: ``parts[w, 0]`` the XOR of the keys of piles with a prefix
    and of the foundations, ``parts[w, 1]`` the sum of the keys of piles without one, so that their
    order does not count (module text, "Piles without a prefix")."""
    for w in range(2):
        x, a = np.uint64(0), np.uint64(0)
        for p in range(piles):
            x, a = _with_pile(state, piles, zk, w, p, x, a, 1)
        for s in range(4):
            x ^= zk[w, _KF + s, state[_HEADER * piles + _H_FOUND + s]]
        parts[w, 0], parts[w, 1] = x, a


@njit(cache=True)
def _hash(state, piles, zk, out):
    parts = np.zeros((2, 2), dtype=np.uint64)
    _hash_parts(state, piles, zk, parts)
    for w in range(2):
        out[w] = parts[w, 0] ^ parts[w, 1]


@njit(cache=True, inline="always")
def _child_hash(parent, child, piles, zk, parts, p, q, out):
    """The child's hash from its parent's ``parts``: only piles p and q (-1: none) and the foundations
    can differ."""
    for w in range(2):
        x, a = parts[w, 0], parts[w, 1]
        for r in (p, q):
            if r < 0:
                continue
            x, a = _with_pile(parent, piles, zk, w, r, x, a, -1)
            x, a = _with_pile(child, piles, zk, w, r, x, a, 1)
        for s in range(4):
            f, f2 = parent[_HEADER * piles + _H_FOUND + s], child[_HEADER * piles + _H_FOUND + s]
            if f != f2:
                x ^= zk[w, _KF + s, f] ^ zk[w, _KF + s, f2]
        out[w] = x ^ a


@njit(cache=True, inline="always")
def _top_rank(state, piles, origin, p):
    """The rank of pile p's top card or slot; 0 for an empty pile."""
    n, k = state[_PREFIX * piles + p], state[_SLOTS * piles + p]
    if k > 0:
        bottom = state[_BOTTOM * piles + p] if n == 0 else origin[p, n - 1] // 4  # the first slot's rank
        return bottom - k + 1
    return origin[p, n - 1] // 4 + 1 if n > 0 else 0


@njit(cache=True, inline="always")
def _top_suit(state, piles, origin, p, t):
    """The suit of pile p's top (of rank t) when the position knows it, else -1."""
    n, k = state[_PREFIX * piles + p], state[_SLOTS * piles + p]
    if k == 0:
        return origin[p, n - 1] % 4
    at = _name_at(state, piles, p, t)
    return state[at] - 1 if at >= 0 else -1


@njit(cache=True, inline="always")
def _ripe_pile(state, piles, origin):
    """The first pile whose top is ripe (module text, "Claim 2"); -1 if none."""
    f = _HEADER * piles + _H_FOUND
    lowest = min(state[f], state[f + 1], state[f + 2], state[f + 3])
    blind = _named(state, piles) == 0
    for p in range(piles):
        if state[_SLOTS * piles + p] > 0 and blind:
            continue  # a slot whose suit is forgotten
        t = _top_rank(state, piles, origin, p)
        if t == 0 or t > lowest + 2:
            continue
        suit = _top_suit(state, piles, origin, p, t)
        if suit >= 0 and state[f + suit] == t - 1:
            return p
    return -1


@njit(cache=True, inline="always")
def _spaces_useless(state, piles, origin, nranks, empty_rule):
    """Whether a lone card may only go up (module text, "Claim 2")."""
    if empty_rule == EMPTY_ANY:
        return False
    if empty_rule == EMPTY_KING:
        for p in range(piles):
            for i in range(1, state[_PREFIX * piles + p]):
                if origin[p, i] // 4 + 1 == nranks:
                    return False
    return True


@njit(cache=True, inline="always")
def _push(child, moved, walk, h, tests, depth, src, dst):
    """Store the child if new and put it on the stack, with its depth and the move that made it,
    unless it is dead; True when it is won (its move then ends the line in ``path``).

    ``h``: its hash; ``moved``: its prefixes or foundations changed, so the capacity relaxation may find
    it dead; ``tests``: the rules, the capacity test, its limit, and where the slice's work stops."""
    table, stack, trail, path, meta = walk
    if table_find(table, h[0], h[1], np.int64(1)) >= 0:
        return False
    rules, test, cap_limit, work_stop = tests
    nranks, capacity_meta = rules.ranks, test.meta
    piles = test.origin.shape[0]
    meta[H_COUNT] += 1
    found = child[_HEADER * piles + _H_FOUND : _HEADER * piles + _H_FOUND + 4]
    if min(found[0], found[1], found[2], found[3]) >= nranks:
        path[depth, 0], path[depth, 1] = src, dst
        return True
    limit = min(cap_limit, work_stop - capacity_meta[C_NODES])  # past the chunk's work, only cached verdicts
    if moved and capacity_dead_prefixes(child[_PREFIX * piles : (_PREFIX + 1) * piles], found, rules, test, limit):
        meta[H_DEAD] += 1
        return False
    top = meta[H_TOP]
    copy_into(stack[top], child)
    trail[top, 0], trail[top, 1], trail[top, 2] = depth, src, dst
    meta[H_TOP] = top + 1
    return False


@njit(cache=True)
def walk_start(root, piles, nranks, zk, walk):
    """Put the root on an empty walk; True when it is won already."""
    table, stack, trail, _, meta = walk
    meta[:] = 0
    h = np.zeros(2, dtype=np.uint64)
    _hash(root, piles, zk, h)
    table_find(table, h[0], h[1], np.int64(1))
    meta[H_COUNT] = 1
    copy_into(stack[0], root)
    trail[0, 0] = 0
    meta[H_TOP] = 1
    found = _HEADER * piles + _H_FOUND
    return min(root[found], root[found + 1], root[found + 2], root[found + 3]) >= nranks


@njit(cache=True)
def walk_step(walk, rules, zk, test, node_limit, work_limit, cap_limit):
    """Expand at most ``node_limit`` positions, with capacity tests searching at most ``work_limit``
    abstract positions in all (the allowance saved may be large: this keeps the clock); returns a
    status (module text, "Deciding").

    ``walk.trail`` holds the depth of each position on ``walk.stack`` and the move (source pile,
    target pile or ``FOUNDATION``) that made it; ``walk.path[d]`` the move to the position of depth d
    last expanded (a position on the stack is a child of the last one expanded at the depth above it),
    so once won ``walk.path[1 : walk.meta[H_WON_DEPTH] + 1]`` is the winning line.
    The capacity test ``test`` (its cache and counters) is the depth-first search's (same origin, same
    abstract game); each position expanded adds one to its allowance; each of its tests searches at most
    ``cap_limit`` abstract positions."""
    piles = test.origin.shape[0]
    width = walk.stack.shape[1]
    x = np.zeros(width, dtype=np.int8)
    child = np.zeros(width, dtype=np.int8)
    tops = np.zeros(piles, dtype=np.int64)
    moves = np.zeros((piles * (4 + piles + 1), 3), dtype=np.int64)  # per pile: 4 suits up, hosts, a space
    h = np.zeros(2, dtype=np.uint64)
    parts = np.zeros((2, 2), dtype=np.uint64)
    scratch = (x, child, tops, moves, h, parts)
    return _walk(walk, rules, zk, test, node_limit, work_limit, cap_limit, scratch)


@njit(cache=True, _nrt=False)  # no reference counts: solver/kernels/__init__.py, "No reference counting"
def _walk(walk, rules, zk, test, node_limit, work_limit, cap_limit, scratch):
    """``walk_step``'s loop, with the scratch arrays it may not allocate itself."""
    table, stack, trail, path, meta = walk
    nranks, empty_rule = rules.ranks, rules.empty
    origin, places, capacity_meta = test.origin, test.places, test.meta
    x, child, tops, moves, h, parts = scratch
    piles = origin.shape[0]
    work_stop = capacity_meta[C_NODES] + work_limit
    tests = (rules, test, cap_limit, work_stop)
    room = np.int64(TABLE_MAX_LOAD * (table.shape[0] // 2))
    stop = meta[H_NODES] + node_limit
    while meta[H_TOP] > 0:
        if meta[H_NODES] >= stop or capacity_meta[C_NODES] >= work_stop:
            return PAUSED
        # A position has at most 9 children a pile: 4 suits up, 4 hosts of the next rank, a space.
        if meta[H_COUNT] + 9 * piles >= room:
            return TABLE_FULL
        top = meta[H_TOP] - 1
        depth = trail[top, 0]
        if top + 9 * piles >= stack.shape[0] or depth + 2 >= path.shape[0]:
            return STACK_FULL
        meta[H_TOP] = top
        copy_into(x, stack[top])
        path[depth, 0], path[depth, 1] = trail[top, 1], trail[top, 2]
        meta[H_WON_DEPTH] = depth + 1  # should a child be won
        depth += 1
        meta[H_NODES] += 1
        capacity_meta[C_ALLOWANCE] += 1
        _hash_parts(x, piles, zk, parts)  # each child's hash follows from them and the piles it changes
        count = _walk_moves(x, piles, origin, places, nranks, empty_rule, tops, moves)
        # One place makes and pushes every child: numba inlines _push and _child_hash once, not at each
        # kind of move (four copies took it 15 s to compile, and calls instead of copies cost 15% speed).
        for i in range(count):
            p, q, suit = moves[i, 0], moves[i, 1], moves[i, 2]
            t = _top_rank(x, piles, origin, p)
            copy_into(child, x)
            _take_top(child, piles, p, t)
            if q == FOUNDATION:
                child[_HEADER * piles + _H_FOUND + suit] += 1
            else:
                if _top_rank(x, piles, origin, q) == 0:  # into an empty pile
                    child[_BOTTOM * piles + q] = t
                _put(child, piles, q, t, suit)
            _child_hash(x, child, piles, zk, parts, p, q, h)  # FOUNDATION is -1: no second pile
            moved = q == FOUNDATION or x[_SLOTS * piles + p] == 0
            if _push(child, moved, walk, h, tests, depth, p, q):
                return WON
    return LOST


@njit(cache=True, inline="always")
def _walk_moves(x, piles, origin, places, nranks, empty_rule, tops, moves):
    """Write position x's moves into ``moves`` (source pile, target pile or FOUNDATION, the suit going
    up or the suit of the card moved, -1 where forgotten) in the order the walk pushes them; returns
    how many.  A ripe prefix top has the one move up (module text, "Ripe")."""
    ripe = _ripe_pile(x, piles, origin)
    if ripe >= 0:
        t = _top_rank(x, piles, origin, ripe)
        moves[0, 0], moves[0, 1], moves[0, 2] = ripe, FOUNDATION, _top_suit(x, piles, origin, ripe, t)
        return 1
    found = x[_HEADER * piles + _H_FOUND : _HEADER * piles + _H_FOUND + 4]
    lone_stays = _spaces_useless(x, piles, origin, nranks, empty_rule)
    empty = -1
    for q in range(piles):
        tops[q] = _top_rank(x, piles, origin, q)
        if tops[q] == 0 and empty < 0:
            empty = q
    count = 0
    # The walk expands the last child first: push moves of slots, then prefix tops leaving,
    # then moves up, so that it heads for a win (which ends a walk at once).
    for stage in range(3):
        for p in range(piles):
            t = tops[p]
            n, k = x[_PREFIX * piles + p], x[_SLOTS * piles + p]
            if t == 0 or (stage == 0 and k == 0) or (stage == 1 and k > 0):
                continue
            known = _top_suit(x, piles, origin, p, t)  # -1 for a slot whose suit is forgotten
            if stage == 2:
                for s in range(4):
                    if found[s] != t - 1 or (known >= 0 and s != known):
                        continue
                    card = (t - 1) * 4 + s
                    q = places[0, card]
                    if known < 0 and places[1, card] < x[_PREFIX * piles + q]:
                        continue  # a slot goes up as a free card of its rank, not one in a prefix
                    moves[count, 0], moves[count, 1], moves[count, 2] = p, FOUNDATION, s
                    count += 1
                continue
            if lone_stays and n + k == 1:
                continue
            for q in range(piles):
                if q != p and t < nranks and tops[q] == t + 1:
                    moves[count, 0], moves[count, 1], moves[count, 2] = p, q, known
                    count += 1
            lone_slot = n == 0 and k == 1  # into another empty pile: the same position (module text)
            if empty >= 0 and not lone_slot and space_takes(t, nranks, empty_rule):
                moves[count, 0], moves[count, 1], moves[count, 2] = p, empty, known
                count += 1
    return count


@njit(cache=True, inline="always")
def _take_top(state, piles, p, t):
    """Take pile p's top card or slot (rank t) off."""
    k = state[_SLOTS * piles + p]
    if k == 0:
        state[_PREFIX * piles + p] -= 1
        return
    state[_SLOTS * piles + p] = k - 1
    if k == 1 and state[_PREFIX * piles + p] == 0:
        state[_BOTTOM * piles + p] = 0
    at = _name_at(state, piles, p, t)
    if at >= 0:
        state[at] = 0


@njit(cache=True, inline="always")
def _put(state, piles, q, t, suit):
    """Put a slot of rank t (and of ``suit`` where its rank is named) on pile q."""
    state[_SLOTS * piles + q] += 1
    at = _name_at(state, piles, q, t)
    if at >= 0:
        state[at] = suit + 1
