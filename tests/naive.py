"""Every plain model the tests hold the kernels to, in one place, written for clarity, not speed.

- the real game: the reference engine's exhaustive search (``solver.game.engine``), its verdicts on the
  shared corpus of small deals (``corpus.py``), and ``winnable_by_key``, the fate of every position of a
  small deal's whole position graph;
- the capacity relaxation's abstract game (``PlainModel``, solver/kernels/capacity.py);
- the suit-blind relaxation's abstract game (``PlainSuitBlind``, solver/kernels/suitblind.py);
- what a beam level keeps (``choose_plainly``, solver/kernels/beam.py);
- three pruning rules of the depth-first search (the module texts of solver/kernels/safe_moves.py,
  moves.py and dead.py): the safe foundation moves (``safe_moves_plainly``), the moves the search
  generates once no redeal is left, the lone-card rule among them (``kernel_moves_plainly``), and the
  relaxed game of the dead test (``relaxed_dead_plainly``), each written from the rule's statement on
  engine boards;
- the first pile's trap (``first_pile_trap_plainly``, solver/kernels/trap.py) and the first piles' game
  that grows it to a few piles (``first_piles_trap_plainly``): each game played to the end with Python's
  sets;
- foundations by alternate colour (PySolFC's Spanish Patience) as the kernels play them: the quotient
  game of two suits in two decks (``quotient``, solver/search/arrays.py, "Foundations by alternate
  colour"), where the models above then apply.

None of them shares code with the kernels.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import replace

from solver.game.board import Board
from solver.game.cards import is_red, make_card, suit_of
from solver.game.cards import rank_of as rank
from solver.game.deals import random_deal
from solver.game.engine import Move, apply_move, legal_moves, reference_search
from solver.game.rules import BUILD_ALTERNATE, BUILD_SUIT, EMPTY_ANY, EMPTY_KING, EMPTY_NONE, Rules

BEAM_RANKED = 8  # solver/kernels/beam.py: a level picks among its RANKED * width best candidates
BEAM_PER_ABSTRACT = 4  # ... and keeps at most this many positions of one abstract position


def pair_of(card: int) -> int:
    """Which foundations by alternate colour take ``card``: those of the red Aces (1) or the black (0),
    found by building a foundation of each colour up to the card's rank."""
    for red_ace in (False, True):
        red = red_ace
        for _ in range(rank(card) - 1):
            red = not red
        if red == is_red(card):
            return int(red_ace)
    raise AssertionError("a card is red or black")


def quotient(board: Board, rules: Rules) -> tuple[Board, Rules]:
    """A position of PySolFC's Spanish Patience in the game the kernels play instead: the two cards of one
    rank and foundation pair become two copies of one card (suit: the pair), the foundations two a pair
    (higher first, as two decks keep them).  Other games come back as they are."""
    if not rules.foundations_alternate:
        return board, rules
    piles = tuple(tuple(make_card(rank(c), pair_of(c)) for c in pile) for pile in board.piles)
    tops: list[list[int]] = [[], []]
    for suit, top in enumerate(board.foundations):
        tops[pair_of(make_card(1, suit))].append(top)
    high, low = ([max(t) for t in tops], [min(t) for t in tops])
    quotient_rules = replace(rules, name=f"{rules.name}-quotient", decks=2, foundations_alternate=False)
    return Board(piles, (*high, 0, 0, *low, 0, 0), redeals=board.redeals), quotient_rules


def prefix_length(pile: tuple[int, ...], origin: tuple[int, ...]) -> int:
    """How many bottom cards of ``pile`` are the dealt ones, ``origin`` (the relaxations' prefix)."""
    n = 0
    while n < min(len(pile), len(origin)) and pile[n] == origin[n]:
        n += 1
    return n


def score_plainly(board: Board, origin: Board) -> int:
    """The score of solver/kernels/score.py (one deck, foundations up from the Ace): four points a card up,
    minus four a card above a lower card of its suit in its pile, minus one a card above the card of its
    pile nearest to going up, minus two a card still where it was dealt (its pile's prefix against
    ``origin``)."""
    value = 4 * sum(board.foundations)
    for pile, dealt in zip(board.piles, origin.piles, strict=True):
        for i, card in enumerate(pile):
            value -= 4 * any(rank(low) < rank(card) and suit_of(low) == suit_of(card) for low in pile[:i])
        if pile:
            needs = [rank(c) - board.foundations[suit_of(c)] for c in pile]
            value -= len(pile) - 1 - needs.index(min(needs))
        value -= 2 * prefix_length(pile, dealt)
    return value


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


# The pruning rules of solver/kernels/safe_moves.py, moves.py and dead.py, each written from its statement
# in the module text, on engine boards and cards (where foundations build down, as the engine has them: no
# ranks turned over).


def cards_up(board: Board, rules: Rules) -> Counter:
    """How many copies of each card are on the foundations."""
    up: Counter = Counter()
    for index, top in enumerate(board.foundations):
        for r in rules.founded_ranks(top):
            up[make_card(r, index % 4)] += 1
    return up


def goes_up(board: Board, card: int, rules: Rules) -> bool:
    """Whether a foundation of the card's suit takes it."""
    tops = board.foundations[suit_of(card) :: 4]
    return any(rules.next_on_foundation(top) == rank(card) for top in tops)


SAFE_LOW, SAFE_SUIT, SAFE_ALTERNATE, SAFE_NO_HOSTS = "low", "suit", "alternate", "no hosts"


def safe_rule_plainly(rules: Rules) -> str | None:
    """Which rule of "Safe foundation moves" has its premises met by ``rules`` (None: no rule)."""
    if rules.worrying_back:
        return None  # "no worrying back (with it, the search plays no safe moves)"
    if rules.build == BUILD_SUIT and (not rules.both_ways or not rules.sequence_moves):
        return SAFE_SUIT  # "building by suit, down, or up or down one card at a time"
    if rules.build == BUILD_ALTERNATE and not rules.both_ways:
        return SAFE_ALTERNATE  # "building down by alternate colour ... single cards or runs"
    if rules.sequence_moves:
        return None  # the two rules left need single-card moves
    return SAFE_NO_HOSTS if rules.both_ways else SAFE_LOW


def is_safe_plainly(board: Board, card: int, rules: Rules, last_cards: bool = True) -> bool:
    """Whether ``card``, which a foundation takes, may go up at once: the rule's statement.  ``last_cards``
    False: as the kernel has SAFE_NO_HOSTS (the module text's "the other colour's foundations at r+1 or
    more", ranks counted from the foundation's base), which never lets the last card of a foundation go up,
    though all it could host (the other colour's one rank before it) may be up."""
    rule, r, suit = safe_rule_plainly(rules), rank(card), suit_of(card)
    up = cards_up(board, rules)
    if rule == SAFE_NO_HOSTS:  # every card it could host is up (every copy: one deck here)
        last = rules.next_on_foundation(r) == 0
        hosted = [x for x in range(4 * rules.ranks) if rules.can_host(card, x)]
        return (last_cards or not last) and all(up[x] == rules.decks for x in hosted)
    assert not rules.foundations_down  # the three rules below speak of foundations built up
    if r > 1 and up[make_card(r - 1, suit)] < rules.decks:  # two decks: both copies of rank r-1 are up
        return False
    tops = {s: min(board.foundations[s::4]) for s in range(4)}  # a suit's lowest foundation
    if rule == SAFE_SUIT:
        return True
    if rule == SAFE_LOW:  # every foundation (all eight with two decks) at r-2 or more
        return all(top >= r - 2 for top in board.foundations)
    other_colour = [s for s in range(4) if is_red(s) != is_red(suit)]  # (card s is the Ace of suit s)
    same_colour = [s for s in range(4) if s != suit and is_red(s) == is_red(suit)]
    return all(tops[s] >= r - 2 for s in other_colour) and all(tops[s] >= r - 3 for s in same_colour)


def safe_moves_plainly(board: Board, rules: Rules, last_cards: bool = True) -> tuple[Board, list[int]]:
    """The position once every safe foundation move has been played, to a fixed point, and the cards that
    went up (in the order played here: the fixed point does not depend on it, as a move played only raises
    foundations).  None while a redeal is left.  ``last_cards``: as in ``is_safe_plainly``."""
    played: list[int] = []
    if safe_rule_plainly(rules) is None or board.redeals != 0:
        return board, played
    while True:
        for p, pile in enumerate(board.piles):
            if pile and goes_up(board, pile[-1], rules) and is_safe_plainly(board, pile[-1], rules, last_cards):
                played.append(pile[-1])
                board = apply_move(board, Move(p, None), rules)
                break
        else:
            return board, played


def spaces_useless(board: Board, rules: Rules) -> bool:
    """The premise of "Lone cards stay put": no worrying back, no runs, no redeal left, and an empty pile
    takes nothing, or only a King while every King in the tableau is the bottom card of its pile."""
    if rules.worrying_back or rules.sequence_moves or board.redeals != 0:
        return False
    kings_at_bottom = all(rank(c) != rules.ranks for pile in board.piles for c in pile[1:])
    return rules.empty_pile == EMPTY_NONE or (rules.empty_pile == EMPTY_KING and kings_at_bottom)


def lone_moves(board: Board, rules: Rules) -> set[Move]:
    """The legal moves the lone-card rule drops: a card alone in its pile onto another pile's card."""
    if not spaces_useless(board, rules):
        return set()
    return {
        m
        for m in legal_moves(board, rules)
        if m.source >= 0 and len(board.piles[m.source]) == 1 and m.target is not None and board.piles[m.target]
    }


def back_as_from_the_higher(board: Board, move: Move) -> bool:
    """A card back from a suit's lower foundation (two decks) where the higher one shows the same card: the
    kernel takes it from the higher one, to the same position (solver/kernels/moves.py, position.py)."""
    if move.is_redeal or move.source > -5:
        return False
    index = -1 - move.source
    return board.foundations[index] == board.foundations[index - 4]


def kernel_moves_plainly(board: Board, rules: Rules) -> set[Move]:
    """The moves ``generate_moves`` writes, as its docstring and the module text say: every legal move while
    a redeal is left; once none is, all but (1) a move into an empty pile other than the first, or one that
    empties the pile it comes from (the same position up to pile order), (2) with two decks, a move from or
    onto a pile that an earlier pile equals card for card (its "twin"), (3) the lone-card rule's.  And
    always, with two decks, a card back from a suit's lower foundation where the higher one shows the same
    card: it comes from the higher one, to the same position (solver/kernels/position.py, ``apply_move``)."""
    legal = {m for m in legal_moves(board, rules) if not back_as_from_the_higher(board, m)}
    if board.redeals != 0:
        return legal
    piles = board.piles
    first_empty = next((p for p, pile in enumerate(piles) if not pile), None)

    def twin(p) -> bool:
        return rules.decks > 1 and p is not None and p >= 0 and bool(piles[p]) and piles[p] in piles[:p]

    def pile_order_only(m: Move) -> bool:
        if m.target is None or piles[m.target]:
            return False
        return m.target != first_empty or (m.source >= 0 and len(piles[m.source]) == m.count)

    kept = {m for m in legal if not pile_order_only(m) and not twin(m.source) and not twin(m.target)}
    return kept - lone_moves(board, rules)


def relaxed_dead_plainly(board: Board, rules: Rules) -> bool:
    """Whether the relaxed game of "Dead positions" cannot clear every pile, decided by its fixed point.

    A card leaves its pile (from the top of what the relaxed game has left of it) when a card that may host
    it is the top card of another pile or has left its pile (with worrying back: or is up), or when every
    lower card of its suit is up or has left its pile (two decks: a copy of each rank below it), or when
    some pile is empty and an empty pile may take it.  Where runs move, a card may also leave with the cards
    above it when they form a run on it.  Letting a card leave never stops another from leaving, so the
    order in which they leave does not matter."""
    up = cards_up(board, rules)
    gone: Counter = Counter()  # copies of each card that have left their pile
    kept = [len(pile) for pile in board.piles]  # how much of each pile the relaxed game has left

    def top(q):
        return board.piles[q][kept[q] - 1] if kept[q] else None

    def may_leave(card, p) -> bool:
        hosts = [x for x in range(4 * rules.ranks) if rules.can_host(x, card)]
        if any(gone[x] or (rules.worrying_back and up[x]) for x in hosts):
            return True
        if any(top(q) in hosts for q in range(len(kept)) if q != p):
            return True
        lower = [make_card(r, suit_of(card)) for r in rules.founded_ranks(rank(card)) if r != rank(card)]
        if all(up[x] or gone[x] for x in lower):
            return True
        return 0 in kept and rules.space_takes(rank(card))

    changed = True
    while changed:
        changed = False
        for p, pile in enumerate(board.piles):
            for i in range(kept[p] - 1, -1, -1):  # i: the lowest card to leave, with every card above it
                if i < kept[p] - 1 and not (rules.sequence_moves and rules.can_host(pile[i], pile[i + 1])):
                    break
                if may_leave(pile[i], p):
                    gone.update(pile[i : kept[p]])
                    kept[p], changed = i, True
                    break
    return sum(kept) > 0


def first_pile_trap_rules_plainly(rules: Rules) -> bool:
    """Whether ``rules`` meet the premises of the first pile's trap (solver/kernels/trap.py)."""
    return (
        rules.decks == 1
        and not rules.foundations_alternate
        and not rules.foundations_down
        and rules.build == BUILD_SUIT
        and not rules.both_ways
        and not rules.sequence_moves
        and rules.empty_pile == EMPTY_NONE
        and not rules.worrying_back
        and not rules.face_down_rows
    )


def first_pile_trap_plainly(board: Board, rules: Rules, put: bool = True, cut: bool = True) -> frozenset[int]:
    """The first pile's trap, by playing the first pile's game of its module text to the end: its
    positions are what is known of the first pile's top (top first); take the top card unless it is held,
    put on it the next lower card of its suit if that card is neither up nor in the pile, or cut the pile
    to four cards.  The cards it traps: those of the first pile never the top card nor cut off (empty: none,
    the trap does not hold).  ``put``,
    ``cut``: False leaves that move out, a game that proves too much (the tests show the difference)."""
    if not first_pile_trap_rules_plainly(rules):
        return frozenset()
    if sum(len(pile) for pile in board.piles) > 4 * len(board.piles):  # a redeal could deal five to a pile
        return frozenset()
    start = tuple(reversed(board.piles[0]))
    seen, waiting, freed = {start}, [start], set()
    while waiting:
        known = waiting.pop()
        if not known:
            continue
        top, under = known[0], known[1:]
        freed.add(top)
        if cut:
            freed.update(known[4:])
        following = [known[:4]] if cut and len(known) > 4 else []
        if not held_plainly(top, under, rules):
            following.append(under)
        if put and rank(top) > 1:
            lower = make_card(rank(top) - 1, suit_of(top))
            if rank(lower) > board.foundations[suit_of(lower)] and lower not in known:
                following.append((lower, *known))
        for position in following:
            if position not in seen:
                seen.add(position)
                waiting.append(position)
    return frozenset(set(start) - freed)


def first_piles_trap_plainly(
    board: Board,
    rules: Rules,
    tracked: int,
    onto: bool = True,
    put: bool = True,
    redeal: bool = True,
    limit: int = 200_000,
) -> frozenset[int]:
    """The first piles' game of solver/kernels/trap.py played to the end with tuples and sets.  A position:
    the known piles (each top first) and whether the last is known only from its top.  Moves: a top card
    onto its host atop another known pile; a top card taken away when its host is unknown here or no lower
    card of its suit is known; the next lower card of a top's suit put on it, if neither up nor known; a
    redeal, cutting the known cards in fours and keeping ``tracked`` of them.  The cards it traps: those of
    the first position never taken nor forgotten (empty: none).  ``onto``, ``put``, ``redeal``: False leaves
    that move out, a game that proves too much (the tests show each is needed).  More than ``limit``
    positions: RuntimeError."""
    if not first_pile_trap_rules_plainly(rules) or not 1 <= tracked <= len(board.piles):
        return frozenset()
    if sum(len(pile) for pile in board.piles) > 4 * len(board.piles):  # a redeal could deal five to a pile
        return frozenset()
    start = (tuple(tuple(reversed(pile)) for pile in board.piles[:tracked]), False)
    first = {card for pile in start[0] for card in pile}
    seen, waiting, gone = {start}, [start], set()
    while waiting:
        piles, prefix = waiting.pop()
        known = [card for pile in piles for card in pile]
        tops = {pile[0]: i for i, pile in enumerate(piles) if pile}
        following = []

        for top, i in tops.items():
            host = make_card(rank(top) + 1, suit_of(top)) if rank(top) < rules.ranks else None
            if onto and host in tops:
                following.append(_known_after(piles, prefix, i, tops[host], top))
            lower_known = any(suit_of(c) == suit_of(top) and rank(c) < rank(top) for c in known)
            if (host is not None and host not in known) or not lower_known:
                gone.add(top)
                following.append(_known_after(piles, prefix, i))
            if put and rank(top) > 1:
                lower = make_card(rank(top) - 1, suit_of(top))
                if rank(lower) > board.foundations[suit_of(lower)] and lower not in known:
                    following.append(_known_after(piles, prefix, None, i, lower))
        if known and redeal:
            kept = known[: 4 * tracked]
            gone.update(known[len(kept) :])
            fours = tuple(tuple(kept[k : k + 4]) for k in range(0, len(kept), 4))
            following.append((fours, len(kept) % 4 != 0))
        for position in following:
            if position not in seen:
                seen.add(position)
                waiting.append(position)
        if first <= gone:
            return frozenset()  # every card has left: nothing more to learn
        if len(seen) > limit:
            raise RuntimeError("the first piles' game is too large to play plainly")
    return frozenset(first - gone)


def _known_after(piles, prefix, source, target=None, card=None):
    """The first piles' position after the top of ``source`` (None: no pile) leaves and ``card`` goes onto
    ``target``; a last pile known from its top with no card left is forgotten."""
    new = [pile[1:] if j == source else pile for j, pile in enumerate(piles)]
    if target is not None:
        new[target] = (card, *new[target])
    if prefix and not new[-1]:
        return tuple(new[:-1]), False
    return tuple(new), prefix


def held_plainly(card: int, under: tuple[int, ...], rules: Rules) -> bool:
    """Whether ``card`` can neither move onto another pile nor go up while ``under`` lies beneath it."""
    no_host = rank(card) == rules.ranks or make_card(rank(card) + 1, suit_of(card)) in under
    return no_host and any(suit_of(c) == suit_of(card) and rank(c) < rank(card) for c in under)
