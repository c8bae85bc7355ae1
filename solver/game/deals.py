"""PySolFC's deals: game number -> layout, card for card.

What is reproduced (facts read from PySolFC's ``pysollib/pysolrandom.py``,
``pysollib/game/__init__.py`` and ``pysollib/games/bakersdozen.py``):

* Game numbers below 32000 use the Microsoft-compatible LCG (``LCRandom31``)
  on the deck rearranged rank-major; larger numbers use Python's Mersenne
  Twister seeded with the number.  (The ``pysol_cards`` package switches at
  ``<= 32000``; PySolFC itself at ``< 32000``, which we follow.)
* Both shuffle with the same Fisher-Yates loop, from the last card down.
* The shuffled list is the talon, whose *last* card is dealt first, but the
  Baker's Dozen hook reverses it: so for Baker's Dozen and its kin the k-th
  card of the shuffle goes to pile ``k % piles``.  Portuguese Solitaire has
  no hook, so there the shuffle is dealt from its end.
* Baker's Dozen hook: each King, in shuffle order, swaps places with the
  first non-King dealt earlier into the same pile.
* Good Measure: that hook (with 10 piles), then the two Aces dealt *last*
  are taken out and founded; the other 50 cards are dealt as usual.
* Cruel, Perseverance, Indefatigable and Royal Family
  (``_shuffleHookMoveToBottom`` in ``pysollib/game/__init__.py``): the four
  base cards of the foundations (Aces; Kings in Royal Family) go to the
  bottom of the talon, so they are dealt last, to the foundations; the other
  48 cards keep their order and are dealt from the talon's end, as in
  Portuguese Solitaire.  Ripple Fan has no hook; nor have Castles in Spain
  and Vineyard.  Martha deals its Aces last, to the foundations, as Cruel.
* Vineyard deals five rows to its ten piles, then one more card to piles
  1 and 2: the rows from the talon's end, as everywhere.
* Face-down rows (``Rules.face_down_rows``): Castles in Spain deals its
  first three rows face down, Martha its first and third (PySolFC's
  ``startGame`` flips); the top card of every pile is face up.
"""

from __future__ import annotations

import random
from dataclasses import replace

from .board import Board
from .cards import make_card, rank_of
from .rules import DEAL_BAKERS, DEAL_BASES_LAST, DEAL_GOOD_MEASURE, DEAL_PLAIN, Rules

MS_DEALS_BELOW = 32000
MAX_DEAL = 10**20  # PySolFC's largest game number

# PySolFC orders suits C S H D; our codes order them C D H S.
_PYSOL_SUITS = (0, 3, 2, 1)


class DealNumberError(ValueError):
    """A game number PySolFC cannot deal."""


class _MicrosoftRandom:
    def __init__(self, seed: int) -> None:
        self.state = seed

    def randint(self, low: int, high: int) -> int:
        self.state = (self.state * 214013 + 2531011) & ((1 << 33) - 1)
        return low + ((self.state >> 16) & 0x7FFF) % (high + 1 - low)


class _MersenneRandom:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return low + int(self.rng.random() * (high + 1 - low))


def _check_number(number: int) -> None:
    if not 1 <= number < MAX_DEAL:
        raise DealNumberError(f"deal number {number} is out of range (1 to {MAX_DEAL - 1})")


def pysol_shuffle(number: int, decks: int = 1) -> list[int]:
    """The 52 (two decks: 104) cards in PySolFC's shuffled talon order for this game number."""
    _check_number(number)
    cards = [make_card(rank, _PYSOL_SUITS[suit]) for _ in range(decks) for suit in range(4) for rank in range(1, 14)]
    if number < MS_DEALS_BELOW and decks == 1:  # pysol_cards' ms_rearrange leaves other decks as they are
        cards = [cards[rank + offset] for rank in range(13) for offset in (0, 39, 26, 13)]
    if number < MS_DEALS_BELOW:
        rng: _MicrosoftRandom | _MersenneRandom = _MicrosoftRandom(number)
    else:
        rng = _MersenneRandom(number)
    for n in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def _swap_kings_down(order: list[int], piles: int) -> list[int]:
    order = list(order)
    kings = [i for i, c in enumerate(order) if c >= 48]
    for i in kings:
        for j in range(i % piles, i, piles):
            if order[j] < 48:
                order[i], order[j] = order[j], order[i]
                break
    return order


def _deal_rows(order: list[int], piles: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(order[p::piles]) for p in range(piles))


def turned_down(board: Board, rules: Rules) -> Board:
    """The dealt ``board`` with the cards of ``rules.face_down_rows`` face down, but each pile's top card,
    which is face up (PySolFC deals those rows with ``flip=0`` and turns a pile's top card up at once)."""
    rows = set(rules.face_down_rows)
    down = frozenset(c for pile in board.piles for i, c in enumerate(pile[:-1]) if i in rows)
    return replace(board, down=down)


def pysolfc_layout(rules: Rules, number: int) -> Board:
    """PySolFC's own layout for this game number, exactly as it deals it."""
    return turned_down(_pysolfc_piles(rules, number), rules)


def _pysolfc_piles(rules: Rules, number: int) -> Board:
    shuffled = pysol_shuffle(number, rules.decks)
    if rules.ranks != 13:
        raise DealNumberError("numbered deals exist only for the full deck")
    redeals = rules.redeals
    if rules.deal_style == DEAL_PLAIN:
        return Board(_deal_rows(shuffled[::-1], rules.piles), (0,) * rules.foundations, redeals=redeals)
    if rules.deal_style == DEAL_BASES_LAST:
        rest = [c for c in shuffled if rank_of(c) != rules.base_rank]
        return Board(_deal_rows(rest[::-1], rules.piles), (rules.base_rank,) * rules.foundations, redeals=redeals)
    order = _swap_kings_down(shuffled, rules.piles)
    if rules.deal_style == DEAL_BAKERS:
        return Board(_deal_rows(order, rules.piles), (0,) * rules.foundations, redeals=redeals)
    if rules.deal_style != DEAL_GOOD_MEASURE:
        raise DealNumberError(f"no numbered deals for deal style {rules.deal_style!r}")
    aces = [i for i, c in enumerate(order) if c < 4][-rules.founded :]
    foundations = [0] * rules.foundations
    for i in aces:
        suit = order[i] % 4
        foundations[suit if not foundations[suit] else suit + 4] = 1
    rest = [c for i, c in enumerate(order) if i not in aces]
    return Board(_deal_rows(rest, rules.piles), tuple(foundations), redeals=redeals)


def kings_to_bottom(board: Board, top_rank: int) -> Board:
    """Slide every King below the other cards of its pile, Kings keeping their order."""
    king_codes = range(4 * (top_rank - 1), 4 * top_rank)
    piles = tuple(
        tuple(c for c in p if c in king_codes) + tuple(c for c in p if c not in king_codes) for p in board.piles
    )
    if piles == board.piles:
        return board
    moved = [str(i + 1) for i, (a, b) in enumerate(zip(piles, board.piles, strict=True)) if a != b]
    note = (
        f"PySolFC's layout leaves a King above another card in pile{'s' if len(moved) > 1 else ''} "
        f"{', '.join(moved)}; as the rules say, the King was slid to the bottom"
    )
    return replace(board, piles=piles, note=note)


def deal(rules: Rules, number: int) -> Board:
    """The position the project plays for PySolFC's game ``number`` of this game.

    A deck of fewer than 13 ranks (a rules file's variant) has no PySolFC
    deals: its deal ``number`` is :func:`random_deal` seeded with the number."""
    if rules.ranks != 13:
        _check_number(number)
        board = random_deal(rules, random.Random(number))
        note = f"a {rules.ranks}-rank deck has no PySolFC deals: this is random.Random({number})'s shuffle"
        return replace(board, note=note)
    board = _pysolfc_piles(rules, number)
    if rules.kings_to_bottom:
        board = kings_to_bottom(board, rules.ranks)
    return turned_down(board, rules)  # solve() validates every board it is given; tests validate deals


def random_deal(rules: Rules, rng: random.Random) -> Board:
    """A random deal of ``rules`` (any deck size), for tests and sampling."""
    deck = [
        make_card(rank, suit) for _ in range(rules.decks) for suit in range(4) for rank in range(1, rules.ranks + 1)
    ]
    rng.shuffle(deck)
    foundations = [0] * rules.foundations
    for index in rng.sample(range(rules.foundations), rules.founded):
        foundations[index] = rules.base_rank
        deck.remove(make_card(rules.base_rank, index % 4))
    board = Board(_deal_rows(deck, rules.piles), tuple(foundations), redeals=rules.redeals)
    if rules.kings_to_bottom:
        board = Board(kings_to_bottom(board, rules.ranks).piles, board.foundations, redeals=rules.redeals)
    return turned_down(board, rules).validate(rules)
