"""The capacity relaxation (solver/_capacity.py) against a plain model of it and against the reference search.

The plain model seats the free cards by an explicit bipartite matching
(where the kernel counts) and decides the abstract game by plain recursion;
the reference search decides the real game.  Positions are met on random
walks from random reduced deals, abstracted against the deal.
"""

import random

import numpy as np
import pytest

from solver.game.board import Board
from solver.game.deals import random_deal
from solver.game.engine import apply_move, legal_moves, reference_search
from solver.game.rules import EMPTY_ANY, EMPTY_KING, GAMES
from solver.kernels import capacity as C
from solver.kernels import codes as K
from solver.kernels import position as P
from solver.search.arrays import kernel_rules, state_arrays

CZ = C.capacity_keys()
SIZES = [(4, 3), (4, 4), (5, 3), (5, 4), (6, 4), (5, 5)]


def rank(card: int) -> int:
    return card // 4 + 1


class PlainModel:
    """The abstract game of the module text, for one origin, written for clarity."""

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
        prefix = []
        for pile, origin in zip(board.piles, self.origin, strict=True):
            n = 0
            while n < min(len(pile), len(origin)) and pile[n] == origin[n]:
                n += 1
            prefix.append(n)
        return tuple(prefix), tuple(board.foundations)

    def space_takes(self, r: int) -> bool:
        rule = self.rules.empty_pile
        return rule == EMPTY_ANY or (rule == EMPTY_KING and r == self.rules.ranks)

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


def decide(cap, ckeys, ob, oh, rules, table_words: int, node_limit: int) -> int:
    """The kernel's verdict on the abstract position in ``cap`` / ``ckeys`` (origin ``ob``, ``oh``),
    with a fresh table of ``table_words`` words."""
    table = np.zeros(table_words, dtype=np.uint64)
    cmeta = np.zeros(C.CMETA_SIZE, dtype=np.int64)
    where = C.origin_places(ob, oh)
    empty = kernel_rules(rules).empty
    return C.capacity_search(ob, where, rules.ranks, empty, cap, CZ, ckeys, table, cmeta, node_limit)


def kernel_verdict(board: Board, origin: Board, rules, node_limit: int = 1 << 20) -> int:
    """The kernel's verdict on the abstraction of ``board`` against ``origin``, with a fresh table."""
    b, h, f = state_arrays(board, rules)
    ob, oh, _ = state_arrays(origin, rules)
    cap = np.zeros(C.CAP_SIZE, dtype=np.int32)
    ckeys = np.zeros(2, dtype=np.uint64)
    C.abstract(b, h, f, ob, oh, cap, CZ, ckeys)
    return decide(cap, ckeys, ob, oh, rules, 1 << 22, node_limit)


def kernel_verdict_of(prefix, found, origin: Board, rules) -> int:
    """The kernel's verdict on the abstract position given by its prefix lengths and foundations."""
    ob, oh, _ = state_arrays(origin, rules)
    cap = np.zeros(C.CAP_SIZE, dtype=np.int32)
    ckeys = np.zeros(2, dtype=np.uint64)
    lengths, found = np.array(prefix, dtype=np.int32), np.array(found, dtype=np.int32)
    C.abstract_prefixes(lengths, found, ob, rules.ranks, cap)
    C._hash(lengths, found, CZ, ckeys)
    return decide(cap, ckeys, ob, oh, rules, 1 << 17, 1 << 15)


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


def kernel_dead(board: Board, origin: Board, rules) -> bool:
    return kernel_verdict(board, origin, rules) == K.LOST


@pytest.mark.parametrize("game", list(GAMES))
def test_kernel_decides_the_abstract_game_as_the_plain_model(game):
    """Same verdict on every abstract position met, lost ones included; every real position fits."""
    rng = random.Random(f"capacity-model-{game}")
    verdicts = {K.WON: 0, K.LOST: 0}
    for i in range(60):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        model = None
        for origin, board in walk_positions(rules, rng, 1):
            model = model if model is not None and model.origin == origin.piles else PlainModel(origin, rules)
            prefix, found = model.abstract(board)
            assert model.fits(prefix, found), board.to_text()
            expected = K.WON if model.winnable(prefix, found) else K.LOST
            assert kernel_verdict(board, origin, rules) == expected, (game, board.to_text(), origin.to_text())
            verdicts[expected] += 1
    assert verdicts[K.WON] >= 100 and verdicts[K.LOST] >= 30, verdicts


@pytest.mark.parametrize("game", list(GAMES))
def test_kernel_decides_every_abstract_position_of_a_deal_as_the_plain_model(game):
    """Every abstract position the plain model decides on its way from a deal's root, deep ones
    included: the kernel's safe moves up (it tries no other move where one applies) and its pointless
    leaves (a bottom card never leaves where spaces take nothing) change no verdict.  The plain model
    has neither rule, and a looser safe rule (three ranks above every foundation) fails here."""
    rng = random.Random(f"capacity-every-{game}")
    checked = {K.WON: 0, K.LOST: 0}
    with_safe_move = 0
    for i in range(48):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        origin = random_deal(rules, rng)
        model = PlainModel(origin, rules)
        model.winnable(*model.abstract(origin))
        ob, oh, _ = state_arrays(origin, rules)
        where = C.origin_places(ob, oh)
        cap = np.zeros(C.CAP_SIZE, dtype=np.int32)
        for (prefix, found), winnable in model.memo.items():
            if not model.fits(prefix, found):
                continue
            expected = K.WON if winnable else K.LOST
            assert kernel_verdict_of(prefix, found, origin, rules) == expected, (game, prefix, found, origin.to_text())
            checked[expected] += 1
            C.abstract_prefixes(np.array(prefix, dtype=np.int32), np.array(found, dtype=np.int32), ob, rules.ranks, cap)
            with_safe_move += C._first_move(cap, ob, where, rules.ranks, 4 + 2 * rules.piles) > 0
    assert checked[K.WON] >= 300 and checked[K.LOST] >= 150 and with_safe_move >= 300, (checked, with_safe_move)


@pytest.mark.parametrize("game", list(GAMES))
def test_dead_positions_are_lost(game):
    """Wherever the capacity test says dead, the reference search finds no win; it fires, also where
    the relaxation of solver/_kernels.py does not."""
    rng = random.Random(f"capacity-sound-{game}")
    scratch = np.zeros(P.SCRATCH_SIZE, dtype=np.int32)
    dead = beyond_relaxation = 0
    for i in range(150):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        reference = WalkReference(rules)
        for origin, board in walk_positions(rules, rng, 1):
            if not kernel_dead(board, origin, rules):
                continue
            assert reference.lost(origin, board), (game, board.to_text(), origin.to_text())
            dead += 1
            b, h, f = state_arrays(board, rules)
            beyond_relaxation += not P.relaxed_dead(
                b, h, f, rules.ranks, kernel_rules(rules).empty, False, scratch
            )
    assert dead >= 50 and beyond_relaxation >= 10, (dead, beyond_relaxation)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_leaving_card_holding_nothing_proves_more(game):
    """The rule that a card leaving its prefix holds nothing as it moves: positions the abstract game
    without it could win and with it cannot are found, and the reference search finds each lost."""
    rng = random.Random(f"capacity-leaving-{game}")
    newly_dead = 0
    for i in range(150):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        loose, reference = None, WalkReference(rules)
        for origin, board in walk_positions(rules, rng, 1):
            loose = loose if loose is not None and loose.origin == origin.piles else PlainModel(origin, rules, False)
            if not kernel_dead(board, origin, rules) or not loose.winnable(*loose.abstract(board)):
                continue
            assert reference.lost(origin, board), (game, board.to_text(), origin.to_text())
            newly_dead += 1
    assert newly_dead >= 50, newly_dead
