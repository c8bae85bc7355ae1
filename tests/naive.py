"""Every plain model the tests hold the kernels to, in one place, written for clarity, not speed.

- the real game: the reference engine's exhaustive search (``solver.game.engine``), its verdicts on the
  shared corpus of small deals (``corpus.py``), and ``winnable_by_key``, the fate of every position of a
  small deal's whole position graph;
- the capacity relaxation's abstract game (``PlainModel``, solver/kernels/capacity.py);
- the suit-blind relaxation's abstract game (``PlainSuitBlind``, solver/kernels/suitblind.py);
- what a beam level keeps (``choose_plainly``, solver/kernels/beam.py).

None of them shares code with the kernels.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from solver.game.board import Board
from solver.game.cards import rank_of as rank
from solver.game.deals import random_deal
from solver.game.engine import apply_move, legal_moves, reference_search
from solver.game.rules import EMPTY_ANY, EMPTY_KING, Rules

BEAM_RANKED = 8  # solver/kernels/beam.py: a level picks among its RANKED * width best candidates
BEAM_PER_ABSTRACT = 4  # ... and keeps at most this many positions of one abstract position


def prefix_length(pile: tuple[int, ...], origin: tuple[int, ...]) -> int:
    """How many bottom cards of ``pile`` are the dealt ones, ``origin`` (the relaxations' prefix)."""
    n = 0
    while n < min(len(pile), len(origin)) and pile[n] == origin[n]:
        n += 1
    return n


class PlainModel:
    """The abstract game of solver/kernels/capacity.py's module text, for one origin, written for clarity."""

    def __init__(self, origin: Board, rules, leaving_card_holds_nothing: bool = True):
        self.origin, self.rules = origin.piles, rules
        self.leaving_card_holds_nothing = leaving_card_holds_nothing  # False: the rule before it was added
        self.place = {card: (p, i) for p, pile in enumerate(self.origin) for i, card in enumerate(pile)}
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}  # every position decided

    def winnable(self, prefix: tuple[int, ...], found: tuple[int, ...]) -> bool:
        if (prefix, found) not in self.memo:
            self.memo[prefix, found] = self._winnable(prefix, found)
        return self.memo[prefix, found]

    def abstract(self, board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
        prefix = [prefix_length(pile, origin) for pile, origin in zip(board.piles, self.origin, strict=True)]
        return tuple(prefix), tuple(board.foundations)

    def space_takes(self, r: int) -> bool:
        return self.rules.space_takes(r)

    def fits(self, prefix, found, left=None) -> bool:
        """Seat every free card by augmenting paths; ``left`` = (card, pile) that just left that pile's prefix
        (seated neither where it came from nor, having just been a top card, under another card)."""
        in_prefix = {card for p, n in enumerate(prefix) for card in self.origin[p][:n]}
        free = [c for c in self.place if rank(c) > found[c % 4] and c not in in_prefix]
        tops = {self.origin[p][n - 1]: p for p, n in enumerate(prefix) if n > 0}
        seats = [("card", c) for c in free + list(tops)] + [("space", p) for p, n in enumerate(prefix) if n == 0]

        def allowed(card, seat):
            kind, what = seat
            if left is not None and card == left[0]:
                pile = left[1]
                if kind == "space" and what == pile:
                    return False
                if kind == "card" and tops.get(what) == pile:
                    return False
            # It was a top card as it moved: it holds nothing.
            if self.leaving_card_holds_nothing and left is not None and seat == ("card", left[0]):
                return False
            if kind == "space":
                return self.space_takes(rank(card))
            return rank(what) == rank(card) + 1

        owner: dict = {}

        def seat_card(card, seen) -> bool:
            for seat in seats:
                if seat not in seen and allowed(card, seat):
                    seen.add(seat)
                    if seat not in owner or seat_card(owner[seat], seen):
                        owner[seat] = card
                        return True
            return False

        return all(seat_card(card, set()) for card in free)

    def _winnable(self, prefix, found) -> bool:
        if min(found) == self.rules.ranks:
            return True
        for s in range(4):  # a free card up
            card = found[s] * 4 + s
            if found[s] < self.rules.ranks and card in self.place:
                p, i = self.place[card]
                raised = found[:s] + (found[s] + 1,) + found[s + 1 :]
                if i >= prefix[p] and self.fits(prefix, raised) and self.winnable(prefix, raised):
                    return True
        for p, n in enumerate(prefix):
            if n == 0:
                continue
            card = self.origin[p][n - 1]
            shrunk = prefix[:p] + (n - 1,) + prefix[p + 1 :]
            s = card % 4
            if found[s] == rank(card) - 1:  # the prefix top up
                raised = found[:s] + (found[s] + 1,) + found[s + 1 :]
                if self.fits(shrunk, raised) and self.winnable(shrunk, raised):
                    return True
            if self.fits(shrunk, found, (card, p)) and self.winnable(shrunk, found):  # it leaves
                return True
        return False


WALK_SIZES = [(4, 3), (4, 4), (5, 3), (5, 4), (6, 4), (5, 5)]  # (ranks, piles) of the random walks' deals


def walk_positions(rules, rng: random.Random, deals: int, steps: int = 25):
    """(origin, position) pairs: each random deal, and positions a random walk from it meets."""
    for _ in range(deals):
        origin = random_deal(rules, rng)
        board = origin
        yield origin, board
        for _ in range(rng.randint(1, steps)):
            moves = legal_moves(board, rules)
            if not moves:
                break
            board = apply_move(board, rng.choice(moves), rules)
            yield origin, board


class WalkReference:
    """The reference search's verdict on positions met in order along random walks, searching no
    more once a walk has met a lost position: a position reached from a lost one is lost too (a
    win from it would extend to a win from the earlier one).  The search of one large lost deal
    costs seconds, and a walk meets up to 26 of its positions."""

    def __init__(self, rules):
        self.rules, self.lost_walk = rules, None

    def lost(self, origin: Board, board: Board) -> bool:
        """Whether ``board``, met on the walk from ``origin`` after every position asked before, is lost."""
        if self.lost_walk is origin:
            return True
        if reference_search(board, self.rules) is not None:
            return False
        self.lost_walk = origin
        return True


class PlainSuitBlind:
    """The suit-blind game for one origin, written for clarity.  A position is a tuple of
    (prefix length, free cards on it, rank of the bottom card when the prefix is empty) per pile,
    and the foundations."""

    def __init__(self, origin: Board, rules, restricted: bool = True):
        self.origin, self.rules, self.restricted = origin.piles, rules, restricted

    def abstract(self, board: Board):
        piles = []
        for pile, origin in zip(board.piles, self.origin, strict=True):
            n = prefix_length(pile, origin)
            bottom = rank(pile[0]) if n == 0 and pile else 0
            piles.append((n, len(pile) - n, bottom))
        return tuple(piles), tuple(board.foundations)

    def top_rank(self, pile, p) -> int:
        n, k, bottom = pile
        if k:
            first = bottom if n == 0 else rank(self.origin[p][n - 1]) - 1
            return first - k + 1
        return rank(self.origin[p][n - 1]) if n else 0

    def free(self, piles, found, card) -> bool:
        in_prefix = any(card in self.origin[p][:n] for p, (n, _, _) in enumerate(piles))
        return rank(card) > found[card % 4] and not in_prefix

    def space_takes(self, r: int) -> bool:
        return self.rules.space_takes(r)

    def ripe(self, piles, found) -> int | None:
        """The first pile whose prefix top must go up at once."""
        for p, (n, k, _) in enumerate(piles):
            if n and not k:
                card = self.origin[p][n - 1]
                if found[card % 4] == rank(card) - 1 and rank(card) <= min(found) + 2:
                    return p
        return None

    def lone_stays(self, piles) -> bool:
        """Whether a pile of one card may only send it up."""
        rule = self.rules.empty_pile
        kings_above = any(rank(c) == self.rules.ranks for p, (n, _, _) in enumerate(piles) for c in self.origin[p][1:n])
        return rule != EMPTY_ANY and not (rule == EMPTY_KING and kings_above)

    def children(self, piles, found):
        ripe = self.ripe(piles, found) if self.restricted else None
        if ripe is not None:
            n, _, _ = piles[ripe]
            s = self.origin[ripe][n - 1] % 4
            yield piles[:ripe] + ((n - 1, 0, 0),) + piles[ripe + 1 :], found[:s] + (found[s] + 1,) + found[s + 1 :]
            return
        lone_stays = self.restricted and self.lone_stays(piles)
        for p, (n, k, bottom) in enumerate(piles):
            t = self.top_rank(piles[p], p)
            if t == 0:
                continue
            rest = list(piles)
            rest[p] = (n, k - 1, bottom if k > 1 else 0) if k else (n - 1, 0, 0)
            ups = (
                [s for s in range(4) if self.free(piles, found, (t - 1) * 4 + s)] if k else [self.origin[p][n - 1] % 4]
            )
            for s in ups:
                if found[s] == t - 1:
                    yield tuple(rest), found[:s] + (found[s] + 1,) + found[s + 1 :]
            if lone_stays and n + k == 1:
                continue
            for q, other in enumerate(piles):
                if q == p:
                    continue
                moved = list(rest)
                if other != (0, 0, 0) and self.top_rank(other, q) == t + 1:
                    moved[q] = (other[0], other[1] + 1, other[2])
                elif other == (0, 0, 0) and self.space_takes(t):
                    moved[q] = (0, 1, t)
                else:
                    continue
                yield tuple(moved), found

    def reachable(self, piles, found, canonical: bool = False) -> tuple[bool, int]:
        """Whether a won position is reachable, and how many positions were met.  ``canonical``
        meets positions that differ only in the order of their piles without a prefix once."""
        name = self.canonical if canonical else (lambda position: position)
        seen = {name((piles, found))}
        stack = [(piles, found)]
        while stack:
            position = stack.pop()
            if min(position[1]) == self.rules.ranks:
                return True, len(seen)
            for child in self.children(*position):
                if name(child) not in seen:
                    seen.add(name(child))
                    stack.append(child)
        return False, len(seen)

    def winnable(self, piles, found) -> bool:
        return self.reachable(piles, found)[0]

    @staticmethod
    def canonical(position):
        piles, found = position
        bare = iter(sorted(pile for pile in piles if pile[0] == 0))
        return tuple(pile if pile[0] else next(bare) for pile in piles), found


def choose_plainly(keys, abstract, width):
    """What a level keeps, written plainly: best key first among the BEAM_RANKED * width best, at most
    BEAM_PER_ABSTRACT of one abstract position, at most ``width``."""
    ranked = sorted(range(len(keys)), key=lambda c: -keys[c])[: BEAM_RANKED * width]
    kept, per = [], {}
    for c in ranked:
        if len(kept) < width and per.get(abstract[c], 0) < BEAM_PER_ABSTRACT:
            per[abstract[c]] = per.get(abstract[c], 0) + 1
            kept.append(c)
    return kept


def winnable_by_key(board: Board, rules: Rules, key: Callable[[Board], object], limit: int = 30_000) -> dict | None:
    """Every reachable position's ``key`` -> whether a win is reachable from it; None if too many."""
    index = {board: 0}
    positions, edges = [board], [[]]
    queue = deque([board])
    while queue:
        position = queue.popleft()
        here = index[position]
        for move in legal_moves(position, rules):
            child = apply_move(position, move, rules)
            if child not in index:
                if len(positions) >= limit:
                    return None
                index[child] = len(positions)
                positions.append(child)
                edges.append([])
                queue.append(child)
            edges[here].append(index[child])
    parents = [[] for _ in positions]
    for a, children in enumerate(edges):
        for b in children:
            parents[b].append(a)
    good = [p.is_won() for p in positions]
    queue = deque(i for i, g in enumerate(good) if g)
    while queue:
        for a in parents[queue.popleft()]:
            if not good[a]:
                good[a] = True
                queue.append(a)
    fate: dict = {}
    for p, g in zip(positions, good, strict=True):
        k = key(p)
        fate[k] = fate.get(k, False) or g  # equal keys: piles in another order, same fate
    return fate
