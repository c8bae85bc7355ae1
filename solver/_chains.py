"""The suit-blind relaxation: a whole-deal lost test that forgets only the suits of moved cards.

The capacity relaxation (:mod:`solver._capacity`) forgets where moved cards
lie; this one keeps where they lie and forgets only which suit each is.  It
is far tighter, and its game is far larger, so it decides the root only, by
an exhaustive search of its own that a long search runs beside its own.

Origin, prefix, free cards
    As in :mod:`solver._capacity`: compare each pile with the same pile at
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
    (:mod:`solver._kernels`, "Safe foundation moves") and the position stays
    winnable.  Otherwise play the first move of a shortest winning line;
    it moves no lone card but up where spaces are useless
    (:mod:`solver._kernels`, "Lone cards stay put"; its condition on Kings
    is the one above, since a King above the bottom of its pile is a
    settled one).  Each step sends a card up or shortens the shortest
    winning line (cards in the tableau, then the length of a shortest
    winning line, fall lexicographically), so the line ends, won.  By Claim 1's map it is a winning
    abstract line from A(P), and it obeys both restrictions.  So an
    abstract position that cannot be won, with the restrictions, means the
    real one is lost.  (The restrictions depend on the position alone and
    touch piles with a prefix or every pile alike, so the symmetry below
    keeps them.)
Piles without a prefix are interchangeable
    A prefix never grows in the abstract game, and a pile with n = 0 is
    seen only through (k, b): the origin's cards of that pile are free
    wherever they are.  Two positions that differ by swapping the (k, b) of
    two such piles are the same game up to renaming piles, so they share a
    verdict: the hash adds (rather than XORs) their keys without the pile
    index, the table treats them as one, and a card goes into the first
    empty pile only (a lone slot into another empty pile changes nothing).
The capacity test prunes the walk
    Write C(X) for the capacity abstraction (:mod:`solver._capacity`) of a
    position X of this game: its prefix lengths and foundations.  Claim: if
    X can be won here (with the restrictions or without: a restricted
    winning line is a winning line), C(X) can be won in the capacity game.  Induction on
    a winning line, as there: C(X) fits (seat each free card in a slot of
    its rank, in any order of suits: a slot lies on a slot one rank higher,
    on a prefix top, or at the bottom of a pile without a prefix), and a
    move of X is a capacity move to C(X') or leaves C(X) as it is.  A slot
    or prefix top up is the capacity move up (the card is free, or the
    prefix top, and next on its foundation), and C(X') fits.  A prefix top
    leaving is the capacity leave: in X' it is the top slot of another pile
    (so seated neither on the card it left nor in the pile it emptied, and
    holding nothing), which seats every free card.  A slot moving changes
    neither prefixes nor foundations.  So where the capacity test finds C(X)
    lost, X is lost here too, and the walk expands it no further.
Deciding the abstract game
    A depth-first walk from the abstract root, with the restrictions, and a
    table of positions met.  It stops at the first won position; when no
    position is left to expand, every position reachable from the root has
    been met (or lies
    beyond one the capacity test proved lost) and none is won, so the
    root, and with it the deal, is lost.  The walk keeps its stack in arrays
    and can stop and resume at any time.  Its table stores 95-bit keys, as
    the search's does (:mod:`solver._kernels`, "Hash"): two positions
    taken for one err with chance about n^2 / 2^96 for n stored.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._capacity import C_ALLOWANCE, capacity_dead_prefixes
from ._common import EMPTY_ANY, EMPTY_KING, MAX_PILES, TABLE_MAX_LOAD, space_takes, table_find

# Status codes of a walk.
CHAIN_WON, CHAIN_LOST, CHAIN_PAUSED, CHAIN_TABLE_FULL, CHAIN_STACK_FULL = 1, 2, 3, 4, 5
# Slots of ``meta``: the stack's height, the table's entries, positions expanded, positions the
# capacity relaxation found dead.
H_TOP, H_COUNT, H_NODES, H_DEAD = range(4)
HMETA_SIZE = 4
# Rows of the key array: (pile, prefix length), (pile, slots) over a prefix, (slots, bottom rank)
# of a pile without a prefix, (suit, foundation).
_KN = 0
_KK = _KN + MAX_PILES
_KS = _KK + MAX_PILES
_KF = _KS + 16
_KEY_ROWS = _KF + 4


def chain_keys(seed: int = 20261202) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**64, size=(2, _KEY_ROWS, 64), dtype=np.uint64, endpoint=False)


def root_state(origin_heights: np.ndarray, found: np.ndarray) -> np.ndarray:
    """The abstract root: every pile its whole prefix, no slots; the foundations."""
    piles = origin_heights.shape[0]
    state = np.zeros(3 * piles + 4, dtype=np.int8)
    state[:piles] = origin_heights
    state[3 * piles :] = found
    return state


@njit(cache=True)
def _hash(state, piles, zk, out):
    for w in range(2):
        h = np.uint64(0)
        for p in range(piles):
            n, k = state[p], state[piles + p]
            if n > 0:
                h ^= zk[w, _KN + p, n] ^ zk[w, _KK + p, k]
        for p in range(piles):
            if state[p] == 0:  # piles without a prefix: a sum, so that their order does not count
                h += zk[w, _KS + state[piles + p], state[2 * piles + p]]
        for s in range(4):
            h ^= zk[w, _KF + s, state[3 * piles + s]]
        out[w] = h


@njit(cache=True)
def _top_rank(state, piles, origin, p):
    """The rank of pile p's top card or slot; 0 for an empty pile."""
    n, k = state[p], state[piles + p]
    if k > 0:
        bottom = state[2 * piles + p] if n == 0 else origin[p, n - 1] // 4  # the first slot's rank
        return bottom - k + 1
    return origin[p, n - 1] // 4 + 1 if n > 0 else 0


@njit(cache=True)
def _ripe_pile(state, piles, origin):
    """The first pile whose prefix top is ripe (module text, "Claim 2"); -1 if none."""
    found = state[3 * piles :]
    lowest = min(found[0], found[1], found[2], found[3])
    for p in range(piles):
        n, k = state[p], state[piles + p]
        if n > 0 and k == 0:
            card = origin[p, n - 1]
            r = card // 4 + 1
            if found[card % 4] == r - 1 and r <= lowest + 2:
                return p
    return -1


@njit(cache=True)
def _spaces_useless(state, piles, origin, nranks, empty_rule):
    """Whether a lone card may only go up (module text, "Claim 2")."""
    if empty_rule == EMPTY_ANY:
        return False
    if empty_rule == EMPTY_KING:
        for p in range(piles):
            for i in range(1, state[p]):
                if origin[p, i] // 4 + 1 == nranks:
                    return False
    return True


@njit(cache=True)
def _push(child, test, nranks, zk, table, stack, meta, h, cargs):
    """Store the child if new and put it on the stack, unless it is dead; True when it is won.

    ``test``: its prefixes or foundations changed, so the capacity relaxation may find it dead."""
    piles = (child.shape[0] - 4) // 3
    _hash(child, piles, zk, h)
    if table_find(table, h[0], h[1], 1) >= 0:
        return False
    meta[H_COUNT] += 1
    found = child[3 * piles :]
    if min(found[0], found[1], found[2], found[3]) >= nranks:
        return True
    if test:
        empty_rule, origin, where, cap, cz, ckeys, ctable, cmeta, cap_limit = cargs
        if capacity_dead_prefixes(
            child[:piles], found, nranks, empty_rule, origin, where, cap, cz, ckeys, ctable, cmeta, cap_limit
        ):
            meta[H_DEAD] += 1
            return False
    stack[meta[H_TOP]] = child
    meta[H_TOP] += 1
    return False


@njit(cache=True)
def chain_start(root, nranks, zk, table, stack, meta):
    """Put the root on an empty walk; True when it is won already."""
    meta[:] = 0
    h = np.zeros(2, dtype=np.uint64)
    _hash(root, (root.shape[0] - 4) // 3, zk, h)
    table_find(table, h[0], h[1], 1)
    meta[H_COUNT] = 1
    stack[0] = root
    meta[H_TOP] = 1
    return root[-4:].min() >= nranks


@njit(cache=True)
def chain_walk(
    origin, where, nranks, empty_rule, zk, table, stack, meta, node_limit, cap, cz, ckeys, ctable, cmeta, cap_limit
):
    """Expand at most ``node_limit`` positions; returns a status (module text, "Deciding").

    The capacity relaxation's cache ``ctable`` and counters ``cmeta`` are the depth-first search's
    (same origin, same abstract game); each position expanded adds one to its allowance."""
    piles = origin.shape[0]
    cargs = (empty_rule, origin, where, cap, cz, ckeys, ctable, cmeta, cap_limit)
    width = 3 * piles + 4
    x = np.zeros(width, dtype=np.int8)
    after = np.zeros(width, dtype=np.int8)
    child = np.zeros(width, dtype=np.int8)
    tops = np.zeros(piles, dtype=np.int64)
    h = np.zeros(2, dtype=np.uint64)
    room = np.int64(TABLE_MAX_LOAD * (table.shape[0] // 2))
    stop = meta[H_NODES] + node_limit
    while meta[H_TOP] > 0:
        if meta[H_NODES] >= stop:
            return CHAIN_PAUSED
        # A position has at most 9 children a pile: 4 suits up, 4 hosts of the next rank, a space.
        if meta[H_COUNT] + 9 * piles >= room:
            return CHAIN_TABLE_FULL
        if meta[H_TOP] + 9 * piles >= stack.shape[0]:
            return CHAIN_STACK_FULL
        meta[H_TOP] -= 1
        x[:] = stack[meta[H_TOP]]
        meta[H_NODES] += 1
        cmeta[C_ALLOWANCE] += 1
        found = x[3 * piles :]
        ripe = _ripe_pile(x, piles, origin)
        if ripe >= 0:  # its one move
            child[:] = x
            child[ripe] -= 1
            child[3 * piles + origin[ripe, x[ripe] - 1] % 4] += 1
            if _push(child, True, nranks, zk, table, stack, meta, h, cargs):
                return CHAIN_WON
            continue
        lone_stays = _spaces_useless(x, piles, origin, nranks, empty_rule)
        empty = -1
        for q in range(piles):
            tops[q] = _top_rank(x, piles, origin, q)
            if tops[q] == 0 and empty < 0:
                empty = q
        # The walk expands the last child first: push moves of slots, then prefix tops leaving,
        # then moves up, so that it heads for a win (which ends a walk at once).
        for stage in range(3):
            for p in range(piles):
                t = tops[p]
                n, k = x[p], x[piles + p]
                if t == 0 or (stage == 0 and k == 0) or (stage == 1 and k > 0):
                    continue
                after[:] = x
                if k > 0:
                    after[piles + p] = k - 1
                    if k == 1 and n == 0:
                        after[2 * piles + p] = 0
                else:
                    after[p] = n - 1
                if stage == 2:
                    for s in range(4):
                        card = (t - 1) * 4 + s
                        if found[s] != t - 1:
                            continue
                        if k == 0 and card != origin[p, n - 1]:
                            continue  # a prefix top goes up as itself
                        q = where[0, card]
                        if k > 0 and where[1, card] < x[q]:
                            continue  # a slot goes up as a free card of its rank, not one in a prefix
                        child[:] = after
                        child[3 * piles + s] += 1
                        if _push(child, True, nranks, zk, table, stack, meta, h, cargs):
                            return CHAIN_WON
                    continue
                if lone_stays and n + k == 1:
                    continue
                for q in range(piles):
                    if q != p and t < nranks and tops[q] == t + 1:
                        child[:] = after
                        child[piles + q] += 1
                        if _push(child, k == 0, nranks, zk, table, stack, meta, h, cargs):
                            return CHAIN_WON
                lone_slot = n == 0 and k == 1  # into another empty pile: the same position (module text)
                if empty >= 0 and not lone_slot and space_takes(t, nranks, empty_rule):
                    child[:] = after
                    child[piles + empty] = 1
                    child[2 * piles + empty] = t
                    if _push(child, k == 0, nranks, zk, table, stack, meta, h, cargs):
                        return CHAIN_WON
    return CHAIN_LOST
