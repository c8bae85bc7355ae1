"""Numba kernels of the first dead-position test: a greedy relaxation of the game, with its proof.
Plain arrays in, plain arrays out.

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
    Checked by:
      tests/kernels/test_dead.py::test_every_corpus_deal_the_relaxation_calls_dead_is_lost (the claim)
      tests/kernels/test_dead.py::test_relaxed_dead_is_the_plain_relaxed_game_s (the kernel is the statement)
      tests/kernels/test_dead.py::test_with_worrying_back_a_card_up_hosts_in_the_relaxed_game
      tests/kernels/test_capacity.py::test_a_move_changes_the_abstraction_exactly_where_abstraction_moved_says
"""

from __future__ import annotations

from numba import njit

from .codes import (
    BUILD_RANK,
    M_REDEALS,
    S_FOUND,
    S_FREE,
    S_HAVE,
    S_LEFT,
    S_ON_TOP,
    S_SRC_NEED,
    S_TOPS,
    builds_on,
    space_takes,
)
from .trap import first_pile_trapped


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
            if builds_on(host, card, build, both_ways) and (scratch[S_ON_TOP + host] > 0 or scratch[S_FREE + host] > 0):
                return True
    return False


@njit(cache=True, inline="always")
def _may_leave(card, rules, by_rank, emptied, scratch):
    """Whether the relaxed game lets ``card`` leave its pile, were it the top card (relaxed_dead)."""
    rank = card // 4 + 1
    if by_rank:  # a top of rank+1 is on another pile: this pile's top is `card` itself
        ok = rank < rules.ranks and (scratch[S_HAVE + rank + 1] > 0 or scratch[S_TOPS + rank + 1] > 0)
    else:
        ok = _host_ready(card, rules.ranks, rules.build, rules.both_ways, scratch)
    ok = ok or scratch[S_FOUND + card % 4] >= rank - 1
    return ok or (emptied and space_takes(rank, rules.ranks, rules.empty))


@njit(cache=True)
def dead_here(board, heights, found, rules, scratch, meta):
    """The dead tests where their proofs hold: the first pile's trap (:mod:`solver.kernels.trap`, where
    the rules allow it), then ``relaxed_dead`` (where the rules allow it and no redeal is left)."""
    if rules.trap and first_pile_trapped(board, heights, found, rules.ranks):
        return True
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
    scratch[:S_SRC_NEED] = 0
    emptied = False
    remaining = 0
    for suit in range(4):
        scratch[S_FOUND + suit] = found[suit]  # two decks: the higher of the suit's two foundations
    if worry:  # a card that is up may come back and host: it counts as one that has left its pile
        for f in range(found.shape[0]):
            for rank in range(1, found[f] + 1):
                scratch[S_HAVE + rank] = 1
                scratch[S_FREE + (rank - 1) * 4 + f % 4] += 1
    for p in range(piles):
        scratch[S_LEFT + p] = heights[p]
        remaining += heights[p]
        if heights[p] > 0:
            top = board[p, heights[p] - 1]
            scratch[S_TOPS + top // 4 + 1] += 1
            scratch[S_ON_TOP + top] += 1
        else:
            emptied = True
    progress = True
    while progress and remaining > 0:
        progress = False
        for p in range(piles):
            while scratch[S_LEFT + p] > 0:
                left = scratch[S_LEFT + p]
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
                    card = board[p, scratch[S_LEFT + p] - 1]
                    rank = card // 4 + 1
                    suit = card % 4
                    scratch[S_LEFT + p] -= 1
                    scratch[S_TOPS + rank] -= 1
                    scratch[S_ON_TOP + card] -= 1
                    scratch[S_HAVE + rank] = 1
                    scratch[S_FREE + card] += 1
                    while scratch[S_FOUND + suit] < nranks and scratch[S_FREE + scratch[S_FOUND + suit] * 4 + suit]:
                        scratch[S_FOUND + suit] += 1
                    remaining -= 1
                    if scratch[S_LEFT + p] > 0:
                        below = board[p, scratch[S_LEFT + p] - 1]
                        scratch[S_TOPS + below // 4 + 1] += 1
                        scratch[S_ON_TOP + below] += 1
                    else:
                        emptied = True
                progress = True
    return remaining > 0
